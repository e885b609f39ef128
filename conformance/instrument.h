/* conformance/instrument.h -- the sequential conformance program C(T, T#).
 *
 * Builds, from a concrete thread (a prog from the C front end) and its
 * abstract thread, the program of reference section 8 (paper section 3.1):
 * a Boolean candidate map F over T#'s states, the environment's havoc of the
 * shared state before every step, the candidates' assertions assumed, u := g
 * before each step, the range checks, the F update and its nonempty check
 * after each step, and the check at exit. Returns owned, free with prog_free;
 * the result borrows the concrete program's expressions and files, so free it
 * first. Its size is linear in the code and quadratic in T#'s states.
 */
#ifndef ATHREAD_INSTRUMENT_H
#define ATHREAD_INSTRUMENT_H

#include "../spec-lang/ast.h"
#include "prog.h"

prog *ins_build(const prog *code, const ast_spec *spec, const ast_thread *thread);

#endif
