/* races/lockset.c -- the lockset analysis of one lowered thread (lockset.h). */
#include "lockset.h"

#include <stdlib.h>
#include <string.h>

/* The most words (bits of the held and free sets, and values) the states of
 * all locations may take. */
#define MAX_STATE_WORDS ((size_t)1 << 24)

/* The most states a location keeps apart (path sensitivity: after
 * pthread_mutex_trylock, "held and the result is 0" and "not held and the
 * result is EBUSY"); more are joined into one, for good. */
#define MAX_PATHS 8

/* ---------------------------------------------------------------- values */

typedef enum { LV_TOP, LV_CONST, LV_SELF } lv_kind;

/* What an expression is known to be: a constant, the cell being written (its
 * value before the write), or anything. */
typedef struct lkv {
  lv_kind kind; /* which */
  int64_t v;    /* LV_CONST */
} lkv;

static const lkv top = {LV_TOP, 0};

static lkv constant(int64_t v) { return (lkv){LV_CONST, v}; }

static bool same(lkv a, lkv b) { return a.kind == b.kind && (a.kind != LV_CONST || a.v == b.v); }

/* The state at a location. */
typedef struct lk_state {
  bool reached;   /* some path reaches it */
  uint64_t *held; /* cells the thread surely holds */
  uint64_t *free; /* bool cells known false since the step began */
  lkv *vals;      /* per variable: a local's known value */
} lk_state;

typedef VEC(int) int_list;

/* The states of a location: each path's apart, up to MAX_PATHS; then one,
 * their join. */
typedef struct state_set {
  VEC(lk_state) items; /* distinct states (none: unreached) */
  bool joined;         /* more came than MAX_PATHS: items holds one state, the join */
} state_set;

typedef struct analysis {
  const prog *p;       /* the thread */
  const cfe_unit *u;   /* for the functions edges come from */
  lk_constants consts; /* cells that never change while the threads run */
  size_t words;        /* words per bit set (a bit per variable) */
  state_set *states;   /* per location */
  lk_state scratch;    /* an edge's result */
  lk_state meet;       /* collect: what every state before an edge has in common */
  size_t budget;       /* words the states may still take */
  int_list *preds;     /* per location, the edges into it (built when first needed) */
  lk_thread *out;      /* the result */
} analysis;

static bool bit(const uint64_t *s, int i) { return s[i / 64] >> (i % 64) & 1; }
static void set_bit(uint64_t *s, int i) { s[i / 64] |= (uint64_t)1 << (i % 64); }
static void clear_bit(uint64_t *s, int i) { s[i / 64] &= ~((uint64_t)1 << (i % 64)); }

/* ---------------------------------------------------------------- evaluation */

static bool is_shared(const prog *p, int v) { return p->vars.items[v].kind == VAR_SHARED; }

/* The thread's own variables (a VAR_LOAD too: its copy of a value read,
 * which only this thread writes); a shared cell's value is never known,
 * unless it never changes (lk_constants). */
static bool is_private(const prog *p, int v) { return p->vars.items[v].kind != VAR_SHARED; }

static lkv eval(const analysis *a, const ir_expr *e, const lkv *vals, int self);

static lkv eval_name(const analysis *a, const ir_expr *e, const lkv *vals, int self) {
  if (e->ref != REF_VAR || e->index < 0 || (size_t)e->index >= a->p->vars.len) return top;
  if (e->index == self) return (lkv){LV_SELF, 0};
  if (is_private(a->p, e->index)) return vals[e->index];
  int cell = a->p->vars.items[e->index].shared_index;
  return a->consts.known && a->consts.known[cell] ? constant(a->consts.value[cell]) : top;
}

/* v converted to the C type t, when it fits (else unknown). */
static lkv wrap(int64_t v, ir_ctype t) {
  if (t.bits == 0 || t.bits >= 64) return constant(v);
  if (t.bits == 1) return constant(v != 0);
  int64_t lo = t.is_unsigned ? 0 : -((int64_t)1 << (t.bits - 1));
  int64_t hi = t.is_unsigned ? ((int64_t)1 << t.bits) - 1 : ((int64_t)1 << (t.bits - 1)) - 1;
  return v >= lo && v <= hi ? constant(v) : top;
}

static lkv eval_unary(const analysis *a, const ir_expr *e, const lkv *vals, int self) {
  lkv x = eval(a, e->a, vals, self);
  if (x.kind != LV_CONST) return top;
  switch (e->op) {
  case OP_NOT: return constant(!x.v);
  case OP_NEG: return x.v == INT64_MIN ? top : constant(-x.v);
  case OP_WRAP: return wrap(x.v, e->ity);
  default: return top;
  }
}

static lkv arith(ir_op op, int64_t x, int64_t y) {
  int64_t r;
  switch (op) {
  case OP_ADD: return __builtin_add_overflow(x, y, &r) ? top : constant(r);
  case OP_SUB: return __builtin_sub_overflow(x, y, &r) ? top : constant(r);
  case OP_MUL: return __builtin_mul_overflow(x, y, &r) ? top : constant(r);
  case OP_LT: return constant(x < y);
  case OP_LE: return constant(x <= y);
  case OP_GT: return constant(x > y);
  case OP_GE: return constant(x >= y);
  case OP_EQ:
  case OP_IFF: return constant(x == y);
  case OP_NE: return constant(x != y);
  case OP_AND: return constant(x && y);
  case OP_OR: return constant(x || y);
  case OP_IMPLIES: return constant(!x || y);
  default: return top;
  }
}

static lkv eval_binary(const analysis *a, const ir_expr *e, const lkv *vals, int self) {
  lkv x = eval(a, e->a, vals, self);
  if (x.kind == LV_CONST && ((e->op == OP_AND && !x.v) || (e->op == OP_OR && x.v))) return constant(x.v != 0);
  lkv y = eval(a, e->b, vals, self);
  if (y.kind == LV_CONST && ((e->op == OP_AND && !y.v) || (e->op == OP_OR && y.v))) return constant(y.v != 0);
  if (x.kind != LV_CONST || y.kind != LV_CONST) return top;
  return arith(e->op, x.v, y.v);
}

/* e's value under vals; self is the variable being written (LV_SELF), or -1. */
static lkv eval(const analysis *a, const ir_expr *e, const lkv *vals, int self) {
  switch (e->kind) {
  case IR_BOOL: return constant(e->value);
  case IR_INT: return e->big ? top : constant(e->value);
  case IR_NAME: return eval_name(a, e, vals, self);
  case IR_UNARY: return eval_unary(a, e, vals, self);
  case IR_BINARY: return eval_binary(a, e, vals, self);
  case IR_ITE: {
    lkv c = eval(a, e->a, vals, self);
    if (c.kind == LV_CONST) return eval(a, c.v ? e->b : e->c, vals, self);
    lkv x = eval(a, e->b, vals, self), y = eval(a, e->c, vals, self);
    return same(x, y) ? x : top;
  }
  default: return top;
  }
}

/* ---------------------------------------------------------------- states */

static size_t state_words(const analysis *a) { return 2 * a->words + a->p->vars.len * 2; }

/* False when the states would take more than the budget. */
static bool state_init(analysis *a, lk_state *s) {
  if (a->budget < state_words(a)) return false;
  a->budget -= state_words(a);
  s->held = xcalloc(2 * a->words + 1, sizeof *s->held);
  s->free = s->held + a->words;
  s->vals = xcalloc(a->p->vars.len + 1, sizeof *s->vals); /* LV_TOP is 0 */
  return true;
}

static void state_free(lk_state *s) {
  free(s->held);
  free(s->vals);
}

static void state_copy(const analysis *a, lk_state *to, const lk_state *from) {
  to->reached = from->reached;
  memcpy(to->held, from->held, 2 * a->words * sizeof *to->held);
  memcpy(to->vals, from->vals, a->p->vars.len * sizeof *to->vals);
}

static bool state_equal(const analysis *a, const lk_state *x, const lk_state *y) {
  if (memcmp(x->held, y->held, 2 * a->words * sizeof *x->held) != 0) return false;
  vec_foreach(&a->p->vars, v)
    if (!same(x->vals[v], y->vals[v])) return false;
  return true;
}

/* to := to joined with from; true when to changed. */
static bool state_join(const analysis *a, lk_state *to, const lk_state *from) {
  if (!to->reached) {
    state_copy(a, to, from);
    return true;
  }
  bool changed = false;
  for (size_t i = 0; i < 2 * a->words; i++) {
    uint64_t w = to->held[i] & from->held[i];
    changed |= w != to->held[i];
    to->held[i] = w;
  }
  vec_foreach(&a->p->vars, v)
    if (!same(to->vals[v], from->vals[v]) && to->vals[v].kind != LV_TOP) {
      to->vals[v] = top;
      changed = true;
    }
  return changed;
}

/* Adds s to set; true when the set changed. Sets *full (and changes
 * nothing) when a new state would go over the budget. */
static bool set_add(analysis *a, state_set *set, const lk_state *s, bool *full) {
  if (set->joined) return state_join(a, &set->items.items[0], s);
  vec_foreach(&set->items, i)
    if (state_equal(a, &set->items.items[i], s)) return false;
  if (set->items.len < MAX_PATHS) {
    lk_state copy = {0};
    if (!state_init(a, &copy)) return *full = true, false;
    state_copy(a, &copy, s);
    vec_push(NULL, &set->items, copy);
    return true;
  }
  for (size_t i = 1; i < set->items.len; i++) {
    state_join(a, &set->items.items[0], &set->items.items[i]);
    state_free(&set->items.items[i]);
  }
  set->items.len = 1;
  set->joined = true;
  state_join(a, &set->items.items[0], s);
  return true;
}

/* ---------------------------------------------------------------- transfer */

static bool is_bool_cell(const prog *p, int v) { return is_shared(p, v) && p->vars.items[v].type == TY_BOOL; }

/* The bool cell e names under vals (a read through a pointer is a ?: over
 * the cells it may point to, chosen by the pointer's value), or -1. */
static int cell_named(const analysis *a, const ir_expr *e, const lkv *vals) {
  for (int depth = 0; depth < IR_MAX_DEPTH && e->kind == IR_ITE; depth++) {
    lkv c = eval(a, e->a, vals, -1);
    if (c.kind != LV_CONST) return -1;
    e = c.v ? e->b : e->c;
  }
  return e->kind == IR_NAME && e->ref == REF_VAR && is_bool_cell(a->p, e->index) ? e->index : -1;
}

/* What assume(c) teaches: !v for a bool cell v, x == k for a local x. */
static void learn(const analysis *a, const ir_expr *c, lk_state *s) {
  if (c->kind == IR_BINARY && c->op == OP_AND) {
    learn(a, c->a, s);
    learn(a, c->b, s);
  } else if (c->kind == IR_UNARY && c->op == OP_NOT && cell_named(a, c->a, s->vals) >= 0) {
    set_bit(s->free, cell_named(a, c->a, s->vals));
  } else if (c->kind == IR_BINARY && c->op == OP_EQ) {
    const ir_expr *x = c->a, *k = c->b;
    if (x->kind != IR_NAME) x = c->b, k = c->a;
    lkv kv = eval(a, k, s->vals, -1);
    if (x->kind == IR_NAME && x->ref == REF_VAR && is_private(a->p, x->index) && kv.kind == LV_CONST)
      s->vals[x->index] = kv;
  }
}

/* The write v := e (v a shared cell) under s: the sets after it. */
static void write_cell(const analysis *a, int v, const ir_expr *e, lk_state *s) {
  lkv w = e ? eval(a, e, s->vals, v) : top;
  if (w.kind == LV_SELF) return;
  bool acquire = w.kind == LV_CONST && w.v && bit(s->free, v);
  if (acquire) set_bit(s->held, v);
  else clear_bit(s->held, v);
  if (w.kind == LV_CONST && !w.v) set_bit(s->free, v);
  else clear_bit(s->free, v);
}

/* The state after edge e from s into a->scratch; false when e cannot be taken. */
static bool transfer(analysis *a, const prog_edge *e, const lk_state *s) {
  lk_state *t = &a->scratch;
  state_copy(a, t, s);
  const prog *p = a->p;
  switch (e->action) {
  case ACT_ASSUME: {
    lkv c = eval(a, e->expr, s->vals, -1);
    if (c.kind == LV_CONST && !c.v) return false;
    learn(a, e->expr, t);
    break;
  }
  case ACT_ASSIGN:
  case ACT_HAVOC:
    if (is_shared(p, e->var)) write_cell(a, e->var, e->action == ACT_ASSIGN ? e->expr : NULL, t);
    else t->vals[e->var] = e->action == ACT_ASSIGN ? eval(a, e->expr, s->vals, -1) : top;
    break;
  default: break;
  }
  if (p->locs.items[e->to].boundary) memset(t->free, 0, a->words * sizeof *t->free); /* others may move */
  return true;
}

/* The states of location l, copied (the set may change while they are used). */
static lk_state *snapshot(analysis *a, int l, size_t *n) {
  const state_set *set = &a->states[l];
  *n = set->items.len;
  lk_state *copy = xcalloc(*n + 1, sizeof *copy);
  for (size_t i = 0; i < *n; i++) {
    copy[i].held = xcalloc(2 * a->words + 1, sizeof *copy[i].held);
    copy[i].free = copy[i].held + a->words;
    copy[i].vals = xcalloc(a->p->vars.len + 1, sizeof *copy[i].vals);
    state_copy(a, &copy[i], &set->items.items[i]);
  }
  return copy;
}

static void free_snapshot(lk_state *states, size_t n) {
  for (size_t i = 0; i < n; i++) state_free(&states[i]);
  free(states);
}

/* False when the states went over the budget. */
static bool fixpoint(analysis *a) {
  const prog *p = a->p;
  size_t n = p->locs.len;
  int *queue = xcalloc(n + 1, sizeof *queue);
  bool *queued = xcalloc(n + 1, sizeof *queued), full = false;
  size_t head = 0, count = 1;
  lk_state start = {0};
  if (!state_init(a, &start)) full = true;
  else start.reached = true, set_add(a, &a->states[p->entry], &start, &full), state_free(&start);
  queue[0] = p->entry, queued[p->entry] = true;
  while (count && !full) {
    int l = queue[head];
    head = (head + 1) % n, count--, queued[l] = false;
    size_t k;
    lk_state *before = snapshot(a, l, &k);
    for (size_t s = 0; s < k; s++)
      vec_foreach(&p->locs.items[l].out, o) {
        const prog_edge *e = &p->edges.items[p->locs.items[l].out.items[o]];
        if (!transfer(a, e, &before[s]) || !set_add(a, &a->states[e->to], &a->scratch, &full) || queued[e->to])
          continue;
        queue[(head + count) % n] = e->to, queued[e->to] = true, count++;
      }
    free_snapshot(before, k);
  }
  free(queue);
  free(queued);
  return !full;
}

/* ---------------------------------------------------------------- where in the user's code */

const char *lk_function_of(const prog *p, const cfe_unit *u, prog_origin o) {
  return o.file >= 0 ? cfe_function_at(u, p->files.items[o.file], o.at.start) : NULL;
}

bool lk_in_model(const prog *p, const cfe_unit *u, prog_origin o) {
  const char *f = lk_function_of(p, u, o);
  return f && strncmp(f, "athread_model_", 14) == 0;
}

static bool in_model(const analysis *a, prog_origin o) { return lk_in_model(a->p, a->u, o); }

static void free_preds(analysis *a) {
  for (size_t l = 0; a->preds && l < a->p->locs.len; l++) vec_free(&a->preds[l]);
  free(a->preds);
  a->preds = NULL;
}

static void build_preds(analysis *a) {
  a->preds = xcalloc(a->p->locs.len + 1, sizeof *a->preds);
  vec_foreach(&a->p->edges, i) vec_push(NULL, &a->preds[a->p->edges.items[i].to], (int)i);
}

/* The origin of edge e in the user's code: its own, or for an edge of a
 * model (inlined) the nearest edge before it that is not in a model. */
static prog_origin user_origin(analysis *a, int edge) {
  prog_origin o = a->p->edges.items[edge].origin;
  if (!in_model(a, o)) return o;
  if (!a->preds) build_preds(a);
  for (int step = 0; step < 256; step++) {
    const int_list *in = &a->preds[a->p->edges.items[edge].from];
    if (!in->len) break;
    edge = in->items[0];
    prog_origin before = a->p->edges.items[edge].origin;
    if (before.file >= 0 && !in_model(a, before)) return before;
  }
  return o;
}

/* ---------------------------------------------------------------- accesses */

static bool edge_sync(const analysis *a, int edge) {
  const prog_edge *e = &a->p->edges.items[edge];
  return a->p->locs.items[e->from].atomic || in_model(a, e->origin);
}

bool lk_edge_sync(const prog *p, const cfe_unit *u, int edge) {
  analysis a = {.p = p, .u = u};
  return edge_sync(&a, edge);
}

prog_origin lk_user_origin(const prog *p, const cfe_unit *u, int edge) {
  analysis a = {.p = p, .u = u};
  prog_origin o = user_origin(&a, edge);
  free_preds(&a);
  return o;
}

static void add_access(analysis *a, int edge, int var, bool write, const lk_state *s) {
  const prog *p = a->p;
  lk_access acc = {.cell = p->vars.items[var].shared_index, .write = write, .edge = edge, .held = a->out->held.len};
  acc.sync = edge_sync(a, edge);
  acc.at = user_origin(a, edge);
  for (size_t i = 0; i < a->out->words; i++) vec_push(NULL, &a->out->held, 0);
  vec_foreach(&p->vars, v)
    if (bit(s->held, (int)v) && is_shared(p, (int)v))
      set_bit(&a->out->held.items[acc.held], p->vars.items[v].shared_index);
  vec_push(NULL, &a->out->accesses, acc);
}

/* The shared cells e reads (self, the cell being written, excepted: the
 * write covers it); a branch of ?: that a known condition excludes is not read. */
static void add_reads(analysis *a, int edge, const ir_expr *e, int self, const lk_state *s) {
  if (!e) return;
  if (e->kind == IR_NAME && e->ref == REF_VAR && e->index != self && is_shared(a->p, e->index)) {
    add_access(a, edge, e->index, false, s);
    return;
  }
  if (e->kind == IR_ITE) {
    lkv c = eval(a, e->a, s->vals, -1);
    add_reads(a, edge, e->a, self, s);
    if (c.kind != LV_CONST || c.v) add_reads(a, edge, e->b, self, s);
    if (c.kind != LV_CONST || !c.v) add_reads(a, edge, e->c, self, s);
    return;
  }
  add_reads(a, edge, e->a, self, s);
  add_reads(a, edge, e->b, self, s);
  add_reads(a, edge, e->c, self, s);
}

static void add_lock_write(analysis *a, int edge, int v, lk_write_kind kind) {
  lk_lock_write w = {a->p->vars.items[v].shared_index, kind, user_origin(a, edge)};
  vec_push(NULL, &a->out->lock_writes, w);
}

/* The write of edge (to shared v) from s: an access unless it keeps the
 * cell's value (then C's v = v still reads v, while the front end's "keep
 * v" in c := (s ? t : c) is no access); for a bool cell, how it treats the
 * cell as a lock. */
static void add_write(analysis *a, int edge, int v, const lk_state *s) {
  const prog_edge *e = &a->p->edges.items[edge];
  lkv w = e->action == ACT_ASSIGN ? eval(a, e->expr, s->vals, v) : top;
  if (w.kind == LV_SELF && e->expr->kind == IR_NAME) add_access(a, edge, v, false, s); /* v = v; reads v */
  if (w.kind == LV_SELF) return;
  add_access(a, edge, v, true, s);
  if (!is_bool_cell(a->p, v)) return;
  if (w.kind == LV_CONST && w.v && bit(s->free, v)) add_lock_write(a, edge, v, LK_ACQUIRE);
  else if (w.kind == LV_CONST && !w.v && bit(s->held, v)) add_lock_write(a, edge, v, LK_RELEASE);
  else add_lock_write(a, edge, v, LK_BROKEN);
}

/* a->meet := what the states of location l from which edge e can be
 * taken have in common (their join); false when it is taken from none. */
static bool meet_before(analysis *a, int l, const prog_edge *e) {
  const state_set *set = &a->states[l];
  a->meet.reached = false;
  vec_foreach(&set->items, i) {
    const lk_state *s = &set->items.items[i];
    if (e->action == ACT_ASSUME && !transfer(a, e, s)) continue; /* never taken from s */
    state_join(a, &a->meet, s);
    a->meet.reached = true;
  }
  return a->meet.reached;
}

static void collect(analysis *a) {
  const prog *p = a->p;
  vec_foreach(&p->locs, l)
    vec_foreach(&p->locs.items[l].out, k) {
      int edge = p->locs.items[l].out.items[k];
      const prog_edge *e = &p->edges.items[edge];
      if (!meet_before(a, (int)l, e)) continue;
      bool writes = (e->action == ACT_ASSIGN || e->action == ACT_HAVOC) && is_shared(p, e->var);
      if (e->action != ACT_HAVOC && e->action != ACT_SKIP) add_reads(a, edge, e->expr, writes ? e->var : -1, &a->meet);
      if (writes) add_write(a, edge, e->var, &a->meet);
    }
}

/* ---------------------------------------------------------------- every cell named */

static void touch_expr(const prog *p, const ir_expr *e, uint64_t *touched) {
  if (!e) return;
  if (e->kind == IR_NAME && e->ref == REF_VAR && is_shared(p, e->index))
    set_bit(touched, p->vars.items[e->index].shared_index);
  touch_expr(p, e->a, touched);
  touch_expr(p, e->b, touched);
  touch_expr(p, e->c, touched);
}

/* The cells the program names anywhere: what the front end kept of the C
 * code's accesses (races.c checks it against libclang's reading). */
static void touch_all(const prog *p, lk_thread *out) {
  out->touched = xcalloc(out->words, sizeof *out->touched);
  vec_foreach(&p->edges, i) {
    const prog_edge *e = &p->edges.items[i];
    if ((e->action == ACT_ASSIGN || e->action == ACT_HAVOC) && is_shared(p, e->var))
      set_bit(out->touched, p->vars.items[e->var].shared_index);
    touch_expr(p, e->expr, out->touched);
  }
}

/* ---------------------------------------------------------------- entry */

bool lk_analyse(const prog *p, const cfe_unit *u, size_t cells, const lk_constants *consts, lk_thread *out) {
  memset(out, 0, sizeof *out);
  analysis a = {
      .p = p, .u = u, .consts = *consts, .words = p->vars.len / 64 + 1, .out = out, .budget = MAX_STATE_WORDS};
  out->words = cells / 64 + 1;
  a.states = xcalloc(p->locs.len + 1, sizeof *a.states);
  bool ok = state_init(&a, &a.scratch) && state_init(&a, &a.meet) && fixpoint(&a);
  if (ok) {
    touch_all(p, out);
    collect(&a);
  }
  vec_foreach(&p->locs, l) {
    vec_foreach(&a.states[l].items, i) state_free(&a.states[l].items.items[i]);
    vec_free(&a.states[l].items);
  }
  free(a.states);
  free_preds(&a);
  state_free(&a.scratch);
  state_free(&a.meet);
  return ok;
}

void lk_free(lk_thread *t) {
  vec_free(&t->accesses);
  vec_free(&t->lock_writes);
  vec_free(&t->held);
  free(t->touched);
}

bool lk_touches(const lk_thread *t, int cell) { return t->touched && bit(t->touched, cell); }

bool lk_holds(const lk_thread *t, const lk_access *a, int cell) { return bit(&t->held.items[a->held], cell); }
