/* cli/cmd-spec.c -- the subcommands that work on a specification alone:
 * lint and fmt. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../core/linediff.h"
#include "../core/outfile.h"
#include "../core/smt.h"
#include "../spec-lang/fmt.h"
#include "../spec-lang/vacuity.h"
#include "cli.h"

/* ---------------------------------------------------------------- lint */

typedef struct lint_args {
  diag_sink *sink;   /* the run's; -Werror sets its warnings_as_errors */
  spec_options opts; /* --set, --no-warnings */
} lint_args;

/* Applies --no-warnings or -Werror (a cli_take_fn). */
static int lint_option(int c, char *arg, void *args) {
  lint_args *a = args;
  if (c == 'W') return cli_take_werror(a->sink, "lint", arg, &a->sink->warnings_as_errors);
  a->opts.warnings = false;
  return c == 'w' ? -1 : EXIT_INTERNAL;
}

/* Parses lint's options into a; returns -1 to go on, else an exit code. */
static int lint_options(int argc, char **argv, lint_args *a) {
  cli_parse p = {"lint", "no-warnings warnings-as-errors", "whW:", &a->opts, lint_option, a, a->sink};
  int code = cli_parse_options(argc, argv, &p);
  if (code >= 0) return code;
  return optind < argc ? -1 : cli_usage_error(a->sink, "lint", "no specification given");
}

int cmd_lint(diag_sink *sink, int argc, char **argv) {
  spec_override *overrides = xcalloc((size_t)argc, sizeof *overrides);
  lint_args a = {.sink = sink, .opts = {.overrides = overrides, .warnings = true}};
  int code = lint_options(argc, argv, &a);
  for (int i = optind; code < 0 && i < argc; i++) {
    for (size_t k = 0; k < a.opts.override_count; k++) overrides[k].used = false;
    ast_spec *spec = spec_load(sink, argv[i], &a.opts);
    if (spec && a.opts.warnings) vacuity_warn(spec);
    spec_free(spec);
  }
  free(overrides);
  if (code >= 0) return code;
  smt_shutdown();
  return cli_werror_exit(sink, sink->errors ? EXIT_BAD_INPUT : EXIT_HOLDS);
}

/* ---------------------------------------------------------------- fmt */

typedef enum fmt_mode {
  FMT_PRINT,    /* print each file's canonical text */
  FMT_IN_PLACE, /* -i: rewrite each file that is not canonical */
  FMT_CHECK,    /* --check, -l: name each file that is not canonical */
  FMT_DIFF      /* --diff: show what -i would change */
} fmt_mode;

/* What one file needs, its canonical text being out: writes it, names the
 * file or shows the diff; returns EXIT_VIOLATION when it is not canonical
 * (--check, --diff), EXIT_BAD_INPUT when it cannot be written. */
static int apply_mode(diag_sink *sink, const diag_source *src, const strbuf *out, fmt_mode mode) {
  bool same = out->len == src->len && memcmp(sbuf_str(out), src->text, out->len) == 0;
  if (mode == FMT_PRINT) fwrite(sbuf_str(out), 1, out->len, stdout);
  if (same || mode == FMT_PRINT) return EXIT_HOLDS;
  if (mode == FMT_IN_PLACE)
    return outfile_write(sink, src->name, sbuf_str(out), out->len) ? EXIT_HOLDS : EXIT_BAD_INPUT;
  if (mode == FMT_CHECK) printf("%s\n", src->name);
  if (mode == FMT_DIFF) {
    strbuf diff = {0};
    linediff_unified(&diff, src->text, src->len, src->name, sbuf_str(out), out->len, src->name);
    fwrite(sbuf_str(&diff), 1, diff.len, stdout);
    sbuf_free(&diff);
  }
  return EXIT_VIOLATION;
}

/* Formats one file (a file with errors is reported and left alone). */
static int format_file(diag_sink *sink, const char *path, fmt_mode mode) {
  int errors = sink->errors;
  diag_source *src = diag_source_load(sink, path);
  if (!src) return EXIT_BAD_INPUT;
  ast_spec *spec = spec_parse_source(src);
  int code = EXIT_BAD_INPUT;
  if (sink->errors == errors) {
    strbuf out = {0};
    fmt_spec(&out, spec);
    code = apply_mode(sink, src, &out, mode);
    sbuf_free(&out);
  }
  spec_free(spec);
  return code;
}

/* Applies --in-place, --check (-l, --list) or --diff (a cli_take_fn); two
 * different ones are a usage error. */
typedef struct fmt_args {
  diag_sink *sink; /* the run's */
  fmt_mode mode;   /* what to do with each file */
} fmt_args;

static int fmt_option(int c, char *arg, void *args) {
  (void)arg;
  fmt_args *a = args;
  fmt_mode chosen = c == 'i' ? FMT_IN_PLACE : c == 'u' ? FMT_DIFF : FMT_CHECK;
  if (a->mode != FMT_PRINT && a->mode != chosen)
    return cli_usage_error(a->sink, "fmt", "--in-place, --check and --diff exclude each other");
  a->mode = chosen;
  return -1;
}

/* The worse of two exit codes: bad input, then not canonical, then done. */
static int worse(int a, int b) { return a == EXIT_BAD_INPUT || b == EXIT_BAD_INPUT ? EXIT_BAD_INPUT : a > b ? a : b; }

int cmd_fmt(diag_sink *sink, int argc, char **argv) {
  fmt_args a = {sink, FMT_PRINT};
  cli_parse p = {"fmt", "in-place check list diff", "ilh", NULL, fmt_option, &a, sink};
  int code = cli_parse_options(argc, argv, &p);
  if (code >= 0) return code;
  if (optind == argc) return cli_usage_error(sink, "fmt", "no specification given");
  code = EXIT_HOLDS;
  for (int i = optind; i < argc; i++) code = worse(code, format_file(sink, argv[i], a.mode));
  return cli_finish(sink, code);
}
