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

#include "../core/progress.h"
#include "../core/smt-print.h"
#include "../spec-lang/spec.h"
#include "result.h"

typedef struct forall_options {
  const char *param;  /* the const that counts the symmetric instances */
  double timeout;     /* seconds for the whole run; 0 = none */
  unsigned bmc_bound; /* deepest counterexample searched for; 0 = 100 */
  progress *progress; /* the run's progress lines (borrowed), or NULL */
} forall_options;

/* One integer feature of a state of the counter system: the affine
 * invariants of forall_invariants are equations over these. */
typedef enum fa_feature_kind {
  FA_FEATURE_SHARED, /* a shared variable (a bool reads as 1 or 0) */
  FA_FEATURE_AT,     /* 1 when an explicit instance is in a state, else 0 */
  FA_FEATURE_COUNT,  /* the number of a counted thread's instances in a state */
  FA_FEATURE_PARAM   /* N */
} fa_feature_kind;

typedef struct fa_feature {
  fa_feature_kind kind;
  int shared;  /* SHARED: its index in spec->shared */
  int thread;  /* AT, COUNT: the thread */
  int64_t tid; /* AT: the explicit instance's tid at the spec's value of N */
  int state;   /* AT, COUNT: the state */
} fa_feature;

/* Equations that hold in every reachable state of the counter system, for
 * every N (each initially true and inductive, checked by Z3): row r is
 * sum_k rows[r * (feature_count + 1) + k] * f_k == rows[r * (feature_count + 1) + feature_count]. */
typedef struct forall_invariants {
  const char *param;    /* N's name (borrowed from the spec) */
  fa_feature *features; /* the features f_k (owned) */
  size_t feature_count; /* how many */
  int64_t *rows;        /* the equations (owned), or NULL */
  size_t row_count;     /* how many */
  bool *counted;        /* per thread of the spec: its instances are counted (owned) */
} forall_invariants;

typedef struct forall_result {
  verdict verdict;              /* safe for every N >= 1, unsafe for some N, or unknown */
  char unknown_reason[200];     /* unknown: why */
  int64_t n;                    /* unsafe: the smallest N with a counterexample of the shortest length */
  unsigned depth;               /* unsafe: the counterexample's length; else the BMC depth reached */
  double seconds;               /* wall time */
  char *certificate;            /* safe: the inductive invariant over the counters (owned) */
  size_t certificate_atoms;     /* safe: its atomic formulas */
  smt_texts certificate_spec;   /* safe: its conjuncts in the spec's syntax (empty: some part has none) */
  char *counted;                /* "Worker[N]": the counted instances (owned) */
  char *explicit_instances;     /* "Stopper": the others, or "" (owned) */
  forall_invariants invariants; /* safe: the affine invariants the proof started from */
} forall_result;

/* Checks that --for-all param applies to the spec: param is a const, some
 * thread has exactly param instances, and every such thread is symmetric.
 * Reports each problem through the spec's sink and returns false. */
bool forall_applicable(const ast_spec *spec, const char *param);

/* Checks that the C code of the spec's threads can be checked for every N
 * (athread check --for-all; N is a variable of C(T, T#) there): no thread
 * may read tid (an instance's tid moves with N), and no initial value or
 * init predicate may depend on N (the C program's initial values are
 * fixed). Reports each problem through the spec's sink and returns false. */
bool forall_conform_applicable(const ast_spec *spec, const char *param);

/* Runs the proof and the counterexample search (forall_applicable must have
 * held). Fills r; free it with forall_result_free. */
void forall_run(const ast_spec *spec, const forall_options *o, forall_result *r);
void forall_result_free(forall_result *r);
void forall_invariants_free(forall_invariants *inv);

#endif
