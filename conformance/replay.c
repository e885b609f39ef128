/* conformance/replay.c -- a counterexample walked edge by edge (replay.h). */
#include "replay.h"

#include <stdio.h>

/* The value of e before edge i, or true when it cannot be computed (then nothing is checked). */
static bool holds(const prog *p, const ir_expr *e, const int64_t *before, bool *known) {
  int64_t v = 0;
  *known = prog_eval(p, e, before, &v);
  return !*known || v != 0;
}

/* Does edge ed take the values before to after (the last edge: fail)? */
static bool follows(const prog *p, const prog_edge *ed, const int64_t *before, const int64_t *after, bool last) {
  bool known;
  int64_t v;
  switch (ed->action) {
  case ACT_SKIP: return !last;
  case ACT_ASSIGN: return !last && (!prog_eval(p, ed->expr, before, &v) || after[ed->var] == v);
  case ACT_HAVOC: {
    const prog_var *x = &p->vars.items[ed->var];
    return !last && (!x->bounded || (x->lo <= after[ed->var] && after[ed->var] <= x->hi));
  }
  case ACT_ASSUME: return !last && holds(p, ed->expr, before, &known);
  case ACT_ASSERT: return last ? !holds(p, ed->expr, before, &known) || !known : holds(p, ed->expr, before, &known);
  }
  return false;
}

bool replay_trace(const prog *ins, const conform_result *r, char *why, size_t size) {
  size_t w = ins->vars.len;
  int at = ins->entry;
  for (size_t i = 0; i < r->trace_len; i++) {
    const prog_edge *ed = &ins->edges.items[r->trace_edges[i]];
    bool last = i + 1 == r->trace_len;
    if (ed->from != at || !follows(ins, ed, r->trace_values + i * w, r->trace_values + (i + 1) * w, last)) {
      snprintf(why, size, "the counterexample does not replay: its edge %zu of %zu %s", i + 1, r->trace_len,
               ed->from != at ? "does not continue the path" : "does not do what the program says");
      return false;
    }
    at = ed->to;
  }
  if (r->trace_len == 0) snprintf(why, size, "the counterexample is empty");
  return r->trace_len > 0;
}
