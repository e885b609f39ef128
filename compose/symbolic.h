/* compose/symbolic.h -- the symbolic face of a model: a transition system as
 * Z3 formulas over one constant per state slot, with numbered steps (LTSmin's
 * transition groups).
 *
 * Providers: the product of abstract threads (mdl_symbolic, in
 * model-product-smt.c) and the --for-all counter system (engine-forall.c).
 * Users: engine-symbolic.c, engine-forall.c and forall-hull.c read systems
 * through this face alone. What every such engine derives from a system is
 * here too, written once: the transition relation, the BMC unrolling and the
 * independent re-check of an inductive invariant. Borrows everything; terms
 * live in the system's smt.
 */
#ifndef ATHREAD_SYMBOLIC_H
#define ATHREAD_SYMBOLIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../core/smt-drive.h"
#include "../core/smt.h"

/* Step k sets control slot `slot` from `from` to `to` (slot -1: no control
 * slot changes). */
typedef struct sym_move {
  int slot;
  int64_t from, to;
} sym_move;

typedef struct sym_system {
  smt *s;            /* the Z3 context of every term */
  size_t width;      /* constants in a state */
  size_t step_count; /* numbered steps */
  void *ctx;         /* passed to every callback */
  /* Fresh constants of one state, named "SLOT@suffix" (owned array). */
  Z3_ast *(*state)(void *ctx, const char *suffix);
  /* v is an initial state (its domains included). */
  Z3_ast (*initial)(void *ctx, Z3_ast *v);
  /* v is within the types (and whatever else the provider knows holds). */
  Z3_ast (*domains)(void *ctx, Z3_ast *v);
  /* Step k goes from v to w (w's domains not included). */
  Z3_ast (*step)(void *ctx, size_t k, Z3_ast *v, Z3_ast *w);
  /* v goes wrong. */
  Z3_ast (*bad)(void *ctx, Z3_ast *v);
  /* Optional (NULL: no slot is named as one): per slot, how many control
   * states it holds (0 for data), and per step the control slot it moves; a
   * prover may split its invariant by these locations. */
  const int64_t *control;
  const sym_move *moves;
} sym_system;

/* T(v, w): some step from v to w and w within the domains; with sel, step k
 * also says sel == k, so that a model tells which step was taken. */
Z3_ast sym_transition(const sym_system *y, Z3_ast *v, Z3_ast *w, Z3_ast sel);

/* T(v, w), or w == v (an unrolling that never deadlocks). */
Z3_ast sym_step_or_stay(const sym_system *y, Z3_ast *v, Z3_ast *w);

/* Reads a model of a path that reaches a bad state at depth k: frames[j] is
 * the state at depth j, sel[j] the number of the step taken from it. */
typedef smt_bmc_answer (*sym_reached)(void *ctx, Z3_solver s, Z3_model m, Z3_ast **frames, Z3_ast *sel, unsigned k);

/* The shortest path to a bad state within bound steps (smt_bmc on the
 * system's unrolling; reached as smt_bmc's found). Returns and sets depth as
 * smt_bmc does. */
int sym_bmc(const sym_system *y, unsigned bound, double deadline, sym_reached reached, void *ctx, unsigned *depth,
            char *reason, size_t reason_size);

/* smt_recheck of inv (inv_x over x, inv_y over y) against the system. */
bool sym_recheck(const sym_system *y, double deadline, Z3_ast inv_x, Z3_ast inv_y, Z3_ast *x, Z3_ast *y_vars);

/* For all values of the constants a[i] (and b[i] when b is given), i ranging
 * over slots[0..n) (slots NULL: every slot), body. */
Z3_ast sym_forall(const sym_system *y, const size_t *slots, size_t n, Z3_ast *a, Z3_ast *b, Z3_ast body);

#endif
