/* cli/sarif-flows.h -- `--sarif FILE` of compose, conform, check and races:
 * the run's verdicts as one SARIF 2.1.0 log, each violation a result whose
 * codeFlows[0] holds its counterexample or race trace (docs/language.md,
 * section 9).
 *
 * The log is diag_sarif's (the run's diagnostics, the tool, the invocation)
 * with the spec's properties and the conformance checks as rules and one
 * result per violation or unknown verdict, read off the --json reports
 * (docs/json.md), so that the two outputs cannot tell different stories.
 * Borrows everything.
 */
#ifndef ATHREAD_SARIF_FLOWS_H
#define ATHREAD_SARIF_FLOWS_H

#include <jansson.h>
#include <stdbool.h>

#include "../conformance/run.h"
#include "../core/diag.h"
#include "../spec-lang/ast.h"

/* What a log tells. */
typedef struct sarif_input {
  const ast_spec *spec;              /* the spec checked: its properties are rules, its text counts columns */
  const json_t *compose;             /* compose's --json report (check's "system"), or NULL */
  const json_t *conform;             /* conform's --json report (check's "conform"), or NULL */
  const conform_run_result *threads; /* with conform: the run whose C files the steps are in, or NULL */
  bool code;                         /* conform or check: conform's rules are listed (even when check
                                        stopped at an unsafe system) */
  const json_t *races;               /* races' --json report, or NULL */
} sarif_input;

/* The log of a run that ends with exit_code. Returns a new reference. */
json_t *sarif_flows_log(const diag_sink *sink, const sarif_input *in, int exit_code);
/* Writes sarif_flows_log to path ("-": standard output) atomically. False
 * after reporting a failure to sink (then nothing was written). */
bool sarif_flows_write(diag_sink *sink, const char *path, const sarif_input *in, int exit_code);

#endif
