/* compose/promela.h -- exporting a checked system as a Promela model for SPIN
 * (athread promela).
 *
 * Borrows the spec (loaded and checked by spec_load) and appends the model to
 * a caller-owned strbuf; reports what cannot be exported through the spec's
 * diagnostics sink (spec->src->sink). Owns nothing once it returns.
 */
#ifndef ATHREAD_PROMELA_H
#define ATHREAD_PROMELA_H

#include <stdbool.h>

#include "../core/strbuf.h"
#include "../spec-lang/ast.h"

/* Appends to out a Promela model whose reachable states and "goes wrong"
 * verdict are exactly the system's (reference sections 3-6): one process per
 * instance, one atomic step per edge, and an assertion check after the
 * initialisation and after every step. The model is meant for
 *   spin -a OUT.pml && gcc -O2 -DSAFETY -o pan pan.c && ./pan -E
 * where "errors: 0" means safe. pml_name names the model in its header comment
 * (NULL: "OUT.pml"). Returns false after reporting, as file:line:col errors,
 * every construct that has no exact Promela counterpart (an unbounded int
 * whose next or initial value is not determined, a value beyond 32 bits, more
 * instances than SPIN's processes); out then holds partial text to discard. */
bool promela_emit(strbuf *out, const ast_spec *spec, const char *pml_name);

#endif
