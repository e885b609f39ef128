/* conformance/check.h -- `athread check` as one call: the verdict for the C
 * program. The abstract system is model-checked first (compose_run's engine
 * policy); when it is safe, every thread of the spec is checked for
 * conformance under the environment of that system (conform_run with
 * ENV_SYSTEM unless the request says otherwise). Then, by the theorem of
 * language.md section 11: every thread conforms and the system is safe, so
 * the C program is safe (under the assumptions the run states).
 *
 * Borrows the spec and the request; the result owns both runs (free with
 * check_run_free).
 */
#ifndef ATHREAD_CHECK_H
#define ATHREAD_CHECK_H

#include <stdbool.h>

#include "../compose/run.h"
#include "run.h"

typedef enum check_verdict {
  CHECK_SAFE,       /* every thread conforms and the abstract system is safe */
  CHECK_NOT_PROVED, /* the abstract system is unsafe, or a thread does not conform (a counterexample) */
  CHECK_UNKNOWN     /* a limit, an engine that gave up, or a thread without C code */
} check_verdict;

typedef struct check_result {
  compose_run_result compose; /* the abstract system's run */
  bool conform_ran;           /* conform holds a run (the system was safe) */
  conform_run_result conform; /* the threads' runs */
  check_verdict verdict;      /* the C program's */
  char reason[400];           /* why, in one sentence */
} check_result;

typedef struct check_request {
  conform_request conform;          /* the threads' checks */
  const char *for_all;              /* --for-all: the const N (a proof for every N), or NULL */
  const spec_options *spec_options; /* what the spec was loaded with (--for-all's re-run at a failing N) */
} check_request;

/* Runs both checks; false after an input error (reported through sink).
 * With --for-all N the system is proved for every N (compose's counter
 * abstraction) and the threads are checked under the environment of its
 * invariants, which holds for every N (environment.h); the verdict is then
 * for every N. */
bool check_run(diag_sink *sink, ast_spec *spec, const check_request *rq, check_result *out);
void check_run_free(check_result *out);
/* A verdict's name: "safe", "not proved", "unknown" (a static string). */
const char *check_verdict_text(check_verdict v);
/* The C program's verdict (out->verdict, out->reason) by the theorem, from
 * out->compose and, when out->conform_ran, out->conform: not proved when the
 * system is unsafe or a thread does not conform, unknown when either is
 * unknown or a thread has no C code (rq->function), else safe. check_run
 * calls it; so does a caller that ran both checks itself (athread review). */
void check_conclude(const ast_spec *spec, const conform_request *rq, check_result *out);

#endif
