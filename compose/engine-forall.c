/* compose/engine-forall.c -- --for-all: the counter system
 * (forall-counters.h) proved by Spacer for every N >= 1, with BMC for
 * counterexamples at the smallest N.
 *
 * Order of work: affine invariants guessed from sampled states and filtered
 * by Houdini (forall-hull.c); Spacer with one predicate per location of the
 * explicit instances; the invariant re-checked without those helps; else BMC,
 * then the smallest N at the shortest depth. ATHREAD_FORALL_DUMP=FILE writes
 * the Horn clauses for the z3 command line (debugging). */
#include "engine-forall.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/arena.h"
#include "../core/interrupt.h"
#include "../core/outfile.h"
#include "../core/smt-drive.h"
#include "../core/smt.h"
#include "../core/strbuf.h"
#include "forall-counters.h"

typedef VEC(Z3_ast) term_list;

typedef struct prover {
  fa_counters *c;        /* the counter system */
  const sym_system *y;   /* its formulas */
  smt *s;                /* Z3 */
  size_t width;          /* constants in a state */
  double deadline;       /* CLOCK_MONOTONIC seconds, 0 = none */
  const char *param;     /* N's name */
  forall_result *result; /* receives the verdict, N, the depth and the certificate */
} prover;

/* ---------------------------------------------------------------- BMC */

/* Records N and asks for a smaller one: the last model before unsat has the
 * least (a sym_reached). */
static smt_bmc_answer reached(void *ctx, Z3_solver s, Z3_model m, Z3_ast **frames, Z3_ast *sel, unsigned k) {
  (void)sel;
  prover *e = ctx;
  Z3_ast n = fa_param_of(e->c, frames[0]);
  if (!smt_model_value(e->s, m, n, &e->result->n)) return SMT_BMC_FAILED;
  progress_phase(smt_progress(e->s),
                 "bounded model checking, depth %u: a counterexample with %s = %" PRId64 "; looking for a smaller %s",
                 k, e->param, e->result->n, e->param);
  Z3_solver_assert(smt_z3(e->s), s, smt_le(e->s, n, smt_int(e->s, e->result->n - 1)));
  return SMT_BMC_AGAIN;
}

/* Shortest counterexample up to bound steps, then the smallest N with one of
 * that length: 1 found (r->n, r->depth), 0 none, -1 unknown. */
static int bmc(prover *e, unsigned bound) {
  char reason[160];
  unsigned depth = 0;
  int result = sym_bmc(e->y, bound, e->deadline, reached, e, &depth, reason, sizeof reason);
  e->result->depth = depth;
  return result;
}

/* ---------------------------------------------------------------- Spacer
 * One predicate per combination of the explicit instances' control states
 * (when there are at most MAX_LOCATIONS), over the shared variables, the
 * counters and N: Spacer finds per-location invariants far more easily than
 * one invariant over integer-coded control states. The certificate is their
 * disjunction over the full state, re-checked against the monolithic
 * encoding by three independent queries. */

#define MAX_LOCATIONS 256

typedef struct horn {
  size_t *split;       /* the explicit slots that index the predicates */
  size_t split_count;  /* entries in split */
  size_t locations;    /* predicates: the product of their state counts */
  size_t *rest;        /* the other slots: the predicates' arguments */
  size_t rest_count;   /* entries in rest */
  Z3_func_decl *preds; /* per location */
} horn;

static int64_t states_of(const prover *e, size_t slot) { return e->y->control[slot]; }

static void horn_layout(prover *e, horn *h) {
  h->split = xcalloc(e->width + 1, sizeof *h->split);
  h->rest = xcalloc(e->width + 1, sizeof *h->rest);
  h->locations = 1;
  for (size_t i = 0; i < e->width; i++) {
    if (states_of(e, i) > 0 && h->locations * (size_t)states_of(e, i) <= MAX_LOCATIONS) {
      h->split[h->split_count++] = i;
      h->locations *= (size_t)states_of(e, i);
    } else {
      h->rest[h->rest_count++] = i;
    }
  }
}

/* The state of split slot k at location where. */
static int64_t location_value(const prover *e, const horn *h, size_t where, size_t k) {
  for (size_t j = 0; j < k; j++) where /= (size_t)states_of(e, h->split[j]);
  return (int64_t)(where % (size_t)states_of(e, h->split[k]));
}

/* x with the split slots fixed to where's values (owned array). */
static Z3_ast *at_location(prover *e, const horn *h, Z3_ast *x, size_t where) {
  Z3_ast *v = xcalloc(e->width + 1, sizeof *v);
  memcpy(v, x, e->width * sizeof *v);
  for (size_t k = 0; k < h->split_count; k++) v[h->split[k]] = smt_int(e->s, location_value(e, h, where, k));
  return v;
}

static Z3_ast pred_app(prover *e, const horn *h, size_t where, Z3_ast *x) {
  Z3_ast *args = xcalloc(h->rest_count + 1, sizeof *args);
  for (size_t k = 0; k < h->rest_count; k++) args[k] = x[h->rest[k]];
  Z3_ast a = smt_keep(e->s, Z3_mk_app(smt_z3(e->s), h->preds[where], (unsigned)h->rest_count, args));
  free(args);
  return a;
}

/* The location a step's move leads to from where, or (size_t)-1 when it is not enabled there. */
static size_t location_after(const prover *e, const horn *h, size_t where, const sym_move *mv) {
  if (mv->slot < 0) return where;
  size_t radix = 1;
  for (size_t k = 0; k < h->split_count; k++) {
    if (h->split[k] == (size_t)mv->slot) {
      if (location_value(e, h, where, k) != mv->from) return (size_t)-1;
      return where + (size_t)((int64_t)radix * (mv->to - mv->from));
    }
    radix *= (size_t)states_of(e, h->split[k]);
  }
  return where; /* the slot is an argument */
}

static void add_clauses(prover *e, const horn *h, Z3_solver s, Z3_ast *x, Z3_ast *y) {
  Z3_context c = smt_z3(e->s);
  const sym_system *sy = e->y;
  for (size_t where = 0; where < h->locations; where++) {
    Z3_ast *xl = at_location(e, h, x, where);
    Z3_ast here = pred_app(e, h, where, xl);
    Z3_solver_assert(
        c, s, sym_forall(e->y, h->rest, h->rest_count, x, NULL, smt_implies(e->s, sy->initial(sy->ctx, xl), here)));
    Z3_ast wrong[2] = {here, sy->bad(sy->ctx, xl)};
    Z3_solver_assert(c, s, sym_forall(e->y, h->rest, h->rest_count, x, NULL, smt_not(e->s, smt_and(e->s, 2, wrong))));
    for (size_t k = 0; k < sy->step_count; k++) {
      size_t to = location_after(e, h, where, &sy->moves[k]);
      if (to == (size_t)-1) continue;
      Z3_ast *yl = at_location(e, h, y, to);
      Z3_ast step[3] = {here, sy->step(sy->ctx, k, xl, yl), sy->domains(sy->ctx, yl)};
      Z3_solver_assert(c, s,
                       sym_forall(e->y, h->rest, h->rest_count, x, y,
                                  smt_implies(e->s, smt_and(e->s, 3, step), pred_app(e, h, to, yl))));
      free(yl);
    }
    free(xl);
  }
}

/* The invariant over the full state x: the disjunction over the locations of
 * "the split slots are there and the location's predicate holds"; NULL when
 * the model gives no interpretation. */
static Z3_ast invariant_of(prover *e, const horn *h, Z3_model model, Z3_ast *x) {
  Z3_ast *args = xcalloc(h->rest_count + 1, sizeof *args);
  for (size_t k = 0; k < h->rest_count; k++) args[k] = x[h->rest[k]];
  term_list alt = {0};
  Z3_ast result = NULL;
  for (size_t where = 0; where < h->locations; where++) {
    /* Spacer leaves out the predicates of unreachable locations: false */
    Z3_ast body = smt_predicate_in(e->s, model, h->preds[where], h->rest_count, args, false);
    if (!body) goto done;
    term_list here = {0};
    for (size_t k = 0; k < h->split_count; k++)
      vec_push(NULL, &here, smt_eq(e->s, x[h->split[k]], smt_int(e->s, location_value(e, h, where, k))));
    vec_push(NULL, &here, body);
    vec_push(NULL, &alt, smt_and(e->s, (unsigned)here.len, here.items));
    vec_free(&here);
  }
  result = smt_or(e->s, (unsigned)alt.len, alt.items);
done:
  vec_free(&alt);
  free(args);
  return result;
}

/* The certificate over readable names: "pendingIO", "count(Worker@Work)", "N". */
static void certify(prover *e, Z3_ast inv_x, Z3_ast *x, forall_result *r) {
  Z3_context c = smt_z3(e->s);
  Z3_ast *named = fa_named_state(e->c);
  Z3_ast pretty = smt_keep(e->s, Z3_simplify(c, smt_keep(e->s, Z3_substitute(c, inv_x, (unsigned)e->width, x, named))));
  r->certificate = xstrdup(Z3_ast_to_string(c, pretty));
  r->certificate_atoms = smt_atom_count(e->s, pretty);
  size_t count;
  smt_leaf *leaves = fa_leaves(e->c, named, &count);
  smt_texts_free(&r->certificate_spec);
  smt_print_conjuncts(e->s, pretty, leaves, count, &r->certificate_spec);
  fa_leaves_free(leaves, count);
  free(named);
}

/* Debugging: ATHREAD_FORALL_DUMP=FILE writes the CHC problem for the z3
 * command line (atomically, like every output file; failures go to stderr). */
static void dump_horn(Z3_context c, Z3_solver s) {
  const char *path = getenv("ATHREAD_FORALL_DUMP");
  if (!path) return;
  strbuf text = {0};
  sbuf_printf(&text, "(set-logic HORN)\n%s(check-sat)\n", Z3_solver_to_string(c, s));
  diag_sink sink = {.out = stderr};
  outfile_write(&sink, path, sbuf_str(&text), text.len);
  sbuf_free(&text);
}

/* What smt_spacer's acceptance reads: the predicates over x and y. */
typedef struct spacer_proof {
  prover *e;
  const horn *h;
  Z3_ast *x, *y;
  forall_result *r; /* receives the certificate */
} spacer_proof;

/* The certificate: the domains (with the affine invariants) and the lemmas,
 * re-checked without the hints. */
static bool accept(void *ctx, Z3_model model) {
  spacer_proof *p = ctx;
  prover *e = p->e;
  Z3_ast ix = invariant_of(e, p->h, model, p->x), iy = invariant_of(e, p->h, model, p->y);
  if (ix && iy) {
    Z3_ast hx[2] = {e->y->domains(e->y->ctx, p->x), ix}, hy[2] = {e->y->domains(e->y->ctx, p->y), iy};
    ix = smt_and(e->s, 2, hx);
    iy = smt_and(e->s, 2, hy);
  }
  fa_use_hints(e->c, false); /* the re-check must not assume them */
  if (!ix || !iy || !sym_recheck(e->y, e->deadline, ix, iy, p->x, p->y)) return false;
  certify(e, ix, p->x, p->r);
  return true;
}

/* 1 safe (certificate set), 0 unsafe, -1 unknown (reason set). */
static int spacer(prover *e, forall_result *r, char *reason, size_t reason_size) {
  Z3_context c = smt_z3(e->s);
  horn h = {0};
  horn_layout(e, &h);
  Z3_sort *sorts = xcalloc(h.rest_count + 1, sizeof *sorts);
  Z3_ast *x = e->y->state(e->y->ctx, "x"), *y = e->y->state(e->y->ctx, "y");
  for (size_t k = 0; k < h.rest_count; k++) sorts[k] = Z3_get_sort(c, x[h.rest[k]]);
  h.preds = xcalloc(h.locations, sizeof *h.preds);
  char name[32];
  for (size_t where = 0; where < h.locations; where++) {
    snprintf(name, sizeof name, "Inv%zu", where);
    h.preds[where] =
        Z3_mk_func_decl(c, Z3_mk_string_symbol(c, name), (unsigned)h.rest_count, sorts, Z3_mk_bool_sort(c));
    Z3_inc_ref(c, Z3_func_decl_to_ast(c, h.preds[where]));
  }
  Z3_solver s = smt_solver(e->s, e->deadline, true);
  add_clauses(e, &h, s, x, y);
  dump_horn(c, s);
  spacer_proof p = {e, &h, x, y, r};
  int outcome = smt_spacer(e->s, s, e->deadline, accept, &p, reason, reason_size);
  Z3_solver_dec_ref(c, s);
  for (size_t where = 0; where < h.locations; where++) Z3_dec_ref(c, Z3_func_decl_to_ast(c, h.preds[where]));
  free(h.preds);
  free(h.split);
  free(h.rest);
  free(sorts);
  free(x);
  free(y);
  return outcome;
}

/* ---------------------------------------------------------------- entry */

/* No proof: the verdict from BMC (proof: Spacer's outcome, reason its why). */
static void search(prover *e, const forall_options *o, int proof, const char *reason) {
  forall_result *r = e->result;
  unsigned bound = o->bmc_bound ? o->bmc_bound : 100;
  int found = bmc(e, bound);
  r->verdict = found == 1 ? VERDICT_UNSAFE : VERDICT_UNKNOWN;
  if (found == 0 && proof == 0)
    snprintf(r->unknown_reason, sizeof r->unknown_reason,
             "Spacer proved the counter system unsafe, but no counterexample was found within %u steps", bound);
  else if (found == 0)
    snprintf(r->unknown_reason, sizeof r->unknown_reason, "%.120s; no counterexample within %u steps", reason, bound);
  else if (found < 0)
    snprintf(r->unknown_reason, sizeof r->unknown_reason, "%s",
             smt_deadline_passed(e->deadline) ? "the time limit (--timeout) was reached"
                                              : "Z3 gave up during bounded model checking");
}

void forall_run(const ast_spec *spec, const forall_options *o, forall_result *r) {
  memset(r, 0, sizeof *r);
  double start = smt_now();
  prover e = {.s = smt_new(), .deadline = o->timeout > 0 ? start + o->timeout : 0, .param = o->param, .result = r};
  smt_set_progress(e.s, o->progress);
  e.c = fa_counters_new(spec, o->param, e.s);
  e.y = fa_system(e.c);
  e.width = e.y->width;
  fa_describe(e.c, &r->counted, &r->explicit_instances);
  smt_watch *w = smt_watch_start(e.s, e.deadline);
  char reason[160] = "";
  progress_phase(o->progress, "guessing affine invariants of the counter system from sampled states");
  fa_guess_hints(e.c, e.deadline);
  fa_use_hints(e.c, true);
  int proof = spacer(&e, r, reason, sizeof reason);
  fa_use_hints(e.c, false);
  if (proof == 1) {
    r->verdict = VERDICT_SAFE;
    fa_export_hints(e.c, &r->invariants);
  } else search(&e, o, proof, reason);
  smt_watch_stop(w);
  if (r->verdict == VERDICT_UNKNOWN && interrupt_requested())
    snprintf(r->unknown_reason, sizeof r->unknown_reason, "%s", INTERRUPT_REASON);
  r->seconds = smt_now() - start;
  fa_counters_free(e.c);
  smt_free(e.s);
}

void forall_invariants_free(forall_invariants *inv) {
  free(inv->features);
  free(inv->rows);
  free(inv->counted);
  memset(inv, 0, sizeof *inv);
}

void forall_result_free(forall_result *r) {
  forall_invariants_free(&r->invariants);
  free(r->certificate);
  smt_texts_free(&r->certificate_spec);
  free(r->counted);
  free(r->explicit_instances);
  r->certificate = r->counted = r->explicit_instances = NULL;
}
