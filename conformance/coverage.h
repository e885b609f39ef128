/* conformance/coverage.h -- the edges of T# that no step of a conforming
 * thread's code uses (conform's [-Wunused-edge]), and the states of T# that
 * are never candidates where the code is at a given boundary (athread
 * races' proof layer).
 *
 * An edge q -> q' is used when, in some run of C(T, T#), a step of the code
 * is simulated by it: F_q holds before the step and the edge's relation
 * holds over (u, g) (it puts q' into F). Computed on C(T, T#) with coverage
 * probes (ins_build_probed): a counterexample to the probes shows edges used
 * (every probe false along its trace), a proof that the remaining probes
 * hold shows those edges unused; the loop re-checks until no probe is left,
 * an engine answers unknown, or the budget runs out. Errs on the side of
 * silence: an edge is reported unused only after a proof.
 *
 * Borrows everything.
 */
#ifndef ATHREAD_COVERAGE_H
#define ATHREAD_COVERAGE_H

#include <stdbool.h>

#include "../spec-lang/ast.h"
#include "conform.h"
#include "environment.h"
#include "instrument.h"
#include "prog.h"

/* The least time the coverage of one thread may take, and the multiple of
 * the thread's proof time it may take when that is more (seconds). */
#define COVERAGE_MIN_SECONDS 5.0
#define COVERAGE_PROOF_FACTOR 4.0

/* What C(T, T#) is built from (as for ins_build). */
typedef struct cov_input {
  const prog *code;
  const ast_spec *spec;
  const ast_thread *thread;
  const conform_env *env;
  bool initial_checked;
} cov_input;

/* Sets unused[k] (one per edge of the thread, cleared first) for each edge
 * proved to simulate no step of any run, within o's engine and deadline (the
 * caller's budget). Returns false when the search stopped early (unknown, or
 * out of time): then the edges not set may still be unused. */
bool cov_unused_edges(const cov_input *in, const conform_options *o, bool *unused);

/* For states, one check at a time (the caller picks the probes to ask
 * next): C(T, T#) with the state probes k that asked[k] marks. Returns 1
 * when they all hold in every run: T# is never in probe k's state q at its
 * location (with the shared variables at its values) as a candidate of F,
 * so when the thread conforms, its abstract state in the run of the system
 * that simulates a C run (language.md section 11) is never q there; 0 when
 * a counterexample showed some can fail (cleared from asked: the others are
 * still open), and then every probe, asked or not, that the counterexample
 * passes with F_q and the probe's shared values is set in passed (possible
 * too); -1 when the engine gave no answer. */
int cov_state_round(const cov_input *in, const conform_options *o, const ins_state_probe *probes, size_t count,
                    bool *asked, bool *passed);

#endif
