/* conformance/environment.h -- what the other threads may do between two
 * steps of the thread being checked: the environment of C(T, T#).
 *
 * A move is one edge of one instance (the instance's tid, the edge of its
 * thread). Under ENV_SYSTEM the environment takes any number of moves
 * between two steps, each the relation of its edge, and a move may happen
 * while instance i of the checked thread is in abstract state q when
 *  - ENV_FROM_REACHABLE: some reachable state of the abstract system has i
 *    in q and the move's instance able to take the move's edge (every
 *    reachable state explored by the explicit engine);
 *  - ENV_FROM_EDGES: the move's instance is not i (any state, any time):
 *    the over-approximation taken where the system cannot be explored in
 *    full (an unbounded choice, a limit, a violation);
 *  - ENV_FROM_COUNTERS (athread check --for-all N): the affine invariants
 *    that hold in every reachable state of the counter abstraction, for
 *    every N (engine-forall.h), admit counters with i in q and another
 *    instance in the edge's source state. Independent of N: a counted
 *    thread's moves are those of "another instance", however many there are.
 * ENV_HAVOC is the paper's environment: any values between two steps, no
 * moves. language.md, section 11, argues why each is sound.
 *
 * Borrows the spec, which must outlive the environment; owns the rest
 * (free with env_free).
 */
#ifndef ATHREAD_ENVIRONMENT_H
#define ATHREAD_ENVIRONMENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../compose/engine-explicit.h"
#include "../compose/engine-forall.h"
#include "../spec-lang/spec.h"

/* The most states of the abstract system explored for the environment by
 * default; past it the moves come from the edges alone. */
#define ENV_MAX_STATES 1000000u

/* check --for-all N: C(T, T#) takes N as a variable from 1 to this. A bound
 * is needed with C's integers: a counter of the instances overflows for N
 * past its type's maximum, a run no search can reach; the bound is an
 * assumption of the verdict. */
#define ENV_MAX_INSTANCES ((int64_t)1 << 20)

typedef enum env_kind { ENV_SYSTEM, ENV_HAVOC } env_kind;

typedef enum env_source { ENV_FROM_HAVOC, ENV_FROM_REACHABLE, ENV_FROM_EDGES, ENV_FROM_COUNTERS } env_source;

typedef struct env_move {
  int64_t tid;              /* the instance that moves */
  const char *instance;     /* its name, "Worker[2]" */
  const ast_thread *thread; /* its thread */
  int edge;                 /* the edge of its thread it takes */
  bool grouped;             /* C(T, T#) takes it for every instance of its system line (several, tid unread) */
} env_move;

typedef struct conform_env {
  const ast_spec *spec;                /* borrowed */
  arena *arena;                        /* the instances' names */
  env_source source;                   /* where the moves' conditions come from */
  char why[300];                       /* ENV_FROM_EDGES: why the system was not explored in full */
  char text[500];                      /* the environment in one clause, for the verdict's assumptions */
  uint64_t states;                     /* ENV_FROM_REACHABLE: the reachable states explored */
  env_move *moves;                     /* every move of every instance (none under ENV_HAVOC) */
  size_t move_count;                   /* how many */
  size_t state_stride;                 /* the most states of any thread */
  uint8_t *allowed;                    /* ENV_FROM_REACHABLE: one bit per (tid - 1, state, move) */
  int64_t *values;                     /* ENV_FROM_REACHABLE: the distinct rows (tid, state, shared values) of the
                            reachable states, sorted, or NULL when there were too many to keep */
  size_t value_count;                  /* rows in values */
  const forall_invariants *invariants; /* ENV_FROM_COUNTERS: the equations (borrowed) */
  struct env_counters *counters;       /* ENV_FROM_COUNTERS: its conditions, decided as asked for (owned) */
  struct env_graph *graph;             /* ENV_FROM_REACHABLE on a small system: the reachable states, their steps
                                          and the closure of the moves (env-closure.h; owned), else NULL */
} conform_env;

/* Builds the environment of kind for every thread of spec, exploring the
 * abstract system within limits (its timeout and state limit; observe is
 * the environment's own). */
void env_build(ast_spec *spec, env_kind kind, const explicit_options *limits, conform_env *out);
/* The environment of ENV_FROM_COUNTERS: the moves of every instance, each
 * where inv (which must outlive it) admits it. */
void env_build_for_all(ast_spec *spec, const forall_invariants *inv, conform_env *out);
/* May move m happen while instance tid (1-based) is in state? */
bool env_allows(const conform_env *e, int64_t tid, int state, size_t m);
/* The reachable states in which instance tid is in state: *count rows of
 * spec->shared.len + 2 values each (tid, state, then the shared values), or
 * NULL when the environment keeps none (not ENV_FROM_REACHABLE, or too many). */
const int64_t *env_values(const conform_env *e, int64_t tid, int state, size_t *count);
/* ENV_FROM_REACHABLE on a small system (e->graph): rows (tid, state, g, g')
 * of 2 + 2 * spec->shared.len values, the shared values g' that the other
 * instances' moves (any number) reach from a reachable state with instance
 * tid in state and shared values g; NULL when there is no closure or no row. */
const int64_t *env_closure(const conform_env *e, int64_t tid, int state, size_t *count);
/* prog_edge.detail of C(T, T#)'s edge that takes the closure (moves >= 0). */
#define ENV_CLOSURE_EDGE (-2)
/* ENV_FROM_COUNTERS: may move m (SIZE_MAX: no move, only the instance)
 * happen while an instance of thread t is in state q? The condition over the
 * shared variables (a spec expression), or NULL when never. */
const ir_expr *env_counters_allow(const conform_env *e, const ast_thread *t, int q, size_t m);
/* ENV_FROM_COUNTERS: may an instance of thread ta be in state qa while
 * another instance, of thread tb (a counted one, or else the explicit
 * instance tid), is in state qb, for some N? The condition over the shared
 * variables, or NULL when never. */
const ir_expr *env_counters_together(const conform_env *e, int ta, int qa, int tb, int qb, int64_t tid);
/* "Worker[2] takes Idle -> Busy \"label\"" ("another Worker" for a grouped move). */
void env_describe_move(const conform_env *e, size_t m, strbuf *out);
/* The source's name for JSON: "reachable", "edges", "counters" or "havoc". */
const char *env_source_name(env_source s);
void env_free(conform_env *e);

#endif
