/* spec-lang/semantics-impl.h -- what the semantic layer's two files share:
 * checked expressions built in the spec's arena, cells, and the writes of
 * an edge. Private to semantics.c and plans.c. */
#ifndef ATHREAD_SEMANTICS_IMPL_H
#define ATHREAD_SEMANTICS_IMPL_H

#include "semantics.h"

typedef VEC(const ir_expr *) expr_vec;

/* ---------------------------------------------------------------- checked expressions (arena-owned) */

/* Cell c, primed or not: x for a scalar, a[k] (constant index) for an element. */
ir_expr *sem_cell_ref(const ast_spec *spec, int c, bool primed, loc at);
ir_expr *sem_int(const ast_spec *spec, int64_t v, loc at);
ir_expr *sem_bool(const ast_spec *spec, bool v);
/* l op r with the type of the operator's result. */
ir_expr *sem_binary(const ast_spec *spec, ir_op op, const ir_expr *l, const ir_expr *r);
ir_expr *sem_not(const ast_spec *spec, const ir_expr *a);
/* acc op e, or e when acc is NULL. */
const ir_expr *sem_join(const ast_spec *spec, ir_op op, const ir_expr *acc, const ir_expr *e);

/* e itself when its operands are a, b and c already, else a copy with them. */
const ir_expr *sem_rebuild(const ast_spec *spec, const ir_expr *e, const ir_expr *a, const ir_expr *b,
                           const ir_expr *c);
/* e with every quantifier replaced by its expansion (e itself when it has none). */
const ir_expr *sem_lower(const ast_spec *spec, const ir_expr *e);

/* The cell e names as a whole (a scalar name, or an element by a constant
 * index) when it is primed as asked; -1 otherwise. */
int sem_cell_of(const ir_expr *e, bool primed);

/* True when e contains a primed name or element. */
bool sem_reads_primed(const ir_expr *e);

/* ---------------------------------------------------------------- writes */

/* The cells a step may change: the ones named as a whole, and the primed
 * elements whose index is not a constant (which may change the cell of the
 * index's value). */
typedef struct sem_writes {
  bool *cells;      /* per cell (heap) */
  expr_vec dynamic; /* primed IR_INDEX nodes with a non-constant index (heap) */
} sem_writes;

/* The writes of relation r (quantifier-free) or of a command's targets. */
void sem_relation_writes(const ast_spec *spec, const ir_expr *r, sem_writes *w);
void sem_command_writes(const ast_spec *spec, const ast_edge *e, sem_writes *w);
void sem_writes_free(sem_writes *w);

/* The plans of relation r (quantifier-free) of edge e: one per disjunct
 * and choice of the cells that its dynamic writes name. */
const sem_plans *sem_plan_relation(const ast_spec *spec, const ir_expr *r, const sem_writes *w);
/* The plans of the initial state (sem_initial_plans). */
const sem_plans *sem_plan_initial(const ast_spec *spec);

#endif
