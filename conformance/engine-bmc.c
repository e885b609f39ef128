/* conformance/engine-bmc.c -- bounded model checking of C(T, T#) over its
 * segments, one incremental solver (push/pop per depth), and the trace read
 * back edge by edge from the model.
 *
 * Depth k has the variables X_k, the cut point pc_k and, for the step to
 * k+1, the segment taken sel_k.
 */
#include "engines.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/smt-drive.h"

typedef struct bmc {
  enc *e;
  Z3_context c;
  conform_result *r;    /* receives the trace */
  double deadline;      /* the search's (smt_now seconds, 0 for none) */
  bool small;           /* make the trace's values small */
  VEC(Z3_ast *) frames; /* X_k */
  enc_terms pcs;        /* pc_k */
  enc_terms sels;       /* sel_k; the last is the failing segment */
  bool *reach;          /* per cut: some path of the current depth may be there */
  bool *next;           /* the same for the next depth */
} bmc;

static Z3_ast frame(bmc *b, unsigned k) {
  char tag[24];
  snprintf(tag, sizeof tag, "%u", k);
  Z3_ast *x = xcalloc(b->e->var_count + 1, sizeof *x);
  for (size_t v = 0; v < b->e->var_count; v++) x[v] = enc_var(b->e, (int)v, tag);
  vec_push(NULL, &b->frames, x);
  snprintf(tag, sizeof tag, "pc@%u", k);
  vec_push(NULL, &b->pcs, smt_var(b->e->s, tag, false));
  snprintf(tag, sizeof tag, "sel@%u", k);
  vec_push(NULL, &b->sels, smt_var(b->e->s, tag, false));
  return b->pcs.items[k];
}

static Z3_ast is(bmc *b, Z3_ast t, int64_t v) { return smt_eq(b->e->s, t, smt_int(b->e->s, v)); }

/* Segment j from depth k, with its selector; error segments end there. */
static Z3_ast taken(bmc *b, size_t j, unsigned k) {
  enc *e = b->e;
  const enc_segment *sg = &e->segments.items[j];
  char tag[24];
  snprintf(tag, sizeof tag, "%u", k);
  Z3_ast *y = xcalloc(e->var_count + 1, sizeof *y);
  enc_terms c = {0}, fresh = {0};
  vec_push(NULL, &c, is(b, b->sels.items[k], (int64_t)j));
  vec_push(NULL, &c, is(b, b->pcs.items[k], sg->from));
  vec_push(NULL, &c, enc_segment_formula(e, j, b->frames.items[k], y, tag, &fresh, NULL));
  if (sg->to >= 0) {
    vec_push(NULL, &c, is(b, b->pcs.items[k + 1], sg->to));
    for (size_t v = 0; v < e->var_count; v++) vec_push(NULL, &c, smt_eq(e->s, b->frames.items[k + 1][v], y[v]));
  }
  Z3_ast all = smt_and(e->s, (unsigned)c.len, c.items);
  vec_free(&c);
  vec_free(&fresh);
  free(y);
  return all;
}

/* Only segments from cut points a path of depth k can be at: straight-line
 * code then adds a few segments per depth, not all of them. */
static Z3_ast some_segment(bmc *b, unsigned k, bool errors) {
  enc_terms alt = {0};
  vec_foreach(&b->e->segments, j) {
    const enc_segment *sg = &b->e->segments.items[j];
    if ((sg->to < 0) != errors || !b->reach[sg->from]) continue;
    vec_push(NULL, &alt, taken(b, j, k));
    if (sg->to >= 0) b->next[sg->to] = true;
  }
  Z3_ast any = smt_or(b->e->s, (unsigned)alt.len, alt.items);
  vec_free(&alt);
  return any;
}

/* ---------------------------------------------------------------- the trace */

static void record(bmc *b, Z3_model m, const Z3_ast *terms, int64_t *out) {
  for (size_t v = 0; v < b->e->var_count; v++) {
    out[v] = 0;
    smt_model_value(b->e->s, m, terms[v], &out[v]);
  }
}

/* Re-encodes the segments taken (same names, so the same terms) and reads
 * the values after every edge. */
static void read_trace(bmc *b, Z3_model m, unsigned depth, conform_result *r) {
  enc *e = b->e;
  size_t V = e->var_count, len = 0;
  int64_t *sel = xcalloc(depth + 2, sizeof *sel);
  for (unsigned k = 0; k <= depth; k++) {
    smt_model_value(e->s, m, b->sels.items[k], &sel[k]);
    len += e->segments.items[sel[k]].edges.len;
  }
  r->trace_len = len;
  r->trace_edges = xcalloc(len + 1, sizeof *r->trace_edges);
  r->trace_values = xcalloc((len + 1) * V, sizeof *r->trace_values);
  record(b, m, b->frames.items[0], r->trace_values);
  size_t at = 0;
  Z3_ast *y = xcalloc(V + 1, sizeof *y);
  for (unsigned k = 0; k <= depth; k++) {
    char tag[24];
    snprintf(tag, sizeof tag, "%u", k);
    enc_terms fresh = {0}, after = {0};
    enc_segment_formula(e, (size_t)sel[k], b->frames.items[k], y, tag, &fresh, &after);
    const enc_segment *sg = &e->segments.items[sel[k]];
    vec_foreach(&sg->edges, i) {
      r->trace_edges[at] = sg->edges.items[i];
      record(b, m, after.items + i * V, r->trace_values + (at + 1) * V);
      at++;
    }
    vec_free(&fresh);
    vec_free(&after);
  }
  free(y);
  free(sel);
}

/* ---------------------------------------------------------------- search */

/* The initial cut point (k = 0), or the step from depth k - 1 to k; false
 * when no path is that long. */
static bool extend(void *ctx, Z3_solver s, unsigned k) {
  bmc *b = ctx;
  if (k == 0) {
    b->reach[b->e->cut_of[b->e->p->entry]] = true;
    Z3_solver_assert(b->c, s, is(b, frame(b, 0), b->e->cut_of[b->e->p->entry]));
    return true;
  }
  frame(b, k);
  memset(b->next, 0, b->e->cuts.len * sizeof *b->next);
  Z3_solver_assert(b->c, s, some_segment(b, k - 1, false));
  bool *t = b->reach;
  b->reach = b->next;
  b->next = t;
  for (size_t c = 0; c < b->e->cuts.len; c++)
    if (b->reach[c]) return true;
  return false;
}

/* A failing segment from depth k. */
static Z3_ast fails_at(void *ctx, unsigned k) { return some_segment(ctx, k, true); }

/* The havocs of segment j from depth k (same names as in the formula, so
 * the same terms), each with the value it overwrites. */
static void havocs(bmc *b, size_t j, unsigned k, enc_terms *inputs, enc_terms *near) {
  enc *e = b->e;
  size_t V = e->var_count, f = 0;
  char tag[24];
  snprintf(tag, sizeof tag, "%u", k);
  Z3_ast *y = xcalloc(V + 1, sizeof *y);
  enc_terms fresh = {0}, after = {0};
  enc_segment_formula(e, j, b->frames.items[k], y, tag, &fresh, &after);
  const enc_segment *sg = &e->segments.items[j];
  vec_foreach(&sg->edges, i) {
    const prog_edge *ed = &e->p->edges.items[sg->edges.items[i]];
    if (f == fresh.len || ed->action != ACT_HAVOC || after.items[i * V + (size_t)ed->var] != fresh.items[f]) continue;
    vec_push(NULL, inputs, fresh.items[f++]);
    vec_push(NULL, near, i ? after.items[(i - 1) * V + (size_t)ed->var] : b->frames.items[k][ed->var]);
  }
  vec_free(&fresh);
  vec_free(&after);
  free(y);
}

/* The path in m with small values (smt_small_model): the values at depth
 * 0, and every havoc of the segments taken as its change; the segments stay. */
static Z3_model small_model(bmc *b, Z3_solver s, Z3_model m, unsigned depth) {
  enc *e = b->e;
  enc_terms inputs = {0}, near = {0};
  for (size_t v = 0; v < e->var_count; v++) {
    vec_push(NULL, &inputs, b->frames.items[0][v]);
    vec_push(NULL, &near, NULL);
  }
  for (unsigned k = 0; k <= depth; k++) {
    int64_t sel = 0;
    smt_model_value(e->s, m, b->sels.items[k], &sel);
    havocs(b, (size_t)sel, k, &inputs, &near);
  }
  smt_small want = {inputs.items, near.items, inputs.len, b->sels.items, depth + 1};
  Z3_model small = smt_small_model(e->s, s, m, b->deadline, &want);
  vec_free(&inputs);
  vec_free(&near);
  return small;
}

static smt_bmc_answer reached(void *ctx, Z3_solver s, Z3_model m, unsigned k) {
  bmc *b = ctx;
  if (!b->small) {
    read_trace(b, m, k, b->r);
    return SMT_BMC_DONE;
  }
  Z3_model small = small_model(b, s, m, k);
  read_trace(b, small, k, b->r);
  Z3_model_dec_ref(b->c, small);
  return SMT_BMC_DONE;
}

int bmc_search(enc *e, unsigned bound, double deadline, bool small, conform_result *r) {
  bmc b = {.e = e, .c = smt_z3(e->s), .r = r, .deadline = deadline, .small = small};
  b.reach = xcalloc(e->cuts.len + 1, sizeof *b.reach);
  b.next = xcalloc(e->cuts.len + 1, sizeof *b.next);
  smt_bmc_steps steps = {extend, fails_at, reached, &b};
  int found = smt_bmc(e->s, bound, deadline, &steps, &r->depth, r->reason, sizeof r->reason);
  free(b.reach);
  free(b.next);
  vec_foreach(&b.frames, k) free(b.frames.items[k]);
  vec_free(&b.frames);
  vec_free(&b.pcs);
  vec_free(&b.sels);
  return found;
}
