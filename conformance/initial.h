/* conformance/initial.h -- the C program's initial state against the spec's
 * initial states. Each cell that the checked threads' C code uses starts in C
 * with its initializer's value (or zero, C's default for static storage),
 * then takes the constant values that the function starting the threads
 * writes before the first start (unless a checked thread runs that function
 * or main: then the writes are its steps, and the program starts from the
 * initializers); that value must be one the spec allows: its
 * initial value, within its range, and satisfying the system's `init`
 * predicates (evaluated where every cell they read has a known C value). A
 * constrained cell whose C value athread does not know is not checked, and a
 * note says so: never a guess.
 *
 * Borrows the spec and the C program. The notes are the caller's: a heap
 * vector of heap strings (free each, then the vector).
 */
#ifndef ATHREAD_CONFORM_INITIAL_H
#define ATHREAD_CONFORM_INITIAL_H

#include <stdbool.h>
#include <stddef.h>

#include "../cfront/program.h"
#include "../core/diag.h"
#include "../spec-lang/ast.h"
#include "prog.h"

typedef VEC(char *) init_notes;

/* Checks the cells that the concrete programs codes (count of them, the
 * checked threads lowered) read or write. Reports each disagreement through sink ("file:line:col: error:" at
 * the C place, a note at the spec's) and returns false after one; appends to
 * notes one line per constrained cell (or init predicate) not checked, e.g.
 * "the initial value of x is not checked (main writes a non-constant value at
 * prog.c:40)". */
bool init_check(diag_sink *sink, const ast_spec *spec, const cfp_program *p, const prog *const *codes, size_t count,
                init_notes *notes);

/* True when some cell of spec has an initial value or a range, or the system
 * has init predicates: else every C initial value agrees, unread. */
bool init_constrains(const ast_spec *spec);

/* When the C files could not be read for their initial values (why: the
 * first problem): appends a note to notes if some cell of spec is
 * constrained. */
void init_unreadable(const ast_spec *spec, const char *why, init_notes *notes);

#endif
