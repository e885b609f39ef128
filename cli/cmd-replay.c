/* cli/cmd-replay.c -- `athread replay SPEC TRACE`: re-check a counterexample
 * of compose against the spec (compose/replay.h) and print it as compose
 * does. Exit 1 when it is one, 2 (with why) when it is not. */
#include <getopt.h>
#include <stdlib.h>

#include "../compose/model-product.h"
#include "../compose/replay.h"
#include "cli.h"

typedef struct replay_args {
  diag_sink *sink;   /* the run's */
  spec_options opts; /* --set overrides (they win over the trace's consts) */
  const char *spec;  /* the specification */
  const char *trace; /* the counterexample, "-" for stdin */
} replay_args;

/* Applies one option (a cli_take_fn). */
static int replay_option(int c, char *arg, void *args) {
  (void)arg, (void)args;
  /* --no-timing: compose's, taken so a command line can be reused; a replay prints no times */
  return c == 'T' ? -1 : EXIT_INTERNAL;
}

static int replay_options(int argc, char **argv, replay_args *a) {
  cli_parse p = {"replay", "no-timing", "h", &a->opts, replay_option, a, a->sink};
  int code = cli_parse_options(argc, argv, &p);
  if (code >= 0) return code;
  if (optind != argc - 2) return cli_usage_error(a->sink, "replay", "expected a specification and a trace");
  a->spec = argv[optind];
  a->trace = argv[optind + 1];
  return -1;
}

/* Replays trace on spec's model and prints it; returns the exit code. */
static int replay(const replay_args *a, const ast_spec *spec, const diag_source *trace) {
  mdl *m = product_build_checker(spec);
  compose_replayed out;
  if (!m || !compose_replay(a->sink, trace->name, trace->text, trace->len, spec, m, &out)) {
    mdl_free(m);
    return EXIT_BAD_INPUT;
  }
  report_context c = {.spec = spec,
                      .spec_path = a->spec,
                      .system = spec->system ? spec->system->name : "(one instance of each thread)",
                      .engine = out.engine,
                      .engine_why = out.engine_why,
                      .replay = trace->name};
  report_text(stdout, &c, m, &out.r);
  report_assumptions(stdout);
  report_verdict(stdout, m, &out.r);
  compose_result_free(&out.r);
  mdl_free(m);
  return cli_finish(a->sink, EXIT_VIOLATION);
}

static int load_and_replay(const replay_args *a) {
  ast_spec *spec = spec_load(a->sink, a->spec, &a->opts);
  diag_source *trace = spec ? diag_source_load(a->sink, a->trace) : NULL;
  if (trace) spec = cli_spec_with_trace_consts(spec, trace, &a->opts);
  int code = spec && trace ? replay(a, spec, trace) : EXIT_BAD_INPUT;
  diag_source_free(trace);
  spec_free(spec);
  return code;
}

int cmd_replay(diag_sink *sink, int argc, char **argv) {
  replay_args a = {.sink = sink, .opts = {.overrides = xcalloc((size_t)argc, sizeof(spec_override))}};
  int code = replay_options(argc, argv, &a);
  if (code < 0) code = load_and_replay(&a);
  free(a.opts.overrides);
  return code;
}
