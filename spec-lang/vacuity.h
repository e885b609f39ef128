/* spec-lang/vacuity.h -- lint's satisfiability checks: a guard, relation or
 * state assertion that no values of the shared variables satisfy.
 *
 * Each is one Z3 query over the declared domains (ranges and bools bounded,
 * plain ints free; tid among the thread's instances), limited to
 * VACUITY_TIMEOUT seconds: an answer other than unsat is "don't know" and
 * says nothing. Borrows the spec; warnings go through its sink.
 */
#ifndef ATHREAD_VACUITY_H
#define ATHREAD_VACUITY_H

#include "ast.h"

/* Seconds per query. */
#define VACUITY_TIMEOUT 1.0

/* Warns [-Wfalse-guard] about each edge whose guard or relation reads the
 * state and is unsatisfiable (sema warns about the constant ones), and
 * [-Wfalse-assertion] about each state declaration whose assertion is
 * unsatisfiable, except a literal `false` (the idiom for a state that must
 * never be reached). spec must have been checked without errors. */
void vacuity_warn(const ast_spec *spec);

#endif
