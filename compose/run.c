/* compose/run.c -- the engine policy and the --for-all re-run. */
#include "run.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/arena.h"
#include "engine-symbolic.h"
#include "model-product.h"

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

/* Builds the model of the engine that runs; false after reporting why none can. */
static bool choose_engine(const compose_request *rq, ast_spec *spec, compose_run_result *out) {
  if (strcmp(rq->engine, "explicit") == 0) {
    snprintf(out->why, sizeof out->why, "chosen with --engine");
    return (out->m = product_build(spec, rq->symmetry)) != NULL;
  }
  if (strcmp(rq->engine, "auto") == 0 && (out->m = try_explicit(spec, rq->symmetry, out->why, sizeof out->why))) {
    snprintf(out->why, sizeof out->why, "every choice is finite");
    return true;
  }
  if (strcmp(rq->engine, "symbolic") == 0) snprintf(out->why, sizeof out->why, "chosen with --engine");
  out->symbolic = true;
  return (out->m = product_build_checker(spec)) != NULL;
}

/* ---------------------------------------------------------------- coverage */

/* What the explicit search took and reached, over its model. */
typedef struct coverage {
  const mdl_slot *slots; /* the searched model's slots */
  size_t width;          /* how many */
  size_t unmarked;       /* flags of the system's threads not set yet: at 0, nothing is left to look at */
  compose_coverage *c;
} coverage;

/* Sets a flag that workers of the search may set at once: read first, so
 * that a flag already set is not written again (its cache line then stays
 * shared between the cores); the one worker that sets it counts it. */
static void mark(coverage *c, bool *flag) {
  if (!__atomic_load_n(flag, __ATOMIC_RELAXED) && !__atomic_exchange_n(flag, true, __ATOMIC_RELAXED))
    __atomic_fetch_sub(&c->unmarked, 1, __ATOMIC_RELAXED);
}

static void take_step(void *ctx, const int64_t *src, const mdl_step *step, const int64_t *dst) {
  coverage *c = ctx;
  (void)dst;
  if (__atomic_load_n(&c->unmarked, __ATOMIC_RELAXED) == 0) return;
  if (step) {
    mark(c, &c->c->taken[c->slots[step->slot].thread][step->edge]);
    return;
  }
  for (size_t k = 0; k < c->width; k++) {
    const mdl_slot *slot = &c->slots[k];
    if (slot->kind == SLOT_INSTANCE) mark(c, &c->c->reached[slot->thread][src[k]]);
    if (slot->kind == SLOT_COUNT && src[k] > 0) mark(c, &c->c->reached[slot->thread][slot->state]);
  }
}

static bool in_system(const ast_spec *spec, size_t thread) {
  vec_foreach(&spec->instances, k)
    if (spec->instances.items[k]->thread_index == (int)thread) return true;
  return false;
}

/* A safe verdict says nothing about a state that no instance is in in any
 * reachable state (its assertion is never checked), nor about an edge that
 * no reachable state takes (a guard that never holds there): each is a
 * warning, so that a vacuous "safe" says so. An edge out of a state never
 * reached has the state's warning only (the edge's would repeat it). (A
 * thread the system does not list has lint's warning.) */
static void warn_never_taken(const ast_spec *spec, const compose_coverage *c) {
  vec_foreach(&spec->threads, i) {
    const ast_thread *t = spec->threads.items[i];
    if (!in_system(spec, i)) continue;
    vec_foreach(&t->states, q)
      if (!c->reached[i][q])
        diag_warning(spec->src, t->states.items[q]->at, "never-reached",
                     "state %s of %s is never reached: no reachable state of the system has an instance in it, so "
                     "the verdict depends neither on its assertion nor on its edges",
                     t->states.items[q]->name, t->name);
    vec_foreach(&t->edges, d) {
      const ast_edge *e = t->edges.items[d];
      if (!c->taken[i][d] && c->reached[i][e->from_index])
        diag_warning(spec->src, e->from_at, "never-taken",
                     "edge %s -> %s of %s is never taken: no reachable state of the system enables it, so the "
                     "verdict does not depend on it",
                     e->from, e->to, t->name);
    }
  }
}

/* The states and edges of the threads the system runs. */
static size_t flags_of_system(const ast_spec *spec) {
  size_t n = 0;
  vec_foreach(&spec->threads, i)
    if (in_system(spec, i)) n += spec->threads.items[i]->states.len + spec->threads.items[i]->edges.len;
  return n;
}

static void coverage_free(compose_coverage *c) {
  for (size_t i = 0; i < c->threads; i++) free(c->taken[i]), free(c->reached[i]);
  free(c->taken);
  free(c->reached);
  memset(c, 0, sizeof *c);
}

/* The explicit search, which records what it takes and reaches: kept in
 * out->cover after a safe verdict (and warned about), else dropped. */
static void run_explicit(const ast_spec *spec, const compose_request *rq, compose_run_result *out) {
  size_t n = spec->threads.len;
  compose_coverage *cov = &out->cover;
  coverage_free(cov);
  *cov = (compose_coverage){xcalloc(n + 1, sizeof *cov->taken), xcalloc(n + 1, sizeof *cov->reached), n};
  vec_foreach(&spec->threads, i) {
    cov->taken[i] = xcalloc(spec->threads.items[i]->edges.len + 1, sizeof **cov->taken);
    cov->reached[i] = xcalloc(spec->threads.items[i]->states.len + 1, sizeof **cov->reached);
  }
  mdl *counted = product_counted(out->m); /* symmetry: the search counts interchangeable instances */
  const mdl *searched = counted ? counted : out->m;
  coverage c = {mdl_slot_at(searched, 0), mdl_width(searched), flags_of_system(spec), cov};
  explicit_options limits = rq->limits;
  limits.observe = take_step;
  limits.observe_ctx = &c;
  explicit_run(searched, &limits, &out->r);
  if (counted) product_uncount(counted, &out->r);
  mdl_free(counted);
  if (out->r.verdict == VERDICT_SAFE) warn_never_taken(spec, cov);
  else coverage_free(cov);
}

static void run_engine(const ast_spec *spec, const compose_request *rq, compose_run_result *out) {
  if (out->symbolic) {
    symbolic_options so = {.timeout = rq->limits.timeout, .bmc_bound = rq->bound, .progress = rq->limits.progress};
    symbolic_run(out->m, &so, &out->r, &out->certificate);
  } else {
    run_explicit(spec, rq, out);
  }
}

/* The request's overrides with param set to n (replacing any --set of it). */
static spec_options with_param(const spec_options *given, const char *param, int64_t n) {
  spec_options o = *given;
  o.overrides = xcalloc(given->override_count + 1, sizeof *o.overrides);
  o.override_count = 0;
  for (size_t i = 0; i < given->override_count; i++)
    if (strcmp(given->overrides[i].name, param) != 0)
      o.overrides[o.override_count++] =
          (spec_override){.name = given->overrides[i].name, .value = given->overrides[i].value};
  o.overrides[o.override_count++] = (spec_override){.name = param, .value = n};
  return o;
}

/* The concrete run for a counterexample of the counter system with N = fr.n:
 * the usual engines on the spec checked again with N = n, within the time
 * left. When it does not reproduce the violation, the verdict becomes unknown
 * with the reason. */
static void rerun_concrete(const ast_spec *spec, const compose_request *rq, compose_run_result *out) {
  forall_result *fr = &out->fr;
  progress_say(rq->limits.progress,
               "the counter system has a counterexample with %s = %" PRId64
               "; checking the concrete system with %s = %" PRId64,
               rq->for_all, fr->n, rq->for_all, fr->n);
  spec_options o = with_param(rq->spec_options, rq->for_all, fr->n);
  out->concrete = spec_reload(spec, &o);
  free(o.overrides);
  compose_request b = *rq;
  if (rq->limits.timeout > 0)
    b.limits.timeout = rq->limits.timeout > fr->seconds + 0.01 ? rq->limits.timeout - fr->seconds : 0.01;
  if (out->concrete && choose_engine(&b, out->concrete, out)) run_engine(out->concrete, &b, out);
  if (out->concrete && out->m && out->r.verdict == VERDICT_UNSAFE) return;
  bool internal = !out->concrete || !out->m || out->r.verdict == VERDICT_SAFE;
  const char *what = !out->concrete || !out->m        ? "does not load"
                     : out->r.verdict == VERDICT_SAFE ? "is safe (an internal error)"
                                                      : out->r.unknown_reason;
  snprintf(fr->unknown_reason, sizeof fr->unknown_reason,
           "the counter system has a counterexample with %s = %" PRId64 ", but the concrete system with %s = %" PRId64
           " %.80s",
           rq->for_all, fr->n, rq->for_all, fr->n, what);
  fr->verdict = VERDICT_UNKNOWN;
  out->failure = internal ? COMPOSE_RERUN_INTERNAL : COMPOSE_RERUN_UNKNOWN;
}

/* --for-all N: the counter system for every N >= 1, then, when it is unsafe,
 * the concrete trace for the N that BMC found. */
static void run_for_all(ast_spec *spec, const compose_request *rq, compose_run_result *out) {
  if (!forall_applicable(spec, rq->for_all)) {
    out->failure = COMPOSE_BAD_INPUT;
    return;
  }
  forall_options o = {
      .param = rq->for_all, .timeout = rq->limits.timeout, .bmc_bound = rq->bound, .progress = rq->limits.progress};
  forall_run(spec, &o, &out->fr);
  out->for_all_ran = true;
  if (out->fr.verdict == VERDICT_UNSAFE) rerun_concrete(spec, rq, out);
}

bool compose_explore(ast_spec *spec, const explicit_options *limits, uint64_t *states, char *why, size_t size) {
  mdl *m = try_explicit(spec, false, why, size);
  if (!m) return false;
  compose_result r;
  explicit_run(m, limits, &r);
  *states = r.states;
  if (r.verdict == VERDICT_UNSAFE) {
    strbuf b = {0};
    mdl_describe_violation(m, &r.violation, &b);
    snprintf(why, size, "the abstract system is unsafe (%s)", sbuf_str(&b));
    sbuf_free(&b);
  } else if (r.verdict == VERDICT_UNKNOWN) {
    snprintf(why, size, "the abstract system was not explored in full: %s", r.unknown_reason);
  }
  compose_result_free(&r);
  mdl_free(m);
  return r.verdict == VERDICT_SAFE;
}

void compose_run(ast_spec *spec, const compose_request *rq, compose_run_result *out) {
  memset(out, 0, sizeof *out);
  if (rq->for_all) run_for_all(spec, rq, out);
  else if (!choose_engine(rq, spec, out)) out->failure = COMPOSE_BAD_INPUT;
  else run_engine(spec, rq, out);
}

void compose_run_free(compose_run_result *out) {
  compose_result_free(&out->r);
  smt_cert_free(&out->certificate);
  mdl_free(out->m);
  spec_free(out->concrete);
  if (out->for_all_ran) forall_result_free(&out->fr);
  coverage_free(&out->cover);
  memset(out, 0, sizeof *out);
}

/* ---------------------------------------------------------------- reports */

void compose_report_of(const char *path, const ast_spec *spec, const char *for_all, const compose_run_result *run,
                       bool symmetry, compose_report *out) {
  memset(out, 0, sizeof *out);
  out->c = (report_context){.spec = run->concrete ? run->concrete : spec, /* the trace's spec: --for-all's N */
                            .spec_path = path,
                            .system = spec->system ? spec->system->name : "(one instance of each thread)",
                            .engine = run->symbolic ? "symbolic" : "explicit",
                            .symmetry = symmetry && !run->symbolic,
                            .timing = true,
                            .engine_why = run->why};
  if (!for_all) return;
  const ast_const *n = ast_find_const(spec, for_all);
  out->f = (report_forall){.param = for_all,
                           .ignored_value = n->value,
                           .ignored_from_set = n->overridden,
                           .result = &run->fr,
                           .concrete_engine = out->c.engine,
                           .concrete_why = run->why,
                           .concrete_symmetry = out->c.symmetry};
  snprintf(out->why, sizeof out->why, "--for-all %s: counter abstraction of %s", for_all, run->fr.counted);
  out->c.engine = "for-all";
  out->c.engine_why = out->why;
  out->c.symmetry = false;
}

json_t *compose_report_json(const compose_report *rep, const compose_run_result *run) {
  if (!run->for_all_ran) return report_json(&rep->c, run->m, &run->r);
  return report_forall_json(&rep->c, &rep->f, run->fr.verdict == VERDICT_UNSAFE ? run->m : NULL, &run->r);
}
