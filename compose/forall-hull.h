/* compose/forall-hull.h -- affine invariants of a system encoded in Z3,
 * guessed from sampled reachable states and kept when inductive (Houdini);
 * --for-all gives them to Spacer as a known invariant.
 *
 * The system is the caller's symbolic system; a row is one equation
 * sum a_i f_i == b over the system's integer features f (feature_count
 * coefficients, then b). Borrows everything; terms live in the caller's smt.
 */
#ifndef ATHREAD_FORALL_HULL_H
#define ATHREAD_FORALL_HULL_H

#include <stddef.h>
#include <stdint.h>

#include "../core/smt.h"
#include "symbolic.h"

typedef struct hull_system {
  const sym_system *sys;                     /* the system (compose/symbolic.h) */
  size_t feature_count;                      /* integer features of a state */
  double deadline;                           /* CLOCK_MONOTONIC seconds, 0 = none */
  Z3_ast *(*features)(void *ctx, Z3_ast *v); /* the features of state v (owned array; ctx is sys->ctx) */
} hull_system;

/* Equations that hold in every reachable state: the affine hull of the
 * states sampled up to depth steps (within a fixed amount of Z3 work, so the
 * result is the same on every run, and under sys's deadline also within
 * budget seconds), cut down to the
 * largest subset that holds initially and is inductive. Returns the rows
 * (owned, free with free(); NULL when none) and their number in *count. */
int64_t *hull_invariants(const hull_system *sys, unsigned depth, double budget, size_t *count);

/* The conjunction of rows[0..n) over the features of state v. */
Z3_ast hull_equations(const hull_system *sys, const int64_t *rows, size_t n, Z3_ast *v);

#endif
