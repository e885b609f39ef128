/* conformance/env-counters.c -- the conditions of ENV_FROM_COUNTERS
 * (environment.h): when a move may happen, by the affine invariants of the
 * counter system of check --for-all N.
 *
 * "Some state of the counter system satisfies the invariants, with the
 * instance in q and the mover in its edge's source state" is existential
 * over the counters. C(T, T#) gets it without them: as the values of the
 * shared variables that the invariants relate to counters, each value
 * decided here by Z3, because Spacer does far worse with fresh variables at
 * every move (measured on a CAS loop: no proof in 100 s, against 0.9 s).
 * Rows that mention a shared variable of unbounded range, or more than
 * MAX_RELATED_VALUES values in all, are left out: a weaker invariant, still
 * sound. */
#include "env-counters.h"

#include <stdio.h>
#include <stdlib.h>

#include "../compose/forall-param.h"
#include "../core/smt.h"

#define MAX_RELATED_VALUES 64

typedef struct decided {
  int thread, state;    /* the instance's thread and state */
  int mover, from;      /* the mover's thread and source state, or -1 */
  int64_t tid;          /* an explicit mover's tid, else 0 */
  const ir_expr *allow; /* the condition, or NULL: never */
} decided;

struct env_counters {
  smt *s;               /* Z3 */
  Z3_ast *shared;       /* per shared cell: its constant */
  Z3_ast *features;     /* per feature: its constant */
  bool *kept;           /* per row: part of the conditions */
  bool *moves_with_n;   /* per shared cell: its range depends on N (so it is unbounded here) */
  int *related;         /* the shared cells the kept rows mention */
  size_t related_count; /* how many */
  VEC(decided) done;    /* the conditions decided so far */
};

/* The domain of shared cell i: its number of values (0: unbounded, or a
 * range that depends on N) and the first. */
static int64_t domain_of(const conform_env *e, const env_counters *c, size_t i, int64_t *lo) {
  const ast_shared *g = e->spec->shared.items[i];
  *lo = 0;
  if (g->type.kind == TYPE_BOOL) return 2;
  if (g->type.kind != TYPE_RANGE || c->moves_with_n[i] || g->type.hi_value - g->type.lo_value >= MAX_RELATED_VALUES)
    return 0;
  *lo = g->type.lo_value;
  return g->type.hi_value - g->type.lo_value + 1;
}

/* Keeps the rows whose shared cells stay within the budget of values. */
static void relate(const conform_env *e, env_counters *c) {
  const forall_invariants *inv = e->invariants;
  size_t w = inv->feature_count + 1, values = 1;
  bool *in = xcalloc(e->spec->shared.len + 1, sizeof *in);
  c->kept = xcalloc(inv->row_count + 1, sizeof *c->kept);
  c->related = xcalloc(e->spec->shared.len + 1, sizeof *c->related);
  for (size_t r = 0; r < inv->row_count; r++) {
    size_t more = values;
    for (size_t k = 0; k < inv->feature_count && more; k++) {
      const fa_feature *f = &inv->features[k];
      if (!inv->rows[r * w + k] || f->kind != FA_FEATURE_SHARED || in[f->shared]) continue;
      int64_t lo, n = domain_of(e, c, (size_t)f->shared, &lo);
      more = n && more * (size_t)n <= MAX_RELATED_VALUES ? more * (size_t)n : 0;
    }
    if (!more) continue;
    c->kept[r] = true;
    values = more;
    for (size_t k = 0; k < inv->feature_count; k++)
      if (inv->rows[r * w + k] && inv->features[k].kind == FA_FEATURE_SHARED && !in[inv->features[k].shared])
        in[inv->features[k].shared] = true, c->related[c->related_count++] = inv->features[k].shared;
  }
  free(in);
}

env_counters *env_counters_new(const conform_env *e) {
  env_counters *c = xcalloc(1, sizeof *c);
  c->s = smt_new();
  c->shared = xcalloc(e->spec->shared.len + 1, sizeof *c->shared);
  c->features = xcalloc(e->invariants->feature_count + 1, sizeof *c->features);
  char name[40];
  vec_foreach(&e->spec->shared, i) {
    snprintf(name, sizeof name, "g%zu", i);
    c->shared[i] = smt_var(c->s, name, e->spec->shared.items[i]->type.kind == TYPE_BOOL);
  }
  for (size_t k = 0; k < e->invariants->feature_count; k++) {
    snprintf(name, sizeof name, "f%zu", k);
    c->features[k] = smt_var(c->s, name, false);
  }
  int param = fa_const_index(e->spec, e->invariants->param);
  bool *depends = fa_dependent_consts(e->spec, param);
  c->moves_with_n = xcalloc(e->spec->shared.len + 1, sizeof *c->moves_with_n);
  vec_foreach(&e->spec->shared, i)
    c->moves_with_n[i] = fa_range_depends(&e->spec->shared.items[i]->type, param, depends);
  free(depends);
  relate(e, c);
  return c;
}

void env_counters_free(env_counters *c) {
  if (!c) return;
  smt_free(c->s);
  free(c->shared);
  free(c->features);
  free(c->kept);
  free(c->moves_with_n);
  free(c->related);
  vec_free(&c->done);
  free(c);
}

/* Feature k as a Z3 term (a shared bool as 1 or 0). */
static Z3_ast feature(const conform_env *e, size_t k) {
  env_counters *c = e->counters;
  const fa_feature *f = &e->invariants->features[k];
  if (f->kind != FA_FEATURE_SHARED) return c->features[k];
  Z3_ast g = c->shared[f->shared];
  if (e->spec->shared.items[f->shared]->type.kind != TYPE_BOOL) return g;
  return smt_ite(c->s, g, smt_int(c->s, 1), smt_int(c->s, 0));
}

/* The instances of thread in state (leaving out explicit instance skip). */
static Z3_ast instances_in(const conform_env *e, int thread, int state, int64_t skip) {
  VEC(Z3_ast) terms = {0};
  for (size_t k = 0; k < e->invariants->feature_count; k++) {
    const fa_feature *f = &e->invariants->features[k];
    if ((f->kind == FA_FEATURE_COUNT || (f->kind == FA_FEATURE_AT && f->tid != skip)) && f->thread == thread &&
        f->state == state)
      vec_push(NULL, &terms, feature(e, k));
  }
  Z3_ast sum = smt_add(e->counters->s, (unsigned)terms.len, terms.items);
  vec_free(&terms);
  return sum;
}

static Z3_ast at_least(const conform_env *e, Z3_ast t, int64_t k) {
  return smt_le(e->counters->s, smt_int(e->counters->s, k), t);
}

/* Row r as an equation. */
static Z3_ast equation(const conform_env *e, const int64_t *row) {
  smt *s = e->counters->s;
  size_t n = e->invariants->feature_count;
  Z3_ast *terms = xcalloc(n + 1, sizeof *terms);
  unsigned count = 0;
  for (size_t k = 0; k < n; k++) {
    if (!row[k]) continue;
    Z3_ast product[2] = {smt_int(s, row[k]), feature(e, k)};
    terms[count++] = smt_keep(s, Z3_mk_mul(smt_z3(s), 2, product));
  }
  Z3_ast sum = smt_add(s, count, terms);
  free(terms);
  return smt_eq(s, sum, smt_int(s, row[n]));
}

/* A state of the counter system where the kept invariants hold: counters
 * >= 0 summing to N >= 1 per counted thread, each explicit instance in one
 * state. */
static void assert_invariants(const conform_env *e, Z3_solver sv) {
  const forall_invariants *inv = e->invariants;
  smt *s = e->counters->s;
  Z3_context z = smt_z3(s);
  Z3_ast n = NULL;
  for (size_t k = 0; k < inv->feature_count; k++) {
    const fa_feature *f = &inv->features[k];
    if (f->kind == FA_FEATURE_PARAM) n = feature(e, k);
    if (f->kind == FA_FEATURE_COUNT || f->kind == FA_FEATURE_AT) Z3_solver_assert(z, sv, at_least(e, feature(e, k), 0));
  }
  Z3_solver_assert(z, sv, at_least(e, n, 1));
  for (size_t k = 0; k < inv->feature_count; k++) {
    const fa_feature *f = &inv->features[k];
    if (f->kind != FA_FEATURE_AT || f->state != 0) continue;
    VEC(Z3_ast) one = {0};
    for (size_t j = k;
         j < inv->feature_count && inv->features[j].kind == FA_FEATURE_AT && inv->features[j].tid == f->tid; j++)
      vec_push(NULL, &one, feature(e, j));
    Z3_solver_assert(z, sv, smt_eq(s, smt_add(s, (unsigned)one.len, one.items), smt_int(s, 1)));
    vec_free(&one);
  }
  vec_foreach(&e->spec->threads, t) {
    if (!inv->counted[t]) continue;
    VEC(Z3_ast) all = {0};
    vec_foreach(&e->spec->threads.items[t]->states, q) vec_push(NULL, &all, instances_in(e, (int)t, (int)q, -1));
    Z3_solver_assert(z, sv, smt_eq(s, smt_add(s, (unsigned)all.len, all.items), n));
    vec_free(&all);
  }
  for (size_t r = 0; r < inv->row_count; r++)
    if (e->counters->kept[r]) Z3_solver_assert(z, sv, equation(e, inv->rows + r * (inv->feature_count + 1)));
}

/* The instance (of d's thread, in d's state) and the mover (if any) are in
 * their states: for a counted mover of the same thread and state, two. */
static Z3_ast placed(const conform_env *e, const decided *d) {
  smt *s = e->counters->s;
  if (d->mover < 0) return at_least(e, instances_in(e, d->thread, d->state, -1), 1);
  if (e->invariants->counted[d->mover]) {
    Z3_ast both[2] = {
        at_least(e, instances_in(e, d->thread, d->state, -1), 1),
        at_least(e, instances_in(e, d->mover, d->from, -1), d->mover == d->thread && d->from == d->state ? 2 : 1)};
    return smt_and(s, 2, both);
  }
  Z3_ast mover = smt_bool(s, false);
  for (size_t k = 0; k < e->invariants->feature_count; k++) {
    const fa_feature *f = &e->invariants->features[k];
    if (f->kind == FA_FEATURE_AT && f->tid == d->tid && f->state == d->from) mover = at_least(e, feature(e, k), 1);
  }
  Z3_ast both[2] = {at_least(e, instances_in(e, d->thread, d->state, d->tid), 1), mover};
  return smt_and(s, 2, both);
}

/* The spec expression "cell == value". */
static const ir_expr *cell_is(const conform_env *e, int cell, int64_t value) {
  const ast_shared *g = e->spec->shared.items[cell];
  ir_expr *name = ir_name(e->arena, (loc){0, 0}, g->name, false);
  name->ref = REF_SHARED;
  name->index = cell;
  name->type = g->type.kind == TYPE_BOOL ? TY_BOOL : TY_INT;
  if (g->type.kind == TYPE_BOOL) {
    if (value) return name;
    ir_expr *not = ir_unary(e->arena, name->at, OP_NOT, name);
    not ->type = TY_BOOL;
    return not ;
  }
  uint64_t magnitude = value < 0 ? 0 - (uint64_t)value : (uint64_t)value;
  ir_expr *v = ir_int_magnitude(e->arena, name->at, magnitude);
  v->type = TY_INT;
  if (value < 0) {
    v = ir_unary(e->arena, name->at, OP_NEG, v);
    v->type = TY_INT;
  }
  ir_expr *eq = ir_binary(e->arena, name->at, OP_EQ, name, v);
  eq->type = TY_BOOL;
  return eq;
}

static const ir_expr *joined(const conform_env *e, ir_op op, const ir_expr *acc, const ir_expr *x) {
  if (!acc) return x;
  ir_expr *j = ir_binary(e->arena, x->at, op, (ir_expr *)acc, (ir_expr *)x);
  j->type = TY_BOOL;
  return j;
}

/* OR over the values of the related cells for which Z3 finds (or cannot
 * rule out) a state of the counter system: NULL when none, true when all. */
static const ir_expr *decide(const conform_env *e, const decided *d) {
  env_counters *c = e->counters;
  Z3_context z = smt_z3(c->s);
  Z3_solver sv = smt_solver(c->s, 0, false);
  assert_invariants(e, sv);
  Z3_solver_assert(z, sv, placed(e, d));
  size_t total = 1, found = 0;
  int64_t *lo = xcalloc(c->related_count + 1, sizeof *lo), *size = xcalloc(c->related_count + 1, sizeof *size);
  for (size_t i = 0; i < c->related_count; i++)
    total *= (size_t)(size[i] = domain_of(e, c, (size_t)c->related[i], &lo[i]));
  const ir_expr *any = NULL;
  for (size_t v = 0; v < total; v++) {
    Z3_solver_push(z, sv);
    const ir_expr *these = NULL;
    for (size_t i = 0, rest = v; i < c->related_count; rest /= (size_t)size[i], i++) {
      int64_t value = lo[i] + (int64_t)(rest % (size_t)size[i]);
      Z3_ast g = c->shared[c->related[i]];
      Z3_solver_assert(z, sv,
                       e->spec->shared.items[c->related[i]]->type.kind == TYPE_BOOL
                           ? (value ? g : smt_not(c->s, g))
                           : smt_eq(c->s, g, smt_int(c->s, value)));
      these = joined(e, OP_AND, these, cell_is(e, c->related[i], value));
    }
    if (smt_check(c->s, sv, 0) != Z3_L_FALSE && ++found && these) any = joined(e, OP_OR, any, these);
    Z3_solver_pop(z, sv, 1);
  }
  Z3_solver_dec_ref(z, sv);
  free(lo);
  free(size);
  if (found == total) { /* (with no related cells: one check) */
    ir_expr *t = ir_bool(e->arena, (loc){0, 0}, true);
    t->type = TY_BOOL;
    return t;
  }
  return any;
}

/* d's condition, decided once. */
static const ir_expr *remembered(const conform_env *e, decided d) {
  vec_foreach(&e->counters->done, i) {
    const decided *o = &e->counters->done.items[i];
    if (o->thread == d.thread && o->state == d.state && o->mover == d.mover && o->from == d.from && o->tid == d.tid)
      return o->allow;
  }
  d.allow = decide(e, &d);
  vec_push(NULL, &e->counters->done, d);
  return d.allow;
}

const ir_expr *env_counters_allow(const conform_env *e, const ast_thread *t, int q, size_t m) {
  decided d = {.thread = t->index, .state = q, .mover = -1, .from = -1};
  if (m != SIZE_MAX) {
    const env_move *mv = &e->moves[m];
    d.mover = mv->thread->index;
    d.from = mv->thread->edges.items[mv->edge]->from_index;
    d.tid = e->invariants->counted[d.mover] ? 0 : mv->tid;
  }
  return remembered(e, d);
}

const ir_expr *env_counters_together(const conform_env *e, int ta, int qa, int tb, int qb, int64_t tid) {
  decided d = {.thread = ta, .state = qa, .mover = tb, .from = qb, .tid = e->invariants->counted[tb] ? 0 : tid};
  return remembered(e, d);
}
