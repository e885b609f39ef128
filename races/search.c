/* races/search.c -- the bounded search for a data race and its replay (search.h). */
#include "search.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Edges one step may take, over all its runs, before the rest is dropped. */
#define STEP_BUDGET 20000
/* Edges on one run of a step. */
#define STEP_DEPTH 2000
/* The values the tables of states and parts may hold. */
#define POOL_LIMIT ((size_t)8 << 20)

/* ---------------------------------------------------------------- layout */

/* Where each instance's part of a state is: its location, then one value
 * per variable of its prog (a shared variable's slot stays 0: its value is
 * the cell's, at the start of the state). */
typedef struct layout {
  const rs_request *rq;
  size_t width;  /* values per state: the cells, the creations main has run, the last instance to move (+1) and
                    the context switches so far (a context-bounded search only), then the instances' parts */
  size_t count;  /* instances */
  int *thread;   /* per instance: its thread */
  size_t *base;  /* per instance: where its part starts */
} layout;

static void layout_init(layout *l, const rs_request *rq) {
  l->rq = rq;
  l->count = 0;
  for (size_t t = 0; t < rq->thread_count; t++) l->count += (size_t)rq->threads[t].instances;
  l->thread = xcalloc(l->count + 1, sizeof *l->thread);
  l->base = xcalloc(l->count + 1, sizeof *l->base);
  size_t at = rq->cells + 3, k = 0;
  for (size_t t = 0; t < rq->thread_count; t++)
    for (int i = 0; i < rq->threads[t].instances; i++, k++) {
      l->thread[k] = (int)t;
      l->base[k] = at;
      at += 1 + rq->threads[t].code->vars.len;
    }
  l->width = at;
}

static void layout_free(layout *l) {
  free(l->thread);
  free(l->base);
}

static const prog *code_of(const layout *l, size_t k) { return l->rq->threads[l->thread[k]].code; }

/* The start: every cell at its initial value, every instance at its entry
 * with its locals 0 (the prog havocs what C leaves undefined). */
static void initial_state(const layout *l, int64_t *s) {
  memset(s, 0, l->width * sizeof *s);
  memcpy(s, l->rq->initial, l->rq->cells * sizeof *s);
  for (size_t k = 0; k < l->count; k++) s[l->base[k]] = code_of(l, k)->entry;
}

/* The values of instance k's variables in state s. */
static void load_values(const layout *l, size_t k, const int64_t *s, int64_t *vals) {
  const prog *p = code_of(l, k);
  vec_foreach(&p->vars, v) {
    const prog_var *x = &p->vars.items[v];
    vals[v] = x->kind == VAR_SHARED ? s[x->shared_index] : s[l->base[k] + 1 + v];
  }
}

/* s with instance k at location at and its variables at vals. */
static void store_values(const layout *l, size_t k, int at, const int64_t *vals, int64_t *s) {
  const prog *p = code_of(l, k);
  s[l->base[k]] = at;
  vec_foreach(&p->vars, v) {
    const prog_var *x = &p->vars.items[v];
    if (x->kind == VAR_SHARED) s[x->shared_index] = vals[v];
    else s[l->base[k] + 1 + v] = vals[v];
  }
}

/* ---------------------------------------------------------------- main and the others */

static unsigned role_of(const layout *l, size_t k, int edge) {
  const uint8_t *roles = l->rq->threads[l->thread[k]].roles;
  return roles ? roles[edge] : RS_PLAIN;
}

static bool is_main(const layout *l, size_t k) { return l->thread[k] == l->rq->main_thread; }

/* main's instance, or the count when there is none. */
static size_t main_instance(const layout *l) {
  for (size_t k = 0; k < l->count; k++)
    if (is_main(l, k)) return k;
  return l->count;
}

/* May instance k move in s at all: not before main has started the
 * others? (Once main has returned they still may: main's return can wait
 * as long as they run, so the state is one where it is about to return.) */
static bool may_move(const layout *l, size_t k, const int64_t *s) {
  return main_instance(l) == l->count || is_main(l, k) || s[l->rq->cells] >= l->rq->creates;
}

static bool others_ended(const layout *l, const int64_t *s) {
  for (size_t k = 0; k < l->count; k++)
    if (!is_main(l, k) && s[l->base[k]] != code_of(l, k)->exit) return false;
  return true;
}

/* Does instance k wait at location at, not a boundary, for the others to
 * end (a join of main)? A move stops there, so that what main does before
 * the join runs while the others run. */
static bool waits_here(const layout *l, size_t k, const prog *p, int at) {
  const prog_location *x = &p->locs.items[at];
  return !x->boundary && x->out.len > 0 && (role_of(l, k, x->out.items[0]) & RS_JOIN) &&
         !(role_of(l, k, x->out.items[0]) & RS_CREATE);
}

/* Applies to s (the state after the move) what main's move does to the
 * others: the creations it counts; false when it joins while another
 * thread has not ended. */
static bool main_effects(const layout *l, size_t k, const int *edges, size_t n, int64_t *s) {
  for (size_t i = 0; i < n; i++) {
    unsigned r = role_of(l, k, edges[i]);
    if ((r & RS_JOIN) && !others_ended(l, s)) return false;
    if (r & RS_CREATED) s[l->rq->cells]++;
  }
  return true;
}

/* ---------------------------------------------------------------- accesses */

typedef struct access {
  int edge;
  int cell;
  bool write;
} access;

typedef VEC(access) access_list;

static int shared_cell(const prog *p, const ir_expr *e) {
  if (e->kind != IR_NAME || e->ref != REF_VAR || e->index < 0 || (size_t)e->index >= p->vars.len) return -1;
  const prog_var *x = &p->vars.items[e->index];
  return x->kind == VAR_SHARED ? x->shared_index : -1;
}

/* Does e, evaluated at vals, come to variable self itself (c := (s ? t : c)
 * with s false keeps c: no write)? */
static bool keeps(const prog *p, const ir_expr *e, int self, const int64_t *vals) {
  if (e->kind == IR_NAME) return e->ref == REF_VAR && e->index == self;
  int64_t c;
  if (e->kind != IR_ITE || !prog_eval(p, e->a, vals, &c)) return false;
  return keeps(p, c ? e->b : e->c, self, vals);
}

/* The cells C reads when it evaluates e at vals: a branch of ?: that is not
 * taken, and the right operand of && || that the left one decides, read
 * nothing. The cell self is left out (the write covers it). */
static void add_reads(const prog *p, int edge, const ir_expr *e, int self, const int64_t *vals, access_list *out) {
  if (!e) return;
  int cell = shared_cell(p, e);
  if (cell >= 0) {
    if (cell != self) vec_push(NULL, out, ((access){edge, cell, false}));
    return;
  }
  int64_t c;
  bool lazy = e->kind == IR_BINARY && (e->op == OP_AND || e->op == OP_OR || e->op == OP_IMPLIES);
  add_reads(p, edge, e->a, self, vals, out);
  if (e->kind == IR_ITE) {
    if (prog_eval(p, e->a, vals, &c)) add_reads(p, edge, c ? e->b : e->c, self, vals, out);
  } else if (lazy) {
    if (prog_eval(p, e->a, vals, &c) && (e->op == OP_OR ? !c : c)) add_reads(p, edge, e->b, self, vals, out);
  } else {
    add_reads(p, edge, e->b, self, vals, out);
    add_reads(p, edge, e->c, self, vals, out);
  }
}

/* The accesses of edge at vals (before it runs). */
static void edge_accesses(const prog *p, int edge, const int64_t *vals, access_list *out) {
  const prog_edge *e = &p->edges.items[edge];
  int self = -1;
  if (e->action == ACT_ASSIGN || e->action == ACT_HAVOC) {
    const prog_var *x = &p->vars.items[e->var];
    if (x->kind == VAR_SHARED && (e->action == ACT_HAVOC || !keeps(p, e->expr, e->var, vals))) {
      self = x->shared_index;
      vec_push(NULL, out, ((access){edge, self, true}));
    } else if (x->kind == VAR_SHARED) {
      return;
    }
  }
  if (!e->speculative) add_reads(p, edge, e->expr, self, vals, out);
}

/* ---------------------------------------------------------------- havoc values */

/* A few values of v's type (within its bounds): the search tries these.
 * A parameter's value is never read (races.c): 0 stands for all. */
static size_t havoc_values(const prog_var *v, int64_t *out) {
  if (v->parameter) return out[0] = 0, 1;
  int64_t lo = INT64_MIN, hi = INT64_MAX;
  if (v->type == TY_BOOL) lo = 0, hi = 1;
  if (v->ctype.bits) lo = ir_ctype_min(v->ctype), hi = ir_ctype_max(v->ctype);
  if (v->bounded) lo = v->lo > lo ? v->lo : lo, hi = v->hi < hi ? v->hi : hi;
  const int64_t tries[] = {0, 1, -1, 2, lo, hi};
  size_t n = 0;
  for (size_t i = 0; i < sizeof tries / sizeof *tries; i++) {
    bool seen = tries[i] < lo || tries[i] > hi;
    for (size_t j = 0; j < n && !seen; j++) seen = out[j] == tries[i];
    if (!seen) out[n++] = tries[i];
  }
  return n;
}

static bool havoc_fits(const prog_var *v, int64_t value) {
  int64_t tries[6];
  size_t n = havoc_values(v, tries);
  for (size_t i = 0; i < n; i++)
    if (tries[i] == value) return true;
  return false;
}

/* ---------------------------------------------------------------- one step */

/* A run of a step that reached a boundary. */
typedef struct succ {
  size_t state;  /* offset of the new state in stepper.states */
  size_t path;   /* its edges in stepper.edges (values in stepper.values) */
  size_t length; /* how many */
  size_t from, to; /* its accesses: stepper.accesses[from .. to) */
} succ;

/* The runs of one instance's step from one state. */
typedef struct stepper {
  const layout *lay;
  size_t k;                /* the instance */
  const prog *p;           /* its code */
  const int64_t *state;    /* the state it moves from */
  int64_t *vals;           /* its variables on the current run */
  VEC(int) path;           /* the current run's edges */
  VEC(int64_t) chosen;     /* and their havoc values */
  access_list run_access;  /* the current run's accesses */
  VEC(succ) succs;         /* the runs found */
  VEC(int64_t) states;     /* their states */
  VEC(int) edges;          /* their edges */
  VEC(int64_t) values;     /* their havoc values */
  access_list accesses;    /* their accesses */
  int budget;              /* edges left */
} stepper;

static void emit(stepper *w, int at) {
  succ s = {w->states.len, w->edges.len, w->path.len, w->accesses.len, 0};
  for (size_t i = 0; i < w->lay->width; i++) vec_push(NULL, &w->states, w->state[i]);
  store_values(w->lay, w->k, at, w->vals, w->states.items + s.state);
  if (!main_effects(w->lay, w->k, w->path.items, w->path.len, w->states.items + s.state)) {
    w->states.len = s.state;
    return;
  }
  vec_foreach(&w->path, i) {
    vec_push(NULL, &w->edges, w->path.items[i]);
    vec_push(NULL, &w->values, w->chosen.items[i]);
  }
  vec_foreach(&w->run_access, i) vec_push(NULL, &w->accesses, w->run_access.items[i]);
  s.to = w->accesses.len;
  vec_push(NULL, &w->succs, s);
}

static void walk(stepper *w, int at);

/* The values a havoc of edge tries: a creation's or a join's result is 0
 * (it succeeds), any other a few values of its type. */
static size_t step_havocs(const stepper *w, int edge, int64_t *tries) {
  if (role_of(w->lay, w->k, edge) == RS_PLAIN) return havoc_values(&w->p->vars.items[w->p->edges.items[edge].var], tries);
  tries[0] = 0;
  return 1;
}

/* Takes edge with the variable's new value (ASSIGN, HAVOC) or none. */
static void take(stepper *w, int edge, int64_t value) {
  const prog_edge *e = &w->p->edges.items[edge];
  size_t accessed = w->run_access.len;
  edge_accesses(w->p, edge, w->vals, &w->run_access);
  int64_t old = e->action == ACT_ASSIGN || e->action == ACT_HAVOC ? w->vals[e->var] : 0;
  if (e->action == ACT_ASSIGN || e->action == ACT_HAVOC) w->vals[e->var] = value;
  vec_push(NULL, &w->path, edge);
  vec_push(NULL, &w->chosen, e->action == ACT_HAVOC ? value : 0);
  if (w->p->locs.items[e->to].boundary) emit(w, e->to);
  else if (w->path.len < STEP_DEPTH) walk(w, e->to);
  w->path.len--, w->chosen.len--;
  if (e->action == ACT_ASSIGN || e->action == ACT_HAVOC) w->vals[e->var] = old;
  w->run_access.len = accessed;
}

/* Every run from location at; an assume or assertion that fails, or a value
 * prog_eval cannot compute, ends the run (an assertion that fails aborts
 * the program). */
static void walk(stepper *w, int at) {
  const prog_location *l = &w->p->locs.items[at];
  if (w->path.len > 0 && waits_here(w->lay, w->k, w->p, at)) {
    emit(w, at);
    return;
  }
  vec_foreach(&l->out, o) {
    if (w->budget-- <= 0) return;
    int edge = l->out.items[o];
    const prog_edge *e = &w->p->edges.items[edge];
    int64_t v = 0, tries[6];
    if (e->action == ACT_HAVOC) {
      size_t n = step_havocs(w, edge, tries);
      for (size_t i = 0; i < n; i++) take(w, edge, tries[i]);
      continue;
    }
    bool ok = e->action == ACT_SKIP || prog_eval(w->p, e->expr, w->vals, &v);
    if (ok && (e->action == ACT_SKIP || e->action == ACT_ASSIGN || v)) take(w, edge, v);
  }
}

/* The runs of instance k's step from state s into w (emptied first). */
static void step(stepper *w, size_t k, const int64_t *s) {
  w->k = k;
  w->p = code_of(w->lay, k);
  w->state = s;
  w->succs.len = w->states.len = w->edges.len = w->values.len = w->accesses.len = 0;
  w->budget = STEP_BUDGET;
  int at = (int)s[w->lay->base[k]];
  if (at == w->p->exit || !may_move(w->lay, k, s)) return;
  w->vals = xrealloc(w->vals, (w->p->vars.len + 1) * sizeof *w->vals);
  load_values(w->lay, k, s, w->vals);
  walk(w, at);
}

static void stepper_free(stepper *w) {
  free(w->vals);
  vec_free(&w->path);
  vec_free(&w->chosen);
  vec_free(&w->run_access);
  vec_free(&w->succs);
  vec_free(&w->states);
  vec_free(&w->edges);
  vec_free(&w->values);
  vec_free(&w->accesses);
}

/* ---------------------------------------------------------------- the visited states */

typedef VEC(size_t) size_t_list;

typedef struct seen {
  size_t parent;   /* the state it was first reached from (itself for the start) */
  int instance;    /* by which instance's step */
  size_t path;     /* that step's edges in search.edges */
  size_t length;   /* how many */
} seen;

/* A set of arrays of one width, numbered in the order they were added. */
typedef struct table {
  size_t width;        /* values per array */
  VEC(int64_t) items;  /* the arrays */
  size_t count;        /* how many */
  uint32_t *slots;     /* hash table: number + 1, or 0 */
  size_t mask;         /* slots - 1 */
} table;

static uint64_t hash_values(const int64_t *s, size_t n) {
  uint64_t h = 0x9e3779b97f4a7c15u;
  for (size_t i = 0; i < n; i++) {
    h ^= (uint64_t)s[i] + 0x9e3779b97f4a7c15u + (h << 6) + (h >> 2);
    h *= 0xff51afd7ed558ccdu;
  }
  return h ^ h >> 29;
}

static void table_init(table *t, size_t width) {
  *t = (table){.width = width, .mask = 1023};
  t->slots = xcalloc(t->mask + 1, sizeof *t->slots);
}

static const int64_t *table_at(const table *t, size_t i) { return t->items.items + i * t->width; }

static void table_grow(table *t) {
  free(t->slots);
  t->mask = t->mask * 2 + 1;
  t->slots = xcalloc(t->mask + 1, sizeof *t->slots);
  for (size_t i = 0; i < t->count; i++) {
    size_t h = hash_values(table_at(t, i), t->width) & t->mask;
    while (t->slots[h]) h = (h + 1) & t->mask;
    t->slots[h] = (uint32_t)i + 1;
  }
}

/* The number of array a in t, added when new (*added says so). */
static size_t table_put(table *t, const int64_t *a, bool *added) {
  size_t h = hash_values(a, t->width) & t->mask;
  for (; t->slots[h]; h = (h + 1) & t->mask)
    if (memcmp(table_at(t, t->slots[h] - 1), a, t->width * sizeof *a) == 0) return *added = false, t->slots[h] - 1;
  t->slots[h] = (uint32_t)t->count + 1;
  for (size_t i = 0; i < t->width; i++) vec_push(NULL, &t->items, a[i]);
  *added = true;
  if (++t->count * 2 > t->mask) table_grow(t);
  return t->count - 1;
}

static void table_free(table *t) {
  vec_free(&t->items);
  free(t->slots);
}

/* The states are kept collapsed: the cells and the scheduling values, then
 * per instance the number of its part (location and variables) in its
 * thread's table of parts, which the states share. */
typedef struct search {
  const rs_request *rq;
  layout lay;
  table states;        /* the collapsed states */
  table *parts;        /* per thread: the instances' parts */
  VEC(seen) meta;      /* per state: how it was reached */
  VEC(int) edges;      /* the steps' edges */
  VEC(int64_t) values; /* and havoc values */
  stepper *steps;      /* one per instance */
  int64_t *full;       /* scratch: the state being expanded */
  int64_t *collapsed;  /* scratch: a state being added */
} search;

static size_t prefix(const search *x) { return x->rq->cells + 3; }

static size_t part_width(const search *x, size_t k) { return 1 + code_of(&x->lay, k)->vars.len; }

/* State i in full, into x->full. */
static const int64_t *state_at(search *x, size_t i) {
  const int64_t *c = table_at(&x->states, i);
  memcpy(x->full, c, prefix(x) * sizeof *c);
  for (size_t k = 0; k < x->lay.count; k++)
    memcpy(x->full + x->lay.base[k], table_at(&x->parts[x->lay.thread[k]], (size_t)c[prefix(x) + k]),
           part_width(x, k) * sizeof *c);
  return x->full;
}

/* The values the tables hold. */
static size_t held(const search *x) {
  size_t n = x->states.items.len;
  for (size_t t = 0; t < x->rq->thread_count; t++) n += x->parts[t].items.len;
  return n;
}

/* Adds s (reached from parent by instance's step path) unless seen; true when added. */
static bool visit(search *x, const int64_t *s, seen how, const int *edges, const int64_t *values) {
  bool added;
  memcpy(x->collapsed, s, prefix(x) * sizeof *s);
  for (size_t k = 0; k < x->lay.count; k++)
    x->collapsed[prefix(x) + k] = (int64_t)table_put(&x->parts[x->lay.thread[k]], s + x->lay.base[k], &added);
  table_put(&x->states, x->collapsed, &added);
  if (!added) return false;
  how.path = x->edges.len;
  for (size_t i = 0; i < how.length; i++) {
    vec_push(NULL, &x->edges, edges[i]);
    vec_push(NULL, &x->values, values[i]);
  }
  vec_push(NULL, &x->meta, how);
  return true;
}

/* ---------------------------------------------------------------- finding a race */

static bool conflict(const search *x, size_t ki, const access *a, size_t kj, const access *b) {
  if (a->cell != b->cell || !x->rq->target[a->cell] || (!a->write && !b->write)) return false;
  return !(x->rq->sync(x->rq->ctx, x->lay.thread[ki], a->edge) && x->rq->sync(x->rq->ctx, x->lay.thread[kj], b->edge));
}

/* The succ of stepper w whose accesses hold access index a. */
static const succ *succ_of(const stepper *w, size_t a) {
  vec_foreach(&w->succs, i)
    if (a >= w->succs.items[i].from && a < w->succs.items[i].to) return &w->succs.items[i];
  return NULL;
}

static rs_move append_move(rs_race *out, int instance, const int *edges, const int64_t *values, size_t n) {
  rs_move m = {instance, out->edges.len, n};
  for (size_t i = 0; i < n; i++) {
    vec_push(NULL, &out->edges, edges[i]);
    vec_push(NULL, &out->values, values[i]);
  }
  return m;
}

static rs_side side_of(search *x, rs_race *out, size_t k, size_t a) {
  const stepper *w = &x->steps[k];
  const succ *s = succ_of(w, a);
  const access *acc = &w->accesses.items[a];
  rs_side side = {append_move(out, (int)k, w->edges.items + s->path, w->values.items + s->path, s->length),
                  acc->edge, acc->write, x->rq->sync(x->rq->ctx, x->lay.thread[k], acc->edge)};
  return side;
}

/* The race at state i between instances ki and kj (accesses a and b): the
 * schedule from the start, then the two steps. */
static void record(search *x, size_t i, size_t ki, size_t a, size_t kj, size_t b, rs_race *out) {
  VEC(size_t) chain = {0};
  for (size_t at = i; at != 0; at = x->meta.items[at].parent) vec_push(NULL, &chain, at);
  while (chain.len) {
    const seen *m = &x->meta.items[chain.items[--chain.len]];
    rs_move mv = append_move(out, m->instance, x->edges.items + m->path, x->values.items + m->path, m->length);
    vec_push(NULL, &out->schedule, mv);
  }
  vec_free(&chain);
  out->cell = x->steps[ki].accesses.items[a].cell;
  out->first = side_of(x, out, ki, a);
  out->second = side_of(x, out, kj, b);
}

/* A race among the steps just computed for state i. */
static bool find_conflict(search *x, size_t i, rs_race *out) {
  for (size_t ki = 0; ki < x->lay.count; ki++)
    for (size_t kj = ki + 1; kj < x->lay.count; kj++) {
      const access_list *A = &x->steps[ki].accesses, *B = &x->steps[kj].accesses;
      vec_foreach(A, a) vec_foreach(B, b) if (conflict(x, ki, &A->items[a], kj, &B->items[b])) {
        record(x, i, ki, a, kj, b, out);
        return true;
      }
    }
  return false;
}

static void search_free(search *x) {
  for (size_t k = 0; x->steps && k < x->lay.count; k++) stepper_free(&x->steps[k]);
  free(x->steps);
  table_free(&x->states);
  for (size_t t = 0; x->parts && t < x->rq->thread_count; t++) table_free(&x->parts[t]);
  free(x->parts);
  free(x->full);
  free(x->collapsed);
  vec_free(&x->meta);
  vec_free(&x->edges);
  vec_free(&x->values);
  layout_free(&x->lay);
}

/* The context switches a move of instance k from state s costs (0: the
 * same instance as the last move, or the first move), or -1 when a
 * context-bounded search may not make it. */
static int switch_cost(const search *x, size_t k, const int64_t *s) {
  if (x->rq->context_bound < 0) return 0;
  int64_t last = s[x->rq->cells + 1];
  int cost = last != 0 && last != (int64_t)k + 1;
  return s[x->rq->cells + 2] + cost > x->rq->context_bound ? -1 : cost;
}

/* Adds the successors of state i (in full: from) by instance k; pushes the new ones on todo. */
static rs_outcome add_successors(search *x, size_t i, const int64_t *from, size_t k, size_t limit,
                                 size_t_list *todo) {
  stepper *w = &x->steps[k];
  int cost = switch_cost(x, k, from);
  if (cost < 0) return RS_NONE;
  for (size_t s = w->succs.len; s-- > 0;) { /* the first run on top of a depth-first search's stack */
    if (x->meta.len >= limit || held(x) >= POOL_LIMIT) return RS_LIMIT;
    const succ *n = &w->succs.items[s];
    int64_t *next = w->states.items + n->state;
    if (x->rq->context_bound >= 0) next[x->rq->cells + 1] = (int64_t)k + 1, next[x->rq->cells + 2] += cost;
    if (visit(x, next, (seen){i, (int)k, 0, n->length}, w->edges.items + n->path, w->values.items + n->path))
      vec_push(NULL, todo, x->meta.len - 1);
  }
  return RS_NONE;
}

/* Does a step of instance k (just computed) access a target cell? */
static bool accesses_target(const search *x, size_t k) {
  const access_list *a = &x->steps[k].accesses;
  vec_foreach(a, j) if (x->rq->target[a->items[j].cell]) return true;
  return false;
}

/* Expands state i: its steps, a race among them, else its successors,
 * pushed so that a depth-first search goes on with the last instance to
 * move, then tries the others in order, each's runs in order; but when the
 * last instance's step would access a target cell, the others go first
 * (one of them may reach a conflicting access while it waits there). */
static rs_outcome expand(search *x, size_t i, size_t limit, size_t_list *todo, rs_race *out) {
  const int64_t *from = state_at(x, i); /* x->full: visit leaves it alone */
  for (size_t k = 0; k < x->lay.count; k++) step(&x->steps[k], k, from);
  if (find_conflict(x, i, out)) return RS_FOUND;
  int64_t last = from[x->rq->cells + 1];
  bool at_target = last > 0 && accesses_target(x, (size_t)last - 1);
  rs_outcome r = RS_NONE;
  if (at_target) r = add_successors(x, i, from, (size_t)last - 1, limit, todo);
  for (size_t k = x->lay.count; k-- > 0 && r == RS_NONE;)
    if ((int64_t)k + 1 != last) r = add_successors(x, i, from, k, limit, todo);
  if (r == RS_NONE && last > 0 && !at_target) r = add_successors(x, i, from, (size_t)last - 1, limit, todo);
  return r;
}

rs_outcome rs_search(const rs_request *rq, rs_race *out, size_t *states) {
  memset(out, 0, sizeof *out);
  search x = {.rq = rq};
  layout_init(&x.lay, rq);
  x.steps = xcalloc(x.lay.count + 1, sizeof *x.steps);
  for (size_t k = 0; k < x.lay.count; k++) x.steps[k].lay = &x.lay;
  table_init(&x.states, prefix(&x) + x.lay.count);
  x.parts = xcalloc(rq->thread_count + 1, sizeof *x.parts);
  for (size_t t = 0; t < rq->thread_count; t++) table_init(&x.parts[t], 1 + rq->threads[t].code->vars.len);
  x.full = xcalloc(x.lay.width, sizeof *x.full);
  x.collapsed = xcalloc(x.states.width, sizeof *x.collapsed);
  size_t limit = rq->max_states;
  int64_t *start = xcalloc(x.lay.width, sizeof *start);
  initial_state(&x.lay, start);
  visit(&x, start, (seen){0, -1, 0, 0}, NULL, NULL);
  free(start);
  size_t_list todo = {0}; /* the depth-first search's stack (breadth-first: the states in order) */
  vec_push(NULL, &todo, 0);
  rs_outcome result = RS_NONE;
  for (size_t next = 0; result == RS_NONE;) {
    bool depth_first = rq->context_bound >= 0;
    if (depth_first ? todo.len == 0 : next >= x.meta.len) break;
    size_t i = depth_first ? todo.items[--todo.len] : next++;
    result = expand(&x, i, limit, &todo, out);
    if (!depth_first) todo.len = 0;
  }
  vec_free(&todo);
  *states = x.meta.len;
  search_free(&x);
  return result;
}

/* ---------------------------------------------------------------- replay */

typedef struct replay {
  const rs_request *rq;
  layout lay;
  int64_t *state;  /* the current state */
  int64_t *vals;   /* scratch: one instance's variables */
  access_list made; /* the accesses of the last move */
  char *why;
  size_t size;
} replay;

/* Runs move on r->state (when apply) or on a copy; checks side when given. */
static bool replay_move(replay *r, const rs_race *race, rs_move m, const rs_side *side, bool apply) {
  if (m.instance < 0 || (size_t)m.instance >= r->lay.count)
    return snprintf(r->why, r->size, "no instance %d", m.instance), false;
  const prog *p = code_of(&r->lay, (size_t)m.instance);
  r->vals = xrealloc(r->vals, (p->vars.len + 1) * sizeof *r->vals);
  load_values(&r->lay, (size_t)m.instance, r->state, r->vals);
  int at = (int)r->state[r->lay.base[m.instance]];
  bool seen_access = side == NULL;
  r->made.len = 0;
  if (!may_move(&r->lay, (size_t)m.instance, r->state))
    return snprintf(r->why, r->size, "instance %d may not move", m.instance), false;
  for (size_t i = 0; i < m.count; i++) {
    int edge = race->edges.items[m.first + i];
    const prog_edge *e = edge >= 0 && (size_t)edge < p->edges.len ? &p->edges.items[edge] : NULL;
    if (!e || e->from != at) return snprintf(r->why, r->size, "edge %d does not leave location %d", edge, at), false;
    if (i > 0 && p->locs.items[at].boundary)
      return snprintf(r->why, r->size, "the step passes boundary %d", at), false;
    size_t from = r->made.len;
    edge_accesses(p, edge, r->vals, &r->made);
    for (size_t a = from; side && edge == side->edge && a < r->made.len; a++)
      seen_access |= r->made.items[a].cell == race->cell && r->made.items[a].write == side->write;
    int64_t v = race->values.items[m.first + i];
    bool fixed = role_of(&r->lay, (size_t)m.instance, edge) != RS_PLAIN;
    if (e->action == ACT_HAVOC && (fixed ? v != 0 : !havoc_fits(&p->vars.items[e->var], v)))
      return snprintf(r->why, r->size, "havoc value %lld out of range", (long long)v), false;
    if (e->action != ACT_SKIP && e->action != ACT_HAVOC && !prog_eval(p, e->expr, r->vals, &v))
      return snprintf(r->why, r->size, "edge %d cannot be evaluated", edge), false;
    if ((e->action == ACT_ASSUME || e->action == ACT_ASSERT) && !v)
      return snprintf(r->why, r->size, "edge %d: its condition is false", edge), false;
    if (e->action == ACT_ASSIGN || e->action == ACT_HAVOC) r->vals[e->var] = v;
    at = e->to;
  }
  if ((!p->locs.items[at].boundary && !waits_here(&r->lay, (size_t)m.instance, p, at)) || m.count == 0)
    return snprintf(r->why, r->size, "a move of instance %d ends inside a step", m.instance), false;
  if (!seen_access) return snprintf(r->why, r->size, "the step does not make the access stated"), false;
  int64_t *after = xcalloc(r->lay.width, sizeof *after);
  memcpy(after, r->state, r->lay.width * sizeof *after);
  store_values(&r->lay, (size_t)m.instance, at, r->vals, after);
  bool joins = main_effects(&r->lay, (size_t)m.instance, race->edges.items + m.first, m.count, after);
  if (joins && apply) memcpy(r->state, after, r->lay.width * sizeof *after);
  free(after);
  if (!joins) return snprintf(r->why, r->size, "main joins while a thread runs"), false;
  return true;
}

bool rs_replay(const rs_request *rq, const rs_race *race, rs_observe_fn *observe, void *ctx, char *why,
               size_t size) {
  replay r = {.rq = rq, .why = why, .size = size};
  layout_init(&r.lay, rq);
  r.state = xcalloc(r.lay.width, sizeof *r.state);
  int64_t *before = xcalloc(rq->cells + 1, sizeof *before);
  initial_state(&r.lay, r.state);
  bool ok = true;
  for (size_t i = 0; i < race->schedule.len && ok; i++) {
    memcpy(before, r.state, rq->cells * sizeof *before);
    ok = replay_move(&r, race, race->schedule.items[i], NULL, true);
    rs_touch *touches = xcalloc(r.made.len + 1, sizeof *touches);
    vec_foreach(&r.made, a) touches[a] = (rs_touch){r.made.items[a].cell, r.made.items[a].write};
    if (ok && observe) observe(ctx, i, before, r.state, touches, r.made.len);
    free(touches);
  }
  if (ok && race->first.move.instance == race->second.move.instance)
    ok = (snprintf(why, size, "both accesses are by one instance"), false);
  if (ok && !race->first.write && !race->second.write) ok = (snprintf(why, size, "no write"), false);
  ok = ok && replay_move(&r, race, race->first.move, &race->first, false) &&
       replay_move(&r, race, race->second.move, &race->second, false);
  free(r.state);
  free(r.vals);
  free(before);
  vec_free(&r.made);
  layout_free(&r.lay);
  return ok;
}

int rs_thread_of(const rs_request *rq, int instance, int *nth) {
  for (size_t t = 0; t < rq->thread_count; t++) {
    if (instance < rq->threads[t].instances) return *nth = instance, (int)t;
    instance -= rq->threads[t].instances;
  }
  return *nth = -1, -1;
}

void rs_race_free(rs_race *race) {
  vec_free(&race->schedule);
  vec_free(&race->edges);
  vec_free(&race->values);
}
