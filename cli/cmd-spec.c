/* cli/cmd-spec.c -- the subcommands that work on a specification alone:
 * lint and fmt. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../core/outfile.h"
#include "../spec-lang/fmt.h"
#include "cli.h"

/* ---------------------------------------------------------------- lint */

/* Applies --no-warnings (a cli_take_fn: the only option of its own). */
static int lint_option(int c, char *arg, void *args) {
  (void)arg;
  ((spec_options *)args)->warnings = false;
  return c == 'w' ? -1 : EXIT_INTERNAL;
}

/* Parses lint's options into opts; returns -1 to go on, else an exit code. */
static int lint_options(diag_sink *sink, int argc, char **argv, spec_options *opts) {
  cli_parse p = {"lint", "no-warnings", "wh", opts, lint_option, opts, sink};
  int code = cli_parse_options(argc, argv, &p);
  if (code >= 0) return code;
  return optind < argc ? -1 : cli_usage_error(sink, "lint", "no specification given");
}

int cmd_lint(diag_sink *sink, int argc, char **argv) {
  spec_override *overrides = xcalloc((size_t)argc, sizeof *overrides);
  spec_options opts = {.overrides = overrides, .warnings = true};
  int code = lint_options(sink, argc, argv, &opts);
  for (int i = optind; code < 0 && i < argc; i++) {
    for (size_t k = 0; k < opts.override_count; k++) overrides[k].used = false;
    ast_spec *spec = spec_load(sink, argv[i], &opts);
    spec_free(spec);
  }
  free(overrides);
  if (code >= 0) return code;
  return sink->errors ? EXIT_BAD_INPUT : EXIT_HOLDS;
}

/* ---------------------------------------------------------------- fmt */

typedef enum fmt_mode { FMT_PRINT, FMT_IN_PLACE, FMT_CHECK } fmt_mode;

static int format_file(diag_sink *sink, const char *path, fmt_mode mode) {
  diag_source *src = diag_source_load(sink, path);
  if (!src) return EXIT_BAD_INPUT;
  ast_spec *spec = spec_parse_source(src);
  int code = EXIT_HOLDS;
  strbuf out = {0};
  if (sink->errors) code = EXIT_BAD_INPUT;
  else fmt_spec(&out, spec);
  bool same = out.len == src->len && memcmp(sbuf_str(&out), src->text, out.len) == 0;
  if (code == EXIT_HOLDS && mode == FMT_PRINT) fwrite(sbuf_str(&out), 1, out.len, stdout);
  if (code == EXIT_HOLDS && mode == FMT_CHECK && !same) code = EXIT_VIOLATION;
  if (code == EXIT_HOLDS && mode == FMT_IN_PLACE && !same && !outfile_write(sink, path, sbuf_str(&out), out.len))
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

int cmd_fmt(diag_sink *sink, int argc, char **argv) {
  fmt_mode mode = FMT_PRINT;
  cli_parse p = {"fmt", "in-place check", "ih", NULL, fmt_option, &mode, sink};
  int code = cli_parse_options(argc, argv, &p);
  if (code >= 0) return code;
  if (optind != argc - 1) return cli_usage_error(sink, "fmt", "expected exactly one specification");
  return cli_finish(sink, format_file(sink, argv[optind], mode));
}
