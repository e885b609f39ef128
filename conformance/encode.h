/* conformance/encode.h -- a sequential program as Z3 formulas, one per
 * loop-free segment between cut points (large-block encoding).
 *
 * Cut points are the entry, every boundary of the concrete thread (between
 * atomic steps) and every join. A segment is a path from a cut point to the
 * next one, or to a failing assertion. Liveness keeps only the variables live
 * at a cut point (for C(T, T#): the locals and F, since the shared state is
 * havoced before every step). Owns: the enc and its tables; borrows the smt
 * context (terms are kept there) and the program. Free with enc_free.
 */
#ifndef ATHREAD_ENCODE_H
#define ATHREAD_ENCODE_H

#include "../core/smt.h"
#include "prog.h"

typedef struct enc_segment {
  int from;        /* cut index where it starts */
  int to;          /* cut index where it ends, or -1: it ends in a failing assertion */
  VEC(int) edges;  /* the program's edges along it; for an error the last one is the assertion */
} enc_segment;

typedef VEC(Z3_ast) enc_terms;

typedef struct enc {
  smt *s;                    /* borrowed */
  const prog *p;             /* borrowed */
  size_t var_count;          /* V */
  VEC(int) cuts;             /* location of each cut point */
  int *cut_of;               /* per location: its cut index, or -1 */
  bool *live;                /* cuts x V: variable live at the cut */
  VEC(enc_segment) segments; /* every segment */
} enc;

/* Returns owned, free with enc_free. */
enc *enc_new(smt *s, const prog *p);
void enc_free(enc *e);

/* A constant for variable v, named name@suffix (or name when suffix is NULL). */
Z3_ast enc_var(enc *e, int v, const char *suffix);
/* The constraint that says segment j runs from the values x (V terms): its
 * assumptions, and for an error segment the failing condition. Fills y with
 * the values at its end (V terms), adds every fresh constant (havoc) to
 * fresh, and when after is not NULL appends V terms per edge (the values
 * after it). suffix tells the fresh constants of different copies apart. */
Z3_ast enc_segment_formula(enc *e, size_t j, const Z3_ast *x, Z3_ast *y, const char *suffix, enc_terms *fresh, enc_terms *after);

#endif
