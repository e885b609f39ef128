/* conformance/instrument.c -- building C(T, T#) (reference section 8).
 *
 * Layout of the variables: the concrete program's variables keep their
 * indices (so the code's expressions are reused as they are: vars 0..S-1 are
 * the spec's shared variables g), then u (one VAR_OLD per shared variable),
 * F (one VAR_CAND per abstract state), the next F (VAR_TEMP), and tid.
 */
#include "instrument.h"

#include <stdlib.h>
#include <string.h>

#include "../compose/forall-param.h"
#include "../spec-lang/semantics.h"

typedef struct ins {
  prog *p;                   /* the program being built */
  const prog *code;          /* the concrete thread */
  const ast_spec *spec;      /* for consts and shared declarations */
  const ast_thread *thread;  /* T# */
  int shared_count;          /* S */
  int old_base;              /* u_i = old_base + i */
  int cand_base;             /* F_q = cand_base + q */
  int next_base;             /* next F_q = next_base + q */
  int tid;                   /* the tid variable, or -1 */
  int64_t mover;             /* lifting a move's relation: the tid of the instance that moves, else 0 */
  const conform_env *env;    /* the other threads' moves */
  bool initial_checked;      /* start from the spec's initial states */
  const ir_expr *reachable;  /* the system is in a reachable state between steps (or NULL: not known) */
  const ir_expr *closure;    /* the moves between two steps as one relation over (u, g), or NULL: a loop of moves */
  int *image;                /* per concrete location: its copy */
  int *post;                 /* per concrete boundary: the F update leading to it, or -1 */
  const ir_expr **assertion; /* per state: A_q over g, or NULL */
  int n_var;                 /* check --for-all: N (VAR_PARAM), else -1 */
  int param;                 /* check --for-all: N's const index */
  bool *depends;             /* check --for-all: per const, computed from N */
  const ir_expr **range;     /* check --for-all: per shared variable whose range depends on N, lo <= g <= hi */
  const ir_expr *ranges;     /* check --for-all: all of those ranges hold (ranges_hold, built once), or NULL */
  ins_probes probes;         /* what to assert besides C(T, T#)'s own checks */
} ins;

/* ---------------------------------------------------------------- expressions */

static ir_expr *binary(ins *x, ir_op op, const ir_expr *l, const ir_expr *r) {
  ir_expr *e = ir_binary(x->p->arena, l->at, op, (ir_expr *)l, (ir_expr *)r);
  e->type = op >= OP_LT ? TY_BOOL : TY_INT;
  return e;
}

static ir_expr *negation(ins *x, const ir_expr *a) {
  ir_expr *e = ir_unary(x->p->arena, a->at, OP_NOT, (ir_expr *)a);
  e->type = TY_BOOL;
  return e;
}

static ir_expr *truth(ins *x, bool value) {
  ir_expr *e = ir_bool(x->p->arena, (loc){0, 0}, value);
  e->type = TY_BOOL;
  return e;
}

static ir_expr *number(ins *x, int64_t v) {
  uint64_t magnitude = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
  ir_expr *e = ir_int(x->p->arena, (loc){0, 0}, arena_printf(x->p->arena, "%llu", (unsigned long long)magnitude));
  e->type = TY_INT;
  if (v >= 0) return e;
  e = ir_unary(x->p->arena, e->at, OP_NEG, e);
  e->type = TY_INT;
  return e;
}

static const ir_expr *var(ins *x, int v) { return prog_var_ref(x->p, v, (loc){0, 0}); }

/* Joins with op (AND/OR); the empty join is the unit (true/false). */
static const ir_expr *join(ins *x, ir_op op, const ir_expr *acc, const ir_expr *e) {
  return acc ? binary(x, op, acc, e) : e;
}

static const ir_expr *finish(ins *x, ir_op op, const ir_expr *acc) { return acc ? acc : truth(x, op == OP_AND); }

static const ir_expr *lift(ins *x, const ir_expr *e, bool relation);

/* Const c: its value; under check --for-all N, N is a variable of C(T, T#)
 * and a const computed from N is its definition over that variable. */
static const ir_expr *constant(ins *x, int c) {
  if (x->n_var < 0 || (c != x->param && !x->depends[c])) return number(x, x->spec->consts.items[c]->value);
  return c == x->param ? var(x, x->n_var) : lift(x, x->spec->consts.items[c]->value_expr, false);
}

/* Cell c's program variable: g, or u when read before the step. */
static int cell_var(const ins *x, int c, bool primed, bool relation) {
  return primed || !relation ? c : x->old_base + c;
}

/* An element: its cell's variable, or a chain of ?: over the cells (the
 * last stands for every index outside the array: the candidates' bounds
 * checks make such a state go wrong first). */
static const ir_expr *lift_element(ins *x, const ir_expr *e, bool relation) {
  if (e->cell >= 0) return var(x, cell_var(x, e->cell, e->primed, relation));
  const ir_expr *index = lift(x, e->a, relation);
  const ir_expr *value = var(x, cell_var(x, e->index + (int)e->extent - 1, e->primed, relation));
  for (int64_t k = e->extent - 2; k >= 0; k--) {
    ir_expr *t = ir_ite(x->p->arena, e->at, binary(x, OP_EQ, index, number(x, k)),
                        (ir_expr *)var(x, cell_var(x, e->index + (int)k, e->primed, relation)), (ir_expr *)value);
    t->type = e->type;
    value = t;
  }
  return value;
}

/* A spec expression over the program's variables: x' is g, x is u in a
 * relation and g elsewhere, consts become their values. */
static const ir_expr *lift(ins *x, const ir_expr *e, bool relation) {
  switch (e->kind) {
  case IR_NAME:
    if (e->ref == REF_CONST) return constant(x, e->index);
    return var(x, cell_var(x, e->index, e->primed, relation));
  case IR_INDEX: return lift_element(x, e, relation);
  case IR_QUANT: return lift(x, e->lowered, relation);
  case IR_TID: return x->mover ? number(x, x->mover) : var(x, x->tid);
  case IR_UNARY: {
    ir_expr *u = ir_unary(x->p->arena, e->at, e->op, (ir_expr *)lift(x, e->a, relation));
    u->type = e->type;
    return u;
  }
  case IR_BINARY: return binary(x, e->op, lift(x, e->a, relation), lift(x, e->b, relation));
  case IR_ITE: {
    ir_expr *t = ir_ite(x->p->arena, e->at, (ir_expr *)lift(x, e->a, relation), (ir_expr *)lift(x, e->b, relation),
                        (ir_expr *)lift(x, e->c, relation));
    t->type = e->type;
    return t;
  }
  default: return e; /* literals */
  }
}

/* The conjunction of a sem_conj over the program's variables: a relation
 * over (u, g), else (the initial states) over g. */
static const ir_expr *lifted_over(ins *x, const sem_conj *meaning, bool relation) {
  const ir_expr *all = NULL;
  for (size_t k = 0; k < meaning->len; k++) all = join(x, OP_AND, all, lift(x, meaning->items[k], relation));
  return finish(x, OP_AND, all);
}

/* A step's meaning (an edge's sem_edge, or sem_idle) over (u, g). */
static const ir_expr *lifted(ins *x, const sem_conj *meaning) { return lifted_over(x, meaning, true); }

/* The checks of state st over g (sem_state_checks: its assertion, the
 * thread invariants, the array indices its edges read), or NULL. */
static const ir_expr *checks_of(ins *x, const ast_state *st) {
  const ir_expr *all = NULL;
  const sem_checks *cs = sem_state_checks(st);
  for (size_t k = 0; k < cs->len; k++) all = join(x, OP_AND, all, lift(x, cs->items[k].holds, false));
  return all;
}

/* A_q over g, or NULL. */
static const ir_expr *state_assertion(ins *x, int q) { return checks_of(x, x->thread->states.items[q]); }

/* Every candidate's assertion holds: AND over q of (F_q ==> A_q). */
static const ir_expr *candidates_ok(ins *x) {
  const ir_expr *all = NULL;
  vec_foreach(&x->thread->states, q)
    if (x->assertion[q])
      all = join(x, OP_AND, all, binary(x, OP_IMPLIES, var(x, x->cand_base + (int)q), x->assertion[q]));
  return finish(x, OP_AND, all);
}

/* Some candidate goes wrong: OR over q of (F_q && !A_q), or NULL if none can. */
static const ir_expr *some_candidate_wrong(ins *x) {
  const ir_expr *any = NULL;
  vec_foreach(&x->thread->states, q)
    if (x->assertion[q])
      any = join(x, OP_OR, any, binary(x, OP_AND, var(x, x->cand_base + (int)q), negation(x, x->assertion[q])));
  return any;
}

static const ir_expr *candidates_nonempty(ins *x) {
  const ir_expr *any = NULL;
  vec_foreach(&x->thread->states, q) any = join(x, OP_OR, any, var(x, x->cand_base + (int)q));
  return any;
}

/* next F_q' = (F_q' && idle) || OR over edges q -> q' of (F_q && R(u, g)) */
static const ir_expr *candidate_update(ins *x, int target, const ir_expr *idle) {
  const ir_expr *any = binary(x, OP_AND, var(x, x->cand_base + target), idle);
  vec_foreach(&x->thread->edges, k) {
    const ast_edge *ed = x->thread->edges.items[k];
    if (ed->to_index != target) continue;
    any = join(x, OP_OR, any, binary(x, OP_AND, var(x, x->cand_base + ed->from_index), lifted(x, sem_edge(ed))));
  }
  return any;
}

/* ---------------------------------------------------------------- edges */

static int edge(ins *x, int from, int to, prog_action a, int v, const ir_expr *e, prog_role role) {
  prog_edge ed = {.from = from,
                  .to = to,
                  .action = a,
                  .var = v,
                  .expr = e,
                  .role = role,
                  .step = -1,
                  .detail = -1,
                  .origin = {-1, {0, 0}}};
  return prog_add_edge(x->p, ed);
}

/* Appends an edge from *at to a new location and moves *at there. */
static int append(ins *x, int *at, prog_action a, int v, const ir_expr *e, prog_role role) {
  int to = prog_add_loc(x->p, false);
  int k = edge(x, *at, to, a, v, e, role);
  *at = to;
  return k;
}

static void check(ins *x, int *at, const ir_expr *cond, prog_role role, prog_check kind, int detail) {
  int k = append(x, at, ACT_ASSERT, -1, cond, role);
  x->p->edges.items[k].check = kind;
  x->p->edges.items[k].detail = detail;
}

/* lo <= g_i <= hi for a shared variable with a range (over N when the range
 * depends on check --for-all's N), else NULL. */
static const ir_expr *range_of(ins *x, int i) {
  if (x->range[i]) return x->range[i];
  const prog_var *g = &x->p->vars.items[i];
  if (!g->bounded) return NULL;
  return binary(x, OP_AND, binary(x, OP_LE, number(x, g->lo), var(x, i)),
                binary(x, OP_LE, var(x, i), number(x, g->hi)));
}

/* 1 <= N <= ENV_MAX_INSTANCES (check --for-all). */
static const ir_expr *n_in_range(ins *x) {
  const ir_expr *n = var(x, x->n_var);
  return binary(x, OP_AND, binary(x, OP_LE, number(x, 1), n), binary(x, OP_LE, n, number(x, ENV_MAX_INSTANCES)));
}

/* The ranges that depend on N hold (a havoc keeps the others), or NULL. */
static const ir_expr *ranges_hold(ins *x) {
  const ir_expr *all = NULL;
  for (int i = 0; i < x->shared_count; i++)
    if (x->range[i]) all = join(x, OP_AND, all, x->range[i]);
  return all;
}

/* The coverage probes: for each probed edge q -> q', assert !(F_q && R(u, g)),
 * that it does not simulate the step just taken. */
static void add_probes(ins *x, int *at) {
  if (!x->probes.edges) return;
  vec_foreach(&x->thread->edges, k) {
    const ast_edge *ed = x->thread->edges.items[k];
    if (!x->probes.edges[k]) continue;
    const ir_expr *fires = binary(x, OP_AND, var(x, x->cand_base + ed->from_index), lifted(x, sem_edge(ed)));
    check(x, at, negation(x, fires), ROLE_UPDATE, CHECK_EDGE_UNUSED, (int)k);
  }
}

/* The F update after a step that ends at concrete boundary target. */
static int post_block(ins *x, int target) {
  if (x->post[target] >= 0) return x->post[target];
  int start = prog_add_loc(x->p, false), at = start;
  x->post[target] = start;
  for (int i = 0; i < x->shared_count; i++) {
    const ir_expr *in = range_of(x, i);
    if (in) check(x, &at, in, ROLE_UPDATE, CHECK_RANGE, i);
  }
  add_probes(x, &at);
  const ir_expr *idle = lifted(x, sem_idle(x->spec));
  vec_foreach(&x->thread->states, q)
    append(x, &at, ACT_ASSIGN, x->next_base + (int)q, candidate_update(x, (int)q, idle), ROLE_UPDATE);
  vec_foreach(&x->thread->states, q)
    append(x, &at, ACT_ASSIGN, x->cand_base + (int)q, var(x, x->next_base + (int)q), ROLE_UPDATE);
  check(x, &at, candidates_nonempty(x), ROLE_UPDATE, CHECK_SIMULATED, -1);
  edge(x, at, x->image[target], ACT_SKIP, -1, NULL, ROLE_UPDATE);
  return start;
}

/* ---------------------------------------------------------------- the environment */

/* e, for instance tid: tid == i && e when T# reads tid (the program is for
 * any of T's instances), else e itself. */
static const ir_expr *at_instance(ins *x, int64_t tid, const ir_expr *e) {
  return x->tid >= 0 ? binary(x, OP_AND, binary(x, OP_EQ, var(x, x->tid), number(x, tid)), e) : e;
}

/* Marks the states of T# in which instance tid may see move m happen;
 * returns whether it marked any. */
static bool mark_states(ins *x, int64_t tid, size_t m, bool *marked) {
  bool any = false;
  vec_foreach(&x->thread->states, q)
    if (env_allows(x->env, tid, (int)q, m)) marked[q] = any = true;
  return any;
}

/* OR over the marked states q of F_q (true when all are marked). */
static const ir_expr *in_states(ins *x, const bool *marked) {
  const ir_expr *any = NULL;
  bool all = true;
  vec_foreach(&x->thread->states, q) {
    if (marked[q]) any = join(x, OP_OR, any, var(x, x->cand_base + (int)q));
    all = all && marked[q];
  }
  return all ? truth(x, true) : any;
}

/* May one of the moves ms (count of them, one edge taken by several
 * instances) happen while this instance is where F (and tid, when T# reads
 * it) say? Over the instances i of T: OR of (tid == i && in a state where i
 * may see it), or without tid, in a state where some i may. NULL: never. */
static const ir_expr *move_condition(ins *x, const size_t *ms, size_t count) {
  const ir_expr *any = NULL;
  bool *marked = xcalloc(x->thread->states.len + 1, sizeof *marked), some = false;
  vec_foreach(&x->spec->instances, k) {
    const ast_instance *in = x->spec->instances.items[k];
    for (int64_t tid = in->first_tid; in->thread_index == x->thread->index && tid < in->first_tid + in->count_value;
         tid++) {
      if (x->tid >= 0) memset(marked, 0, x->thread->states.len * sizeof *marked);
      bool here = false;
      for (size_t j = 0; j < count; j++) here = mark_states(x, tid, ms[j], marked) || here;
      some = some || here;
      if (here && x->tid >= 0) any = join(x, OP_OR, any, at_instance(x, tid, in_states(x, marked)));
    }
  }
  if (some && x->tid < 0) any = in_states(x, marked);
  free(marked);
  return any;
}

/* ---------------------------------------------------------------- the counters (ENV_FROM_COUNTERS) */

/* The counters allow this instance in every state at any shared values:
 * the assumption between steps would say nothing (and Spacer does worse
 * with it: 0.8 s against 57 s on a CAS loop). */
static bool every_state_allowed(ins *x) {
  vec_foreach(&x->thread->states, q) {
    const ir_expr *c = env_counters_allow(x->env, x->thread, (int)q, SIZE_MAX);
    if (!c || c->kind != IR_BOOL || !c->value) return false;
  }
  return true;
}

/* OR over the states q of F_q && (the condition for the moves ms, count of
 * them, or with count 0 for no move); NULL: never. (F_q stays when the
 * condition is true: Spacer does better with it, 0.8 s against 10 s on a CAS
 * loop.) A move of another instance of T's own counted thread needs
 * N >= 2, which ties the counters to C(T, T#)'s N (when it has one). */
static const ir_expr *counters_allow(ins *x, const size_t *ms, size_t count) {
  const ir_expr *any = NULL;
  vec_foreach(&x->thread->states, q) {
    const ir_expr *when = NULL;
    for (size_t j = 0; j < (count ? count : 1); j++) {
      const ir_expr *c = env_counters_allow(x->env, x->thread, (int)q, count ? ms[j] : SIZE_MAX);
      if (c) when = join(x, OP_OR, when, lift(x, c, false));
    }
    if (when) any = join(x, OP_OR, any, binary(x, OP_AND, var(x, x->cand_base + (int)q), when));
  }
  if (any && count && x->n_var >= 0 && x->env->moves[ms[0]].thread == x->thread &&
      x->env->invariants->counted[x->thread->index])
    return binary(x, OP_AND, binary(x, OP_LE, number(x, 2), var(x, x->n_var)), any); /* another instance of T */
  return any;
}

/* One move from the loop head env and back: u := g, g := any, the relation
 * of the edge of move m over (u, g) assumed (the last edge says which move:
 * detail, the first of its group; its instance's tid stands for tid). The
 * mover's state is its state in a reachable system state, so its checks
 * hold (the system is safe) and are assumed too. (Assuming its next state's
 * checks as well is as sound, but made Spacer lose its way.) The system is
 * in a reachable state after every move, where that is known. */
static void add_move(ins *x, int env, size_t m, const ir_expr *when) {
  const env_move *mv = &x->env->moves[m];
  const ast_edge *d = mv->thread->edges.items[mv->edge];
  int at = env;
  x->mover = mv->tid;
  const ir_expr *before = checks_of(x, mv->thread->states.items[d->from_index]);
  append(x, &at, ACT_ASSUME, -1, before ? binary(x, OP_AND, when, before) : when, ROLE_ENV);
  for (int i = 0; i < x->shared_count; i++) append(x, &at, ACT_ASSIGN, x->old_base + i, var(x, i), ROLE_ENV);
  for (int i = 0; i < x->shared_count; i++) append(x, &at, ACT_HAVOC, i, NULL, ROLE_ENV);
  const ir_expr *relation = lifted(x, sem_edge(d));
  x->mover = 0;
  if (x->reachable) relation = binary(x, OP_AND, relation, x->reachable);
  if (x->ranges) relation = binary(x, OP_AND, relation, x->ranges);
  int k = edge(x, at, env, ACT_ASSUME, -1, relation, ROLE_ENV);
  x->p->edges.items[k].detail = (int)m;
}

/* The moves of the instances of one system line that take edge d: one
 * group (the same relation) when their thread does not read tid, else one
 * move per instance. */
static void add_line_moves(ins *x, int env, size_t first, const ast_instance *in, size_t d) {
  const ast_thread *t = x->spec->threads.items[in->thread_index];
  size_t n = (size_t)in->count_value, *ms = xcalloc(n + 1, sizeof *ms);
  for (size_t i = 0; i < n; i++) ms[i] = first + i * t->edges.len + d;
  size_t group = t->uses_tid ? 1 : n;
  bool counted = x->env->source == ENV_FROM_COUNTERS;
  for (size_t i = 0; i < n; i += group) {
    const ir_expr *when = counted ? counters_allow(x, ms + i, group) : move_condition(x, ms + i, group);
    if (when) add_move(x, env, ms[i], when);
  }
  free(ms);
}

static void add_moves(ins *x, int env) {
  size_t first = 0;
  vec_foreach(&x->spec->instances, k) {
    const ast_instance *in = x->spec->instances.items[k];
    size_t edges = x->spec->threads.items[in->thread_index]->edges.len;
    for (size_t d = 0; d < edges; d++) add_line_moves(x, env, first, in, d);
    first += (size_t)in->count_value * edges;
  }
}

/* The most rows of reachable values C(T, T#) states as an assumption. */
#define MAX_REACHABLE_ROWS 2048

/* The shared variables from base on (g: 0, u: old_base) hold values v. */
static const ir_expr *values_are(ins *x, int base, const int64_t *v) {
  const ir_expr *all = NULL;
  for (int i = 0; i < x->shared_count; i++) {
    const ir_expr *g = var(x, base + i);
    const ir_expr *is = x->p->vars.items[i].type == TY_BOOL ? (v[i] ? g : negation(x, g))
                                                            : binary(x, OP_EQ, g, number(x, v[i]));
    all = join(x, OP_AND, all, is);
  }
  return finish(x, OP_AND, all);
}

/* The rows an environment keeps for instance tid in state (env_values, env_closure). */
typedef const int64_t *(*env_rows_fn)(const conform_env *e, int64_t tid, int state, size_t *count);
/* A formula over n rows of one instance in one state. */
typedef const ir_expr *(*rows_formula_fn)(ins *x, const int64_t *rows, size_t n);

/* OR over the instances i of T (tid == i, when T# reads it) and the states q
 * of (F_q && formula(the rows of i in q)); NULL when there are no rows, or
 * more than limit in all. */
static const ir_expr *over_rows(ins *x, env_rows_fn rows_of, rows_formula_fn formula, size_t limit) {
  const ir_expr *any = NULL;
  size_t total = 0;
  vec_foreach(&x->spec->instances, k) {
    const ast_instance *in = x->spec->instances.items[k];
    for (int64_t tid = in->first_tid; in->thread_index == x->thread->index && tid < in->first_tid + in->count_value;
         tid++) {
      vec_foreach(&x->thread->states, q) {
        size_t n;
        const int64_t *rows = rows_of(x->env, tid, (int)q, &n);
        if ((total += n) > limit) return NULL;
        if (!n) continue;
        const ir_expr *here = binary(x, OP_AND, var(x, x->cand_base + (int)q), formula(x, rows, n));
        any = join(x, OP_OR, any, at_instance(x, tid, here));
      }
    }
  }
  return any;
}

/* The rows (tid, state, g) of one instance in one state as OR over them of g == g. */
static const ir_expr *value_rows(ins *x, const int64_t *rows, size_t n) {
  size_t w = (size_t)x->shared_count + 2;
  const ir_expr *any = NULL;
  for (size_t r = 0; r < n; r++) any = join(x, OP_OR, any, values_are(x, 0, rows + r * w + 2));
  return any;
}

/* Between steps the system is in a reachable state with this instance in
 * a candidate state: (F_q && g is the shared part of such a state) over the
 * instances and states. NULL when the environment keeps no values, or too
 * many for a formula. */
static const ir_expr *reachable_values(ins *x) {
  return x->env->values ? over_rows(x, env_values, value_rows, MAX_REACHABLE_ROWS) : NULL;
}

/* The most rows of the closure that C(T, T#) takes as one relation; past
 * it, the loop of moves. */
#define MAX_CLOSURE_ROWS 4096

/* The rows (tid, state, g, g') of one instance in one state, sorted, as
 * OR over g of (u == g && OR over g' of g == g'). */
static const ir_expr *closure_rows(ins *x, const int64_t *rows, size_t n) {
  size_t s = (size_t)x->shared_count, w = 2 + 2 * s;
  const ir_expr *any = NULL, *targets = NULL;
  for (size_t r = 0; r < n; r++) {
    const int64_t *row = rows + r * w;
    targets = join(x, OP_OR, targets, values_are(x, 0, row + 2 + s));
    if (r + 1 < n && memcmp(row + 2, row + w + 2, s * sizeof *row) == 0) continue; /* the same g goes on */
    any = join(x, OP_OR, any, binary(x, OP_AND, values_are(x, x->old_base, row + 2), targets));
    targets = NULL;
  }
  return any;
}

/* The environment between two steps as one relation over (u, g), from the
 * closure of the moves (env_closure): (F_q && the rows of i in q) over the
 * instances i and states q. NULL when the environment has no closure or it
 * is too big for a formula (then the moves are a loop). */
static const ir_expr *closure_relation(ins *x) {
  if (x->env->source != ENV_FROM_REACHABLE || !x->env->graph) return NULL;
  return over_rows(x, env_closure, closure_rows, MAX_CLOSURE_ROWS);
}

/* The moves, any number of them, as one edge: u := g, g := any, the
 * closure over (u, g) assumed. */
static void add_closure(ins *x, int *at) {
  for (int i = 0; i < x->shared_count; i++) append(x, at, ACT_ASSIGN, x->old_base + i, var(x, i), ROLE_ENV);
  for (int i = 0; i < x->shared_count; i++) append(x, at, ACT_HAVOC, i, NULL, ROLE_ENV);
  int k = append(x, at, ACT_ASSUME, -1, x->closure, ROLE_ENV);
  x->p->edges.items[k].detail = ENV_CLOSURE_EDGE;
}

/* Before leaving a boundary: the environment moves (any values in range
 * under havoc; else any number of the other instances' moves), every
 * candidate's assertion is assumed, u := g. Returns where the code's edges
 * start. */
static int environment_block(ins *x, int at) {
  if (x->env->source == ENV_FROM_HAVOC) {
    for (int i = 0; i < x->shared_count; i++) append(x, &at, ACT_HAVOC, i, NULL, ROLE_ENV);
    if (x->ranges) append(x, &at, ACT_ASSUME, -1, x->ranges, ROLE_ENV);
  } else if (x->closure) {
    add_closure(x, &at);
  } else {
    add_moves(x, at);
  }
  if (x->reachable) append(x, &at, ACT_ASSUME, -1, x->reachable, ROLE_ENV);
  if (x->env->source == ENV_FROM_COUNTERS) {
    const ir_expr *here = counters_allow(x, NULL, 0);
    if (!every_state_allowed(x)) append(x, &at, ACT_ASSUME, -1, here ? here : truth(x, false), ROLE_ENV);
  }
  append(x, &at, ACT_ASSUME, -1, candidates_ok(x), ROLE_ENV);
  /* (N's range holds from the start; stated at every step again, it spares
     Spacer the lemma: measured 0.5 s against no proof in 60 s) */
  if (x->n_var >= 0) append(x, &at, ACT_ASSUME, -1, n_in_range(x), ROLE_ENV);
  for (int i = 0; i < x->shared_count; i++) append(x, &at, ACT_ASSIGN, x->old_base + i, var(x, i), ROLE_SAVE);
  return at;
}

/* assert(phi) of the code between steps becomes the paper's
 * assert(!phi ==> some candidate goes wrong): the candidates' assertions are
 * about the shared values there. Inside a step the values are intermediate,
 * values that no abstract state is ever asked about, so no candidate can
 * excuse a failure there: phi itself must hold. */
static const ir_expr *code_assertion(ins *x, const ir_expr *phi, bool between_steps) {
  const ir_expr *wrong = between_steps ? some_candidate_wrong(x) : NULL;
  return wrong ? binary(x, OP_IMPLIES, negation(x, phi), wrong) : phi;
}

static void copy_code_edge(ins *x, int from, const prog_edge *ce, int index) {
  const prog_location *src = &x->code->locs.items[ce->from];
  bool ends_step = x->code->locs.items[ce->to].boundary && (ce->starts_step || !src->boundary);
  int to = ends_step ? post_block(x, ce->to) : x->image[ce->to];
  prog_edge e = *ce;
  e.from = from;
  e.to = to;
  e.role = ROLE_CODE;
  e.step = index;
  e.detail = -1;
  if (ce->action == ACT_ASSERT && (ce->check == CHECK_INDEX || ce->check == CHECK_NULL || ce->check == CHECK_ARITH))
    e.detail = ce->detail; /* undefined behaviour: nothing excuses it */
  else if (ce->action == ACT_ASSERT) {
    e.check = src->boundary ? CHECK_CODE : CHECK_CODE_IN_STEP;
    e.expr = code_assertion(x, ce->expr, src->boundary);
  }
  prog_add_edge(x->p, e);
}

/* The state probes at code location l: !(F_q && g == the probe's values && its condition). */
static void add_state_probes(ins *x, int l, int *at) {
  for (size_t k = 0; k < x->probes.state_count; k++) {
    const ins_state_probe *sp = &x->probes.states[k];
    if (sp->location != l || !x->probes.asked[k]) continue;
    const ir_expr *here = var(x, x->cand_base + sp->state);
    if (sp->shared) here = binary(x, OP_AND, here, values_are(x, 0, sp->shared));
    if (sp->when) here = binary(x, OP_AND, here, lift(x, sp->when, false));
    check(x, at, negation(x, here), ROLE_UPDATE, CHECK_STATE_UNUSED, (int)k);
  }
}

static void copy_location(ins *x, int l) {
  const prog_location *cl = &x->code->locs.items[l];
  if (cl->out.len == 0) return;
  int from = cl->boundary ? environment_block(x, x->image[l]) : x->image[l];
  add_state_probes(x, l, &from);
  vec_foreach(&cl->out, k) copy_code_edge(x, from, &x->code->edges.items[cl->out.items[k]], cl->out.items[k]);
}

/* ---------------------------------------------------------------- variables */

/* check --for-all N: when the threads or the ranges read N, N becomes a
 * variable, and a shared variable whose range depends on N loses its fixed
 * bounds for the range over N. (Otherwise C(T, T#) does not depend on N.) */
static void add_param(ins *x) {
  const forall_invariants *inv = x->env->invariants;
  x->n_var = -1;
  x->range = xcalloc((size_t)x->shared_count + 1, sizeof *x->range);
  if (!inv) return;
  x->param = fa_const_index(x->spec, inv->param);
  x->depends = fa_dependent_consts(x->spec, x->param);
  if (!fa_threads_read(x->spec, x->param, x->depends)) return; /* (a variable more slows Spacer down: 0.8 s -> 10 s) */
  x->n_var = prog_add_var(x->p, VAR_PARAM, inv->param, TY_INT);
  for (int i = 0; i < x->shared_count; i++) {
    const ast_shared *sh = x->spec->shared.items[i];
    const ast_type *ty = &sh->type;
    if (!fa_range_depends(ty, x->param, x->depends)) continue;
    prog_var *g = &x->p->vars.items[i];
    g->bounded = false;
    g->range = arena_printf(x->p->arena, "%.*s", (int)(ty->at.end - ty->at.start), x->spec->src->text + ty->at.start);
    x->range[i] = binary(x, OP_AND, binary(x, OP_LE, lift(x, ty->lo, false), var(x, i)),
                         binary(x, OP_LE, var(x, i), lift(x, ty->hi, false)));
  }
  x->ranges = ranges_hold(x);
}

static void add_variables(ins *x) {
  vec_foreach(&x->code->vars, v) vec_push(x->p->arena, &x->p->vars, x->code->vars.items[v]);
  x->old_base = (int)x->p->vars.len;
  for (int i = 0; i < x->shared_count; i++) {
    const prog_var g = x->code->vars.items[i];
    int v = prog_add_var(x->p, VAR_OLD, arena_printf(x->p->arena, "%s_old", g.display), g.type);
    x->p->vars.items[v].shared_index = i;
    x->p->vars.items[v].display = g.display;
  }
  x->cand_base = (int)x->p->vars.len;
  vec_foreach(&x->thread->states, q) {
    int v = prog_add_var(x->p, VAR_CAND, arena_printf(x->p->arena, "F_%s", x->thread->states.items[q]->name), TY_BOOL);
    x->p->vars.items[v].state_index = (int)q;
  }
  x->next_base = (int)x->p->vars.len;
  vec_foreach(&x->thread->states, q)
    prog_add_var(x->p, VAR_TEMP, arena_printf(x->p->arena, "Fnext_%s", x->thread->states.items[q]->name), TY_BOOL);
  add_param(x);
  x->tid = -1;
  if (x->thread->uses_tid) {
    x->tid = prog_add_var(x->p, VAR_TID, "tid", TY_INT);
    prog_var *t = &x->p->vars.items[x->tid];
    t->bounded = true;
    t->lo = 1;
    t->hi = x->spec->instance_total > 0 ? x->spec->instance_total : 1;
  }
}

/* F := the initial states, tid := any, N := any in 1..ENV_MAX_INSTANCES
 * (check --for-all);
 * under a move environment the shared variables start in an initial state of
 * the spec (when the C's is known to be one), from which the moves go on. */
static void initialise(ins *x) {
  int at = x->p->entry;
  vec_foreach(&x->thread->states, q)
    append(x, &at, ACT_ASSIGN, x->cand_base + (int)q, truth(x, x->thread->states.items[q]->initial), ROLE_INIT);
  if (x->tid >= 0) append(x, &at, ACT_HAVOC, x->tid, NULL, ROLE_INIT);
  if (x->n_var >= 0) {
    append(x, &at, ACT_HAVOC, x->n_var, NULL, ROLE_INIT);
    append(x, &at, ACT_ASSUME, -1, n_in_range(x), ROLE_INIT);
  }
  if (x->env->source != ENV_FROM_HAVOC) {
    for (int i = 0; i < x->shared_count; i++) append(x, &at, ACT_HAVOC, i, NULL, ROLE_INIT);
    if (x->initial_checked) append(x, &at, ACT_ASSUME, -1, lifted_over(x, sem_initial(x->spec), false), ROLE_INIT);
    /* the initial values do not depend on N (forall_conform_applicable), their ranges may */
    for (int i = 0; i < x->shared_count; i++)
      if (x->range[i]) check(x, &at, x->range[i], ROLE_INIT, CHECK_RANGE, i);
  }
  edge(x, at, x->image[x->code->entry], ACT_SKIP, -1, NULL, ROLE_INIT);
}

prog *ins_build(const prog *code, const ast_spec *spec, const ast_thread *thread, const conform_env *env,
                bool initial_checked) {
  return ins_build_probed(code, spec, thread, env, initial_checked, NULL);
}

prog *ins_build_probed(const prog *code, const ast_spec *spec, const ast_thread *thread, const conform_env *env,
                       bool initial_checked, const ins_probes *probes) {
  ins x = {.p = prog_new(code->function),
           .probes = probes ? *probes : (ins_probes){0},
           .code = code,
           .spec = spec,
           .thread = thread,
           .env = env,
           .initial_checked = initial_checked,
           .shared_count = (int)spec->shared.len};
  vec_foreach(&code->files, i) vec_push(x.p->arena, &x.p->files, code->files.items[i]);
  x.p->subscripts = code->subscripts; /* shared, like the code's expressions: C(T, T#) never adds one */
  x.p->operations = code->operations;
  add_variables(&x);
  x.assertion = xcalloc(thread->states.len + 1, sizeof *x.assertion);
  vec_foreach(&thread->states, q) x.assertion[q] = state_assertion(&x, (int)q);
  x.reachable = reachable_values(&x);
  x.closure = closure_relation(&x);
  size_t n = code->locs.len;
  x.image = xcalloc(n + 1, sizeof *x.image);
  x.post = xcalloc(n + 1, sizeof *x.post);
  x.p->entry = prog_add_loc(x.p, false);
  for (size_t l = 0; l < n; l++) {
    x.image[l] = prog_add_loc(x.p, code->locs.items[l].boundary);
    x.post[l] = -1;
  }
  initialise(&x);
  for (size_t l = 0; l < n; l++) copy_location(&x, (int)l);
  int at = x.image[code->exit];
  check(&x, &at, candidates_nonempty(&x), ROLE_EXIT, CHECK_EXIT, -1);
  x.p->exit = at;
  free(x.image);
  free(x.post);
  free(x.assertion);
  free(x.depends);
  free(x.range);
  return x.p;
}
