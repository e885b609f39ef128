/* compose/edge-smt.c -- edges and initial shared states as Z3 formulas. */
#include "edge-smt.h"

#include <stdlib.h>

#include "../core/arena.h"
#include "../core/vec.h"
#include "../spec-lang/semantics.h"

/* smt_and of the caller's translations of conj's items. */
static Z3_ast conjunction(smt *s, const sem_conj *conj, const smt_env *env, esmt_term term, void *ctx) {
  Z3_ast *c = xcalloc(conj->len + 1, sizeof *c);
  for (size_t k = 0; k < conj->len; k++) c[k] = term(ctx, conj->items[k], env);
  Z3_ast all = smt_and(s, (unsigned)conj->len, c);
  free(c);
  return all;
}

Z3_ast esmt_edge(smt *s, const ast_edge *ed, const smt_env *env, esmt_term term, void *ctx) {
  return conjunction(s, sem_edge(ed), env, term, ctx);
}

Z3_ast esmt_shared_init(smt *s, const ast_spec *spec, const smt_env *env, esmt_term term, void *ctx) {
  return conjunction(s, sem_initial(spec), env, term, ctx);
}

Z3_ast esmt_initial_state(smt *s, const ast_thread *t, Z3_ast at) {
  VEC(Z3_ast) alt = {0};
  vec_foreach(&t->states, k)
    if (t->states.items[k]->initial) vec_push(NULL, &alt, smt_eq(s, at, smt_int(s, (int64_t)k)));
  Z3_ast any = smt_or(s, (unsigned)alt.len, alt.items);
  vec_free(&alt);
  return any;
}
