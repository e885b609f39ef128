/* cli/cmd-review.c -- athread review: one self-contained HTML page about a
 * spec and, given C files, its threads' code (review/review.h). The page
 * goes to -o FILE (written atomically) or to stdout; the command prints
 * nothing else but diagnostics. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "../core/strbuf.h"
#include "../review/review.h"
#include "cli.h"
#include "code-args.h"

typedef struct review_args {
  spec_options opts;       /* --set overrides */
  cli_code_args code;      /* --thread T=func; -I, -D, -U */
  const char *output;      /* -o path; "-" (stdout) by default */
  explicit_options limits; /* --max-states, --timeout */
  const char *spec_path;   /* the spec */
  char **files;            /* the C files */
  int file_count;          /* how many (0: the spec alone) */
  const char *for_all;     /* --for-all N: the const, or NULL */
  diag_sink *sink;         /* the run's */
} review_args;

/* Applies one option (a cli_take_fn). */
static int review_option(int c, char *arg, void *args) {
  review_args *a = args;
  switch (c) {
  case 'o': a->output = arg; return -1;
  case 'F': a->for_all = arg; return -1;
  case 'm':
  case 't': return cli_take_limit(a->sink, c, arg, &a->limits);
  case 'r':
    return cli_take_binding(&a->code, arg) ? -1
                                           : cli_usage_error(a->sink, "review", "--thread expects THREAD=FUNCTION");
  case 'I':
  case 'D':
  case 'U': cli_take_cpp_flag(&a->code, (char)c, arg); return -1;
  default: return EXIT_INTERNAL; /* not in its names */
  }
}

/* The threads' checks as `athread check` makes them by default: C's
 * integers and atomicity, the system's environment, --timeout for them all. */
static conform_request code_request(const review_args *a, const char **function, const char *include) {
  return (conform_request){
      .files = (const char *const *)a->files,
      .file_count = (size_t)a->file_count,
      .cpp = {.cpp_flags = a->code.cpp.items, .cpp_flag_count = a->code.cpp.len, .include_dir = include},
      .function = function,
      .timeout = a->limits.timeout,
      .atomicity = ATOMICITY_ACCESS,
      .ints = CFE_INTS_C,
      .env = ENV_SYSTEM,
      .env_max_states = ENV_MAX_STATES};
}

static review_outcome review_with(review_args *a, ast_spec *spec, review_request *rq) {
  if (!a->file_count) return review_write(a->sink, spec, rq);
  const char **function = xcalloc(spec->threads.len + 1, sizeof *function);
  const char *include = cli_include_dir();
  conform_request code = code_request(a, function, include);
  rq->code = &code;
  review_outcome r = cli_resolve_bindings(a->sink, &a->code, a->spec_path, spec, function)
                         ? review_write(a->sink, spec, rq)
                         : REVIEW_BAD_INPUT;
  free((void *)include);
  free(function);
  return r;
}

static int review(review_args *a, char *typed) {
  ast_spec *spec = spec_load(a->sink, a->spec_path, &a->opts);
  if (!spec) return EXIT_BAD_INPUT;
  review_request rq = {.spec_path = a->spec_path,
                       .spec = &a->opts,
                       .output = a->output,
                       .command_line = typed,
                       .version = ATHREAD_VERSION,
                       .limits = a->limits,
                       .for_all = a->for_all};
  review_outcome r = review_with(a, spec, &rq);
  spec_free(spec);
  return r == REVIEW_WRITTEN ? cli_finish(a->sink, EXIT_HOLDS) : r == REVIEW_BAD_INPUT ? EXIT_BAD_INPUT : EXIT_INTERNAL;
}

int cmd_review(diag_sink *sink, int argc, char **argv) {
  review_args a = {.opts = {.overrides = xcalloc((size_t)argc, sizeof(spec_override))}, .output = "-", .sink = sink};
  char *typed = cli_command_line(argc, argv);
  cli_parse p = {"review", "output max-states timeout thread for-all", "o:hI:D:U:", &a.opts, review_option, &a, sink};
  int code = cli_parse_options(argc, argv, &p);
  if (code < 0 && optind >= argc) code = cli_usage_error(sink, "review", "expected a specification (and its C files)");
  if (code < 0) {
    a.spec_path = argv[optind];
    a.files = argv + optind + 1;
    a.file_count = argc - optind - 1;
    code = review(&a, typed);
  }
  free(typed);
  cli_code_args_free(&a.code);
  free(a.opts.overrides);
  return code;
}
