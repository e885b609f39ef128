/* cli/cmd-promela.c -- athread promela: the system as a Promela model for
 * SPIN (compose/promela.h), on stdout or written atomically to -o OUT.pml. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "../compose/promela.h"
#include "cli.h"

typedef struct promela_args {
  spec_options opts;  /* --set overrides */
  const char *output; /* -o path, or NULL for stdout */
  const char *spec;   /* the specification */
  diag_sink *sink;    /* the run's */
} promela_args;

/* Applies -o (a cli_take_fn: the only option of its own). */
static int promela_option(int c, char *arg, void *args) {
  ((promela_args *)args)->output = arg;
  return c == 'o' ? -1 : EXIT_INTERNAL;
}

/* Parses the options into a; returns -1 to go on, else an exit code. */
static int promela_options(int argc, char **argv, promela_args *a) {
  cli_parse p = {"promela", "output", "o:h", &a->opts, promela_option, a, a->sink};
  int code = cli_parse_options(argc, argv, &p);
  if (code >= 0) return code;
  if (optind != argc - 1) return cli_usage_error(a->sink, "promela", "expected exactly one specification");
  a->spec = argv[optind];
  return -1;
}

/* The file name of path, for the model's header comment. */
static const char *base_name(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

static int export_spec(const promela_args *a) {
  ast_spec *spec = spec_load(a->sink, a->spec, &a->opts);
  if (!spec) return EXIT_BAD_INPUT;
  strbuf out = {0};
  int code = EXIT_HOLDS;
  bool named = a->output && strcmp(a->output, "-") != 0;
  if (!promela_emit(&out, spec, named ? base_name(a->output) : NULL)) code = EXIT_BAD_INPUT;
  else code = cli_put_output(a->sink, a->output, &out);
  sbuf_free(&out);
  spec_free(spec);
  return code;
}

int cmd_promela(diag_sink *sink, int argc, char **argv) {
  spec_override *overrides = xcalloc((size_t)argc, sizeof *overrides);
  promela_args a = {.opts = {.overrides = overrides}, .sink = sink};
  int code = promela_options(argc, argv, &a);
  if (code < 0) code = cli_finish(sink, export_spec(&a));
  free(overrides);
  return code;
}
