/* compose/report.h -- what `athread compose` prints: the verdict, the
 * statistics and the counterexample, as text or as one JSON object (jansson).
 *
 * Borrows the model and result. report_json returns a new reference
 * (release with json_decref).
 */
#ifndef ATHREAD_REPORT_H
#define ATHREAD_REPORT_H

#include <jansson.h>
#include <stdio.h>

#include "engine-explicit.h"
#include "model.h"

typedef struct report_context {
  const char *spec_path;   /* the file checked */
  const char *system;      /* the system's name */
  const char *engine;      /* "explicit" */
  const char *engine_why;  /* why that engine ran */
  bool symmetry;           /* reduction was on */
  bool timing;             /* include times and rates (they vary from run to run) */
  const char *certificate; /* symbolic, safe, --certificate: the inductive invariant, or NULL */
} report_context;

void report_text(FILE *out, const report_context *c, const mdl *m, const compose_result *r);
json_t *report_json(const report_context *c, const mdl *m, const compose_result *r);

#endif
