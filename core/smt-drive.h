/* core/smt-drive.h -- the solver driving every Z3 engine shares: bounded
 * model checking one depth at a time, a counterexample's model made small,
 * a Spacer run with its outcome and reason, and the independent re-check of
 * an inductive invariant.
 *
 * The engines keep their encodings (the composition's states, the counter
 * abstraction, the segments of C(T, T#)) and hand them to these drivers
 * through callbacks. Borrows everything; terms live in the caller's smt.
 */
#ifndef ATHREAD_SMT_DRIVE_H
#define ATHREAD_SMT_DRIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "smt.h"

/* What a caller's BMC callback says about a path that reaches a bad state. */
typedef enum smt_bmc_answer {
  SMT_BMC_DONE,  /* recorded: the search ends with a counterexample */
  SMT_BMC_AGAIN, /* recorded, and something stronger was asserted: check again at this depth */
  SMT_BMC_FAILED /* the model could not be read: the search ends in unknown */
} smt_bmc_answer;

/* A caller's unrolling. extend asserts on s the initial states (k = 0) or
 * one more step, from depth k - 1 to k; it returns false when no path is that
 * long. bad is "a bad state at depth k". found reads a model of such a path. */
typedef struct smt_bmc_steps {
  bool (*extend)(void *ctx, Z3_solver s, unsigned k);
  Z3_ast (*bad)(void *ctx, unsigned k);
  smt_bmc_answer (*found)(void *ctx, Z3_solver s, Z3_model m, unsigned k);
  void *ctx;
} smt_bmc_steps;

/* Looks for the shortest path to a bad state, depth 0 to bound, on a fresh
 * solver (deadline as for smt_solver). Returns 1 when found reported one, 0
 * when there is none within bound (or no path is longer), -1 when the
 * search stopped (reason: "timeout", INTERRUPT_REASON or Z3's error). *depth
 * is the last depth checked. Time limits and interrupts are also honoured
 * between steps, since building a step of a big system can take long. */
int smt_bmc(smt *s, unsigned bound, double deadline, const smt_bmc_steps *steps, unsigned *depth, char *reason,
            size_t reason_size);

/* What smt_small_model makes small: the integer terms inputs (the free
 * values of a path: its start and every havoc; terms of other sorts are
 * skipped), each as its distance from near (for a havoc, the value it
 * overwrites: the environment changes as little as it can), while the terms
 * keep (which path: its selectors) keep their values in the model. */
typedef struct smt_small {
  const Z3_ast *inputs; /* input_count terms, the earlier ones made small first */
  const Z3_ast *near;   /* per input: the term it stays near, or NULL for 0; or NULL for all 0 */
  size_t input_count;
  const Z3_ast *keep; /* keep_count terms */
  size_t keep_count;
} smt_small;

/* A model of what solver sv holds (m, say, of a path to a bad state) whose
 * inputs are small: the least distance of each input in order, the earlier
 * ones fixed (one bound for all would spread a change that one havoc can
 * make over several; this way most havocs change nothing). Only
 * constraints are added (in a scope of sv's own, popped before it returns),
 * so the model is one of the same formula; it is also evaluated against
 * every assertion of sv before it is taken. Within SMT_SMALL_UNITS of Z3's
 * resource units (about a second; the same result on every machine) and a
 * fifth of the time left until deadline (0 for none), at most
 * SMT_SMALL_SECONDS; sv's time and resource limits are restored. Returns a
 * new reference (release with Z3_model_dec_ref): the smallest model found,
 * or m itself when none was. */
#define SMT_SMALL_UNITS UINT64_C(2000000)
#define SMT_SMALL_SECONDS 2.0
Z3_model smt_small_model(smt *s, Z3_solver sv, Z3_model m, double deadline, const smt_small *want);

/* Reads and re-checks the invariant in Spacer's model: true when it passed. */
typedef bool (*smt_accept)(void *ctx, Z3_model m);

/* Runs Spacer on horn, a solver from smt_solver(s, deadline, true) holding
 * the caller's clauses. Returns 1 when it found an invariant that accept
 * took, 0 when the clauses have no solution (a counterexample exists), -1
 * otherwise with the reason (Z3's error, Spacer's reason for unknown, or an
 * invariant that failed the re-check). */
int smt_spacer(smt *s, Z3_solver horn, double deadline, smt_accept accept, void *ctx, char *reason, size_t reason_size);

/* The interpretation of predicate p in a model Spacer gave, with args[0..n)
 * for its bound variables; `missing` (true or false) when the model leaves p
 * out; NULL when it cannot be read. */
Z3_ast smt_predicate_in(smt *s, Z3_model m, Z3_func_decl p, size_t n, Z3_ast *args, bool missing);

/* Whether f is unsatisfiable, shown by a fresh solver (deadline as for
 * smt_solver); false when Z3 failed or gave no answer. */
bool smt_unsat(smt *s, double deadline, Z3_ast f);
/* The same in solver sv (from smt_solver), in a scope of its own: a series
 * of independent queries pays for one solver's set-up (about 12 ms) instead
 * of one per query. */
bool smt_unsat_in(smt *s, Z3_solver sv, double deadline, Z3_ast f);

/* Whether inv is an inductive invariant that excludes bad: init_x implies
 * inv_x, inv_x and step_xy imply inv_y, and inv_x and bad_x are
 * contradictory, each shown by a fresh solver (deadline as for smt_solver). */
bool smt_recheck(smt *s, double deadline, Z3_ast init_x, Z3_ast step_xy, Z3_ast bad_x, Z3_ast inv_x, Z3_ast inv_y);

#endif
