/* compose/engine-forall.h -- `athread compose --for-all N`: a proof for every
 * number of instances by counter abstraction.
 *
 * The threads whose instance count is the const N (and that are symmetric:
 * no tid, never named by index) become one integer counter per state; N is a
 * symbolic constant >= 1; every other instance stays explicit. Spacer proves
 * the counter system (its invariant re-checked by three independent
 * queries), or bounded model checking finds a counterexample and the value of
 * N in it. Borrows the spec; the result owns its texts (forall_result_free).
 */
#ifndef ATHREAD_ENGINE_FORALL_H
#define ATHREAD_ENGINE_FORALL_H

#include "../spec-lang/spec.h"
#include "result.h"

typedef struct forall_options {
  const char *param;  /* the const that counts the symmetric instances */
  double timeout;     /* seconds for the whole run; 0 = none */
  unsigned bmc_bound; /* deepest counterexample searched for; 0 = 100 */
} forall_options;

typedef struct forall_result {
  verdict verdict;          /* safe for every N >= 1, unsafe for some N, or unknown */
  char unknown_reason[200]; /* unknown: why */
  int64_t n;                /* unsafe: the smallest N with a counterexample of the shortest length */
  unsigned depth;           /* unsafe: the counterexample's length; else the BMC depth reached */
  double seconds;           /* wall time */
  char *certificate;        /* safe: the inductive invariant over the counters (owned) */
  size_t certificate_atoms; /* safe: its atomic formulas */
  char *counted;            /* "Worker[N]": the counted instances (owned) */
  char *explicit_instances; /* "Stopper": the others, or "" (owned) */
} forall_result;

/* Checks that --for-all param applies to the spec: param is a const, some
 * thread has exactly param instances, and every such thread is symmetric.
 * Reports each problem through the spec's sink and returns false. */
bool forall_applicable(const ast_spec *spec, const char *param);

/* Runs the proof and the counterexample search (forall_applicable must have
 * held). Fills r; free it with forall_result_free. */
void forall_run(const ast_spec *spec, const forall_options *o, forall_result *r);
void forall_result_free(forall_result *r);

#endif
