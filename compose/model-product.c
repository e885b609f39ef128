/* compose/model-product.c -- provider: the interleaving product of abstract
 * threads (reference section 6).
 *
 * Relations are compiled, not solved per state: each top-level disjunct of a
 * relation becomes a plan that computes every primed variable it defines by
 * an equation `x' == e` and enumerates the finite domains of the others, then
 * filters by the disjunct itself. The same planner finds the initial states
 * from the `init` predicates. */
#include "model-product.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model-compiled.h"
#include "model-impl.h"
#include "../spec-lang/semantics.h"

/* ---------------------------------------------------------------- compiled form */

typedef struct cedge {
  const ast_edge *edge;      /* the source edge */
  const sem_plans *relation; /* EDGE_RELATION */
  const ir_expr *guard;      /* EDGE_COMMAND, NULL for true */
} cedge;

typedef struct cthread {
  const ast_thread *thread; /* the source thread */
  cedge *edges;             /* one per edge */
  int *out;                 /* edge indices grouped by source state */
  int *out_first;           /* out[out_first[s] .. out_first[s+1]) leave state s */
  int count;                /* its instances */
  int64_t first_tid;        /* tid of its first instance */
  uint64_t tid_free; /* control states (< 64) whose checks do not read tid: they hold for all its instances or none */
} cthread;

/* Where each thread's instances are in a state: one slot per instance (its
 * control state), or, counted, one slot per control state (how many of the
 * instances are in it). */
typedef struct layout {
  int *first;    /* per thread: the slot of its first instance, or of its first count */
  bool *counted; /* per thread: its instances are counted */
} layout;

/* The product, or its counted view (product_counted): a copy of the product
 * with its own slots and layout that borrows everything compiled. */
typedef struct product {
  struct mdl base;          /* must come first */
  const ast_spec *spec;     /* borrowed */
  const mdl *viewed;        /* the counted view: the product it views; NULL in the product */
  arena *arena;             /* compiled plans and names */
  int shared_count;         /* slots [0, shared_count) are shared variables */
  cthread *threads;         /* per thread of the spec */
  layout at;                /* where the instances are */
  const sem_plans *init;    /* initial shared states */
  int64_t *init_values;     /* initializer values (unknown slots are overwritten) */
  compiled_model *compiled; /* its successors and checks as compiled C, or NULL: interpreted */
  compiled_job *compiling;  /* the compiler at work on them, or NULL */
} product;

/* The evaluation environment of one expression. */
typedef struct env {
  const product *p;   /* the model */
  const int64_t *cur; /* values before the step */
  const int64_t *nxt; /* values after it (primed names) */
  int64_t tid;        /* the running instance, 0 outside threads */
  mdl_fault *fault;   /* the caller's record of the first fault */
} env;

/* ---------------------------------------------------------------- evaluation */

static void fault(const env *v, mdl_fault f) {
  if (*v->fault == MDL_FAULT_NONE) *v->fault = f;
}

static int64_t eval(const env *v, const ir_expr *e);

/* Divisors are nonzero constants (sema checks them), so every fault here is
 * an overflow. */
static inline int64_t arith(const env *v, ir_op op, int64_t a, int64_t b) {
  int64_t r = 0;
  if (ir_arith(op, a, b, &r) != IR_FAULT_NONE) fault(v, MDL_FAULT_OVERFLOW);
  return r;
}

/* An operand: a literal or a variable is read here, without the call that
 * most operands would otherwise cost. */
static inline int64_t operand(const env *v, const ir_expr *e) {
  if (e->kind == IR_INT || e->kind == IR_BOOL) return e->value;
  if (e->kind == IR_NAME && e->ref != REF_CONST) return e->primed ? v->nxt[e->index] : v->cur[e->index];
  return eval(v, e);
}

static int64_t eval_binary(const env *v, const ir_expr *e) {
  int64_t a = operand(v, e->a);
  switch (e->op) { /* the logical operators short-circuit */
  case OP_AND: return a && operand(v, e->b);
  case OP_OR: return a || operand(v, e->b);
  case OP_IMPLIES: return !a || operand(v, e->b);
  default: return arith(v, e->op, a, operand(v, e->b));
  }
}

static int64_t count_in_state(const env *v, int thread, int state) {
  const int64_t *first = v->cur + v->p->at.first[thread];
  if (v->p->at.counted[thread]) return first[state];
  int64_t n = 0;
  for (int i = 0; i < v->p->threads[thread].count; i++) n += first[i] == state;
  return n;
}

/* An element; outside its array (only where a bounds check has failed, or
 * where the value is not used) it reads 0. */
static int64_t element(const env *v, const ir_expr *e) {
  int64_t k = e->cell >= 0 ? e->cell - e->index : eval(v, e->a);
  if (k < 0 || k >= e->extent) return 0;
  return (e->primed ? v->nxt : v->cur)[e->index + k];
}

static int64_t eval(const env *v, const ir_expr *e) {
  switch (e->kind) {
  case IR_BOOL:
  case IR_INT: return e->value;
  case IR_NAME:
    if (e->ref == REF_CONST) return v->p->spec->consts.items[e->index]->value;
    return e->primed ? v->nxt[e->index] : v->cur[e->index];
  case IR_TID: return v->tid;
  case IR_COUNT: return count_in_state(v, e->index, e->state_index);
  case IR_AT: return v->cur[v->p->at.first[e->index] + eval(v, e->a) - 1] == e->state_index;
  case IR_UNARY: {
    int64_t a = operand(v, e->a);
    return arith(v, e->op, a, 0);
  }
  case IR_BINARY: return eval_binary(v, e);
  case IR_ITE: return eval(v, e->a) ? eval(v, e->b) : eval(v, e->c);
  case IR_INDEX: return element(v, e);
  case IR_QUANT: return eval(v, e->lowered);
  }
  return 0;
}

/* ---------------------------------------------------------------- running plans */

typedef struct solver {
  const sem_plans *ps;                    /* the formula's plans */
  env v;                                  /* cur = the source, nxt = the candidate */
  int64_t *cand;                          /* the candidate state, written in place */
  void (*emit)(void *ctx, int64_t *cand); /* called per solution */
  void *ctx;
} solver;

static bool in_domain(const mdl_slot *s, int64_t x) { return !s->bounded || (x >= s->lo && x <= s->hi); }

/* True when an earlier disjunct also holds: that plan emitted this solution. */
static bool seen_before(const solver *sv, size_t k) {
  for (size_t j = 0; j < k; j++)
    if (eval(&sv->v, sv->ps->items[j].test)) return true;
  return false;
}

static void run_steps(const solver *sv, size_t k, size_t i) {
  const sem_plan *pl = &sv->ps->items[k];
  if (i == pl->step_count) {
    if ((!pl->rest || eval(&sv->v, pl->rest)) && !seen_before(sv, k)) sv->emit(sv->ctx, sv->cand);
    return;
  }
  const sem_step *st = &pl->steps[i];
  const mdl_slot *slot = &sv->v.p->base.slots[st->var];
  if (st->def) {
    int64_t x = eval(&sv->v, st->def);
    if (!in_domain(slot, x)) return; /* out of range: not enabled for this value */
    sv->cand[st->var] = x;
    run_steps(sv, k, i + 1);
    sv->cand[st->var] = sv->v.cur[st->var];
    return;
  }
  for (int64_t x = slot->lo;; x++) { /* domains are small: product_build checks */
    sv->cand[st->var] = x;
    run_steps(sv, k, i + 1);
    if (x == slot->hi) break;
  }
  sv->cand[st->var] = sv->v.cur[st->var];
}

static void solve(solver *sv) {
  for (size_t k = 0; k < sv->ps->count; k++) {
    const ir_expr *pre = sv->ps->items[k].pre;
    if (!pre || eval(&sv->v, pre)) run_steps(sv, k, 0);
  }
}

/* ---------------------------------------------------------------- initial states */

typedef struct init_walk {
  const product *p; /* the model */
  mdl_state_fn fn;  /* the engine's callback */
  void *ctx;        /* its context */
} init_walk;

static void choose_line(const init_walk *w, int64_t *state, size_t line);

static const cthread *thread_of_line(const product *p, size_t line, int64_t **first, int64_t *state) {
  int thread = p->spec->instances.items[line]->thread_index;
  *first = state + p->at.first[thread];
  return &p->threads[thread];
}

/* Every way to put `left` counted instances of a line in the initial states
 * from q on. */
static void spread_counts(const init_walk *w, int64_t *state, size_t line, size_t q, int64_t left) {
  int64_t *count;
  const cthread *t = thread_of_line(w->p, line, &count, state);
  if (q == t->thread->states.len) {
    if (left == 0) choose_line(w, state, line + 1);
    return;
  }
  int64_t most = t->thread->states.items[q]->initial ? left : 0;
  for (int64_t c = 0; c <= most; c++) {
    count[q] = c;
    spread_counts(w, state, line, q + 1, left - c);
  }
}

/* Every choice of an initial state for the instances of a line from i on. */
static void choose_instances(const init_walk *w, int64_t *state, size_t line, int i) {
  int64_t *instance;
  const cthread *t = thread_of_line(w->p, line, &instance, state);
  if (i == t->count) {
    choose_line(w, state, line + 1);
    return;
  }
  vec_foreach(&t->thread->states, q) {
    if (!t->thread->states.items[q]->initial) continue;
    instance[i] = (int64_t)q;
    choose_instances(w, state, line, i + 1);
  }
}

/* Every choice of initial control states for the system lines from line on. */
static void choose_line(const init_walk *w, int64_t *state, size_t line) {
  const product *p = w->p;
  if (line == p->spec->instances.len) {
    w->fn(w->ctx, state);
    return;
  }
  int thread = p->spec->instances.items[line]->thread_index;
  if (p->at.counted[thread]) spread_counts(w, state, line, 0, p->threads[thread].count);
  else choose_instances(w, state, line, 0);
}

static void emit_initial(void *ctx, int64_t *cand) { choose_line(ctx, cand, 0); }

static void product_initial(const mdl *m, mdl_state_fn fn, void *ctx, mdl_fault *fault) {
  const product *p = (const product *)m;
  int64_t *cand = xcalloc(m->width, sizeof *cand);
  memcpy(cand, p->init_values, (size_t)p->shared_count * sizeof *cand);
  init_walk w = {p, fn, ctx};
  solver sv = {.ps = p->init, .v = {p, cand, cand, 0, fault}, .cand = cand, .emit = emit_initial, .ctx = &w};
  solve(&sv);
  free(cand);
}

/* ---------------------------------------------------------------- successors */

typedef struct step_walk {
  const product *p; /* the model */
  mdl_step step;    /* the step being taken */
  int to;           /* its target state */
  bool counted;     /* the instance is counted: the step moves it from the count in step.slot */
  int count_to;     /* counted: to the count in this slot */
  mdl_next_fn fn;   /* the engine's callback */
  void *ctx;        /* its context */
  mdl_fault *fault; /* the engine's record of the first fault */
} step_walk;

/* The instance moves (a counted one from one count to another), and back
 * after the callback: cand is the source again outside the step's writes. */
static void emit_successor(void *ctx, int64_t *cand) {
  step_walk *w = ctx;
  if (!w->counted) {
    int64_t from = cand[w->step.slot];
    cand[w->step.slot] = w->to;
    w->fn(w->ctx, &w->step, cand);
    cand[w->step.slot] = from;
    return;
  }
  cand[w->step.slot]--, cand[w->count_to]++;
  w->fn(w->ctx, &w->step, cand);
  cand[w->step.slot]++, cand[w->count_to]--;
}

/* The cell an assignment writes, or -1 when its index is outside the array
 * (the state then goes wrong: a bounds check fails). */
static int target_cell(const env *v, const ast_assign *as) {
  const ir_expr *t = as->target;
  if (t->kind != IR_INDEX || t->cell >= 0) return as->var_index;
  int64_t k = eval(v, t->a);
  return k >= 0 && k < t->extent ? t->index + (int)k : -1;
}

/* Parallel assignment: every right-hand side reads src; '*' enumerates.
 * Each write is undone before returning (dst is the source again). */
static void assign_from(const step_walk *w, const env *v, const ast_edge *e, size_t k, int64_t *dst) {
  if (k == e->assigns.len) {
    emit_successor((void *)w, dst);
    return;
  }
  const ast_assign *as = &e->assigns.items[k];
  int cell = target_cell(v, as);
  if (cell < 0) return;
  const mdl_slot *slot = &w->p->base.slots[cell];
  if (as->value) {
    int64_t x = eval(v, as->value);
    if (!in_domain(slot, x)) return;
    dst[cell] = x;
    assign_from(w, v, e, k + 1, dst);
    dst[cell] = v->cur[cell];
    return;
  }
  for (int64_t x = slot->lo;; x++) {
    dst[cell] = x;
    assign_from(w, v, e, k + 1, dst);
    if (x == slot->hi) break;
  }
  dst[cell] = v->cur[cell];
}

/* dst equals src when called and when it returns: every write of a step is
 * undone once its successors are emitted, so no state is copied per edge. */
static void take_edge(step_walk *w, const cedge *ce, const int64_t *src, int64_t *dst, int64_t tid) {
  env v = {w->p, src, dst, tid, w->fault};
  w->to = ce->edge->to_index;
  w->count_to = w->step.slot + ce->edge->to_index - ce->edge->from_index;
  if (ce->edge->kind == EDGE_RELATION) {
    solver sv = {.ps = ce->relation, .v = v, .cand = dst, .emit = emit_successor, .ctx = w};
    solve(&sv);
  } else if (!ce->guard || eval(&v, ce->guard)) {
    assign_from(w, &v, ce->edge, 0, dst);
  }
}

/* Every step of an instance in control state q (tid: its tid). */
static void take_edges_from(step_walk *w, const cthread *t, int64_t q, const int64_t *src, int64_t *dst, int64_t tid) {
  for (int k = t->out_first[q]; k < t->out_first[q + 1]; k++) {
    w->step.edge = t->out[k];
    take_edge(w, &t->edges[t->out[k]], src, dst, tid);
  }
}

/* Counted instances: one step per (control state with some, edge), not one
 * per instance; they carry nothing else, so their tids do not matter. */
static void counted_steps(step_walk *w, const cthread *t, int first, const int64_t *src, int64_t *dst) {
  for (size_t q = 0; q < t->thread->states.len; q++) {
    if (src[first + (int)q] == 0) continue;
    w->step.slot = first + (int)q;
    take_edges_from(w, t, (int64_t)q, src, dst, 0);
  }
}

static void instance_steps(step_walk *w, const cthread *t, int first, const int64_t *src, int64_t *dst) {
  for (int i = 0; i < t->count; i++) {
    w->step.slot = first + i;
    take_edges_from(w, t, src[first + i], src, dst, t->first_tid + i);
  }
}

/* States this wide are copied on the stack, wider ones to the heap. */
#define STACK_WIDTH 64

static void product_next_all(const mdl *m, const int64_t *src, mdl_next_fn fn, void *ctx, mdl_fault *fault) {
  const product *p = (const product *)m;
  if (p->compiled) {
    compiled_next_all(p->compiled, src, fn, ctx, fault);
    return;
  }
  int64_t local[STACK_WIDTH];
  int64_t *dst = m->width <= STACK_WIDTH ? local : xmalloc(m->width * sizeof *dst);
  memcpy(dst, src, m->width * sizeof *dst);
  step_walk w = {.p = p, .fn = fn, .ctx = ctx, .fault = fault};
  vec_foreach(&p->spec->instances, i) {
    int thread = p->spec->instances.items[i]->thread_index;
    w.counted = p->at.counted[thread];
    (w.counted ? counted_steps : instance_steps)(&w, &p->threads[thread], p->at.first[thread], src, dst);
  }
  if (dst != local) free(dst);
}

static const ast_thread *thread_of_slot(const product *p, int slot);
static bool literals_fit(const ast_spec *spec);

/* ---------------------------------------------------------------- going wrong */

static const mdl_verdict_kind kind_of[] = {[SEM_ASSERTION] = MDL_ASSERTION,
                                           [SEM_INVARIANT] = MDL_INVARIANT,
                                           [SEM_PROPERTY] = MDL_PROPERTY,
                                           [SEM_BOUNDS] = MDL_BOUNDS,
                                           [SEM_CONFLICT] = MDL_CONFLICT};

/* Fills why from the first check that fails (with the index it found);
 * false when one does. */
static bool checks_hold(const env *v, const sem_checks *cs, mdl_violation *why) {
  for (size_t i = 0; i < cs->len; i++) {
    const sem_check *c = &cs->items[i];
    if (eval(v, c->holds)) continue;
    why->kind = kind_of[c->kind];
    why->failed = c->what;
    why->context = c->kind == SEM_CONFLICT ? c->other : c->within;
    why->edge = c->edge ? c->edge->index : -1;
    if (c->kind == SEM_BOUNDS || c->kind == SEM_CONFLICT) why->value = eval(v, c->what->a);
    return false;
  }
  return true;
}

/* Fills why and returns false when an instance in control state q (in
 * slot, with v's tid) goes wrong. */
static bool instance_ok(const env *v, const cthread *t, int slot, int64_t q, mdl_violation *why) {
  *why = (mdl_violation){.slot = slot, .state = (int)q, .edge = -1};
  return checks_hold(v, sem_state_checks(t->thread->states.items[q]), why);
}

/* Each instance of a thread, but those in a control state whose checks do
 * not read tid and held for an instance before (the same checks of the same
 * state: they hold again). */
static bool instances_ok(env *v, const cthread *t, int first, const int64_t *state, mdl_violation *why) {
  uint64_t held = 0; /* such control states met */
  for (int i = 0; i < t->count; i++) {
    int64_t q = state[first + i];
    if (q < 64 && (held >> q & 1)) continue;
    v->tid = t->first_tid + i;
    if (!instance_ok(v, t, first + i, q, why)) return false;
    if (q < 64) held |= t->tid_free & (uint64_t)1 << q;
  }
  return true;
}

/* The instances of one thread: each, or each control state that counts some. */
static bool thread_ok(const product *p, int thread, const int64_t *state, mdl_violation *why, mdl_fault *fault) {
  const cthread *t = &p->threads[thread];
  int first = p->at.first[thread];
  env v = {p, state, state, 0, fault};
  if (p->at.counted[thread]) {
    for (size_t q = 0; q < t->thread->states.len; q++)
      if (state[first + (int)q] > 0 && !instance_ok(&v, t, first + (int)q, (int64_t)q, why)) return false;
    return true;
  }
  return instances_ok(&v, t, first, state, why);
}

/* Compiled, the check says only whether the state goes wrong; the
 * interpreter then says why. */
static bool product_check(const mdl *m, const int64_t *state, mdl_violation *why, mdl_fault *fault) {
  const product *p = (const product *)m;
  if (p->compiled && compiled_check(p->compiled, state, fault)) {
    *why = (mdl_violation){.kind = MDL_OK, .slot = -1, .edge = -1};
    return true;
  }
  vec_foreach(&p->spec->instances, i)
    if (!thread_ok(p, p->spec->instances.items[i]->thread_index, state, why, fault)) return false;
  env v = {p, state, state, 0, fault};
  *why = (mdl_violation){.slot = -1, .edge = -1};
  if (!checks_hold(&v, sem_system_checks(p->spec), why)) return false;
  *why = (mdl_violation){.kind = MDL_OK, .slot = -1, .edge = -1};
  return true;
}

/* ---------------------------------------------------------------- re-checking states and steps */

static bool domains_hold(const product *p, const int64_t *state) {
  for (size_t i = 0; i < p->base.width; i++)
    if (!in_domain(&p->base.slots[i], state[i])) return false;
  return true;
}

/* Every instance of a thread is in an initial state. */
static bool thread_initial(const product *p, int thread, const int64_t *state) {
  const cthread *t = &p->threads[thread];
  const int64_t *first = state + p->at.first[thread];
  if (!p->at.counted[thread]) {
    for (int i = 0; i < t->count; i++)
      if (!t->thread->states.items[first[i]]->initial) return false;
    return true;
  }
  int64_t counted = 0;
  for (size_t q = 0; q < t->thread->states.len; q++) {
    if (first[q] > 0 && !t->thread->states.items[q]->initial) return false;
    counted += first[q];
  }
  return counted == t->count;
}

static bool product_initial_holds(const mdl *m, const int64_t *state) {
  const product *p = (const product *)m;
  if (!domains_hold(p, state)) return false;
  vec_foreach(&p->spec->shared, i)
    if (p->spec->shared.items[i]->init && state[i] != p->init_values[i]) return false;
  mdl_fault fault = MDL_FAULT_NONE;
  env v = {p, state, state, 0, &fault};
  vec_foreach(&p->spec->inits, i)
    if (!eval(&v, p->spec->inits.items[i])) return false;
  vec_foreach(&p->spec->instances, i)
    if (!thread_initial(p, p->spec->instances.items[i]->thread_index, state)) return false;
  return fault == MDL_FAULT_NONE; /* a state whose check overflows is not confirmed */
}

/* The shared part of a step: the edge's meaning, frame rule included. */
static bool edge_holds(const ast_edge *e, const env *v) {
  const sem_conj *meaning = sem_edge(e);
  for (size_t k = 0; k < meaning->len; k++)
    if (!eval(v, meaning->items[k])) return false;
  return true;
}

/* The instance that takes e moves from e's source to its target (a counted
 * one from the source's count, in the step's slot, to the target's), and no
 * other instance moves. */
static bool only_mover_moves(const product *p, const int64_t *src, const mdl_step *step, const ast_edge *e,
                             const int64_t *dst) {
  int thread = p->base.slots[step->slot].thread, first = p->at.first[thread];
  bool counted = p->at.counted[thread];
  if (counted ? step->slot - first != e->from_index || src[step->slot] == 0 : src[step->slot] != e->from_index)
    return false;
  for (int k = p->shared_count; k < (int)p->base.width; k++) {
    int64_t want =
        counted ? src[k] + (k == first + e->to_index) - (k == step->slot) : (k == step->slot ? e->to_index : src[k]);
    if (dst[k] != want) return false;
  }
  return true;
}

static bool product_step_holds(const mdl *m, const int64_t *src, const mdl_step *step, const int64_t *dst) {
  const product *p = (const product *)m;
  if (step->slot < p->shared_count || (size_t)step->slot >= m->width || !domains_hold(p, src) || !domains_hold(p, dst))
    return false;
  int thread = m->slots[step->slot].thread;
  const cthread *t = &p->threads[thread];
  if (step->edge < 0 || (size_t)step->edge >= t->thread->edges.len) return false;
  const ast_edge *e = t->thread->edges.items[step->edge];
  if (!only_mover_moves(p, src, step, e, dst)) return false;
  mdl_fault fault = MDL_FAULT_NONE;
  int64_t tid = p->at.counted[thread] ? 0 : t->first_tid + step->slot - p->at.first[thread];
  env v = {p, src, dst, tid, &fault};
  return edge_holds(e, &v) && fault == MDL_FAULT_NONE; /* a step whose check overflows is not confirmed */
}

/* ---------------------------------------------------------------- descriptions */

static const ast_thread *thread_of_slot(const product *p, int slot) {
  return p->threads[p->base.slots[slot].thread].thread;
}

static void product_describe_step(const mdl *m, const mdl_step *step, strbuf *out) {
  const ast_edge *e = thread_of_slot((const product *)m, step->slot)->edges.items[step->edge];
  sbuf_printf(out, "%s -> %s", e->from, e->to);
  if (e->label) sbuf_printf(out, " \"%s\"", e->label);
}

static loc product_step_at(const mdl *m, const mdl_step *step) {
  const ast_edge *e = thread_of_slot((const product *)m, step->slot)->edges.items[step->edge];
  return (loc){e->from_at.start, e->to_at.end};
}

static void product_describe_value(const mdl *m, size_t slot, int64_t value, strbuf *out) {
  const mdl_slot *s = &m->slots[slot];
  if (s->kind == SLOT_INSTANCE)
    sbuf_puts(out, thread_of_slot((const product *)m, (int)slot)->states.items[value]->name);
  else if (s->is_bool) sbuf_puts(out, value ? "true" : "false");
  else sbuf_printf(out, "%" PRId64, value);
}

/* "the index of a[i] is 5, outside 0..2" and where the element is. */
static void describe_bounds(const mdl *m, const mdl_violation *why, strbuf *out) {
  sbuf_puts(out, "the index of ");
  ir_print(out, why->failed);
  sbuf_printf(out, " is %" PRId64 ", outside 0..%" PRId64, why->value, why->failed->extent - 1);
  if (why->edge >= 0) {
    sbuf_puts(out, " (evaluating edge ");
    mdl_describe_step(m, &(mdl_step){why->slot, why->edge}, out);
    sbuf_putc(out, ')');
  } else if (why->slot >= 0 && why->context) {
    const ast_state *st = thread_of_slot((const product *)m, why->slot)->states.items[why->state];
    sbuf_puts(out, st->assertion == why->context ? " (in its assertion " : " (in the thread invariant ");
    ir_print(out, why->context);
    sbuf_putc(out, ')');
  }
}

/* An assignment's target as written: a[i], not the a'[i] of its meaning. */
static void print_target(strbuf *out, const ir_expr *t) {
  sbuf_printf(out, "%s[", t->text);
  ir_print(out, t->a);
  sbuf_putc(out, ']');
}

static void describe_conflict(const mdl *m, const mdl_violation *why, strbuf *out) {
  sbuf_puts(out, "edge ");
  mdl_describe_step(m, &(mdl_step){why->slot, why->edge}, out);
  sbuf_puts(out, " assigns ");
  print_target(out, why->context);
  sbuf_puts(out, " and ");
  print_target(out, why->failed);
  sbuf_printf(out, ", which are both element %" PRId64, why->value);
}

static void product_describe_violation(const mdl *m, const mdl_violation *why, strbuf *out) {
  const product *p = (const product *)m;
  if (why->slot < 0) {
    sbuf_puts(out, "system invariant ");
    ir_print(out, why->kind == MDL_BOUNDS ? why->context : why->failed);
    if (why->kind == MDL_BOUNDS) sbuf_puts(out, " cannot be evaluated: ");
    if (why->kind == MDL_BOUNDS) describe_bounds(m, why, out);
    else sbuf_puts(out, " is false");
    return;
  }
  const char *state = thread_of_slot(p, why->slot)->states.items[why->state]->name;
  if (why->kind == MDL_BOUNDS || why->kind == MDL_CONFLICT) {
    sbuf_printf(out, "%s goes wrong in state %s: ", m->slots[why->slot].name, state);
    if (why->kind == MDL_BOUNDS) describe_bounds(m, why, out);
    else describe_conflict(m, why, out);
    return;
  }
  if (why->kind == MDL_ASSERTION && why->failed->kind == IR_BOOL) {
    sbuf_printf(out, "%s reached state %s, which asserts false (it must never be reached)", m->slots[why->slot].name,
                state);
    return;
  }
  sbuf_printf(out, "%s goes wrong in state %s: ", m->slots[why->slot].name, state);
  sbuf_puts(out, why->kind == MDL_ASSERTION ? "its assertion " : "the thread invariant ");
  ir_print(out, why->failed);
  sbuf_puts(out, " is false");
}

/* ---------------------------------------------------------------- building */

/* The most values the explicit engine enumerates for one choice. */
#define MAX_CHOICES 65536
/* The most slots in a state. */
#define MAX_SLOTS (1 << 20)

static void product_destroy(mdl *m) {
  product *p = (product *)m;
  for (size_t i = 0; p->threads && i < p->spec->threads.len; i++) {
    free(p->threads[i].edges);
    free(p->threads[i].out);
    free(p->threads[i].out_first);
  }
  free(p->threads);
  free(p->at.first);
  free(p->at.counted);
  free(p->init_values);
  compiled_cancel(p->compiling);
  compiled_free(p->compiled);
  free(m->slots);
  free(m->groups);
  arena_free(p->arena);
  free(p);
}

static mdl_symbolic *product_symbolic_face(const mdl *m, smt *s) {
  return product_symbolic(m, ((const product *)m)->spec, s);
}

/* The compiled form changes how fast the model runs, not what it means (a
 * cache): so it is set through the const model. */
static mdl_compiling product_compile(const mdl *m, bool wait, char *why, size_t why_size) {
  product *p = (product *)m;
  if (p->compiled) return MDL_COMPILED;
  if (!p->compiling) {
    compiled_shape sh = {p->spec, m->slots, m->width, p->at.first, p->at.counted};
    p->compiling = compiled_start(&sh, why, why_size);
    if (!p->compiling) return MDL_INTERPRETED;
  }
  if (!compiled_done(p->compiling, wait)) return MDL_COMPILING;
  p->compiled = compiled_finish(p->compiling, why, why_size);
  p->compiling = NULL;
  return p->compiled ? MDL_COMPILED : MDL_INTERPRETED;
}

static const mdl_ops product_ops = {
    product_initial,       product_next_all, product_check,          product_initial_holds,      product_step_holds,
    product_describe_step, product_step_at,  product_describe_value, product_describe_violation, product_destroy,
    product_symbolic_face, product_compile,
};

static bool enumerable(const mdl_slot *s) { return s->bounded && (uint64_t)s->hi - (uint64_t)s->lo < MAX_CHOICES; }

static void shared_slot(product *p, const ast_shared *v, mdl_slot *s) {
  *s = (mdl_slot){.kind = SLOT_SHARED, .name = v->name, .thread = -1};
  s->is_bool = v->type.kind == TYPE_BOOL;
  s->bounded = v->type.kind != TYPE_INT;
  s->lo = v->type.kind == TYPE_RANGE ? v->type.lo_value : 0;
  s->hi = v->type.kind == TYPE_RANGE ? v->type.hi_value : 1;
  if (v->init) {
    mdl_fault constant = MDL_FAULT_NONE; /* initializers are constants that sema computed without overflow */
    env none = {p, NULL, NULL, 0, &constant};
    p->init_values[v->index] = eval(&none, v->init);
  }
}

/* Slots of one system line "T[n]": names T[1]..T[n] (just T when n is 1). */
static void instance_slots(product *p, const ast_instance *in, size_t first) {
  const ast_thread *t = p->spec->threads.items[in->thread_index];
  cthread *ct = &p->threads[in->thread_index];
  p->at.first[in->thread_index] = (int)first;
  ct->count = (int)in->count_value;
  ct->first_tid = in->first_tid;
  for (int64_t k = 0; k < in->count_value; k++) {
    mdl_slot *s = &p->base.slots[first + (size_t)k];
    const char *name = in->count_value == 1 ? t->name : arena_printf(p->arena, "%s[%" PRId64 "]", t->name, k + 1);
    *s = (mdl_slot){.kind = SLOT_INSTANCE,
                    .name = name,
                    .bounded = true,
                    .lo = 0,
                    .hi = (int64_t)t->states.len - 1,
                    .thread = in->thread_index};
  }
}

static bool check_choices(const product *p, const ir_expr *where, const sem_plans *ps) {
  for (size_t k = 0; k < ps->count; k++)
    for (size_t i = 0; i < ps->items[k].step_count; i++) {
      const sem_step *st = &ps->items[k].steps[i];
      const mdl_slot *s = &p->base.slots[st->var];
      if (st->def || enumerable(s)) continue;
      diag_error(p->spec->src, where->at,
                 "the explicit engine would enumerate %" PRIu64
                 " values of '%s' here; use a smaller range or --engine symbolic",
                 (uint64_t)s->hi - (uint64_t)s->lo + 1, s->name);
      return false;
    }
  return true;
}

static bool compile_relation(product *p, cedge *ce) {
  ce->relation = sem_edge_plans(ce->edge);
  if (ce->relation->too_many) {
    diag_error(p->spec->src, ce->edge->relation->at,
               "this relation writes array elements by more than %d combinations of indices, which the explicit "
               "engine would enumerate; use --engine symbolic",
               SEM_MAX_CASES);
    return false;
  }
  int bad = ce->relation->undetermined;
  if (bad >= 0) {
    diag_error(p->spec->src, ce->edge->relation->at,
               "this relation does not fix the value of %s' by an equation, and '%s' is an unbounded int, so the "
               "explicit engine cannot enumerate it; give '%s' a range (int[lo..hi]) or use --engine symbolic",
               p->base.slots[bad].name, p->base.slots[bad].name, p->base.slots[bad].name);
    return false;
  }
  return check_choices(p, ce->edge->relation, ce->relation);
}

static bool compile_command(product *p, cedge *ce) {
  ce->guard = ce->edge->guard;
  vec_foreach(&ce->edge->assigns, i) {
    const ast_assign *as = &ce->edge->assigns.items[i];
    const mdl_slot *s = &p->base.slots[as->var_index];
    if (as->value || enumerable(s)) continue;
    if (!s->bounded)
      diag_error(p->spec->src, as->var_at,
                 "'%s := *' chooses among all integers, which the explicit engine cannot enumerate; give '%s' a range "
                 "(int[lo..hi]) or use --engine symbolic",
                 as->var, as->var);
    else
      diag_error(p->spec->src, as->var_at,
                 "'%s := *' chooses among %" PRIu64 " values; use a smaller range or --engine symbolic", as->var,
                 (uint64_t)s->hi - (uint64_t)s->lo + 1);
    return false;
  }
  return true;
}

static bool reads_tid(const ir_expr *e) {
  if (!e) return false;
  if (e->kind == IR_TID) return true;
  return reads_tid(e->a) || reads_tid(e->b) || reads_tid(e->c) || (e->kind == IR_QUANT && reads_tid(e->lowered));
}

/* The control states (< 64) none of whose checks reads tid. */
static uint64_t tid_free_states(const ast_thread *t) {
  uint64_t free_of_tid = 0;
  for (size_t q = 0; q < t->states.len && q < 64; q++) {
    const sem_checks *cs = sem_state_checks(t->states.items[q]);
    bool reads = false;
    for (size_t i = 0; i < cs->len && !reads; i++) reads = reads_tid(cs->items[i].holds);
    if (!reads) free_of_tid |= (uint64_t)1 << q;
  }
  return free_of_tid;
}

static bool compile_thread(product *p, int index) {
  const ast_thread *t = p->spec->threads.items[index];
  cthread *ct = &p->threads[index];
  ct->thread = t;
  ct->tid_free = tid_free_states(t);
  ct->edges = xcalloc(t->edges.len + 1, sizeof *ct->edges);
  ct->out = xcalloc(t->edges.len + 1, sizeof *ct->out);
  ct->out_first = xcalloc(t->states.len + 2, sizeof *ct->out_first);
  bool ok = true;
  vec_foreach(&t->edges, k) {
    cedge *ce = &ct->edges[k];
    ce->edge = t->edges.items[k];
    ok = ok && (ce->edge->kind == EDGE_RELATION ? compile_relation(p, ce) : compile_command(p, ce));
    ct->out_first[ce->edge->from_index + 2]++;
  }
  for (size_t s = 2; s < t->states.len + 2; s++) ct->out_first[s] += ct->out_first[s - 1];
  vec_foreach(&t->edges, k) ct->out[ct->out_first[t->edges.items[k]->from_index + 1]++] = (int)k;
  return ok;
}

static bool compile_init(product *p) {
  const ast_spec *spec = p->spec;
  p->init = sem_initial_plans(spec);
  int bad = p->init->undetermined;
  if (bad >= 0) {
    const ast_shared *v = spec->shared.items[bad];
    diag_error(spec->src, v->name_at,
               "'%s' is an unbounded int with no initializer and no init predicate '%s == ...', so the explicit engine "
               "cannot enumerate its initial values; give it an initializer or a range, or use --engine symbolic",
               v->name, v->name);
    return false;
  }
  return check_choices(p, p->init->formula, p->init);
}

static void declare_symmetry(product *p) {
  const ast_spec *spec = p->spec;
  p->base.groups = xcalloc(spec->instances.len + 1, sizeof *p->base.groups);
  vec_foreach(&spec->instances, i) {
    const ast_instance *in = spec->instances.items[i];
    const ast_thread *t = spec->threads.items[in->thread_index];
    if (in->count_value < 2 || t->uses_tid || t->named_by_index) continue;
    p->base.groups[p->base.group_count++] = (mdl_group){p->at.first[in->thread_index], (int)in->count_value};
  }
}

/* The slots, the instance table and the threads, without compiled edges. */
static product *new_product(const ast_spec *spec) {
  size_t width = spec->shared.len + (size_t)spec->instance_total;
  if (width > MAX_SLOTS) {
    diag_error_at(spec->src->sink, spec->src->name,
                  "the system has %zu instances and variables; athread handles at most %d", width, MAX_SLOTS);
    return NULL;
  }
  if (!literals_fit(spec)) return NULL;
  product *p = xcalloc(1, sizeof *p);
  p->base.ops = &product_ops;
  p->base.width = width;
  p->base.slots = xcalloc(width + 1, sizeof *p->base.slots);
  p->spec = spec;
  p->arena = arena_new();
  p->shared_count = (int)spec->shared.len;
  p->threads = xcalloc(spec->threads.len + 1, sizeof *p->threads);
  p->at.first = xcalloc(spec->threads.len + 1, sizeof *p->at.first);
  p->at.counted = xcalloc(spec->threads.len + 1, sizeof *p->at.counted);
  p->init_values = xcalloc(spec->shared.len + 1, sizeof *p->init_values);
  vec_foreach(&spec->shared, i) shared_slot(p, spec->shared.items[i], &p->base.slots[i]);
  size_t next = spec->shared.len;
  vec_foreach(&spec->instances, i) {
    instance_slots(p, spec->instances.items[i], next);
    next += (size_t)spec->instances.items[i]->count_value;
  }
  vec_foreach(&spec->threads, i) p->threads[i].thread = spec->threads.items[i];
  return p;
}

mdl *product_build(const ast_spec *spec, bool symmetry) {
  product *p = new_product(spec);
  if (!p) return NULL;
  bool ok = compile_init(p);
  vec_foreach(&spec->threads, i) ok = compile_thread(p, (int)i) && ok;
  if (symmetry) declare_symmetry(p);
  if (ok) return &p->base;
  product_destroy(&p->base);
  return NULL;
}

mdl *product_build_checker(const ast_spec *spec) {
  product *p = new_product(spec);
  return p ? &p->base : NULL;
}

static void find_big_literal(ir_expr *e, void *ctx) {
  const ir_expr **found = ctx;
  if (*found) return;
  if (e->kind == IR_INT && e->big) *found = e;
  if (e->a) find_big_literal(e->a, ctx);
  if (e->b) find_big_literal(e->b, ctx);
  if (e->c) find_big_literal(e->c, ctx);
}

static bool literals_fit(const ast_spec *spec) {
  const ir_expr *big = NULL;
  ast_foreach_expr(spec, find_big_literal, &big);
  if (big)
    diag_error(spec->src, big->at,
               "this literal does not fit in 64 bits, the integers of the explicit engine; use --engine symbolic");
  return !big;
}

/* ---------------------------------------------------------------- the counted view */

static void counted_destroy(mdl *m) {
  product *c = (product *)m;
  free(c->at.first);
  free(c->at.counted);
  compiled_cancel(c->compiling);
  compiled_free(c->compiled);
  free(m->slots);
  free(c);
}

static const mdl_ops counted_ops = {
    product_initial,
    product_next_all,
    product_check,
    product_initial_holds,
    product_step_holds,
    product_describe_step,
    product_step_at,
    product_describe_value,
    product_describe_violation,
    counted_destroy,
    NULL,
    product_compile,
};

/* The view's slots for one system line, from slot next on: one count per
 * control state, or the product's instance slots. Returns the next slot. */
static size_t view_line(product *c, const product *p, int thread, size_t next) {
  const cthread *t = &p->threads[thread];
  c->at.first[thread] = (int)next;
  if (!c->at.counted[thread]) {
    memcpy(&c->base.slots[next], &p->base.slots[p->at.first[thread]], (size_t)t->count * sizeof *c->base.slots);
    return next + (size_t)t->count;
  }
  vec_foreach(&t->thread->states, q) {
    const char *name = arena_printf(p->arena, "count(%s@%s)", t->thread->name, t->thread->states.items[q]->name);
    c->base.slots[next + q] = (mdl_slot){
        .kind = SLOT_COUNT, .name = name, .bounded = true, .hi = t->count, .thread = thread, .state = (int)q};
  }
  return next + t->thread->states.len;
}

static size_t view_width(const product *p, const layout *at) {
  size_t width = (size_t)p->shared_count;
  vec_foreach(&p->spec->instances, i) {
    const cthread *t = &p->threads[p->spec->instances.items[i]->thread_index];
    width += at->counted[p->spec->instances.items[i]->thread_index] ? t->thread->states.len : (size_t)t->count;
  }
  return width;
}

mdl *product_counted(const mdl *m) {
  const product *p = (const product *)m;
  if (m->group_count == 0) return NULL;
  product *c = xmalloc(sizeof *c);
  *c = *p;
  c->viewed = m;
  c->compiled = NULL;
  c->compiling = NULL;
  c->base.ops = &counted_ops;
  c->base.groups = NULL;
  c->base.group_count = 0;
  c->at.first = xcalloc(p->spec->threads.len + 1, sizeof *c->at.first);
  c->at.counted = xcalloc(p->spec->threads.len + 1, sizeof *c->at.counted);
  for (size_t g = 0; g < m->group_count; g++) c->at.counted[m->slots[m->groups[g].first].thread] = true;
  c->base.width = view_width(p, &c->at);
  c->base.slots = xcalloc(c->base.width + 1, sizeof *c->base.slots);
  memcpy(c->base.slots, m->slots, (size_t)p->shared_count * sizeof *m->slots);
  size_t next = (size_t)p->shared_count;
  vec_foreach(&p->spec->instances, i) next = view_line(c, p, p->spec->instances.items[i]->thread_index, next);
  return &c->base;
}

/* ---------------------------------------------------------------- counted traces in instances */

/* What a view state and a product state share: the shared values and the
 * instances that are not counted. */
static void copy_uncounted(const product *c, const product *p, const int64_t *counts, int64_t *state) {
  memcpy(state, counts, (size_t)p->shared_count * sizeof *state);
  vec_foreach(&p->spec->threads, t)
    if (!c->at.counted[t])
      memcpy(state + p->at.first[t], counts + c->at.first[t], (size_t)p->threads[t].count * sizeof *state);
}

/* The counted instances of a view state, sorted by control state. */
static void spread_sorted(const product *c, const product *p, const int64_t *counts, int64_t *state) {
  vec_foreach(&p->spec->threads, t) {
    if (!c->at.counted[t]) continue;
    int64_t *instance = state + p->at.first[t];
    vec_foreach(&p->threads[t].thread->states, q)
      for (int64_t k = 0; k < counts[c->at.first[t] + (int)q]; k++) *instance++ = (int64_t)q;
  }
}

/* The product's step for a view's step from state: a counted instance's
 * is taken by the least numbered instance in the state its count is of. */
static mdl_step instance_step(const product *c, const product *p, const int64_t *state, const mdl_step *st) {
  int t = c->base.slots[st->slot].thread, first = p->at.first[t];
  if (!c->at.counted[t]) return (mdl_step){first + st->slot - c->at.first[t], st->edge};
  int i = 0;
  while (i < p->threads[t].count - 1 && state[first + i] != c->base.slots[st->slot].state) i++;
  return (mdl_step){first + i, st->edge};
}

/* Rebuilds the trace in the product's states; false when a step or the
 * violation does not replay there. */
static bool uncount_trace(const product *c, const product *p, compose_result *r, int64_t *states) {
  size_t vw = c->base.width, w = p->base.width;
  copy_uncounted(c, p, r->trace_states, states);
  spread_sorted(c, p, r->trace_states, states);
  bool replays = mdl_initial_holds(&p->base, states);
  for (size_t k = 0; k < r->trace_steps; k++) {
    int64_t *before = states + k * w, *after = before + w;
    mdl_step st = instance_step(c, p, before, &r->trace[k]);
    memcpy(after, before, w * sizeof *after);
    copy_uncounted(c, p, r->trace_states + (k + 1) * vw, after);
    after[st.slot] = thread_of_slot(p, st.slot)->edges.items[st.edge]->to_index;
    r->trace[k] = st;
    replays = replays && mdl_step_holds(&p->base, before, &st, after);
  }
  mdl_fault fault = MDL_FAULT_NONE;
  return replays && !mdl_check(&p->base, states + r->trace_steps * w, &r->violation, &fault);
}

void product_uncount(const mdl *view, compose_result *r) {
  if (r->verdict != VERDICT_UNSAFE) return;
  const product *c = (const product *)view, *p = (const product *)c->viewed;
  int64_t *states = xcalloc((r->trace_steps + 1) * p->base.width, sizeof *states);
  bool replays = uncount_trace(c, p, r, states);
  free(r->trace_states);
  r->trace_states = states;
  if (replays) return;
  r->verdict = VERDICT_UNKNOWN;
  snprintf(r->unknown_reason, sizeof r->unknown_reason,
           "internal error: the counterexample of the counted search does not replay on the instances");
}
