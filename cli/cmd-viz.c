/* cli/cmd-viz.c -- athread viz: the threads and the system of a spec, and a
 * counterexample over them, drawn with Graphviz (viz/viz.h); or the data
 * races of a report of athread races --json, which needs no spec. DOT goes to
 * stdout unless -o names a .dot, .svg, .png or .pdf file, which is written
 * atomically; -T FORMAT picks the format as Graphviz's dot -T does (for
 * stdout, or over the extension). */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../core/outfile.h"
#include "../core/suggest.h"
#include "../viz/viz.h"
#include "cli.h"

typedef struct viz_args {
  spec_options opts;  /* --set overrides */
  const char *output; /* -o path, or NULL for DOT on stdout */
  viz_format format;  /* -T's, else from the output's extension */
  const char *named;  /* -T FORMAT, or NULL */
  const char *thread; /* --thread T, or NULL */
  const char *trace;  /* --trace FILE, or NULL */
  bool idle;          /* --idle */
  const char *spec;   /* the specification */
  diag_sink *sink;    /* the run's */
} viz_args;

/* Applies one option (a cli_take_fn). */
static int viz_option(int c, char *arg, void *args) {
  viz_args *a = args;
  switch (c) {
  case 'o': a->output = arg; return -1;
  case 'T':
  case 'f': a->named = arg; return -1;
  case 'r': a->thread = arg; return -1;
  case 'X': a->trace = arg; return -1;
  case 'd': a->idle = true; return -1;
  default: return EXIT_INTERNAL; /* not in its names */
  }
}

/* The format: -T's, else the output's extension's, else DOT; -1 when
 * known, else the exit code after a report. */
static int choose_format(viz_args *a) {
  char msg[256];
  if (a->named && !viz_format_of_name(a->named, &a->format)) {
    snprintf(msg, sizeof msg, "-T '%.60s': the format must be dot, gv, svg, png or pdf", a->named);
    return cli_usage_error(a->sink, "viz", msg);
  }
  bool stdout_only = !a->output || strcmp(a->output, "-") == 0;
  if (a->named || stdout_only) return -1;
  if (viz_format_of_path(a->output, &a->format)) return -1;
  snprintf(
      msg, sizeof msg,
      "cannot tell the format of '%.100s': the output must end in .dot, .gv, .svg, .png or .pdf (or give -T FORMAT)",
      a->output);
  return cli_usage_error(a->sink, "viz", msg);
}

static int viz_options_parse(int argc, char **argv, viz_args *a) {
  cli_parse p = {"viz", "output thread trace idle format", "o:T:h", &a->opts, viz_option, a, a->sink};
  int code = cli_parse_options(argc, argv, &p);
  if (code >= 0) return code;
  if (optind < argc - 1 || (optind == argc && !a->trace))
    return cli_usage_error(a->sink, "viz", "expected exactly one specification");
  a->spec = optind < argc ? argv[optind] : NULL; /* (only a race report needs none) */
  return choose_format(a);
}

static const char *base_name(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

/* The thread --thread names, or NULL after a report. */
static const ast_thread *chosen_thread(const ast_spec *spec, const viz_args *a) {
  const ast_thread *t = ast_find_thread(spec, a->thread);
  if (t) return t;
  const char **names = xcalloc(spec->threads.len + 1, sizeof *names);
  vec_foreach(&spec->threads, i) names[i] = spec->threads.items[i]->name;
  const char *near = suggest_name(a->thread, names, spec->threads.len);
  diag_error_at(a->sink, "athread", "--thread %s: %s declares no thread '%s'%s%s%s", a->thread, base_name(a->spec),
                a->thread, near ? "; did you mean '" : "", near ? near : "", near ? "'?" : "");
  free(names);
  return NULL;
}

static int write_output(const viz_args *a, const char *bytes, size_t len) {
  bool to_stdout = !a->output || strcmp(a->output, "-") == 0;
  if (to_stdout && a->format != VIZ_DOT && isatty(STDOUT_FILENO)) {
    diag_error_at(a->sink, "athread", "not writing %s to a terminal (redirect standard output, or give -o FILE)",
                  a->named);
    return EXIT_BAD_INPUT;
  }
  if (a->output) return outfile_write(a->sink, a->output, bytes, len) ? EXIT_HOLDS : EXIT_BAD_INPUT;
  fwrite(bytes, 1, len, stdout);
  return cli_finish(a->sink, EXIT_HOLDS);
}

static int draw(const viz_args *a, const ast_spec *spec, const diag_source *trace_text) {
  viz_options o = {.idle = a->idle, .spec_name = base_name(a->spec)};
  if (a->thread && !(o.only = chosen_thread(spec, a))) return EXIT_BAD_INPUT;
  viz_trace *trace =
      trace_text ? viz_trace_parse(a->sink, trace_text->name, trace_text->text, trace_text->len, spec) : NULL;
  if (trace_text && !trace) return EXIT_BAD_INPUT;
  o.trace = trace;
  char *bytes = NULL;
  size_t len = 0;
  viz_result r = viz_render(a->sink, spec, &o, a->format, &bytes, &len);
  int code = r == VIZ_DONE ? write_output(a, bytes, len) : r == VIZ_TOO_LARGE ? EXIT_BAD_INPUT : EXIT_INTERNAL;
  free(bytes);
  viz_trace_free(trace);
  return code;
}

/* A race report (athread races --json): its trace, over the C code; the
 * specification, when one is given, is not read. */
static int draw_race(const viz_args *a, const diag_source *report) {
  char *bytes = NULL;
  size_t len = 0;
  viz_result r = viz_render_race(a->sink, report->name, report->text, report->len, a->format, &bytes, &len);
  int code = r == VIZ_DONE ? write_output(a, bytes, len) : r == VIZ_REFUSED ? EXIT_BAD_INPUT : EXIT_INTERNAL;
  free(bytes);
  return code;
}

static int draw_with_spec(const viz_args *a, const diag_source *trace) {
  ast_spec *spec = spec_load(a->sink, a->spec, &a->opts);
  if (spec && trace) spec = cli_spec_with_trace_consts(spec, trace, &a->opts);
  int code = spec ? draw(a, spec, trace) : EXIT_BAD_INPUT;
  spec_free(spec);
  return code;
}

/* The trace is read once (it may be standard input): a race report is
 * drawn alone, any other trace over the spec. */
static int load_and_draw(viz_args *a) {
  diag_source *trace = a->trace ? diag_source_load(a->sink, a->trace) : NULL;
  int code;
  if (a->trace && !trace) code = EXIT_BAD_INPUT;
  else if (trace && (!a->spec || viz_is_race_report(trace->text, trace->len))) code = draw_race(a, trace);
  else code = draw_with_spec(a, trace);
  diag_source_free(trace);
  return code;
}

int cmd_viz(diag_sink *sink, int argc, char **argv) {
  viz_args a = {.opts = {.overrides = xcalloc((size_t)argc, sizeof(spec_override))}, .sink = sink};
  int code = viz_options_parse(argc, argv, &a);
  if (code < 0) code = load_and_draw(&a);
  free(a.opts.overrides);
  return code;
}
