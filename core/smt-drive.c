/* core/smt-drive.c -- BMC, Spacer and the invariant re-check, once. */
#include "smt-drive.h"

#include <stdio.h>
#include <string.h>

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
