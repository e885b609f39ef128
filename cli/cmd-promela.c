/* cli/cmd-promela.c -- athread promela: the system as a Promela model for
 * SPIN (compose/promela.h), on stdout or written atomically to -o OUT.pml. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "../compose/promela.h"
#include "../core/outfile.h"
#include "cli.h"

typedef struct promela_args {
  spec_options opts;  /* --set overrides */
  const char *output; /* -o path, or NULL for stdout */
  const char *spec;   /* the specification */
} promela_args;

/* Parses the options into a; returns -1 to go on, else an exit code. */
static int promela_options(int argc, char **argv, promela_args *a) {
  static const struct option longopts[] = {
      {"set", required_argument, NULL, 's'},
      {"output", required_argument, NULL, 'o'},
      {"help", no_argument, NULL, 'h'},
      {NULL, 0, NULL, 0},
  };
  diag_sink sink = cli_stderr_sink();
  int c;
  opterr = 0;
  while ((c = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
    switch (c) {
    case 's':
      if (!cli_parse_override(&sink, optarg, &a->opts.overrides[a->opts.override_count])) return EXIT_BAD_INPUT;
      a->opts.override_count++;
      break;
    case 'o': a->output = optarg; break;
    case 'h': cli_usage(stdout, "promela"); return cli_finish(EXIT_HOLDS);
    default: return cli_bad_option("promela", argv);
    }
  }
  if (optind != argc - 1) return cli_usage_error("promela", "expected exactly one specification");
  a->spec = argv[optind];
  return -1;
}

/* The file name of path, for the model's header comment. */
static const char *base_name(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

static int export_spec(const promela_args *a) {
  diag_sink sink = cli_stderr_sink();
  ast_spec *spec = spec_load(&sink, a->spec, &a->opts);
  if (!spec) return EXIT_BAD_INPUT;
  strbuf out = {0};
  int code = EXIT_HOLDS;
  if (!promela_emit(&out, spec, a->output ? base_name(a->output) : NULL)) code = EXIT_BAD_INPUT;
  else if (a->output && !outfile_write(&sink, a->output, sbuf_str(&out), out.len)) code = EXIT_BAD_INPUT;
  else if (!a->output) fwrite(sbuf_str(&out), 1, out.len, stdout);
  sbuf_free(&out);
  spec_free(spec);
  return code;
}

int cmd_promela(int argc, char **argv) {
  spec_override *overrides = xcalloc((size_t)argc, sizeof *overrides);
  promela_args a = {.opts = {.overrides = overrides}};
  int code = promela_options(argc, argv, &a);
  if (code < 0) code = cli_finish(export_spec(&a));
  free(overrides);
  return code;
}
