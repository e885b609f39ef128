/* spec-lang/semantics.h -- what a checked spec means, written once and read
 * by every back end (the explicit model, the symbolic encoders, the
 * conformance instrumenter).
 *
 * The state is a tuple of cells: every scalar shared variable and every
 * element of an array is one (spec->shared). An element a[e] whose index is
 * not a constant reads the cell of e's value; every back end may assume the
 * index is within the array, because the checks below make an instance go
 * wrong before any expression reads outside one.
 *
 * The meaning of an edge is a relation over the shared state before (x) and
 * after (x') the step, given as a list of conjuncts in a fixed order: the
 * relation as written, or the guard and then x' == e for each assignment
 * x := e (x := * adds nothing: any value of x's domain), and then x' == x for
 * every shared variable the edge does not change (the frame rule). The domains
 * of the variables are not part of it: every engine bounds its state variables
 * itself. For arrays the frame rule is per cell: a'[e] (primed, in a relation
 * or as an assignment's target) lets the cell of e's value change, so cell k
 * of a keeps its value unless some such e equals k in the state before the
 * step (a conjunct e1 == k || ... || a'[k] == a[k]). The initial shared states are the conjuncts x == e for each
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

/* Computes the meaning of every edge, of the initial state and of going
 * wrong (call once, after a check without errors). Reports an index that is
 * constant and outside its array wherever it is always evaluated; returns
 * false after such an error. */
bool sem_build(ast_spec *spec);

/* The meaning of edge e over (x, x'), frame rule included. */
const sem_conj *sem_edge(const ast_edge *e);

/* The initial shared states: initializers, then init predicates, over x. */
const sem_conj *sem_initial(const ast_spec *spec);

/* A step that changes no shared variable: x' == x for each, in order. */
const sem_conj *sem_idle(const ast_spec *spec);

/* ---------------------------------------------------------------- going wrong
 * What an instance must satisfy while it is in a state, and the system in
 * every state, as a list of checks in the order they are made: for the
 * state's assertion, first that its array indices are within their arrays,
 * then the assertion; the same for each thread invariant; then, for every
 * edge that leaves the state, that evaluating it (the guard, and the
 * assignments where the guard holds; a relation for any next state) stays
 * within the arrays, and that no two of its assignments write one element.
 * The system's checks are its invariants, each after its indices. An index
 * guarded by && || ==> or ?: is checked only where it is evaluated (a guard
 * that reads primed variables protects nothing). */

typedef enum sem_check_kind {
  SEM_ASSERTION, /* the state's assertion */
  SEM_INVARIANT, /* a thread invariant */
  SEM_PROPERTY,  /* a system invariant */
  SEM_BOUNDS,    /* an index is within its array */
  SEM_CONFLICT   /* two assignments of an edge write different elements */
} sem_check_kind;

typedef struct sem_check {
  sem_check_kind kind;   /* what it checks */
  const ir_expr *holds;  /* what must hold (over the state; tid is the instance's) */
  const ir_expr *what;   /* the assertion, invariant or property; SEM_BOUNDS: the element a[e];
                            SEM_CONFLICT: the second of the two targets */
  const ir_expr *other;  /* SEM_CONFLICT: the first target */
  const ir_expr *within; /* SEM_BOUNDS: the assertion, invariant or property it is in, or NULL (an edge) */
  const ast_edge *edge;  /* SEM_BOUNDS, SEM_CONFLICT: the edge it is in, or NULL */
} sem_check;

typedef struct sem_checks {
  const sem_check *items; /* arena-owned, in order */
  size_t len;
} sem_checks;

/* The checks of an instance in state st (of its thread). */
const sem_checks *sem_state_checks(const ast_state *st);
/* The checks of the system: its invariants. */
const sem_checks *sem_system_checks(const ast_spec *spec);

/* The value of a constant expression (literals, consts, operators) in
 * athread's arithmetic; false when it reads state or faults. */
bool sem_constant(const ast_spec *spec, const ir_expr *e, int64_t *out);

/* ---------------------------------------------------------------- plans
 * How to compute the solutions of a formula for some unknown variables
 * (x' of a relation, or the variables an initial state leaves open), one
 * plan per top-level disjunct: fix the unknowns in order, each from a
 * conjunct x == e (or x, !x for a bool) whose e reads only what is fixed
 * already (definitions from the pre-state first), else by trying every value
 * of a bounded variable's domain (first those that no conjunct could define);
 * then test the disjunct: its conjuncts that read only the pre-state (pre)
 * before the steps, the others but the definitions after them (rest).
 * A solution found by several disjuncts is the first one's (callers skip
 * it when an earlier disjunct holds). */

typedef struct sem_step {
  int var;             /* the cell it fixes */
  const ir_expr *def;  /* its value, or NULL: every value of its domain */
  const ir_expr *from; /* the conjunct that gives def (NULL with def) */
} sem_step;

typedef struct sem_plan {
  const sem_step *steps; /* in order */
  size_t step_count;     /* entries in steps */
  const ir_expr *test;   /* the disjunct (its case): what every solution satisfies */
  const ir_expr *pre;    /* the conjuncts of test that read only the state before (tested first), or NULL */
  const ir_expr *rest;   /* the conjuncts of test that neither pre nor a step's definition makes true, or NULL */
  int disjunct;          /* which top-level disjunct it solves, from 1 */
  int case_number;       /* which choice of written elements, from 1; 0 when no write needs one */
} sem_plan;

typedef struct sem_plans {
  const sem_plan *items;          /* one per top-level disjunct (per choice of cells it writes, see below) */
  size_t count;                   /* entries in items */
  int undetermined;               /* an unbounded int (cell) that no conjunct fixes (items then incomplete), or -1 */
  bool too_many;                  /* the elements written need more than SEM_MAX_CASES plans (items then empty) */
  const ir_expr *undetermined_at; /* with undetermined: the disjunct that leaves it open */
  const ir_expr *formula;         /* what was planned */
} sem_plans;

/* The most plans one relation may need. */
#define SEM_MAX_CASES 4096

/* The plans of a relational edge, solving for the cells it primes; NULL for a
 * guarded command whose targets are cells (its assignments are its plan).
 * A primed element a'[e] whose index is not constant is planned once per
 * element it may be: the disjunct with e == k conjoined and a'[k] for a'[e];
 * a command with such a target gets the plans of its guard and x' == e per
 * assignment. */
const sem_plans *sem_edge_plans(const ast_edge *e);

/* The plans of the initial state: the init predicates (true when there are
 * none), solved for the variables without an initializer. */
const sem_plans *sem_initial_plans(const ast_spec *spec);

#endif
