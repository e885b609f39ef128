/* compose/murphi.h -- exporting a checked system as a Murphi model for rumur
 * (athread murphi).
 *
 * Borrows the spec (loaded and checked by spec_load) and appends the model to
 * a caller-owned strbuf; reports what cannot be exported through the spec's
 * diagnostics sink (spec->src->sink). Owns nothing once it returns.
 */
#ifndef ATHREAD_MURPHI_H
#define ATHREAD_MURPHI_H

#include <stdbool.h>

#include "../core/strbuf.h"
#include "../spec-lang/ast.h"

/* Appends to out a Murphi model whose reachable states and "goes wrong"
 * verdict are exactly the system's (reference sections 3-6): one rule per
 * (instance, step) of the exporters' plans (step-plan.h), every state
 * assertion, thread invariant and system invariant as an invariant, and the
 * initial states as startstates. With symmetry, the instances of a thread
 * that are interchangeable (the same ones athread compose permutes) are a
 * scalarset, so that rumur reduces by symmetry; without, every instance set
 * is a range of tids. The model is meant for
 *   rumur --deadlock-detection off --value-type int32_t OUT.m -o OUT.c
 *   gcc -O3 -mcx16 -o OUT OUT.c -lpthread && ./OUT
 * where "No error found" means safe. m_name names the model in its header
 * comment (NULL: "OUT.m"). Returns false after reporting, as file:line:col
 * errors, every construct that has no exact Murphi counterpart (an unbounded
 * int whose next or initial value is not determined, a value beyond 32
 * bits, the widest that rumur's verifier holds); out then holds partial
 * text to discard. */
bool murphi_emit(strbuf *out, const ast_spec *spec, const char *m_name, bool symmetry);

#endif
