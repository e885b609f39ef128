/* compose/forall-hull.h -- affine invariants of a system encoded in Z3,
 * guessed from sampled reachable states and kept when inductive (Houdini);
 * --for-all gives them to Spacer as a known invariant.
 *
 * The system is the caller's, through callbacks; a row is one equation
 * sum a_i f_i == b over the system's integer features f (feature_count
 * coefficients, then b). Borrows everything; terms live in the caller's smt.
 */
#ifndef ATHREAD_FORALL_HULL_H
#define ATHREAD_FORALL_HULL_H

#include <stddef.h>
#include <stdint.h>

#include "../core/smt.h"

typedef struct hull_system {
  smt *s;                                                  /* Z3 */
  size_t feature_count;                                    /* integer features of a state */
  double deadline;                                         /* CLOCK_MONOTONIC seconds, 0 = none */
  void *ctx;                                               /* passed to every callback */
  Z3_ast *(*state)(void *ctx, const char *suffix);         /* fresh constants of one state (owned array) */
  Z3_ast *(*features)(void *ctx, Z3_ast *v);               /* the features of state v (owned array) */
  Z3_ast (*initial)(void *ctx, Z3_ast *v);                 /* v is initial */
  Z3_ast (*domain)(void *ctx, Z3_ast *v);                  /* v is within the types */
  Z3_ast (*step)(void *ctx, Z3_ast *v, Z3_ast *w);         /* one step from v to w */
  Z3_ast (*step_or_stay)(void *ctx, Z3_ast *v, Z3_ast *w); /* a step, or w == v */
} hull_system;

/* Equations that hold in every reachable state: the affine hull of the
 * states sampled up to depth steps (within budget seconds), cut down to the
 * largest subset that holds initially and is inductive. Returns the rows
 * (owned, free with free(); NULL when none) and their number in *count. */
int64_t *hull_invariants(const hull_system *sys, unsigned depth, double budget, size_t *count);

/* The conjunction of rows[0..n) over the features of state v. */
Z3_ast hull_equations(const hull_system *sys, const int64_t *rows, size_t n, Z3_ast *v);

#endif
