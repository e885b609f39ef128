/* conformance/encode.c -- cut points, liveness and segment formulas. */
#include "encode.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- cut points */

/* Proofs also cut at every BLOCK_STEPS-th step boundary: a block's clauses
 * (and the quantifier over each) then stay small however long the code. */
#define BLOCK_STEPS 16

static void find_cuts(enc *e, bool step_cuts) {
  const prog *p = e->p;
  int *in = xcalloc(p->locs.len + 1, sizeof *in);
  vec_foreach(&p->edges, k) in[p->edges.items[k].to]++;
  e->cut_of = xcalloc(p->locs.len + 1, sizeof *e->cut_of);
  size_t boundaries = 0;
  vec_foreach(&p->locs, l) {
    bool boundary = p->locs.items[l].boundary && boundaries++ % (step_cuts ? 1 : BLOCK_STEPS) == 0;
    bool cut = (int)l == p->entry || boundary || in[l] >= 2;
    e->cut_of[l] = -1;
    if (!cut) continue;
    e->cut_of[l] = (int)e->cuts.len;
    vec_push(NULL, &e->cuts, (int)l);
  }
  free(in);
}

/* ---------------------------------------------------------------- liveness */

static void mark_use(const ir_expr *x, void *live_set) {
  if (x->kind == IR_NAME && x->ref == REF_VAR) ((bool *)live_set)[x->index] = true;
}

static bool defines(const prog_edge *ed) { return ed->action == ACT_ASSIGN || ed->action == ACT_HAVOC; }

/* Marks the variables that the conditions depend on, through assignments. */
static void find_relevant(enc *e, bool all) {
  const prog *p = e->p;
  e->relevant = xcalloc(e->var_count + 1, sizeof *e->relevant);
  if (all) {
    memset(e->relevant, 1, e->var_count * sizeof *e->relevant);
    return;
  }
  vec_foreach(&p->edges, k)
    if (p->edges.items[k].action == ACT_ASSUME || p->edges.items[k].action == ACT_ASSERT)
      ir_walk(p->edges.items[k].expr, mark_use, e->relevant);
  for (bool grew = true; grew;) {
    grew = false;
    vec_foreach(&p->edges, k) {
      const prog_edge *ed = &p->edges.items[k];
      if (ed->action != ACT_ASSIGN || !e->relevant[ed->var]) continue;
      size_t before = 0, after = 0;
      for (size_t v = 0; v < e->var_count; v++) before += e->relevant[v];
      ir_walk(ed->expr, mark_use, e->relevant);
      for (size_t v = 0; v < e->var_count; v++) after += e->relevant[v];
      grew = grew || after != before;
    }
  }
}

/* Per edge, the variables its expression reads (a variable may repeat):
 * those of edge k are var[start[k]] .. var[start[k + 1] - 1]. Read once, so
 * that the passes of liveness do not walk the expressions again. */
typedef struct edge_uses {
  size_t *start;
  VEC(int) var;
} edge_uses;

static void push_use(const ir_expr *x, void *uses) {
  if (x->kind == IR_NAME && x->ref == REF_VAR) vec_push(NULL, &((edge_uses *)uses)->var, x->index);
}

/* The uses that count: none for an assignment the cone of influence leaves out. */
static void find_uses(const enc *e, edge_uses *u) {
  const prog *p = e->p;
  u->start = xcalloc(p->edges.len + 1, sizeof *u->start);
  vec_foreach(&p->edges, k) {
    const prog_edge *ed = &p->edges.items[k];
    u->start[k] = u->var.len;
    if (ed->expr && !(defines(ed) && !e->relevant[ed->var])) ir_walk(ed->expr, push_use, u);
  }
  u->start[p->edges.len] = u->var.len;
}

/* Adds to at what is live before edge k (given what is live after it). */
static void live_before(const enc *e, const edge_uses *u, size_t k, const bool *after, bool *at) {
  const prog_edge *ed = &e->p->edges.items[k];
  for (size_t v = 0; v < e->var_count; v++)
    if (after[v] && !(defines(ed) && ed->var == (int)v)) at[v] = true;
  for (size_t i = u->start[k]; i < u->start[k + 1]; i++) at[u->var.items[i]] = true;
}

/* One backward pass; true when some live set grew. */
static bool liveness_pass(const enc *e, const edge_uses *u, bool *live, bool *scratch) {
  const prog *p = e->p;
  size_t v_count = e->var_count;
  bool changed = false;
  for (size_t l = p->locs.len; l-- > 0;) {
    bool *at = live + l * v_count;
    memcpy(scratch, at, v_count * sizeof *scratch);
    vec_foreach(&p->locs.items[l].out, i) {
      size_t k = (size_t)p->locs.items[l].out.items[i];
      live_before(e, u, k, live + (size_t)p->edges.items[k].to * v_count, scratch);
    }
    if (memcmp(scratch, at, v_count * sizeof *scratch) != 0) {
      memcpy(at, scratch, v_count * sizeof *scratch);
      changed = true;
    }
  }
  return changed;
}

static void find_liveness(enc *e) {
  size_t n = e->p->locs.len * e->var_count;
  bool *live = xcalloc(n + 1, sizeof *live), *scratch = xcalloc(e->var_count + 1, sizeof *scratch);
  edge_uses u = {0};
  find_uses(e, &u);
  while (liveness_pass(e, &u, live, scratch)) continue;
  free(u.start);
  vec_free(&u.var);
  free(scratch);
  e->live = xcalloc(e->cuts.len * e->var_count + 1, sizeof *e->live);
  vec_foreach(&e->cuts, c)
    memcpy(e->live + c * e->var_count, live + (size_t)e->cuts.items[c] * e->var_count, e->var_count * sizeof *live);
  free(live);
}

/* ---------------------------------------------------------------- segments */

typedef VEC(int) int_path;

static void add_segment(enc *e, int from, int to, const int_path *path) {
  enc_segment s = {.from = from, .to = to};
  vec_foreach(path, i) vec_push(NULL, &s.edges, path->items[i]);
  vec_push(NULL, &e->segments, s);
}

/* Depth-first from a cut point along non-cut locations (each has one
 * predecessor, so every location is walked once per cut point). Recursion
 * happens only where a location branches, never along a chain. */
static void walk(enc *e, int cut, int at, int_path *path) {
  size_t depth = path->len;
  for (;;) {
    const prog_location *l = &e->p->locs.items[at];
    if (l->out.len != 1) break;
    int ed = l->out.items[0];
    const prog_edge *edge = &e->p->edges.items[ed];
    vec_push(NULL, path, ed);
    if (edge->action == ACT_ASSERT) add_segment(e, cut, -1, path);
    if (e->cut_of[edge->to] >= 0) {
      add_segment(e, cut, e->cut_of[edge->to], path);
      path->len = depth;
      return;
    }
    at = edge->to;
  }
  vec_foreach(&e->p->locs.items[at].out, k) {
    int ed = e->p->locs.items[at].out.items[k];
    const prog_edge *edge = &e->p->edges.items[ed];
    vec_push(NULL, path, ed);
    if (edge->action == ACT_ASSERT) add_segment(e, cut, -1, path);
    if (e->cut_of[edge->to] >= 0) add_segment(e, cut, e->cut_of[edge->to], path);
    else walk(e, cut, edge->to, path);
    path->len--;
  }
  path->len = depth;
}

static void find_segments(enc *e) {
  int_path path = {0};
  vec_foreach(&e->cuts, c) walk(e, (int)c, e->cuts.items[c], &path);
  vec_free(&path);
}

static void find_clauses(enc *e);

enc *enc_new(smt *s, const prog *p, bool for_trace) {
  enc *e = xcalloc(1, sizeof *e);
  e->s = s;
  e->p = p;
  e->var_count = p->vars.len;
  find_cuts(e, for_trace);
  find_relevant(e, for_trace);
  find_liveness(e);
  if (for_trace) find_segments(e);
  else find_clauses(e);
  return e;
}

void enc_free(enc *e) {
  if (!e) return;
  vec_foreach(&e->segments, j) vec_free(&e->segments.items[j].edges);
  vec_free(&e->segments);
  vec_foreach(&e->clauses, j) {
    free(e->clauses.items[j].y);
    vec_free(&e->clauses.items[j].fresh);
  }
  vec_free(&e->clauses);
  free(e->start);
  vec_free(&e->cuts);
  free(e->cut_of);
  free(e->live);
  free(e->relevant);
  free(e);
}

/* ---------------------------------------------------------------- formulas */

Z3_ast enc_var(enc *e, int v, const char *suffix) {
  const prog_var *pv = &e->p->vars.items[v];
  char name[256];
  if (suffix) snprintf(name, sizeof name, "%s@%s", pv->name, suffix);
  else snprintf(name, sizeof name, "%s", pv->name);
  return smt_var(e->s, name, pv->type == TY_BOOL);
}

unsigned enc_live_args(const enc *e, int k, const Z3_ast *vals, Z3_ast *out) {
  unsigned n = 0;
  for (size_t v = 0; v < e->var_count; v++)
    if (e->live[(size_t)k * e->var_count + v]) out[n++] = vals[v];
  return n;
}

/* A havoc's value: within the variable's bounds and its C type. */
static Z3_ast in_bounds(enc *e, int v, Z3_ast t) {
  const prog_var *pv = &e->p->vars.items[v];
  enc_terms c = {0};
  if (pv->bounded) {
    vec_push(NULL, &c, smt_le(e->s, smt_int(e->s, pv->lo), t));
    vec_push(NULL, &c, smt_le(e->s, t, smt_int(e->s, pv->hi)));
  }
  if (pv->ctype.bits > 1) vec_push(NULL, &c, smt_in_ctype(e->s, pv->ctype, t));
  Z3_ast all = smt_and(e->s, (unsigned)c.len, c.items);
  vec_free(&c);
  return all;
}

/* Applies one edge to the current terms cur; adds its constraint to c. */
static void apply_edge(enc *e, int ed, bool fails, Z3_ast *cur, const char *suffix, enc_terms *c, enc_terms *fresh) {
  const prog_edge *edge = &e->p->edges.items[ed];
  smt_env env = {.vars = cur};
  if (defines(edge) && !e->relevant[edge->var]) return;
  switch (edge->action) {
  case ACT_SKIP: break;
  case ACT_ASSIGN: cur[edge->var] = smt_expr(e->s, edge->expr, &env); break;
  case ACT_HAVOC: {
    char tag[64];
    snprintf(tag, sizeof tag, "e%d%s%s", ed, suffix ? "@" : "", suffix ? suffix : "");
    Z3_ast t = enc_var(e, edge->var, tag);
    vec_push(NULL, fresh, t);
    const prog_var *pv = &e->p->vars.items[edge->var];
    if (pv->bounded || pv->ctype.bits > 1) vec_push(NULL, c, in_bounds(e, edge->var, t));
    cur[edge->var] = t;
    break;
  }
  case ACT_ASSUME: vec_push(NULL, c, smt_expr(e->s, edge->expr, &env)); break;
  case ACT_ASSERT: {
    Z3_ast holds = smt_expr(e->s, edge->expr, &env);
    vec_push(NULL, c, fails ? smt_not(e->s, holds) : holds);
    break;
  }
  }
}

Z3_ast enc_segment_formula(enc *e, size_t j, const Z3_ast *x, Z3_ast *y, const char *suffix, enc_terms *fresh,
                           enc_terms *after) {
  const enc_segment *sg = &e->segments.items[j];
  memcpy(y, x, e->var_count * sizeof *y);
  enc_terms c = {0};
  vec_foreach(&sg->edges, i) {
    bool fails = sg->to < 0 && i + 1 == sg->edges.len;
    apply_edge(e, sg->edges.items[i], fails, y, suffix, &c, fresh);
    if (after)
      for (size_t v = 0; v < e->var_count; v++) vec_push(NULL, after, y[v]);
  }
  Z3_ast all = smt_and(e->s, (unsigned)c.len, c.items);
  vec_free(&c);
  return all;
}

/* ---------------------------------------------------------------- proof clauses */

/* Constraints older than the last few are folded into one conjunction every
 * CHUNK, so that a clause ending anywhere on a long path costs O(CHUNK). */
#define CHUNK 64

typedef struct walker {
  enc *e;
  int cut;          /* where the paths start */
  Z3_ast *cur;      /* the values now (V terms) */
  Z3_ast base;      /* the conjunction of the older constraints, or NULL */
  enc_terms recent; /* the constraints since */
  enc_terms fresh;  /* the havoc constants so far */
} walker;

static Z3_ast path_formula(walker *w, Z3_ast last) {
  enc_terms all = {0};
  if (w->base) vec_push(NULL, &all, w->base);
  vec_foreach(&w->recent, i) vec_push(NULL, &all, w->recent.items[i]);
  if (last) vec_push(NULL, &all, last);
  Z3_ast f = smt_and(w->e->s, (unsigned)all.len, all.items);
  vec_free(&all);
  return f;
}

static void add_clause(walker *w, int to, Z3_ast formula) {
  enc_clause c = {.from = w->cut, .to = to, .formula = formula};
  if (to >= 0) {
    c.y = xcalloc(w->e->var_count + 1, sizeof *c.y);
    memcpy(c.y, w->cur, w->e->var_count * sizeof *c.y);
  }
  vec_foreach(&w->fresh, i) vec_push(NULL, &c.fresh, w->fresh.items[i]);
  vec_push(NULL, &w->e->clauses, c);
}

/* Takes edge ed: an assertion adds its error clause and is then assumed. */
static void take(walker *w, int ed) {
  const prog_edge *edge = &w->e->p->edges.items[ed];
  if (edge->action == ACT_ASSERT) {
    smt_env env = {.vars = w->cur};
    Z3_ast holds = smt_expr(w->e->s, edge->expr, &env);
    add_clause(w, -1, path_formula(w, smt_not(w->e->s, holds)));
    vec_push(NULL, &w->recent, holds);
  } else {
    apply_edge(w->e, ed, false, w->cur, NULL, &w->recent, &w->fresh);
  }
  if (w->recent.len < CHUNK) return;
  w->base = path_formula(w, NULL);
  w->recent.len = 0;
}

/* Follows ed; true when it reached a cut point (and added the clause). */
static bool take_and_arrive(walker *w, int ed) {
  take(w, ed);
  int to = w->e->p->edges.items[ed].to;
  if (w->e->cut_of[to] < 0) return false;
  add_clause(w, w->e->cut_of[to], path_formula(w, NULL));
  return true;
}

static void walk_clauses(walker *w, int at);

/* Each branch from a saved state (the recursion is as deep as the branching). */
static void branch(walker *w, const prog_location *l) {
  size_t V = w->e->var_count;
  Z3_ast *saved = xcalloc(V + 1, sizeof *saved), base = w->base;
  enc_terms recent = {0};
  vec_foreach(&w->recent, i) vec_push(NULL, &recent, w->recent.items[i]);
  size_t fresh = w->fresh.len;
  memcpy(saved, w->cur, V * sizeof *saved);
  vec_foreach(&l->out, k) {
    int ed = l->out.items[k];
    if (!take_and_arrive(w, ed)) walk_clauses(w, w->e->p->edges.items[ed].to);
    memcpy(w->cur, saved, V * sizeof *saved);
    w->base = base;
    w->recent.len = 0;
    vec_foreach(&recent, i) vec_push(NULL, &w->recent, recent.items[i]);
    w->fresh.len = fresh;
  }
  vec_free(&recent);
  free(saved);
}

static void walk_clauses(walker *w, int at) {
  for (;;) {
    const prog_location *l = &w->e->p->locs.items[at];
    if (l->out.len == 0) return;
    if (l->out.len > 1) {
      branch(w, l);
      return;
    }
    if (take_and_arrive(w, l->out.items[0])) return;
    at = w->e->p->edges.items[l->out.items[0]].to;
  }
}

const Z3_ast *enc_start(enc *e) {
  if (!e->start) {
    e->start = xcalloc(e->var_count + 1, sizeof *e->start);
    for (size_t v = 0; v < e->var_count; v++) e->start[v] = enc_var(e, (int)v, NULL);
  }
  return e->start;
}

static void find_clauses(enc *e) {
  walker w = {.e = e, .cur = xcalloc(e->var_count + 1, sizeof *w.cur)};
  vec_foreach(&e->cuts, c) {
    w.cut = (int)c;
    memcpy(w.cur, enc_start(e), e->var_count * sizeof *w.cur);
    w.base = NULL;
    w.recent.len = w.fresh.len = 0;
    walk_clauses(&w, e->cuts.items[c]);
  }
  free(w.cur);
  vec_free(&w.recent);
  vec_free(&w.fresh);
}
