/* compose/forall-counters.c -- the counter system of --for-all: its state
 * layout, its formulas, and its affine invariants. */
#include "forall-counters.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/arena.h"
#include "../core/strbuf.h"
#include "../spec-lang/semantics.h"
#include "edge-smt.h"
#include "forall-hull.h"
#include "forall-param.h"

typedef enum slot_kind { FA_SHARED, FA_INSTANCE, FA_COUNTER, FA_PARAM } slot_kind;

typedef struct fa_slot {
  slot_kind kind;   /* what the constant stands for */
  char *name;       /* shown in the certificate: "pendingIO", "Stopper", "count(Worker@Work)", "N" */
  bool is_bool;     /* a Bool constant (shared bool) */
  int thread;       /* FA_INSTANCE, FA_COUNTER: its thread */
  int state;        /* FA_COUNTER: its state */
  int64_t tid_base; /* FA_INSTANCE: tid = tid_base + tid_per_n * N */
  int64_t tid_per_n;
} fa_slot;

typedef struct choice {
  int slot;   /* FA_INSTANCE: the instance's slot; -1 for a counted step */
  int thread; /* its thread */
  int edge;   /* the thread's edge */
} choice;

typedef VEC(Z3_ast) term_list;

typedef struct fa_counters encoder;

struct fa_counters {
  sym_system sys;       /* the counter system as a symbolic system */
  smt *s;               /* Z3 */
  const ast_spec *spec; /* the system */
  arena *arena;         /* rewritten expressions */
  int param;            /* const index of N */
  bool *depends;        /* per const: its value depends on N (not fixed by --set) */
  bool *counted;        /* per thread: has N instances */
  int *first_slot;      /* per thread: first instance slot or first counter slot */
  fa_slot *slots;       /* the state layout */
  size_t width;         /* entries in slots; the last one is N */
  int shared_count;     /* slots [0, shared_count) are shared variables */
  int64_t *consts;      /* per const: its value (for consts independent of N) */
  choice *choices;      /* every step */
  size_t choice_count;  /* entries in choices */
  Z3_ast *vars;         /* the state the count/at callbacks read */
  int64_t *hint_rows;   /* affine invariants: per row, a coefficient per feature and the constant */
  size_t hint_count;    /* rows in hint_rows */
  size_t feature_count; /* features of a state (see features()) */
  bool hints_on;        /* domains() includes the affine invariants */
  double deadline;      /* for the hints: CLOCK_MONOTONIC seconds, 0 = none */
  int64_t *control;     /* per slot: control states of an explicit instance, else 0 */
  sym_move *moves;      /* per step: the explicit instance it moves */
};

/* ---------------------------------------------------------------- N in expressions */

/* x with N read as program variable 0 (the symbolic N) and consts computed
 * from N replaced by their definitions; x itself when it does not mention N. */
static const ir_expr *symbolic(encoder *e, const ir_expr *x) {
  if (!x || !fa_mentions(e->param, e->depends, x)) return x;
  if (x->kind == IR_QUANT) return symbolic(e, x->lowered); /* its range does not read N (forall_applicable) */
  if (x->kind == IR_NAME && x->ref == REF_CONST && x->index != e->param)
    return symbolic(e, e->spec->consts.items[x->index]->value_expr);
  ir_expr *c = arena_alloc(e->arena, sizeof *c);
  *c = *x;
  if (x->kind == IR_NAME) {
    c->ref = REF_VAR;
    c->index = 0;
    return c;
  }
  c->a = (ir_expr *)symbolic(e, x->a);
  c->b = (ir_expr *)symbolic(e, x->b);
  c->c = (ir_expr *)symbolic(e, x->c);
  return c;
}

/* ---------------------------------------------------------------- states */

static Z3_ast *state_vars(void *ctx, const char *suffix) {
  encoder *e = ctx;
  Z3_ast *v = xcalloc(e->width + 1, sizeof *v);
  char name[200];
  for (size_t i = 0; i < e->width; i++) {
    snprintf(name, sizeof name, "%s@%s", e->slots[i].name, suffix);
    v[i] = smt_var(e->s, name, e->slots[i].is_bool);
  }
  return v;
}

Z3_ast fa_param_of(const encoder *e, Z3_ast *v) { return v[e->width - 1]; }

static Z3_ast count_cb(void *ctx, int thread, int state) {
  encoder *e = ctx;
  if (e->counted[thread]) return e->vars[e->first_slot[thread] + state];
  VEC(Z3_ast) terms = {0};
  for (size_t i = (size_t)e->shared_count; i < e->width; i++) {
    if (e->slots[i].kind != FA_INSTANCE || e->slots[i].thread != thread) continue;
    Z3_ast here = smt_eq(e->s, e->vars[i], smt_int(e->s, state));
    vec_push(NULL, &terms, smt_ite(e->s, here, smt_int(e->s, 1), smt_int(e->s, 0)));
  }
  Z3_ast sum = smt_add(e->s, (unsigned)terms.len, terms.items);
  vec_free(&terms);
  return sum;
}

/* Only explicit threads get here (forall_applicable rejects the others). */
static Z3_ast at_cb(void *ctx, int thread, int64_t index, int state) {
  encoder *e = ctx;
  return smt_eq(e->s, e->vars[e->first_slot[thread] + (size_t)index - 1], smt_int(e->s, state));
}

static smt_env env_of(encoder *e, Z3_ast *cur, Z3_ast *next, Z3_ast tid) {
  e->vars = cur;
  return (smt_env){.cur = cur,
                   .next = next,
                   .vars = &cur[e->width - 1],
                   .tid = tid,
                   .consts = e->consts,
                   .count = count_cb,
                   .at = at_cb,
                   .ctx = e};
}

static Z3_ast term(encoder *e, const ir_expr *x, const smt_env *env) { return smt_expr(e->s, symbolic(e, x), env); }
/* term as an esmt_term. */
static Z3_ast term_of(void *e, const ir_expr *x, const smt_env *env) { return term(e, x, env); }

static Z3_ast tid_of(encoder *e, Z3_ast *v, size_t slot) {
  const fa_slot *sl = &e->slots[slot];
  if (sl->tid_per_n == 0) return smt_int(e->s, sl->tid_base);
  Z3_context c = smt_z3(e->s);
  Z3_ast prod[2] = {smt_int(e->s, sl->tid_per_n), fa_param_of(e, v)};
  Z3_ast sum[2] = {smt_int(e->s, sl->tid_base), smt_keep(e->s, Z3_mk_mul(c, 2, prod))};
  return smt_add(e->s, 2, sum);
}

static Z3_ast ge(encoder *e, Z3_ast a, int64_t k) { return smt_le(e->s, smt_int(e->s, k), a); }

/* ---------------------------------------------------------------- affine invariants
 * (forall-hull.c): guessed before the proof, given to Spacer, left out of
 * the re-check. */

static Z3_ast domains(void *ctx, Z3_ast *v);

/* The integer features of a state: shared ints, shared bools as 0/1, one
 * indicator per state of each explicit instance, the counters, N. Owned array. */
static Z3_ast *features(void *ctx, Z3_ast *v) {
  encoder *e = ctx;
  Z3_ast *f = xcalloc(e->feature_count + 1, sizeof *f), one = smt_int(e->s, 1), zero = smt_int(e->s, 0);
  size_t n = 0;
  for (size_t i = 0; i < e->width; i++) {
    const fa_slot *sl = &e->slots[i];
    if (sl->is_bool) f[n++] = smt_ite(e->s, v[i], one, zero);
    else if (sl->kind != FA_INSTANCE) f[n++] = v[i];
    else
      vec_foreach(&e->spec->threads.items[sl->thread]->states, k)
        f[n++] = smt_ite(e->s, smt_eq(e->s, v[i], smt_int(e->s, (int64_t)k)), one, zero);
  }
  return f;
}

static hull_system hull_view(encoder *e) { return (hull_system){&e->sys, e->feature_count, e->deadline, features}; }

/* The affine invariants (e->hint_rows), sampled over at most 2 * states + 4
 * steps (at most 40) within the hull's fixed amount of Z3 work and, under a
 * deadline, a quarter of the time left. */
void fa_guess_hints(encoder *e, double deadline) {
  e->deadline = deadline;
  e->feature_count = 0;
  for (size_t i = 0; i < e->width; i++)
    e->feature_count += e->slots[i].kind == FA_INSTANCE ? e->spec->threads.items[e->slots[i].thread]->states.len : 1;
  size_t states = 0;
  vec_foreach(&e->spec->threads, t) states += e->spec->threads.items[t]->states.len;
  unsigned depth = (unsigned)(2 * states + 4 < 40 ? 2 * states + 4 : 40);
  double budget = e->deadline > 0 ? (e->deadline - smt_now()) / 4 : 0;
  hull_system h = hull_view(e);
  e->hint_rows = hull_invariants(&h, depth, budget, &e->hint_count);
}

/* The feature of slot i (its first, for an explicit instance: one per state). */
static fa_feature feature_of(const encoder *e, size_t i) {
  const fa_slot *sl = &e->slots[i];
  int64_t n = e->spec->consts.items[e->param]->value;
  switch (sl->kind) {
  case FA_SHARED: return (fa_feature){.kind = FA_FEATURE_SHARED, .shared = (int)i, .thread = -1};
  case FA_INSTANCE:
    return (fa_feature){
        .kind = FA_FEATURE_AT, .shared = -1, .thread = sl->thread, .tid = sl->tid_base + sl->tid_per_n * n};
  case FA_COUNTER:
    return (fa_feature){.kind = FA_FEATURE_COUNT, .shared = -1, .thread = sl->thread, .state = sl->state};
  default: return (fa_feature){.kind = FA_FEATURE_PARAM, .shared = -1, .thread = -1};
  }
}

/* In the order of features(). */
void fa_export_hints(const encoder *e, forall_invariants *inv) {
  memset(inv, 0, sizeof *inv);
  inv->param = e->spec->consts.items[e->param]->name;
  inv->features = xcalloc(e->feature_count + 1, sizeof *inv->features);
  for (size_t i = 0; i < e->width; i++) {
    fa_feature f = feature_of(e, i);
    size_t states = f.kind == FA_FEATURE_AT ? e->spec->threads.items[f.thread]->states.len : 1;
    for (size_t k = 0; k < states; k++, inv->feature_count++) {
      inv->features[inv->feature_count] = f;
      if (f.kind == FA_FEATURE_AT) inv->features[inv->feature_count].state = (int)k;
    }
  }
  size_t cells = e->hint_count * (e->feature_count + 1);
  inv->rows = xcalloc(cells + 1, sizeof *inv->rows);
  if (cells) memcpy(inv->rows, e->hint_rows, cells * sizeof *inv->rows);
  inv->row_count = e->hint_count;
  inv->counted = xcalloc(e->spec->threads.len + 1, sizeof *inv->counted);
  vec_foreach(&e->spec->threads, t) inv->counted[t] = e->counted[t];
}

/* Ranges, control states, counters >= 0 summing to N per counted thread, N >= 1
 * (and the affine invariants when hints_on). */
static Z3_ast domains(void *ctx, Z3_ast *v) {
  encoder *e = ctx;
  VEC(Z3_ast) c = {0};
  smt_env env = env_of(e, v, NULL, NULL);
  vec_foreach(&e->spec->shared, i) {
    const ast_type *ty = &e->spec->shared.items[i]->type;
    if (ty->kind != TYPE_RANGE) continue;
    vec_push(NULL, &c, smt_le(e->s, term(e, ty->lo, &env), v[i]));
    vec_push(NULL, &c, smt_le(e->s, v[i], term(e, ty->hi, &env)));
  }
  vec_foreach(&e->spec->threads, t) {
    const ast_thread *th = e->spec->threads.items[t];
    if (!e->counted[t]) continue;
    Z3_ast *cs = &v[e->first_slot[t]];
    vec_foreach(&th->states, k) vec_push(NULL, &c, ge(e, cs[k], 0));
    vec_push(NULL, &c, smt_eq(e->s, smt_add(e->s, (unsigned)th->states.len, cs), fa_param_of(e, v)));
  }
  for (size_t i = 0; i < e->width; i++) {
    if (e->slots[i].kind != FA_INSTANCE) continue;
    vec_push(NULL, &c, ge(e, v[i], 0));
    vec_push(NULL, &c,
             smt_le(e->s, v[i], smt_int(e->s, (int64_t)e->spec->threads.items[e->slots[i].thread]->states.len - 1)));
  }
  vec_push(NULL, &c, ge(e, fa_param_of(e, v), 1));
  if (e->hints_on) {
    hull_system h = hull_view(e);
    vec_push(NULL, &c, hull_equations(&h, e->hint_rows, e->hint_count, v));
  }
  Z3_ast all = smt_and(e->s, (unsigned)c.len, c.items);
  vec_free(&c);
  return all;
}

static Z3_ast initial(void *ctx, Z3_ast *v) {
  encoder *e = ctx;
  VEC(Z3_ast) c = {0};
  vec_push(NULL, &c, domains(e, v));
  smt_env env = env_of(e, v, NULL, NULL);
  vec_push(NULL, &c, esmt_shared_init(e->s, e->spec, &env, term_of, e));
  for (size_t i = (size_t)e->shared_count; i < e->width; i++) {
    const fa_slot *sl = &e->slots[i];
    if (sl->kind == FA_PARAM) continue;
    if (sl->kind == FA_COUNTER) { /* the counters of init states sum to N (domains); the others are 0 */
      if (!e->spec->threads.items[sl->thread]->states.items[sl->state]->initial)
        vec_push(NULL, &c, smt_eq(e->s, v[i], smt_int(e->s, 0)));
      continue;
    }
    vec_push(NULL, &c, esmt_initial_state(e->s, e->spec->threads.items[sl->thread], v[i]));
  }
  Z3_ast all = smt_and(e->s, (unsigned)c.len, c.items);
  vec_free(&c);
  return all;
}

/* ---------------------------------------------------------------- steps */

/* The shared part of an edge, with the frame rule. */
static Z3_ast edge_formula(encoder *e, const ast_edge *ed, Z3_ast *v, Z3_ast *w, Z3_ast tid) {
  smt_env env = env_of(e, v, w, tid);
  return esmt_edge(e->s, ed, &env, term_of, e);
}

/* Adds w[i] == v[i] + delta. */
static void moves(encoder *e, term_list *c, Z3_ast *v, Z3_ast *w, size_t i, int64_t delta) {
  Z3_ast sum[2] = {v[i], smt_int(e->s, delta)};
  vec_push(NULL, c, smt_eq(e->s, w[i], delta ? smt_add(e->s, 2, sum) : v[i]));
}

/* Choice k (an esmt_step): its instance moves along its edge, the others stay. */
static Z3_ast choice_formula(void *ctx, size_t k, Z3_ast *v, Z3_ast *w) {
  encoder *e = ctx;
  const choice *ch = &e->choices[k];
  const ast_edge *ed = e->spec->threads.items[ch->thread]->edges.items[ch->edge];
  term_list c = {0};
  size_t from = 0, to = 0;
  Z3_ast tid = NULL;
  if (ch->slot >= 0) {
    vec_push(NULL, &c, smt_eq(e->s, v[ch->slot], smt_int(e->s, ed->from_index)));
    vec_push(NULL, &c, smt_eq(e->s, w[ch->slot], smt_int(e->s, ed->to_index)));
    tid = tid_of(e, v, (size_t)ch->slot);
  } else {
    from = (size_t)(e->first_slot[ch->thread] + ed->from_index);
    to = (size_t)(e->first_slot[ch->thread] + ed->to_index);
    vec_push(NULL, &c, ge(e, v[from], 1));
    moves(e, &c, v, w, from, from == to ? 0 : -1);
    if (to != from) moves(e, &c, v, w, to, 1);
  }
  for (size_t i = (size_t)e->shared_count; i < e->width; i++)
    if (i != (size_t)ch->slot && (ch->slot >= 0 || (i != from && i != to))) moves(e, &c, v, w, i, 0);
  vec_push(NULL, &c, edge_formula(e, ed, v, w, tid));
  Z3_ast all = smt_and(e->s, (unsigned)c.len, c.items);
  vec_free(&c);
  return all;
}

/* Some check of cs fails. */
static Z3_ast some_check_fails(encoder *e, const sem_checks *cs, const smt_env *env) {
  term_list ok = {0};
  for (size_t k = 0; k < cs->len; k++) vec_push(NULL, &ok, term(e, cs->items[k].holds, env));
  Z3_ast fails = smt_not(e->s, smt_and(e->s, (unsigned)ok.len, ok.items));
  vec_free(&ok);
  return fails;
}

/* "here" and a check of state k (sem_state_checks) false. */
static void wrong_in(encoder *e, const ast_thread *t, size_t k, Z3_ast here, const smt_env *env, term_list *alt) {
  const sem_checks *cs = sem_state_checks(t->states.items[k]);
  if (cs->len == 0) return;
  Z3_ast wrong[2] = {here, some_check_fails(e, cs, env)};
  vec_push(NULL, alt, smt_and(e->s, 2, wrong));
}

/* Some instance goes wrong, or a system invariant is false. */
static Z3_ast bad(void *ctx, Z3_ast *v) {
  encoder *e = ctx;
  term_list alt = {0};
  for (size_t i = (size_t)e->shared_count; i < e->width; i++) {
    const fa_slot *sl = &e->slots[i];
    if (sl->kind == FA_PARAM) continue;
    const ast_thread *t = e->spec->threads.items[sl->thread];
    if (sl->kind == FA_COUNTER) {
      smt_env env = env_of(e, v, NULL, NULL);
      wrong_in(e, t, (size_t)sl->state, ge(e, v[i], 1), &env, &alt);
      continue;
    }
    smt_env env = env_of(e, v, NULL, tid_of(e, v, i));
    vec_foreach(&t->states, k) wrong_in(e, t, k, smt_eq(e->s, v[i], smt_int(e->s, (int64_t)k)), &env, &alt);
  }
  smt_env env = env_of(e, v, NULL, NULL);
  const sem_checks *cs = sem_system_checks(e->spec);
  for (size_t k = 0; k < cs->len; k++) vec_push(NULL, &alt, smt_not(e->s, term(e, cs->items[k].holds, &env)));
  Z3_ast any = smt_or(e->s, (unsigned)alt.len, alt.items);
  vec_free(&alt);
  return any;
}

/* ---------------------------------------------------------------- layout */

static void add_slot(encoder *e, fa_slot s) { e->slots[e->width++] = s; }

/* Shared variables, then per instance entry its explicit instances or its
 * counters (tid of an explicit instance counts the N instances listed before
 * it symbolically), then N. */
static void layout(encoder *e, const char *param_name) {
  const ast_spec *spec = e->spec;
  size_t cap = spec->shared.len + 2;
  vec_foreach(&spec->instances, i) {
    const ast_instance *in = spec->instances.items[i];
    cap +=
        fa_counts_exactly(in, e->param) ? spec->threads.items[in->thread_index]->states.len : (size_t)in->count_value;
  }
  e->slots = xcalloc(cap, sizeof *e->slots);
  vec_foreach(&spec->shared, i)
    add_slot(e, (fa_slot){.kind = FA_SHARED,
                          .name = xstrdup(spec->shared.items[i]->name),
                          .is_bool = spec->shared.items[i]->type.kind == TYPE_BOOL,
                          .thread = -1});
  e->shared_count = (int)spec->shared.len;
  int64_t tid = 1, tid_n = 0;
  vec_foreach(&spec->instances, i) {
    const ast_instance *in = spec->instances.items[i];
    const ast_thread *t = spec->threads.items[in->thread_index];
    e->first_slot[t->index] = (int)e->width;
    if (e->counted[t->index]) {
      strbuf b = {0};
      vec_foreach(&t->states, k) {
        sbuf_printf(&b, "count(%s@%s)", t->name, t->states.items[k]->name);
        add_slot(e, (fa_slot){.kind = FA_COUNTER, .name = sbuf_take(&b), .thread = t->index, .state = (int)k});
      }
      tid_n++;
      continue;
    }
    for (int64_t k = 0; k < in->count_value; k++) {
      char *name = in->count_value == 1 && !in->count ? xstrdup(t->name) : NULL;
      if (!name) {
        strbuf b = {0};
        sbuf_printf(&b, "%s[%" PRId64 "]", t->name, k + 1);
        name = sbuf_take(&b);
      }
      add_slot(
          e, (fa_slot){.kind = FA_INSTANCE, .name = name, .thread = t->index, .tid_base = tid + k, .tid_per_n = tid_n});
    }
    tid += in->count_value;
  }
  add_slot(e, (fa_slot){.kind = FA_PARAM, .name = xstrdup(param_name), .thread = -1});
}

/* Adds step (slot, edge j of t): slot -1 for a counted step. */
static void add_choice(encoder *e, int slot, const ast_thread *t, size_t j) {
  const ast_edge *ed = t->edges.items[j];
  e->moves[e->choice_count] = (sym_move){slot, ed->from_index, ed->to_index};
  e->choices[e->choice_count++] = (choice){slot, t->index, (int)j};
}

/* Every step and its move, and the control slots (the explicit instances). */
static void build_choices(encoder *e) {
  const ast_spec *spec = e->spec;
  size_t cap = 1;
  e->control = xcalloc(e->width + 1, sizeof *e->control);
  for (size_t i = 0; i < e->width; i++) {
    if (e->slots[i].kind != FA_INSTANCE) continue;
    e->control[i] = (int64_t)spec->threads.items[e->slots[i].thread]->states.len;
    cap += spec->threads.items[e->slots[i].thread]->edges.len;
  }
  vec_foreach(&spec->threads, t)
    if (e->counted[t]) cap += spec->threads.items[t]->edges.len;
  e->choices = xcalloc(cap, sizeof *e->choices);
  e->moves = xcalloc(cap, sizeof *e->moves);
  vec_foreach(&spec->instances, i) {
    const ast_thread *t = spec->threads.items[spec->instances.items[i]->thread_index];
    if (e->counted[t->index]) {
      vec_foreach(&t->edges, j) add_choice(e, -1, t, j);
      continue;
    }
    for (size_t s = (size_t)e->first_slot[t->index];
         s < e->width && e->slots[s].kind == FA_INSTANCE && e->slots[s].thread == t->index; s++)
      vec_foreach(&t->edges, j) add_choice(e, (int)s, t, j);
  }
}

void fa_describe(const encoder *e, char **counted_text, char **others_text) {
  const char *param_name = e->spec->consts.items[e->param]->name;
  strbuf counted = {0}, others = {0};
  vec_foreach(&e->spec->instances, i) {
    const ast_instance *in = e->spec->instances.items[i];
    strbuf *b = e->counted[in->thread_index] ? &counted : &others;
    sbuf_printf(b, "%s%s", b->len ? ", " : "", in->thread);
    if (e->counted[in->thread_index]) sbuf_printf(b, "[%s]", param_name);
    else if (in->count) sbuf_printf(b, "[%" PRId64 "]", in->count_value);
  }
  *counted_text = sbuf_take(&counted);
  *others_text = sbuf_take(&others);
}

fa_counters *fa_counters_new(const ast_spec *spec, const char *param, smt *s) {
  encoder *e = xcalloc(1, sizeof *e);
  *e = (encoder){.s = s, .spec = spec, .arena = arena_new(), .param = fa_const_index(spec, param)};
  e->depends = fa_dependent_consts(spec, e->param);
  e->counted = xcalloc(spec->threads.len + 1, sizeof *e->counted);
  e->first_slot = xcalloc(spec->threads.len + 1, sizeof *e->first_slot);
  vec_foreach(&spec->instances, i)
    if (fa_counts_exactly(spec->instances.items[i], e->param))
      e->counted[spec->instances.items[i]->thread_index] = true;
  e->consts = xcalloc(spec->consts.len + 1, sizeof *e->consts);
  vec_foreach(&spec->consts, i) e->consts[i] = spec->consts.items[i]->value;
  layout(e, param);
  build_choices(e);
  e->sys = (sym_system){s,   e->width,   e->choice_count, e, state_vars, initial, domains, choice_formula,
                        bad, e->control, e->moves};
  return e;
}

void fa_counters_free(encoder *e) {
  for (size_t i = 0; i < e->width; i++) free(e->slots[i].name);
  free(e->slots);
  free(e->choices);
  free(e->consts);
  free(e->counted);
  free(e->first_slot);
  free(e->depends);
  free(e->hint_rows);
  free(e->control);
  free(e->moves);
  arena_free(e->arena);
  free(e);
}

const sym_system *fa_system(const encoder *e) { return &e->sys; }

void fa_use_hints(encoder *e, bool on) { e->hints_on = on; }

static void instance_leaf(const encoder *e, const fa_slot *sl, smt_leaf *l) {
  const ast_thread *t = e->spec->threads.items[sl->thread];
  strbuf b = {0};
  sbuf_puts(&b, sl->name);
  if (!strchr(sl->name, '[')) sbuf_puts(&b, "[1]"); /* the one instance of its line: "Stopper" */
  l->text = sbuf_take(&b);
  const char **states = xcalloc(t->states.len + 1, sizeof *states);
  vec_foreach(&t->states, k) states[k] = t->states.items[k]->name;
  l->states = states;
  l->state_count = t->states.len;
}

smt_leaf *fa_leaves(const encoder *e, const Z3_ast *named, size_t *count) {
  smt_leaf *leaves = xcalloc(e->width + 1, sizeof *leaves);
  for (size_t i = 0; i < e->width; i++) {
    leaves[i].term = named[i];
    if (e->slots[i].kind == FA_INSTANCE) instance_leaf(e, &e->slots[i], &leaves[i]);
    else leaves[i].text = xstrdup(e->slots[i].name);
  }
  *count = e->width;
  return leaves;
}

void fa_leaves_free(smt_leaf *leaves, size_t count) {
  for (size_t i = 0; i < count; i++) {
    free((char *)leaves[i].text);
    free((void *)leaves[i].states);
  }
  free(leaves);
}

Z3_ast *fa_named_state(const encoder *e) {
  Z3_ast *named = xcalloc(e->width + 1, sizeof *named);
  for (size_t i = 0; i < e->width; i++) named[i] = smt_var(e->s, e->slots[i].name, e->slots[i].is_bool);
  return named;
}
