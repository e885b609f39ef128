/* conformance/trace.h -- a counterexample of C(T, T#) told in the concrete
 * thread's terms: its steps, the environment's values before each, the
 * shared values and the candidate set F after each, and why it fails.
 *
 * Owns: the steps and their value arrays; free with trace_free. Borrows the
 * instrumented program (for names and origins) and the raw result.
 */
#ifndef ATHREAD_TRACE_H
#define ATHREAD_TRACE_H

#include <stdbool.h>
#include <stdint.h>

#include "conform.h"
#include "environment.h"
#include "prog.h"

/* A value that an earlier access of a step's statement read (--atomicity access). */
typedef struct trace_read {
  int var;       /* the VAR_LOAD variable (its display is the shared variable's) */
  int64_t value; /* what it read */
} trace_read;

/* A move of another instance before a step (a move environment). */
typedef struct trace_move {
  int move;       /* the move (index into the environment's moves; the first of its group) */
  int64_t *after; /* per variable: values after it */
} trace_move;

typedef struct trace_step {
  prog_origin origin; /* the statement (first code edge of the step) */
  int64_t *env;       /* per variable: values when the step starts (after the environment moved) */
  int64_t *after;     /* per variable: values after the step and the F update */
  bool simulated;     /* the F update ran (false for the failing step and for checks) */
  int branch;         /* a condition: 1 when it held (the first branch was taken), 0 when not; else -1 */
  prog_origin branch_at; /* a condition: where it is (the step's origin may be an earlier statement) */
  VEC(trace_read) reads; /* the statement's earlier reads, in order (owned) */
  VEC(trace_move) moves; /* the environment's moves before it, in order (owned) */
} trace_step;

typedef struct trace {
  VEC(trace_step) steps; /* the concrete steps, in order; the last may be the failing one */
  prog_check failure;    /* what failed */
  int failing_edge;      /* the failing assertion of C(T, T#) */
  int range_var;         /* CHECK_RANGE: the shared variable (program index) */
  int subscript;         /* CHECK_INDEX, CHECK_NULL: the access (index into the program's subscripts) */
  int operation;         /* CHECK_ARITH: the operation (index into the program's operations) */
  int64_t *at_failure;   /* per variable: values when the assertion failed */
  int64_t *start;        /* per variable: values when the thread starts (F initial) */
  bool failing_is_check; /* the failure is a concrete assert, not a step */
} trace;

/* Builds the concrete view of r's raw trace (r->verdict must be violated)
 * for thread T# under env (whose graph gives the moves of a closure). */
void trace_build(const prog *ins, const conform_result *r, const conform_env *env, const ast_thread *thread,
                 trace *t);
void trace_free(trace *t);

#endif
