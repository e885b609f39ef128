/* core/smt-drive.c -- BMC, Spacer and the invariant re-check, once. */
#include "smt-drive.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "interrupt.h"

/* Gives the solver the time left until deadline: one solver serves every
 * depth, and its creation-time limit would let a late check run past it. */
static void limit_to(smt *s, Z3_solver sv, double deadline) {
  if (deadline <= 0) return;
  Z3_context c = smt_z3(s);
  Z3_params p = Z3_mk_params(c);
  Z3_params_inc_ref(c, p);
  Z3_params_set_uint(c, p, Z3_mk_string_symbol(c, "timeout"), smt_timeout_ms(deadline));
  Z3_solver_set_params(c, sv, p);
  Z3_params_dec_ref(c, p);
}

static int stopped(smt *s, const char *why, char *reason, size_t reason_size) {
  snprintf(reason, reason_size, "%s", smt_failed(s) ? smt_error(s) : why);
  return -1;
}

/* Checks for a bad state at depth k: 1, 0 or -1 as smt_bmc. */
static int check_depth(smt *s, Z3_solver sv, double deadline, const smt_bmc_steps *steps, unsigned k) {
  Z3_context c = smt_z3(s);
  int found = 0;
  Z3_solver_push(c, sv);
  Z3_solver_assert(c, sv, steps->bad(steps->ctx, k));
  for (;;) {
    limit_to(s, sv, deadline);
    Z3_lbool res = smt_check(s, sv, deadline);
    if (smt_failed(s) || res == Z3_L_UNDEF) {
      found = found == 1 ? 1 : -1; /* no answer after a recorded path: that path stands */
      break;
    }
    if (res == Z3_L_FALSE) break;
    Z3_model m = Z3_solver_get_model(c, sv);
    Z3_model_inc_ref(c, m);
    smt_bmc_answer a = steps->found(steps->ctx, sv, m, k);
    Z3_model_dec_ref(c, m);
    found = a == SMT_BMC_FAILED ? -1 : 1;
    if (a != SMT_BMC_AGAIN) break;
  }
  Z3_solver_pop(c, sv, 1);
  return found;
}

int smt_bmc(smt *s, unsigned bound, double deadline, const smt_bmc_steps *steps, unsigned *depth, char *reason,
            size_t reason_size) {
  Z3_solver sv = smt_solver(s, deadline, false);
  int found = 0;
  for (unsigned k = 0; k <= bound && found == 0; k++) {
    if (k > 0 && interrupt_requested()) {
      found = stopped(s, INTERRUPT_REASON, reason, reason_size);
      break;
    }
    if (k > 0 && smt_deadline_passed(deadline)) {
      found = stopped(s, "timeout", reason, reason_size);
      break;
    }
    progress_phase(smt_progress(s), "bounded model checking, depth %u", k);
    if (!steps->extend(steps->ctx, sv, k)) break;
    *depth = k;
    found = check_depth(s, sv, deadline, steps, k);
    if (found < 0) stopped(s, interrupt_requested() ? INTERRUPT_REASON : "timeout", reason, reason_size);
  }
  Z3_solver_dec_ref(smt_z3(s), sv);
  return found;
}

/* ---------------------------------------------------------------- small models */

/* The search for a small model: the budget, and the best model so far. */
typedef struct shrink {
  smt *s;
  Z3_solver sv;
  const smt_small *want;
  Z3_ast *dist;       /* per integer input: its distance from its near term */
  size_t count;       /* entries in dist */
  Z3_model best;      /* a reference */
  bool changed;       /* best is not the caller's model */
  uint64_t units_end; /* where the resource budget ends (smt_resources_used) */
  double stop;        /* where the time budget ends */
  bool over;          /* the budget ran out, or Z3 gave no answer: no more checks */
} shrink;

static bool is_int(smt *s, Z3_ast t) { return Z3_get_sort_kind(smt_z3(s), Z3_get_sort(smt_z3(s), t)) == Z3_INT_SORT; }

/* |t| in the best model; UINT64_MAX when it is no 64-bit numeral. */
static uint64_t magnitude(const shrink *sh, Z3_ast t) {
  int64_t v = 0;
  if (!smt_model_value(sh->s, sh->best, t, &v)) return UINT64_MAX;
  return v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
}

/* -b <= t <= b (b at most INT64_MAX). */
static Z3_ast within(smt *s, Z3_ast t, uint64_t b) {
  Z3_ast both[2] = {smt_le(s, smt_int(s, -(int64_t)b), t), smt_le(s, t, smt_int(s, (int64_t)b))};
  return smt_and(s, 2, both);
}

/* The distances of the integer inputs, in order. */
static void distances(shrink *sh) {
  const smt_small *w = sh->want;
  Z3_context c = smt_z3(sh->s);
  sh->dist = xcalloc(w->input_count + 1, sizeof *sh->dist);
  for (size_t i = 0; i < w->input_count; i++) {
    if (!is_int(sh->s, w->inputs[i])) continue;
    Z3_ast near = w->near ? w->near[i] : NULL, both[2] = {w->inputs[i], near};
    sh->dist[sh->count++] = near && is_int(sh->s, near) ? smt_keep(sh->s, Z3_mk_sub(c, 2, both)) : w->inputs[i];
  }
}

static void set_limits(smt *s, Z3_solver sv, unsigned timeout_ms, unsigned rlimit) {
  Z3_context c = smt_z3(s);
  Z3_params p = Z3_mk_params(c);
  Z3_params_inc_ref(c, p);
  Z3_params_set_uint(c, p, Z3_mk_string_symbol(c, "timeout"), timeout_ms);
  Z3_params_set_uint(c, p, Z3_mk_string_symbol(c, "rlimit"), rlimit);
  Z3_solver_set_params(c, sv, p);
  Z3_params_dec_ref(c, p);
}

/* Limits the next check to what is left of the budget; false when nothing is. */
static bool limit_check(shrink *sh) {
  uint64_t used = smt_resources_used(sh->s, sh->sv);
  if (used >= sh->units_end || smt_deadline_passed(sh->stop) || interrupt_requested()) sh->over = true;
  if (sh->over) return false;
  uint64_t left = sh->units_end - used;
  set_limits(sh->s, sh->sv, smt_timeout_ms(sh->stop), left < UINT_MAX ? (unsigned)left : UINT_MAX);
  return true;
}

/* Whether sv has a model with f too; if so, it becomes the best. */
static bool feasible(shrink *sh, Z3_ast f) {
  if (!limit_check(sh)) return false;
  Z3_context c = smt_z3(sh->s);
  Z3_solver_push(c, sh->sv);
  Z3_solver_assert(c, sh->sv, f);
  Z3_lbool r = smt_check(sh->s, sh->sv, sh->stop);
  if (r == Z3_L_TRUE) {
    Z3_model_dec_ref(c, sh->best);
    sh->best = Z3_solver_get_model(c, sh->sv);
    Z3_model_inc_ref(c, sh->best);
    sh->changed = true;
  }
  Z3_solver_pop(c, sh->sv, 1);
  sh->over |= r == Z3_L_UNDEF;
  return r == Z3_L_TRUE;
}

/* The least |t|, asserted: bounds 0, 1, 3, 7, ... until one holds, then
 * halving the interval (most inputs can be 0; a few must be large). */
static void bound_one(shrink *sh, Z3_ast t) {
  uint64_t lo = 0, hi = magnitude(sh, t);
  bool gallop = true;
  while (lo < hi && hi <= INT64_MAX && !sh->over) {
    uint64_t mid = gallop ? (lo ? 2 * lo - 1 : 0) : lo + (hi - lo) / 2;
    if (gallop && mid >= hi) gallop = false;
    else if (feasible(sh, within(sh->s, t, mid))) hi = magnitude(sh, t), gallop = false;
    else lo = mid + 1;
  }
  if (hi <= INT64_MAX) Z3_solver_assert(smt_z3(sh->s), sh->sv, within(sh->s, t, hi));
}

/* Does the best model satisfy every assertion of sv? (Z3 4.8 can answer sat
 * with a meaningless model to a check that a limit cancelled.) */
static bool satisfies_all(const shrink *sh) {
  Z3_context c = smt_z3(sh->s);
  Z3_ast_vector all = Z3_solver_get_assertions(c, sh->sv);
  Z3_ast_vector_inc_ref(c, all);
  bool ok = true;
  for (unsigned i = 0; i < Z3_ast_vector_size(c, all) && ok; i++) {
    Z3_ast v = NULL;
    ok = Z3_model_eval(c, sh->best, Z3_ast_vector_get(c, all, i), true, &v);
    ok = ok && v && Z3_get_bool_value(c, v) == Z3_L_TRUE;
  }
  Z3_ast_vector_dec_ref(c, all);
  return ok;
}

/* The keep terms at their values in m. */
static void pin(shrink *sh, Z3_model m) {
  Z3_context c = smt_z3(sh->s);
  for (size_t i = 0; i < sh->want->keep_count; i++) {
    Z3_ast v = NULL;
    if (Z3_model_eval(c, m, sh->want->keep[i], true, &v) && v)
      Z3_solver_assert(c, sh->sv, smt_eq(sh->s, sh->want->keep[i], smt_keep(sh->s, v)));
  }
}

Z3_model smt_small_model(smt *s, Z3_solver sv, Z3_model m, double deadline, const smt_small *want) {
  Z3_context c = smt_z3(s);
  double now = smt_now(), share = deadline > 0 ? (deadline - now) / 5 : SMT_SMALL_SECONDS;
  shrink sh = {.s = s, .sv = sv, .want = want, .best = m};
  sh.units_end = smt_resources_used(s, sv) + SMT_SMALL_UNITS;
  sh.stop = now + (share < SMT_SMALL_SECONDS ? share : SMT_SMALL_SECONDS);
  Z3_model_inc_ref(c, m);
  unsigned rlimit = smt_rlimit(s);
  smt_set_rlimit(s, (unsigned)SMT_SMALL_UNITS); /* Z3 aborting in a cancelled check ends the run as a limit would */
  Z3_solver_push(c, sv);
  pin(&sh, m);
  distances(&sh);
  for (size_t i = 0; i < sh.count && !sh.over; i++) bound_one(&sh, sh.dist[i]);
  if (sh.changed && !satisfies_all(&sh)) {
    Z3_model_dec_ref(c, sh.best);
    sh.best = m;
    Z3_model_inc_ref(c, m);
  }
  Z3_solver_pop(c, sv, 1);
  smt_set_rlimit(s, rlimit);
  set_limits(s, sv, deadline > 0 ? smt_timeout_ms(deadline) : UINT_MAX, rlimit);
  free(sh.dist);
  return sh.best;
}

int smt_spacer(smt *s, Z3_solver horn, double deadline, smt_accept accept, void *ctx, char *reason,
               size_t reason_size) {
  Z3_context c = smt_z3(s);
  progress_phase(smt_progress(s), "Spacer (IC3/PDR) is looking for an inductive invariant");
  Z3_lbool res = smt_check(s, horn, deadline);
  if (smt_failed(s)) {
    snprintf(reason, reason_size, "Z3 reported an error: %s", smt_error(s));
    return -1;
  }
  if (res == Z3_L_FALSE) return 0;
  if (res == Z3_L_UNDEF) {
    const char *why = Z3_solver_get_reason_unknown(c, horn);
    int first_line = (int)strcspn(why, "\n");
    if (first_line > 13 && strncmp(why + first_line - 11, " in <null>:", 11) == 0) first_line -= 11; /* Z3's filler */
    snprintf(reason, reason_size, "Spacer found no proof (%.*s)", first_line, why);
    return -1;
  }
  Z3_model m = Z3_solver_get_model(c, horn);
  Z3_model_inc_ref(c, m);
  progress_phase(smt_progress(s), "re-checking Spacer's invariant");
  bool accepted = accept(ctx, m);
  Z3_model_dec_ref(c, m);
  if (accepted) return 1;
  snprintf(reason, reason_size, "the invariant Spacer found did not pass the independent re-check");
  return -1;
}

bool smt_unsat(smt *s, double deadline, Z3_ast f) {
  Z3_solver sv = smt_solver(s, deadline, false);
  bool unsat = smt_unsat_in(s, sv, deadline, f);
  Z3_solver_dec_ref(smt_z3(s), sv);
  return unsat;
}

bool smt_unsat_in(smt *s, Z3_solver sv, double deadline, Z3_ast f) {
  Z3_context c = smt_z3(s);
  Z3_solver_push(c, sv);
  Z3_solver_assert(c, sv, f);
  limit_to(s, sv, deadline);
  Z3_lbool r = smt_check(s, sv, deadline);
  Z3_solver_pop(c, sv, 1);
  return r == Z3_L_FALSE && !smt_failed(s);
}

bool smt_recheck(smt *s, double deadline, Z3_ast init_x, Z3_ast step_xy, Z3_ast bad_x, Z3_ast inv_x, Z3_ast inv_y) {
  Z3_ast initiation[2] = {init_x, smt_not(s, inv_x)};
  Z3_ast consecution[3] = {inv_x, step_xy, smt_not(s, inv_y)};
  Z3_ast safety[2] = {inv_x, bad_x};
  return smt_unsat(s, deadline, smt_and(s, 2, initiation)) && smt_unsat(s, deadline, smt_and(s, 3, consecution)) &&
         smt_unsat(s, deadline, smt_and(s, 2, safety));
}

Z3_ast smt_predicate_in(smt *s, Z3_model m, Z3_func_decl p, size_t n, Z3_ast *args, bool missing) {
  Z3_context c = smt_z3(s);
  Z3_func_interp fi = Z3_model_get_func_interp(c, m, p);
  if (!fi) return Z3_model_has_interp(c, m, p) ? NULL : smt_bool(s, missing);
  Z3_func_interp_inc_ref(c, fi);
  Z3_ast body = smt_keep(s, Z3_func_interp_get_else(c, fi));
  Z3_func_interp_dec_ref(c, fi);
  return body ? smt_keep(s, Z3_substitute_vars(c, body, (unsigned)n, args)) : NULL;
}
