/* conformance/conform.h -- proving C(T, T#): the verdict of one thread.
 *
 * Runs Spacer on the Horn clauses of C(T, T#) (engine chc, which needs no
 * loop invariant from the user; the invariant it finds is re-checked by
 * independent queries before "conforms" is reported) or bounded model
 * checking (engine bmc; complete when the code has no loop). A violation
 * comes with the path through C(T, T#) that a bounded search found.
 * Owns: the result's certificate and trace; free with conform_result_free.
 * Borrows the program.
 */
#ifndef ATHREAD_CONFORM_H
#define ATHREAD_CONFORM_H

#include <stdbool.h>
#include <stdint.h>

#include "prog.h"

typedef enum conform_verdict { CONFORM_HOLDS, CONFORM_VIOLATED, CONFORM_UNKNOWN } conform_verdict;
typedef enum conform_engine { CONFORM_AUTO, CONFORM_CHC, CONFORM_BMC } conform_engine;

typedef struct conform_options {
  conform_engine engine; /* which engine; auto: bmc when the code has no loop, else chc */
  unsigned bound;        /* bmc: the most segments (about one per step or check) explored */
  double deadline;       /* give up at this time (smt_now), 0 for never */
  bool certificate;      /* keep Spacer's invariant as text */
} conform_options;

typedef struct conform_result {
  conform_verdict verdict;  /* the answer */
  const char *engine;       /* "chc" or "bmc": what decided */
  char why[160];            /* why that engine ran */
  char reason[256];         /* unknown: the limit or failure */
  char *certificate;        /* chc, holds, asked for: the invariant per cut point (owned) */
  size_t trace_len;         /* violated: edges of C(T, T#) along the counterexample */
  int *trace_edges;         /* their indices (owned) */
  int64_t *trace_values;    /* (trace_len + 1) x vars: values at the start, then after each edge (owned) */
  unsigned depth;           /* segments explored by bmc */
  size_t cut_count;         /* cut points (predicates) */
  size_t segment_count;     /* segments (clauses) */
  double seconds;           /* wall time of the check */
} conform_result;

void conform_check(const prog *ins, const conform_options *o, conform_result *r);
void conform_result_free(conform_result *r);
/* The Horn clauses of ins in SMT-LIB 2 (logic HORN: sat means conforms).
 * Returns owned, free with free(). */
char *conform_smt2(const prog *ins);

#endif
