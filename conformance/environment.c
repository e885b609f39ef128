/* conformance/environment.c -- the moves of the other instances, and when
 * each may happen (environment.h). */
#include "environment.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../compose/forall-param.h"
#include "../compose/run.h"
#include "../core/smt.h"
#include "../core/strbuf.h"

/* The table of allowed moves grows with instances^2 * states * edges; past
 * this many bits the moves are taken from the edges alone. */
#define MAX_ALLOWED_BITS ((size_t)1 << 26)
/* The most rows (tid, state, shared values) of the reachable states kept. */
#define MAX_VALUE_ROWS ((size_t)1 << 16)

/* Every move of every instance, in tid order, edges in their order. */
static void list_moves(conform_env *e) {
  const ast_spec *spec = e->spec;
  size_t count = 0;
  vec_foreach(&spec->instances, k)
    count += (size_t)spec->instances.items[k]->count_value * spec->threads.items[spec->instances.items[k]->thread_index]->edges.len;
  e->moves = xcalloc(count + 1, sizeof *e->moves);
  vec_foreach(&spec->instances, k) {
    const ast_instance *in = spec->instances.items[k];
    const ast_thread *t = spec->threads.items[in->thread_index];
    for (int64_t n = 0; n < in->count_value; n++) {
      const char *name = in->count_value == 1 ? t->name : arena_printf(e->arena, "%s[%" PRId64 "]", t->name, n + 1);
      vec_foreach(&t->edges, d)
        e->moves[e->move_count++] = (env_move){in->first_tid + n, name, t, (int)d, in->count_value > 1 && !t->uses_tid};
    }
  }
}

static void set_stride(conform_env *e) {
  vec_foreach(&e->spec->threads, i)
    if (e->spec->threads.items[i]->states.len > e->state_stride) e->state_stride = e->spec->threads.items[i]->states.len;
}

static size_t bit_of(const conform_env *e, int64_t tid, int state, size_t m) {
  return ((size_t)(tid - 1) * e->state_stride + (size_t)state) * e->move_count + m;
}

/* ---------------------------------------------------------------- from the reachable states */

typedef struct observer {
  conform_env *e;
  size_t first_instance; /* the slot of tid 1 */
  size_t *first_move;    /* per tid - 1: its first move */
  VEC(int64_t) rows;     /* rows (tid, state, shared values), with repeats until sorted */
  bool too_many;         /* more distinct rows than MAX_VALUE_ROWS: none are kept */
} observer;

static size_t row_width(const conform_env *e) { return e->spec->shared.len + 2; }

static size_t g_width; /* qsort's comparator has no context: the row width while sorting */

static int compare_rows(const void *a, const void *b) {
  const int64_t *x = a, *y = b;
  for (size_t k = 0; k < g_width; k++)
    if (x[k] != y[k]) return x[k] < y[k] ? -1 : 1;
  return 0;
}

/* Sorts the rows and drops repeats. */
static void dedupe_rows(observer *o) {
  size_t w = row_width(o->e), n = o->rows.len / w, kept = 0;
  g_width = w;
  qsort(o->rows.items, n, w * sizeof *o->rows.items, compare_rows);
  for (size_t i = 0; i < n; i++)
    if (kept == 0 || compare_rows(o->rows.items + (kept - 1) * w, o->rows.items + i * w) != 0)
      memmove(o->rows.items + kept++ * w, o->rows.items + i * w, w * sizeof *o->rows.items);
  o->rows.len = kept * w;
}

/* A state the search expands: one row per instance. */
static void record_values(observer *o, const int64_t *state) {
  conform_env *e = o->e;
  size_t shared = e->spec->shared.len;
  for (int64_t tid = 1; tid <= e->spec->instance_total && !o->too_many; tid++) {
    vec_push(NULL, &o->rows, tid);
    vec_push(NULL, &o->rows, state[o->first_instance + (size_t)tid - 1]);
    for (size_t k = 0; k < shared; k++) vec_push(NULL, &o->rows, state[k]);
  }
  if (o->too_many || o->rows.len / row_width(e) < 2 * MAX_VALUE_ROWS) return;
  dedupe_rows(o);
  if (o->rows.len / row_width(e) > MAX_VALUE_ROWS) o->too_many = true, o->rows.len = 0;
}

/* The step (j, edge) leaves src: every other instance's state there allows it. */
static void observe(void *ctx, const int64_t *src, const mdl_step *step) {
  observer *o = ctx;
  conform_env *e = o->e;
  if (!step) return record_values(o, src);
  int64_t mover = (int64_t)((size_t)step->slot - o->first_instance) + 1;
  size_t m = o->first_move[mover - 1] + (size_t)step->edge;
  for (int64_t tid = 1; tid <= e->spec->instance_total; tid++) {
    if (tid == mover) continue;
    size_t b = bit_of(e, tid, (int)src[o->first_instance + (size_t)tid - 1], m);
    e->allowed[b / 8] |= (uint8_t)(1u << (b % 8));
  }
}

static bool from_reachable(conform_env *e, ast_spec *spec, const explicit_options *limits) {
  size_t bits = (size_t)spec->instance_total * e->state_stride * e->move_count;
  if (spec->instance_total > 0 && bits / (size_t)spec->instance_total / e->state_stride != e->move_count) bits = SIZE_MAX;
  if (bits > MAX_ALLOWED_BITS) {
    snprintf(e->why, sizeof e->why, "the system has too many instances and edges to tabulate");
    return false;
  }
  e->allowed = xcalloc(bits / 8 + 1, 1);
  observer o = {.e = e, .first_instance = spec->shared.len};
  o.first_move = xcalloc((size_t)spec->instance_total + 1, sizeof *o.first_move);
  for (size_t m = e->move_count; m-- > 0;) o.first_move[e->moves[m].tid - 1] = m;
  explicit_options l = *limits;
  l.observe = observe;
  l.observe_ctx = &o;
  l.progress = NULL;
  bool complete = compose_explore(spec, &l, &e->states, e->why, sizeof e->why);
  free(o.first_move);
  if (complete && !o.too_many) dedupe_rows(&o);
  if (complete && !o.too_many && o.rows.len / row_width(e) <= MAX_VALUE_ROWS) {
    e->values = o.rows.items;
    e->value_count = o.rows.len / row_width(e);
  } else {
    vec_free(&o.rows);
  }
  return complete;
}

/* ---------------------------------------------------------------- from the counters
 * "Some state of the counter system satisfies the invariants, with the
 * instance in q and the mover in its edge's source state" is existential
 * over the counters. C(T, T#) gets it without them: as the values of the
 * shared variables that the invariants relate to counters, each value
 * decided here by Z3, because Spacer does far worse with fresh variables at
 * every move (measured on a CAS loop: no proof in 100 s, against 0.9 s).
 * Rows that mention a shared variable of unbounded range, or more than
 * MAX_RELATED_VALUES values in all, are left out: a weaker invariant, still
 * sound. */

#define MAX_RELATED_VALUES 64

typedef struct decided {
  int thread, state;  /* the instance's thread and state */
  int mover, from;    /* the mover's thread and source state, or -1 */
  int64_t tid;        /* an explicit mover's tid, else 0 */
  const ir_expr *allow; /* the condition, or NULL: never */
} decided;

typedef struct env_counters {
  smt *s;               /* Z3 */
  Z3_ast *shared;       /* per shared cell: its constant */
  Z3_ast *features;     /* per feature: its constant */
  bool *kept;           /* per row: part of the conditions */
  bool *moves_with_n;   /* per shared cell: its range depends on N (so it is unbounded here) */
  int *related;         /* the shared cells the kept rows mention */
  size_t related_count; /* how many */
  VEC(decided) done;    /* the conditions decided so far */
} env_counters;

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

static env_counters *counters_new(const conform_env *e) {
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
  vec_foreach(&e->spec->shared, i) {
    const ast_type *ty = &e->spec->shared.items[i]->type;
    c->moves_with_n[i] = ty->kind == TYPE_RANGE && (fa_mentions(param, depends, ty->lo) || fa_mentions(param, depends, ty->hi));
  }
  free(depends);
  relate(e, c);
  return c;
}

static void counters_free(env_counters *c) {
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
    for (size_t j = k; j < inv->feature_count && inv->features[j].kind == FA_FEATURE_AT && inv->features[j].tid == f->tid; j++)
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
    Z3_ast both[2] = {at_least(e, instances_in(e, d->thread, d->state, -1), 1),
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
    not->type = TY_BOOL;
    return not;
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
  for (size_t i = 0; i < c->related_count; i++) total *= (size_t)(size[i] = domain_of(e, c, (size_t)c->related[i], &lo[i]));
  const ir_expr *any = NULL;
  for (size_t v = 0; v < total; v++) {
    Z3_solver_push(z, sv);
    const ir_expr *these = NULL;
    for (size_t i = 0, rest = v; i < c->related_count; rest /= (size_t)size[i], i++) {
      int64_t value = lo[i] + (int64_t)(rest % (size_t)size[i]);
      Z3_ast g = c->shared[c->related[i]];
      Z3_solver_assert(z, sv, e->spec->shared.items[c->related[i]]->type.kind == TYPE_BOOL ? (value ? g : smt_not(c->s, g)) : smt_eq(c->s, g, smt_int(c->s, value)));
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

const ir_expr *env_counters_allow(const conform_env *e, const ast_thread *t, int q, size_t m) {
  decided d = {.thread = t->index, .state = q, .mover = -1, .from = -1};
  if (m != SIZE_MAX) {
    const env_move *mv = &e->moves[m];
    d.mover = mv->thread->index;
    d.from = mv->thread->edges.items[mv->edge]->from_index;
    d.tid = e->invariants->counted[d.mover] ? 0 : mv->tid;
  }
  vec_foreach(&e->counters->done, i) {
    const decided *o = &e->counters->done.items[i];
    if (o->thread == d.thread && o->state == d.state && o->mover == d.mover && o->from == d.from && o->tid == d.tid)
      return o->allow;
  }
  d.allow = decide(e, &d);
  vec_push(NULL, &e->counters->done, d);
  return d.allow;
}

/* ---------------------------------------------------------------- entry */

void env_build(ast_spec *spec, env_kind kind, const explicit_options *limits, conform_env *out) {
  memset(out, 0, sizeof *out);
  out->spec = spec;
  out->arena = arena_new();
  if (kind == ENV_HAVOC) {
    out->source = ENV_FROM_HAVOC;
    snprintf(out->text, sizeof out->text, "between two steps the other threads may set the shared variables to any "
                                          "values (--env havoc)");
    return;
  }
  list_moves(out);
  set_stride(out);
  out->source = from_reachable(out, spec, limits) ? ENV_FROM_REACHABLE : ENV_FROM_EDGES;
  if (out->source == ENV_FROM_REACHABLE)
    snprintf(out->text, sizeof out->text,
             "between two steps the other threads take edges of the spec, each where the abstract system can take "
             "it (all %" PRIu64 " reachable states explored: the abstract system is safe)",
             out->states);
  else
    snprintf(out->text, sizeof out->text,
             "between two steps the other threads take any edges of the spec, in any state (%s)", out->why);
  if (out->source == ENV_FROM_EDGES) {
    free(out->allowed);
    out->allowed = NULL;
  }
}

void env_build_for_all(ast_spec *spec, const forall_invariants *inv, conform_env *out) {
  memset(out, 0, sizeof *out);
  out->spec = spec;
  out->arena = arena_new();
  out->source = ENV_FROM_COUNTERS;
  out->invariants = inv;
  list_moves(out);
  out->counters = counters_new(out);
  for (size_t m = 0; m < out->move_count; m++)
    out->moves[m].grouped = out->moves[m].grouped || inv->counted[out->moves[m].thread->index];
  snprintf(out->text, sizeof out->text,
           "between two steps the other threads take edges of the spec, each where the %zu affine invariant%s of "
           "the counter abstraction allow%s it (they hold for every %s)",
           inv->row_count, inv->row_count == 1 ? "" : "s", inv->row_count == 1 ? "s" : "", inv->param);
}

/* Under ENV_FROM_COUNTERS a counted thread's move is another instance's,
 * whatever tid it was listed with: the counters say whether there is one. */
bool env_allows(const conform_env *e, int64_t tid, int state, size_t m) {
  if (e->source == ENV_FROM_COUNTERS && e->invariants->counted[e->moves[m].thread->index]) return true;
  if (e->moves[m].tid == tid) return false;
  if (e->source != ENV_FROM_REACHABLE) return true;
  size_t b = bit_of(e, tid, state, m);
  return (e->allowed[b / 8] >> (b % 8)) & 1u;
}

void env_describe_move(const conform_env *e, size_t m, strbuf *out) {
  const env_move *mv = &e->moves[m];
  const ast_edge *d = mv->thread->edges.items[mv->edge];
  if (mv->grouped) sbuf_printf(out, "another %s", mv->thread->name);
  else sbuf_puts(out, mv->instance);
  sbuf_printf(out, " takes %s -> %s", d->from, d->to);
  if (d->label) sbuf_printf(out, " \"%s\"", d->label);
}

const int64_t *env_values(const conform_env *e, int64_t tid, int state, size_t *count) {
  *count = 0;
  if (!e->values) return NULL;
  size_t w = row_width(e), lo = 0, hi = e->value_count;
  while (lo < hi) { /* the first row at or after (tid, state) */
    size_t mid = (lo + hi) / 2;
    const int64_t *r = e->values + mid * w;
    if (r[0] < tid || (r[0] == tid && r[1] < state)) lo = mid + 1;
    else hi = mid;
  }
  size_t end = lo;
  while (end < e->value_count && e->values[end * w] == tid && e->values[end * w + 1] == state) end++;
  *count = end - lo;
  return e->values + lo * w;
}

const char *env_source_name(env_source s) {
  static const char *const names[] = {"havoc", "reachable", "edges", "counters"};
  return names[s];
}

void env_free(conform_env *e) {
  counters_free(e->counters);
  free(e->moves);
  free(e->allowed);
  free(e->values);
  arena_free(e->arena);
  memset(e, 0, sizeof *e);
}
