/* cli/cmd-skeleton.c -- athread skeleton: a draft spec from C code
 * (cfront/skeleton.h), on stdout or written atomically to -o OUT.athread. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "../cfront/skeleton.h"
#include "cli.h"

typedef struct skeleton_args {
  const char *output;      /* -o path, or NULL for stdout */
  VEC(char *) clang_flags; /* -I, -D, -U as "-Ipath" (heap) */
} skeleton_args;

/* Applies -o, -I, -D or -U (a cli_take_fn). */
static int skeleton_option(int c, char *arg, void *args) {
  skeleton_args *a = args;
  if (c == 'o') {
    a->output = arg;
    return -1;
  }
  if (c != 'I' && c != 'D' && c != 'U') return EXIT_INTERNAL;
  char *flag = xmalloc(strlen(arg) + 3);
  flag[0] = '-', flag[1] = (char)c;
  strcpy(flag + 2, arg);
  vec_push(NULL, &a->clang_flags, flag);
  return -1;
}

static int draft(diag_sink *sink, const skeleton_args *a, char **files, int file_count) {
  cfp_options opts = {(const char *const *)a->clang_flags.items, a->clang_flags.len, NULL};
  cfp_program *p = cfp_read(sink, (const char *const *)files, (size_t)file_count, &opts);
  strbuf out = {0};
  int code = EXIT_HOLDS;
  if (!p || !skel_write(sink, p, (const char *const *)files, (size_t)file_count, &out)) code = EXIT_BAD_INPUT;
  else code = cli_put_output(sink, a->output, &out);
  sbuf_free(&out);
  cfp_free(p);
  return code;
}

int cmd_skeleton(diag_sink *sink, int argc, char **argv) {
  skeleton_args a = {0};
  cli_parse p = {"skeleton", "output", "o:I:D:U:h", NULL, skeleton_option, &a, sink};
  int code = cli_parse_options(argc, argv, &p);
  if (code < 0 && optind >= argc) code = cli_usage_error(sink, "skeleton", "no C file given");
  if (code < 0) code = cli_finish(sink, draft(sink, &a, argv + optind, argc - optind));
  vec_foreach(&a.clang_flags, i) free(a.clang_flags.items[i]);
  vec_free(&a.clang_flags);
  return code;
}
