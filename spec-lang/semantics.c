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
  bool primed;                         /* the role of an unknown's occurrences */
  bool *is_unknown;                    /* per shared variable */
  bool *fixed;                         /* per shared variable: fixed by an earlier plan step */
  const ir_expr *true_lit, *false_lit; /* what a conjunct x or !x gives a bool x */
} unknowns;

static bool is_unknown_ref(const unknowns *u, const ir_expr *e) {
  return e->kind == IR_NAME && e->ref == REF_SHARED && e->primed == u->primed && u->is_unknown[e->index];
}

static bool is_unknown_var(const unknowns *u, const ir_expr *e, int var) {
  return is_unknown_ref(u, e) && e->index == var;
}

/* True when e reads no unknown that is not fixed yet (with pre_only: no
 * unknown at all). */
static bool computable(const unknowns *u, const ir_expr *e, bool pre_only) {
  if (!e) return true;
  if (is_unknown_ref(u, e)) return !pre_only && u->fixed[e->index];
  return computable(u, e->a, pre_only) && computable(u, e->b, pre_only) && computable(u, e->c, pre_only);
}

/* The value conjunct c gives unknown var when it has the shape x == e or
 * e == x (also with <==>), or x or !x for a bool; NULL otherwise. */
static const ir_expr *defined_by(const unknowns *u, const ir_expr *c, int var) {
  if (is_unknown_var(u, c, var)) return u->true_lit;
  if (c->kind == IR_UNARY && c->op == OP_NOT && is_unknown_var(u, c->a, var)) return u->false_lit;
  if (c->kind != IR_BINARY || (c->op != OP_EQ && c->op != OP_IFF)) return NULL;
  if (is_unknown_var(u, c->a, var)) return c->b;
  if (is_unknown_var(u, c->b, var)) return c->a;
  return NULL;
}

typedef VEC(sem_step) step_vec;

/* Fixes the first unfixed unknown that some conjunct defines by a value
 * computable now (pre_only: from the pre-state alone); false when none. */
static bool add_definition(const ast_spec *spec, unknowns *u, const ir_expr *const *conj, size_t n, bool pre_only,
                           step_vec *steps) {
  for (int var = 0; var < (int)spec->shared.len; var++) {
    if (!u->is_unknown[var] || u->fixed[var]) continue;
    for (size_t k = 0; k < n; k++) {
      const ir_expr *def = defined_by(u, conj[k], var);
      if (!def || !computable(u, def, pre_only)) continue;
      u->fixed[var] = true;
      vec_push(NULL, steps, ((sem_step){var, def, conj[k]}));
      return true;
    }
  }
  return false;
}

static bool mentions(const unknowns *u, const ir_expr *e, int var) {
  if (!e) return false;
  if (is_unknown_var(u, e, var)) return true;
  return mentions(u, e->a, var) || mentions(u, e->b, var) || mentions(u, e->c, var);
}

/* True when some conjunct could define var once other unknowns are fixed. */
static bool definable(const unknowns *u, const ir_expr *const *conj, size_t n, int var) {
  for (size_t k = 0; k < n; k++) {
    const ir_expr *def = defined_by(u, conj[k], var);
    if (def && !mentions(u, def, var)) return true;
  }
  return false;
}

/* The bounded unknown to enumerate: the first that nothing could define,
 * else the first; -1 when every bounded unknown is fixed. */
static int to_enumerate(const ast_spec *spec, const unknowns *u, const ir_expr *const *conj, size_t n) {
  int first = -1;
  for (int var = 0; var < (int)spec->shared.len; var++) {
    if (!u->is_unknown[var] || u->fixed[var] || spec->shared.items[var]->type.kind == TYPE_INT) continue;
    if (!definable(u, conj, n, var)) return var;
    if (first < 0) first = var;
  }
  return first;
}

/* Adds one step: a definition from the pre-state if any, else one computable
 * now, else the enumeration of a bounded unknown. Returns the unbounded
 * unknown that can be none of them, -1 if a step was added, or -2 when
 * everything is fixed. */
static int add_step(const ast_spec *spec, unknowns *u, const ir_expr *const *conj, size_t n, step_vec *steps) {
  if (add_definition(spec, u, conj, n, true, steps) || add_definition(spec, u, conj, n, false, steps)) return -1;
  int var = to_enumerate(spec, u, conj, n);
  if (var >= 0) {
    u->fixed[var] = true;
    vec_push(NULL, steps, ((sem_step){var, NULL, NULL}));
    return -1;
  }
  for (var = 0; var < (int)spec->shared.len; var++)
    if (u->is_unknown[var] && !u->fixed[var]) return var;
  return -2;
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

static const ir_expr *bool_literal(const ast_spec *spec, bool value) {
  ir_expr *b = ir_bool(spec->arena, (loc){0, 0}, value);
  b->type = TY_BOOL;
  return b;
}

/* Plans every disjunct of f for the unknowns of u (stopping at the first
 * that leaves an unbounded unknown undetermined). */
static sem_plans *plan_formula(const ast_spec *spec, unknowns *u, const ir_expr *f) {
  ir_expr_list disj = {0};
  ir_flatten(f, OP_OR, &disj);
  sem_plans *out = arena_alloc(spec->arena, sizeof *out);
  sem_plan *items = arena_alloc(spec->arena, (disj.len + 1) * sizeof *items);
  u->fixed = xcalloc(spec->shared.len + 1, sizeof *u->fixed);
  u->true_lit = bool_literal(spec, true);
  u->false_lit = bool_literal(spec, false);
  int bad = -1;
  size_t i = 0;
  for (; i < disj.len && bad < 0; i++) bad = plan_disjunct(spec, u, disj.items[i], &items[i]);
  free(u->fixed);
  *out = (sem_plans){.items = items, .count = disj.len, .undetermined = bad, .formula = f};
  if (bad >= 0) out->undetermined_at = disj.items[i - 1];
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
  ir_expr *f = (ir_expr *)bool_literal(spec, true);
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
