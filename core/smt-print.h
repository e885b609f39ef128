/* core/smt-print.h -- a Z3 formula (an invariant a proof found) in the
 * spec language's expression syntax, which is also C's for what it uses:
 * `&&`, `||`, `!`, comparisons, `+ - *`, `?:`, a text per constant, and an
 * instance's control state as `T[i]@S`.
 *
 * Borrows the formula and the leaves; returns owned strings (free with
 * smt_texts_free). The text means exactly what the formula means on every
 * state whose control states are within their threads' states; a formula
 * with a part that has no such text (a quantifier, div, mod, a constant with
 * no leaf) gives no text rather than an approximate one.
 */
#ifndef ATHREAD_SMT_PRINT_H
#define ATHREAD_SMT_PRINT_H

#include <stdbool.h>
#include <stddef.h>

#include "smt.h"
#include "vec.h"

/* How one constant of the formula prints. */
typedef struct smt_leaf {
  Z3_ast term;               /* the constant */
  const char *text;          /* "pendingIO", "old(pendingIO)", "F[Work]", "T1[1]" */
  const char *const *states; /* an instance's control state (value k is state states[k]), else NULL */
  size_t state_count;        /* entries in states */
} smt_leaf;

typedef VEC(char *) smt_texts;

/* Each conjunct of t (its top-level conjunctions flattened) as one owned
 * string appended to out, in order ("true" for a formula with none). False,
 * with nothing appended, when some part of t has no text. */
bool smt_print_conjuncts(smt *s, Z3_ast t, const smt_leaf *leaves, size_t count, smt_texts *out);
/* Frees the strings and empties t. */
void smt_texts_free(smt_texts *t);

/* A proof's invariant in both forms. Owns both; free with smt_cert_free. */
typedef struct smt_cert {
  char *smt;          /* Z3's SMT-LIB text, or NULL when there is no invariant */
  smt_texts readable; /* its conjuncts in the spec's syntax; empty when some part has none */
} smt_cert;

void smt_cert_free(smt_cert *c);

#endif
