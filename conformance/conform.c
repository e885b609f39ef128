/* conformance/conform.c -- picking an engine for C(T, T#) and running it. */
#include "conform.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engines.h"
#include "lemmas.h"
#include "replay.h"
#include "../core/interrupt.h"

/* The most segments a bounded search walks to find the trace of a
 * violation that Spacer proved reachable. */
#define TRACE_SEARCH_DEPTH 100000u
/* How deep the search goes when Spacer gives up: far enough for short violations, quickly refuted. */
#define FALLBACK_DEPTH 40u
/* Engine auto on code with loops: Spacer's time on one problem varies from
 * a fraction of a second to hours with its random seed, so it runs with
 * seeds 0, 1, ... within SPACER_SLICE units of Z3's resource limit (about a
 * second), then twice as many, and so on; the last of SPACER_SEEDS runs is
 * not limited. After the first run, a bounded search QUICK_DEPTH deep within
 * QUICK_RLIMIT per query (Spacer can take long to find a short violation
 * through the environment's moves on C's integers, which such a search finds
 * at once). Resource limits, not time: the same verdict and trace on every
 * machine and under any load. */
#define SPACER_SLICE 2000000u
#define SPACER_SEEDS 6u
#define QUICK_DEPTH 24u
#define QUICK_RLIMIT 2000000u
/* With search_first, a shallower search before Spacer: short violations cost
 * little to find, and a program that conforms pays little for the search. */
#define FIRST_DEPTH 12u

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

/* Whether the program's graph has a cycle: a depth-first search from every
 * location, with an explicit stack (chains are as long as the code). */
static bool has_loop(const prog *p) {
  size_t n = p->locs.len;
  unsigned char *colour = xcalloc(n + 1, 1); /* 0 unseen, 1 on the stack, 2 done */
  size_t *at = xcalloc(n + 1, sizeof *at), *next = xcalloc(n + 1, sizeof *next);
  bool loop = false;
  for (size_t root = 0; root < n && !loop; root++) {
    if (colour[root]) continue;
    size_t depth = 0;
    at[depth++] = root, colour[root] = 1;
    while (depth > 0 && !loop) {
      size_t l = at[depth - 1];
      if (next[l] == p->locs.items[l].out.len) {
        colour[l] = 2, depth--;
        continue;
      }
      size_t to = (size_t)p->edges.items[p->locs.items[l].out.items[next[l]++]].to;
      loop = colour[to] == 1;
      if (!colour[to]) at[depth++] = to, colour[to] = 1;
    }
  }
  free(colour);
  free(at);
  free(next);
  return loop;
}

/* The trace encoding (a segment per step), made when a search first needs
 * it: a proof needs none, and on long code it costs as much as the proof's. */
typedef struct traces {
  smt *s;        /* borrowed */
  const prog *p; /* borrowed */
  enc *e;        /* NULL until a search needs it */
} traces;

static enc *segments(traces *t) {
  if (!t->e) t->e = enc_new(t->s, t->p, true);
  return t->e;
}

static void set_verdict(conform_result *r, int outcome) {
  r->verdict = outcome == 1 ? CONFORM_HOLDS : outcome == 0 ? CONFORM_VIOLATED : CONFORM_UNKNOWN;
}

/* Sets r's counts from the trace encoding (when no proof encoding did). */
static void count_segments(const enc *e, conform_result *r) {
  r->cut_count = e->cuts.len;
  r->segment_count = e->segments.len;
}

static void run_bmc(traces *t, const conform_options *o, conform_result *r) {
  r->engine = "bmc";
  enc *e = segments(t);
  count_segments(e, r);
  long longest = longest_path(e);
  unsigned bound = o->bound ? o->bound : longest >= 0 ? (unsigned)longest : 50;
  int found = bmc_search(e, bound, o->deadline, !o->unseen, r);
  bool complete = longest >= 0 && bound >= (unsigned)longest;
  if (found == 1) set_verdict(r, 0);
  else if (found == 0 && complete) set_verdict(r, 1);
  else {
    set_verdict(r, -1);
    if (found == 0 && longest < 0)
      snprintf(r->reason, sizeof r->reason,
               "no violation within %u segments (the code has a loop; use --engine chc for a proof)", bound);
    else if (found == 0)
      snprintf(r->reason, sizeof r->reason, "no violation within %u segments (the longest path has %ld)", bound,
               longest);
  }
}

/* Spacer gave up (nonlinear arithmetic, say) before the deadline: a
 * bounded search may still find a violation, which needs no invariant. */
static void search_after_spacer(smt *s, traces *t, const conform_options *o, conform_result *r) {
  char gave_up[sizeof r->reason];
  snprintf(gave_up, sizeof gave_up, "%s", r->reason);
  if (smt_failed(s)) return set_verdict(r, -1);
  int found = bmc_search(segments(t), FALLBACK_DEPTH, o->deadline, !o->unseen, r);
  set_verdict(r, found == 1 ? 0 : -1);
  if (found == 1) {
    r->engine = "bmc";
    snprintf(r->why, sizeof r->why, "%.100s; a bounded search found the violation", gave_up);
  } else if (found == 0) {
    snprintf(r->reason, sizeof r->reason, "%.200s; no violation within %u segments either", gave_up, FALLBACK_DEPTH);
  }
}

static bool deadline_passed(const conform_options *o) {
  return o->deadline > 0 && smt_now() >= o->deadline - SMT_CHECK_SLACK;
}

/* Ctrl-C or the deadline: no further attempt may start. */
static bool out_of_time(const conform_options *o) { return interrupt_requested() || deadline_passed(o); }

/* The bounded search between Spacer's runs; true when it found a violation. */
static bool quick_search(smt *s, traces *t, const conform_options *o, unsigned depth, const char *why,
                         conform_result *r) {
  smt_set_rlimit(s, QUICK_RLIMIT);
  int found = bmc_search(segments(t), depth, o->deadline, !o->unseen, r);
  smt_set_rlimit(s, 0);
  if (found != 1) return false;
  r->engine = "bmc";
  set_verdict(r, 0);
  snprintf(r->why, sizeof r->why, "%s", why);
  return true;
}

/* The proof encoding, made at the first attempt of Spacer and shared by the
 * next ones (it is the same every time), and its lemmas (lemmas.h), tried
 * at the first attempt only. */
typedef struct proof {
  enc *blocks;    /* NULL until the first attempt */
  lemmas *lemmas; /* the guess from templates for blocks, or NULL: already tried */
} proof;

static enc *proof_blocks(smt *s, const prog *p, const conform_options *o, proof *pf) {
  if (!pf->blocks) {
    pf->blocks = enc_new(s, p, false);
    pf->lemmas = lemmas_new(pf->blocks, o->deadline);
  }
  return pf->blocks;
}

static void proof_free(proof *pf) {
  enc_free(pf->blocks);
  lemmas_free(pf->lemmas);
}

/* fallback: when Spacer gives up, a bounded search (not within a limited attempt). */
static void run_chc(smt *s, traces *t, const conform_options *o, bool fallback, proof *pf, conform_result *r) {
  r->engine = "chc";
  enc *blocks = proof_blocks(s, t->p, o, pf);
  r->cut_count = blocks->cuts.len;
  r->segment_count = blocks->clauses.len;
  int outcome = chc_prove(blocks, pf->lemmas, o->deadline, o->certificate ? &r->certificate : NULL, &r->certificate_c,
                          r->reason, sizeof r->reason);
  lemmas_free(pf->lemmas); /* they proved it or failed the re-check: no use in the next attempts */
  pf->lemmas = NULL;
  if (outcome == -1 && fallback && !out_of_time(o)) {
    search_after_spacer(s, t, o, r);
    return;
  }
  if (outcome != 0) {
    set_verdict(r, outcome);
    return;
  }
  /* Spacer says a failing assertion is reachable: find the path. */
  int found = bmc_search(segments(t), TRACE_SEARCH_DEPTH, o->deadline, !o->unseen, r);
  set_verdict(r, found == 1 ? 0 : -1);
  if (found != 1) snprintf(r->reason, sizeof r->reason, "Spacer found a violation but no trace was found in time");
}

static void reset_result(conform_result *r, const char *why) {
  conform_result_free(r);
  r->verdict = CONFORM_UNKNOWN;
  r->reason[0] = '\0';
  snprintf(r->why, sizeof r->why, "%s", why);
}

static void run_portfolio(smt *s, traces *t, const conform_options *o, proof *pf, conform_result *r) {
  char why[sizeof r->why];
  snprintf(why, sizeof why, "%s", r->why);
  unsigned slice = SPACER_SLICE;
  unsigned seeds = o->brief ? 1 : SPACER_SEEDS;
  if (o->search_first &&
      quick_search(s, t, o, FIRST_DEPTH, "a bounded search first (the paper's environment has a violation): found", r))
    return;
  for (unsigned seed = 0; seed < seeds; seed++, slice *= 2) {
    bool last = seed + 1 == SPACER_SEEDS;
    smt_set_horn_seed(s, seed);
    smt_set_rlimit(s, last ? 0 : slice);
    run_chc(s, t, o, last, pf, r);
    smt_set_rlimit(s, 0);
    if (r->verdict != CONFORM_UNKNOWN || out_of_time(o) || last || o->brief) return;
    reset_result(r, why);
    if (seed == 0 && quick_search(s, t, o, QUICK_DEPTH, "Spacer took long; a bounded search found the violation", r))
      return;
  }
}

void conform_check(const prog *ins, const conform_options *o, conform_result *r) {
  memset(r, 0, sizeof *r);
  double start = smt_now();
  smt *s = smt_new();
  smt_set_progress(s, o->progress);
  smt_watch *w = smt_watch_start(s, o->deadline);
  traces t = {.s = s, .p = ins};
  bool loops = has_loop(ins);
  conform_engine engine = o->engine;
  if (engine == CONFORM_AUTO) {
    engine = loops ? CONFORM_CHC : CONFORM_BMC;
    snprintf(r->why, sizeof r->why, "%s",
             loops ? "the code has loops: a proof needs an inductive invariant (guessed from templates, else found by Spacer)" : "no loops: a bounded search covers every path");
  } else {
    snprintf(r->why, sizeof r->why, "chosen with --engine");
  }
  proof pf = {0};
  if (engine == CONFORM_BMC) run_bmc(&t, o, r);
  else if (o->engine == CONFORM_AUTO) run_portfolio(s, &t, o, &pf, r);
  else run_chc(s, &t, o, true, &pf, r);
  proof_free(&pf);
  if (r->cut_count == 0 && t.e) count_segments(t.e, r); /* a search found a violation before any proof attempt */
  if (smt_failed(s) && r->verdict != CONFORM_UNKNOWN) {
    r->verdict = CONFORM_UNKNOWN;
    snprintf(r->reason, sizeof r->reason, "Z3 reported an error: %s", smt_error(s));
  }
  smt_watch_stop(w);
  if (r->verdict == CONFORM_VIOLATED && !replay_trace(ins, r, r->reason, sizeof r->reason))
    r->verdict = CONFORM_UNKNOWN; /* an internal error: never report a violation that the program does not have */
  if (r->verdict == CONFORM_UNKNOWN && interrupt_requested())
    snprintf(r->reason, sizeof r->reason, "%s", INTERRUPT_REASON);
  else if (r->verdict == CONFORM_UNKNOWN && deadline_passed(o))
    snprintf(r->reason, sizeof r->reason, "the time limit (--timeout) was reached");
  enc_free(t.e);
  smt_free(s);
  r->seconds = smt_now() - start;
}

void conform_result_free(conform_result *r) {
  free(r->certificate);
  free(r->certificate_c);
  free(r->trace_edges);
  free(r->trace_values);
  r->certificate = r->certificate_c = NULL;
  r->trace_edges = NULL;
  r->trace_values = NULL;
}

char *conform_smt2(const prog *ins) {
  smt *s = smt_new();
  enc *e = enc_new(s, ins, false);
  char *text = chc_smt2(e);
  enc_free(e);
  smt_free(s);
  return text;
}
