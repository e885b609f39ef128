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

/* ---------------------------------------------------------------- plans */

/* What counts as an unknown while planning: primed names (relations) or plain
 * names (initial states) of the shared variables in the set. */
typedef struct unknowns {
  bool primed;      /* the role of an unknown's occurrences */
  bool *is_unknown; /* per shared variable */
  bool *fixed;      /* per shared variable: fixed by an earlier plan step */
} unknowns;

static bool is_unknown_ref(const unknowns *u, const ir_expr *e) {
  return e->kind == IR_NAME && e->ref == REF_SHARED && e->primed == u->primed && u->is_unknown[e->index];
}

/* True when e reads no unknown that is not fixed yet. */
static bool computable(const unknowns *u, const ir_expr *e) {
  if (!e) return true;
  if (is_unknown_ref(u, e)) return u->fixed[e->index];
  return computable(u, e->a) && computable(u, e->b) && computable(u, e->c);
}

/* A conjunct `x == e` or `e == x` that defines unknown var by a computable e. */
static const ir_expr *definition(const unknowns *u, const ir_expr *c, int var) {
  if (c->kind != IR_BINARY || (c->op != OP_EQ && c->op != OP_IFF)) return NULL;
  if (is_unknown_ref(u, c->a) && c->a->index == var && computable(u, c->b)) return c->b;
  if (is_unknown_ref(u, c->b) && c->b->index == var && computable(u, c->a)) return c->a;
  return NULL;
}

typedef VEC(sem_step) step_vec;

/* Adds one step: a definition of some unknown if any is computable now, else
 * the enumeration of a bounded unknown. Returns the unbounded unknown that
 * can be neither, -1 if a step was added, or -2 when everything is fixed. */
static int add_step(const ast_spec *spec, unknowns *u, const ir_expr *const *conj, size_t n, step_vec *steps) {
  int open_bounded = -1, open_unbounded = -1;
  for (int var = 0; var < (int)spec->shared.len; var++) {
    if (!u->is_unknown[var] || u->fixed[var]) continue;
    for (size_t k = 0; k < n; k++) {
      const ir_expr *def = definition(u, conj[k], var);
      if (!def) continue;
      u->fixed[var] = true;
      vec_push(NULL, steps, ((sem_step){var, def}));
      return -1;
    }
    bool bounded = spec->shared.items[var]->type.kind != TYPE_INT;
    if (bounded && open_bounded < 0) open_bounded = var;
    if (!bounded && open_unbounded < 0) open_unbounded = var;
  }
  if (open_bounded >= 0) {
    u->fixed[open_bounded] = true;
    vec_push(NULL, steps, ((sem_step){open_bounded, NULL}));
    return -1;
  }
  return open_unbounded >= 0 ? open_unbounded : -2;
}

/* Plans one disjunct; returns -1, or the unknown it cannot determine. */
static int plan_disjunct(const ast_spec *spec, unknowns *u, const ir_expr *disjunct, sem_plan *out) {
  ir_expr_list conj = {0};
  ir_flatten(disjunct, OP_AND, &conj);
  memset(u->fixed, 0, spec->shared.len * sizeof *u->fixed);
  step_vec steps = {0};
  int r;
  while ((r = add_step(spec, u, conj.items, conj.len, &steps)) == -1) {}
  sem_step *copy = arena_alloc(spec->arena, (steps.len + 1) * sizeof *copy);
  if (steps.len) memcpy(copy, steps.items, steps.len * sizeof *steps.items);
  out->test = disjunct;
  out->step_count = steps.len;
  out->steps = copy;
  vec_free(&steps);
  vec_free(&conj);
  return r >= 0 ? r : -1;
}

/* Plans every disjunct of f for the unknowns of u (stopping at the first
 * that leaves an unbounded unknown undetermined). */
static sem_plans *plan_formula(const ast_spec *spec, unknowns *u, const ir_expr *f) {
  ir_expr_list disj = {0};
  ir_flatten(f, OP_OR, &disj);
  sem_plans *out = arena_alloc(spec->arena, sizeof *out);
  sem_plan *items = arena_alloc(spec->arena, (disj.len + 1) * sizeof *items);
  u->fixed = xcalloc(spec->shared.len + 1, sizeof *u->fixed);
  int bad = -1;
  for (size_t i = 0; i < disj.len && bad < 0; i++) bad = plan_disjunct(spec, u, disj.items[i], &items[i]);
  free(u->fixed);
  *out = (sem_plans){.items = items, .count = disj.len, .undetermined = bad, .formula = f};
  vec_free(&disj);
  return out;
}

static const sem_plans *relation_plans(const ast_spec *spec, const ast_edge *e) {
  bool *primed = xcalloc(spec->shared.len + 1, sizeof *primed);
  ir_mark_primed(e->relation, primed);
  unknowns u = {.primed = true, .is_unknown = primed};
  const sem_plans *out = plan_formula(spec, &u, e->relation);
  free(primed);
  return out;
}

/* The init predicates joined by && (true when there are none). */
static const ir_expr *init_formula(const ast_spec *spec) {
  ir_expr *f = ir_bool(spec->arena, (loc){0, 0}, true);
  f->type = TY_BOOL;
  vec_foreach(&spec->inits, i) {
    ir_expr *e = spec->inits.items[i];
    f = i ? ir_binary(spec->arena, e->at, OP_AND, f, e) : e;
    f->type = TY_BOOL;
  }
  return f;
}

static const sem_plans *initial_plans(const ast_spec *spec) {
  bool *open = xcalloc(spec->shared.len + 1, sizeof *open);
  vec_foreach(&spec->shared, i) open[i] = !spec->shared.items[i]->init;
  unknowns u = {.primed = false, .is_unknown = open};
  const sem_plans *out = plan_formula(spec, &u, init_formula(spec));
  free(open);
  return out;
}

/* ---------------------------------------------------------------- building */

void sem_build(ast_spec *spec) {
  vec_foreach(&spec->threads, t) {
    const ast_thread *th = spec->threads.items[t];
    vec_foreach(&th->edges, k) {
      ast_edge *e = th->edges.items[k];
      e->meaning = edge_meaning(spec, e);
      if (e->kind == EDGE_RELATION) e->plans = relation_plans(spec, e);
    }
  }
  spec->initial = initial_meaning(spec);
  spec->idle = idle_meaning(spec);
  spec->initial_plans = initial_plans(spec);
}

const sem_conj *sem_edge(const ast_edge *e) { return e->meaning; }

const sem_conj *sem_initial(const ast_spec *spec) { return spec->initial; }

const sem_conj *sem_idle(const ast_spec *spec) { return spec->idle; }

const sem_plans *sem_edge_plans(const ast_edge *e) { return e->plans; }

const sem_plans *sem_initial_plans(const ast_spec *spec) { return spec->initial_plans; }
