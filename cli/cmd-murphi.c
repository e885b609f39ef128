/* cli/cmd-murphi.c -- athread murphi: the system as a Murphi model for
 * rumur (compose/murphi.h), on stdout or written atomically to -o OUT.m. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "../compose/murphi.h"
#include "cli.h"

typedef struct murphi_args {
  spec_options opts;  /* --set overrides */
  const char *output; /* -o path, or NULL for stdout */
  const char *spec;   /* the specification */
  bool symmetry;      /* off with --no-symmetry: no scalarsets */
  diag_sink *sink;    /* the run's */
} murphi_args;

/* Applies -o and --no-symmetry (a cli_take_fn). */
static int murphi_option(int c, char *arg, void *args) {
  murphi_args *a = args;
  switch (c) {
  case 'o': a->output = arg; return -1;
  case 'n': a->symmetry = false; return -1;
  default: return EXIT_INTERNAL; /* not in its names */
  }
}

/* Parses the options into a; returns -1 to go on, else an exit code. */
static int murphi_options(int argc, char **argv, murphi_args *a) {
  cli_parse p = {"murphi", "output no-symmetry", "o:h", &a->opts, murphi_option, a, a->sink};
  int code = cli_parse_options(argc, argv, &p);
  if (code >= 0) return code;
  if (optind != argc - 1) return cli_usage_error(a->sink, "murphi", "expected exactly one specification");
  a->spec = argv[optind];
  return -1;
}

/* The file name of path, for the model's header comment. */
static const char *base_name(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

static int export_spec(const murphi_args *a) {
  ast_spec *spec = spec_load(a->sink, a->spec, &a->opts);
  if (!spec) return EXIT_BAD_INPUT;
  strbuf out = {0};
  int code = EXIT_HOLDS;
  bool named = a->output && strcmp(a->output, "-") != 0;
  if (!murphi_emit(&out, spec, named ? base_name(a->output) : NULL, a->symmetry)) code = EXIT_BAD_INPUT;
  else code = cli_put_output(a->sink, a->output, &out);
  sbuf_free(&out);
  spec_free(spec);
  return code;
}

int cmd_murphi(diag_sink *sink, int argc, char **argv) {
  spec_override *overrides = xcalloc((size_t)argc, sizeof *overrides);
  murphi_args a = {.opts = {.overrides = overrides}, .symmetry = true, .sink = sink};
  int code = murphi_options(argc, argv, &a);
  if (code < 0) code = cli_finish(sink, export_spec(&a));
  free(overrides);
  return code;
}
