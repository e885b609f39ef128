/* cli/cmd-infer.c -- athread infer [SPEC] FILES: a spec drafted from C code
 * (infer/infer.h), on stdout or written atomically to -o OUT.athread. */
#include <getopt.h>
#include <stdlib.h>

#include "../infer/infer.h"
#include "cli.h"
#include "code-args.h"

typedef struct infer_args {
  const char *output;          /* -o path, or NULL for stdout */
  bool all;                    /* --all: every thread that names its function is drafted */
  conform_atomicity atomicity; /* --atomicity */
  cli_code_args code;          /* -I, -D, -U */
  diag_sink *sink;             /* the run's */
} infer_args;

/* Applies -o, --all, --atomicity, -I, -D or -U (a cli_take_fn). */
static int infer_option(int c, char *arg, void *args) {
  infer_args *a = args;
  if (c == 'a') {
    a->all = true;
    return -1;
  }
  if (c == 'A')
    return cli_atomicity_of(arg, &a->atomicity)
               ? -1
               : cli_usage_error(a->sink, "infer", "--atomicity must be statement or access");
  if (c == 'o') {
    a->output = arg;
    return -1;
  }
  if (c != 'I' && c != 'D' && c != 'U') return EXIT_INTERNAL;
  cli_take_cpp_flag(&a->code, (char)c, arg);
  return -1;
}

static int infer(diag_sink *sink, const infer_args *a, char **files, int file_count) {
  infer_options o = {a->code.cpp.items, a->code.cpp.len, NULL, NULL, a->all, a->atomicity};
  if (cli_is_spec_path(files[0])) {
    o.spec_path = files[0];
    files++, file_count--;
  }
  if (file_count == 0) return cli_usage_error(sink, "infer", "no C file given");
  char *include = (char *)cli_include_dir();
  o.include_dir = include;
  strbuf out = {0};
  int code = EXIT_HOLDS;
  if (!infer_spec(sink, (const char *const *)files, (size_t)file_count, &o, &out)) code = EXIT_BAD_INPUT;
  else code = cli_put_output(sink, a->output, &out);
  sbuf_free(&out);
  free(include);
  return code;
}

int cmd_infer(diag_sink *sink, int argc, char **argv) {
  infer_args a = {.atomicity = ATOMICITY_ACCESS, .sink = sink};
  cli_parse p = {"infer", "output all atomicity", "o:I:D:U:h", NULL, infer_option, &a, sink};
  int code = cli_parse_options(argc, argv, &p);
  if (code < 0 && optind >= argc) code = cli_usage_error(sink, "infer", "no C file given");
  if (code < 0) code = cli_finish(sink, infer(sink, &a, argv + optind, argc - optind));
  cli_code_args_free(&a.code);
  return code;
}
