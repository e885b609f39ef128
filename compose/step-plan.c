/* compose/step-plan.c -- how each step of an exported model (Promela, Murphi)
 * computes its next values: a relation's plans (the semantic layer's, one step per
 * top-level disjunct) as values substituted from the pre-state, temporaries
 * computed or chosen from their types, a guard (pre-state only) and checks;
 * guarded commands' parallel assignments ordered so that none reads an
 * earlier target. */
#include "step-plan.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../spec-lang/semantics.h"

/* ---------------------------------------------------------------- planning: helpers */

/* The cell e names as a whole (a scalar, or an element by a constant index), or -1. */
static int cell_of(const ir_expr *e) {
  if (e->ref != REF_SHARED) return -1;
  if (e->kind == IR_NAME) return e->index;
  return e->kind == IR_INDEX ? e->cell : -1;
}

/* True when every primed name in e is bound to an expression (or, with
 * temps, to a temporary). */
static bool primes_bound(const ir_expr *e, const bind *binds, bool temps) {
  if (!e) return true;
  if (e->kind == IR_QUANT) return primes_bound(e->lowered, binds, temps);
  if ((e->kind == IR_NAME || e->kind == IR_INDEX) && e->primed) {
    int c = cell_of(e);
    bind_kind k = c >= 0 ? binds[c].kind : BIND_NONE;
    return k == BIND_SUBST || (temps && k == BIND_TEMP);
  }
  return primes_bound(e->a, binds, temps) && primes_bound(e->b, binds, temps) && primes_bound(e->c, binds, temps);
}

/* True when e may read cell var in the pre-state (through substituted primes
 * too; an element by an index that is not constant may be any of its array). */
static bool reads_var(const ir_expr *e, const bind *binds, int var) {
  if (!e) return false;
  if (e->kind == IR_QUANT) return reads_var(e->lowered, binds, var);
  if ((e->kind == IR_NAME || e->kind == IR_INDEX) && e->ref == REF_SHARED) {
    int c = cell_of(e);
    if (c < 0) return var >= e->index && var < e->index + e->extent;
    if (!e->primed) return c == var;
    return binds[c].kind == BIND_SUBST && reads_var(binds[c].expr, binds, var);
  }
  return reads_var(e->a, binds, var) || reads_var(e->b, binds, var) || reads_var(e->c, binds, var);
}

static step *step_new(planner *p, const ast_edge *e) {
  step *s = arena_alloc(p->arena, sizeof *s);
  s->edge = e;
  s->binds = arena_alloc(p->arena, (p->spec->shared.len + 1) * sizeof *s->binds);
  return s;
}

bool plan_is_deterministic(const step *s) {
  vec_foreach(&s->assigns, i)
    if (!s->assigns.items[i].value) return false;
  return s->chosen.len == 0 && s->computed.len == 0;
}

/* ---------------------------------------------------------------- planning: relations */

/* Step s for one plan of the semantic layer: a value from the pre-state is
 * substituted for x', any other value goes through a temporary (computed, or
 * chosen from the type); the disjunct's other conjuncts become the guard when
 * they read the pre-state only, else checks. */
static void plan_disjunct(planner *p, step *s, const sem_plan *plan) {
  for (size_t k = 0; k < plan->step_count; k++) {
    const sem_step *st = &plan->steps[k];
    bool subst = st->def && primes_bound(st->def, s->binds, false);
    if (st->def) vec_push(p->arena, subst ? &s->assigns : &s->computed, ((assign_plan){st->var, st->def, NULL}));
    else vec_push(p->arena, &s->chosen, st->var);
    s->binds[st->var] = (bind){subst ? BIND_SUBST : BIND_TEMP, st->def};
  }
  ir_expr_list cs = {0};
  ir_flatten(plan->test, OP_AND, &cs);
  vec_foreach(&cs, i) {
    bool used = false;
    for (size_t k = 0; k < plan->step_count; k++) used |= plan->steps[k].from == cs.items[i];
    if (used) continue;
    if (primes_bound(cs.items[i], s->binds, false)) vec_push(p->arena, &s->guard, cs.items[i]);
    else vec_push(p->arena, &s->checks, cs.items[i]);
  }
  vec_free(&cs);
}

/* Reports what makes the plans of edge e unusable; false when it did. */
static bool plans_usable(planner *p, const ast_edge *e, const sem_plans *plans) {
  if (plans->too_many) {
    diag_error(p->src, e->kind == EDGE_RELATION ? e->relation->at : e->from_at,
               "cannot export to %s: this edge writes array elements by more than %d combinations of indices",
               p->target, SEM_MAX_CASES);
  } else if (plans->undetermined >= 0 && e->kind == EDGE_COMMAND) {
    const char *name = plan_var(p, plans->undetermined)->name;
    diag_error(p->src, e->from_at,
               "cannot export to %s: this edge chooses among infinitely many values of unbounded int '%s'", p->target,
               name);
  } else if (plans->undetermined >= 0) {
    const char *name = plan_var(p, plans->undetermined)->name;
    diag_error(p->src, plans->undetermined_at->at,
               "cannot export to %s: this relation does not determine the next value of unbounded int '%s'; "
               "write %s' == EXPR as a top-level conjunct%s",
               p->target, name, name, plans->count > 1 ? " of every top-level disjunct" : "");
  } else {
    return true;
  }
  p->ok = false;
  return false;
}

/* One step per plan of the edge (sem_edge_plans: per top-level disjunct of
 * a relation, and per element written by an index that is not constant). */
static void plan_relation(planner *p, int thread, const ast_edge *e) {
  const sem_plans *plans = sem_edge_plans(e);
  if (!plans_usable(p, e, plans)) return;
  for (size_t i = 0; i < plans->count; i++) {
    step *s = step_new(p, e);
    s->plan = &plans->items[i];
    if (plans->count > 1) s->parts = (int)plans->count;
    plan_disjunct(p, s, &plans->items[i]);
    vec_push(p->arena, &p->steps[thread], s);
  }
}

/* ---------------------------------------------------------------- planning: commands and threads */

static void order_assigns(planner *p, step *s);

/* A guarded command as one step of plain assignments: an element written by
 * an index that is not constant is written as a[i] = v, unless the step has
 * to go through temporaries (a cycle of reads) or chooses such an element's
 * value; then it follows its plans (one step per element). */
static void plan_command(planner *p, int thread, const ast_edge *e) {
  step *s = step_new(p, e);
  bool by_plans = false;
  if (e->guard) vec_push(p->arena, &s->guard, e->guard);
  vec_foreach(&e->assigns, i) {
    const ast_assign *as = &e->assigns.items[i];
    bool element = as->target->kind == IR_INDEX && as->target->cell < 0;
    by_plans |= element && !as->value;
    if (!as->value && !element && plan_var(p, as->var_index)->type.kind == TYPE_INT) {
      diag_error(p->src, as->var_at,
                 "cannot export to %s: '%s := *' chooses among infinitely many values of unbounded int '%s'", p->target,
                 as->var, as->var);
      p->ok = false;
    }
    vec_push(p->arena, &s->assigns, ((assign_plan){as->var_index, as->value, element ? as->target : NULL}));
  }
  if (sem_edge_plans(e) && !by_plans) {
    order_assigns(p, s);
    by_plans = s->via_temps;
  }
  if (by_plans) plan_relation(p, thread, e);
  else vec_push(p->arena, &p->steps[thread], s);
}

/* True when b's value or index may read a cell that a writes (any element of
 * its array for an element a[i]). */
static bool reads_target(const step *s, const assign_plan *b, const assign_plan *a) {
  int first = a->var, last = a->element ? a->var + (int)a->element->extent - 1 : a->var;
  for (int var = first; var <= last; var++) {
    if (reads_var(b->value, s->binds, var)) return true;
    if (b->element && reads_var(b->element->a, s->binds, var)) return true;
  }
  return false;
}

/* Orders the parallel assignments so that none reads a variable that an
 * earlier one wrote (choices last); when a cycle prevents that (x := y,
 * y := x), keeps the order and marks the step to go through temporaries. */
static void order_assigns(planner *p, step *s) {
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
      for (size_t j = 0; j < n; j++) read_later |= j != i && !done[j] && reads_target(s, &s->assigns.items[j], a);
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
static void plan_temps(planner *p, int thread, step *s) {
  order_assigns(p, s);
  vec_foreach(&s->assigns, i)
    if (s->via_temps && s->assigns.items[i].value) p->temps_of[thread][s->assigns.items[i].var] = true;
  vec_foreach(&s->chosen, i) p->temps_of[thread][s->chosen.items[i]] = true;
  vec_foreach(&s->computed, i) p->temps_of[thread][s->computed.items[i].var] = true;
}

void plan_threads(planner *p) {
  vec_foreach(&p->spec->instances, i) {
    int t = p->spec->instances.items[i]->thread_index;
    const ast_thread *th = p->spec->threads.items[t];
    if (p->check_thread) p->check_thread(p->ctx, th);
    vec_foreach(&th->edges, k) {
      if (th->edges.items[k]->kind == EDGE_RELATION) plan_relation(p, t, th->edges.items[k]);
      else plan_command(p, t, th->edges.items[k]);
    }
    vec_foreach(&p->steps[t], k) plan_temps(p, t, p->steps[t].items[k]);
  }
}

planner plan_new(const ast_spec *spec, arena *a, const char *target) {
  size_t nt = spec->threads.len, nv = spec->shared.len;
  planner p = {.spec = spec, .src = spec->src, .arena = a, .target = target, .ok = true};
  p.steps = arena_alloc(a, (nt + 1) * sizeof *p.steps);
  p.temps_of = arena_alloc(a, (nt + 1) * sizeof *p.temps_of);
  for (size_t t = 0; t < nt; t++) p.temps_of[t] = arena_alloc(a, nv + 1);
  return p;
}

/* ---------------------------------------------------------------- values */

bool plan_needs_range_check(const ast_spec *spec, int var, const ir_expr *value) {
  const ast_type *ty = &spec->shared.items[var]->type;
  int64_t v;
  if (!value || ty->kind != TYPE_RANGE) return false;
  if (sem_constant(spec, value, &v)) return v < ty->lo_value || v > ty->hi_value;
  if (value->kind != IR_NAME || value->primed || value->ref != REF_SHARED) return true;
  const ast_type *from = &spec->shared.items[value->index]->type;
  return from->kind != TYPE_RANGE || from->lo_value < ty->lo_value || from->hi_value > ty->hi_value;
}

bool plan_constantly_true(const ast_spec *spec, const ir_expr *e) {
  int64_t v;
  return sem_constant(spec, e, &v) && v;
}

/* The constant the initial state's plan gives var (sem_initial_plans: one
 * plan, with a step that defines var by a constant), as from `x == C`. */
static bool init_value(const ast_spec *spec, int var, int64_t *value) {
  const sem_plans *plans = sem_initial_plans(spec);
  if (plans->count != 1) return false;
  const sem_plan *plan = &plans->items[0];
  for (size_t k = 0; k < plan->step_count; k++)
    if (plan->steps[k].var == var) return plan->steps[k].def && sem_constant(spec, plan->steps[k].def, value);
  return false;
}

bool plan_start_value(const ast_spec *spec, int c, int64_t *value, bool *from_init) {
  const ast_shared *v = spec->shared.items[c];
  *from_init = !v->init && v->type.kind == TYPE_INT && init_value(spec, c, value);
  return *from_init || (v->init && sem_constant(spec, v->init, value));
}

bool plan_common_value(const ast_spec *spec, const ast_shared *v, int64_t *value) {
  if (v->init) return sem_constant(spec, v->init, value);
  for (int64_t k = 0; k < v->length; k++) {
    int64_t x;
    bool from_init;
    if (!plan_start_value(spec, v->index + (int)k, &x, &from_init) || (k > 0 && x != *value)) return false;
    *value = x;
  }
  return v->length > 0;
}

const ast_instance *plan_instance_of(const ast_spec *spec, int thread) {
  vec_foreach(&spec->instances, i)
    if (spec->instances.items[i]->thread_index == thread) return spec->instances.items[i];
  return NULL;
}

/* ---------------------------------------------------------------- numbers */

static bool fits32(int64_t v) { return v >= INT32_MIN && v <= INT32_MAX; }

/* Reports e itself when it is a literal or a const beyond 32 bits. */
static void check_number(planner *p, const ir_expr *e, const char *values) {
  if (e->kind == IR_INT && (e->big || !fits32(e->value))) {
    diag_error(p->src, e->at, "cannot export to %s: %s does not fit in %s", p->target, e->text, values);
    p->ok = false;
  } else if (e->kind == IR_NAME && e->ref == REF_CONST && !fits32(p->spec->consts.items[e->index]->value)) {
    const ast_const *c = p->spec->consts.items[e->index];
    diag_error(p->src, e->at, "cannot export to %s: const '%s' is %" PRId64 ", which does not fit in %s", p->target,
               c->name, c->value, values);
    p->ok = false;
  }
}

void plan_check_numbers(planner *p, const ir_expr *e, const char *values) {
  if (!e) return;
  check_number(p, e, values);
  if (e->kind == IR_AT) return; /* its index is the exporter's */
  plan_check_numbers(p, e->a, values);
  plan_check_numbers(p, e->b, values);
  plan_check_numbers(p, e->c, values);
}
