/* cli/sarif-flows.c -- counterexamples as SARIF codeFlows.
 *
 * A counterexample is one interleaving, so it becomes one threadFlow whose
 * locations are every thread's steps in the order they run, each message
 * naming its thread ("T1: Idle -> Flagged"), and each location's
 * executionOrder its place in the run. SARIF would also allow one threadFlow
 * per thread, ordered against each other only by executionOrder; but
 * viewers show a threadFlow as one list of steps (VS Code's SARIF viewer,
 * GitHub's "show paths"), and per-thread lists would hide the interleaving
 * that makes the race.
 *
 * An unknown verdict is a result of kind "open" (SARIF 2.1.0, 3.27.9: the
 * tool could not tell whether the condition holds), so of level "none"
 * (3.27.10 requires it for every kind but "fail").
 */
#include "sarif-flows.h"

#include <stdlib.h>
#include <string.h>

#include "../core/json-text.h"
#include "../core/outfile.h"
#include "../core/strbuf.h"
#include "../spec-lang/properties.h"
#include "cli.h"

typedef struct sarif_ctx {
  const sarif_input *in; /* what the log tells */
  json_t *artifacts;     /* the run's files (borrowed from the log) */
  json_t *rules;         /* tool.driver.rules (borrowed) */
  json_t *results;       /* the run's results (borrowed) */
} sarif_ctx;

static const char *member(const json_t *o, const char *key) { return json_string_value(json_object_get(o, key)); }

/* ---------------------------------------------------------------- rules */

/* A check that is not a property of the spec: its rule's id and text. */
typedef struct check_rule {
  const char *id;   /* "compose." or "conform." and the JSON report's kind, ' ' as '-' */
  const char *text; /* what it checks */
} check_rule;

static const check_rule compose_rules[] = {
    {"compose.index-out-of-bounds", "an index of the spec stays inside its array"},
    {"compose.conflicting-assignments", "no edge assigns two different values to one variable"},
    {"compose.unknown", "the search ends with a verdict (not at a limit, a timeout or an interrupt)"},
};

static const check_rule conform_rules[] = {
    {"conform.not-simulated", "each step of the C function is one its abstract thread can take"},
    {"conform.range", "each step keeps the shared variables inside their declared ranges"},
    {"conform.exit", "the C function returns only where its abstract thread may end"},
    {"conform.assertion", "an assert of the C code fails only where the abstract thread goes wrong"},
    {"conform.index", "an array index stays inside its array"},
    {"conform.null", "no null pointer is dereferenced"},
    {"conform.overflow", "no arithmetic overflows its C type"},
    {"conform.division-by-zero", "no division by zero"},
    {"conform.shift", "no shift by the width of its type or more"},
    {"conform.negative-shift", "no shift by a negative amount"},
    {"conform.unknown", "the check of a thread ends with a verdict (not at a limit or a timeout)"},
};

static const check_rule races_rules[] = {
    {"races.data-race", "no two accesses of one object, one a write, not both atomic, are enabled at once"},
    {"races.candidate", "layer 1 or the search decides each pair of accesses without a common lock"},
    {"races.unknown", "the analysis follows the whole program"},
};

/* The index of rule id in the driver's rules, added with text when new. */
static size_t rule_index(sarif_ctx *x, const char *id, const char *text) {
  size_t n = json_array_size(x->rules);
  for (size_t i = 0; i < n; i++)
    if (strcmp(member(json_array_get(x->rules, i), "id"), id) == 0) return i;
  json_array_append_new(x->rules,
                        json_pack("{s:o,s:{s:o}}", "id", json_text(id), "shortDescription", "text", json_text(text)));
  return n;
}

static void table_rules(sarif_ctx *x, const check_rule *table, size_t n) {
  for (size_t i = 0; i < n; i++) rule_index(x, table[i].id, table[i].text);
}

/* A property of the spec as a rule: "system invariant !(A@C && B@C)". */
static void property_rule(void *ctx, const spec_property *p) {
  strbuf b = {0};
  sbuf_printf(&b, "%s ", spec_property_kind_name(p->kind));
  ir_print(&b, p->expr);
  rule_index(ctx, p->id, sbuf_str(&b));
  sbuf_free(&b);
}

/* "compose.index-out-of-bounds" for prefix "compose" and kind "index out of bounds". Returns owned. */
static char *rule_of(const char *prefix, const char *kind) {
  strbuf b = {0};
  sbuf_printf(&b, "%s.%s", prefix, kind);
  char *id = sbuf_take(&b);
  for (char *c = id; *c; c++)
    if (*c == ' ') *c = '-';
  return id;
}

/* ---------------------------------------------------------------- locations */

/* The source file named file (the spec or a C file the steps are in), or NULL. */
static const diag_source *source_named(const sarif_input *in, const char *file) {
  if (in->spec && strcmp(in->spec->src->name, file) == 0) return in->spec->src;
  for (size_t i = 0; in->threads && i < in->threads->jobs.len; i++) {
    const prog *p = in->threads->jobs.items[i].ins;
    vec_foreach(&p->files, k)
      if (strcmp(p->files.items[k]->name, file) == 0) return p->files.items[k];
  }
  return NULL;
}

/* The reports count columns in bytes, SARIF in code points: the column of
 * byte column col of line in file (col itself when the file is not known). */
static json_int_t code_point_column(const sarif_input *in, const char *file, json_int_t line, json_int_t col) {
  const diag_source *src = source_named(in, file);
  if (!src || line < 1 || (size_t)line > src->line_count) return col;
  size_t start = src->line_starts[line - 1], end = (size_t)line < src->line_count ? src->line_starts[line] : src->len;
  size_t offset = start + (size_t)col - 1;
  return offset < end ? diag_code_point_column(src, (uint32_t)offset) : col;
}

/* The physicalLocation of a report's {"file", "line", "column"} (a missing
 * column: the line's first), or NULL when at names no file. */
static json_t *physical_of(sarif_ctx *x, const json_t *at) {
  const char *file = member(at, "file");
  if (!file) return NULL;
  json_int_t line = json_integer_value(json_object_get(at, "line"));
  json_int_t col = json_integer_value(json_object_get(at, "column"));
  col = code_point_column(x->in, file, line, col ? col : 1);
  return diag_sarif_location(x->artifacts, file, (uint32_t)line, (uint32_t)col);
}

/* A location: where (taken; NULL: none) and the message text (taken). */
static json_t *location_of(json_t *where, json_t *text) {
  json_t *o = where ? json_pack("{s:o}", "physicalLocation", where) : json_object();
  json_object_set_new(o, "message", json_pack("{s:o}", "text", text));
  return o;
}

/* ---------------------------------------------------------------- states */

/* A value of a report as a multiformatMessageString. */
static json_t *value_text(const json_t *v) {
  if (json_is_string(v)) return json_pack("{s:O}", "text", v);
  if (json_is_integer(v))
    return json_pack("{s:o}", "text", json_sprintf("%" JSON_INTEGER_FORMAT, json_integer_value(v)));
  return json_pack("{s:s}", "text", json_is_true(v) ? "true" : "false");
}

/* Adds each member of values (NULL: none) to a threadFlowLocation's state. */
static void add_state(json_t *state, const json_t *values) {
  const char *key;
  json_t *v;
  json_object_foreach((json_t *)values, key, v) json_object_set_new(state, key, value_text(v));
}

/* compose's {"shared", "instances"}: one member per variable and instance. */
static json_t *system_state(const json_t *s) {
  json_t *state = json_object();
  add_state(state, json_object_get(s, "shared"));
  add_state(state, json_object_get(s, "instances"));
  return state;
}

/* ---------------------------------------------------------------- results */

/* Adds a result of rule (ruleId, and ruleIndex into the rules) with message
 * text (taken) at where (taken; NULL: nowhere) and flow (taken; NULL: none);
 * open: the verdict is unknown. */
static void add_result(sarif_ctx *x, const char *rule, json_t *text, json_t *where, json_t *flow, bool open) {
  size_t index = rule_index(x, rule, rule);
  json_t *r = json_pack("{s:o,s:I}", "ruleId", json_text(rule), "ruleIndex", (json_int_t)index);
  if (open) json_object_set_new(r, "kind", json_string("open"));
  json_object_set_new(r, "level", json_string(open ? "none" : "error"));
  json_object_set_new(r, "message", json_pack("{s:o}", "text", text));
  if (where) json_object_set_new(r, "locations", json_pack("[{s:o}]", "physicalLocation", where));
  if (flow) json_object_set_new(r, "codeFlows", json_pack("[o]", flow));
  json_array_append_new(x->results, r);
}

/* A codeFlow of one threadFlow: the interleaving (locations, taken). */
static json_t *code_flow(json_t *locations, json_t *initial_state, const char *what) {
  json_t *flow = json_pack("{s:{s:s},s:o}", "message", "text", what, "locations", locations);
  if (initial_state) json_object_set_new(flow, "initialState", initial_state);
  strbuf b = {0};
  sbuf_printf(&b, "counterexample, %zu location%s in the order they run", json_array_size(locations),
              json_array_size(locations) == 1 ? "" : "s");
  json_t *o = json_pack("{s:{s:s},s:[o]}", "message", "text", sbuf_str(&b), "threadFlows", flow);
  sbuf_free(&b);
  return o;
}

/* ---------------------------------------------------------------- compose */

/* A step of compose's trace: "T1: Idle -> Flagged", the state after it. */
static json_t *system_step(sarif_ctx *x, const json_t *step) {
  strbuf b = {0};
  sbuf_printf(&b, "%s: %s", member(step, "instance"), member(step, "edge_text"));
  json_t *where = location_of(physical_of(x, json_object_get(step, "location")), json_text(sbuf_str(&b)));
  sbuf_free(&b);
  return json_pack("{s:o,s:o,s:O,s:{s:s,s:O,s:O}}", "location", where, "state",
                   system_state(json_object_get(step, "state")), "executionOrder", json_object_get(step, "step"),
                   "properties", "kind", "step", "instance", json_object_get(step, "instance"), "changed",
                   json_object_get(step, "changed"));
}

static json_t *system_flow(sarif_ctx *x, const json_t *trace) {
  json_t *locations = json_array(), *step;
  size_t i;
  json_array_foreach(json_object_get(trace, "steps"), i, step) json_array_append_new(locations, system_step(x, step));
  return code_flow(locations, system_state(json_object_get(trace, "initial")),
                   "every instance's steps, interleaved; each location's state: the values after its step");
}

/* The result of an unsafe verdict: the violated property (its ID the rule),
 * where it is stated, and the trace. */
static void system_violation(sarif_ctx *x, const json_t *trace) {
  const json_t *v = json_object_get(trace, "violation");
  char *rule = member(v, "property") ? xstrdup(member(v, "property")) : rule_of("compose", member(v, "kind"));
  size_t steps = json_array_size(json_object_get(trace, "steps"));
  strbuf b = {0};
  sbuf_printf(&b, "%s (after %zu step%s)", member(v, "message"), steps, steps == 1 ? "" : "s");
  add_result(x, rule, json_text(sbuf_str(&b)), physical_of(x, json_object_get(v, "location")), system_flow(x, trace),
             false);
  sbuf_free(&b);
  free(rule);
}

/* An unknown verdict about rule, located at the spec as a whole. */
static void unknown(sarif_ctx *x, const char *rule, const char *what, const char *reason) {
  strbuf b = {0};
  sbuf_printf(&b, "%sverdict unknown: %s", what, reason ? reason : "");
  add_result(x, rule, json_text(sbuf_str(&b)), diag_sarif_location(x->artifacts, x->in->spec->src->name, 0, 0), NULL,
             true);
  sbuf_free(&b);
}

static void system_results(sarif_ctx *x, const json_t *report) {
  const char *v = member(report, "verdict");
  if (strcmp(v, "unsafe") == 0) system_violation(x, json_object_get(report, "trace"));
  else if (strcmp(v, "unknown") == 0) unknown(x, "compose.unknown", "", member(report, "reason"));
}

/* ---------------------------------------------------------------- conform */

/* A move of another thread before a step: its edge in the spec. */
static json_t *move_location(sarif_ctx *x, const json_t *move, json_int_t order) {
  json_t *where = location_of(physical_of(x, json_object_get(move, "location")), json_text(member(move, "move")));
  json_t *state = json_object();
  add_state(state, json_object_get(move, "after"));
  return json_pack("{s:o,s:o,s:I,s:{s:s}}", "location", where, "state", state, "executionOrder", order, "properties",
                   "kind", "move");
}

/* "Worker: ext.StoppingFlag (condition false)"; the failing step says why it fails. */
static json_t *step_text(const json_t *thread, const json_t *step, const json_t *failure) {
  strbuf b = {0};
  const char *statement = member(step, "statement");
  const json_t *cond = json_object_get(step, "condition");
  sbuf_printf(&b, "%s: %s", member(thread, "thread"), statement ? statement : "(code of a model)");
  if (cond) sbuf_printf(&b, " (condition %s)", json_is_true(cond) ? "true" : "false");
  if (failure) sbuf_printf(&b, ": %s", member(failure, "message"));
  json_t *text = json_text(sbuf_str(&b));
  sbuf_free(&b);
  return text;
}

/* A step of the C function: the statement, the values after it (before it, for a failing check). */
static json_t *code_step(sarif_ctx *x, const json_t *thread, const json_t *step, size_t i, const json_t *failure,
                         json_int_t order) {
  json_t *where = location_of(physical_of(x, step), step_text(thread, step, failure));
  json_t *state = json_object(), *after = json_object_get(step, "after");
  add_state(state, after ? after : json_object_get(step, "environment"));
  add_state(state, json_object_get(step, "locals"));
  json_t *o = json_pack("{s:o,s:o,s:I,s:{s:O,s:I}}", "location", where, "state", state, "executionOrder", order,
                        "properties", "kind", json_object_get(step, "kind"), "step", (json_int_t)(i + 1));
  json_t *candidates = json_object_get(step, "candidates");
  if (candidates) json_object_set(json_object_get(o, "properties"), "candidates", candidates);
  return o;
}

static json_t *thread_flow(sarif_ctx *x, const json_t *thread) {
  const json_t *cx = json_object_get(thread, "counterexample"), *failure = json_object_get(cx, "failure");
  const json_t *steps = json_object_get(cx, "steps");
  size_t last = json_array_size(steps) - 1, i, k;
  json_t *locations = json_array(), *step, *move;
  json_int_t order = 0;
  json_array_foreach(steps, i, step) {
    json_array_foreach(json_object_get(step, "moves"), k, move)
        json_array_append_new(locations, move_location(x, move, ++order));
    json_array_append_new(locations, code_step(x, thread, step, i, i == last ? failure : NULL, ++order));
  }
  return code_flow(locations, NULL,
                   "the C function's steps and, before each, the other threads' moves (edges of the spec)");
}

/* Where a thread fails: the failure's own place (an operation, an assert
 * inside a step), else its step, else the last step in a file. */
static json_t *failure_location(sarif_ctx *x, const json_t *cx) {
  const json_t *failure = json_object_get(cx, "failure"), *steps = json_object_get(cx, "steps");
  if (member(failure, "file")) return physical_of(x, failure);
  for (size_t i = json_array_size(steps); i > 0; i--)
    if (member(json_array_get(steps, i - 1), "file")) return physical_of(x, json_array_get(steps, i - 1));
  return NULL;
}

static void thread_violation(sarif_ctx *x, const json_t *thread) {
  const json_t *cx = json_object_get(thread, "counterexample"), *failure = json_object_get(cx, "failure");
  char *rule = rule_of("conform", member(failure, "kind"));
  strbuf b = {0};
  sbuf_printf(&b, "thread %s (C function %s) does not conform: %s", member(thread, "thread"),
              member(thread, "function"), member(failure, "message"));
  add_result(x, rule, json_text(sbuf_str(&b)), failure_location(x, cx), thread_flow(x, thread), false);
  sbuf_free(&b);
  free(rule);
}

static void thread_unknown(sarif_ctx *x, const json_t *thread) {
  strbuf what = {0};
  sbuf_printf(&what, "thread %s (C function %s): ", member(thread, "thread"), member(thread, "function"));
  unknown(x, "conform.unknown", sbuf_str(&what), member(thread, "reason"));
  sbuf_free(&what);
}

static void thread_results(sarif_ctx *x, const json_t *report) {
  json_t *thread;
  size_t i;
  json_array_foreach(json_object_get(report, "threads"), i, thread) {
    const char *v = member(thread, "verdict");
    if (strcmp(v, "does not conform") == 0) thread_violation(x, thread);
    else if (strcmp(v, "unknown") == 0) thread_unknown(x, thread);
  }
}

/* ---------------------------------------------------------------- races */

/* "T#2 writes" for an access of the races report. */
static void access_text(strbuf *b, const json_t *a) {
  sbuf_printf(b, "%s", member(a, "thread"));
  json_int_t k = json_integer_value(json_object_get(a, "instance"));
  if (k) sbuf_printf(b, "#%lld", (long long)k);
  sbuf_printf(b, " %s%s", strcmp(member(a, "access"), "write") == 0 ? "writes" : "reads",
              json_is_true(json_object_get(a, "atomic")) ? " (atomic)" : "");
}

/* A step of a race's trace: "T#1: text (accesses)". */
static json_t *race_step(sarif_ctx *x, const json_t *step, size_t order) {
  strbuf b = {0};
  sbuf_printf(&b, "%s#%lld: %s", member(step, "thread"), (long long)json_integer_value(json_object_get(step, "instance")),
              json_is_true(json_object_get(step, "starts")) ? "starts" : member(step, "text"));
  if (*member(step, "accesses")) sbuf_printf(&b, " (%s)", member(step, "accesses"));
  json_t *where = location_of(physical_of(x, step), json_text(sbuf_str(&b)));
  sbuf_free(&b);
  return json_pack("{s:o,s:I,s:{s:s}}", "location", where, "executionOrder", (json_int_t)order, "properties", "kind",
                   "step");
}

/* One of the two accesses enabled at the end of the trace. */
static json_t *race_access(sarif_ctx *x, const json_t *a, const char *cell, size_t order) {
  strbuf b = {0};
  access_text(&b, a);
  sbuf_printf(&b, " %s (enabled)", cell);
  json_t *where = location_of(physical_of(x, a), json_text(sbuf_str(&b)));
  sbuf_free(&b);
  return json_pack("{s:o,s:I,s:{s:s}}", "location", where, "executionOrder", (json_int_t)order, "properties", "kind",
                   "access");
}

/* A race: at its first access, the trace then both accesses as its flow. */
static void race_result(sarif_ctx *x, const json_t *cell) {
  const char *name = member(cell, "cell");
  const json_t *first = json_object_get(cell, "first"), *second = json_object_get(cell, "second"), *step;
  json_t *locations = json_array();
  size_t i;
  json_array_foreach(json_object_get(cell, "trace"), i, step) json_array_append_new(locations, race_step(x, step, i + 1));
  size_t n = json_array_size(locations);
  json_array_append_new(locations, race_access(x, first, name, n + 1));
  json_array_append_new(locations, race_access(x, second, name, n + 2));
  strbuf b = {0};
  sbuf_printf(&b, "data race on %s: ", name);
  access_text(&b, first);
  sbuf_puts(&b, " and ");
  access_text(&b, second);
  sbuf_printf(&b, " are both enabled after %zu step%s", n, n == 1 ? "" : "s");
  add_result(x, "races.data-race", json_text(sbuf_str(&b)), physical_of(x, first),
             code_flow(locations, NULL, "every instance's steps, interleaved, then the two accesses"), false);
  sbuf_free(&b);
}

/* A candidate neither layer decided: open, at its first access. */
static void candidate_result(sarif_ctx *x, const json_t *cell) {
  strbuf b = {0};
  sbuf_printf(&b, "possible data race on %s: ", member(cell, "cell"));
  access_text(&b, json_object_get(cell, "first"));
  sbuf_puts(&b, " and ");
  access_text(&b, json_object_get(cell, "second"));
  sbuf_puts(&b, " hold no common lock; the search found no run where both are enabled");
  add_result(x, "races.candidate", json_text(sbuf_str(&b)), physical_of(x, json_object_get(cell, "first")), NULL,
             true);
  sbuf_free(&b);
}

static void race_results(sarif_ctx *x, const json_t *report) {
  const json_t *cell, *reason;
  size_t i;
  json_array_foreach(json_object_get(report, "cells"), i, cell) {
    const char *v = member(cell, "verdict");
    if (strcmp(v, "race") == 0) race_result(x, cell);
    else if (strcmp(v, "unknown") == 0) candidate_result(x, cell);
  }
  json_array_foreach(json_object_get(report, "unknown"), i, reason)
    add_result(x, "races.unknown", json_text(json_string_value(reason)), NULL, NULL, true);
}

/* ---------------------------------------------------------------- the log */

json_t *sarif_flows_log(const diag_sink *sink, const sarif_input *in, int exit_code) {
  json_t *log = diag_sarif(sink, &cli_tool, exit_code);
  json_t *run = json_array_get(json_object_get(log, "runs"), 0), *rules = json_array();
  json_object_set_new(json_object_get(json_object_get(run, "tool"), "driver"), "rules", rules);
  sarif_ctx x = {in, json_object_get(run, "artifacts"), rules, json_object_get(run, "results")};
  if (in->compose) {
    spec_properties_each(in->spec, property_rule, &x);
    table_rules(&x, compose_rules, sizeof compose_rules / sizeof *compose_rules);
    system_results(&x, in->compose);
  }
  if (in->code) table_rules(&x, conform_rules, sizeof conform_rules / sizeof *conform_rules);
  if (in->conform) thread_results(&x, in->conform);
  if (in->races) {
    table_rules(&x, races_rules, sizeof races_rules / sizeof *races_rules);
    race_results(&x, in->races);
  }
  return log;
}

bool sarif_flows_write(diag_sink *sink, const char *path, const sarif_input *in, int exit_code) {
  json_t *log = sarif_flows_log(sink, in, exit_code);
  char *text = json_dumps(log, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
  json_decref(log);
  strbuf b = {0};
  sbuf_puts(&b, text);
  sbuf_putc(&b, '\n');
  free(text);
  bool ok = outfile_write(sink, path, sbuf_str(&b), b.len);
  sbuf_free(&b);
  return ok;
}
