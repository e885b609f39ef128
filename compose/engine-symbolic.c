/* compose/engine-symbolic.c -- Z3 encoding of the product, BMC and Spacer.
 *
 * A state is one Z3 constant per slot of the model: shared variables as Int
 * or Bool, instances' control states as Int. tid is a literal per instance.
 * T(s, s') is a disjunction over (instance, edge) choices: the instance moves
 * from the edge's source to its target, every other instance stays, and the
 * shared part is the relation with the frame rule (or the guarded command). */
#include "engine-symbolic.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../core/arena.h"
#include "../core/interrupt.h"
#include "../core/smt-drive.h"
#include "../core/smt.h"
#include "../core/strbuf.h"
#include "edge-smt.h"

typedef struct choice {
  int slot; /* the instance */
  int edge; /* its thread's edge */
} choice;

typedef struct encoder {
  smt *s;               /* Z3 */
  const ast_spec *spec; /* the system */
  const mdl *m;         /* slot layout and descriptions */
  size_t width;         /* slots */
  int shared_count;     /* slots [0, shared_count) are shared variables */
  int64_t *consts;      /* per const: its value */
  choice *choices;      /* every (instance, edge) */
  size_t choice_count;  /* entries in choices */
  Z3_ast *vars;         /* the state the count/at callbacks read */
  double deadline;      /* CLOCK_MONOTONIC seconds, 0 = none */
} encoder;

/* ---------------------------------------------------------------- states */

/* One constant per slot, named "x@k" (k < 0: a bound variable "x@x" / "x@y"). */
static Z3_ast *state_vars(encoder *e, const char *suffix) {
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
static Z3_ast domains(encoder *e, Z3_ast *v) {
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

/* smt_expr as an esmt_term: this engine reads expressions as they are. */
static Z3_ast plain_term(void *ctx, const ir_expr *x, const smt_env *env) { return smt_expr(ctx, x, env); }

static Z3_ast initial(encoder *e, Z3_ast *v) {
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

/* The shared part of an edge, with the frame rule. */
static Z3_ast edge_formula(encoder *e, const ast_edge *ed, Z3_ast *v, Z3_ast *w, Z3_ast tid) {
  smt_env env = env_of(e, v, w, tid);
  return esmt_edge(e->s, ed, &env, plain_term, e->s);
}

/* Choice k (an esmt_step): its instance moves along its edge, the others stay. */
static Z3_ast choice_formula(void *ctx, size_t k, Z3_ast *v, Z3_ast *w) {
  encoder *e = ctx;
  const choice *ch = &e->choices[k];
  const ast_thread *t = e->spec->threads.items[mdl_slot_at(e->m, (size_t)ch->slot)->thread];
  const ast_edge *ed = t->edges.items[ch->edge];
  VEC(Z3_ast) c = {0};
  vec_push(NULL, &c, smt_eq(e->s, v[ch->slot], smt_int(e->s, ed->from_index)));
  vec_push(NULL, &c, smt_eq(e->s, w[ch->slot], smt_int(e->s, ed->to_index)));
  for (size_t i = (size_t)e->shared_count; i < e->width; i++)
    if (i != (size_t)ch->slot) vec_push(NULL, &c, smt_eq(e->s, w[i], v[i]));
  vec_push(NULL, &c, edge_formula(e, ed, v, w, smt_int(e->s, tid_of(e, (size_t)ch->slot))));
  Z3_ast all = smt_and(e->s, (unsigned)c.len, c.items);
  vec_free(&c);
  return all;
}

/* T(v, w) and domains(w); with sel, each alternative also fixes sel to its
 * choice number (so a model tells which step was taken). */
static Z3_ast transition(encoder *e, Z3_ast *v, Z3_ast *w, Z3_ast sel) {
  return esmt_transition(e->s, e->choice_count, choice_formula, e, v, w, sel, domains(e, w));
}

/* Some instance goes wrong, or a system invariant is false. */
static Z3_ast bad(encoder *e, Z3_ast *v) {
  VEC(Z3_ast) alt = {0};
  for (size_t i = (size_t)e->shared_count; i < e->width; i++) {
    const ast_thread *t = e->spec->threads.items[mdl_slot_at(e->m, i)->thread];
    smt_env env = env_of(e, v, NULL, smt_int(e->s, tid_of(e, i)));
    VEC(Z3_ast) inv = {0};
    vec_foreach(&t->invariants, k) vec_push(NULL, &inv, smt_expr(e->s, t->invariants.items[k], &env));
    vec_foreach(&t->states, k) {
      const ast_state *st = t->states.items[k];
      if (!st->assertion && inv.len == 0) continue;
      VEC(Z3_ast) ok = {0};
      vec_foreach(&inv, j) vec_push(NULL, &ok, inv.items[j]);
      if (st->assertion) vec_push(NULL, &ok, smt_expr(e->s, st->assertion, &env));
      Z3_ast wrong[2] = {smt_eq(e->s, v[i], smt_int(e->s, (int64_t)k)),
                         smt_not(e->s, smt_and(e->s, (unsigned)ok.len, ok.items))};
      vec_push(NULL, &alt, smt_and(e->s, 2, wrong));
      vec_free(&ok);
    }
    vec_free(&inv);
  }
  smt_env env = env_of(e, v, NULL, NULL);
  vec_foreach(&e->spec->properties, k)
    vec_push(NULL, &alt, smt_not(e->s, smt_expr(e->s, e->spec->properties.items[k], &env)));
  Z3_ast any = smt_or(e->s, (unsigned)alt.len, alt.items);
  vec_free(&alt);
  return any;
}

/* ---------------------------------------------------------------- BMC */

/* Reads a k-step trace out of a model into r. */
static void read_trace(encoder *e, Z3_model model, Z3_ast **frames, Z3_ast *sel, unsigned k, compose_result *r) {
  r->trace_steps = k;
  r->trace_states = xcalloc((k + 1) * e->width, sizeof *r->trace_states);
  r->trace = xcalloc(k + 1, sizeof *r->trace);
  for (unsigned j = 0; j <= k; j++)
    for (size_t i = 0; i < e->width; i++)
      smt_model_value(e->s, model, frames[j][i], &r->trace_states[j * e->width + i]);
  for (unsigned j = 0; j < k; j++) {
    int64_t n = 0;
    smt_model_value(e->s, model, sel[j], &n);
    r->trace[j] = (mdl_step){e->choices[n].slot, e->choices[n].edge};
  }
}

/* The unrolling for smt_bmc: frames[k] is the state at depth k, sel[k] the
 * choice of the step from it. */
typedef struct unrolling {
  encoder *e;
  Z3_ast **frames;   /* bound + 2 entries */
  Z3_ast *sel;       /* bound + 2 entries */
  compose_result *r; /* receives the trace */
} unrolling;

static bool extend(void *ctx, Z3_solver s, unsigned k) {
  unrolling *u = ctx;
  char name[32];
  if (k > 0) {
    snprintf(name, sizeof name, "step@%u", k - 1);
    u->sel[k - 1] = smt_var(u->e->s, name, false);
  }
  snprintf(name, sizeof name, "%u", k);
  u->frames[k] = state_vars(u->e, name);
  if (k == 0) {
    Z3_solver_assert(smt_z3(u->e->s), s, initial(u->e, u->frames[0]));
    return true;
  }
  Z3_solver_assert(smt_z3(u->e->s), s, transition(u->e, u->frames[k - 1], u->frames[k], u->sel[k - 1]));
  return true;
}

static Z3_ast bad_at(void *ctx, unsigned k) {
  unrolling *u = ctx;
  return bad(u->e, u->frames[k]);
}

static smt_bmc_answer reached(void *ctx, Z3_solver s, Z3_model m, unsigned k) {
  (void)s;
  unrolling *u = ctx;
  read_trace(u->e, m, u->frames, u->sel, k, u->r);
  return SMT_BMC_DONE;
}

/* Shortest counterexample up to bound steps: 1 found (in r), 0 none, -1 unknown. */
static int bmc(encoder *e, unsigned bound, compose_result *r) {
  unrolling u = {e, xcalloc(bound + 2, sizeof *u.frames), xcalloc(bound + 2, sizeof *u.sel), r};
  smt_bmc_steps steps = {extend, bad_at, reached, &u};
  char reason[160];
  unsigned depth = 0;
  int result = smt_bmc(e->s, bound, e->deadline, &steps, &depth, reason, sizeof reason);
  r->depth = depth;
  for (unsigned k = 0; k <= bound + 1; k++) free(u.frames[k]);
  free(u.frames);
  free(u.sel);
  return result;
}

/* ---------------------------------------------------------------- Spacer */

static Z3_ast forall(encoder *e, Z3_ast *a, Z3_ast *b, Z3_ast body) {
  Z3_context c = smt_z3(e->s);
  size_t n = e->width * (b ? 2 : 1);
  Z3_app *bound = xcalloc(n + 1, sizeof *bound);
  for (size_t i = 0; i < e->width; i++) {
    bound[i] = Z3_to_app(c, a[i]);
    if (b) bound[e->width + i] = Z3_to_app(c, b[i]);
  }
  Z3_ast q = n ? smt_keep(e->s, Z3_mk_forall_const(c, 0, (unsigned)n, bound, 0, NULL, body)) : body;
  free(bound);
  return q;
}

/* Inv's interpretation in the model, over the constants x (NULL: none given). */
static Z3_ast invariant_of(encoder *e, Z3_model model, Z3_func_decl inv, Z3_ast *x) {
  Z3_context c = smt_z3(e->s);
  Z3_func_interp fi = Z3_model_get_func_interp(c, model, inv);
  if (!fi) return Z3_model_has_interp(c, model, inv) ? NULL : smt_bool(e->s, true);
  Z3_func_interp_inc_ref(c, fi);
  Z3_ast body = smt_keep(e->s, Z3_func_interp_get_else(c, fi));
  Z3_func_interp_dec_ref(c, fi);
  return body ? smt_keep(e->s, Z3_substitute_vars(c, body, (unsigned)e->width, x)) : NULL;
}

/* The three implications of an inductive invariant, each by a fresh solver. */
static bool invariant_rechecked(encoder *e, Z3_ast inv_x, Z3_ast inv_y, Z3_ast *x, Z3_ast *y) {
  return smt_recheck(e->s, e->deadline, initial(e, x), transition(e, x, y, NULL), bad(e, x), inv_x, inv_y);
}

/* What smt_spacer's acceptance reads: Inv over x and y, and the certificate. */
typedef struct spacer_proof {
  encoder *e;
  Z3_func_decl inv;
  Z3_ast *x, *y;
  char **certificate;
} spacer_proof;

static bool accept(void *ctx, Z3_model model) {
  spacer_proof *p = ctx;
  Z3_ast ix = invariant_of(p->e, model, p->inv, p->x), iy = invariant_of(p->e, model, p->inv, p->y);
  if (!ix || !iy || !invariant_rechecked(p->e, ix, iy, p->x, p->y)) return false;
  Z3_context c = smt_z3(p->e->s);
  *p->certificate = xstrdup(Z3_ast_to_string(c, smt_keep(p->e->s, Z3_simplify(c, ix))));
  return true;
}

/* 1 safe (certificate set), 0 unsafe, -1 unknown (reason set). */
static int spacer(encoder *e, char **certificate, char *reason, size_t reason_size) {
  Z3_context c = smt_z3(e->s);
  Z3_sort *sorts = xcalloc(e->width + 1, sizeof *sorts);
  Z3_ast *x = state_vars(e, "x"), *y = state_vars(e, "y");
  for (size_t i = 0; i < e->width; i++) sorts[i] = Z3_get_sort(c, x[i]);
  Z3_func_decl inv = Z3_mk_func_decl(c, Z3_mk_string_symbol(c, "Inv"), (unsigned)e->width, sorts, Z3_mk_bool_sort(c));
  Z3_inc_ref(c, Z3_func_decl_to_ast(c, inv));
  Z3_ast inv_x = smt_keep(e->s, Z3_mk_app(c, inv, (unsigned)e->width, x));
  Z3_ast inv_y = smt_keep(e->s, Z3_mk_app(c, inv, (unsigned)e->width, y));
  Z3_solver s = smt_solver(e->s, e->deadline, true);
  Z3_ast step[2] = {inv_x, transition(e, x, y, NULL)};
  Z3_ast wrong[2] = {inv_x, bad(e, x)};
  Z3_solver_assert(c, s, forall(e, x, NULL, smt_implies(e->s, initial(e, x), inv_x)));
  Z3_solver_assert(c, s, forall(e, x, y, smt_implies(e->s, smt_and(e->s, 2, step), inv_y)));
  Z3_solver_assert(c, s, forall(e, x, NULL, smt_not(e->s, smt_and(e->s, 2, wrong))));
  spacer_proof p = {e, inv, x, y, certificate};
  int outcome = smt_spacer(e->s, s, e->deadline, accept, &p, reason, reason_size);
  Z3_solver_dec_ref(c, s);
  Z3_dec_ref(c, Z3_func_decl_to_ast(c, inv));
  free(sorts);
  free(x);
  free(y);
  return outcome;
}

/* ---------------------------------------------------------------- entry */

static void build_choices(encoder *e) {
  for (size_t i = (size_t)e->shared_count; i < e->width; i++)
    e->choice_count += e->spec->threads.items[mdl_slot_at(e->m, i)->thread]->edges.len;
  e->choices = xcalloc(e->choice_count + 1, sizeof *e->choices);
  size_t k = 0;
  for (size_t i = (size_t)e->shared_count; i < e->width; i++) {
    const ast_thread *t = e->spec->threads.items[mdl_slot_at(e->m, i)->thread];
    vec_foreach(&t->edges, j) e->choices[k++] = (choice){(int)i, (int)j};
  }
}

/* The trace must be a real run of the model that ends in a state that goes wrong. */
static bool replays(const mdl *m, compose_result *r) {
  size_t w = mdl_width(m);
  if (!mdl_initial_holds(m, r->trace_states)) return false;
  for (size_t k = 0; k < r->trace_steps; k++)
    if (!mdl_step_holds(m, r->trace_states + k * w, &r->trace[k], r->trace_states + (k + 1) * w)) return false;
  mdl_fault fault = MDL_FAULT_NONE;
  return !mdl_check(m, r->trace_states + r->trace_steps * w, &r->violation, &fault) && fault == MDL_FAULT_NONE;
}

static void give_unknown(compose_result *r, const char *reason) {
  r->verdict = VERDICT_UNKNOWN;
  snprintf(r->unknown_reason, sizeof r->unknown_reason, "%s", reason);
}

void symbolic_run(const ast_spec *spec, const mdl *m, const symbolic_options *o, compose_result *r,
                  char **certificate) {
  memset(r, 0, sizeof *r);
  *certificate = NULL;
  double start = smt_now();
  encoder e = {.s = smt_new(), .spec = spec, .m = m, .width = mdl_width(m), .shared_count = (int)spec->shared.len};
  e.deadline = o->timeout > 0 ? start + o->timeout : 0;
  e.consts = xcalloc(spec->consts.len + 1, sizeof *e.consts);
  vec_foreach(&spec->consts, i) e.consts[i] = spec->consts.items[i]->value;
  build_choices(&e);
  smt_watch *w = smt_watch_start(e.s, e.deadline);
  char reason[160] = "";
  int proof = spacer(&e, certificate, reason, sizeof reason);
  if (proof == 1) {
    r->verdict = VERDICT_SAFE;
  } else {
    unsigned bound = o->bmc_bound ? o->bmc_bound : 100;
    int found = bmc(&e, bound, r);
    if (found == 1 && replays(m, r)) r->verdict = VERDICT_UNSAFE;
    else if (found == 1) give_unknown(r, "the counterexample Z3 found did not replay on the model (an internal error)");
    else if (found == 0 && proof == 0)
      give_unknown(r, "Spacer proved the system unsafe, but no counterexample was found within the BMC bound");
    else if (found == 0) {
      r->verdict = VERDICT_UNKNOWN;
      snprintf(r->unknown_reason, sizeof r->unknown_reason, "%.100s; no counterexample within %u steps", reason, bound);
    } else
      give_unknown(r, e.deadline > 0 && smt_now() >= e.deadline - SMT_CHECK_SLACK
                          ? "the time limit (--timeout) was reached"
                          : "Z3 gave up during bounded model checking");
  }
  smt_watch_stop(w);
  if (r->verdict == VERDICT_UNKNOWN && interrupt_requested()) give_unknown(r, INTERRUPT_REASON);
  r->seconds = smt_now() - start;
  free(e.consts);
  free(e.choices);
  smt_free(e.s);
}
