/* spec-lang/semantics.c -- the meaning of edges, of the initial state and of
 * going wrong. The plans live in plans.c. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../core/strbuf.h"
#include "../core/vec.h"
#include "semantics-impl.h"

/* ---------------------------------------------------------------- checked expressions */

static ir_expr *typed(ir_expr *e, ir_type t) {
  e->type = t;
  return e;
}

ir_expr *sem_int(const ast_spec *spec, int64_t v, loc at) {
  ir_expr *e = ir_int(spec->arena, at, "0");
  e->text = arena_printf(spec->arena, "%" PRId64, v);
  e->value = v;
  return typed(e, TY_INT);
}

ir_expr *sem_bool(const ast_spec *spec, bool v) { return typed(ir_bool(spec->arena, (loc){0, 0}, v), TY_BOOL); }

ir_expr *sem_cell_ref(const ast_spec *spec, int c, bool primed, loc at) {
  const ast_shared *sh = spec->shared.items[c];
  ir_type t = sh->type.kind == TYPE_BOOL ? TY_BOOL : TY_INT;
  ir_expr *e = sh->array ? ir_index(spec->arena, at, sh->array->name, at, primed, sem_int(spec, sh->element, at))
                         : ir_name(spec->arena, at, sh->name, primed);
  e->ref = REF_SHARED;
  e->index = sh->array ? sh->array->index : c;
  e->extent = sh->array ? sh->array->length : 0;
  e->cell = c;
  return typed(e, t);
}

ir_expr *sem_binary(const ast_spec *spec, ir_op op, const ir_expr *l, const ir_expr *r) {
  ir_expr *e = ir_binary(spec->arena, l->at, op, (ir_expr *)l, (ir_expr *)r);
  return typed(e, op >= OP_LT ? TY_BOOL : TY_INT);
}

ir_expr *sem_not(const ast_spec *spec, const ir_expr *a) {
  return typed(ir_unary(spec->arena, a->at, OP_NOT, (ir_expr *)a), TY_BOOL);
}

const ir_expr *sem_join(const ast_spec *spec, ir_op op, const ir_expr *acc, const ir_expr *e) {
  return acc ? sem_binary(spec, op, acc, e) : e;
}

const ir_expr *sem_rebuild(const ast_spec *spec, const ir_expr *e, const ir_expr *a, const ir_expr *b,
                           const ir_expr *c) {
  if (a == e->a && b == e->b && c == e->c) return e;
  ir_expr *copy = arena_alloc(spec->arena, sizeof *copy);
  *copy = *e;
  copy->a = (ir_expr *)a;
  copy->b = (ir_expr *)b;
  copy->c = (ir_expr *)c;
  return copy;
}

const ir_expr *sem_lower(const ast_spec *spec, const ir_expr *e) {
  if (!e) return NULL;
  if (e->kind == IR_QUANT) return e->lowered;
  return sem_rebuild(spec, e, sem_lower(spec, e->a), sem_lower(spec, e->b), sem_lower(spec, e->c));
}

int sem_cell_of(const ir_expr *e, bool primed) {
  if (e->primed != primed || e->ref != REF_SHARED) return -1;
  if (e->kind == IR_NAME) return e->index;
  return e->kind == IR_INDEX && e->cell >= 0 ? e->cell : -1;
}

bool sem_reads_primed(const ir_expr *e) {
  if (!e) return false;
  if ((e->kind == IR_NAME || e->kind == IR_INDEX) && e->primed) return true;
  if (e->kind == IR_QUANT) return sem_reads_primed(e->lowered);
  return sem_reads_primed(e->a) || sem_reads_primed(e->b) || sem_reads_primed(e->c);
}

bool sem_constant(const ast_spec *spec, const ir_expr *e, int64_t *out) {
  int64_t a = 0, b = 0;
  switch (e->kind) {
  case IR_BOOL: *out = e->value; return true;
  case IR_INT: *out = e->value; return !e->big;
  case IR_NAME: *out = e->ref == REF_CONST ? spec->consts.items[e->index]->value : 0; return e->ref == REF_CONST;
  case IR_UNARY: return sem_constant(spec, e->a, &a) && ir_arith(e->op, a, 0, out) == IR_FAULT_NONE;
  case IR_ITE: return sem_constant(spec, e->a, &a) && sem_constant(spec, a ? e->b : e->c, out);
  case IR_QUANT: return sem_constant(spec, e->lowered, out);
  case IR_BINARY: break;
  default: return false;
  }
  return sem_constant(spec, e->a, &a) && sem_constant(spec, e->b, &b) && ir_arith(e->op, a, b, out) == IR_FAULT_NONE;
}

/* ---------------------------------------------------------------- writes */

static void note_write(const ir_expr *x, sem_writes *w) {
  int c = sem_cell_of(x, true);
  if (c >= 0) w->cells[c] = true;
  else if (x->kind == IR_INDEX && x->cell == IR_CELL_DYNAMIC) vec_push(NULL, &w->dynamic, x);
}

static void collect_writes(const ir_expr *e, sem_writes *w) {
  if (!e) return;
  if ((e->kind == IR_NAME || e->kind == IR_INDEX) && e->ref == REF_SHARED && e->primed) note_write(e, w);
  collect_writes(e->a, w);
  collect_writes(e->b, w);
  collect_writes(e->c, w);
}

void sem_relation_writes(const ast_spec *spec, const ir_expr *r, sem_writes *w) {
  w->cells = xcalloc(spec->shared.len + 1, sizeof *w->cells);
  collect_writes(r, w);
}

void sem_command_writes(const ast_spec *spec, const ast_edge *e, sem_writes *w) {
  w->cells = xcalloc(spec->shared.len + 1, sizeof *w->cells);
  vec_foreach(&e->assigns, k) note_write(e->assigns.items[k].target, w);
}

void sem_writes_free(sem_writes *w) {
  free(w->cells);
  vec_free(&w->dynamic);
}

/* ---------------------------------------------------------------- meaning */

/* Copies the collected items into the arena. */
static sem_conj *freeze(arena *a, expr_vec *v) {
  sem_conj *c = arena_alloc(a, sizeof *c);
  c->len = v->len;
  c->items = arena_alloc(a, (v->len + 1) * sizeof *c->items);
  if (v->len) memcpy(c->items, v->items, v->len * sizeof *v->items);
  vec_free(v);
  return c;
}

/* c' == c, or (e1 == k || ... || c' == c) when dynamic writes e1.. of c's
 * array may name it (c is element k). */
static const ir_expr *frame(const ast_spec *spec, const sem_writes *w, int c, loc at) {
  const ir_expr *keep = sem_binary(spec, OP_EQ, sem_cell_ref(spec, c, true, at), sem_cell_ref(spec, c, false, at));
  const ast_shared *sh = spec->shared.items[c];
  const ir_expr *named = NULL;
  vec_foreach(&w->dynamic, j) {
    const ir_expr *x = w->dynamic.items[j];
    if (sh->array && x->index == sh->array->index)
      named = sem_join(spec, OP_OR, named, sem_binary(spec, OP_EQ, x->a, sem_int(spec, sh->element, at)));
  }
  return named ? sem_binary(spec, OP_OR, named, keep) : keep;
}

static sem_conj *edge_meaning(const ast_spec *spec, const ast_edge *ed) {
  sem_writes w = {0};
  expr_vec c = {0};
  if (ed->kind == EDGE_RELATION) {
    sem_relation_writes(spec, sem_lower(spec, ed->relation), &w);
    vec_push(NULL, &c, ed->relation);
  } else {
    sem_command_writes(spec, ed, &w);
    if (ed->guard) vec_push(NULL, &c, ed->guard);
    vec_foreach(&ed->assigns, k) {
      const ast_assign *as = &ed->assigns.items[k];
      if (as->value) vec_push(NULL, &c, sem_binary(spec, OP_EQ, as->target, as->value));
    }
  }
  vec_foreach(&spec->shared, i)
    if (!w.cells[i]) vec_push(NULL, &c, frame(spec, &w, (int)i, ed->from_at));
  sem_writes_free(&w);
  return freeze(spec->arena, &c);
}

static sem_conj *initial_meaning(const ast_spec *spec) {
  expr_vec c = {0};
  vec_foreach(&spec->shared, i) {
    const ast_shared *sh = spec->shared.items[i];
    if (sh->init) vec_push(NULL, &c, sem_binary(spec, OP_EQ, sem_cell_ref(spec, (int)i, false, sh->name_at), sh->init));
  }
  vec_foreach(&spec->inits, i) vec_push(NULL, &c, spec->inits.items[i]);
  return freeze(spec->arena, &c);
}

static sem_conj *idle_meaning(const ast_spec *spec) {
  expr_vec c = {0};
  sem_writes none = {0};
  vec_foreach(&spec->shared, i) vec_push(NULL, &c, frame(spec, &none, (int)i, spec->shared.items[i]->name_at));
  return freeze(spec->arena, &c);
}

/* ---------------------------------------------------------------- going wrong */

typedef struct checker {
  const ast_spec *spec;  /* the spec */
  VEC(sem_check) out;    /* the checks being collected (heap) */
  const ir_expr *within; /* the assertion, invariant or property being walked, or NULL */
  const ast_edge *edge;  /* the edge being walked, or NULL */
  bool init;             /* walking an init predicate: every index must be known to be in range */
  expr_vec reported;     /* elements reported out of range (an assertion is walked once per state) */
  bool ok;               /* no error reported */
} checker;

/* True when the state has a bounds check that reads like holds already. */
static bool known_bounds(const checker *k, const ir_expr *holds) {
  strbuf a = {0}, b = {0};
  ir_dump(&a, holds);
  bool found = false;
  for (size_t i = 0; i < k->out.len && !found; i++) {
    if (k->out.items[i].kind != SEM_BOUNDS) continue;
    b.len = 0;
    ir_dump(&b, k->out.items[i].holds);
    found = strcmp(sbuf_str(&a), sbuf_str(&b)) == 0;
  }
  sbuf_free(&a);
  sbuf_free(&b);
  return found;
}

static void add_check(checker *k, sem_check_kind kind, const ir_expr *holds, const ir_expr *what) {
  if (kind == SEM_BOUNDS && known_bounds(k, holds)) return;
  sem_check c = {.kind = kind, .holds = holds, .what = what, .within = k->within, .edge = k->edge};
  vec_push(NULL, &k->out, c);
}

/* Reports element e, whose index is a constant outside its array, once. */
static void report_outside(checker *k, const ir_expr *e) {
  k->ok = false;
  vec_foreach(&k->reported, i)
    if (k->reported.items[i] == e) return;
  vec_push(NULL, &k->reported, e);
  int64_t v = 0;
  sem_constant(k->spec, e->a, &v);
  diag_error(k->spec->src, e->a->at,
             "index %" PRId64 " is outside array '%s', whose elements are %s[0] to %s[%" PRId64 "]", v, e->text,
             e->text, e->text, e->extent - 1);
}

/* 0 <= i && i < n for element e = a[i] of an array of n. */
static const ir_expr *in_range(checker *k, const ir_expr *e) {
  const ast_spec *spec = k->spec;
  const ir_expr *low = sem_binary(spec, OP_LE, sem_int(spec, 0, e->at), e->a);
  return sem_binary(spec, OP_AND, low, sem_binary(spec, OP_LT, e->a, sem_int(spec, e->extent, e->at)));
}

/* Element e is read or written where path holds (NULL: always). */
static void check_index(checker *k, const ir_expr *e, const ir_expr *path) {
  if (e->cell >= 0) return;
  int64_t p = 1;
  bool known = !path || sem_constant(k->spec, path, &p);
  if (known && !p) return; /* never evaluated */
  if (e->cell == IR_CELL_OUT_OF_RANGE && (known || k->init)) {
    report_outside(k, e);
    return;
  }
  const ir_expr *in = e->cell == IR_CELL_OUT_OF_RANGE ? sem_bool(k->spec, false) : in_range(k, e);
  add_check(k, SEM_BOUNDS, path ? sem_binary(k->spec, OP_IMPLIES, path, in) : in, e);
}

/* path && cond (or && !cond), unless cond reads primed values: those are not
 * known when the indices of a relation are evaluated. */
static const ir_expr *guarded(checker *k, const ir_expr *path, const ir_expr *cond, bool holds) {
  if (sem_reads_primed(cond)) return path;
  return sem_join(k->spec, OP_AND, path, holds ? cond : sem_not(k->spec, cond));
}

/* The bounds checks of every element that e evaluates where path holds. */
static void check_indices(checker *k, const ir_expr *e, const ir_expr *path) {
  if (!e) return;
  switch (e->kind) {
  case IR_QUANT: check_indices(k, e->lowered, path); return;
  case IR_INDEX:
    check_indices(k, e->a, path);
    check_index(k, e, path);
    return;
  case IR_ITE:
    check_indices(k, e->a, path);
    check_indices(k, e->b, guarded(k, path, e->a, true));
    check_indices(k, e->c, guarded(k, path, e->a, false));
    return;
  case IR_BINARY:
    if (e->op != OP_AND && e->op != OP_OR && e->op != OP_IMPLIES) break;
    check_indices(k, e->a, path);
    check_indices(k, e->b, guarded(k, path, e->a, e->op != OP_OR));
    return;
  default: break;
  }
  check_indices(k, e->a, path);
  check_indices(k, e->b, path);
  check_indices(k, e->c, path);
}

/* Its indices first, then e itself. */
static void check_expr(checker *k, sem_check_kind kind, const ir_expr *e) {
  k->within = e;
  k->edge = NULL;
  check_indices(k, e, NULL);
  add_check(k, kind, e, e);
}

/* Two assignments of edge e to elements of one array by indices that are not
 * both constant write different elements where the guard holds. */
static void check_conflicts(checker *k, const ast_edge *e) {
  vec_foreach(&e->assigns, j) {
    const ir_expr *b = e->assigns.items[j].target;
    for (size_t i = 0; i < j; i++) {
      const ir_expr *a = e->assigns.items[i].target;
      if (a->kind != IR_INDEX || b->kind != IR_INDEX || a->index != b->index) continue;
      if ((a->cell >= 0 && b->cell >= 0) || a->cell == IR_CELL_OUT_OF_RANGE || b->cell == IR_CELL_OUT_OF_RANGE)
        continue;
      const ir_expr *apart = sem_binary(k->spec, OP_NE, a->a, b->a);
      add_check(k, SEM_CONFLICT, e->guard ? sem_binary(k->spec, OP_IMPLIES, e->guard, apart) : apart, b);
      k->out.items[k->out.len - 1].other = a;
    }
  }
}

/* Evaluating edge e stays within the arrays. */
static void check_edge(checker *k, const ast_edge *e) {
  k->within = NULL;
  k->edge = e;
  if (e->kind == EDGE_RELATION) {
    check_indices(k, e->relation, NULL);
    return;
  }
  check_indices(k, e->guard, NULL);
  vec_foreach(&e->assigns, i) {
    check_indices(k, e->assigns.items[i].target, e->guard);
    check_indices(k, e->assigns.items[i].value, e->guard);
  }
  check_conflicts(k, e);
}

static const sem_checks *freeze_checks(checker *k) {
  sem_checks *c = arena_alloc(k->spec->arena, sizeof *c);
  sem_check *items = arena_alloc(k->spec->arena, (k->out.len + 1) * sizeof *items);
  if (k->out.len) memcpy(items, k->out.items, k->out.len * sizeof *items);
  *c = (sem_checks){items, k->out.len};
  k->out.len = 0;
  return c;
}

/* The checks of st, whose edges are out[0..n). */
static const sem_checks *state_checks(checker *k, const ast_thread *t, const ast_state *st, const int *out, int n) {
  if (st->assertion) check_expr(k, SEM_ASSERTION, st->assertion);
  vec_foreach(&t->invariants, i) check_expr(k, SEM_INVARIANT, t->invariants.items[i]);
  for (int i = 0; i < n; i++) check_edge(k, t->edges.items[out[i]]);
  return freeze_checks(k);
}

/* Gives every state of t its checks, visiting the edges by source state. */
static void thread_checks(checker *k, const ast_thread *t) {
  size_t n = t->states.len;
  int *first = xcalloc(n + 2, sizeof *first), *out = xcalloc(t->edges.len + 1, sizeof *out);
  vec_foreach(&t->edges, i) first[t->edges.items[i]->from_index + 2]++;
  for (size_t s = 2; s < n + 2; s++) first[s] += first[s - 1];
  vec_foreach(&t->edges, i) out[first[t->edges.items[i]->from_index + 1]++] = (int)i;
  vec_foreach(&t->states, s)
    t->states.items[s]->checks = state_checks(k, t, t->states.items[s], out + first[s], first[s + 1] - first[s]);
  free(first);
  free(out);
}

static const sem_checks *system_checks(checker *k) {
  vec_foreach(&k->spec->properties, i) check_expr(k, SEM_PROPERTY, k->spec->properties.items[i]);
  const sem_checks *c = freeze_checks(k);
  k->init = true;
  vec_foreach(&k->spec->inits, i) check_indices(k, k->spec->inits.items[i], NULL);
  k->out.len = 0; /* init predicates only need their indices known: none is left to check */
  return c;
}

/* ---------------------------------------------------------------- building */

/* A command that writes an element by an index that is not constant, as the
 * relation its plans solve: the guard and x' == e per assignment (the
 * frame rule needs no conjunct: the cells it keeps are not unknowns). */
static const ir_expr *dynamic_command(const ast_spec *spec, const ast_edge *e) {
  bool dynamic = false;
  vec_foreach(&e->assigns, i)
    dynamic |= e->assigns.items[i].target->kind == IR_INDEX && e->assigns.items[i].target->cell < 0;
  if (!dynamic) return NULL;
  const ir_expr *f = e->guard ? sem_lower(spec, e->guard) : NULL;
  vec_foreach(&e->assigns, i) {
    const ast_assign *as = &e->assigns.items[i];
    if (as->value) f = sem_join(spec, OP_AND, f, sem_binary(spec, OP_EQ, as->target, sem_lower(spec, as->value)));
  }
  return f ? f : sem_bool(spec, true);
}

static void plan_edge(const ast_spec *spec, ast_edge *e) {
  sem_writes w = {0};
  const ir_expr *r = NULL;
  if (e->kind == EDGE_RELATION) {
    r = sem_lower(spec, e->relation);
    sem_relation_writes(spec, r, &w);
  } else if ((r = dynamic_command(spec, e))) {
    sem_command_writes(spec, e, &w);
  }
  if (r) e->plans = sem_plan_relation(spec, r, &w);
  sem_writes_free(&w);
}

bool sem_build(ast_spec *spec) {
  checker k = {.spec = spec, .ok = true};
  vec_foreach(&spec->threads, t) thread_checks(&k, spec->threads.items[t]);
  spec->checks = system_checks(&k);
  vec_free(&k.out);
  vec_free(&k.reported);
  if (!k.ok) return false;
  vec_foreach(&spec->threads, t) {
    const ast_thread *th = spec->threads.items[t];
    vec_foreach(&th->edges, i) {
      ast_edge *e = th->edges.items[i];
      e->meaning = edge_meaning(spec, e);
      plan_edge(spec, e);
    }
  }
  spec->initial = initial_meaning(spec);
  spec->idle = idle_meaning(spec);
  spec->initial_plans = sem_plan_initial(spec);
  return true;
}

const sem_conj *sem_edge(const ast_edge *e) { return e->meaning; }

const sem_conj *sem_initial(const ast_spec *spec) { return spec->initial; }

const sem_conj *sem_idle(const ast_spec *spec) { return spec->idle; }

const sem_plans *sem_edge_plans(const ast_edge *e) { return e->plans; }

const sem_plans *sem_initial_plans(const ast_spec *spec) { return spec->initial_plans; }

const sem_checks *sem_state_checks(const ast_state *st) { return st->checks; }

const sem_checks *sem_system_checks(const ast_spec *spec) { return spec->checks; }
