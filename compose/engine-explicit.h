/* compose/engine-explicit.h -- explicit-state breadth-first search over any
 * model behind the next-state interface, on one thread or several (the same
 * verdict, counts and counterexample for any number), limits that end in
 * verdict unknown, and shortest counterexamples. Symmetry is the model's
 * (a product's counted view stores interchangeable instances as counts).
 *
 * Borrows the model; the result owns its trace (free with compose_result_free).
 */
#ifndef ATHREAD_ENGINE_EXPLICIT_H
#define ATHREAD_ENGINE_EXPLICIT_H

#include <stdbool.h>
#include <stdint.h>

#include "../core/progress.h"
#include "model.h"
#include "result.h"

/* Told of every state the search expands (step and dst NULL), then of every
 * step it takes from it to dst. With several workers it is called from all
 * of them at once. */
typedef void (*explicit_observe_fn)(void *ctx, const int64_t *src, const mdl_step *step, const int64_t *dst);

typedef struct explicit_options {
  uint64_t max_states; /* stop after storing this many states; 0 = no limit */
  double timeout;      /* seconds; 0 = no limit */
  uint64_t max_memory; /* bytes for the state store; 0 = 80% of available memory */
  unsigned threads;    /* workers; 0 = one per core */
  progress *progress;  /* the run's progress lines (borrowed), or NULL */
  explicit_observe_fn observe; /* called on every state expanded and step taken, or NULL */
  void *observe_ctx;           /* its first argument */
} explicit_options;

/* Searches the model; fills r. */
void explicit_run(const mdl *m, const explicit_options *o, compose_result *r);

#endif
