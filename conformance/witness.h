/* conformance/witness.h -- `athread conform --witness FILE`: the
 * counterexamples of the threads that do not conform, as an SV-COMP
 * violation witness in format 2.0 (YAML): one `violation_sequence` entry per
 * failing thread, on the user's C files.
 *
 * What it claims is not SV-COMP's unreach-call: the property is "the C
 * function is simulated by its abstract thread while the other threads move
 * as the spec allows" (docs/language.md, section 10, says what a validator
 * can do with it). Each step of the counterexample becomes an `assumption`
 * waypoint at its statement (the shared variables' values when the step
 * starts, after the environment's moves), a `branching` waypoint where it
 * decides an if or while, and the failing step the `target`.
 *
 * Borrows everything; witness_build returns a new reference (json_decref),
 * witness_yaml an owned string (free).
 */
#ifndef ATHREAD_WITNESS_H
#define ATHREAD_WITNESS_H

#include <jansson.h>
#include <stdbool.h>

#include "../core/diag.h"
#include "report.h"
#include "run.h"

typedef struct witness_task {
  const char *const *files;           /* the C files, as given (task.input_files) */
  size_t file_count;                  /* how many */
  const char *spec_path;              /* the .athread spec the threads were checked against */
  const char *version;                /* athread's version (producer.version) */
  const conform_semantics *semantics; /* what the verdicts rest on (producer.configuration) */
} witness_task;

/* The witness of run: a JSON array with one entry per thread that does not
 * conform, in the spec's order (empty when none does). NULL after reporting
 * a C file that cannot be read (its hash is part of the witness). */
json_t *witness_build(diag_sink *sink, const conform_run_result *run, const witness_task *task);

/* doc as block-style YAML: every string double-quoted with YAML's escapes,
 * so any byte of a path or a C expression stays one scalar. */
char *witness_yaml(const json_t *doc);

/* Writes the witness of run to path ("-": standard output) atomically. When
 * no thread fails it writes nothing and says so on standard error. False
 * after reporting a failure. */
bool witness_write(diag_sink *sink, const char *path, const conform_run_result *run, const witness_task *task);

#endif
