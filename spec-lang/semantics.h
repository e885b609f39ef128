/* spec-lang/semantics.h -- what a checked spec means, written once and read
 * by every back end (the explicit model, the symbolic encoders, the
 * conformance instrumenter).
 *
 * The meaning of an edge is a relation over the shared state before (x) and
 * after (x') the step, given as a list of conjuncts in a fixed order: the
 * relation as written, or the guard and then x' == e for each assignment
 * x := e (x := * adds nothing: any value of x's domain), and then x' == x for
 * every shared variable the edge does not change (the frame rule). The domains
 * of the variables are not part of it: every engine bounds its state variables
 * itself. The initial shared states are the conjuncts x == e for each
 * initializer, then the system's init predicates. The idle step (a thread's
 * step that its abstract thread matches by staying put) is the frame rule
 * alone.
 *
 * Computed by spec_check once the spec has no error; everything lives in the
 * spec's arena (free with spec_free).
 */
#ifndef ATHREAD_SEMANTICS_H
#define ATHREAD_SEMANTICS_H

#include <stddef.h>

#include "ast.h"

/* A conjunction of expressions, in order; the empty one is true. */
typedef struct sem_conj {
  const ir_expr **items; /* arena-owned */
  size_t len;
} sem_conj;

/* Computes the meaning of every edge and of the initial state (call once,
 * after a check without errors). */
void sem_build(ast_spec *spec);

/* The meaning of edge e over (x, x'), frame rule included. */
const sem_conj *sem_edge(const ast_edge *e);

/* The initial shared states: initializers, then init predicates, over x. */
const sem_conj *sem_initial(const ast_spec *spec);

/* A step that changes no shared variable: x' == x for each, in order. */
const sem_conj *sem_idle(const ast_spec *spec);

#endif
