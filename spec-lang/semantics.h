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

/* ---------------------------------------------------------------- plans
 * How to compute the solutions of a formula for some unknown variables
 * (x' of a relation, or the variables an initial state leaves open), one
 * plan per top-level disjunct: fix the unknowns in order, each from a
 * conjunct x == e (or x, !x for a bool) whose e reads only what is fixed
 * already (definitions from the pre-state first), else by trying every value
 * of a bounded variable's domain (first those that no conjunct could define);
 * then test the whole disjunct.
 * A solution found by several disjuncts is the first one's (callers skip
 * it when an earlier disjunct holds). */

typedef struct sem_step {
  int var;             /* the shared variable it fixes */
  const ir_expr *def;  /* its value, or NULL: every value of its domain */
  const ir_expr *from; /* the conjunct that gives def (NULL with def) */
} sem_step;

typedef struct sem_plan {
  const sem_step *steps; /* in order */
  size_t step_count;     /* entries in steps */
  const ir_expr *test;   /* the disjunct: what every solution satisfies */
} sem_plan;

typedef struct sem_plans {
  const sem_plan *items;          /* one per top-level disjunct */
  size_t count;                   /* entries in items */
  int undetermined;               /* an unbounded int that no conjunct fixes (items then incomplete), or -1 */
  const ir_expr *undetermined_at; /* with undetermined: the disjunct that leaves it open */
  const ir_expr *formula;         /* what was planned */
} sem_plans;

/* The plans of a relational edge, solving for the variables it primes (NULL
 * for a guarded command: its assignments are its plan). */
const sem_plans *sem_edge_plans(const ast_edge *e);

/* The plans of the initial state: the init predicates (true when there are
 * none), solved for the variables without an initializer. */
const sem_plans *sem_initial_plans(const ast_spec *spec);

#endif
