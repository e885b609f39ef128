/* conformance/lemmas.h -- invariants of C(T, T#) guessed from templates and
 * proved inductive before Spacer runs (Houdini).
 *
 * The candidates at each cut point: "F is not empty"; each live Boolean
 * other than F[S], true, and false; each live integer, and each shared
 * variable's change in the step (g - old(g)), at least and at most c, for 0
 * and the code's small constants. Houdini drops every candidate that some
 * clause does not preserve, until what is left is inductive. The result is
 * a guess, never a proof: engine-chc.c re-checks it as the whole invariant,
 * clause by clause like Spacer's, and runs Spacer when it fails. Borrows
 * the encoding (terms are kept in its smt context); returns an owned array,
 * free() it.
 */
#ifndef ATHREAD_LEMMAS_H
#define ATHREAD_LEMMAS_H

#include "encode.h"

/* Per cut point, the conjunction of the candidates that survived, over the
 * cut's live variables as de Bruijn variables (0: the first live one), in
 * the form of Spacer's interpretations; true where none did. Returns owned
 * (free()); NULL when the search ran out of time or Z3 failed. */
Z3_ast *lemmas_find(enc *e, double deadline);

#endif
