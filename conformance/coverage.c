/* conformance/coverage.c -- unused edges of T#, by probes on C(T, T#). */
#include "coverage.h"

#include <stdlib.h>
#include <string.h>

#include "../core/smt.h"
#include "instrument.h"

/* The probe that edge i of p's trace r passes (its edge of T#), or -1. */
static int probe_of(const prog *p, const conform_result *r, size_t i) {
  const prog_edge *ed = &p->edges.items[r->trace_edges[i]];
  return ed->action == ACT_ASSERT && ed->check == CHECK_EDGE_UNUSED ? ed->detail : -1;
}

/* Clears probe[k] for every edge the trace shows used: each probe whose
 * assertion is false where the trace passes it, and the failing one at its
 * end (the replayed counterexample). False when the trace ends elsewhere. */
static bool mark_used(const prog *p, const conform_result *r, bool *probe) {
  size_t w = p->vars.len;
  for (size_t i = 0; i + 1 < r->trace_len; i++) {
    int k = probe_of(p, r, i);
    int64_t v = 1;
    if (k >= 0 && prog_eval(p, p->edges.items[r->trace_edges[i]].expr, r->trace_values + i * w, &v) && !v)
      probe[k] = false;
  }
  int last = r->trace_len ? probe_of(p, r, r->trace_len - 1) : -1;
  if (last >= 0) probe[last] = false;
  return last >= 0;
}

static bool any(const bool *probe, size_t n) {
  for (size_t k = 0; k < n; k++)
    if (probe[k]) return true;
  return false;
}

/* One check of C(T, T#) with the probes left: 1 when they all hold (copied
 * to unused), 0 when a trace showed some used (cleared from probe), -1
 * when the engine gave no answer. */
static int one_round(const cov_input *in, const conform_options *o, bool *probe, bool *unused) {
  size_t n = in->thread->edges.len;
  prog *p = ins_build_probed(in->code, in->spec, in->thread, in->env, in->initial_checked, probe);
  conform_result r;
  conform_check(p, o, &r);
  int outcome = r.verdict == CONFORM_HOLDS ? 1 : r.verdict == CONFORM_VIOLATED && mark_used(p, &r, probe) ? 0 : -1;
  if (outcome == 1) memcpy(unused, probe, n * sizeof *unused);
  conform_result_free(&r);
  prog_free(p);
  return outcome;
}

bool cov_unused_edges(const cov_input *in, const conform_options *o, bool *unused) {
  size_t n = in->thread->edges.len;
  bool *probe = xcalloc(n + 1, sizeof *probe);
  memset(unused, 0, n * sizeof *unused);
  for (size_t k = 0; k < n; k++) probe[k] = true;
  int outcome = 0;
  while (outcome == 0 && any(probe, n) && !smt_deadline_passed(o->deadline))
    outcome = one_round(in, o, probe, unused);
  bool complete = outcome == 1 || (outcome == 0 && !any(probe, n));
  free(probe);
  return complete;
}
