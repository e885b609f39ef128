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

#include "../core/progress.h"
#include "prog.h"
#include "result.h"

typedef enum conform_engine { CONFORM_AUTO, CONFORM_CHC, CONFORM_BMC } conform_engine;

typedef struct conform_options {
  conform_engine engine; /* which engine; auto: bmc when the code has no loop, else chc */
  unsigned bound;        /* bmc: the most segments (about one per step or check) explored */
  double deadline;       /* give up at this time (smt_now), 0 for never */
  bool certificate;      /* keep Spacer's invariant as text */
  bool brief;            /* engine auto: one resource-limited attempt (an answer only when it comes at once) */
  bool search_first;     /* engine auto on loops: the quick bounded search before Spacer (a violation is likely) */
  progress *progress;    /* the run's progress lines (borrowed), or NULL */
  bool unseen;           /* nobody reads the counterexample's values (a first attempt, a probe): not made small */
} conform_options;

void conform_check(const prog *ins, const conform_options *o, conform_result *r);
/* The Horn clauses of ins in SMT-LIB 2 (logic HORN: sat means conforms).
 * Returns owned, free with free(). */
char *conform_smt2(const prog *ins);

#endif
