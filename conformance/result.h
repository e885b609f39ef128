/* conformance/result.h -- the verdict of one thread's conformance check and
 * what the engines report with it: the engine, the reason for unknown, the
 * certificate and the counterexample through C(T, T#).
 *
 * Owns: the certificate and trace arrays (free with conform_result_free).
 */
#ifndef ATHREAD_CONFORM_RESULT_H
#define ATHREAD_CONFORM_RESULT_H

#include <stddef.h>
#include <stdint.h>

typedef enum conform_verdict { CONFORM_HOLDS, CONFORM_VIOLATED, CONFORM_UNKNOWN } conform_verdict;

typedef struct conform_result {
  conform_verdict verdict; /* the answer */
  const char *engine;      /* "chc" or "bmc": what decided */
  char why[160];           /* why that engine ran */
  char reason[256];        /* unknown: the limit or failure */
  char *certificate;       /* chc, holds, asked for: the invariant per cut point as SMT-LIB (owned) */
  char *certificate_c;     /* with certificate: the same in C's syntax, one conjunct a line (owned) */
  size_t trace_len;        /* violated: edges of C(T, T#) along the counterexample */
  int *trace_edges;        /* their indices (owned) */
  int64_t *trace_values;   /* (trace_len + 1) x vars: values at the start, then after each edge (owned) */
  unsigned depth;          /* segments explored by bmc */
  size_t cut_count;        /* cut points (predicates) */
  size_t segment_count;    /* segments (clauses) */
  double seconds;          /* wall time of the check */
} conform_result;

void conform_result_free(conform_result *r);

#endif
