/* conformance/engines.h -- the two engines behind conform_check (private).
 *
 * Both borrow the encoding (and through it the smt context). Outcomes:
 * 1 the property holds, 0 violated, -1 unknown with the reason written.
 */
#ifndef ATHREAD_ENGINES_H
#define ATHREAD_ENGINES_H

#include "encode.h"
#include "lemmas.h"
#include "result.h"

/* Spacer on the Horn clauses; with certificate, *certificate gets the
 * invariant per cut point as SMT-LIB and *readable the same in C's syntax
 * (both owned, free()). guess (borrowed, or NULL): lemmas_new's for e,
 * whose invariants are tried first, the first search's then the second's,
 * as the whole invariant (re-checked like Spacer's). */
int chc_prove(enc *e, lemmas *guess, double deadline, char **certificate, char **readable, char *reason,
              size_t reason_size);
/* The Horn clauses as SMT-LIB 2 text (owned). */
char *chc_smt2(enc *e);

/* Bounded model checking over segments, depths 0..bound: 0 when no failing
 * assertion is reachable within the bound, 0 never means "holds" unless the
 * bound covers every path. On 1 (found), r's trace is set, with small values
 * (smt_small_model) when small. */
int bmc_search(enc *e, unsigned bound, double deadline, bool small, conform_result *r);

#endif
