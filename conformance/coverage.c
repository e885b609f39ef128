/* conformance/coverage.c -- unused edges and impossible states of T#, by
 * probes on C(T, T#). */
#include "coverage.h"

#include <stdlib.h>
#include <string.h>

#include "../core/smt.h"
#include "instrument.h"

/* One kind of probe over C(T, T#): which check its assertions carry and how
 * many there are (their details are 0 .. count-1). */
typedef struct probe_kind {
  prog_check check;              /* CHECK_EDGE_UNUSED or CHECK_STATE_UNUSED */
  size_t count;                  /* probes */
  const ins_state_probe *states; /* CHECK_STATE_UNUSED: what each asserts */
  bool *passed;                  /* CHECK_STATE_UNUSED: out, the probes a counterexample shows possible, or NULL */
} probe_kind;

/* The probe that edge i of p's trace r passes, or -1. */
static int probe_of(const prog *p, const probe_kind *k, const conform_result *r, size_t i) {
  const prog_edge *ed = &p->edges.items[r->trace_edges[i]];
  return ed->action == ACT_ASSERT && ed->check == k->check ? ed->detail : -1;
}

/* Clears each probe the trace shows can fail: each one whose assertion is
 * false where the trace passes it, and the failing one at its end (the
 * replayed counterexample). False when the trace ends elsewhere. */
static bool mark_failing(const prog *p, const probe_kind *k, const conform_result *r, bool *probe) {
  size_t w = p->vars.len;
  for (size_t i = 0; i + 1 < r->trace_len; i++) {
    int n = probe_of(p, k, r, i);
    int64_t v = 1;
    if (n >= 0 && prog_eval(p, p->edges.items[r->trace_edges[i]].expr, r->trace_values + i * w, &v) && !v)
      probe[n] = false;
  }
  int last = r->trace_len ? probe_of(p, k, r, r->trace_len - 1) : -1;
  if (last >= 0) probe[last] = false;
  return last >= 0;
}

/* Per state of T#, its variable F_q in p. */
static int *candidate_vars(const prog *p, size_t states) {
  int *cand = xcalloc(states + 1, sizeof *cand);
  vec_foreach(&p->vars, v)
    if (p->vars.items[v].kind == VAR_CAND) cand[p->vars.items[v].state_index] = (int)v;
  return cand;
}

/* Sets k->passed for every state probe, asked or not, that trace r shows
 * possible: where the trace takes a code edge leaving the probe's location
 * (where the probe stands), F_q holds and the shared values are the
 * probe's. (A probe with a condition is left to the checks.) */
static void mark_passed(const prog *p, const cov_input *in, const probe_kind *k, const conform_result *r) {
  size_t w = p->vars.len, shared = in->spec->shared.len;
  int *cand = candidate_vars(p, in->thread->states.len);
  for (size_t i = 0; i < r->trace_len; i++) {
    const prog_edge *ed = &p->edges.items[r->trace_edges[i]];
    if (ed->role != ROLE_CODE || ed->step < 0) continue;
    int from = in->code->edges.items[ed->step].from;
    const int64_t *v = r->trace_values + i * w;
    for (size_t n = 0; n < k->count; n++) {
      const ins_state_probe *sp = &k->states[n];
      if (sp->location != from || sp->when || !v[cand[sp->state]]) continue;
      if (!sp->shared || memcmp(v, sp->shared, shared * sizeof *v) == 0) k->passed[n] = true;
    }
  }
  free(cand);
}

static bool any(const bool *probe, size_t n) {
  for (size_t k = 0; k < n; k++)
    if (probe[k]) return true;
  return false;
}

/* One check of C(T, T#) with the probes left: 1 when they all hold (copied
 * to holding), 0 when a trace showed some fail (cleared from probe), -1
 * when the engine gave no answer. */
static int one_round(const cov_input *in, const conform_options *o, const probe_kind *k, bool *probe, bool *holding) {
  ins_probes probes = {
      .edges = k->states ? NULL : probe, .states = k->states, .asked = probe, .state_count = k->states ? k->count : 0};
  prog *p = ins_build_probed(in->code, in->spec, in->thread, in->env, in->initial_checked, &probes);
  conform_result r;
  conform_check(p, o, &r);
  int outcome = r.verdict == CONFORM_HOLDS                                       ? 1
                : r.verdict == CONFORM_VIOLATED && mark_failing(p, k, &r, probe) ? 0
                                                                                 : -1;
  if (outcome == 1) memcpy(holding, probe, k->count * sizeof *holding);
  if (outcome == 0 && k->passed) mark_passed(p, in, k, &r);
  conform_result_free(&r);
  prog_free(p);
  return outcome;
}

/* holding := the probes of asked proved to hold, round after round until
 * none is left to try; false when the search stopped early. */
static bool holding_probes(const cov_input *in, const conform_options *o, const probe_kind *k, const bool *asked,
                           bool *holding) {
  bool *probe = xcalloc(k->count + 1, sizeof *probe);
  memcpy(probe, asked, k->count * sizeof *probe);
  memset(holding, 0, k->count * sizeof *holding);
  int outcome = 0;
  while (outcome == 0 && any(probe, k->count) && !smt_deadline_passed(o->deadline))
    outcome = one_round(in, o, k, probe, holding);
  bool complete = outcome == 1 || (outcome == 0 && !any(probe, k->count));
  free(probe);
  return complete;
}

bool cov_unused_edges(const cov_input *in, const conform_options *o, bool *unused) {
  probe_kind k = {CHECK_EDGE_UNUSED, in->thread->edges.len, NULL, NULL};
  bool *all = xcalloc(k.count + 1, sizeof *all);
  memset(all, 1, k.count * sizeof *all);
  bool complete = holding_probes(in, o, &k, all, unused);
  free(all);
  return complete;
}

int cov_state_round(const cov_input *in, const conform_options *o, const ins_state_probe *probes, size_t count,
                    bool *asked, bool *passed) {
  probe_kind k = {CHECK_STATE_UNUSED, count, probes, passed};
  bool *holding = xcalloc(count + 1, sizeof *holding);
  int outcome = one_round(in, o, &k, asked, holding);
  free(holding);
  return outcome;
}
