/* compose/report.c -- rendering verdicts and traces. */
#include "report.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../core/arena.h"
#include "../core/json-text.h"
#include "../core/strbuf.h"
#include "../spec-lang/properties.h"

static const char *const verdict_names[] = {
    [VERDICT_SAFE] = "safe", [VERDICT_UNSAFE] = "unsafe", [VERDICT_UNKNOWN] = "unknown"};

static bool is_shared(const mdl *m, size_t slot) { return mdl_slot_at(m, slot)->kind == SLOT_SHARED; }

/* ---------------------------------------------------------------- text */

static void put_value(strbuf *b, const mdl *m, size_t slot, int64_t v) { mdl_describe_value(m, slot, v, b); }

/* "x=1  y=true*" for the shared slots of state, '*' where prev differs. */
static void shared_values(strbuf *b, const mdl *m, const int64_t *state, const int64_t *prev) {
  bool first = true;
  for (size_t i = 0; i < mdl_width(m); i++) {
    if (!is_shared(m, i)) continue;
    sbuf_printf(b, "%s%s=", first ? "" : "  ", mdl_slot_at(m, i)->name);
    put_value(b, m, i, state[i]);
    if (prev && prev[i] != state[i]) sbuf_putc(b, '*');
    first = false;
  }
}

static void instance_states(strbuf *b, const mdl *m, const int64_t *state) {
  bool first = true;
  for (size_t i = 0; i < mdl_width(m); i++) {
    if (is_shared(m, i)) continue;
    sbuf_printf(b, "%s%s@", first ? "" : "  ", mdl_slot_at(m, i)->name);
    put_value(b, m, i, state[i]);
    first = false;
  }
}

/* A rate from a shorter run, or an average memory per state over fewer
 * states (the store's fixed part dominates), says nothing: not printed. */
#define MIN_RATE_SECONDS 0.01
#define MIN_AVERAGE_STATES 1000u

static size_t max_size(size_t a, size_t b) { return a > b ? a : b; }

/* "spec.athread:L:C": where a span of the spec starts. */
static void put_at(strbuf *b, const report_context *c, loc at) {
  size_t line, col;
  diag_line_col(c->spec->src, at.start, &line, &col);
  sbuf_printf(b, "%s:%zu:%zu", c->spec->src->name, line, col);
}

/* "violated: system.invariant.1 at spec.athread:L:C" (no ID for an index
 * out of bounds or conflicting assignments: athread's checks, not the spec's). */
static void print_violated(FILE *out, const report_context *c, const mdl_violation *v) {
  strbuf b = {0};
  sbuf_puts(&b, "violated: ");
  if (spec_property_id(c->spec, v->failed, &b)) sbuf_puts(&b, " at ");
  put_at(&b, c, v->failed->at);
  fprintf(out, "%s\n", sbuf_str(&b));
  sbuf_free(&b);
}

static void print_trace(FILE *out, const report_context *c, const mdl *m, const compose_result *r) {
  size_t w = mdl_width(m), who_width = 0, edge_width = 0;
  strbuf *edges = xcalloc(r->trace_steps + 1, sizeof *edges);
  for (size_t k = 0; k < r->trace_steps; k++) {
    put_at(&edges[k], c, mdl_step_at(m, &r->trace[k]));
    sbuf_puts(&edges[k], "  ");
    mdl_describe_step(m, &r->trace[k], &edges[k]);
    who_width = max_size(who_width, strlen(mdl_slot_at(m, (size_t)r->trace[k].slot)->name));
    edge_width = max_size(edge_width, edges[k].len);
  }
  size_t label = strlen("initial state"), who_columns = who_width ? who_width + 2 : 0;
  if (label > who_columns) edge_width = max_size(edge_width, label - who_columns); /* (a long name: no underflow) */
  fprintf(out, "counterexample, %zu step%s (shared values after each step; * marks a change):\n", r->trace_steps,
          r->trace_steps == 1 ? "" : "s");
  strbuf line = {0};
  for (size_t k = 0; k <= r->trace_steps; k++) {
    const int64_t *state = r->trace_states + k * w;
    if (k == 0)
      sbuf_printf(&line, "  %3d  %-*s  ", 0, (int)(who_width + (who_width ? 2 : 0) + edge_width), "initial state");
    else
      sbuf_printf(&line, "  %3zu  %-*s  %-*s  ", k, (int)who_width, mdl_slot_at(m, (size_t)r->trace[k - 1].slot)->name,
                  (int)edge_width, sbuf_str(&edges[k - 1]));
    shared_values(&line, m, state, k ? state - w : NULL);
    fprintf(out, "%s\n", sbuf_str(&line));
    sbuf_free(&line);
  }
  instance_states(&line, m, r->trace_states + r->trace_steps * w);
  fprintf(out, "  instances at the end: %s\n", sbuf_str(&line));
  sbuf_free(&line);
  for (size_t k = 0; k < r->trace_steps; k++) sbuf_free(&edges[k]);
  free(edges);
}

/* "Worker[1..3]" for each symmetry group, or "none applies". */
static void describe_symmetry(strbuf *b, const mdl *m, bool on) {
  size_t n;
  const mdl_group *g = mdl_groups(m, &n);
  if (!on) {
    sbuf_puts(b, "off");
    return;
  }
  if (n == 0) sbuf_puts(b, "on (no interchangeable instances)");
  for (size_t i = 0; i < n; i++) {
    const char *name = mdl_slot_at(m, (size_t)g[i].first)->name;
    sbuf_printf(b, "%s%.*s[1..%d]", i ? ", " : "on: ", (int)(strchr(name, '[') - name), name, g[i].count);
  }
  if (n) sbuf_puts(b, " interchangeable");
}

/* The explicit engine ran out of room on a model with an unbounded int, and
 * the symbolic engine needs no bound on the data: the hint, in b (false
 * when none applies). */
static bool symbolic_hint(const report_context *c, const mdl *m, const compose_result *r, strbuf *b) {
  if (!c->engine_hint || strcmp(c->engine, "explicit") != 0 || r->verdict != VERDICT_UNKNOWN || !r->out_of_room)
    return false;
  for (size_t i = 0; i < mdl_width(m); i++) {
    const mdl_slot *s = mdl_slot_at(m, i);
    if (s->bounded) continue;
    sbuf_printf(b, "try --engine symbolic (the data is unbounded: '%s' is an int without bounds)", s->name);
    return true;
  }
  return false;
}

/* The invariant one conjunct a line, each a spec expression (the lines can
 * be pasted as `invariant` lines of the system); as SMT-LIB when asked, and
 * when some part of it has no spec syntax. */
static void certificate_text(FILE *out, const report_context *c) {
  const smt_texts *t = c->certificate_spec;
  if (c->certificate_smt || !t) fprintf(out, "inductive invariant: %s\n", c->certificate);
  else if (t->len == 0)
    fprintf(out, "inductive invariant (SMT-LIB: part of it has no spec syntax): %s\n", c->certificate);
  else if (t->len == 1) fprintf(out, "inductive invariant: %s\n", t->items[0]);
  else {
    fprintf(out, "inductive invariant (one conjunct a line):\n");
    vec_foreach(t, i) fprintf(out, "  %s\n", t->items[i]);
  }
}

static json_t *texts_json(const smt_texts *t) {
  json_t *a = json_array();
  vec_foreach(t, i) json_array_append_new(a, json_string(t->items[i]));
  return a;
}

/* How the symbolic engine reached its verdict. */
static void symbolic_summary(FILE *out, const report_context *c, const compose_result *r) {
  if (r->verdict == VERDICT_SAFE)
    fprintf(out, "proved by Spacer (IC3/PDR); the inductive invariant passed three independent Z3 checks");
  else if (r->verdict == VERDICT_UNSAFE)
    fprintf(out, "shortest counterexample by bounded model checking, replayed on the model");
  else fprintf(out, "bounded model checking reached depth %u", r->depth);
  if (c->timing) fprintf(out, ", %.3f s", r->seconds);
  fputc('\n', out);
  if (c->certificate) certificate_text(out, c);
}

/* athread replay: the engine that wrote the trace, and what was checked. */
static void replay_summary(FILE *out, const report_context *c, const compose_result *r) {
  fprintf(out, "trace by engine %s (%s); replayed on the model: the initial state, %zu step%s and the violation\n",
          c->engine, c->engine_why, r->trace_steps, r->trace_steps == 1 ? "" : "s");
}

void report_text(FILE *out, const report_context *c, const mdl *m, const compose_result *r) {
  if (c->replay) fprintf(out, "replay of %s, checked step by step against %s\n", c->replay, c->spec->src->name);
  strbuf why = {0};
  if (r->verdict == VERDICT_UNSAFE) mdl_describe_violation(m, &r->violation, &why);
  if (r->verdict == VERDICT_UNKNOWN) sbuf_puts(&why, r->unknown_reason);
  fprintf(out, "system %s: %s%s%s\n", c->system, verdict_names[r->verdict], why.len ? ": " : "", sbuf_str(&why));
  if (r->verdict == VERDICT_UNSAFE) print_violated(out, c, &r->violation);
  if (r->verdict == VERDICT_UNSAFE) print_trace(out, c, m, r);
  if (c->replay) {
    replay_summary(out, c, r);
    sbuf_free(&why);
    return;
  }
  strbuf sym = {0};
  describe_symmetry(&sym, m, c->symmetry);
  /* whether the compiler was done in time depends on the machine, as times do */
  fprintf(out, "engine %s (%s), symmetry %s%s\n", c->engine, c->engine_why, sbuf_str(&sym),
          c->timing && r->compiled ? ", successors compiled to C" : "");
  sbuf_free(&sym);
  if (strcmp(c->engine, "symbolic") == 0) {
    symbolic_summary(out, c, r);
  } else {
    fprintf(out, "%" PRIu64 " state%s, %" PRIu64 " transition%s, depth %u", r->states, r->states == 1 ? "" : "s",
            r->transitions, r->transitions == 1 ? "" : "s", r->depth);
    if (c->timing) fprintf(out, ", %.3f s", r->seconds);
    if (c->timing && r->seconds >= MIN_RATE_SECONDS) fprintf(out, ", %.0f states/s", (double)r->states / r->seconds);
    if (r->states >= MIN_AVERAGE_STATES)
      fprintf(out, ", %zu bytes per state (%zu packed)", (r->memory_bytes + (size_t)r->states - 1) / (size_t)r->states,
              r->state_bytes);
    else fprintf(out, ", %zu byte%s per packed state", r->state_bytes, r->state_bytes == 1 ? "" : "s");
    fprintf(out, ", %.1f MiB\n", (double)r->memory_bytes / 1048576.0);
  }
  if (r->compile_failure[0]) fprintf(out, "note: the model's successors were interpreted: %s\n", r->compile_failure);
  if (r->states == 0 && strcmp(c->engine, "explicit") == 0)
    fprintf(out, "note: the system has no initial state: its init predicates are unsatisfiable\n");
  strbuf hint = {0};
  if (symbolic_hint(c, m, r, &hint)) fprintf(out, "note: %s\n", sbuf_str(&hint));
  sbuf_free(&hint);
  sbuf_free(&why);
}

/* What every verdict of the composition rests on (the same for each
 * engine: they search one system), by key as in the JSON report. */
static const char *const assumption_keys[] = {"atomicity", "scheduling"};
static const char *const assumption_texts[] = {
    "each edge of an abstract thread is one atomic step",
    "the instances interleave in any order (no fairness: a safety verdict needs none)"};

void report_assumptions(FILE *out) { fprintf(out, "assumptions: %s; %s\n", assumption_texts[0], assumption_texts[1]); }

static json_t *assumptions_json(void) {
  json_t *o = json_object();
  for (size_t i = 0; i < sizeof assumption_keys / sizeof *assumption_keys; i++)
    json_object_set_new(o, assumption_keys[i], json_string(assumption_texts[i]));
  json_object_set_new(o, "text", json_sprintf("%s; %s", assumption_texts[0], assumption_texts[1]));
  return o;
}

/* "verdict: VERDICT[ QUALIFIER][: WHY]" */
static void verdict_line(FILE *out, verdict v, const char *qualifier, const mdl *m, const compose_result *r,
                         const char *unknown_reason) {
  strbuf why = {0};
  if (v == VERDICT_UNSAFE) mdl_describe_violation(m, &r->violation, &why);
  if (v == VERDICT_UNKNOWN) sbuf_puts(&why, unknown_reason);
  fprintf(out, "verdict: %s%s%s%s\n", verdict_names[v], qualifier, why.len ? ": " : "", sbuf_str(&why));
  sbuf_free(&why);
}

void report_verdict(FILE *out, const mdl *m, const compose_result *r) {
  verdict_line(out, r->verdict, "", m, r, r->unknown_reason);
}

void report_forall_verdict(FILE *out, const report_forall *f, const mdl *m, const compose_result *r) {
  const forall_result *fr = f->result;
  char qualifier[160];
  if (fr->verdict == VERDICT_UNSAFE) snprintf(qualifier, sizeof qualifier, " for %s = %" PRId64, f->param, fr->n);
  else snprintf(qualifier, sizeof qualifier, " for every %.100s >= 1", f->param);
  verdict_line(out, fr->verdict, qualifier, m, r, fr->unknown_reason);
}

/* ---------------------------------------------------------------- JSON */

static json_t *value_json(const mdl *m, size_t slot, int64_t v) {
  const mdl_slot *s = mdl_slot_at(m, slot);
  if (s->is_bool) return json_boolean(v);
  if (s->kind == SLOT_SHARED) return json_integer(v);
  strbuf b = {0};
  mdl_describe_value(m, slot, v, &b);
  json_t *j = json_string(sbuf_str(&b));
  sbuf_free(&b);
  return j;
}

static json_t *state_json(const mdl *m, const int64_t *state) {
  json_t *shared = json_object(), *instances = json_object();
  for (size_t i = 0; i < mdl_width(m); i++)
    json_object_set_new(is_shared(m, i) ? shared : instances, mdl_slot_at(m, i)->name, value_json(m, i, state[i]));
  return json_pack("{s:o, s:o}", "shared", shared, "instances", instances);
}

/* {"file", "line", "column"} of a span of the spec. */
static json_t *location_json(const report_context *c, loc at) {
  size_t line, col;
  diag_line_col(c->spec->src, at.start, &line, &col);
  return json_pack("{s:o, s:I, s:I}", "file", json_text(c->spec->src->name), "line", (json_int_t)line, "column",
                   (json_int_t)col);
}

static json_t *step_json(const report_context *c, const mdl *m, const compose_result *r, size_t k) {
  size_t w = mdl_width(m);
  const int64_t *before = r->trace_states + k * w, *after = before + w;
  const mdl_step *st = &r->trace[k];
  strbuf edge = {0};
  mdl_describe_step(m, st, &edge);
  json_t *changed = json_array();
  for (size_t i = 0; i < w; i++)
    if (is_shared(m, i) && before[i] != after[i]) json_array_append_new(changed, json_string(mdl_slot_at(m, i)->name));
  const char *who = mdl_slot_at(m, (size_t)st->slot)->name;
  const char *bracket = strchr(who, '[');
  json_t *j = json_pack("{s:I, s:s, s:s#, s:o, s:o, s:i, s:s, s:o, s:o}", "step", (json_int_t)(k + 1), "instance", who,
                        "thread", who, (int)(bracket ? (size_t)(bracket - who) : strlen(who)), "from",
                        value_json(m, (size_t)st->slot, before[st->slot]), "to",
                        value_json(m, (size_t)st->slot, after[st->slot]), "edge", st->edge, "edge_text",
                        sbuf_str(&edge), "state", state_json(m, after), "changed", changed);
  json_object_set_new(j, "location", location_json(c, mdl_step_at(m, st)));
  sbuf_free(&edge);
  return j;
}

static json_t *trace_json(const report_context *c, const mdl *m, const compose_result *r) {
  json_t *steps = json_array();
  for (size_t k = 0; k < r->trace_steps; k++) json_array_append_new(steps, step_json(c, m, r, k));
  strbuf why = {0};
  mdl_describe_violation(m, &r->violation, &why);
  static const char *const kinds[] = {[MDL_OK] = "none",
                                      [MDL_ASSERTION] = "assertion",
                                      [MDL_INVARIANT] = "thread invariant",
                                      [MDL_PROPERTY] = "system invariant",
                                      [MDL_BOUNDS] = "index out of bounds",
                                      [MDL_CONFLICT] = "conflicting assignments"};
  strbuf expr = {0};
  if (r->violation.failed) ir_print(&expr, r->violation.failed);
  json_t *violation = json_pack("{s:s, s:s, s:s}", "kind", kinds[r->violation.kind], "expression", sbuf_str(&expr),
                                "message", sbuf_str(&why));
  if (r->violation.slot >= 0)
    json_object_set_new(violation, "instance", json_string(mdl_slot_at(m, (size_t)r->violation.slot)->name));
  strbuf id = {0};
  if (spec_property_id(c->spec, r->violation.failed, &id))
    json_object_set_new(violation, "property", json_string(sbuf_str(&id)));
  sbuf_free(&id);
  json_object_set_new(violation, "location", location_json(c, r->violation.failed->at));
  sbuf_free(&why);
  sbuf_free(&expr);
  return json_pack("{s:o, s:o, s:o}", "initial", state_json(m, r->trace_states), "steps", steps, "violation",
                   violation);
}

json_t *report_json(const report_context *c, const mdl *m, const compose_result *r) {
  json_t *stats = json_pack("{s:I, s:I, s:i, s:I, s:I, s:I}", "states", (json_int_t)r->states, "transitions",
                            (json_int_t)r->transitions, "depth", (int)r->depth, "bytes_per_state",
                            (json_int_t)(r->states ? r->memory_bytes / r->states : 0), "packed_bytes",
                            (json_int_t)r->state_bytes, "memory_bytes", (json_int_t)r->memory_bytes);
  if (c->timing) json_object_set_new(stats, "seconds", json_real(r->seconds));
  if (c->timing) json_object_set_new(stats, "compiled", json_boolean(r->compiled));
  json_t *j =
      json_pack("{s:s, s:o, s:s, s:s, s:s, s:b, s:s, s:o}", "command", "compose", "spec", json_text(c->spec_path),
                "system", c->system, "engine", c->engine, "engine_reason", c->engine_why, "symmetry", c->symmetry,
                "verdict", verdict_names[r->verdict], "statistics", stats);
  json_object_set_new(j, "assumptions", assumptions_json());
  if (r->verdict == VERDICT_UNKNOWN) json_object_set_new(j, "reason", json_string(r->unknown_reason));
  strbuf hint = {0};
  if (symbolic_hint(c, m, r, &hint)) json_object_set_new(j, "hint", json_string(sbuf_str(&hint)));
  sbuf_free(&hint);
  if (c->certificate) json_object_set_new(j, "certificate", json_string(c->certificate));
  if (c->certificate && c->certificate_spec && c->certificate_spec->len)
    json_object_set_new(j, "certificate_spec", texts_json(c->certificate_spec));
  if (r->verdict == VERDICT_UNSAFE) json_object_set_new(j, "trace", trace_json(c, m, r));
  return j;
}

/* ---------------------------------------------------------------- --for-all */

static void forall_lines(FILE *out, const report_forall *f) {
  const forall_result *fr = f->result;
  fprintf(out, "counter abstraction: one counter per state of %s", fr->counted);
  if (fr->explicit_instances[0]) fprintf(out, "; explicit: %s", fr->explicit_instances);
  fputc('\n', out);
  fprintf(out, "note: %s = %" PRId64 " %s is not used: %s every %s >= 1\n", f->param, f->ignored_value,
          f->ignored_from_set ? "from --set" : "in the spec",
          fr->verdict == VERDICT_SAFE ? "the proof covers" : "the search covers", f->param);
}

void report_forall_text(FILE *out, const report_context *c, const report_forall *f, const mdl *m,
                        const compose_result *r) {
  const forall_result *fr = f->result;
  char time[32] = "";
  if (c->timing) snprintf(time, sizeof time, ", %.3f s", fr->seconds);
  if (fr->verdict == VERDICT_SAFE) {
    fprintf(out, "system %s: safe for every %s >= 1 (for-all, counter abstraction, Spacer%s)\n", c->system, f->param,
            time);
    forall_lines(out, f);
    fprintf(out, "the inductive invariant over the counters passed three independent Z3 checks (%zu atoms)\n",
            fr->certificate_atoms);
    if (c->certificate) certificate_text(out, c);
    return;
  }
  if (fr->verdict == VERDICT_UNKNOWN) {
    fprintf(out, "system %s: unknown for %s >= 1: %s (for-all, counter abstraction%s)\n", c->system, f->param,
            fr->unknown_reason, time);
    forall_lines(out, f);
    return;
  }
  strbuf why = {0};
  mdl_describe_violation(m, &r->violation, &why);
  fprintf(out, "system %s: unsafe for %s = %" PRId64 ": %s\n", c->system, f->param, fr->n, sbuf_str(&why));
  sbuf_free(&why);
  print_violated(out, c, &r->violation);
  print_trace(out, c, m, r);
  fprintf(out,
          "found by bounded model checking of the counter system: depth %u, the smallest %s with a counterexample that "
          "short%s\n",
          fr->depth, f->param, time);
  forall_lines(out, f);
  strbuf sym = {0};
  describe_symmetry(&sym, m, f->concrete_symmetry);
  fprintf(out, "trace by engine %s with %s = %" PRId64 " (%s), symmetry %s\n", f->concrete_engine, f->param, fr->n,
          f->concrete_why, sbuf_str(&sym));
  sbuf_free(&sym);
}

json_t *report_forall_json(const report_context *c, const report_forall *f, const mdl *m, const compose_result *r) {
  const forall_result *fr = f->result;
  json_t *stats = json_pack("{s:i}", "depth", (int)fr->depth);
  if (c->timing) json_object_set_new(stats, "seconds", json_real(fr->seconds));
  json_t *fa = json_pack("{s:s, s:i, s:s, s:s, s:I, s:s}", "parameter", f->param, "lower_bound", 1, "counted",
                         fr->counted, "explicit", fr->explicit_instances, "ignored_value", (json_int_t)f->ignored_value,
                         "ignored_from", f->ignored_from_set ? "--set" : "spec");
  if (fr->verdict == VERDICT_SAFE)
    json_object_set_new(fa, "invariant_atoms", json_integer((json_int_t)fr->certificate_atoms));
  if (fr->verdict == VERDICT_UNSAFE) json_object_set_new(fa, "n", json_integer((json_int_t)fr->n));
  json_t *j =
      json_pack("{s:s, s:o, s:s, s:s, s:s, s:b, s:s, s:o, s:o}", "command", "compose", "spec", json_text(c->spec_path),
                "system", c->system, "engine", "for-all", "engine_reason", c->engine_why, "symmetry", 0, "verdict",
                verdict_names[fr->verdict], "for_all", fa, "statistics", stats);
  json_object_set_new(j, "assumptions", assumptions_json());
  if (fr->verdict == VERDICT_UNKNOWN) json_object_set_new(j, "reason", json_string(fr->unknown_reason));
  if (c->certificate && fr->verdict == VERDICT_SAFE) json_object_set_new(j, "certificate", json_string(c->certificate));
  if (c->certificate && fr->verdict == VERDICT_SAFE && c->certificate_spec && c->certificate_spec->len)
    json_object_set_new(j, "certificate_spec", texts_json(c->certificate_spec));
  if (fr->verdict != VERDICT_UNSAFE) return j;
  json_object_set_new(j, "trace", trace_json(c, m, r));
  json_t *concrete = report_json(&(report_context){.spec = c->spec,
                                                   .spec_path = c->spec_path,
                                                   .system = c->system,
                                                   .engine = f->concrete_engine,
                                                   .engine_why = f->concrete_why,
                                                   .symmetry = f->concrete_symmetry,
                                                   .timing = c->timing},
                                 m, r);
  json_object_del(concrete, "trace");
  json_object_set_new(j, "concrete", concrete);
  return j;
}
