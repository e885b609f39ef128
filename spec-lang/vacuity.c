/* spec-lang/vacuity.c -- guards and assertions that nothing satisfies. */
#include "vacuity.h"

#include <stdio.h>
#include <stdlib.h>

#include "../core/arena.h"
#include "../core/smt.h"

typedef struct vacuity {
  smt *s;
  const ast_spec *spec;
  Z3_ast *cur, *next;  /* per shared cell: before and after a step */
  Z3_ast domains;      /* every cell, before and after, is within its type */
  int64_t *consts;     /* per const: its value */
  unsigned fresh;      /* names made for count() and T[i]@S */
} vacuity;

/* count(T@S) and T[i]@S are not allowed in threads; should a future rule
 * allow them, an unconstrained term keeps the answer an over-approximation. */
static Z3_ast any_count(void *ctx, int thread, int state) {
  vacuity *v = ctx;
  char name[32];
  (void)thread, (void)state;
  snprintf(name, sizeof name, "count!%u", v->fresh++);
  return smt_var(v->s, name, false);
}

static Z3_ast any_at(void *ctx, int thread, int64_t index, int state) {
  vacuity *v = ctx;
  char name[32];
  (void)thread, (void)index, (void)state;
  snprintf(name, sizeof name, "at!%u", v->fresh++);
  return smt_var(v->s, name, true);
}

/* lo <= x <= hi when cell's type is a range, else true. */
static Z3_ast in_type(smt *s, const ast_shared *cell, Z3_ast x) {
  if (cell->type.kind != TYPE_RANGE) return smt_bool(s, true);
  Z3_ast both[2] = {smt_le(s, smt_int(s, cell->type.lo_value), x), smt_le(s, x, smt_int(s, cell->type.hi_value))};
  return smt_and(s, 2, both);
}

static void declare_cells(vacuity *v) {
  size_t n = v->spec->shared.len;
  Z3_ast *in = xcalloc(2 * n + 1, sizeof *in);
  v->cur = xcalloc(n + 1, sizeof *v->cur);
  v->next = xcalloc(n + 1, sizeof *v->next);
  vec_foreach(&v->spec->shared, i) {
    const ast_shared *cell = v->spec->shared.items[i];
    char name[32];
    snprintf(name, sizeof name, "g%zu", i);
    v->cur[i] = smt_var(v->s, name, cell->type.kind == TYPE_BOOL);
    snprintf(name, sizeof name, "g%zu'", i);
    v->next[i] = smt_var(v->s, name, cell->type.kind == TYPE_BOOL);
    in[2 * i] = in_type(v->s, cell, v->cur[i]);
    in[2 * i + 1] = in_type(v->s, cell, v->next[i]);
  }
  v->domains = smt_and(v->s, (unsigned)(2 * n), in);
  free(in);
}

/* tid is the number of one of t's instances (any number >= 1 when the
 * system lists none). */
static Z3_ast tid_of(vacuity *v, const ast_thread *t, Z3_ast tid) {
  VEC(Z3_ast) any = {0};
  vec_foreach(&v->spec->instances, k) {
    const ast_instance *in = v->spec->instances.items[k];
    if (in->thread_index != t->index) continue;
    Z3_ast range[2] = {smt_le(v->s, smt_int(v->s, in->first_tid), tid),
                       smt_le(v->s, tid, smt_int(v->s, in->first_tid + in->count_value - 1))};
    vec_push(NULL, &any, smt_and(v->s, 2, range));
  }
  Z3_ast r = any.len ? smt_or(v->s, (unsigned)any.len, any.items) : smt_le(v->s, smt_int(v->s, 1), tid);
  vec_free(&any);
  return r;
}

/* True when Z3 shows within VACUITY_TIMEOUT that no values within the
 * domains (and tid within t's instances) satisfy e. */
static bool unsatisfiable(vacuity *v, const ast_thread *t, const ir_expr *e) {
  Z3_ast tid = smt_var(v->s, "tid", false);
  smt_env env = {.cur = v->cur, .next = v->next, .tid = tid, .consts = v->consts, .count = any_count, .at = any_at, .ctx = v};
  Z3_ast all[3] = {v->domains, tid_of(v, t, tid), smt_expr(v->s, e, &env)};
  double deadline = smt_now() + VACUITY_TIMEOUT;
  Z3_solver sv = smt_solver(v->s, deadline, false);
  Z3_solver_assert(smt_z3(v->s), sv, smt_and(v->s, 3, all));
  bool unsat = smt_check(v->s, sv, deadline) == Z3_L_FALSE && !smt_failed(v->s);
  Z3_solver_dec_ref(smt_z3(v->s), sv);
  return unsat;
}

/* True when e reads something that varies: a shared variable, an element,
 * tid (sema already judged the constant ones). */
static bool reads_state(const ir_expr *e) {
  if (!e) return false;
  if (e->kind == IR_TID || e->kind == IR_INDEX || e->kind == IR_COUNT || e->kind == IR_AT) return true;
  if (e->kind == IR_NAME) return e->ref == REF_SHARED;
  if (e->kind == IR_QUANT) return reads_state(e->lowered);
  return reads_state(e->a) || reads_state(e->b) || reads_state(e->c);
}

static void check_edge(vacuity *v, const ast_thread *t, const ast_edge *e) {
  bool relation = e->kind == EDGE_RELATION;
  const ir_expr *cond = relation ? e->relation : e->guard;
  if (reads_state(cond) && unsatisfiable(v, t, cond))
    diag_warning(v->spec->src, cond->at, "false-guard",
                 "this edge can never be taken: its %s is false for every value of the shared variables",
                 relation ? "relation" : "guard");
}

static void check_states(vacuity *v, const ast_thread *t, const ast_state_decl *d) {
  const ir_expr *a = d->assertion;
  if (!a || (a->kind == IR_BOOL && !a->value) || !unsatisfiable(v, t, a)) return;
  diag_warning(v->spec->src, a->at, "false-assertion",
               "state '%s' always goes wrong: its assertion is false for every value of the shared variables",
               d->states.items[0]->name);
}

static void check_thread(vacuity *v, const ast_thread *t) {
  vec_foreach(&t->items, i) {
    const ast_thread_item *it = &t->items.items[i];
    if (it->kind == ITEM_STATES) check_states(v, t, it->states);
    else if (it->kind == ITEM_EDGE) check_edge(v, t, it->edge);
  }
}

void vacuity_warn(const ast_spec *spec) {
  vacuity v = {.s = smt_new(), .spec = spec};
  v.consts = xcalloc(spec->consts.len + 1, sizeof *v.consts);
  vec_foreach(&spec->consts, i) v.consts[i] = spec->consts.items[i]->value;
  declare_cells(&v);
  vec_foreach(&spec->threads, i) check_thread(&v, spec->threads.items[i]);
  free(v.cur);
  free(v.next);
  free(v.consts);
  smt_free(v.s);
}
