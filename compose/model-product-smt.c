/* compose/model-product-smt.c -- the symbolic face of the product of
 * abstract threads (compose/model.h, compose/symbolic.h).
 *
 * A state is one Z3 constant per slot of the model: shared variables as Int
 * or Bool, instances' control states as Int; tid is a literal per instance.
 * Step k is one (instance, edge) pair: the instance moves from the edge's
 * source to its target, every other instance stays, and the shared part is
 * the edge's meaning (sem_edge, through edge-smt.h). */
#include <stdio.h>
#include <stdlib.h>

#include "../core/arena.h"
#include "../core/vec.h"
#include "../spec-lang/semantics.h"
#include "edge-smt.h"
#include "model-product.h"

typedef VEC(Z3_ast) term_list;

typedef struct encoder {
  mdl_symbolic face;    /* must come first */
  smt *s;               /* Z3 */
  const ast_spec *spec; /* the system */
  const mdl *m;         /* slot layout */
  size_t width;         /* slots */
  int shared_count;     /* slots [0, shared_count) are shared variables */
  int64_t *consts;      /* per const: its value */
  mdl_step *choices;    /* every (instance, edge): the numbered steps */
  Z3_ast *vars;         /* the state the count/at callbacks read */
} encoder;

/* ---------------------------------------------------------------- states */

/* One constant per slot, named "x@suffix". */
static Z3_ast *state_vars(void *ctx, const char *suffix) {
  encoder *e = ctx;
  Z3_ast *v = xcalloc(e->width + 1, sizeof *v);
  char name[160];
  for (size_t i = 0; i < e->width; i++) {
    const mdl_slot *sl = mdl_slot_at(e->m, i);
    snprintf(name, sizeof name, "%s@%s", sl->name, suffix);
    v[i] = smt_var(e->s, name, sl->is_bool && sl->kind == SLOT_SHARED);
  }
  return v;
}

static Z3_ast count_cb(void *ctx, int thread, int state) {
  encoder *e = ctx;
  VEC(Z3_ast) terms = {0};
  for (size_t i = (size_t)e->shared_count; i < e->width; i++) {
    if (mdl_slot_at(e->m, i)->thread != thread) continue;
    Z3_ast here = smt_eq(e->s, e->vars[i], smt_int(e->s, state));
    vec_push(NULL, &terms, smt_ite(e->s, here, smt_int(e->s, 1), smt_int(e->s, 0)));
  }
  Z3_ast sum = smt_add(e->s, (unsigned)terms.len, terms.items);
  vec_free(&terms);
  return sum;
}

static size_t first_slot_of(const encoder *e, int thread) {
  size_t i = (size_t)e->shared_count;
  while (i < e->width && mdl_slot_at(e->m, i)->thread != thread) i++;
  return i;
}

static Z3_ast at_cb(void *ctx, int thread, int64_t index, int state) {
  encoder *e = ctx;
  return smt_eq(e->s, e->vars[first_slot_of(e, thread) + (size_t)index - 1], smt_int(e->s, state));
}

static smt_env env_of(encoder *e, Z3_ast *cur, Z3_ast *next, Z3_ast tid) {
  e->vars = cur;
  return (smt_env){.cur = cur, .next = next, .tid = tid, .consts = e->consts, .count = count_cb, .at = at_cb, .ctx = e};
}

static int64_t tid_of(const encoder *e, size_t slot) {
  const ast_instance *in = NULL;
  int thread = mdl_slot_at(e->m, slot)->thread;
  vec_foreach(&e->spec->instances, i)
    if (e->spec->instances.items[i]->thread_index == thread) in = e->spec->instances.items[i];
  return in->first_tid + (int64_t)(slot - first_slot_of(e, thread));
}

/* Every slot within its domain. */
static Z3_ast domains(void *ctx, Z3_ast *v) {
  encoder *e = ctx;
  VEC(Z3_ast) c = {0};
  for (size_t i = 0; i < e->width; i++) {
    const mdl_slot *sl = mdl_slot_at(e->m, i);
    if (!sl->bounded || (sl->is_bool && sl->kind == SLOT_SHARED)) continue;
    vec_push(NULL, &c, smt_le(e->s, smt_int(e->s, sl->lo), v[i]));
    vec_push(NULL, &c, smt_le(e->s, v[i], smt_int(e->s, sl->hi)));
  }
  Z3_ast all = smt_and(e->s, (unsigned)c.len, c.items);
  vec_free(&c);
  return all;
}

/* smt_expr as an esmt_term: the product reads expressions as they are. */
static Z3_ast plain_term(void *ctx, const ir_expr *x, const smt_env *env) { return smt_expr(ctx, x, env); }

static Z3_ast initial(void *ctx, Z3_ast *v) {
  encoder *e = ctx;
  VEC(Z3_ast) c = {0};
  vec_push(NULL, &c, domains(e, v));
  smt_env env = env_of(e, v, NULL, NULL);
  vec_push(NULL, &c, esmt_shared_init(e->s, e->spec, &env, plain_term, e->s));
  for (size_t i = (size_t)e->shared_count; i < e->width; i++)
    vec_push(NULL, &c, esmt_initial_state(e->s, e->spec->threads.items[mdl_slot_at(e->m, i)->thread], v[i]));
  Z3_ast all = smt_and(e->s, (unsigned)c.len, c.items);
  vec_free(&c);
  return all;
}

/* ---------------------------------------------------------------- steps */

/* Step k: its instance moves along its edge, the others stay. */
static Z3_ast step(void *ctx, size_t k, Z3_ast *v, Z3_ast *w) {
  encoder *e = ctx;
  const mdl_step *ch = &e->choices[k];
  const ast_thread *t = e->spec->threads.items[mdl_slot_at(e->m, (size_t)ch->slot)->thread];
  const ast_edge *ed = t->edges.items[ch->edge];
  VEC(Z3_ast) c = {0};
  vec_push(NULL, &c, smt_eq(e->s, v[ch->slot], smt_int(e->s, ed->from_index)));
  vec_push(NULL, &c, smt_eq(e->s, w[ch->slot], smt_int(e->s, ed->to_index)));
  for (size_t i = (size_t)e->shared_count; i < e->width; i++)
    if (i != (size_t)ch->slot) vec_push(NULL, &c, smt_eq(e->s, w[i], v[i]));
  smt_env env = env_of(e, v, w, smt_int(e->s, tid_of(e, (size_t)ch->slot)));
  vec_push(NULL, &c, esmt_edge(e->s, ed, &env, plain_term, e->s));
  Z3_ast all = smt_and(e->s, (unsigned)c.len, c.items);
  vec_free(&c);
  return all;
}

/* Some check of cs fails. */
static Z3_ast some_check_fails(encoder *e, const sem_checks *cs, const smt_env *env) {
  term_list ok = {0};
  for (size_t k = 0; k < cs->len; k++) vec_push(NULL, &ok, smt_expr(e->s, cs->items[k].holds, env));
  Z3_ast fails = smt_not(e->s, smt_and(e->s, (unsigned)ok.len, ok.items));
  vec_free(&ok);
  return fails;
}

/* The instance in slot i goes wrong: a check of its state fails
 * (sem_state_checks: its assertion, a thread invariant, an index). */
static void wrong_instance(encoder *e, Z3_ast *v, size_t i, term_list *alt) {
  const ast_thread *t = e->spec->threads.items[mdl_slot_at(e->m, i)->thread];
  smt_env env = env_of(e, v, NULL, smt_int(e->s, tid_of(e, i)));
  vec_foreach(&t->states, k) {
    const sem_checks *cs = sem_state_checks(t->states.items[k]);
    if (cs->len == 0) continue;
    Z3_ast wrong[2] = {smt_eq(e->s, v[i], smt_int(e->s, (int64_t)k)), some_check_fails(e, cs, &env)};
    vec_push(NULL, alt, smt_and(e->s, 2, wrong));
  }
}

/* Some instance goes wrong, or a system check fails. */
static Z3_ast bad(void *ctx, Z3_ast *v) {
  encoder *e = ctx;
  term_list alt = {0};
  for (size_t i = (size_t)e->shared_count; i < e->width; i++) wrong_instance(e, v, i, &alt);
  smt_env env = env_of(e, v, NULL, NULL);
  const sem_checks *cs = sem_system_checks(e->spec);
  for (size_t k = 0; k < cs->len; k++) vec_push(NULL, &alt, smt_not(e->s, smt_expr(e->s, cs->items[k].holds, &env)));
  Z3_ast any = smt_or(e->s, (unsigned)alt.len, alt.items);
  vec_free(&alt);
  return any;
}

/* ---------------------------------------------------------------- the face */

static size_t build_choices(encoder *e) {
  size_t count = 0, k = 0;
  for (size_t i = (size_t)e->shared_count; i < e->width; i++)
    count += e->spec->threads.items[mdl_slot_at(e->m, i)->thread]->edges.len;
  e->choices = xcalloc(count + 1, sizeof *e->choices);
  for (size_t i = (size_t)e->shared_count; i < e->width; i++) {
    const ast_thread *t = e->spec->threads.items[mdl_slot_at(e->m, i)->thread];
    vec_foreach(&t->edges, j) e->choices[k++] = (mdl_step){(int)i, (int)j};
  }
  return count;
}

static void destroy(mdl_symbolic *f) {
  encoder *e = (encoder *)f;
  free(e->consts);
  free(e->choices);
  free(e);
}

mdl_symbolic *product_symbolic(const mdl *m, const ast_spec *spec, smt *s) {
  encoder *e = xcalloc(1, sizeof *e);
  *e = (encoder){.s = s, .spec = spec, .m = m, .width = mdl_width(m), .shared_count = (int)spec->shared.len};
  e->consts = xcalloc(spec->consts.len + 1, sizeof *e->consts);
  vec_foreach(&spec->consts, i) e->consts[i] = spec->consts.items[i]->value;
  size_t steps = build_choices(e);
  e->face = (mdl_symbolic){
      .sys = {.s = s,
              .width = e->width,
              .step_count = steps,
              .ctx = e,
              .state = state_vars,
              .initial = initial,
              .domains = domains,
              .step = step,
              .bad = bad},
      .steps = e->choices,
      .destroy = destroy,
  };
  return &e->face;
}
