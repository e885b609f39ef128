/* conformance/report.h -- what `athread conform` prints for one thread: the
 * verdict line, the invariant (--certificate), and a counterexample with its
 * steps, values, candidate sets and reason, as text or as JSON (jansson).
 *
 * Borrows everything; report_conform_json returns a new reference
 * (release with json_decref).
 */
#ifndef ATHREAD_CONFORM_REPORT_H
#define ATHREAD_CONFORM_REPORT_H

#include <jansson.h>
#include <stdio.h>

#include "../spec-lang/ast.h"
#include "conform.h"
#include "prog.h"

typedef struct conform_report {
  const ast_thread *thread; /* T# */
  const prog *ins;          /* C(T, T#) */
  const conform_result *r;  /* the verdict */
  bool timing;              /* print the time (it varies from run to run) */
} conform_report;

void report_conform_text(FILE *out, const conform_report *c);
json_t *report_conform_json(const conform_report *c);

#endif
