/* conformance/report.c -- verdicts and counterexamples of `athread conform`. */
#include "report.h"

#include <stdlib.h>
#include <string.h>

#include "trace.h"
#include "../core/json-text.h"

const char *report_verdict_text(conform_verdict v) {
  return v == CONFORM_HOLDS ? "conforms" : v == CONFORM_VIOLATED ? "does not conform" : "unknown";
}

/* ---------------------------------------------------------------- values */

static void value_text(const prog_var *v, int64_t x, strbuf *out) {
  if (v->type == TY_BOOL) sbuf_puts(out, x ? "true" : "false");
  else sbuf_printf(out, "%lld", (long long)x);
}

/* "g = 1, b = true": every variable of the kind (changed ones only when before is given). */
static void values_text(const prog *p, prog_var_kind kind, const int64_t *before, const int64_t *now, strbuf *out) {
  bool first = true;
  vec_foreach(&p->vars, v) {
    const prog_var *pv = &p->vars.items[v];
    if (pv->kind != kind || (before && before[v] == now[v])) continue;
    sbuf_printf(out, "%s%s = ", first ? "" : ", ", pv->display);
    value_text(pv, now[v], out);
    first = false;
  }
}

static void candidates_text(const prog *p, const int64_t *now, strbuf *out) {
  sbuf_putc(out, '{');
  bool first = true;
  vec_foreach(&p->vars, v)
    if (p->vars.items[v].kind == VAR_CAND && now[v]) {
      sbuf_printf(out, "%s%s", first ? "" : ", ", p->vars.items[v].display + 2);
      first = false;
    }
  sbuf_putc(out, '}');
}

/* "a.c:6:3", or nothing when o has no source. */
static void origin_place(const prog *p, prog_origin o, strbuf *out) {
  const char *file;
  size_t line;
  if (prog_origin_line(p, o, &file, &line)) sbuf_printf(out, "%s:%zu:%zu", file, line, prog_origin_column(p, o));
}

static void where_text(const prog *p, prog_origin o, strbuf *out) {
  size_t len = out->len;
  origin_place(p, o, out);
  if (out->len == len) return;
  sbuf_puts(out, ": ");
  prog_origin_text(p, o, out);
}

/* ---------------------------------------------------------------- reasons */

/* "step 2: the code indexes flag[3], outside flag[0..2]" (a check between steps: "check 2: ..."). */
static void index_text(const conform_report *c, const trace *t, strbuf *out) {
  const prog *p = c->ins;
  const prog_subscript *s = &p->subscripts.items[t->subscript];
  sbuf_printf(out, "%s %zu: the code indexes ", t->failing_is_check ? "check" : "step", t->steps.len);
  strbuf array = {0};
  prog_path_text(p, s->array, s->array_len, t->at_failure, &array);
  int64_t k;
  if (prog_eval(p, s->index, t->at_failure, &k)) sbuf_printf(out, "%s[%lld]", sbuf_str(&array), (long long)k);
  else sbuf_printf(out, "%s[?]", sbuf_str(&array));
  sbuf_printf(out, ", outside %s[0..%lld]", sbuf_str(&array), (long long)s->length - 1);
  sbuf_free(&array);
}

/* "step 2: the code dereferences p, which is NULL" (or names no object of its type). */
static void null_text(const conform_report *c, const trace *t, strbuf *out) {
  const prog *p = c->ins;
  const prog_subscript *s = &p->subscripts.items[t->subscript];
  int64_t k;
  bool known = prog_eval(p, s->index, t->at_failure, &k);
  sbuf_printf(out, "%s %zu: the code dereferences %s, which ", t->failing_is_check ? "check" : "step", t->steps.len,
              s->array[0].text);
  if (known && k == 0) sbuf_puts(out, "is NULL");
  else sbuf_puts(out, "names no object of its type");
}

/* "step 2: signed overflow: x + 1 leaves int's range at a.c:6" (or
 * division by zero, a negative value shifted left, or a shift amount
 * outside the width). */
static void arith_text(const conform_report *c, const trace *t, strbuf *out) {
  const prog *p = c->ins;
  const prog_operation *o = &p->operations.items[t->operation];
  sbuf_printf(out, "%s %zu: ", t->failing_is_check ? "check" : "step", t->steps.len);
  strbuf op = {0};
  prog_origin_text(p, o->origin, &op);
  int64_t k;
  if (o->fault == FAULT_OVERFLOW)
    sbuf_printf(out, "signed overflow: %s leaves %s's range", sbuf_str(&op), ir_ctype_name(o->type));
  else if (o->fault == FAULT_DIVISION) sbuf_printf(out, "division by zero: %s", sbuf_str(&op));
  else if (o->fault == FAULT_NEGATIVE_SHIFT) sbuf_printf(out, "left shift of a negative value: %s", sbuf_str(&op));
  else if (o->shift && prog_eval(p, o->shift, t->at_failure, &k))
    sbuf_printf(out, "shift out of range: %s shifts by %lld, outside 0..%d for %s", sbuf_str(&op), (long long)k,
                o->type.bits - 1, ir_ctype_name(o->type));
  else sbuf_printf(out, "shift out of range: %s shifts by an amount outside 0..%d", sbuf_str(&op), o->type.bits - 1);
  sbuf_free(&op);
  sbuf_puts(out, " at ");
  origin_place(p, o->origin, out);
}

/* check --for-all's N (a VAR_PARAM), or -1. */
static int param_var(const prog *p) {
  vec_foreach(&p->vars, v)
    if (p->vars.items[v].kind == VAR_PARAM) return (int)v;
  return -1;
}

/* "int[0..N] (N = 4 in this run)": a range over check --for-all's N. */
static void range_over_n(const prog *p, const trace *t, const prog_var *g, strbuf *out) {
  int n = param_var(p);
  sbuf_printf(out, "%s (%s = %lld in this run)", g->range, p->vars.items[n].display, (long long)t->at_failure[n]);
}

/* "x: 2 -> 1, y: false -> true": the shared variables that differ. */
static void changes_text(const prog *p, const int64_t *before, const int64_t *after, strbuf *out) {
  bool first = true;
  vec_foreach(&p->vars, v) {
    const prog_var *pv = &p->vars.items[v];
    if (pv->kind != VAR_SHARED || before[v] == after[v]) continue;
    sbuf_printf(out, "%s%s: ", first ? "" : ", ", pv->display);
    value_text(pv, before[v], out);
    sbuf_puts(out, " -> ");
    value_text(pv, after[v], out);
    first = false;
  }
  if (first) sbuf_puts(out, "no change of the shared variables");
}

static void reason_text(const conform_report *c, const trace *t, strbuf *out) {
  const prog *p = c->ins;
  size_t n = t->steps.len;
  const trace_step *last = n ? &t->steps.items[n - 1] : NULL;
  switch (t->failure) {
  case CHECK_SIMULATED:
    sbuf_printf(out, "step %zu is not simulated: no edge of %s from ", n, c->thread->name);
    candidates_text(p, last->env, out);
    sbuf_puts(out, ", and no idle step, allows ");
    changes_text(p, last->env, last->after, out);
    break;
  case CHECK_RANGE: {
    const prog_var *g = &p->vars.items[t->range_var];
    sbuf_printf(out, "step %zu sets %s to %lld, outside its range ", n, g->display,
                (long long)t->at_failure[t->range_var]);
    if (g->range) range_over_n(p, t, g, out);
    else sbuf_printf(out, "int[%lld..%lld]", (long long)g->lo, (long long)g->hi);
    break;
  }
  case CHECK_CODE:
    sbuf_puts(out, "the assertion fails and no candidate state in ");
    candidates_text(p, t->at_failure, out);
    sbuf_printf(out, " goes wrong");
    break;
  case CHECK_CODE_IN_STEP: {
    prog_origin o = p->edges.items[t->failing_edge].origin;
    prog_origin_text(p, o, out);
    sbuf_puts(out, " at ");
    origin_place(p, o, out);
    sbuf_printf(out, " fails inside step %zu, where no abstract state can go wrong instead", n);
    break;
  }
  case CHECK_EXIT: sbuf_puts(out, "the thread exits with no candidate state left"); break;
  case CHECK_INDEX: index_text(c, t, out); break;
  case CHECK_NULL: null_text(c, t, out); break;
  case CHECK_ARITH: arith_text(c, t, out); break;
  case CHECK_EDGE_UNUSED:
  case CHECK_STATE_UNUSED: sbuf_puts(out, "a probe (never in a report)"); break;
  }
}

/* "g = 0, h = 1": what the statement's earlier accesses read. */
static void reads_text(const prog *p, const trace_step *s, strbuf *out) {
  vec_foreach(&s->reads, i) {
    const prog_var *v = &p->vars.items[s->reads.items[i].var];
    sbuf_printf(out, "%s%s = ", i ? ", " : "", v->display);
    value_text(v, s->reads.items[i].value, out);
  }
}

/* ---------------------------------------------------------------- text */

/* "after:", or "at a.c:6:" for the values where an assert or a bounds check
 * inside step i failed (text kept in scratch). */
static const char *after_label(const conform_report *c, const trace *t, size_t i, strbuf *scratch) {
  bool inside = t->failure == CHECK_CODE_IN_STEP || t->failure == CHECK_INDEX || t->failure == CHECK_NULL ||
                t->failure == CHECK_ARITH;
  if (i + 1 < t->steps.len || !inside) return "after:";
  sbuf_puts(scratch, "at ");
  origin_place(c->ins, c->ins->edges.items[t->failing_edge].origin, scratch);
  sbuf_putc(scratch, ':');
  return sbuf_str(scratch);
}

/* The shared values a step's reader knows already: after the step before it
 * (the thread's start for the first). */
static const int64_t *known_before(const trace *t, size_t i) {
  for (size_t k = i; k-- > 0;)
    if (t->steps.items[k].after) return t->steps.items[k].after;
  return t->start;
}

/* One line "label values" of the shared variables now holds that differ from
 * before; nothing when none does. */
static void print_changed(FILE *out, const char *label, const prog *p, const int64_t *before, const int64_t *now,
                          const char *suffix) {
  strbuf b = {0};
  values_text(p, VAR_SHARED, before, now, &b);
  if (suffix && *suffix) sbuf_printf(&b, "%s%s", b.len ? "; " : "", suffix);
  if (b.len) fprintf(out, "      %-12s %s\n", label, sbuf_str(&b));
  sbuf_free(&b);
}

static void print_step(FILE *out, const conform_report *c, const trace *t, size_t i) {
  const prog *p = c->ins;
  const trace_step *s = &t->steps.items[i];
  const int64_t *before = known_before(t, i);
  bool check = i + 1 == t->steps.len && t->failing_is_check;
  strbuf b = {0};
  where_text(p, s->origin, &b);
  if (s->branch >= 0) sbuf_puts(&b, s->branch ? "  [true]" : "  [false]");
  fprintf(out, "  %s %zu  %s\n", check ? "check" : "step", i + 1, sbuf_str(&b));
  b.len = 0;
  reads_text(p, s, &b);
  if (b.len) fprintf(out, "      read:        %s\n", sbuf_str(&b));
  vec_foreach(&s->moves, k) {
    b.len = 0;
    env_describe_move(c->env, (size_t)s->moves.items[k].move, &b);
    size_t described = b.len;
    sbuf_puts(&b, ": ");
    values_text(p, VAR_SHARED, before, s->moves.items[k].after, &b);
    if (b.len == described + 2) sbuf_truncate(&b, described); /* it changed no shared variable */
    fprintf(out, "      moved:       %s\n", sbuf_str(&b));
    before = s->moves.items[k].after;
  }
  print_changed(out, "environment:", p, before, s->env, NULL);
  if (s->after && !check) {
    strbuf locals = {0}, label = {0};
    sbuf_puts(&locals, "locals ");
    size_t prefix = locals.len;
    values_text(p, VAR_LOCAL, s->env, s->after, &locals);
    print_changed(out, after_label(c, t, i, &label), p, s->env, s->after, locals.len > prefix ? sbuf_str(&locals) : NULL);
    sbuf_free(&label);
    sbuf_free(&locals);
  }
  if (s->simulated) {
    b.len = 0;
    candidates_text(p, s->after, &b);
    fprintf(out, "      F = %s\n", sbuf_str(&b));
  }
  sbuf_free(&b);
}

/* Marks in used the program variables e reads. */
static void mark_reads(const prog *p, const ir_expr *e, bool *used) {
  if (!e) return;
  if (e->kind == IR_NAME && e->ref == REF_VAR && e->index >= 0 && (size_t)e->index < p->vars.len) used[e->index] = true;
  mark_reads(p, e->a, used);
  mark_reads(p, e->b, used);
  mark_reads(p, e->c, used);
}

/* "  at the failure: k = 1, flag = false": the shared variables and locals
 * the failing check reads, which the steps' changes alone may not show. */
static void print_failure_values(FILE *out, const conform_report *c, const trace *t) {
  const prog *p = c->ins;
  if (t->failing_edge < 0 || t->failure == CHECK_SIMULATED || t->failure == CHECK_EXIT) return;
  bool *used = xcalloc(p->vars.len + 1, sizeof *used);
  mark_reads(p, p->edges.items[t->failing_edge].expr, used);
  strbuf b = {0};
  vec_foreach(&p->vars, v) {
    const prog_var *pv = &p->vars.items[v];
    if (!used[v] || (pv->kind != VAR_SHARED && pv->kind != VAR_LOCAL)) continue;
    sbuf_printf(&b, "%s%s = ", b.len ? ", " : "", pv->display);
    value_text(pv, t->at_failure[v], &b);
  }
  if (b.len) fprintf(out, "  at the failure: %s\n", sbuf_str(&b));
  sbuf_free(&b);
  free(used);
}

static void print_counterexample(FILE *out, const conform_report *c) {
  trace t;
  trace_build(c->ins, c->r, c->env, c->thread, &t);
  strbuf b = {0};
  candidates_text(c->ins, t.start, &b);
  int n = param_var(c->ins);
  if (n >= 0) sbuf_printf(&b, "; %s = %lld", c->ins->vars.items[n].display, (long long)t.at_failure[n]);
  size_t candidates = b.len;
  sbuf_puts(&b, "; ");
  values_text(c->ins, VAR_SHARED, NULL, t.start, &b);
  if (b.len == candidates + 2) sbuf_truncate(&b, candidates); /* no shared variable */
  fprintf(out, "  start: F = %s\n", sbuf_str(&b));
  vec_foreach(&t.steps, i) print_step(out, c, &t, i);
  print_failure_values(out, c, &t);
  b.len = 0;
  reason_text(c, &t, &b);
  fprintf(out, "  reason: %s\n", sbuf_str(&b));
  sbuf_free(&b);
  trace_free(&t);
}

void report_conform_text(FILE *out, const conform_report *c) {
  const conform_result *r = c->r;
  fprintf(out, "thread %s implements %s: %s (%s", c->thread->name, c->ins->function, report_verdict_text(r->verdict),
          r->engine);
  if (c->timing) fprintf(out, ", %.2f s", r->seconds);
  fprintf(out, ")\n");
  if (r->verdict == CONFORM_UNKNOWN) fprintf(out, "  reason: %s\n", r->reason);
  if (r->verdict == CONFORM_VIOLATED) print_counterexample(out, c);
  if (r->certificate) {
    fprintf(out, "  invariant (re-checked):\n");
    for (const char *line = c->certificate_smt ? r->certificate : r->certificate_c; *line;) {
      const char *end = strchr(line, '\n');
      size_t len = end ? (size_t)(end - line) : strlen(line);
      fprintf(out, "    %.*s\n", (int)len, line);
      line += len + (end ? 1 : 0);
    }
  }
}

/* ---------------------------------------------------------------- JSON */

static json_t *values_json(const prog *p, prog_var_kind kind, const int64_t *before, const int64_t *now) {
  json_t *o = json_object();
  vec_foreach(&p->vars, v) {
    const prog_var *pv = &p->vars.items[v];
    if (pv->kind != kind || (before && before[v] == now[v])) continue;
    json_object_set_new(o, pv->display, pv->type == TY_BOOL ? json_boolean(now[v]) : json_integer((json_int_t)now[v]));
  }
  return o;
}

static json_t *candidates_json(const prog *p, const int64_t *now) {
  json_t *a = json_array();
  vec_foreach(&p->vars, v)
    if (p->vars.items[v].kind == VAR_CAND && now[v])
      json_array_append_new(a, json_string(p->vars.items[v].display + 2));
  return a;
}

/* [{"variable": "g", "value": 0}, ...]: what the statement's earlier accesses read. */
static json_t *reads_json(const prog *p, const trace_step *s) {
  json_t *a = json_array();
  vec_foreach(&s->reads, i) {
    const prog_var *v = &p->vars.items[s->reads.items[i].var];
    int64_t x = s->reads.items[i].value;
    json_t *r = json_object();
    json_object_set_new(r, "variable", json_string(v->display));
    json_object_set_new(r, "value", v->type == TY_BOOL ? json_boolean(x) : json_integer((json_int_t)x));
    json_array_append_new(a, r);
  }
  return a;
}

/* {"file", "line", "column"} of the edge a move takes, in the spec (where
 * compose's steps point too: the edge's source state). */
static json_t *move_location_json(const conform_env *e, size_t m) {
  const env_move *mv = &e->moves[m];
  const diag_source *src = e->spec->src;
  size_t line, col;
  diag_line_col(src, mv->thread->edges.items[mv->edge]->from_at.start, &line, &col);
  return json_pack("{s:o, s:I, s:I}", "file", json_text(src->name), "line", (json_int_t)line, "column",
                   (json_int_t)col);
}

/* The environment's moves before a step: [{"move": "Worker[2] takes A -> B",
 * "location": {...}, "after": {...}}]. */
static json_t *moves_json(const conform_report *c, const trace_step *s) {
  json_t *a = json_array();
  vec_foreach(&s->moves, k) {
    strbuf b = {0};
    env_describe_move(c->env, (size_t)s->moves.items[k].move, &b);
    json_t *o = json_object();
    json_object_set_new(o, "move", json_text(sbuf_str(&b)));
    json_object_set_new(o, "location", move_location_json(c->env, (size_t)s->moves.items[k].move));
    json_object_set_new(o, "after", values_json(c->ins, VAR_SHARED, NULL, s->moves.items[k].after));
    json_array_append_new(a, o);
    sbuf_free(&b);
  }
  return a;
}

static json_t *step_json(const conform_report *c, const trace *t, size_t i) {
  const prog *p = c->ins;
  const trace_step *s = &t->steps.items[i];
  json_t *o = json_object();
  const char *file;
  size_t line;
  bool check = i + 1 == t->steps.len && t->failing_is_check;
  json_object_set_new(o, "kind", json_string(check ? "check" : "step"));
  if (prog_origin_line(p, s->origin, &file, &line)) {
    strbuf b = {0};
    prog_origin_text(p, s->origin, &b);
    json_object_set_new(o, "file", json_text(file));
    json_object_set_new(o, "line", json_integer((json_int_t)line));
    json_object_set_new(o, "column", json_integer((json_int_t)prog_origin_column(p, s->origin)));
    json_object_set_new(o, "statement", json_text(sbuf_str(&b)));
    sbuf_free(&b);
  }
  if (s->branch >= 0) json_object_set_new(o, "condition", json_boolean(s->branch));
  if (s->reads.len) json_object_set_new(o, "reads", reads_json(p, s));
  if (s->moves.len) json_object_set_new(o, "moves", moves_json(c, s));
  json_object_set_new(o, "environment", values_json(p, VAR_SHARED, NULL, s->env));
  json_object_set_new(o, "candidates_before", candidates_json(p, s->env));
  if (s->after && !check) {
    json_object_set_new(o, "after", values_json(p, VAR_SHARED, NULL, s->after));
    json_object_set_new(o, "locals", values_json(p, VAR_LOCAL, s->env, s->after));
  }
  if (s->simulated) json_object_set_new(o, "candidates", candidates_json(p, s->after));
  return o;
}

static const char *failure_kind(const prog *p, const trace *t) {
  prog_check k = t->failure;
  if (k == CHECK_CODE || k == CHECK_CODE_IN_STEP) return "assertion";
  if (k == CHECK_INDEX) return "index";
  if (k == CHECK_NULL) return "null";
  if (k == CHECK_ARITH) {
    static const char *const kinds[] = {"overflow", "division by zero", "shift", "negative shift"};
    return kinds[p->operations.items[t->operation].fault];
  }
  return k == CHECK_SIMULATED ? "not simulated" : k == CHECK_RANGE ? "range" : "exit";
}

/* "array", "index" and "length" of an index outside its array. */
static void index_json(const prog *p, const trace *t, json_t *failure) {
  const prog_subscript *s = &p->subscripts.items[t->subscript];
  strbuf array = {0};
  prog_path_text(p, s->array, s->array_len, t->at_failure, &array);
  json_object_set_new(failure, "array", json_text(sbuf_str(&array)));
  sbuf_free(&array);
  int64_t k;
  if (prog_eval(p, s->index, t->at_failure, &k)) json_object_set_new(failure, "index", json_integer((json_int_t)k));
  json_object_set_new(failure, "length", json_integer((json_int_t)s->length));
}

/* "operation" (its text), "type", "file", "line", and a shift's "amount". */
static void arith_json(const prog *p, const trace *t, json_t *failure) {
  const prog_operation *o = &p->operations.items[t->operation];
  const char *file;
  size_t line;
  strbuf b = {0};
  prog_origin_text(p, o->origin, &b);
  json_object_set_new(failure, "operation", json_text(sbuf_str(&b)));
  sbuf_free(&b);
  json_object_set_new(failure, "type", json_string(ir_ctype_name(o->type)));
  if (prog_origin_line(p, o->origin, &file, &line)) {
    json_object_set_new(failure, "file", json_text(file));
    json_object_set_new(failure, "line", json_integer((json_int_t)line));
  }
  int64_t k;
  if (o->shift && prog_eval(p, o->shift, t->at_failure, &k)) json_object_set_new(failure, "amount", json_integer(k));
}

/* Where the assert inside a step is: "inside_step", "file", "line", "statement". */
static void in_step_json(const prog *p, prog_origin o, json_t *failure) {
  const char *file;
  size_t line;
  json_object_set_new(failure, "inside_step", json_true());
  if (!prog_origin_line(p, o, &file, &line)) return;
  strbuf b = {0};
  prog_origin_text(p, o, &b);
  json_object_set_new(failure, "file", json_text(file));
  json_object_set_new(failure, "line", json_integer((json_int_t)line));
  json_object_set_new(failure, "statement", json_text(sbuf_str(&b)));
  sbuf_free(&b);
}

static json_t *counterexample_json(const conform_report *c) {
  trace t;
  trace_build(c->ins, c->r, c->env, c->thread, &t);
  json_t *o = json_object(), *steps = json_array();
  json_object_set_new(o, "initial_candidates", candidates_json(c->ins, t.start));
  int n = param_var(c->ins);
  if (n >= 0)
    json_object_set_new(
        o, "parameter",
        json_pack("{s:s, s:I}", "name", c->ins->vars.items[n].display, "value", (json_int_t)t.at_failure[n]));
  vec_foreach(&t.steps, i) json_array_append_new(steps, step_json(c, &t, i));
  json_object_set_new(o, "steps", steps);
  strbuf b = {0};
  reason_text(c, &t, &b);
  json_t *failure = json_object();
  json_object_set_new(failure, "kind", json_string(failure_kind(c->ins, &t)));
  json_object_set_new(failure, "step", json_integer((json_int_t)t.steps.len));
  if (t.failure == CHECK_RANGE)
    json_object_set_new(failure, "variable", json_string(c->ins->vars.items[t.range_var].display));
  if (t.failure == CHECK_CODE_IN_STEP) in_step_json(c->ins, c->ins->edges.items[t.failing_edge].origin, failure);
  if (t.failure == CHECK_INDEX) index_json(c->ins, &t, failure);
  if (t.failure == CHECK_NULL)
    json_object_set_new(failure, "pointer", json_text(c->ins->subscripts.items[t.subscript].array[0].text));
  if (t.failure == CHECK_ARITH) arith_json(c->ins, &t, failure);
  json_object_set_new(failure, "message", json_text(sbuf_str(&b)));
  json_object_set_new(o, "failure", failure);
  sbuf_free(&b);
  trace_free(&t);
  return o;
}

json_t *report_conform_json(const conform_report *c) {
  const conform_result *r = c->r;
  json_t *o = json_object();
  json_object_set_new(o, "thread", json_string(c->thread->name));
  json_object_set_new(o, "function", json_string(c->ins->function));
  json_object_set_new(o, "verdict", json_string(report_verdict_text(r->verdict)));
  json_object_set_new(o, "engine", json_string(r->engine));
  json_object_set_new(o, "engine_reason", json_string(r->why));
  if (c->timing) json_object_set_new(o, "seconds", json_real(r->seconds));
  json_object_set_new(o, "cut_points", json_integer((json_int_t)r->cut_count));
  json_object_set_new(o, "clauses", json_integer((json_int_t)r->segment_count));
  if (r->verdict == CONFORM_UNKNOWN) json_object_set_new(o, "reason", json_string(r->reason));
  if (r->verdict == CONFORM_VIOLATED) json_object_set_new(o, "counterexample", counterexample_json(c));
  if (r->certificate) json_object_set_new(o, "invariant", json_string(r->certificate));
  if (r->certificate) json_object_set_new(o, "invariant_c", json_string(r->certificate_c));
  return o;
}

/* ---------------------------------------------------------------- assumptions */

typedef struct assumption {
  const char *key;   /* its JSON key */
  const char *value; /* its JSON value */
  const char *text;  /* its clause in the text line */
} assumption;

#define ASSUMPTIONS 4

/* The assumptions of a run, in the order they are printed. A new semantic
 * option (integers, memory model) changes its entry here. */
static void assumptions(const conform_semantics *s, assumption out[ASSUMPTIONS]) {
  out[0] = s->atomicity == ATOMICITY_ACCESS
               ? (assumption){"atomicity", "access", "each access to shared memory is one atomic step"}
               : (assumption){"atomicity", "statement", "each C statement is one atomic step"};
  out[1] = s->ints == CFE_INTS_MATH
               ? (assumption){"integers", "mathematical", "integers are mathematical"}
               : (assumption){"integers", "C", "integers are C's (widths, wrap-around; overflow is a violation)"};
  out[2] = (assumption){"memory", "sequentially consistent", "memory is sequentially consistent"};
  out[3] = (assumption){"environment", env_source_name(s->env->source), s->env->text};
}

static void assumptions_line(const conform_semantics *s, strbuf *out) {
  assumption a[ASSUMPTIONS];
  assumptions(s, a);
  for (int i = 0; i < ASSUMPTIONS; i++) sbuf_printf(out, "%s%s", i ? "; " : "", a[i].text);
}

void report_assumptions_text(FILE *out, const conform_semantics *s) {
  strbuf b = {0};
  assumptions_line(s, &b);
  fprintf(out, "assumptions: %s\n", sbuf_str(&b));
  sbuf_free(&b);
}

json_t *report_assumptions_json(const conform_semantics *s) {
  assumption a[ASSUMPTIONS];
  assumptions(s, a);
  json_t *o = json_object();
  for (int i = 0; i < ASSUMPTIONS; i++) json_object_set_new(o, a[i].key, json_string(a[i].value));
  strbuf b = {0};
  assumptions_line(s, &b);
  json_object_set_new(o, "text", json_string(sbuf_str(&b)));
  sbuf_free(&b);
  return o;
}
