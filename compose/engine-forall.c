/* compose/engine-forall.c -- counter abstraction of the symmetric threads,
 * proved by Spacer for every N >= 1, with BMC for counterexamples.
 *
 * A state is one Z3 constant per slot: the shared variables (Int or Bool),
 * the explicit instances' control states (Int), one counter per state of
 * every counted thread (Int >= 0, summing to N), and N itself (Int >= 1,
 * never changed). A counted step takes a state S with c_S > 0 and an edge
 * S -> S' of the thread: c_S--, c_S'++, the shared part as in
 * engine-symbolic.c (relation with the frame rule, or guarded command).
 * For threads that do not use tid and are not named by index this is exact
 * under interleaving semantics (one instance steps at a time), so a proof
 * here is a proof for every N. N's value in the spec is not used: every
 * expression that mentions N (or a const defined from it) is rewritten to
 * read the symbolic N before it goes through core/smt.h.
 * Order of work: affine invariants guessed from sampled states and filtered
 * by Houdini; Spacer with one predicate per location of the explicit
 * instances; the invariant re-checked without those helps; else BMC, then
 * the smallest N at the shortest depth. ATHREAD_FORALL_DUMP=FILE writes the
 * Horn clauses for the z3 command line (debugging). */
#include "engine-forall.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../core/arena.h"
#include "../core/interrupt.h"
#include "../core/outfile.h"
#include "../core/smt-drive.h"
#include "../core/smt.h"
#include "../core/strbuf.h"
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

typedef struct encoder {
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
  double deadline;      /* CLOCK_MONOTONIC seconds, 0 = none */
} encoder;

/* ---------------------------------------------------------------- N in expressions */

/* x with N read as program variable 0 (the symbolic N) and consts computed
 * from N replaced by their definitions; x itself when it does not mention N. */
static const ir_expr *symbolic(encoder *e, const ir_expr *x) {
  if (!x || !fa_mentions(e->param, e->depends, x)) return x;
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

static Z3_ast *state_vars(encoder *e, const char *suffix) {
  Z3_ast *v = xcalloc(e->width + 1, sizeof *v);
  char name[200];
  for (size_t i = 0; i < e->width; i++) {
    snprintf(name, sizeof name, "%s@%s", e->slots[i].name, suffix);
    v[i] = smt_var(e->s, name, e->slots[i].is_bool);
  }
  return v;
}

static Z3_ast param_of(const encoder *e, Z3_ast *v) { return v[e->width - 1]; }

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
  Z3_ast prod[2] = {smt_int(e->s, sl->tid_per_n), param_of(e, v)};
  Z3_ast sum[2] = {smt_int(e->s, sl->tid_base), smt_keep(e->s, Z3_mk_mul(c, 2, prod))};
  return smt_add(e->s, 2, sum);
}

static Z3_ast ge(encoder *e, Z3_ast a, int64_t k) { return smt_le(e->s, smt_int(e->s, k), a); }

/* ---------------------------------------------------------------- affine invariants
 * (forall-hull.c): guessed before the proof, given to Spacer, left out of
 * the re-check. */

static Z3_ast transition(encoder *e, Z3_ast *v, Z3_ast *w, Z3_ast sel);
static Z3_ast initial(encoder *e, Z3_ast *v);
static Z3_ast domains(encoder *e, Z3_ast *v);

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

/* A step or no step (so that the unrolling never deadlocks). */
static Z3_ast step_or_stay(void *ctx, Z3_ast *v, Z3_ast *w) {
  encoder *e = ctx;
  term_list same = {0};
  for (size_t i = 0; i < e->width; i++) vec_push(NULL, &same, smt_eq(e->s, w[i], v[i]));
  Z3_ast alt[2] = {transition(e, v, w, NULL), smt_and(e->s, (unsigned)same.len, same.items)};
  vec_free(&same);
  return smt_or(e->s, 2, alt);
}

static Z3_ast *state_of(void *e, const char *suffix) { return state_vars(e, suffix); }
static Z3_ast initial_of(void *e, Z3_ast *v) { return initial(e, v); }
static Z3_ast domain_of(void *e, Z3_ast *v) { return domains(e, v); }
static Z3_ast step_of(void *e, Z3_ast *v, Z3_ast *w) { return transition(e, v, w, NULL); }

static hull_system hull_view(encoder *e) {
  return (hull_system){.s = e->s,
                       .feature_count = e->feature_count,
                       .deadline = e->deadline,
                       .ctx = e,
                       .state = state_of,
                       .features = features,
                       .initial = initial_of,
                       .domain = domain_of,
                       .step = step_of,
                       .step_or_stay = step_or_stay};
}

/* The affine invariants (e->hint_rows), sampled within a quarter of the time
 * left (at most 2 s) over at most 2 * states + 4 steps (at most 40). */
static void find_hints(encoder *e) {
  e->feature_count = 0;
  for (size_t i = 0; i < e->width; i++)
    e->feature_count += e->slots[i].kind == FA_INSTANCE ? e->spec->threads.items[e->slots[i].thread]->states.len : 1;
  size_t states = 0;
  vec_foreach(&e->spec->threads, t) states += e->spec->threads.items[t]->states.len;
  unsigned depth = (unsigned)(2 * states + 4 < 40 ? 2 * states + 4 : 40);
  double budget = e->deadline > 0 && (e->deadline - smt_now()) / 4 < 2.0 ? (e->deadline - smt_now()) / 4 : 2.0;
  hull_system h = hull_view(e);
  e->hint_rows = hull_invariants(&h, depth, budget, &e->hint_count);
}

/* Ranges, control states, counters >= 0 summing to N per counted thread, N >= 1
 * (and the affine invariants when hints_on). */
static Z3_ast domains(encoder *e, Z3_ast *v) {
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
    vec_push(NULL, &c, smt_eq(e->s, smt_add(e->s, (unsigned)th->states.len, cs), param_of(e, v)));
  }
  for (size_t i = 0; i < e->width; i++) {
    if (e->slots[i].kind != FA_INSTANCE) continue;
    vec_push(NULL, &c, ge(e, v[i], 0));
    vec_push(NULL, &c,
             smt_le(e->s, v[i], smt_int(e->s, (int64_t)e->spec->threads.items[e->slots[i].thread]->states.len - 1)));
  }
  vec_push(NULL, &c, ge(e, param_of(e, v), 1));
  if (e->hints_on) {
    hull_system h = hull_view(e);
    vec_push(NULL, &c, hull_equations(&h, e->hint_rows, e->hint_count, v));
  }
  Z3_ast all = smt_and(e->s, (unsigned)c.len, c.items);
  vec_free(&c);
  return all;
}

static Z3_ast initial(encoder *e, Z3_ast *v) {
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

/* T(v, w) and domains(w); with sel, each alternative also fixes sel. */
static Z3_ast transition(encoder *e, Z3_ast *v, Z3_ast *w, Z3_ast sel) {
  return esmt_transition(e->s, e->choice_count, choice_formula, e, v, w, sel, domains(e, w));
}

/* "here" and the thread invariant and state assertion of state k false. */
static void wrong_in(encoder *e, const ast_thread *t, size_t k, Z3_ast here, const smt_env *env, term_list *alt) {
  const ast_state *st = t->states.items[k];
  if (!st->assertion && t->invariants.len == 0) return;
  VEC(Z3_ast) ok = {0};
  vec_foreach(&t->invariants, j) vec_push(NULL, &ok, term(e, t->invariants.items[j], env));
  if (st->assertion) vec_push(NULL, &ok, term(e, st->assertion, env));
  Z3_ast wrong[2] = {here, smt_not(e->s, smt_and(e->s, (unsigned)ok.len, ok.items))};
  vec_push(NULL, alt, smt_and(e->s, 2, wrong));
  vec_free(&ok);
}

/* Some instance goes wrong, or a system invariant is false. */
static Z3_ast bad(encoder *e, Z3_ast *v) {
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
  vec_foreach(&e->spec->properties, k) vec_push(NULL, &alt, smt_not(e->s, term(e, e->spec->properties.items[k], &env)));
  Z3_ast any = smt_or(e->s, (unsigned)alt.len, alt.items);
  vec_free(&alt);
  return any;
}

/* ---------------------------------------------------------------- solvers */

static bool timed_out(const encoder *e) { return e->deadline > 0 && smt_now() >= e->deadline - SMT_CHECK_SLACK; }

/* ---------------------------------------------------------------- BMC */

/* The unrolling for smt_bmc: frames[k] is the state at depth k. */
typedef struct unrolling {
  encoder *e;
  Z3_ast **frames;  /* bound + 2 entries */
  forall_result *r; /* receives N and the depth */
} unrolling;

static bool extend(void *ctx, Z3_solver s, unsigned k) {
  unrolling *u = ctx;
  char name[32];
  snprintf(name, sizeof name, "%u", k);
  u->frames[k] = state_vars(u->e, name);
  Z3_ast f = k == 0 ? initial(u->e, u->frames[0]) : transition(u->e, u->frames[k - 1], u->frames[k], NULL);
  Z3_solver_assert(smt_z3(u->e->s), s, f);
  return true;
}

static Z3_ast bad_at(void *ctx, unsigned k) {
  unrolling *u = ctx;
  return bad(u->e, u->frames[k]);
}

/* Records N and asks for a smaller one: the last model before unsat has the least. */
static smt_bmc_answer reached(void *ctx, Z3_solver s, Z3_model m, unsigned k) {
  unrolling *u = ctx;
  (void)k;
  Z3_ast n = param_of(u->e, u->frames[0]);
  if (!smt_model_value(u->e->s, m, n, &u->r->n)) return SMT_BMC_FAILED;
  Z3_solver_assert(smt_z3(u->e->s), s, smt_le(u->e->s, n, smt_int(u->e->s, u->r->n - 1)));
  return SMT_BMC_AGAIN;
}

/* Shortest counterexample up to bound steps, then the smallest N with one of
 * that length: 1 found (r->n, r->depth), 0 none, -1 unknown. */
static int bmc(encoder *e, unsigned bound, forall_result *r) {
  unrolling u = {e, xcalloc(bound + 2, sizeof *u.frames), r};
  smt_bmc_steps steps = {extend, bad_at, reached, &u};
  char reason[160];
  unsigned depth = 0;
  int result = smt_bmc(e->s, bound, e->deadline, &steps, &depth, reason, sizeof reason);
  r->depth = depth;
  for (unsigned k = 0; k <= bound + 1; k++) free(u.frames[k]);
  free(u.frames);
  return result;
}

/* ---------------------------------------------------------------- Spacer
 * One predicate per combination of the explicit instances' control states
 * (when there are at most MAX_LOCATIONS), over the shared variables, the
 * counters and N: Spacer finds per-location invariants far more easily than
 * one invariant over integer-coded control states. The certificate is their
 * disjunction over the full state, re-checked against the monolithic
 * encoding by three independent queries. */

#define MAX_LOCATIONS 256

typedef struct horn {
  size_t *split;       /* the explicit slots that index the predicates */
  size_t split_count;  /* entries in split */
  size_t locations;    /* predicates: the product of their state counts */
  size_t *rest;        /* the other slots: the predicates' arguments */
  size_t rest_count;   /* entries in rest */
  Z3_func_decl *preds; /* per location */
} horn;

static int64_t states_of(const encoder *e, size_t slot) {
  return (int64_t)e->spec->threads.items[e->slots[slot].thread]->states.len;
}

static void horn_layout(encoder *e, horn *h) {
  h->split = xcalloc(e->width + 1, sizeof *h->split);
  h->rest = xcalloc(e->width + 1, sizeof *h->rest);
  h->locations = 1;
  for (size_t i = 0; i < e->width; i++) {
    if (e->slots[i].kind == FA_INSTANCE && h->locations * (size_t)states_of(e, i) <= MAX_LOCATIONS) {
      h->split[h->split_count++] = i;
      h->locations *= (size_t)states_of(e, i);
    } else {
      h->rest[h->rest_count++] = i;
    }
  }
}

/* The state of split slot k at location where. */
static int64_t location_value(const encoder *e, const horn *h, size_t where, size_t k) {
  for (size_t j = 0; j < k; j++) where /= (size_t)states_of(e, h->split[j]);
  return (int64_t)(where % (size_t)states_of(e, h->split[k]));
}

/* x with the split slots fixed to where's values (owned array). */
static Z3_ast *at_location(encoder *e, const horn *h, Z3_ast *x, size_t where) {
  Z3_ast *v = xcalloc(e->width + 1, sizeof *v);
  memcpy(v, x, e->width * sizeof *v);
  for (size_t k = 0; k < h->split_count; k++) v[h->split[k]] = smt_int(e->s, location_value(e, h, where, k));
  return v;
}

static Z3_ast pred_app(encoder *e, const horn *h, size_t where, Z3_ast *x) {
  Z3_ast *args = xcalloc(h->rest_count + 1, sizeof *args);
  for (size_t k = 0; k < h->rest_count; k++) args[k] = x[h->rest[k]];
  Z3_ast a = smt_keep(e->s, Z3_mk_app(smt_z3(e->s), h->preds[where], (unsigned)h->rest_count, args));
  free(args);
  return a;
}

/* forall over the rest slots of a (and b) of body. */
static Z3_ast forall(encoder *e, const horn *h, Z3_ast *a, Z3_ast *b, Z3_ast body) {
  Z3_context c = smt_z3(e->s);
  size_t n = h->rest_count * (b ? 2 : 1);
  if (n == 0) return body;
  Z3_app *bound = xcalloc(n + 1, sizeof *bound);
  for (size_t k = 0; k < h->rest_count; k++) {
    bound[k] = Z3_to_app(c, a[h->rest[k]]);
    if (b) bound[h->rest_count + k] = Z3_to_app(c, b[h->rest[k]]);
  }
  Z3_ast q = smt_keep(e->s, Z3_mk_forall_const(c, 0, (unsigned)n, bound, 0, NULL, body));
  free(bound);
  return q;
}

/* The location a choice leads to from where, or (size_t)-1 when it is not enabled there. */
static size_t location_after(const encoder *e, const horn *h, size_t where, const choice *ch) {
  if (ch->slot < 0) return where;
  const ast_edge *ed = e->spec->threads.items[ch->thread]->edges.items[ch->edge];
  size_t radix = 1;
  for (size_t k = 0; k < h->split_count; k++) {
    if (h->split[k] == (size_t)ch->slot) {
      if (location_value(e, h, where, k) != ed->from_index) return (size_t)-1;
      return where + (size_t)((int64_t)radix * (ed->to_index - ed->from_index));
    }
    radix *= (size_t)states_of(e, h->split[k]);
  }
  return where; /* the slot is an argument */
}

static void add_clauses(encoder *e, const horn *h, Z3_solver s, Z3_ast *x, Z3_ast *y) {
  Z3_context c = smt_z3(e->s);
  for (size_t where = 0; where < h->locations; where++) {
    Z3_ast *xl = at_location(e, h, x, where);
    Z3_ast here = pred_app(e, h, where, xl);
    Z3_solver_assert(c, s, forall(e, h, x, NULL, smt_implies(e->s, initial(e, xl), here)));
    Z3_ast wrong[2] = {here, bad(e, xl)};
    Z3_solver_assert(c, s, forall(e, h, x, NULL, smt_not(e->s, smt_and(e->s, 2, wrong))));
    for (size_t k = 0; k < e->choice_count; k++) {
      size_t to = location_after(e, h, where, &e->choices[k]);
      if (to == (size_t)-1) continue;
      Z3_ast *yl = at_location(e, h, y, to);
      Z3_ast step[3] = {here, choice_formula(e, k, xl, yl), domains(e, yl)};
      Z3_solver_assert(c, s, forall(e, h, x, y, smt_implies(e->s, smt_and(e->s, 3, step), pred_app(e, h, to, yl))));
      free(yl);
    }
    free(xl);
  }
}

/* The invariant over the full state x: the disjunction over the locations of
 * "the split slots are there and the location's predicate holds"; NULL when
 * the model gives no interpretation. */
static Z3_ast invariant_of(encoder *e, const horn *h, Z3_model model, Z3_ast *x) {
  Z3_context c = smt_z3(e->s);
  Z3_ast *args = xcalloc(h->rest_count + 1, sizeof *args);
  for (size_t k = 0; k < h->rest_count; k++) args[k] = x[h->rest[k]];
  term_list alt = {0};
  Z3_ast result = NULL;
  for (size_t where = 0; where < h->locations; where++) {
    Z3_func_interp fi = Z3_model_get_func_interp(c, model, h->preds[where]);
    Z3_ast body = NULL;
    if (fi) {
      Z3_func_interp_inc_ref(c, fi);
      body = smt_keep(e->s, Z3_func_interp_get_else(c, fi));
      Z3_func_interp_dec_ref(c, fi);
      if (body) body = smt_keep(e->s, Z3_substitute_vars(c, body, (unsigned)h->rest_count, args));
    } else if (!Z3_model_has_interp(c, model, h->preds[where])) {
      body = smt_bool(e->s, false); /* Spacer leaves out the predicates of unreachable locations */
    }
    if (!body) goto done;
    term_list here = {0};
    for (size_t k = 0; k < h->split_count; k++)
      vec_push(NULL, &here, smt_eq(e->s, x[h->split[k]], smt_int(e->s, location_value(e, h, where, k))));
    vec_push(NULL, &here, body);
    vec_push(NULL, &alt, smt_and(e->s, (unsigned)here.len, here.items));
    vec_free(&here);
  }
  result = smt_or(e->s, (unsigned)alt.len, alt.items);
done:
  vec_free(&alt);
  free(args);
  return result;
}

/* The three implications of an inductive invariant, each by a fresh solver,
 * on the monolithic encoding. */
static bool invariant_rechecked(encoder *e, Z3_ast inv_x, Z3_ast inv_y, Z3_ast *x, Z3_ast *y) {
  return smt_recheck(e->s, e->deadline, initial(e, x), transition(e, x, y, NULL), bad(e, x), inv_x, inv_y);
}

/* Atomic formulas of a Boolean term (the certificate's size). */
static size_t atoms(Z3_context c, Z3_ast t) {
  if (Z3_get_ast_kind(c, t) != Z3_APP_AST) return 1;
  Z3_app a = Z3_to_app(c, t);
  Z3_decl_kind k = Z3_get_decl_kind(c, Z3_get_app_decl(c, a));
  if (k == Z3_OP_TRUE || k == Z3_OP_FALSE) return 0;
  unsigned n_args = Z3_get_app_num_args(c, a);
  bool bool_args = n_args > 0 && Z3_get_sort_kind(c, Z3_get_sort(c, Z3_get_app_arg(c, a, n_args - 1))) == Z3_BOOL_SORT;
  bool connective = k == Z3_OP_AND || k == Z3_OP_OR || k == Z3_OP_NOT || k == Z3_OP_IMPLIES || k == Z3_OP_XOR ||
                    ((k == Z3_OP_EQ || k == Z3_OP_ITE) && bool_args);
  if (!connective) return 1;
  size_t n = 0;
  for (unsigned i = k == Z3_OP_ITE ? 1 : 0; i < n_args; i++) n += atoms(c, Z3_get_app_arg(c, a, i));
  return n;
}

/* The certificate over readable names: "pendingIO", "count(Worker@Work)", "N". */
static void certify(encoder *e, Z3_ast inv_x, Z3_ast *x, forall_result *r) {
  Z3_context c = smt_z3(e->s);
  Z3_ast *named = xcalloc(e->width + 1, sizeof *named);
  for (size_t i = 0; i < e->width; i++) named[i] = smt_var(e->s, e->slots[i].name, e->slots[i].is_bool);
  Z3_ast pretty = smt_keep(e->s, Z3_simplify(c, smt_keep(e->s, Z3_substitute(c, inv_x, (unsigned)e->width, x, named))));
  r->certificate = xstrdup(Z3_ast_to_string(c, pretty));
  r->certificate_atoms = atoms(c, pretty);
  free(named);
}

/* Debugging: ATHREAD_FORALL_DUMP=FILE writes the CHC problem for the z3
 * command line (atomically, like every output file; failures go to stderr). */
static void dump_horn(Z3_context c, Z3_solver s) {
  const char *path = getenv("ATHREAD_FORALL_DUMP");
  if (!path) return;
  strbuf text = {0};
  sbuf_printf(&text, "(set-logic HORN)\n%s(check-sat)\n", Z3_solver_to_string(c, s));
  diag_sink sink = {.out = stderr};
  outfile_write(&sink, path, sbuf_str(&text), text.len);
  sbuf_free(&text);
}

/* What smt_spacer's acceptance reads: the predicates over x and y. */
typedef struct spacer_proof {
  encoder *e;
  const horn *h;
  Z3_ast *x, *y;
  forall_result *r; /* receives the certificate */
} spacer_proof;

/* The certificate: the domains (with the affine invariants) and the lemmas,
 * re-checked without the hints. */
static bool accept(void *ctx, Z3_model model) {
  spacer_proof *p = ctx;
  encoder *e = p->e;
  Z3_ast ix = invariant_of(e, p->h, model, p->x), iy = invariant_of(e, p->h, model, p->y);
  if (ix && iy) {
    Z3_ast hx[2] = {domains(e, p->x), ix}, hy[2] = {domains(e, p->y), iy};
    ix = smt_and(e->s, 2, hx);
    iy = smt_and(e->s, 2, hy);
  }
  e->hints_on = false; /* the re-check must not assume them */
  if (!ix || !iy || !invariant_rechecked(e, ix, iy, p->x, p->y)) return false;
  certify(e, ix, p->x, p->r);
  return true;
}

/* 1 safe (certificate set), 0 unsafe, -1 unknown (reason set). */
static int spacer(encoder *e, forall_result *r, char *reason, size_t reason_size) {
  Z3_context c = smt_z3(e->s);
  horn h = {0};
  horn_layout(e, &h);
  Z3_sort *sorts = xcalloc(h.rest_count + 1, sizeof *sorts);
  Z3_ast *x = state_vars(e, "x"), *y = state_vars(e, "y");
  for (size_t k = 0; k < h.rest_count; k++) sorts[k] = Z3_get_sort(c, x[h.rest[k]]);
  h.preds = xcalloc(h.locations, sizeof *h.preds);
  char name[32];
  for (size_t where = 0; where < h.locations; where++) {
    snprintf(name, sizeof name, "Inv%zu", where);
    h.preds[where] =
        Z3_mk_func_decl(c, Z3_mk_string_symbol(c, name), (unsigned)h.rest_count, sorts, Z3_mk_bool_sort(c));
    Z3_inc_ref(c, Z3_func_decl_to_ast(c, h.preds[where]));
  }
  Z3_solver s = smt_solver(e->s, e->deadline, true);
  add_clauses(e, &h, s, x, y);
  dump_horn(c, s);
  spacer_proof p = {e, &h, x, y, r};
  int outcome = smt_spacer(e->s, s, e->deadline, accept, &p, reason, reason_size);
  Z3_solver_dec_ref(c, s);
  for (size_t where = 0; where < h.locations; where++) Z3_dec_ref(c, Z3_func_decl_to_ast(c, h.preds[where]));
  free(h.preds);
  free(h.split);
  free(h.rest);
  free(sorts);
  free(x);
  free(y);
  return outcome;
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

static void build_choices(encoder *e) {
  const ast_spec *spec = e->spec;
  size_t cap = 1;
  for (size_t i = 0; i < e->width; i++)
    if (e->slots[i].kind == FA_INSTANCE) cap += spec->threads.items[e->slots[i].thread]->edges.len;
  vec_foreach(&spec->threads, t)
    if (e->counted[t]) cap += spec->threads.items[t]->edges.len;
  e->choices = xcalloc(cap, sizeof *e->choices);
  vec_foreach(&spec->instances, i) {
    const ast_thread *t = spec->threads.items[spec->instances.items[i]->thread_index];
    if (e->counted[t->index]) {
      vec_foreach(&t->edges, j) e->choices[e->choice_count++] = (choice){-1, t->index, (int)j};
      continue;
    }
    for (size_t s = (size_t)e->first_slot[t->index];
         s < e->width && e->slots[s].kind == FA_INSTANCE && e->slots[s].thread == t->index; s++)
      vec_foreach(&t->edges, j) e->choices[e->choice_count++] = (choice){(int)s, t->index, (int)j};
  }
}

/* "Worker[N]" and "Stopper, Reader[2]" for the report. */
static void describe_instances(const encoder *e, const char *param_name, forall_result *r) {
  strbuf counted = {0}, others = {0};
  vec_foreach(&e->spec->instances, i) {
    const ast_instance *in = e->spec->instances.items[i];
    strbuf *b = e->counted[in->thread_index] ? &counted : &others;
    sbuf_printf(b, "%s%s", b->len ? ", " : "", in->thread);
    if (e->counted[in->thread_index]) sbuf_printf(b, "[%s]", param_name);
    else if (in->count) sbuf_printf(b, "[%" PRId64 "]", in->count_value);
  }
  r->counted = sbuf_take(&counted);
  r->explicit_instances = sbuf_take(&others);
}

/* ---------------------------------------------------------------- entry */

void forall_run(const ast_spec *spec, const forall_options *o, forall_result *r) {
  memset(r, 0, sizeof *r);
  double start = smt_now();
  encoder e = {.s = smt_new(), .spec = spec, .arena = arena_new(), .param = fa_const_index(spec, o->param)};
  e.deadline = o->timeout > 0 ? start + o->timeout : 0;
  e.depends = fa_dependent_consts(spec, e.param);
  e.counted = xcalloc(spec->threads.len + 1, sizeof *e.counted);
  e.first_slot = xcalloc(spec->threads.len + 1, sizeof *e.first_slot);
  vec_foreach(&spec->instances, i)
    if (fa_counts_exactly(spec->instances.items[i], e.param)) e.counted[spec->instances.items[i]->thread_index] = true;
  e.consts = xcalloc(spec->consts.len + 1, sizeof *e.consts);
  vec_foreach(&spec->consts, i) e.consts[i] = spec->consts.items[i]->value;
  layout(&e, o->param);
  build_choices(&e);
  describe_instances(&e, o->param, r);
  smt_watch *w = smt_watch_start(e.s, e.deadline);
  char reason[160] = "";
  find_hints(&e);
  e.hints_on = true;
  int proof = spacer(&e, r, reason, sizeof reason);
  e.hints_on = false;
  if (proof == 1) {
    r->verdict = VERDICT_SAFE;
  } else {
    unsigned bound = o->bmc_bound ? o->bmc_bound : 100;
    int found = bmc(&e, bound, r);
    r->verdict = found == 1 ? VERDICT_UNSAFE : VERDICT_UNKNOWN;
    if (found == 0 && proof == 0)
      snprintf(r->unknown_reason, sizeof r->unknown_reason,
               "Spacer proved the counter system unsafe, but no counterexample was found within %u steps", bound);
    else if (found == 0)
      snprintf(r->unknown_reason, sizeof r->unknown_reason, "%.120s; no counterexample within %u steps", reason, bound);
    else if (found < 0)
      snprintf(r->unknown_reason, sizeof r->unknown_reason, "%s",
               timed_out(&e) ? "the time limit (--timeout) was reached" : "Z3 gave up during bounded model checking");
  }
  smt_watch_stop(w);
  if (r->verdict == VERDICT_UNKNOWN && interrupt_requested())
    snprintf(r->unknown_reason, sizeof r->unknown_reason, "%s", INTERRUPT_REASON);
  r->seconds = smt_now() - start;
  for (size_t i = 0; i < e.width; i++) free(e.slots[i].name);
  free(e.slots);
  free(e.choices);
  free(e.consts);
  free(e.counted);
  free(e.first_slot);
  free(e.depends);
  free(e.hint_rows);
  arena_free(e.arena);
  smt_free(e.s);
}

void forall_result_free(forall_result *r) {
  free(r->certificate);
  free(r->counted);
  free(r->explicit_instances);
  r->certificate = r->counted = r->explicit_instances = NULL;
}
