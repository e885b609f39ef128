/* compose/run.h -- `athread compose` as one call: the engine policy (auto
 * takes the explicit engine when every choice is finite, else the symbolic
 * one), and --for-all N with the concrete re-run at the N of its
 * counterexample. The CLI parses the options, calls compose_run and prints
 * (compose_report_of gathers what the reports need).
 *
 * Borrows the spec and the request; the run owns its model, results and the
 * re-run's spec (free with compose_run_free).
 */
#ifndef ATHREAD_COMPOSE_RUN_H
#define ATHREAD_COMPOSE_RUN_H

#include <stdbool.h>

#include "../core/smt-print.h"
#include "../spec-lang/spec.h"
#include "engine-explicit.h"
#include "engine-forall.h"
#include "report.h"
#include "result.h"

typedef struct compose_request {
  const char *engine;               /* "auto", "explicit" or "symbolic" */
  bool symmetry;                    /* symmetry reduction in the explicit engine */
  explicit_options limits;          /* states, time (every engine), memory, progress */
  unsigned bound;                   /* deepest symbolic counterexample; 0 = the engine's default */
  const char *for_all;              /* --for-all: the const N, or NULL */
  const spec_options *spec_options; /* what the spec was loaded with (the re-run changes N only) */
} compose_request;

typedef enum compose_failure {
  COMPOSE_RAN,           /* a verdict (of the model, or of --for-all) */
  COMPOSE_BAD_INPUT,     /* the model or --for-all cannot apply: reported through the spec's sink */
  COMPOSE_RERUN_UNKNOWN, /* --for-all unsafe, but the concrete re-run found no violation in time */
  COMPOSE_RERUN_INTERNAL /* --for-all unsafe, but the re-run does not load or is safe: a bug */
} compose_failure;

/* Per thread of the spec (by index): the edges some reachable state took
 * and the states some instance was in; both NULL when not known (another
 * engine, or a verdict other than safe). [-Wnever-taken] and
 * [-Wnever-reached] are said from it. */
typedef struct compose_coverage {
  bool **taken;   /* per thread, per edge */
  bool **reached; /* per thread, per state */
  size_t threads; /* entries in both */
} compose_coverage;

typedef struct compose_run_result {
  compose_failure failure; /* whether there is a verdict */
  bool symbolic;           /* the (re-)run used the symbolic engine, else the explicit one */
  char why[240];           /* why that engine */
  mdl *m;                  /* the model that ran, or NULL */
  compose_result r;        /* its verdict (for --for-all: the concrete re-run's) */
  smt_cert certificate;    /* symbolic safe: the inductive invariant (smt NULL otherwise) */
  bool for_all_ran;        /* fr holds the --for-all verdict */
  forall_result fr;        /* --for-all: the verdict for every N */
  ast_spec *concrete;      /* --for-all unsafe: the spec loaded with that N */
  compose_coverage cover;  /* the explicit engine's safe verdict: what it reached and took */
} compose_run_result;

/* Explores every state of spec's product that is reachable (the explicit
 * engine without symmetry, within limits) and tells limits->observe of
 * every step taken. True when the exploration was complete and met no
 * violation, with *states the number of reachable states; else false with
 * why filled (the explicit engine cannot run, a state goes wrong, a limit). */
bool compose_explore(ast_spec *spec, const explicit_options *limits, uint64_t *states, char *why, size_t size);

/* Runs the check the request asks for on spec; fills out. */
void compose_run(ast_spec *spec, const compose_request *rq, compose_run_result *out);
void compose_run_free(compose_run_result *out);

/* How a run is reported (by compose, check and review). */
typedef struct compose_report {
  report_context c; /* the report's context (timing on, no certificate) */
  report_forall f;  /* --for-all: its part */
  char why[200];    /* --for-all: the engine's reason */
} compose_report;

/* Fills out for run of spec (path) with the engine's symmetry setting and
 * for_all (the const N, or NULL). out borrows spec, path and run. */
void compose_report_of(const char *path, const ast_spec *spec, const char *for_all, const compose_run_result *run,
                       bool symmetry, compose_report *out);
/* The JSON report of run (compose --json's, or compose --for-all --json's),
 * without the members every report opens with (cli_json_report). Returns
 * a new reference. */
json_t *compose_report_json(const compose_report *rep, const compose_run_result *run);

#endif
