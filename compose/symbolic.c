/* compose/symbolic.c -- what the engines derive from a symbolic system. */
#include "symbolic.h"

#include <stdio.h>
#include <stdlib.h>

#include "../core/arena.h"
#include "../core/vec.h"

Z3_ast sym_transition(const sym_system *y, Z3_ast *v, Z3_ast *w, Z3_ast sel) {
  Z3_ast domains_w = y->domains(y->ctx, w); /* first: Z3's search follows the order terms are made in */
  VEC(Z3_ast) alt = {0};
  for (size_t k = 0; k < y->step_count; k++) {
    Z3_ast f = y->step(y->ctx, k, v, w);
    if (sel) {
      Z3_ast both[2] = {smt_eq(y->s, sel, smt_int(y->s, (int64_t)k)), f};
      f = smt_and(y->s, 2, both);
    }
    vec_push(NULL, &alt, f);
  }
  Z3_ast parts[2] = {smt_or(y->s, (unsigned)alt.len, alt.items), domains_w};
  vec_free(&alt);
  return smt_and(y->s, 2, parts);
}

Z3_ast sym_step_or_stay(const sym_system *y, Z3_ast *v, Z3_ast *w) {
  VEC(Z3_ast) same = {0};
  for (size_t i = 0; i < y->width; i++) vec_push(NULL, &same, smt_eq(y->s, w[i], v[i]));
  Z3_ast alt[2] = {sym_transition(y, v, w, NULL), smt_and(y->s, (unsigned)same.len, same.items)};
  vec_free(&same);
  return smt_or(y->s, 2, alt);
}

/* ---------------------------------------------------------------- BMC */

/* The unrolling smt_bmc extends: frames[k] is the state at depth k, sel[k]
 * the step from it. */
typedef struct unrolling {
  const sym_system *y;
  Z3_ast **frames; /* bound + 2 entries */
  Z3_ast *sel;     /* bound + 2 entries */
  sym_reached reached;
  void *ctx; /* reached's */
} unrolling;

static bool extend(void *ctx, Z3_solver s, unsigned k) {
  unrolling *u = ctx;
  const sym_system *y = u->y;
  char name[32];
  if (k > 0) {
    snprintf(name, sizeof name, "step@%u", k - 1);
    u->sel[k - 1] = smt_var(y->s, name, false);
  }
  snprintf(name, sizeof name, "%u", k);
  u->frames[k] = y->state(y->ctx, name);
  Z3_ast f =
      k == 0 ? y->initial(y->ctx, u->frames[0]) : sym_transition(y, u->frames[k - 1], u->frames[k], u->sel[k - 1]);
  Z3_solver_assert(smt_z3(y->s), s, f);
  return true;
}

static Z3_ast bad_at(void *ctx, unsigned k) {
  unrolling *u = ctx;
  return u->y->bad(u->y->ctx, u->frames[k]);
}

static smt_bmc_answer found(void *ctx, Z3_solver s, Z3_model m, unsigned k) {
  unrolling *u = ctx;
  return u->reached(u->ctx, s, m, u->frames, u->sel, k);
}

int sym_bmc(const sym_system *y, unsigned bound, double deadline, sym_reached reached, void *ctx, unsigned *depth,
            char *reason, size_t reason_size) {
  unrolling u = {y, xcalloc(bound + 2, sizeof *u.frames), xcalloc(bound + 2, sizeof *u.sel), reached, ctx};
  smt_bmc_steps steps = {extend, bad_at, found, &u};
  int result = smt_bmc(y->s, bound, deadline, &steps, depth, reason, reason_size);
  for (unsigned k = 0; k <= bound + 1; k++) free(u.frames[k]);
  free(u.frames);
  free(u.sel);
  return result;
}

bool sym_recheck(const sym_system *y, double deadline, Z3_ast inv_x, Z3_ast inv_y, Z3_ast *x, Z3_ast *y_vars) {
  return smt_recheck(y->s, deadline, y->initial(y->ctx, x), sym_transition(y, x, y_vars, NULL), y->bad(y->ctx, x),
                     inv_x, inv_y);
}

Z3_ast sym_forall(const sym_system *y, const size_t *slots, size_t n, Z3_ast *a, Z3_ast *b, Z3_ast body) {
  Z3_context c = smt_z3(y->s);
  size_t count = n * (b ? 2 : 1);
  if (count == 0) return body;
  Z3_app *bound = xcalloc(count, sizeof *bound);
  for (size_t k = 0; k < n; k++) {
    size_t i = slots ? slots[k] : k;
    bound[k] = Z3_to_app(c, a[i]);
    if (b) bound[n + k] = Z3_to_app(c, b[i]);
  }
  Z3_ast q = smt_keep(y->s, Z3_mk_forall_const(c, 0, (unsigned)count, bound, 0, NULL, body));
  free(bound);
  return q;
}
