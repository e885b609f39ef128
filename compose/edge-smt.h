/* compose/edge-smt.h -- the Z3 formulas of a spec's edges, of its initial
 * shared state, for the symbolic systems built on a spec (the product's
 * face and the --for-all counter system). Every expression goes through the
 * caller's translation, so an engine can rewrite it first (--for-all reads
 * counts and N symbolically).
 * Borrows everything; the terms live in the caller's Z3 context. */
#ifndef ATHREAD_EDGE_SMT_H
#define ATHREAD_EDGE_SMT_H

#include "../core/smt.h"
#include "../spec-lang/ast.h"

/* The caller's translation of one expression under env. */
typedef Z3_ast (*esmt_term)(void *ctx, const ir_expr *x, const smt_env *env);

/* The shared part of edge ed (sem_edge: its relation with the frame rule)
 * from env's cur to env's next, for the instance of env's tid. */
Z3_ast esmt_edge(smt *s, const ast_edge *ed, const smt_env *env, esmt_term term, void *ctx);

/* The initial shared states (sem_initial) over env's cur. */
Z3_ast esmt_shared_init(smt *s, const ast_spec *spec, const smt_env *env, esmt_term term, void *ctx);

/* The control state `at` of an instance of t is one of t's init states. */
Z3_ast esmt_initial_state(smt *s, const ast_thread *t, Z3_ast at);

#endif
