/* cli/cmd-compose.c -- `athread compose`: load the spec, build the product
 * model, run an engine, print the verdict. */
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../compose/engine-explicit.h"
#include "../compose/engine-forall.h"
#include "../compose/engine-symbolic.h"
#include "../compose/model-product.h"
#include "../compose/report.h"
#include "../core/interrupt.h"
#include "../core/smt.h"
#include "../core/outfile.h"
#include "cli.h"

typedef struct compose_args {
  spec_options spec;          /* --set overrides */
  const char *engine;         /* auto, explicit or symbolic */
  const char *trace_out;      /* --trace-out FILE */
  bool json;                  /* --json */
  bool symmetry;              /* off with --no-symmetry */
  bool progress;              /* --progress (always on a terminal) */
  bool timing;                /* off with --no-timing: output depends on nothing but the input */
  const char *for_all;        /* --for-all N: the const, or NULL */
  bool certificate;           /* --certificate: print the inductive invariant */
  unsigned bound;             /* --bound K: deepest symbolic counterexample */
  explicit_options limits;    /* --max-states, --timeout, --max-memory */
  const char *path;           /* the spec */
} compose_args;

/* Applies one option; returns -1 to go on, else an exit code. */
static int compose_option(int c, compose_args *a, char **argv) {
  diag_sink sink = cli_stderr_sink();
  double x;
  switch (c) {
  case 's':
    if (!cli_parse_override(&sink, optarg, &a->spec.overrides[a->spec.override_count])) return EXIT_BAD_INPUT;
    a->spec.override_count++;
    return -1;
  case 'e': a->engine = optarg; return -1;
  case 'F': a->for_all = optarg; return -1;
  case 'm': if (!cli_parse_number("--max-states", optarg, &x)) return EXIT_BAD_INPUT; a->limits.max_states = (uint64_t)x; return -1;
  case 't': if (!cli_parse_number("--timeout", optarg, &x)) return EXIT_BAD_INPUT; a->limits.timeout = x; return -1;
  case 'M': if (!cli_parse_number("--max-memory", optarg, &x)) return EXIT_BAD_INPUT; a->limits.max_memory = (uint64_t)(x * 1048576.0); return -1;
  case 'o': a->trace_out = optarg; return -1;
  case 'j': a->json = true; return -1;
  case 'n': a->symmetry = false; return -1;
  case 'p': a->progress = true; return -1;
  case 'T': a->timing = false; return -1;
  case 'c': a->certificate = true; return -1;
  case 'b': if (!cli_parse_number("--bound", optarg, &x)) return EXIT_BAD_INPUT; a->bound = (unsigned)x; return -1;
  case 'h': cli_usage(stdout, "compose"); return cli_finish(EXIT_HOLDS);
  default: return cli_bad_option("compose", argv);
  }
}

static int compose_options(int argc, char **argv, compose_args *a) {
  static const struct option longopts[] = {
    {"set", required_argument, NULL, 's'},        {"engine", required_argument, NULL, 'e'},
    {"for-all", required_argument, NULL, 'F'},    {"max-states", required_argument, NULL, 'm'},
    {"timeout", required_argument, NULL, 't'},    {"max-memory", required_argument, NULL, 'M'},
    {"trace-out", required_argument, NULL, 'o'},  {"json", no_argument, NULL, 'j'},
    {"no-symmetry", no_argument, NULL, 'n'},      {"progress", no_argument, NULL, 'p'},
    {"no-timing", no_argument, NULL, 'T'},        {"certificate", no_argument, NULL, 'c'},
    {"bound", required_argument, NULL, 'b'},
    {"help", no_argument, NULL, 'h'},             {NULL, 0, NULL, 0},
  };
  int c, code;
  opterr = 0;
  while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1)
    if ((code = compose_option(c, a, argv)) >= 0) return code;
  if (optind != argc - 1) return cli_usage_error("compose", "expected exactly one specification");
  if (strcmp(a->engine, "auto") && strcmp(a->engine, "explicit") && strcmp(a->engine, "symbolic"))
    return cli_usage_error("compose", "--engine must be auto, explicit or symbolic");
  a->path = argv[optind];
  return -1;
}

static int write_trace(const char *path, json_t *j) {
  char *text = json_dumps(j, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
  diag_sink sink = cli_stderr_sink();
  bool ok = outfile_write(&sink, path, text, strlen(text));
  free(text);
  return ok ? -1 : EXIT_BAD_INPUT;
}

/* The engine that runs and why. */
typedef struct plan {
  bool symbolic;        /* else explicit */
  char why[240];        /* for the report */
  mdl *m;               /* explicit: the enumerating model; symbolic: the checker */
} plan;

/* Builds the explicit model quietly (auto mode): on failure its first error
 * becomes the reason the symbolic engine runs. */
static mdl *try_explicit(ast_spec *spec, bool symmetry, char *why, size_t size) {
  diag_sink quiet = {0};
  diag_sink *loud = spec->src->sink;
  spec->src->sink = &quiet;
  mdl *m = product_build(spec, symmetry);
  spec->src->sink = loud;
  snprintf(why, size, "the explicit engine cannot run: %.*s", (int)strcspn(quiet.first_error, ";"), quiet.first_error);
  return m;
}

static bool choose_engine(const compose_args *a, ast_spec *spec, plan *p) {
  if (strcmp(a->engine, "explicit") == 0) {
    snprintf(p->why, sizeof p->why, "chosen with --engine");
    return (p->m = product_build(spec, a->symmetry)) != NULL;
  }
  if (strcmp(a->engine, "auto") == 0 && (p->m = try_explicit(spec, a->symmetry, p->why, sizeof p->why))) {
    snprintf(p->why, sizeof p->why, "every choice is finite");
    return true;
  }
  if (strcmp(a->engine, "symbolic") == 0) snprintf(p->why, sizeof p->why, "chosen with --engine");
  p->symbolic = true;
  return (p->m = product_build_checker(spec)) != NULL;
}

static void run_engine(const compose_args *a, const ast_spec *spec, const plan *p, compose_result *r, char **certificate) {
  *certificate = NULL;
  if (p->symbolic) {
    symbolic_options so = {.timeout = a->limits.timeout, .bmc_bound = a->bound};
    symbolic_run(spec, p->m, &so, r, certificate);
    return;
  }
  explicit_options limits = a->limits;
  limits.progress = a->progress || isatty(STDERR_FILENO) ? stderr : NULL;
  explicit_run(p->m, &limits, r);
}

static int run(const compose_args *a, const ast_spec *spec, const plan *p) {
  compose_result r;
  char *certificate;
  run_engine(a, spec, p, &r, &certificate);
  report_context c = {.spec_path = a->path, .system = spec->system ? spec->system->name : "(one instance of each thread)",
                      .engine = p->symbolic ? "symbolic" : "explicit", .symmetry = a->symmetry && !p->symbolic, .timing = a->timing,
                      .engine_why = p->why, .certificate = a->certificate ? certificate : NULL};
  json_t *j = report_json(&c, p->m, &r);
  int code = r.verdict == VERDICT_SAFE ? EXIT_HOLDS : r.verdict == VERDICT_UNSAFE ? EXIT_VIOLATION : EXIT_UNKNOWN;
  if (a->trace_out && r.verdict == VERDICT_UNSAFE && write_trace(a->trace_out, j) >= 0) code = EXIT_BAD_INPUT;
  if (a->json) {
    json_dumpf(j, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    fputc('\n', stdout);
  } else {
    report_text(stdout, &c, p->m, &r);
  }
  json_decref(j);
  compose_result_free(&r);
  free(certificate);
  return code;
}

/* ---------------------------------------------------------------- --for-all */

/* The overrides of the command line with param set to n (replacing any --set of it). */
static spec_options with_param(const compose_args *a, const char *param, int64_t n) {
  spec_options o = a->spec;
  o.overrides = xcalloc(a->spec.override_count + 1, sizeof *o.overrides);
  o.override_count = 0;
  for (size_t i = 0; i < a->spec.override_count; i++)
    if (strcmp(a->spec.overrides[i].name, param) != 0) o.overrides[o.override_count++] = (spec_override){.name = a->spec.overrides[i].name, .value = a->spec.overrides[i].value};
  o.overrides[o.override_count++] = (spec_override){.name = param, .value = n};
  return o;
}

/* The concrete run for a counterexample of the counter system with N = fr->n:
 * the usual engines on the spec loaded with --set N=n. Returns -1 when it
 * reproduced the violation (r, p filled), else the exit code, after turning
 * the verdict into unknown with the reason. */
static int rerun_concrete(const compose_args *a, forall_result *fr, ast_spec **spec, plan *p, compose_result *r) {
  spec_options o = with_param(a, a->for_all, fr->n);
  diag_sink sink = cli_stderr_sink();
  *spec = spec_load(&sink, a->path, &o);
  free(o.overrides);
  compose_args b = *a;
  if (a->limits.timeout > 0) b.limits.timeout = a->limits.timeout > fr->seconds + 0.01 ? a->limits.timeout - fr->seconds : 0.01;
  char *certificate = NULL;
  if (*spec && choose_engine(&b, *spec, p)) run_engine(&b, *spec, p, r, &certificate);
  free(certificate);
  if (*spec && p->m && r->verdict == VERDICT_UNSAFE) return -1;
  const char *what = !*spec || !p->m ? "does not load" : r->verdict == VERDICT_SAFE ? "is safe (an internal error)" : r->unknown_reason;
  snprintf(fr->unknown_reason, sizeof fr->unknown_reason, "the counter system has a counterexample with %s = %" PRId64 ", but the concrete system with %s = %" PRId64 " %.80s",
           a->for_all, fr->n, a->for_all, fr->n, what);
  fr->verdict = VERDICT_UNKNOWN;
  return !*spec || !p->m || r->verdict == VERDICT_SAFE ? EXIT_INTERNAL : EXIT_UNKNOWN;
}

static int report_for_all(const compose_args *a, const ast_spec *spec, const report_forall *f, const plan *p, const compose_result *r) {
  const forall_result *fr = f->result;
  char why[200];
  snprintf(why, sizeof why, "--for-all %s: counter abstraction of %s", a->for_all, fr->counted);
  report_context c = {.spec_path = a->path, .system = spec->system ? spec->system->name : "(one instance of each thread)", .engine = "for-all",
                      .engine_why = why, .timing = a->timing, .certificate = a->certificate ? fr->certificate : NULL};
  const mdl *m = fr->verdict == VERDICT_UNSAFE ? p->m : NULL;
  json_t *j = report_forall_json(&c, f, m, r);
  int code = fr->verdict == VERDICT_SAFE ? EXIT_HOLDS : fr->verdict == VERDICT_UNSAFE ? EXIT_VIOLATION : EXIT_UNKNOWN;
  if (a->trace_out && fr->verdict == VERDICT_UNSAFE && write_trace(a->trace_out, j) >= 0) code = EXIT_BAD_INPUT;
  if (a->json) {
    json_dumpf(j, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    fputc('\n', stdout);
  } else {
    report_forall_text(stdout, &c, f, m, r);
  }
  json_decref(j);
  return code;
}

/* --for-all N: the counter system for every N >= 1, then, when it is unsafe,
 * the concrete trace for the N that BMC found. */
static int run_for_all(const compose_args *a, const ast_spec *spec) {
  if (!forall_applicable(spec, a->for_all)) return EXIT_BAD_INPUT;
  const ast_const *n = NULL;
  vec_foreach(&spec->consts, i)
    if (strcmp(spec->consts.items[i]->name, a->for_all) == 0) n = spec->consts.items[i];
  forall_options o = {.param = a->for_all, .timeout = a->limits.timeout, .bmc_bound = a->bound};
  forall_result fr;
  forall_run(spec, &o, &fr);
  ast_spec *concrete = NULL;
  plan p = {0};
  compose_result r = {0};
  int failed = fr.verdict == VERDICT_UNSAFE ? rerun_concrete(a, &fr, &concrete, &p, &r) : -1;
  report_forall f = {.param = a->for_all, .ignored_value = n->value, .ignored_from_set = n->overridden, .result = &fr,
                     .concrete_engine = p.symbolic ? "symbolic" : "explicit", .concrete_why = p.why,
                     .concrete_symmetry = a->symmetry && !p.symbolic};
  int code = report_for_all(a, spec, &f, &p, &r);
  compose_result_free(&r);
  mdl_free(p.m);
  spec_free(concrete);
  forall_result_free(&fr);
  smt_shutdown();
  return failed >= 0 ? failed : code;
}

int cmd_compose(int argc, char **argv) {
  compose_args a = {.engine = "auto", .symmetry = true, .timing = true};
  a.spec.overrides = xcalloc((size_t)argc, sizeof *a.spec.overrides);
  int code = compose_options(argc, argv, &a);
  diag_sink sink = cli_stderr_sink();
  ast_spec *spec = code < 0 ? spec_load(&sink, a.path, &a.spec) : NULL;
  if (code < 0 && !spec) code = EXIT_BAD_INPUT;
  if (code < 0) interrupt_install(); /* from here on Ctrl-C ends the search with verdict unknown */
  if (code < 0 && a.for_all) code = cli_finish(run_for_all(&a, spec));
  plan p = {0};
  if (code < 0 && !choose_engine(&a, spec, &p)) code = EXIT_BAD_INPUT;
  if (code < 0) code = cli_finish(run(&a, spec, &p));
  if (p.symbolic) smt_shutdown();
  mdl_free(p.m);
  spec_free(spec);
  free(a.spec.overrides);
  return code;
}
