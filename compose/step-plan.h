/* compose/step-plan.h -- the steps of an exported model (athread promela,
 * athread murphi), planned once for every target language: per edge (per
 * top-level disjunct of a relation), the guard on the pre-state, the values
 * written, the values chosen and the checks over them (step-plan.c).
 *
 * The planner borrows the spec; its steps, binds and plans live in the
 * caller's arena. Each exporter writes the plans out in its own language.
 */
#ifndef ATHREAD_STEP_PLAN_H
#define ATHREAD_STEP_PLAN_H

#include <stdbool.h>
#include <stdint.h>

#include "../core/arena.h"
#include "../core/vec.h"
#include "../spec-lang/semantics.h"

typedef enum bind_kind { BIND_NONE, BIND_SUBST, BIND_TEMP } bind_kind;

/* How x' reads inside the step being written. */
typedef struct bind {
  bind_kind kind;      /* not primed here / replaced by an expression / a temporary */
  const ir_expr *expr; /* BIND_SUBST: x's next value, over the pre-state; BIND_TEMP: its
                          value over the pre-state and the earlier temporaries, or NULL (chosen) */
} bind;

typedef struct assign_plan {
  int var;                /* the cell it writes (an array's element 0 when element is set) */
  const ir_expr *value;   /* over the pre-state; NULL: any value of the type */
  const ir_expr *element; /* the target a'[i] when its index is not a constant (written as a[i]), else NULL */
} assign_plan;

typedef VEC(assign_plan) assign_list;

/* One atomic step: an edge, or one top-level disjunct of a relational edge. */
typedef struct step {
  const ast_edge *edge; /* the edge it takes */
  const sem_plan *plan; /* the plan it follows (relations, and commands that write elements by a variable index) */
  int parts;            /* the edge's plans, or 0 when not split */
  ir_expr_list guard;   /* conditions on the pre-state (besides pc == from) */
  assign_list assigns;  /* parallel assignments from the pre-state; choices have value NULL */
  VEC(int) chosen;      /* temporaries that range over their variable's type */
  assign_list computed; /* temporaries computed once the chosen ones are set */
  ir_expr_list checks;  /* conditions over the temporaries */
  bind *binds;          /* per shared variable: how x' reads */
  bool via_temps;       /* assigns go through temporaries (a value reads an earlier target) */
} step;

typedef VEC(step *) step_list;

typedef struct planner {
  const ast_spec *spec;   /* borrowed */
  const diag_source *src; /* spec->src, for messages */
  arena *arena;           /* the caller's: owns the steps */
  const char *target;     /* the language, for messages: "cannot export to Promela: ..." */
  bool ok;                /* nothing reported */
  step_list *steps;       /* per thread: its steps, in edge order */
  bool **temps_of;        /* per thread, per shared variable: one of its steps uses the temporary */
  void (*check_thread)(void *ctx, const ast_thread *t); /* called before a thread is planned, or NULL */
  void *ctx;                                            /* check_thread's */
} planner;

/* A planner for spec, with steps and temps_of allocated in a. */
planner plan_new(const ast_spec *spec, arena *a, const char *target);

/* Plans the steps of every thread: p->steps, and p->temps_of for the
 * temporaries they use. Reports what cannot be exported (p->ok false). */
void plan_threads(planner *p);
/* True when step s computes every value it writes (no choice). */
bool plan_is_deterministic(const step *s);

static inline const ast_shared *plan_var(const planner *p, int i) { return p->spec->shared.items[i]; }

/* True when value (of a bounded variable var) may fall outside var's range:
 * it is not a constant in the range, nor a variable of a narrower range. */
bool plan_needs_range_check(const ast_spec *spec, int var, const ir_expr *value);
/* True when e is a constant that holds. */
bool plan_constantly_true(const ast_spec *spec, const ir_expr *e);
/* The constant cell c starts with: its initializer, or for an unbounded int
 * the value the init predicates give it (*from_init). */
bool plan_start_value(const ast_spec *spec, int c, int64_t *value, bool *from_init);
/* The value every element of array v starts with, when they share one. */
bool plan_common_value(const ast_spec *spec, const ast_shared *v, int64_t *value);
/* Reports every literal and const in e that does not fit in 32 bits, the
 * target's numbers (values: "rumur's 32-bit values", for messages); p->ok
 * is false after one. The index of T[i]@S is the exporter's, not checked. */
void plan_check_numbers(planner *p, const ir_expr *e, const char *values);
/* The instance set of thread t in the system, or NULL when it has none. */
const ast_instance *plan_instance_of(const ast_spec *spec, int thread);

#endif
