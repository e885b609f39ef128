/* compose/promela-impl.h -- what the Promela exporter's two files share:
 * the exporter's state (pml), the plan of each step, and the helpers each
 * file uses of the other. Private to promela.c and promela-plan.c. */
#ifndef ATHREAD_PROMELA_IMPL_H
#define ATHREAD_PROMELA_IMPL_H

#include <stdbool.h>
#include <stdint.h>

#include "../core/arena.h"
#include "../core/symtab.h"
#include "../core/vec.h"
#include "../spec-lang/semantics.h"
#include "promela.h"

typedef enum bind_kind { BIND_NONE, BIND_SUBST, BIND_TEMP } bind_kind;

/* How x' reads inside the step being written. */
typedef struct bind {
  bind_kind kind;      /* not primed here / replaced by an expression / a temporary */
  const ir_expr *expr; /* BIND_SUBST: x's next value, over the pre-state */
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

typedef struct pml {
  const ast_spec *spec;                  /* borrowed */
  const diag_source *src;                /* spec->src, for messages */
  strbuf *out;                           /* the model being written */
  arena *arena;                          /* owns names and plans */
  symtab taken;                          /* every Promela name in use (interned in arena) */
  bool ok;                               /* nothing reported */
  const char **konst;                    /* per const: its macro, NULL if its value needs more than 32 bits */
  const char **var;                      /* per cell: its global, or its element of a global array (a[2]) */
  const char **array;                    /* per cell: the global array it is an element of, or NULL */
  const char **temp;                     /* per cell: its temporary, NULL when no step needs it */
  const char **proc;                     /* per thread: its proctype */
  const char ***state;                   /* per thread, per state: its constant */
  bool use_mtype;                        /* states are mtype symbols (else #defines) */
  const char *pc;                        /* the array of instance states */
  const char *check;                     /* the inline that asserts every property */
  step_list *steps;                      /* per thread: its steps, in edge order */
  bool **temps_of;                       /* per thread, per shared variable: its proctype declares the temporary */
  int64_t tid;                           /* what tid reads as: an instance number, or 0 for the parameter tid */
  const bind *binds;                     /* how primes read in the expression being written, or NULL */
  const ir_expr *true_expr, *false_expr; /* the values that x' and !x' give a bool */
} pml;

static inline const ast_shared *pml_shared_var(const pml *p, int i) { return p->spec->shared.items[i]; }

static inline bool fits32(int64_t v) { return v >= INT32_MIN && v <= INT32_MAX; }

/* Reports every literal and const in e whose value needs more than 32 bits. */
void pml_check_numbers(pml *p, const ir_expr *e);

/* Plans the steps of every thread: p->steps, and p->temps_of for the
 * temporaries they use (promela.c names them). */
void pml_plan_threads(pml *p);
/* True when step s computes every value it writes (no choice): a d_step. */
bool pml_is_deterministic(const step *s);

#endif
