/* compose/engine-symbolic.c -- BMC and Spacer on a model's symbolic face.
 *
 * The model gives the system as Z3 formulas (mdl_symbolic_new, e.g. the
 * product's in model-product-smt.c); this engine proves it with one Spacer
 * predicate Inv over the whole state, re-checks the invariant independently,
 * and otherwise looks for the shortest counterexample by BMC and replays it
 * on the model. */
#include "engine-symbolic.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/arena.h"
#include "../core/interrupt.h"
#include "../core/smt-drive.h"
#include "../core/smt-print.h"
#include "../core/smt.h"

typedef struct engine {
  const mdl *m;             /* the model: its slots' names */
  const mdl_symbolic *face; /* the model's formulas */
  const sym_system *y;      /* face->sys */
  smt *s;                   /* Z3 */
  size_t width;             /* constants in a state */
  double deadline;          /* CLOCK_MONOTONIC seconds, 0 = none */
  compose_result *r;        /* receives the verdict and the trace */
} engine;

/* ---------------------------------------------------------------- BMC */

/* The path in model with small values (smt_small_model): the initial
 * state near 0, every later one near the state before it; the steps stay. */
static Z3_model small_model(engine *e, Z3_solver s, Z3_model model, Z3_ast **frames, Z3_ast *sel, unsigned k) {
  size_t n = (k + 1) * e->width;
  Z3_ast *inputs = xcalloc(n + 1, sizeof *inputs), *near = xcalloc(n + 1, sizeof *near);
  for (unsigned j = 0; j <= k; j++)
    for (size_t i = 0; i < e->width; i++) {
      inputs[j * e->width + i] = frames[j][i];
      near[j * e->width + i] = j ? frames[j - 1][i] : NULL;
    }
  smt_small want = {inputs, near, n, sel, k};
  Z3_model small = smt_small_model(e->s, s, model, e->deadline, &want);
  free(inputs);
  free(near);
  return small;
}

/* Reads the k-step trace of a model, made small, into e->r (a sym_reached). */
static smt_bmc_answer read_trace(void *ctx, Z3_solver s, Z3_model found, Z3_ast **frames, Z3_ast *sel, unsigned k) {
  engine *e = ctx;
  Z3_model model = small_model(e, s, found, frames, sel, k);
  compose_result *r = e->r;
  r->trace_steps = k;
  r->trace_states = xcalloc((k + 1) * e->width, sizeof *r->trace_states);
  r->trace = xcalloc(k + 1, sizeof *r->trace);
  for (unsigned j = 0; j <= k; j++)
    for (size_t i = 0; i < e->width; i++)
      smt_model_value(e->s, model, frames[j][i], &r->trace_states[j * e->width + i]);
  for (unsigned j = 0; j < k; j++) {
    int64_t n = 0;
    smt_model_value(e->s, model, sel[j], &n);
    r->trace[j] = e->face->steps[n];
  }
  Z3_model_dec_ref(smt_z3(e->s), model);
  return SMT_BMC_DONE;
}

/* Shortest counterexample up to bound steps: 1 found (in e->r), 0 none, -1 unknown. */
static int bmc(engine *e, unsigned bound) {
  char reason[160];
  unsigned depth = 0;
  int result = sym_bmc(e->y, bound, e->deadline, read_trace, e, &depth, reason, sizeof reason);
  e->r->depth = depth;
  return result;
}

/* ---------------------------------------------------------------- Spacer */

/* What smt_spacer's acceptance reads: Inv over x and y, and the certificate. */
typedef struct spacer_proof {
  const engine *e;
  Z3_func_decl inv;
  Z3_ast *x, *y;
  smt_cert *certificate;
} spacer_proof;

/* ---------------------------------------------------------------- the certificate */

/* The spec's name of an instance slot: "T[i]" with i its place among its
 * thread's instances (the system lists a thread's instances together). */
static char *instance_name(const mdl *m, size_t slot) {
  const mdl_slot *sl = mdl_slot_at(m, slot);
  size_t i = 1;
  while (i <= slot && mdl_slot_at(m, slot - i)->kind == SLOT_INSTANCE && mdl_slot_at(m, slot - i)->thread == sl->thread)
    i++;
  strbuf b = {0};
  sbuf_printf(&b, "%.*s[%zu]", (int)strcspn(sl->name, "["), sl->name, i);
  return sbuf_take(&b);
}

/* The names of a slot's values, for an instance: its thread's states. */
static const char **state_names(const mdl *m, size_t slot, size_t *count) {
  const mdl_slot *sl = mdl_slot_at(m, slot);
  *count = (size_t)(sl->hi - sl->lo + 1);
  const char **names = xcalloc(*count + 1, sizeof *names);
  for (size_t k = 0; k < *count; k++) {
    strbuf b = {0};
    mdl_describe_value(m, slot, sl->lo + (int64_t)k, &b);
    names[k] = sbuf_take(&b);
  }
  return names;
}

static void leaf_of_slot(const engine *e, size_t slot, Z3_ast x, smt_leaf *l) {
  const mdl_slot *sl = mdl_slot_at(e->m, slot);
  *l = (smt_leaf){.term = x};
  if (sl->kind != SLOT_INSTANCE) {
    l->text = xstrdup(sl->name);
    return;
  }
  l->text = instance_name(e->m, slot);
  l->states = state_names(e->m, slot, &l->state_count);
}

static void free_leaf(smt_leaf *l) {
  for (size_t k = 0; k < l->state_count; k++) free((char *)l->states[k]);
  free((void *)l->states);
  free((char *)l->text);
}

/* inv over x in the spec's syntax: "T2[1]@Critical || flag2". */
static void readable(const engine *e, Z3_ast inv, Z3_ast *x, smt_cert *out) {
  smt_leaf *leaves = xcalloc(e->width + 1, sizeof *leaves);
  for (size_t i = 0; i < e->width; i++) leaf_of_slot(e, i, x[i], &leaves[i]);
  smt_print_conjuncts(e->s, inv, leaves, e->width, &out->readable);
  for (size_t i = 0; i < e->width; i++) free_leaf(&leaves[i]);
  free(leaves);
}

static bool accept(void *ctx, Z3_model model) {
  spacer_proof *p = ctx;
  const engine *e = p->e;
  Z3_ast ix = smt_predicate_in(e->s, model, p->inv, e->width, p->x, true);
  Z3_ast iy = smt_predicate_in(e->s, model, p->inv, e->width, p->y, true);
  if (!ix || !iy || !sym_recheck(e->y, e->deadline, ix, iy, p->x, p->y)) return false;
  Z3_context c = smt_z3(e->s);
  Z3_ast inv = smt_keep(e->s, Z3_simplify(c, ix));
  p->certificate->smt = xstrdup(Z3_ast_to_string(c, inv));
  readable(e, inv, p->x, p->certificate);
  return true;
}

/* 1 safe (certificate set), 0 unsafe, -1 unknown (reason set). */
static int spacer(const engine *e, double deadline, smt_cert *certificate, char *reason, size_t reason_size) {
  Z3_context c = smt_z3(e->s);
  const sym_system *y = e->y;
  Z3_sort *sorts = xcalloc(e->width + 1, sizeof *sorts);
  Z3_ast *x = y->state(y->ctx, "x"), *y1 = y->state(y->ctx, "y");
  for (size_t i = 0; i < e->width; i++) sorts[i] = Z3_get_sort(c, x[i]);
  Z3_func_decl inv = Z3_mk_func_decl(c, Z3_mk_string_symbol(c, "Inv"), (unsigned)e->width, sorts, Z3_mk_bool_sort(c));
  Z3_inc_ref(c, Z3_func_decl_to_ast(c, inv));
  Z3_ast inv_x = smt_keep(e->s, Z3_mk_app(c, inv, (unsigned)e->width, x));
  Z3_ast inv_y = smt_keep(e->s, Z3_mk_app(c, inv, (unsigned)e->width, y1));
  Z3_solver s = smt_solver(e->s, deadline, true);
  Z3_ast step[2] = {inv_x, sym_transition(y, x, y1, NULL)};
  Z3_ast wrong[2] = {inv_x, y->bad(y->ctx, x)};
  Z3_solver_assert(c, s, sym_forall(y, NULL, e->width, x, NULL, smt_implies(e->s, y->initial(y->ctx, x), inv_x)));
  Z3_solver_assert(c, s, sym_forall(y, NULL, e->width, x, y1, smt_implies(e->s, smt_and(e->s, 2, step), inv_y)));
  Z3_solver_assert(c, s, sym_forall(y, NULL, e->width, x, NULL, smt_not(e->s, smt_and(e->s, 2, wrong))));
  spacer_proof p = {e, inv, x, y1, certificate};
  int outcome = smt_spacer(e->s, s, deadline, accept, &p, reason, reason_size);
  Z3_solver_dec_ref(c, s);
  Z3_dec_ref(c, Z3_func_decl_to_ast(c, inv));
  free(sorts);
  free(x);
  free(y1);
  return outcome;
}

/* ---------------------------------------------------------------- entry */

/* The trace must be a real run of the model that ends in a state that goes wrong. */
static bool replays(const mdl *m, compose_result *r) {
  size_t w = mdl_width(m);
  if (!mdl_initial_holds(m, r->trace_states)) return false;
  for (size_t k = 0; k < r->trace_steps; k++)
    if (!mdl_step_holds(m, r->trace_states + k * w, &r->trace[k], r->trace_states + (k + 1) * w)) return false;
  mdl_fault fault = MDL_FAULT_NONE;
  return !mdl_check(m, r->trace_states + r->trace_steps * w, &r->violation, &fault) && fault == MDL_FAULT_NONE;
}

static void give_unknown(compose_result *r, const char *reason) {
  r->verdict = VERDICT_UNKNOWN;
  snprintf(r->unknown_reason, sizeof r->unknown_reason, "%s", reason);
}

/* No proof: the verdict from BMC (proof: Spacer's outcome, reason its why). */
static void search(engine *e, const mdl *m, const symbolic_options *o, int proof, const char *reason) {
  compose_result *r = e->r;
  unsigned bound = o->bmc_bound ? o->bmc_bound : 100;
  int found = bmc(e, bound);
  if (found == 1 && replays(m, r)) r->verdict = VERDICT_UNSAFE;
  else if (found == 1) give_unknown(r, "the counterexample Z3 found did not replay on the model (an internal error)");
  else if (found == 0 && proof == 0)
    give_unknown(r, "Spacer proved the system unsafe, but no counterexample was found within the BMC bound");
  else if (found == 0) {
    r->verdict = VERDICT_UNKNOWN;
    snprintf(r->unknown_reason, sizeof r->unknown_reason, "%.100s; no counterexample within %u steps", reason, bound);
  } else
    give_unknown(r, smt_deadline_passed(e->deadline) ? "the time limit (--timeout) was reached"
                                                     : "Z3 gave up during bounded model checking");
}

void symbolic_run(const mdl *m, const symbolic_options *o, compose_result *r, smt_cert *certificate) {
  memset(r, 0, sizeof *r);
  *certificate = (smt_cert){0};
  double start = smt_now();
  smt *s = smt_new();
  smt_set_progress(s, o->progress);
  mdl_symbolic *face = mdl_symbolic_new(m, s);
  engine e = {m, face, &face->sys, s, mdl_width(m), o->timeout > 0 ? start + o->timeout : 0, r};
  smt_watch *w = smt_watch_start(s, e.deadline);
  char reason[160] = "";
  /* Under a time limit Spacer gets half of it, so that a search Spacer cannot
   * finish (nonlinear arithmetic, say) still leaves BMC time to find a bug. */
  double proof_deadline = o->timeout > 0 ? start + o->timeout / 2 : 0;
  int proof = spacer(&e, proof_deadline, certificate, reason, sizeof reason);
  if (proof == 1) r->verdict = VERDICT_SAFE;
  else search(&e, m, o, proof, reason);
  smt_watch_stop(w);
  if (r->verdict == VERDICT_UNKNOWN && interrupt_requested()) give_unknown(r, INTERRUPT_REASON);
  r->seconds = smt_now() - start;
  mdl_symbolic_free(face);
  smt_free(s);
}
