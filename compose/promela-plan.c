/* compose/promela-plan.c -- how each step of the Promela model computes its
 * next values: a relation's x' == e conjuncts substituted or computed into
 * temporaries, the other bounded primes chosen from their types, the rest of
 * the relation split into the guard (pre-state only) and the checks; guarded
 * commands' parallel assignments ordered so that none reads an earlier
 * target. */
#include "promela-impl.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* Reports every literal and const in e whose value needs more than 32 bits
 * (the instance index of T[i]@S is used by the exporter, not by SPIN). */
void pml_check_numbers(pml *p, const ir_expr *e) {
  if (!e) return;
  if (e->kind == IR_INT && (e->big || !fits32(e->value))) {
    diag_error(p->src, e->at, "cannot export to Promela: %s does not fit in Promela's 32-bit int", e->text);
    p->ok = false;
  } else if (e->kind == IR_NAME && e->ref == REF_CONST && !p->konst[e->index]) {
    const ast_const *c = p->spec->consts.items[e->index];
    diag_error(p->src, e->at,
               "cannot export to Promela: const '%s' is %" PRId64 ", which does not fit in Promela's 32-bit int",
               c->name, c->value);
    p->ok = false;
  }
  if (e->kind == IR_AT) return;
  pml_check_numbers(p, e->a);
  pml_check_numbers(p, e->b);
  pml_check_numbers(p, e->c);
}

/* ---------------------------------------------------------------- planning: helpers */

/* True when every primed name in e is bound to an expression (or, with
 * temps, to a temporary). */
static bool primes_bound(const ir_expr *e, const bind *binds, bool temps) {
  if (!e) return true;
  if (e->kind == IR_NAME && e->primed) {
    bind_kind k = binds[e->index].kind;
    return k == BIND_SUBST || (temps && k == BIND_TEMP);
  }
  return primes_bound(e->a, binds, temps) && primes_bound(e->b, binds, temps) && primes_bound(e->c, binds, temps);
}

static bool is_prime_of(const ir_expr *e, int var) {
  return e->kind == IR_NAME && e->primed && e->ref == REF_SHARED && e->index == var;
}

/* The value conjunct c gives x' (x' == v, v == x', the same with <==>, and
 * x' or !x' for a bool), or NULL. */
static const ir_expr *defined_value(const pml *p, const ir_expr *c, int var) {
  if (is_prime_of(c, var)) return p->true_expr;
  if (c->kind == IR_UNARY && c->op == OP_NOT && is_prime_of(c->a, var)) return p->false_expr;
  if (c->kind != IR_BINARY || (c->op != OP_EQ && c->op != OP_IFF)) return NULL;
  if (is_prime_of(c->a, var)) return c->b;
  if (is_prime_of(c->b, var)) return c->a;
  return NULL;
}

/* True when e reads variable var in the pre-state (through substituted primes too). */
static bool reads_var(const ir_expr *e, const bind *binds, int var) {
  if (!e) return false;
  if (e->kind == IR_NAME && e->ref == REF_SHARED) {
    if (!e->primed) return e->index == var;
    return binds[e->index].kind == BIND_SUBST && reads_var(binds[e->index].expr, binds, var);
  }
  return reads_var(e->a, binds, var) || reads_var(e->b, binds, var) || reads_var(e->c, binds, var);
}

static step *step_new(pml *p, const ast_edge *e) {
  step *s = arena_alloc(p->arena, sizeof *s);
  s->edge = e;
  s->binds = arena_alloc(p->arena, (p->spec->shared.len + 1) * sizeof *s->binds);
  return s;
}

bool pml_is_deterministic(const step *s) {
  vec_foreach(&s->assigns, i)
    if (!s->assigns.items[i].value) return false;
  return s->chosen.len == 0 && s->computed.len == 0;
}

/* ---------------------------------------------------------------- planning: relations */

/* Binds, for each unbound primed variable in order, the first unused
 * conjunct x' == v whose v only reads primes bound already (temps: also
 * temporaries); repeats until nothing changes. */
static void bind_definitions(pml *p, step *s, const ir_expr **cs, size_t n, bool *used, const bool *primed,
                             bool temps) {
  for (bool changed = true; changed;) {
    changed = false;
    vec_foreach(&p->spec->shared, v) {
      if (!primed[v] || s->binds[v].kind != BIND_NONE) continue;
      for (size_t k = 0; k < n; k++) {
        const ir_expr *value = used[k] ? NULL : defined_value(p, cs[k], (int)v);
        if (!value || !primes_bound(value, s->binds, temps)) continue;
        used[k] = changed = true;
        s->binds[v] = (bind){temps ? BIND_TEMP : BIND_SUBST, value};
        assign_plan a = {(int)v, value};
        if (temps) vec_push(p->arena, &s->computed, a);
        else vec_push(p->arena, &s->assigns, a);
        break;
      }
    }
  }
}

static bool has_prime_of(const ir_expr *e, int var) {
  if (!e) return false;
  if (e->kind == IR_NAME && e->primed && e->ref == REF_SHARED && e->index == var) return true;
  return has_prime_of(e->a, var) || has_prime_of(e->b, var) || has_prime_of(e->c, var);
}

/* True when an unused conjunct could define x' once other primes are known. */
static bool may_be_defined(const pml *p, const ir_expr **cs, size_t n, const bool *used, int var) {
  for (size_t k = 0; k < n; k++) {
    const ir_expr *value = used[k] ? NULL : defined_value(p, cs[k], var);
    if (value && !has_prime_of(value, var)) return true;
  }
  return false;
}

/* Chooses the bounded primed variables that nothing could define, or else
 * the first undefined one; false when no bounded one is left to choose. */
static bool choose_some(pml *p, step *s, const ir_expr **cs, size_t n, const bool *used, const bool *primed) {
  int first = -1;
  bool any = false;
  vec_foreach(&p->spec->shared, v) {
    if (!primed[v] || s->binds[v].kind != BIND_NONE || pml_shared_var(p, (int)v)->type.kind == TYPE_INT) continue;
    if (first < 0) first = (int)v;
    if (may_be_defined(p, cs, n, used, (int)v)) continue;
    s->binds[v].kind = BIND_TEMP;
    vec_push(p->arena, &s->chosen, (int)v);
    any = true;
  }
  if (!any && first >= 0) {
    s->binds[first].kind = BIND_TEMP;
    vec_push(p->arena, &s->chosen, first);
  }
  return any || first >= 0;
}

/* Plans the conjunction cs[0..n) under the frame of the primed variables:
 * next values computed from the pre-state where a conjunct x' == v allows
 * (substituted), then bounded ones chosen and the rest computed from them,
 * and the other conjuncts sorted into the guard (pre-state only) and the
 * checks. Returns -1, or an unbounded variable whose next value is not
 * determined. */
static int plan_conjuncts(pml *p, step *s, const ir_expr **cs, size_t n, const bool *primed) {
  bool *used = xcalloc(n + 1, sizeof *used);
  bind_definitions(p, s, cs, n, used, primed, false);
  do bind_definitions(p, s, cs, n, used, primed, true);
  while (choose_some(p, s, cs, n, used, primed));
  int undetermined = -1;
  vec_foreach(&p->spec->shared, v)
    if (primed[v] && s->binds[v].kind == BIND_NONE && undetermined < 0) undetermined = (int)v;
  for (size_t k = 0; k < n; k++) {
    if (used[k]) continue;
    if (primes_bound(cs[k], s->binds, false)) vec_push(p->arena, &s->guard, cs[k]);
    else vec_push(p->arena, &s->checks, cs[k]);
  }
  free(used);
  return undetermined;
}

static int plan_part(pml *p, step *s, const ir_expr *e, const bool *primed) {
  ir_expr_list cs = {0};
  ir_flatten(e, OP_AND, &cs);
  int bad = plan_conjuncts(p, s, cs.items, cs.len, primed);
  vec_free(&cs);
  return bad;
}

static void report_undetermined(pml *p, const ir_expr *where, int var, bool split) {
  const char *name = pml_shared_var(p, var)->name;
  diag_error(p->src, where->at,
             "cannot export to Promela: this relation does not determine the next value of unbounded int '%s'; "
             "write %s' == EXPR as a top-level conjunct%s",
             name, name, split ? " of every top-level disjunct" : "");
  p->ok = false;
}

/* A relation is split into its top-level disjuncts when an unbounded
 * variable needs it (each disjunct must compute it), or when every disjunct
 * then becomes a deterministic step; otherwise it is one step. */
static void plan_relation(pml *p, int thread, const ast_edge *e) {
  size_t nv = p->spec->shared.len;
  bool *primed = xcalloc(nv + 1, sizeof *primed);
  ir_mark_primed(e->relation, primed);
  bool unbounded = false;
  for (size_t v = 0; v < nv; v++) unbounded |= primed[v] && pml_shared_var(p, (int)v)->type.kind == TYPE_INT;
  ir_expr_list ds = {0};
  ir_flatten(e->relation, OP_OR, &ds);
  step_list *out = &p->steps[thread];
  bool split = false;
  if (ds.len > 1) {
    step **parts = xcalloc(ds.len, sizeof *parts);
    int *bad = xcalloc(ds.len, sizeof *bad);
    bool all_direct = true;
    vec_foreach(&ds, i) {
      parts[i] = step_new(p, e);
      bad[i] = plan_part(p, parts[i], ds.items[i], primed);
      all_direct &= bad[i] < 0 && pml_is_deterministic(parts[i]);
    }
    split = unbounded || all_direct;
    for (size_t i = 0; split && i < ds.len; i++) {
      if (bad[i] >= 0) report_undetermined(p, ds.items[i], bad[i], true);
      parts[i]->part = (int)i + 1;
      parts[i]->parts = (int)ds.len;
      vec_push(p->arena, out, parts[i]);
    }
    free(parts);
    free(bad);
  }
  if (!split) {
    step *s = step_new(p, e);
    int bad = plan_part(p, s, e->relation, primed);
    if (bad >= 0) report_undetermined(p, e->relation, bad, false);
    vec_push(p->arena, out, s);
  }
  vec_free(&ds);
  free(primed);
}

/* ---------------------------------------------------------------- planning: commands and threads */

static void plan_command(pml *p, int thread, const ast_edge *e) {
  step *s = step_new(p, e);
  if (e->guard) vec_push(p->arena, &s->guard, e->guard);
  vec_foreach(&e->assigns, i) {
    const ast_assign *as = &e->assigns.items[i];
    if (!as->value && pml_shared_var(p, as->var_index)->type.kind == TYPE_INT) {
      diag_error(p->src, as->var_at,
                 "cannot export to Promela: '%s := *' chooses among infinitely many values of unbounded int '%s'",
                 as->var, as->var);
      p->ok = false;
    }
    vec_push(p->arena, &s->assigns, ((assign_plan){as->var_index, as->value}));
  }
  vec_push(p->arena, &p->steps[thread], s);
}

/* Orders the parallel assignments so that none reads a variable that an
 * earlier one wrote (choices last); when a cycle prevents that (x := y,
 * y := x), keeps the order and marks the step to go through temporaries. */
static void order_assigns(pml *p, step *s) {
  size_t n = s->assigns.len;
  assign_plan *order = arena_alloc(p->arena, (n + 1) * sizeof *order);
  bool *done = xcalloc(n + 1, sizeof *done);
  size_t k = 0;
  for (bool progress = true; progress;) {
    progress = false;
    for (size_t i = 0; i < n; i++) {
      const assign_plan *a = &s->assigns.items[i];
      if (done[i] || !a->value) continue;
      bool read_later = false;
      for (size_t j = 0; j < n; j++)
        read_later |= j != i && !done[j] && reads_var(s->assigns.items[j].value, s->binds, a->var);
      if (read_later) continue;
      order[k++] = *a;
      done[i] = progress = true;
    }
  }
  for (size_t i = 0; i < n; i++)
    if (!done[i] && s->assigns.items[i].value) s->via_temps = true;
  for (size_t i = 0; !s->via_temps && i < n; i++)
    if (!s->assigns.items[i].value) order[k++] = s->assigns.items[i];
  if (!s->via_temps && n > 0) memcpy(s->assigns.items, order, n * sizeof *order);
  free(done);
}

/* Orders the assignments and names every temporary that the step uses. */
static void plan_temps(pml *p, int thread, step *s) {
  order_assigns(p, s);
  vec_foreach(&s->assigns, i)
    if (s->via_temps && s->assigns.items[i].value) p->temps_of[thread][s->assigns.items[i].var] = true;
  vec_foreach(&s->chosen, i) p->temps_of[thread][s->chosen.items[i]] = true;
  vec_foreach(&s->computed, i) p->temps_of[thread][s->computed.items[i].var] = true;
}

static void check_thread_numbers(pml *p, const ast_thread *t) {
  vec_foreach(&t->invariants, i) pml_check_numbers(p, t->invariants.items[i]);
  const ir_expr *last = NULL;
  vec_foreach(&t->states, i) {
    if (t->states.items[i]->assertion != last) pml_check_numbers(p, t->states.items[i]->assertion);
    last = t->states.items[i]->assertion;
  }
  vec_foreach(&t->edges, i) {
    const ast_edge *e = t->edges.items[i];
    pml_check_numbers(p, e->kind == EDGE_RELATION ? e->relation : e->guard);
    vec_foreach(&e->assigns, k) pml_check_numbers(p, e->assigns.items[k].value);
  }
}

void pml_plan_threads(pml *p) {
  vec_foreach(&p->spec->instances, i) {
    int t = p->spec->instances.items[i]->thread_index;
    const ast_thread *th = p->spec->threads.items[t];
    check_thread_numbers(p, th);
    vec_foreach(&th->edges, k) {
      if (th->edges.items[k]->kind == EDGE_RELATION) plan_relation(p, t, th->edges.items[k]);
      else plan_command(p, t, th->edges.items[k]);
    }
    vec_foreach(&p->steps[t], k) plan_temps(p, t, p->steps[t].items[k]);
  }
}
