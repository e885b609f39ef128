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

#include "result.h"
#include "engine-forall.h"
#include "model.h"
#include "../core/smt-print.h"
#include "../spec-lang/ast.h"

typedef struct report_context {
  const ast_spec *spec;    /* the spec checked: where its edges and properties are */
  const char *spec_path;   /* the file checked */
  const char *system;      /* the system's name */
  const char *engine;      /* "explicit" */
  const char *engine_why;  /* why that engine ran */
  bool symmetry;           /* reduction was on */
  bool timing;             /* include times and rates (they vary from run to run) */
  const char *certificate; /* safe, --certificate: the inductive invariant as SMT-LIB, or NULL */
  const smt_texts *certificate_spec; /* symbolic: its conjuncts in the spec's syntax (empty: some part has none) */
  bool certificate_smt;              /* --certificate-format smt: print the SMT-LIB text */
  const char *replay;      /* athread replay: the trace file replayed (engine: the one that wrote it), or NULL */
  bool engine_hint;        /* the command takes --engine symbolic: suggest it when the explicit engine
                            * ran out of room (compose_result.out_of_room) on unbounded data */
} report_context;

/* With c->engine_hint, an unknown verdict of the explicit engine that ran
 * out of room on a model with an unbounded int adds "note: try --engine
 * symbolic (...)" (JSON: "hint"). With c->replay: a line saying so first,
 * and instead of the engine's
 * statistics (which only a search knows) the engine that wrote the trace. */
void report_text(FILE *out, const report_context *c, const mdl *m, const compose_result *r);
/* "assumptions: ...": what the verdict rests on (the JSON reports carry it
 * as "assumptions"). */
void report_assumptions(FILE *out);
/* The last line of compose's text, one to grep for: "verdict: safe",
 * "verdict: unsafe: WHY" or "verdict: unknown: WHY". */
void report_verdict(FILE *out, const mdl *m, const compose_result *r);
json_t *report_json(const report_context *c, const mdl *m, const compose_result *r);

/* What `compose --for-all N` adds: the counter-system verdict and, when it
 * is unsafe, the concrete re-run with N set to the value in the
 * counterexample (its model and result; NULL otherwise). */
typedef struct report_forall {
  const char *param;           /* the const N */
  int64_t ignored_value;       /* N's value in the spec (or from --set), which the proof does not use */
  bool ignored_from_set;       /* that value came from --set */
  const forall_result *result; /* the verdict for every N */
  const char *concrete_engine; /* unsafe: the engine of the re-run ("explicit"), or NULL */
  const char *concrete_why;    /* why that engine ran */
  bool concrete_symmetry;      /* symmetry reduction was on in the re-run */
} report_forall;

void report_forall_text(FILE *out, const report_context *c, const report_forall *f, const mdl *m,
                        const compose_result *r);
/* --for-all's last line: "verdict: safe for every N >= 1", "verdict: unsafe
 * for N = 3: WHY", "verdict: unknown for every N >= 1: WHY". m is NULL unless unsafe. */
void report_forall_verdict(FILE *out, const report_forall *f, const mdl *m, const compose_result *r);
json_t *report_forall_json(const report_context *c, const report_forall *f, const mdl *m, const compose_result *r);

#endif
