/* conformance/encode.c -- cut points, liveness and segment formulas. */
#include "encode.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- cut points */

static void find_cuts(enc *e) {
  const prog *p = e->p;
  int *in = xcalloc(p->locs.len + 1, sizeof *in);
  vec_foreach(&p->edges, k) in[p->edges.items[k].to]++;
  e->cut_of = xcalloc(p->locs.len + 1, sizeof *e->cut_of);
  vec_foreach(&p->locs, l) {
    bool cut = (int)l == p->entry || p->locs.items[l].boundary || in[l] >= 2;
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

/* Adds to at what is live before edge ed (given what is live after it). */
static void live_before(const prog_edge *ed, const bool *after, bool *at, size_t v_count) {
  bool defines = ed->action == ACT_ASSIGN || ed->action == ACT_HAVOC;
  for (size_t v = 0; v < v_count; v++)
    if (after[v] && !(defines && ed->var == (int)v)) at[v] = true;
  if (ed->expr) ir_walk(ed->expr, mark_use, at);
}

/* One backward pass; true when some live set grew. */
static bool liveness_pass(const prog *p, bool *live, bool *scratch, size_t v_count) {
  bool changed = false;
  for (size_t l = p->locs.len; l-- > 0;) {
    bool *at = live + l * v_count;
    memcpy(scratch, at, v_count * sizeof *scratch);
    vec_foreach(&p->locs.items[l].out, k) {
      const prog_edge *ed = &p->edges.items[p->locs.items[l].out.items[k]];
      live_before(ed, live + (size_t)ed->to * v_count, scratch, v_count);
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
  while (liveness_pass(e->p, live, scratch, e->var_count)) continue;
  free(scratch);
  e->live = xcalloc(e->cuts.len * e->var_count + 1, sizeof *e->live);
  vec_foreach(&e->cuts, c) memcpy(e->live + c * e->var_count, live + (size_t)e->cuts.items[c] * e->var_count, e->var_count * sizeof *live);
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
 * predecessor, so every location is walked once per cut point). */
static void walk(enc *e, int cut, int at, int_path *path) {
  vec_foreach(&e->p->locs.items[at].out, k) {
    int ed = e->p->locs.items[at].out.items[k];
    const prog_edge *edge = &e->p->edges.items[ed];
    vec_push(NULL, path, ed);
    if (edge->action == ACT_ASSERT) add_segment(e, cut, -1, path);
    if (e->cut_of[edge->to] >= 0) add_segment(e, cut, e->cut_of[edge->to], path);
    else walk(e, cut, edge->to, path);
    path->len--;
  }
}

static void find_segments(enc *e) {
  int_path path = {0};
  vec_foreach(&e->cuts, c) walk(e, (int)c, e->cuts.items[c], &path);
  vec_free(&path);
}

enc *enc_new(smt *s, const prog *p) {
  enc *e = xcalloc(1, sizeof *e);
  e->s = s;
  e->p = p;
  e->var_count = p->vars.len;
  find_cuts(e);
  find_liveness(e);
  find_segments(e);
  return e;
}

void enc_free(enc *e) {
  if (!e) return;
  vec_foreach(&e->segments, j) vec_free(&e->segments.items[j].edges);
  vec_free(&e->segments);
  vec_free(&e->cuts);
  free(e->cut_of);
  free(e->live);
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

static Z3_ast in_bounds(enc *e, int v, Z3_ast t) {
  const prog_var *pv = &e->p->vars.items[v];
  Z3_ast both[2] = {smt_le(e->s, smt_int(e->s, pv->lo), t), smt_le(e->s, t, smt_int(e->s, pv->hi))};
  return smt_and(e->s, 2, both);
}

/* Applies one edge to the current terms cur; adds its constraint to c. */
static void apply_edge(enc *e, int ed, bool fails, Z3_ast *cur, const char *suffix, enc_terms *c, enc_terms *fresh) {
  const prog_edge *edge = &e->p->edges.items[ed];
  smt_env env = {.vars = cur};
  switch (edge->action) {
  case ACT_SKIP: break;
  case ACT_ASSIGN: cur[edge->var] = smt_expr(e->s, edge->expr, &env); break;
  case ACT_HAVOC: {
    char tag[64];
    snprintf(tag, sizeof tag, "e%d%s%s", ed, suffix ? "@" : "", suffix ? suffix : "");
    Z3_ast t = enc_var(e, edge->var, tag);
    vec_push(NULL, fresh, t);
    if (e->p->vars.items[edge->var].bounded) vec_push(NULL, c, in_bounds(e, edge->var, t));
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

Z3_ast enc_segment_formula(enc *e, size_t j, const Z3_ast *x, Z3_ast *y, const char *suffix, enc_terms *fresh, enc_terms *after) {
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
