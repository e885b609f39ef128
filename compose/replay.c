/* compose/replay.c -- reading a compose counterexample (docs/json.md: its
 * "trace" member) into model states and re-checking it on the model. The
 * reader works on the model's slots (not the spec's declarations, as viz's
 * does), so the states it builds are the ones mdl_step_holds and mdl_check
 * take. Every failure is "name: error: [step K: ]why" and nothing else. */
#include "replay.h"

#include <inttypes.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/arena.h"
#include "../core/strbuf.h"

typedef struct replayer {
  diag_sink *sink;      /* borrowed */
  const char *name;     /* the trace file, for messages */
  const ast_spec *spec; /* borrowed */
  const mdl *m;         /* borrowed: the spec's model */
  size_t step;          /* 1-based number of the step being checked, 0 before the steps */
} replayer;

#define ANOTHER_SPEC "(was the trace written for another spec, or with other --set values?)"

/* ---------------------------------------------------------------- messages */

/* Reports "name: error: [step K: ]what"; returns false. */
static bool fail(replayer *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool fail(replayer *p, const char *fmt, ...) {
  char context[32] = "";
  if (p->step) snprintf(context, sizeof context, "step %zu: ", p->step);
  va_list ap;
  va_start(ap, fmt);
  diag_error_atv(p->sink, p->name, context, fmt, ap);
  va_end(ap);
  return false;
}

static json_t *object_member(replayer *p, json_t *obj, const char *key, const char *where) {
  json_t *m = json_object_get(obj, key);
  if (!json_is_object(m)) fail(p, "%s has no object \"%s\"", where, key);
  return json_is_object(m) ? m : NULL;
}

/* The thread an instance slot runs. */
static const ast_thread *thread_of(const replayer *p, size_t slot) {
  return p->spec->threads.items[mdl_slot_at(p->m, slot)->thread];
}

static const char *slot_name(const replayer *p, size_t slot) { return mdl_slot_at(p->m, slot)->name; }

/* ---------------------------------------------------------------- states */

/* The slot of kind called name, or -1. */
static int find_slot(const mdl *m, const char *name, mdl_slot_kind kind) {
  for (size_t i = 0; i < mdl_width(m); i++)
    if (mdl_slot_at(m, i)->kind == kind && strcmp(mdl_slot_at(m, i)->name, name) == 0) return (int)i;
  return -1;
}

/* A shared variable's value: a bool, or an integer within its range. */
static bool shared_value(replayer *p, size_t slot, json_t *j, int64_t *out) {
  const mdl_slot *s = mdl_slot_at(p->m, slot);
  if (s->is_bool ? !json_is_boolean(j) : !json_is_integer(j))
    return fail(p, "the value of '%s' is not %s", s->name, s->is_bool ? "a bool" : "an integer");
  *out = s->is_bool ? json_is_true(j) : (int64_t)json_integer_value(j);
  if (s->bounded && (*out < s->lo || *out > s->hi))
    return fail(p, "the value %" PRId64 " of '%s' is outside its range %" PRId64 "..%" PRId64, *out, s->name, s->lo,
                s->hi);
  return true;
}

/* An instance's control state: the name of a state of its thread. */
static bool instance_value(replayer *p, size_t slot, json_t *j, int64_t *out) {
  const ast_thread *t = thread_of(p, slot);
  const ast_state *s = json_is_string(j) ? ast_find_state(t, json_string_value(j)) : NULL;
  if (!s) return fail(p, "the state of %s is not a state of thread %s", slot_name(p, slot), t->name);
  *out = s->index;
  return true;
}

/* Reads the members of values (the slots of one kind) into state, marking
 * each slot read in seen. */
static bool read_slots(replayer *p, json_t *values, mdl_slot_kind kind, int64_t *state, bool *seen) {
  const char *name;
  json_t *value;
  json_object_foreach(values, name, value) {
    int slot = find_slot(p->m, name, kind);
    if (slot < 0)
      return fail(p, "'%s' is not %s " ANOTHER_SPEC, name,
                  kind == SLOT_SHARED ? "a shared variable of the spec" : "an instance of the system");
    bool ok = kind == SLOT_SHARED ? shared_value(p, (size_t)slot, value, &state[slot])
                                  : instance_value(p, (size_t)slot, value, &state[slot]);
    if (!ok) return false;
    seen[slot] = true;
  }
  return true;
}

/* Reads {"shared": {...}, "instances": {...}} into state (every slot). */
static bool read_state(replayer *p, json_t *j, const char *where, int64_t *state) {
  json_t *shared = object_member(p, j, "shared", where);
  json_t *instances = shared ? object_member(p, j, "instances", where) : NULL;
  if (!instances) return false;
  size_t w = mdl_width(p->m);
  bool *seen = xcalloc(w + 1, sizeof *seen);
  bool ok = read_slots(p, shared, SLOT_SHARED, state, seen) && read_slots(p, instances, SLOT_INSTANCE, state, seen);
  for (size_t i = 0; ok && i < w; i++)
    if (!seen[i])
      ok = fail(p, "%s has no value for %s '%s' " ANOTHER_SPEC, where,
                mdl_slot_at(p->m, i)->kind == SLOT_SHARED ? "shared variable" : "instance", slot_name(p, i));
  free(seen);
  return ok;
}

/* "x=1, lock=true": the shared values of state (where it differs from
 * before, when before is given), or "no shared variable changes". */
static void shared_text(const replayer *p, const int64_t *state, const int64_t *before, strbuf *b) {
  size_t start = b->len;
  for (size_t i = 0; i < mdl_width(p->m); i++) {
    if (mdl_slot_at(p->m, i)->kind != SLOT_SHARED || (before && before[i] == state[i])) continue;
    sbuf_printf(b, "%s%s=", b->len > start ? ", " : "", slot_name(p, i));
    mdl_describe_value(p->m, i, state[i], b);
  }
  if (b->len == start) sbuf_puts(b, before ? "no shared variable changes" : "no shared variables");
}

/* ---------------------------------------------------------------- the initial state */

static bool check_initial(replayer *p, const int64_t *state) {
  for (size_t i = 0; i < mdl_width(p->m); i++) {
    if (mdl_slot_at(p->m, i)->kind != SLOT_INSTANCE) continue;
    const ast_thread *t = thread_of(p, i);
    const ast_state *s = t->states.items[state[i]];
    if (!s->initial) return fail(p, "%s starts in %s, which is not an init state of %s", slot_name(p, i), s->name, t->name);
  }
  if (mdl_initial_holds(p->m, state)) return true;
  strbuf b = {0};
  shared_text(p, state, NULL, &b);
  fail(p, "the initial state is not one the spec allows: its initial values and init predicates do not hold for %s",
       sbuf_str(&b));
  sbuf_free(&b);
  return false;
}

/* ---------------------------------------------------------------- steps */

/* Reads a step's instance and edge into st. */
static bool read_move(replayer *p, json_t *j, mdl_step *st) {
  const char *who = json_string_value(json_object_get(j, "instance"));
  if (!who) return fail(p, "the step has no string \"instance\"");
  st->slot = find_slot(p->m, who, SLOT_INSTANCE);
  if (st->slot < 0) return fail(p, "'%s' is not an instance of the system " ANOTHER_SPEC, who);
  json_t *edge = json_object_get(j, "edge");
  if (!json_is_integer(edge)) return fail(p, "the step has no integer \"edge\"");
  const ast_thread *t = thread_of(p, (size_t)st->slot);
  json_int_t e = json_integer_value(edge);
  if (e < 0 || (size_t)e >= t->edges.len)
    return fail(p, "thread %s has no edge %" JSON_INTEGER_FORMAT " (it has %zu, numbered from 0)", t->name, e,
                t->edges.len);
  st->edge = (int)e;
  return true;
}

/* "edge 2 (Idle -> Crit "enter")" */
static void edge_text(const replayer *p, const mdl_step *st, strbuf *b) {
  sbuf_printf(b, "edge %d (", st->edge);
  mdl_describe_step(p->m, st, b);
  sbuf_putc(b, ')');
}

/* The control states: the instance starts where the edge does, ends where
 * it ends, and no other instance moves. */
static bool check_control(replayer *p, const mdl_step *st, const int64_t *before, const int64_t *after) {
  const ast_thread *t = thread_of(p, (size_t)st->slot);
  const ast_edge *e = t->edges.items[st->edge];
  const char *who = slot_name(p, (size_t)st->slot);
  strbuf b = {0};
  edge_text(p, st, &b);
  bool ok = false;
  if (before[st->slot] != e->from_index)
    fail(p, "%s is in state %s, so it cannot take %s", who, t->states.items[before[st->slot]]->name, sbuf_str(&b));
  else if (after[st->slot] != e->to_index)
    fail(p, "%s takes %s to %s, but the state after the step has it in %s", who, sbuf_str(&b), e->to,
         t->states.items[after[st->slot]]->name);
  else ok = true;
  sbuf_free(&b);
  for (size_t i = 0; ok && i < mdl_width(p->m); i++)
    if (mdl_slot_at(p->m, i)->kind == SLOT_INSTANCE && (int)i != st->slot && before[i] != after[i])
      ok = fail(p, "%s moves from %s to %s, but the step is %s's", slot_name(p, i),
                thread_of(p, i)->states.items[before[i]]->name, thread_of(p, i)->states.items[after[i]]->name, who);
  return ok;
}

/* The edge's guard and relation: the model says whether they allow the step. */
static bool check_values(replayer *p, const mdl_step *st, const int64_t *before, const int64_t *after) {
  if (mdl_step_holds(p->m, before, st, after)) return true;
  strbuf edge = {0}, changes = {0};
  edge_text(p, st, &edge);
  shared_text(p, after, before, &changes);
  fail(p, "%s of %s does not allow this step: its guard is false in the state before it, or it cannot give the "
          "values after it (%s)",
       sbuf_str(&edge), thread_of(p, (size_t)st->slot)->name, sbuf_str(&changes));
  sbuf_free(&edge);
  sbuf_free(&changes);
  return false;
}

static bool check_step(replayer *p, json_t *j, const int64_t *before, mdl_step *st, int64_t *after) {
  if (!json_is_object(j)) return fail(p, "the step is not an object");
  json_t *state = object_member(p, j, "state", "the step");
  return state && read_move(p, j, st) && read_state(p, state, "the step's state", after) &&
         check_control(p, st, before, after) && check_values(p, st, before, after);
}

static bool check_steps(replayer *p, json_t *steps, compose_result *r) {
  size_t w = mdl_width(p->m);
  for (size_t k = 0; k < r->trace_steps; k++) {
    p->step = k + 1;
    int64_t *before = r->trace_states + k * w;
    if (!check_step(p, json_array_get(steps, k), before, &r->trace[k], before + w)) return false;
  }
  return true;
}

/* ---------------------------------------------------------------- the violation */

/* The last state goes wrong, and for the reason the trace gives. */
static bool check_violation(replayer *p, json_t *claimed, compose_result *r) {
  const char *message = json_string_value(json_object_get(claimed, "message"));
  if (!message) return fail(p, "the violation has no string \"message\"");
  mdl_fault fault = MDL_FAULT_NONE;
  const int64_t *last = r->trace_states + r->trace_steps * mdl_width(p->m);
  bool holds = mdl_check(p->m, last, &r->violation, &fault);
  if (fault != MDL_FAULT_NONE) return fail(p, "checking the last state overflows 64-bit arithmetic");
  if (holds)
    return fail(p, "the last state does not go wrong: every assertion, invariant and property of the spec holds "
                   "there (the trace claims: %s)",
                message);
  strbuf why = {0};
  mdl_describe_violation(p->m, &r->violation, &why);
  bool same = strcmp(sbuf_str(&why), message) == 0;
  if (!same) fail(p, "the last state goes wrong, but not as the trace claims: %s (the trace claims: %s)", sbuf_str(&why), message);
  sbuf_free(&why);
  return same;
}

/* ---------------------------------------------------------------- the file */

/* The report's members around the trace: a compose report of this system
 * whose verdict is unsafe. Copies its engine into out. */
static bool check_header(replayer *p, json_t *root, compose_replayed *out) {
  const char *command = json_string_value(json_object_get(root, "command"));
  if (!command || strcmp(command, "compose") != 0)
    return fail(p, "not a counterexample written by 'athread compose --trace-out' or 'compose --json' (no "
                   "\"command\": \"compose\")");
  const char *claimed = json_string_value(json_object_get(root, "verdict"));
  if (!claimed || strcmp(claimed, "unsafe") != 0)
    return fail(p, "the verdict is %s: there is no counterexample to replay", claimed ? claimed : "missing");
  const char *system = json_string_value(json_object_get(root, "system"));
  const char *ours = p->spec->system ? p->spec->system->name : "(one instance of each thread)";
  if (system && strcmp(system, ours) != 0)
    return fail(p, "the trace is of system %s, but the spec's is %s (was the trace written for another spec?)", system,
                ours);
  const char *engine = json_string_value(json_object_get(root, "engine"));
  const char *why = json_string_value(json_object_get(root, "engine_reason"));
  snprintf(out->engine, sizeof out->engine, "%s", engine ? engine : "unknown");
  snprintf(out->engine_why, sizeof out->engine_why, "%s", why ? why : "no reason given");
  return true;
}

static bool replay_trace(replayer *p, json_t *trace, compose_result *r) {
  json_t *initial = object_member(p, trace, "initial", "the trace");
  json_t *violation = initial ? object_member(p, trace, "violation", "the trace") : NULL;
  json_t *steps = json_object_get(trace, "steps");
  if (!violation) return false;
  if (!json_is_array(steps)) return fail(p, "the trace has no array \"steps\"");
  size_t w = mdl_width(p->m);
  r->trace_steps = json_array_size(steps);
  r->trace = xcalloc(r->trace_steps + 1, sizeof *r->trace);
  r->trace_states = xcalloc((r->trace_steps + 1) * w + 1, sizeof *r->trace_states);
  return read_state(p, initial, "the initial state", r->trace_states) && check_initial(p, r->trace_states) &&
         check_steps(p, steps, r) && check_violation(p, violation, r);
}

bool compose_replay(diag_sink *sink, const char *name, const char *text, size_t len, const ast_spec *spec,
                    const mdl *m, compose_replayed *out) {
  replayer p = {.sink = sink, .name = name, .spec = spec, .m = m};
  memset(out, 0, sizeof *out);
  json_error_t err;
  json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &err);
  bool ok = root != NULL;
  if (len == 0) fail(&p, "the file is empty: there is no counterexample to replay");
  else if (!root) fail(&p, "not valid JSON (line %d, column %d): %s", err.line, err.column, err.text);
  else if (!json_is_object(root)) ok = fail(&p, "not a trace: the JSON is not an object");
  json_t *trace = ok && check_header(&p, root, out) ? object_member(&p, root, "trace", "the file") : NULL;
  ok = trace && replay_trace(&p, trace, &out->r);
  out->r.verdict = VERDICT_UNSAFE;
  json_decref(root);
  if (!ok) compose_result_free(&out->r);
  return ok;
}
