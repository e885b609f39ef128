/* cli/cmd-spec.c -- the subcommands that work on a specification alone:
 * lint and fmt. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../core/outfile.h"
#include "../core/smt.h"
#include "../spec-lang/fmt.h"
#include "../spec-lang/vacuity.h"
#include "cli.h"

/* ---------------------------------------------------------------- lint */

typedef struct lint_args {
  spec_options opts; /* --set, --no-warnings */
  diag_sink sink;    /* -Werror */
} lint_args;

/* Applies --no-warnings or -Werror (a cli_take_fn). */
static int lint_option(int c, char *arg, void *args) {
  lint_args *a = args;
  if (c == 'W') return cli_take_werror("lint", arg, &a->sink.warnings_as_errors);
  a->opts.warnings = false;
  return c == 'w' ? -1 : EXIT_INTERNAL;
}

/* Parses lint's options into a; returns -1 to go on, else an exit code. */
static int lint_options(int argc, char **argv, lint_args *a) {
  cli_parse p = {"lint", "no-warnings warnings-as-errors", "whW:", &a->opts, lint_option, a};
  int code = cli_parse_options(argc, argv, &p);
  if (code >= 0) return code;
  return optind < argc ? -1 : cli_usage_error("lint", "no specification given");
}

int cmd_lint(int argc, char **argv) {
  spec_override *overrides = xcalloc((size_t)argc, sizeof *overrides);
  lint_args a = {.opts = {.overrides = overrides, .warnings = true}, .sink = cli_stderr_sink()};
  int code = lint_options(argc, argv, &a);
  for (int i = optind; code < 0 && i < argc; i++) {
    for (size_t k = 0; k < a.opts.override_count; k++) overrides[k].used = false;
    ast_spec *spec = spec_load(&a.sink, argv[i], &a.opts);
    if (spec && a.opts.warnings) vacuity_warn(spec);
    spec_free(spec);
  }
  free(overrides);
  if (code >= 0) return code;
  smt_shutdown();
  return cli_werror_exit(&a.sink, a.sink.errors ? EXIT_BAD_INPUT : EXIT_HOLDS);
}

/* ---------------------------------------------------------------- fmt */

typedef enum fmt_mode { FMT_PRINT, FMT_IN_PLACE, FMT_CHECK } fmt_mode;

static int format_file(const char *path, fmt_mode mode) {
  diag_sink sink = cli_stderr_sink();
  diag_source *src = diag_source_load(&sink, path);
  if (!src) return EXIT_BAD_INPUT;
  ast_spec *spec = spec_parse_source(src);
  int code = EXIT_HOLDS;
  strbuf out = {0};
  if (sink.errors) code = EXIT_BAD_INPUT;
  else fmt_spec(&out, spec);
  bool same = out.len == src->len && memcmp(sbuf_str(&out), src->text, out.len) == 0;
  if (code == EXIT_HOLDS && mode == FMT_PRINT) fwrite(sbuf_str(&out), 1, out.len, stdout);
  if (code == EXIT_HOLDS && mode == FMT_CHECK && !same) code = EXIT_VIOLATION;
  if (code == EXIT_HOLDS && mode == FMT_IN_PLACE && !same && !outfile_write(&sink, path, sbuf_str(&out), out.len))
    code = EXIT_BAD_INPUT;
  sbuf_free(&out);
  spec_free(spec);
  return code;
}

/* Applies --in-place or --check (a cli_take_fn). */
static int fmt_option(int c, char *arg, void *args) {
  (void)arg;
  *(fmt_mode *)args = c == 'i' ? FMT_IN_PLACE : FMT_CHECK;
  return -1;
}

int cmd_fmt(int argc, char **argv) {
  fmt_mode mode = FMT_PRINT;
  cli_parse p = {"fmt", "in-place check", "ih", NULL, fmt_option, &mode};
  int code = cli_parse_options(argc, argv, &p);
  if (code >= 0) return code;
  if (optind != argc - 1) return cli_usage_error("fmt", "expected exactly one specification");
  return cli_finish(format_file(argv[optind], mode));
}
