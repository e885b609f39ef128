/* races/proof.h -- layer 3 of athread races: candidates proved absent by
 * the abstract threads of a spec.
 *
 * The argument (language.md section 11): when the abstract system is safe
 * and every thread conforms to its abstract thread under the system's
 * environment (athread check), every state of a C run between steps maps
 * to a reachable state of the system with the same shared values, in which
 * each instance is in a candidate state of its conformance program (the set
 * F) where its code is. Two accesses are enabled at once when two instances
 * are at boundaries whose steps make them; so they never are when, for
 * every reachable state of the system with two different instances of the
 * two threads in states qa and qb, the layer proves of one side (say a)
 * that at every boundary whose step may reach a's access, qa is never in F
 * while the shared variables have that state's values. It explores the
 * system (the explicit engine) for those states, and proves the sides with
 * probes on C(T, T#) (coverage.h, cov_state_round). With for_all, the
 * states two instances may occupy together for some N come from the counter
 * abstraction's invariants (env_counters_together), without shared values:
 * a side is then proved when qa is never in F there at all.
 *
 * The caller vouches that the C program runs the spec's threads and nothing
 * else that changes a cell: each C thread function implements one thread
 * of the spec, with at most as many instances as the system runs, and main
 * writes no cell while its threads run (races.c, proof_blocker).
 *
 * Borrows everything; writes proof_pair.proved, proof_request.basis and
 * the returned text (a).
 */
#ifndef ATHREAD_RACES_PROOF_H
#define ATHREAD_RACES_PROOF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../conformance/prog.h"
#include "races.h"

/* The seconds the layer may take: the check and every probe together. */
#define PROOF_SECONDS 60.0
/* The most reachable states of the system it keeps (each is probed). */
#define PROOF_MAX_STATES 10000u
/* The most pairs of instances' states (with shared values) it keeps. */
#define PROOF_MAX_TOGETHER 1000000u

/* A C thread function and the spec thread it implements. */
typedef struct proof_thread {
  const prog *code; /* lowered and split, as layer 1 analysed it */
  int spec_thread;  /* index in spec->threads */
} proof_thread;

/* One access of a candidate pair. */
typedef struct proof_access {
  int thread;   /* index in proof_request.threads */
  int location; /* the code location its edge leaves (the step that makes it starts at a boundary before) */
} proof_access;

typedef struct proof_pair {
  proof_access a, b; /* the two accesses (a thread's access may pair with itself: two instances) */
  bool proved;       /* out: never enabled at once */
} proof_pair;

typedef struct proof_request {
  ast_spec *spec;              /* the spec (its system is explored and checked) */
  const races_request *rq;     /* the C files and which function implements each spec thread */
  const proof_thread *threads; /* the thread functions */
  size_t thread_count;         /* how many */
  proof_pair *pairs;           /* the candidate pairs of threads' accesses */
  size_t pair_count;           /* how many */
  const char *for_all;         /* the const N that counts instances: the proof for every N (athread check --for-all
                                  N, the counter abstraction's invariants instead of the explored states), or NULL */
  const char *basis;           /* out: what a proved pair rests on, one clause (arena) */
} proof_request;

/* Proves what it can; returns what it did, one sentence (allocated in a):
 * "N of M candidate pairs proved: ..." or "not used: why". */
const char *proof_run(proof_request *rq, arena *a);

#endif
