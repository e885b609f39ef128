/* conformance/atomicity.h -- how much of the C code runs as one atomic step.
 *
 * The front end lowers a thread with every C statement as one step (the
 * paper's assumption: ATOMICITY_STATEMENT). Under ATOMICITY_ACCESS,
 * atomicity_split rewrites that program in place so that the environment may
 * also move between any two accesses of shared memory within a statement:
 * the statement's reads move, each into a variable of its own (VAR_LOAD),
 * into non-step edges before it, separated by boundaries; its last access
 * (its write, or else its last read) stays in its step. Atomic sections
 * (locations marked atomic) stay one step. A statement that touches no
 * shared memory is no step: it joins the step before it (atomicity.c says
 * why that is sound).
 *
 * Borrows the program and rewrites it: new variables, locations, edges and
 * subscripts go to its arena. The contract it relies on (the C front end
 * keeps it): the out-edges of a boundary and the non-boundary locations they
 * reach make one statement, without a cycle unless it is atomic; a
 * statement writes at most one shared object (a variable, or one element
 * through the edges c := (s ? t : c) of cells c, where s and t read only
 * VAR_TEMP variables) and reads no shared variable after its write.
 */
#ifndef ATHREAD_ATOMICITY_H
#define ATHREAD_ATOMICITY_H

#include <stdbool.h>

#include "prog.h"

typedef enum conform_atomicity {
  ATOMICITY_STATEMENT, /* each C statement is one atomic step */
  ATOMICITY_ACCESS     /* each access to shared memory is one atomic step */
} conform_atomicity;

/* Splits p's statements at their shared accesses (see above). Returns false
 * after reporting through sink a statement that breaks the contract (an
 * internal error: the program is then unusable). */
bool atomicity_split(prog *p, diag_sink *sink);

#endif
