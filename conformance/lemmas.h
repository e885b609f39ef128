/* conformance/lemmas.h -- invariants of C(T, T#) guessed from templates and
 * proved inductive before Spacer runs (Houdini).
 *
 * The candidates at each cut point: "F is not empty"; each live Boolean
 * other than F[S], true, and false; each shared Boolean's change in the step
 * (old(g) implies g, g implies old(g)); each live integer, and each shared
 * variable's change in the step (g - old(g)), at least and at most c, for 0
 * and the code's small constants; each local equal to another integer.
 * Houdini drops every candidate that some clause does not preserve, until
 * what is left is inductive. A second search adds F[S] and !F[S], then
 * !F[S] || t and F[S] || t for each candidate t dropped before, and each
 * state S possible at the cut (!F[S] was dropped). The result is a guess, never a proof:
 * engine-chc.c re-checks it as the whole invariant, clause by clause like
 * Spacer's, and runs Spacer when it fails. Borrows the encoding (terms are
 * kept in its smt context).
 */
#ifndef ATHREAD_LEMMAS_H
#define ATHREAD_LEMMAS_H

#include "encode.h"

/* The search's state: the candidates per cut point. Returns owned, free
 * with lemmas_free; borrows e, which must outlive it. Runs the first
 * search (the plain templates). */
typedef struct lemmas lemmas;
lemmas *lemmas_new(enc *e, double deadline);
void lemmas_free(lemmas *l);

/* Per cut point, the conjunction of the candidates that survived, over the
 * cut's live variables as de Bruijn variables (0: the first live one), in
 * the form of Spacer's interpretations; true where none did. Returns owned
 * (free()); NULL when the search ran out of time or Z3 failed. */
Z3_ast *lemmas_find(lemmas *l);
/* The same after a second search with the guarded candidates added, for
 * when the first one's do not prove the program (the second costs more:
 * its candidates grow with the states possible at each cut). NULL also
 * when it ran already. */
Z3_ast *lemmas_find_guarded(lemmas *l);

#endif
