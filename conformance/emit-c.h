/* conformance/emit-c.h -- C(T, T#) as a standalone sequential C program.
 *
 * The program uses the SV-COMP conventions (__VERIFIER_nondet_*,
 * __VERIFIER_assume, reach_error), so any sequential C verifier can re-check
 * a verdict: reach_error() is unreachable exactly when the thread conforms
 * (with integers read as mathematical; here they are long long). Borrows
 * everything; returns owned text, free with free().
 */
#ifndef ATHREAD_EMIT_C_H
#define ATHREAD_EMIT_C_H

#include "../spec-lang/ast.h"
#include "prog.h"

char *emit_c_program(const prog *ins, const ast_spec *spec, const ast_thread *thread);

#endif
