/* viz/viz-trace.c -- reading a counterexample for the overlay, and checking
 * that it fits the spec. One reader per file format: the JSON that `athread
 * compose --trace-out` writes is the only one so far; a conformance trace
 * gets a reader of its own beside read_compose_trace, chosen by the file's
 * "command". Every failure is "path: error: what" and nothing is drawn.
 */
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../spec-lang/spec.h"
#include "viz-impl.h"

/* The most instances a trace may have (compose handles far fewer). */
#define MAX_TRACE_INSTANCES 100000

typedef struct reader {
  diag_sink *sink;       /* borrowed */
  const char *path;      /* the trace file, for messages */
  const ast_spec *spec;  /* borrowed */
  viz_trace *t;          /* being filled */
  int *state;            /* per instance (tid - 1): its current state, -1 before the initial state */
  size_t step;           /* 1-based number of the step being read, 0 outside the steps */
} reader;

/* ---------------------------------------------------------------- messages */

/* Reports "path: error: [step N: ]what"; returns false. */
static bool fail(reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool fail(reader *r, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (r->step) diag_error_at(r->sink, r->path, "step %zu: %s", r->step, msg);
  else diag_error_at(r->sink, r->path, "%s", msg);
  return false;
}

/* The member key of obj if it is a string, else NULL after a report. */
static const char *string_member(reader *r, json_t *obj, const char *key, const char *where) {
  const char *s = json_string_value(json_object_get(obj, key));
  if (!s) fail(r, "%s has no string \"%s\"", where, key);
  return s;
}

static json_t *object_member(reader *r, json_t *obj, const char *key, const char *where) {
  json_t *m = json_object_get(obj, key);
  if (!json_is_object(m)) {
    fail(r, "%s has no object \"%s\"", where, key);
    return NULL;
  }
  return m;
}

/* ---------------------------------------------------------------- instances */

/* The tid - 1 of an instance name as compose writes it ("T" for a thread
 * with one instance, "T[k]" otherwise), or -1. Sets *thread. */
static int64_t find_instance(const ast_spec *spec, const char *name, const ast_thread **thread) {
  const char *bracket = strchr(name, '[');
  size_t n = bracket ? (size_t)(bracket - name) : strlen(name);
  vec_foreach(&spec->instances, i) {
    const ast_instance *in = spec->instances.items[i];
    if (strlen(in->thread) != n || strncmp(in->thread, name, n) != 0) continue;
    char *end = NULL;
    int64_t k = bracket ? strtoll(bracket + 1, &end, 10) : 1;
    bool well_formed = bracket ? end != bracket + 1 && strcmp(end, "]") == 0 && in->count_value > 1 : in->count_value == 1;
    if (!well_formed || k < 1 || k > in->count_value) return -1;
    *thread = spec->threads.items[in->thread_index];
    return in->first_tid - 1 + k - 1;
  }
  return -1;
}

static int64_t instance_or_fail(reader *r, const char *name, const ast_thread **thread) {
  int64_t slot = find_instance(r->spec, name, thread);
  if (slot < 0) fail(r, "'%s' is not an instance of the system (was the trace written for another spec, or with other --set values?)", name);
  return slot;
}

/* Reads "instances": {"T[k]": "State", ...} of the initial state. */
static bool read_instances(reader *r, json_t *instances) {
  const char *name;
  json_t *value;
  json_object_foreach(instances, name, value) {
    const ast_thread *t = NULL;
    int64_t slot = instance_or_fail(r, name, &t);
    if (slot < 0) return false;
    const ast_state *s = json_is_string(value) ? spec_find_state(t, json_string_value(value)) : NULL;
    if (!s) return fail(r, "the initial state of %s is not a state of thread %s", name, t->name);
    if (!s->initial) return fail(r, "%s starts in %s, which is not an init state of %s", name, s->name, t->name);
    r->state[slot] = s->index;
  }
  for (int64_t k = 0; k < r->spec->instance_total; k++)
    if (r->state[k] < 0) return fail(r, "the initial state does not say where every instance is");
  return true;
}

/* ---------------------------------------------------------------- shared values */

static const char *value_text(reader *r, const ast_shared *v, json_t *j) {
  if (v->type.kind == TYPE_BOOL && json_is_boolean(j)) return json_is_true(j) ? "true" : "false";
  if (v->type.kind == TYPE_BOOL || !json_is_integer(j)) {
    fail(r, "the value of '%s' is not %s", v->name, v->type.kind == TYPE_BOOL ? "a bool" : "an integer");
    return NULL;
  }
  json_int_t x = json_integer_value(j);
  if (v->type.kind == TYPE_RANGE && (x < v->type.lo_value || x > v->type.hi_value)) {
    fail(r, "the value %" JSON_INTEGER_FORMAT " of '%s' is outside its range %" PRId64 "..%" PRId64, x, v->name, v->type.lo_value,
         v->type.hi_value);
    return NULL;
  }
  return arena_printf(r->t->arena, "%" JSON_INTEGER_FORMAT, x);
}

/* Reads "shared": {"x": 1, ...} into one text per shared variable. */
static const char **read_shared(reader *r, json_t *shared) {
  const ast_spec *spec = r->spec;
  const char **values = arena_alloc(r->t->arena, (spec->shared.len + 1) * sizeof *values);
  const char *name;
  json_t *value;
  json_object_foreach(shared, name, value) {
    size_t i = 0;
    while (i < spec->shared.len && strcmp(spec->shared.items[i]->name, name) != 0) i++;
    if (i == spec->shared.len) {
      fail(r, "'%s' is not a shared variable of the spec", name);
      return NULL;
    }
    if (!(values[i] = value_text(r, spec->shared.items[i], value))) return NULL;
  }
  vec_foreach(&spec->shared, i) {
    if (values[i]) continue;
    fail(r, "the state has no value for '%s'", spec->shared.items[i]->name);
    return NULL;
  }
  return values;
}

/* "x=1, y=true" for the variables whose value differs. */
static const char *changes(const ast_spec *spec, arena *a, const char **before, const char **after) {
  strbuf b = {0};
  vec_foreach(&spec->shared, i)
    if (strcmp(before[i], after[i]) != 0) sbuf_printf(&b, "%s%s=%s", b.len ? ", " : "", spec->shared.items[i]->name, after[i]);
  const char *s = arena_strndup(a, sbuf_str(&b), b.len);
  sbuf_free(&b);
  return s;
}

/* ---------------------------------------------------------------- steps */

/* The edge a step names: its thread's, starting where the instance is. */
static bool check_edge(reader *r, json_t *step, const ast_thread *t, int64_t slot, json_int_t edge) {
  const char *instance = json_string_value(json_object_get(step, "instance"));
  if (edge < 0 || (size_t)edge >= t->edges.len)
    return fail(r, "thread %s has no edge %" JSON_INTEGER_FORMAT " (it has %zu, numbered from 0)", t->name, edge, t->edges.len);
  const ast_edge *e = t->edges.items[edge];
  const char *from = string_member(r, step, "from", "the step"), *to = from ? string_member(r, step, "to", "the step") : NULL;
  if (!to) return false;
  if (strcmp(from, e->from) != 0 || strcmp(to, e->to) != 0)
    return fail(r, "edge %" JSON_INTEGER_FORMAT " of %s goes from %s to %s, not from %s to %s", edge, t->name, e->from, e->to, from, to);
  if (r->state[slot] != e->from_index)
    return fail(r, "%s is in state %s, so it cannot take edge %s -> %s", instance, t->states.items[r->state[slot]]->name, e->from, e->to);
  r->state[slot] = e->to_index;
  return true;
}

static bool read_step(reader *r, json_t *step, const char ***values) {
  if (!json_is_object(step)) return fail(r, "the step is not an object");
  const char *instance = string_member(r, step, "instance", "the step");
  const char *thread = instance ? string_member(r, step, "thread", "the step") : NULL;
  json_t *edge = json_object_get(step, "edge"), *state = thread ? object_member(r, step, "state", "the step") : NULL;
  json_t *shared = state ? object_member(r, state, "shared", "the step's state") : NULL;
  if (!shared) return false;
  const ast_thread *t = NULL;
  int64_t slot = instance_or_fail(r, instance, &t);
  if (slot < 0) return false;
  if (strcmp(t->name, thread) != 0) return fail(r, "%s is an instance of %s, not of '%s'", instance, t->name, thread);
  if (!json_is_integer(edge)) return fail(r, "the step has no integer \"edge\"");
  if (!check_edge(r, step, t, slot, json_integer_value(edge))) return false;
  const char **after = read_shared(r, shared);
  if (!after) return false;
  viz_step s = {.thread = t->index, .edge = (int)json_integer_value(edge),
                .instance = arena_intern_cstr(r->t->arena, instance), .changes = changes(r->spec, r->t->arena, *values, after)};
  vec_push(r->t->arena, &r->t->steps, s);
  *values = after;
  return true;
}

static bool read_steps(reader *r, json_t *steps) {
  if (!json_is_array(steps)) return fail(r, "the trace has no array \"steps\"");
  const char **values = r->t->initial;
  for (size_t k = 0; k < json_array_size(steps); k++) {
    r->step = k + 1;
    if (!read_step(r, json_array_get(steps, k), &values)) return false;
  }
  r->step = 0;
  r->t->final = values;
  return true;
}

/* ---------------------------------------------------------------- places and violation */

/* Where every instance is: its name, thread and r->state. */
static void add_places(reader *r, bool end) {
  vec_foreach(&r->spec->instances, i) {
    const ast_instance *in = r->spec->instances.items[i];
    for (int64_t k = 0; k < in->count_value; k++) {
      const char *name = in->count_value == 1 ? in->thread : arena_printf(r->t->arena, "%s[%" PRId64 "]", in->thread, k + 1);
      viz_place p = {.instance = name, .thread = in->thread_index, .state = r->state[in->first_tid - 1 + k]};
      vec_push(r->t->arena, end ? &r->t->end : &r->t->start, p);
    }
  }
}

static bool read_violation(reader *r, json_t *v) {
  const char *message = string_member(r, v, "message", "the violation");
  const char *expression = message ? string_member(r, v, "expression", "the violation") : NULL;
  if (!expression) return false;
  r->t->message = arena_intern_cstr(r->t->arena, message);
  r->t->expression = arena_intern_cstr(r->t->arena, expression);
  r->t->bad = -1;
  json_t *who = json_object_get(v, "instance");
  if (!who) return true;
  const ast_thread *t = NULL;
  int64_t slot = json_is_string(who) ? instance_or_fail(r, json_string_value(who), &t) : -1;
  if (slot < 0) return json_is_string(who) ? false : fail(r, "the violation's \"instance\" is not a string");
  r->t->bad = (int)slot;
  return true;
}

/* ---------------------------------------------------------------- compose traces */

/* The JSON of `athread compose --trace-out`: "verdict": "unsafe" and a
 * "trace" with "initial", "steps" and "violation". */
static bool read_compose_trace(reader *r, json_t *root) {
  const char *verdict = json_string_value(json_object_get(root, "verdict"));
  if (verdict && strcmp(verdict, "unsafe") != 0) return fail(r, "the verdict is %s: there is no counterexample to draw", verdict);
  json_t *trace = object_member(r, root, "trace", "the file");
  json_t *initial = trace ? object_member(r, trace, "initial", "the trace") : NULL;
  json_t *shared = initial ? object_member(r, initial, "shared", "the initial state") : NULL;
  json_t *instances = shared ? object_member(r, initial, "instances", "the initial state") : NULL;
  json_t *violation = instances ? object_member(r, trace, "violation", "the trace") : NULL;
  if (!violation || !read_instances(r, instances) || !(r->t->initial = read_shared(r, shared))) return false;
  add_places(r, false);
  if (!read_steps(r, json_object_get(trace, "steps"))) return false;
  add_places(r, true);
  return read_violation(r, violation);
}

/* ---------------------------------------------------------------- entry */

static json_t *load_json(reader *r) {
  FILE *f = fopen(r->path, "rb");
  if (!f) {
    fail(r, "cannot open file: %s", strerror(errno));
    return NULL;
  }
  json_error_t err;
  json_t *root = json_loadf(f, JSON_REJECT_DUPLICATES, &err);
  fclose(f);
  if (!root) {
    fail(r, "not valid JSON (line %d, column %d): %s", err.line, err.column, err.text);
    return NULL;
  }
  if (json_is_object(root)) return root;
  fail(r, "not a trace: the JSON is not an object");
  json_decref(root);
  return NULL;
}

viz_trace *viz_trace_load(diag_sink *sink, const char *file, const ast_spec *spec) {
  reader r = {.sink = sink, .path = file, .spec = spec};
  if (spec->instance_total > MAX_TRACE_INSTANCES) {
    fail(&r, "the system has %" PRId64 " instances; traces of more than %d are not drawn", spec->instance_total, MAX_TRACE_INSTANCES);
    return NULL;
  }
  json_t *root = load_json(&r);
  if (!root) return NULL;
  arena *a = arena_new();
  r.t = arena_alloc(a, sizeof *r.t);
  r.t->arena = a;
  r.state = xmalloc(((size_t)spec->instance_total + 1) * sizeof *r.state);
  for (int64_t k = 0; k < spec->instance_total; k++) r.state[k] = -1;
  const char *command = json_string_value(json_object_get(root, "command"));
  bool ok = command && strcmp(command, "compose") == 0
              ? read_compose_trace(&r, root)
              : fail(&r, "not a counterexample written by 'athread compose --trace-out' (no \"command\": \"compose\")");
  json_decref(root);
  free(r.state);
  if (ok) return r.t;
  arena_free(a);
  return NULL;
}

void viz_trace_free(viz_trace *t) {
  if (t) arena_free(t->arena);
}
