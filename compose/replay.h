/* compose/replay.h -- re-checking a counterexample that `athread compose`
 * wrote (--trace-out, or --json of an unsafe run) against a spec, step by
 * step on the model, in the spirit of `spin -t`: the initial state must be
 * one the spec allows, each step an edge the instance can take that gives
 * the state written after it, and the last state must go wrong as the trace
 * claims. The result is a compose_result, so compose's report prints it.
 *
 * Borrows the trace text, the spec and the model (product_build_checker of
 * that spec). The result owns its trace arrays (free with
 * compose_result_free).
 */
#ifndef ATHREAD_COMPOSE_REPLAY_H
#define ATHREAD_COMPOSE_REPLAY_H

#include <stdbool.h>
#include <stddef.h>

#include "../core/diag.h"
#include "../spec-lang/ast.h"
#include "model.h"
#include "result.h"

/* What a replay gives: the counterexample, and which engine wrote it. */
typedef struct compose_replayed {
  compose_result r;     /* verdict unsafe, trace, trace_states and violation filled; no statistics */
  char engine[40];      /* the trace's "engine" ("explicit", "symbolic", "for-all") */
  char engine_why[240]; /* its "engine_reason" */
} compose_replayed;

/* Replays the trace in len bytes of text (the JSON of compose, reported as
 * file name) on m, the model of spec. True with *out filled (free
 * out->r with compose_result_free) when the trace is a counterexample of
 * spec; else false after reporting "name: error: [step K: ]why" to sink,
 * with nothing to free. */
bool compose_replay(diag_sink *sink, const char *name, const char *text, size_t len, const ast_spec *spec,
                    const mdl *m, compose_replayed *out);

#endif
