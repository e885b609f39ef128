/* compose/result.h -- the verdict of a composition check and what every
 * engine reports with it: counts, the reason for unknown, and the concrete
 * counterexample.
 *
 * Owns: the trace arrays of a compose_result (free with compose_result_free).
 */
#ifndef ATHREAD_COMPOSE_RESULT_H
#define ATHREAD_COMPOSE_RESULT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model.h"

typedef enum verdict { VERDICT_SAFE, VERDICT_UNSAFE, VERDICT_UNKNOWN } verdict;

typedef struct compose_result {
  verdict verdict;          /* safe, unsafe, or unknown */
  char unknown_reason[160]; /* why the verdict is unknown */
  bool out_of_room;         /* unknown: the explicit engine ran out of states or memory, or of its int window */
  uint64_t states;          /* states stored (symmetry-reduced when groups are declared) */
  uint64_t transitions;     /* successors generated */
  unsigned depth;           /* distance of the farthest level reached from an initial state */
  double seconds;           /* wall time of the search */
  size_t state_bytes;       /* bytes of one packed state */
  size_t memory_bytes;      /* bytes of the state store at the end */
  size_t workers;           /* explicit engine: threads that searched */
  bool compiled;            /* explicit engine: the model's successors ran as compiled C (model-compiled.h) */
  char compile_failure[160]; /* explicit engine: why compiling the model failed, or "" */
  mdl_violation violation;  /* unsafe: why the last state goes wrong */
  size_t trace_steps;       /* unsafe: steps of the counterexample */
  int64_t *trace_states;    /* unsafe: (trace_steps + 1) states of mdl_width slots, concrete */
  mdl_step *trace;          /* unsafe: the step leading to each state after the first */
} compose_result;

void compose_result_free(compose_result *r);

#endif
