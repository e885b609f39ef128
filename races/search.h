/* races/search.h -- layer 2 of athread races: a bounded breadth-first
 * search of the threads' interleavings for a data race, and its replay.
 *
 * With main among the threads (rs_request.main_thread) the others start
 * together once main has run all its thread creations (a creation's result
 * is 0), and a join of main waits until every other thread has ended: fewer
 * runs than C has, none it does not (once main has returned the others go
 * on: main's return may wait that long). Without main they all start at
 * once.
 *
 * The threads are lowered progs split at their shared accesses
 * (--atomicity access: one shared access per step, atomic sections one
 * step). A state is every thread instance's location and locals and every
 * cell's value; a move runs one instance's step, from a boundary to the
 * next. A race is a state where two instances each have a step that
 * accesses the same target cell, at least one a write, not both
 * synchronised: two conflicting accesses enabled at once.
 *
 * The search under-approximates, so that what it finds is real: a havoc
 * (a nondeterministic value) tries a few values of its type only, the
 * caller runs as many instances as surely start (or fewer), states and
 * steps are bounded, and an access counts only when C surely makes it (a
 * write that keeps its cell, c := (s ? t : c) with s false, is none; a read
 * under && || ?: counts on the runs that evaluate it; a speculative load,
 * prog_edge.speculative, never). Not finding a race proves nothing.
 *
 * Borrows the request; the race owns its vectors (rs_race_free).
 */
#ifndef ATHREAD_RACES_SEARCH_H
#define ATHREAD_RACES_SEARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../conformance/prog.h"
#include "../core/vec.h"

/* What an edge of main does to the other threads (bits). */
typedef enum rs_role {
  RS_PLAIN = 0,   /* nothing */
  RS_CREATE = 1,  /* part of a thread creation (its result: 0) */
  RS_JOIN = 2,    /* part of a join (waits until every other thread has ended; its result: 0) */
  RS_CREATED = 4  /* the end of a creation (once per creation) */
} rs_role;

typedef struct rs_thread {
  const prog *code;      /* lowered and split; its shared variables index the cells */
  int instances;         /* how many instances the search runs (>= 1) */
  const uint8_t *roles;  /* main: per edge, its rs_role; else NULL */
} rs_thread;

/* Is the access of edge (of thread) synchronised (atomic, or in a model)? */
typedef bool rs_sync_fn(void *ctx, int thread, int edge);

typedef struct rs_request {
  const rs_thread *threads; /* the thread functions */
  size_t thread_count;      /* how many */
  size_t cells;             /* the cells (spec->shared) */
  const int64_t *initial;   /* per cell: its value when the threads start */
  const bool *target;       /* per cell: look for races on it */
  rs_sync_fn *sync;         /* the synchronised accesses */
  void *ctx;                /* sync's */
  size_t max_states;        /* the search stops after this many states */
  int context_bound;        /* >= 0: a depth-first search of the runs with at most this many context switches (a
                               move by another instance than the last one's), which reaches deep races in few
                               states; < 0: a breadth-first search of every run (shortest traces) */
  int main_thread;          /* the thread that is main (one instance, roles set), or -1 */
  int64_t creates;          /* with main: the other threads start when main has run this many creations */
} rs_request;

/* One move: an instance's step, its edges and the value of each havoc. */
typedef struct rs_move {
  int instance; /* numbered thread by thread: thread 0's instances first */
  size_t first; /* its edges: rs_race.edges[first .. first + count) */
  size_t count; /* how many */
} rs_move;

/* One side of a race: the step that makes the access, and the access. */
typedef struct rs_side {
  rs_move move; /* the step, from the race's state */
  int edge;     /* the edge that accesses the cell */
  bool write;   /* a write (else a read) */
  bool sync;    /* synchronised */
} rs_side;

typedef struct rs_race {
  int cell;                     /* the cell both access */
  VEC(rs_move) schedule;        /* the moves from the start to the race's state */
  VEC(int) edges;               /* the edges of all moves (the schedule's, then the two sides') */
  VEC(int64_t) values;          /* per entry of edges: the value a havoc gives (else 0) */
  rs_side first, second;        /* the two accesses enabled at once */
} rs_race;

typedef enum rs_outcome {
  RS_FOUND, /* a race (out holds it) */
  RS_NONE,  /* every state within the bounds searched: none found (which proves nothing) */
  RS_LIMIT  /* the state bound was reached */
} rs_outcome;

/* Searches; *states is the number of states seen. */
rs_outcome rs_search(const rs_request *rq, rs_race *out, size_t *states);
/* An access a move made: its cell, and whether it wrote it. */
typedef struct rs_touch {
  int cell;
  bool write;
} rs_touch;

/* Called after each move of the schedule with the cells before and after
 * it, and the n accesses it made. */
typedef void rs_observe_fn(void *ctx, size_t move, const int64_t *before, const int64_t *after,
                           const rs_touch *touches, size_t n);

/* Replays race from the start edge by edge with prog_eval: each edge
 * leaves its instance's location, each havoc's value fits its variable,
 * each assume and assertion holds, each move ends at a boundary, and the two
 * sides access the cell as stated from the race's state, by two instances,
 * one a write. observe (may be NULL) sees each move of the schedule. On
 * false, why says where it failed. */
bool rs_replay(const rs_request *rq, const rs_race *race, rs_observe_fn *observe, void *ctx, char *why,
               size_t size);
/* The thread of an instance, and the instance's number within it. */
int rs_thread_of(const rs_request *rq, int instance, int *nth);
void rs_race_free(rs_race *race);

#endif
