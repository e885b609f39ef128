/* conformance/encode.h -- a sequential program as Z3 formulas, one per
 * loop-free segment between cut points (large-block encoding).
 *
 * Cut points are the entry and every join (so every loop head); for traces
 * also every boundary of the concrete thread (between atomic steps): Spacer
 * does best with few, large blocks, while a bounded search wants one segment
 * per step. A segment is a path from a cut point to the next one, or to a
 * failing assertion. For proofs, variables that no assumption or assertion
 * depends on (the cone of influence) are left out. Liveness keeps only the variables live
 * at a cut point (for C(T, T#): the locals and F, since the shared state is
 * havoced before every step). Owns: the enc and its tables; borrows the smt
 * context (terms are kept there) and the program. Free with enc_free.
 */
#ifndef ATHREAD_ENCODE_H
#define ATHREAD_ENCODE_H

#include "../core/smt.h"
#include "prog.h"

typedef struct enc_segment {
  int from;       /* cut index where it starts */
  int to;         /* cut index where it ends, or -1: it ends in a failing assertion */
  VEC(int) edges; /* the program's edges along it; for an error the last one is the assertion */
} enc_segment;

typedef VEC(Z3_ast) enc_terms;

/* A clause of the proof encoding: P_from(x) and formula imply P_to(y), or
 * false when to is -1. x are the constants enc_var(v, NULL). */
typedef struct enc_clause {
  int from, to;    /* cut indices; to = -1: a failing assertion */
  Z3_ast formula;  /* the path's constraints */
  Z3_ast *y;       /* V terms: the values at the end (to >= 0) */
  enc_terms fresh; /* the havoc constants along the path */
} enc_clause;

typedef struct enc {
  smt *s;                    /* borrowed */
  const prog *p;             /* borrowed */
  size_t var_count;          /* V */
  VEC(int) cuts;             /* location of each cut point */
  int *cut_of;               /* per location: its cut index, or -1 */
  bool *live;                /* cuts x V: variable live at the cut */
  bool *relevant;            /* per variable: some assumption or assertion depends on it */
  VEC(enc_segment) segments; /* traces: every segment */
  VEC(enc_clause) clauses;   /* proofs: every clause, built in one walk that shares path prefixes */
  Z3_ast *start;             /* proofs: enc_var(v, NULL) per variable, once asked for */
} enc;

/* Returns owned, free with enc_free. */
enc *enc_new(smt *s, const prog *p, bool for_trace);
void enc_free(enc *e);

/* The starting constants of the proof encoding (V terms, owned by e). */
const Z3_ast *enc_start(enc *e);
/* The terms of the variables live at cut k, picked from vals (V terms) in
 * variable order, into out (room for V); returns how many. */
unsigned enc_live_args(const enc *e, int k, const Z3_ast *vals, Z3_ast *out);
/* A constant for variable v, named name@suffix (or name when suffix is NULL). */
Z3_ast enc_var(enc *e, int v, const char *suffix);
/* The constraint that says segment j runs from the values x (V terms): its
 * assumptions, and for an error segment the failing condition. Fills y with
 * the values at its end (V terms), adds every fresh constant (havoc) to
 * fresh, and when after is not NULL appends V terms per edge (the values
 * after it). suffix tells the fresh constants of different copies apart. */
Z3_ast enc_segment_formula(enc *e, size_t j, const Z3_ast *x, Z3_ast *y, const char *suffix, enc_terms *fresh,
                           enc_terms *after);

#endif
