/* compose/engine-explicit.h -- explicit-state breadth-first search over any
 * model behind the next-state interface, with symmetry reduction when the
 * model declares groups, limits that end in verdict unknown, and concrete
 * shortest counterexamples.
 *
 * Borrows the model; the result owns its trace (free with compose_result_free).
 */
#ifndef ATHREAD_ENGINE_EXPLICIT_H
#define ATHREAD_ENGINE_EXPLICIT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "model.h"

typedef enum verdict { VERDICT_SAFE, VERDICT_UNSAFE, VERDICT_UNKNOWN } verdict;

typedef struct explicit_options {
  uint64_t max_states;  /* stop after storing this many states; 0 = no limit */
  double timeout;       /* seconds; 0 = no limit */
  uint64_t max_memory;  /* bytes for the state store; 0 = 80% of available memory */
  FILE *progress;       /* where to report every 2 s, or NULL */
} explicit_options;

typedef struct compose_result {
  verdict verdict;          /* safe, unsafe, or unknown */
  char unknown_reason[160]; /* why the verdict is unknown */
  uint64_t states;          /* states stored (symmetry-reduced when groups are declared) */
  uint64_t transitions;     /* successors generated */
  unsigned depth;           /* distance of the farthest level reached from an initial state */
  double seconds;           /* wall time of the search */
  size_t state_bytes;       /* bytes of one packed state */
  size_t memory_bytes;      /* bytes of the state store at the end */
  mdl_violation violation;  /* unsafe: why the last state goes wrong */
  size_t trace_steps;       /* unsafe: steps of the counterexample */
  int64_t *trace_states;    /* unsafe: (trace_steps + 1) states of mdl_width slots, concrete */
  mdl_step *trace;          /* unsafe: the step leading to each state after the first */
} compose_result;

/* Searches the model; fills r. */
void explicit_run(const mdl *m, const explicit_options *o, compose_result *r);
void compose_result_free(compose_result *r);

#endif
