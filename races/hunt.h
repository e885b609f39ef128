/* races/hunt.h -- the search layer over layer 1's candidates: each
 * candidate cell is searched for (search.h) in the threads started all at
 * once from the cells' initial values; a race found is replayed, then
 * becomes the cell's verdict with its trace (the steps, each with the
 * cells it changes).
 *
 * The caller vouches that the threads may start so: every instance run is
 * one that main surely starts, and either main runs too (main_code: from
 * its entry, the cells at C's initial values; the others start when it has
 * run all its creations) or nothing main does while they run changes a
 * cell or a lock (races.c, search_blocker).
 *
 * Borrows everything; writes the cells' verdicts and traces and the
 * result's search, searched and races (in out's arena).
 */
#ifndef ATHREAD_RACES_HUNT_H
#define ATHREAD_RACES_HUNT_H

#include <stddef.h>
#include <stdint.h>

#include "../cfront/cfront.h"
#include "../conformance/prog.h"
#include "races.h"

typedef struct hunt_thread {
  const char *function; /* its C function */
  const prog *code;     /* lowered and split */
  int64_t instances;    /* how many main surely starts */
} hunt_thread;

typedef struct hunt_request {
  const cfe_unit *unit;        /* for the models' edges */
  const hunt_thread *threads;  /* the thread functions */
  size_t thread_count;         /* how many */
  size_t cells;                /* spec->shared */
  const char *const *paths;    /* per cell: its C path */
  const int64_t *initial;      /* per cell: its value when the threads start */
  const int *result_cell;      /* per cell: its index in races_result.cells, or -1 */
  size_t max_states;           /* per search */
  const prog *main_code;       /* main lowered and split, to run as a thread too, or NULL */
  int64_t creates;             /* with main_code: the thread creations main surely runs */
} hunt_request;

void hunt_run(const hunt_request *rq, races_result *out);

#endif
