/* conformance/conform.c -- picking an engine for C(T, T#) and running it. */
#include "conform.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engines.h"

/* The most segments a bounded search walks to find the trace of a
 * violation that Spacer proved reachable. */
#define TRACE_SEARCH_DEPTH 100000u

double conform_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

Z3_solver engine_solver(smt *s, double deadline, bool horn) {
  Z3_context c = smt_z3(s);
  Z3_solver sv = horn ? Z3_mk_solver_for_logic(c, Z3_mk_string_symbol(c, "HORN")) : Z3_mk_solver(c);
  Z3_solver_inc_ref(c, sv);
  Z3_params p = Z3_mk_params(c);
  Z3_params_inc_ref(c, p);
  if (deadline > 0) {
    double left = deadline - conform_now();
    Z3_params_set_uint(c, p, Z3_mk_string_symbol(c, "timeout"), left > 0.001 ? (unsigned)(left * 1000) : 1);
  }
  if (horn) { /* keep one predicate per cut point, so the invariant reads per location */
    Z3_params_set_bool(c, p, Z3_mk_string_symbol(c, "fp.xform.slice"), false);
    Z3_params_set_bool(c, p, Z3_mk_string_symbol(c, "fp.xform.inline_linear"), false);
    Z3_params_set_bool(c, p, Z3_mk_string_symbol(c, "fp.xform.inline_eager"), false);
  }
  Z3_solver_set_params(c, sv, p);
  Z3_params_dec_ref(c, p);
  return sv;
}

/* The most segments on a path, or -1 when the segments form a cycle. */
static long longest_path(const enc *e) {
  size_t n = e->cuts.len;
  long *depth = xcalloc(n + 1, sizeof *depth);
  long best = 0;
  /* Bellman-Ford style relaxation: more than n rounds of growth means a cycle. */
  for (size_t round = 0; round <= n; round++) {
    bool grew = false;
    vec_foreach(&e->segments, j) {
      const enc_segment *sg = &e->segments.items[j];
      long through = depth[sg->from] + 1;
      if (through > best) best = through;
      if (sg->to >= 0 && through > depth[sg->to]) depth[sg->to] = through, grew = true;
    }
    if (!grew) {
      free(depth);
      return best;
    }
  }
  free(depth);
  return -1;
}

static void set_verdict(conform_result *r, int outcome) {
  r->verdict = outcome == 1 ? CONFORM_HOLDS : outcome == 0 ? CONFORM_VIOLATED : CONFORM_UNKNOWN;
}

static void run_bmc(enc *e, const conform_options *o, long longest, conform_result *r) {
  r->engine = "bmc";
  unsigned bound = o->bound ? o->bound : longest >= 0 ? (unsigned)longest : 50;
  int found = bmc_search(e, bound, o->deadline, r);
  bool complete = longest >= 0 && bound >= (unsigned)longest;
  if (found == 1) set_verdict(r, 0);
  else if (found == 0 && complete) set_verdict(r, 1);
  else {
    set_verdict(r, -1);
    if (found == 0 && longest < 0)
      snprintf(r->reason, sizeof r->reason, "no violation within %u segments (the code has a loop; use --engine chc for a proof)", bound);
    else if (found == 0)
      snprintf(r->reason, sizeof r->reason, "no violation within %u segments (the longest path has %ld)", bound, longest);
  }
}

static void run_chc(enc *e, const conform_options *o, conform_result *r) {
  r->engine = "chc";
  int outcome = chc_prove(e, o->deadline, o->certificate ? &r->certificate : NULL, r->reason, sizeof r->reason);
  if (outcome != 0) {
    set_verdict(r, outcome);
    return;
  }
  /* Spacer says a failing assertion is reachable: find the path. */
  int found = bmc_search(e, TRACE_SEARCH_DEPTH, o->deadline, r);
  set_verdict(r, found == 1 ? 0 : -1);
  if (found != 1) snprintf(r->reason, sizeof r->reason, "Spacer found a violation but no trace was found in time");
}

void conform_check(const prog *ins, const conform_options *o, conform_result *r) {
  memset(r, 0, sizeof *r);
  double start = conform_now();
  smt *s = smt_new();
  enc *e = enc_new(s, ins);
  r->cut_count = e->cuts.len;
  r->segment_count = e->segments.len;
  long longest = longest_path(e);
  conform_engine engine = o->engine;
  if (engine == CONFORM_AUTO) {
    engine = longest >= 0 ? CONFORM_BMC : CONFORM_CHC;
    snprintf(r->why, sizeof r->why, "%s", longest >= 0 ? "no loops: a bounded search covers every path" : "the code has loops: Spacer finds the invariant");
  } else {
    snprintf(r->why, sizeof r->why, "chosen with --engine");
  }
  if (engine == CONFORM_BMC) run_bmc(e, o, longest, r);
  else run_chc(e, o, r);
  if (smt_failed(s) && r->verdict != CONFORM_UNKNOWN) {
    r->verdict = CONFORM_UNKNOWN;
    snprintf(r->reason, sizeof r->reason, "Z3 reported an error: %s", smt_error(s));
  }
  enc_free(e);
  smt_free(s);
  r->seconds = conform_now() - start;
}

void conform_result_free(conform_result *r) {
  free(r->certificate);
  free(r->trace_edges);
  free(r->trace_values);
  r->certificate = NULL;
  r->trace_edges = NULL;
  r->trace_values = NULL;
}

char *conform_smt2(const prog *ins) {
  smt *s = smt_new();
  enc *e = enc_new(s, ins);
  char *text = chc_smt2(e);
  enc_free(e);
  smt_free(s);
  return text;
}
