/* spec-lang/semantics.c -- the meaning of edges and of the initial state. */
#include "semantics.h"

#include <stdlib.h>
#include <string.h>

#include "../core/vec.h"

typedef VEC(const ir_expr *) expr_vec;

/* Copies the collected conjuncts into the arena. */
static sem_conj *freeze(arena *a, expr_vec *v) {
  sem_conj *c = arena_alloc(a, sizeof *c);
  c->len = v->len;
  c->items = arena_alloc(a, (v->len + 1) * sizeof *c->items);
  if (v->len) memcpy(c->items, v->items, v->len * sizeof *v->items);
  vec_free(v);
  return c;
}

/* Shared variable i, primed or not, as a checked name. */
static ir_expr *shared_name(const ast_spec *spec, int i, bool primed, loc at) {
  const ast_shared *sh = spec->shared.items[i];
  ir_expr *e = ir_name(spec->arena, at, sh->name, primed);
  e->ref = REF_SHARED;
  e->index = i;
  e->type = sh->type.kind == TYPE_BOOL ? TY_BOOL : TY_INT;
  return e;
}

/* The checked expression a == b (of two booleans or two integers). */
static ir_expr *equal(const ast_spec *spec, ir_expr *a, ir_expr *b) {
  ir_expr *e = ir_binary(spec->arena, a->at, OP_EQ, a, b);
  e->type = TY_BOOL;
  return e;
}

/* x' == x for shared variable i. */
static ir_expr *unchanged(const ast_spec *spec, int i, loc at) {
  return equal(spec, shared_name(spec, i, true, at), shared_name(spec, i, false, at));
}

static sem_conj *edge_meaning(const ast_spec *spec, const ast_edge *ed) {
  bool *changes = xcalloc(spec->shared.len + 1, sizeof *changes);
  expr_vec c = {0};
  if (ed->kind == EDGE_RELATION) {
    ir_mark_primed(ed->relation, changes);
    vec_push(NULL, &c, ed->relation);
  } else {
    if (ed->guard) vec_push(NULL, &c, ed->guard);
    vec_foreach(&ed->assigns, k) {
      const ast_assign *as = &ed->assigns.items[k];
      changes[as->var_index] = true;
      if (as->value) vec_push(NULL, &c, equal(spec, shared_name(spec, as->var_index, true, as->var_at), as->value));
    }
  }
  vec_foreach(&spec->shared, i)
    if (!changes[i]) vec_push(NULL, &c, unchanged(spec, (int)i, ed->from_at));
  free(changes);
  return freeze(spec->arena, &c);
}

static sem_conj *initial_meaning(const ast_spec *spec) {
  expr_vec c = {0};
  vec_foreach(&spec->shared, i) {
    const ast_shared *sh = spec->shared.items[i];
    if (sh->init) vec_push(NULL, &c, equal(spec, shared_name(spec, (int)i, false, sh->name_at), sh->init));
  }
  vec_foreach(&spec->inits, i) vec_push(NULL, &c, spec->inits.items[i]);
  return freeze(spec->arena, &c);
}

static sem_conj *idle_meaning(const ast_spec *spec) {
  expr_vec c = {0};
  vec_foreach(&spec->shared, i) vec_push(NULL, &c, unchanged(spec, (int)i, spec->shared.items[i]->name_at));
  return freeze(spec->arena, &c);
}

void sem_build(ast_spec *spec) {
  vec_foreach(&spec->threads, t) {
    const ast_thread *th = spec->threads.items[t];
    vec_foreach(&th->edges, k) th->edges.items[k]->meaning = edge_meaning(spec, th->edges.items[k]);
  }
  spec->initial = initial_meaning(spec);
  spec->idle = idle_meaning(spec);
}

const sem_conj *sem_edge(const ast_edge *e) { return e->meaning; }

const sem_conj *sem_initial(const ast_spec *spec) { return spec->initial; }

const sem_conj *sem_idle(const ast_spec *spec) { return spec->idle; }
