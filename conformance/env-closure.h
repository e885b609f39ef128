/* conformance/env-closure.h -- the environment between two steps as one
 * relation (ENV_FROM_REACHABLE, small systems): from a reachable state of the
 * abstract system with instance i in state q and shared values g, the shared
 * values g' that the other instances' moves reach, any number of them (none
 * too).
 *
 * C(T, T#) takes that closure as one edge instead of a loop of single moves:
 * code without loops stays a program without loops (a bounded search covers
 * every path) and Spacer needs no invariant of the moves' loop. It is also
 * more precise than the loop, whose moves are each allowed by some reachable
 * state but not always by one path. A trace gets its moves back from the
 * graph of the reachable states (env_graph_witness).
 *
 * The graph is recorded while the explicit engine explores the system
 * (env_graph_state, env_graph_step) and given up past ENV_GRAPH_MAX_STATES
 * states. Owns its states, steps and rows; free with env_graph_free.
 */
#ifndef ATHREAD_ENV_CLOSURE_H
#define ATHREAD_ENV_CLOSURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>


/* The most reachable states whose graph is kept (the closure costs states *
 * distinct shared values bits per instance). */
#define ENV_GRAPH_MAX_STATES 4096u
/* The most rows (tid, state, g, g') of a closure; past it there is none. */
#define ENV_CLOSURE_MAX_ROWS ((size_t)1 << 16)

typedef struct env_graph env_graph;

/* A graph of states of shared + instances values: the shared variables'
 * values first, then the instances' control states (tid 1 first). */
env_graph *env_graph_new(size_t shared, size_t instances);
/* Records the state the search expands next (each state once). */
void env_graph_state(env_graph *g, const int64_t *state);
/* Records a step from the state recorded last to dst, taken by instance
 * mover (1-based) as move m of the environment. */
void env_graph_step(env_graph *g, int64_t mover, size_t m, const int64_t *dst);
/* After the search explored every state: computes the closure. False when
 * the graph was given up or the closure has too many rows (then there is
 * none). */
bool env_graph_close(env_graph *g);
/* The closure's rows with instance tid in state: *count rows of 2 + 2 *
 * shared values (tid, state, g, g'), or NULL when there are none. */
const int64_t *env_graph_closure(const env_graph *g, int64_t tid, int state, size_t *count);
/* The moves of a path through the graph (owned; free with env_path_free). */
typedef struct env_path {
  size_t count;   /* moves */
  size_t *moves;  /* per move: its index in the environment's moves */
  int64_t *after; /* per move: the shared values after it (shared values each) */
} env_path;

/* The moves of a closure row (tid, state, from, to), a shortest path. False
 * (and no path) when the row is not in the closure. */
bool env_graph_witness(const env_graph *g, int64_t tid, int state, const int64_t *from, const int64_t *to,
                       env_path *out);
void env_path_free(env_path *p);
void env_graph_free(env_graph *g);

/* Sorts count rows of width values and drops repeats; returns how many are
 * left. */
size_t env_rows_dedupe(int64_t *rows, size_t count, size_t width);

#endif
