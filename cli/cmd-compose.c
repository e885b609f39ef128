/* cli/cmd-compose.c -- `athread compose`: parse the options, load the spec,
 * call compose_run, print the verdict. */
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../compose/report.h"
#include "../compose/run.h"
#include "../core/interrupt.h"
#include "../core/smt.h"
#include "../core/outfile.h"
#include "../spec-lang/properties.h"
#include "cli.h"
#include "sarif-flows.h"

typedef struct compose_args {
  spec_options spec;       /* --set overrides */
  const char *engine;      /* auto, explicit or symbolic */
  const char *trace_out;   /* --trace-out FILE */
  const char *sarif;       /* --sarif FILE: the verdict as a SARIF log */
  bool json;               /* --json */
  bool symmetry;           /* off with --no-symmetry */
  bool progress;           /* --progress (always on a terminal) */
  bool timing;             /* off with --no-timing: output depends on nothing but the input */
  const char *for_all;     /* --for-all N: the const, or NULL */
  bool certificate;        /* --certificate: print the inductive invariant */
  bool certificate_smt;    /* --certificate-format smt: as SMT-LIB (else in the spec's syntax) */
  unsigned bound;          /* --bound K: deepest symbolic counterexample */
  explicit_options limits; /* --max-states, --timeout, --threads, --max-memory */
  const char **properties; /* --property ID (repeatable): the properties to check; none: all */
  size_t property_count;   /* entries in properties */
  bool show_properties;    /* --show-properties: list them, check nothing */
  bool werror;             /* -Werror, --warnings-as-errors */
  const char *path;        /* the spec */
  diag_sink *sink;         /* the run's */
} compose_args;

/* Applies one option (a cli_take_fn). */
static int compose_option(int c, char *arg, void *args) {
  compose_args *a = args;
  double x;
  switch (c) {
  case 'e': a->engine = arg; return -1;
  case 'F': a->for_all = arg; return -1;
  case 'm':
  case 'N':
  case 't': return cli_take_limit(a->sink, c, arg, &a->limits);
  case 'M':
    if (!cli_parse_number(a->sink, "--max-memory", arg, &x)) return EXIT_BAD_INPUT;
    a->limits.max_memory = (uint64_t)(x * 1048576.0);
    return -1;
  case 'O': a->trace_out = arg; return -1;
  case 'R': a->sarif = arg; return -1;
  case 'j': a->json = true; return -1;
  case 'n': a->symmetry = false; return -1;
  case 'p': a->progress = true; return -1;
  case 'T': a->timing = false; return -1;
  case 'c': a->certificate = true; return -1;
  case 'K': return cli_take_certificate_format(a->sink, "compose", arg, &a->certificate, &a->certificate_smt);
  case 'P': a->properties[a->property_count++] = arg; return -1;
  case 'Q': a->show_properties = true; return -1;
  case 'W': return cli_take_werror(a->sink, "compose", arg, &a->werror);
  case 'b':
    if (!cli_parse_number(a->sink, "--bound", arg, &x)) return EXIT_BAD_INPUT;
    a->bound = (unsigned)x;
    return -1;
  default: return EXIT_INTERNAL; /* not in its names */
  }
}

static int compose_options(int argc, char **argv, compose_args *a) {
  cli_parse p = {"compose",
                 "engine for-all max-states timeout threads max-memory trace-out sarif json no-symmetry progress no-timing "
                 "certificate certificate-format bound property show-properties warnings-as-errors",
                 "hW:",
                 &a->spec,
                 compose_option,
                 a,
                 a->sink};
  int code = cli_parse_options(argc, argv, &p);
  if (code >= 0) return code;
  if (optind != argc - 1) return cli_usage_error(a->sink, "compose", "expected exactly one specification");
  if (strcmp(a->engine, "auto") && strcmp(a->engine, "explicit") && strcmp(a->engine, "symbolic"))
    return cli_usage_error(a->sink, "compose", "--engine must be auto, explicit or symbolic");
  if (a->json && a->sarif && strcmp(a->sarif, "-") == 0)
    return cli_usage_error(a->sink, "compose", "--sarif - and --json would both write to standard output");
  a->path = argv[optind];
  return -1;
}

static int write_trace(diag_sink *sink, const char *path, json_t *j) {
  char *text = json_dumps(j, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
  bool ok = outfile_write(sink, path, text, strlen(text));
  free(text);
  return ok ? -1 : EXIT_BAD_INPUT;
}

/* --sarif: the report j of spec as a SARIF log of a run that exits with
 * code; false after reporting a failure. True when not asked for. */
static bool write_sarif(const compose_args *a, const ast_spec *spec, const json_t *j, int code) {
  if (!a->sarif) return true;
  sarif_input in = {.spec = spec, .compose = j};
  return sarif_flows_write(a->sink, a->sarif, &in, cli_werror_exit(a->sink, code));
}

/* Writes the report j (taken) of spec to --trace-out when unsafe, to --sarif
 * and, with --json, to stdout; returns the exit code of the verdict. */
static int emit(const compose_args *a, const ast_spec *spec, json_t *j, verdict v) {
  int code = v == VERDICT_SAFE ? EXIT_HOLDS : v == VERDICT_UNSAFE ? EXIT_VIOLATION : EXIT_UNKNOWN;
  if (a->trace_out && v == VERDICT_UNSAFE && write_trace(a->sink, a->trace_out, j) >= 0) code = EXIT_BAD_INPUT;
  if (code != EXIT_BAD_INPUT && !write_sarif(a, spec, j, code)) code = EXIT_BAD_INPUT;
  if (a->json) {
    json_dumpf(j, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    fputc('\n', stdout);
  }
  json_decref(j);
  return code;
}

/* Prints the verdict of a model run; returns the exit code. */
static int report_run(const compose_args *a, const ast_spec *spec, const compose_run_result *run, compose_report *rep) {
  rep->c.certificate = a->certificate ? run->certificate.smt : NULL;
  rep->c.certificate_spec = &run->certificate.readable;
  rep->c.certificate_smt = a->certificate_smt;
  json_t *j = cli_json_report("compose", a->path, spec, report_json(&rep->c, run->m, &run->r));
  int code = emit(a, spec, j, run->r.verdict);
  if (a->json) return code;
  report_text(stdout, &rep->c, run->m, &run->r);
  report_assumptions(stdout);
  report_verdict(stdout, run->m, &run->r);
  return code;
}

/* Prints the verdict of --for-all (with the concrete re-run's trace when it
 * is unsafe); returns the exit code. */
static int report_for_all(const compose_args *a, const ast_spec *spec, const compose_run_result *run,
                          compose_report *rep) {
  const forall_result *fr = &run->fr;
  rep->c.certificate = a->certificate ? fr->certificate : NULL;
  rep->c.certificate_spec = &fr->certificate_spec;
  rep->c.certificate_smt = a->certificate_smt;
  const mdl *m = fr->verdict == VERDICT_UNSAFE ? run->m : NULL;
  json_t *j = cli_json_report("compose", a->path, spec, report_forall_json(&rep->c, &rep->f, m, &run->r));
  int code = emit(a, spec, j, fr->verdict);
  if (!a->json) {
    report_forall_text(stdout, &rep->c, &rep->f, m, &run->r);
    report_assumptions(stdout);
    report_forall_verdict(stdout, &rep->f, m, &run->r);
  }
  if (run->failure == COMPOSE_RERUN_INTERNAL) return EXIT_INTERNAL;
  return run->failure == COMPOSE_RERUN_UNKNOWN ? EXIT_UNKNOWN : code;
}

static int run(const compose_args *a, ast_spec *spec) {
  compose_request rq = {.engine = a->engine,
                        .symmetry = a->symmetry,
                        .limits = a->limits,
                        .bound = a->bound,
                        .for_all = a->for_all,
                        .spec_options = &a->spec};
  progress lines;
  progress_init(&lines, cli_progress_out(a->sink, a->progress), "compose");
  rq.limits.progress = &lines;
  smt_unknown_on_abort("verdict: unknown: ");
  compose_run_result run;
  compose_run(spec, &rq, &run);
  int code = EXIT_BAD_INPUT;
  if (run.failure != COMPOSE_BAD_INPUT) {
    compose_report rep;
    compose_report_of(a->path, spec, a->for_all, &run, a->symmetry, &rep);
    rep.c.timing = a->timing;
    rep.c.engine_hint = true;
    code = cli_finish(a->sink, a->for_all ? report_for_all(a, spec, &run, &rep) : report_run(a, spec, &run, &rep));
  } else if (a->json) {
    code = cli_json_failure(a->sink, "compose");
  }
  if (a->for_all || run.symbolic) smt_shutdown();
  compose_run_free(&run);
  progress_free(&lines);
  return code;
}

static void show_property(void *ctx, const spec_property *p) {
  const ast_spec *spec = ctx;
  size_t line, col;
  diag_line_col(spec->src, p->expr->at.start, &line, &col);
  strbuf e = {0};
  ir_print(&e, p->expr);
  printf("%s  %s:%zu:%zu  %s  %s\n", p->id, spec->src->name, line, col, spec_property_kind_name(p->kind), sbuf_str(&e));
  sbuf_free(&e);
}

/* --show-properties: "ID  spec:L:C  kind  formula" for each, as CBMC lists its own. */
static int show_properties(diag_sink *sink, const ast_spec *spec) {
  spec_properties_each(spec, show_property, (void *)spec);
  return cli_finish(sink, EXIT_HOLDS);
}

/* Checks the spec (or lists its properties); returns the exit code. */
static int compose_spec(compose_args *a, ast_spec *spec) {
  if (a->show_properties) return show_properties(a->sink, spec);
  if (!spec_select_properties(spec, a->properties, a->property_count, a->sink))
    return a->json ? cli_json_failure(a->sink, "compose") : EXIT_BAD_INPUT;
  interrupt_install(); /* from here on Ctrl-C ends the search with verdict unknown */
  return run(a, spec);
}

int cmd_compose(diag_sink *sink, int argc, char **argv) {
  compose_args a = {.engine = "auto", .symmetry = true, .timing = true, .sink = sink};
  a.spec.overrides = xcalloc((size_t)argc, sizeof *a.spec.overrides);
  a.properties = xcalloc((size_t)argc, sizeof *a.properties);
  int code = compose_options(argc, argv, &a);
  sink->warnings_as_errors = a.werror;
  ast_spec *spec = code < 0 ? spec_load(sink, a.path, &a.spec) : NULL;
  if (code < 0) code = spec ? cli_werror_exit(sink, compose_spec(&a, spec)) : EXIT_BAD_INPUT;
  if (code == EXIT_BAD_INPUT && a.json && !spec) code = cli_json_failure(sink, "compose");
  spec_free(spec);
  free(a.properties);
  free(a.spec.overrides);
  return code;
}
