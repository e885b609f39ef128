/* conformance/report.h -- what `athread conform` prints for one thread: the
 * verdict line, the invariant (--certificate), and a counterexample with its
 * steps, values, candidate sets and reason, as text or as JSON (jansson);
 * and the assumptions that every verdict of a run rests on.
 *
 * Borrows everything; report_conform_json returns a new reference
 * (release with json_decref).
 */
#ifndef ATHREAD_CONFORM_REPORT_H
#define ATHREAD_CONFORM_REPORT_H

#include <jansson.h>
#include <stdio.h>

#include "../cfront/cfront.h"
#include "../spec-lang/ast.h"
#include "atomicity.h"
#include "conform.h"
#include "environment.h"
#include "prog.h"

/* What a run's verdicts rest on besides the code and the spec. */
typedef struct conform_semantics {
  conform_atomicity atomicity; /* what runs as one atomic step */
  cfe_ints ints;                /* C's integers or mathematical ones */
  const conform_env *env;       /* what the other threads may do */
} conform_semantics;

typedef struct conform_report {
  const ast_thread *thread; /* T# */
  const prog *ins;          /* C(T, T#) */
  const conform_result *r;  /* the verdict */
  const conform_env *env;   /* the environment it was checked under (names its moves) */
  bool timing;              /* print the time (it varies from run to run) */
  bool certificate_smt;     /* --certificate-format smt: print the invariant as SMT-LIB, not in C's syntax */
} conform_report;

/* A verdict's name in the reports: "conforms", "does not conform", "unknown"
 * (a static string). */
const char *report_verdict_text(conform_verdict v);

void report_conform_text(FILE *out, const conform_report *c);
json_t *report_conform_json(const conform_report *c);

/* The assumptions of a run, one line: "assumptions: each C statement is one
 * atomic step; integers are mathematical; memory is sequentially consistent". */
void report_assumptions_text(FILE *out, const conform_semantics *s);
/* The same as an object: one key per assumption, and "text" (a new reference). */
json_t *report_assumptions_json(const conform_semantics *s);

#endif
