/* viz/viz-trace.c -- reading a counterexample for the overlay, and checking
 * that it fits the spec. One reader per file format, chosen by the file's
 * "command": read_compose_trace for the JSON of `athread compose
 * --trace-out` (a run of the system), read_conform_trace for the JSON of
 * `athread conform --json` (the concrete steps of one thread, with the set F
 * of candidate abstract states after each). Every failure is "path: error:
 * what" and nothing is drawn.
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
  diag_sink *sink;      /* borrowed */
  const char *path;     /* the trace file, for messages */
  const ast_spec *spec; /* borrowed */
  viz_trace *t;         /* being filled */
  int *state;           /* per instance (tid - 1): its current state, -1 before the initial state */
  size_t step;          /* 1-based number of the step being read, 0 outside the steps */
  const char *thread;   /* the thread whose conformance counterexample is being read, or NULL */
} reader;

/* ---------------------------------------------------------------- messages */

/* Reports "path: error: [step N: ]what"; returns false. */
static bool fail(reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool fail(reader *r, const char *fmt, ...) {
  char context[160] = "";
  if (r->thread && r->step) snprintf(context, sizeof context, "thread %s, step %zu: ", r->thread, r->step);
  else if (r->thread) snprintf(context, sizeof context, "thread %s: ", r->thread);
  else if (r->step) snprintf(context, sizeof context, "step %zu: ", r->step);
  va_list ap;
  va_start(ap, fmt);
  diag_error_atv(r->sink, r->path, context, fmt, ap);
  va_end(ap);
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
    bool well_formed =
        bracket ? end != bracket + 1 && strcmp(end, "]") == 0 && in->count_value > 1 : in->count_value == 1;
    if (!well_formed || k < 1 || k > in->count_value) return -1;
    *thread = spec->threads.items[in->thread_index];
    return in->first_tid - 1 + k - 1;
  }
  return -1;
}

static int64_t instance_or_fail(reader *r, const char *name, const ast_thread **thread) {
  int64_t slot = find_instance(r->spec, name, thread);
  if (slot < 0)
    fail(r,
         "'%s' is not an instance of the system (was the trace written for another spec, or with other --set values?)",
         name);
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
    const ast_state *s = json_is_string(value) ? ast_find_state(t, json_string_value(value)) : NULL;
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
    fail(r, "the value %" JSON_INTEGER_FORMAT " of '%s' is outside its range %" PRId64 "..%" PRId64, x, v->name,
         v->type.lo_value, v->type.hi_value);
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
    if (strcmp(before[i], after[i]) != 0)
      sbuf_printf(&b, "%s%s=%s", b.len ? ", " : "", spec->shared.items[i]->name, after[i]);
  const char *s = arena_strndup(a, sbuf_str(&b), b.len);
  sbuf_free(&b);
  return s;
}

/* ---------------------------------------------------------------- steps */

/* The edge a step names: its thread's, starting where the instance is. */
static bool check_edge(reader *r, json_t *step, const ast_thread *t, int64_t slot, json_int_t edge) {
  const char *instance = json_string_value(json_object_get(step, "instance"));
  if (edge < 0 || (size_t)edge >= t->edges.len)
    return fail(r, "thread %s has no edge %" JSON_INTEGER_FORMAT " (it has %zu, numbered from 0)", t->name, edge,
                t->edges.len);
  const ast_edge *e = t->edges.items[edge];
  const char *from = string_member(r, step, "from", "the step"),
             *to = from ? string_member(r, step, "to", "the step") : NULL;
  if (!to) return false;
  if (strcmp(from, e->from) != 0 || strcmp(to, e->to) != 0)
    return fail(r, "edge %" JSON_INTEGER_FORMAT " of %s goes from %s to %s, not from %s to %s", edge, t->name, e->from,
                e->to, from, to);
  if (r->state[slot] != e->from_index)
    return fail(r, "%s is in state %s, so it cannot take edge %s -> %s", instance,
                t->states.items[r->state[slot]]->name, e->from, e->to);
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
  viz_step s = {.thread = t->index,
                .edge = (int)json_integer_value(edge),
                .instance = arena_intern_cstr(r->t->arena, instance),
                .changes = changes(r->spec, r->t->arena, *values, after)};
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
      const char *name =
          in->count_value == 1 ? in->thread : arena_printf(r->t->arena, "%s[%" PRId64 "]", in->thread, k + 1);
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
  if (verdict && strcmp(verdict, "unsafe") != 0)
    return fail(r, "the verdict is %s: there is no counterexample to draw", verdict);
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

/* ---------------------------------------------------------------- conformance traces */

/* Reads an array of state names of t into "{X1, X2}", marking each in in
 * (per state). Returns NULL after a report. */
static const char *read_candidates(reader *r, json_t *names, const ast_thread *t, bool *in, const char *what) {
  if (!json_is_array(names)) {
    fail(r, "%s is not an array of state names", what);
    return NULL;
  }
  strbuf b = {0};
  sbuf_putc(&b, '{');
  size_t k;
  json_t *name;
  json_array_foreach(names, k, name) {
    const ast_state *s = json_is_string(name) ? ast_find_state(t, json_string_value(name)) : NULL;
    if (!s) {
      if (json_is_string(name))
        fail(r, "'%s' in %s is not a state of thread %s", json_string_value(name), what, t->name);
      else fail(r, "%s is not an array of state names", what);
      sbuf_free(&b);
      return NULL;
    }
    in[s->index] = true;
    sbuf_printf(&b, "%s%s", k ? ", " : "", s->name);
  }
  sbuf_putc(&b, '}');
  const char *text = arena_strndup(r->t->arena, sbuf_str(&b), b.len);
  sbuf_free(&b);
  return text;
}

/* The text of a value as conform writes it (an integer, or a bool), or NULL. */
static const char *scalar_text(reader *r, json_t *j) {
  if (json_is_boolean(j)) return json_is_true(j) ? "true" : "false";
  return json_is_integer(j) ? arena_printf(r->t->arena, "%" JSON_INTEGER_FORMAT, json_integer_value(j)) : NULL;
}

/* Reads member key of step, {"g": 1, ...}, into values (per shared variable;
 * the ones it does not name stay NULL). The types are checked, the ranges
 * are not: a value outside its range is what a "range" failure shows. */
static bool read_shared_values(reader *r, json_t *step, const char *key, const char **values) {
  json_t *obj = object_member(r, step, key, "the step");
  if (!obj) return false;
  const char *name;
  json_t *value;
  json_object_foreach(obj, name, value) {
    size_t i = 0;
    while (i < r->spec->shared.len && strcmp(r->spec->shared.items[i]->name, name) != 0) i++;
    if (i == r->spec->shared.len) return fail(r, "'%s' in \"%s\" is not a shared variable of the spec", name, key);
    bool is_bool = r->spec->shared.items[i]->type.kind == TYPE_BOOL;
    if (is_bool ? !json_is_boolean(value) : !json_is_integer(value))
      return fail(r, "the value of '%s' in \"%s\" is not %s", name, key, is_bool ? "a bool" : "an integer");
    values[i] = scalar_text(r, value);
  }
  return true;
}

/* "x=-1": the locals a step changed, in the file's order. */
static const char *read_locals(reader *r, json_t *locals) {
  if (!locals) return "";
  if (!json_is_object(locals)) {
    fail(r, "the step's \"locals\" is not an object");
    return NULL;
  }
  strbuf b = {0};
  const char *name;
  json_t *value;
  json_object_foreach(locals, name, value) {
    const char *v = scalar_text(r, value);
    if (!v) {
      sbuf_free(&b);
      fail(r, "the value of local '%s' is not an integer or a bool", name);
      return NULL;
    }
    sbuf_printf(&b, "%s%s=%s", b.len ? ", " : "", name, v);
  }
  const char *s = arena_strndup(r->t->arena, sbuf_str(&b), b.len);
  sbuf_free(&b);
  return s;
}

/* "a.c:4": where a step is, by the base name of its file, or "". */
static const char *where_text(reader *r, json_t *step) {
  const char *file = json_string_value(json_object_get(step, "file"));
  json_t *line = json_object_get(step, "line");
  if (!file || !json_is_integer(line)) return "";
  const char *slash = strrchr(file, '/');
  return arena_printf(r->t->arena, "%s:%" JSON_INTEGER_FORMAT, slash ? slash + 1 : file, json_integer_value(line));
}

/* Reads step k (0-based) of c into c->steps and c->in_f[k + 1]; *shared is
 * the shared values after the step before it (NULL before step 1), and
 * becomes those after this one. */
static bool read_cstep(reader *r, viz_conform *c, const ast_thread *t, json_t *step, size_t k, const char ***shared) {
  if (!json_is_object(step)) return fail(r, "the step is not an object");
  const char *kind = string_member(r, step, "kind", "the step");
  if (!kind) return false;
  if (strcmp(kind, "step") != 0 && strcmp(kind, "check") != 0)
    return fail(r, "the step's \"kind\" is '%s', not \"step\" or \"check\"", kind);
  const char *statement = json_string_value(json_object_get(step, "statement"));
  size_t n = r->spec->shared.len + 1;
  const char **env = arena_alloc(r->t->arena, n * sizeof *env), **after = arena_alloc(r->t->arena, n * sizeof *after);
  bool *before_f = arena_alloc(r->t->arena, t->states.len + 1);
  if (!read_shared_values(r, step, "environment", env)) return false;
  if (!read_candidates(r, json_object_get(step, "candidates_before"), t, before_f, "\"candidates_before\""))
    return false;
  if (k + 1 == c->failure_step) c->final_f = before_f;
  bool has_after = json_object_get(step, "after") != NULL;
  if (has_after && !read_shared_values(r, step, "after", after)) return false;
  viz_cstep s = {.check = strcmp(kind, "check") == 0,
                 .where = where_text(r, step),
                 .statement = statement ? arena_intern_cstr(r->t->arena, statement) : "",
                 .before = *shared,
                 .env = env,
                 .after = has_after ? after : NULL,
                 .locals = read_locals(r, json_object_get(step, "locals"))};
  if (!s.locals) return false;
  json_t *candidates = json_object_get(step, "candidates");
  if (candidates) {
    c->in_f[k + 1] = arena_alloc(r->t->arena, t->states.len + 1);
    if (!(s.candidates = read_candidates(r, candidates, t, c->in_f[k + 1], "\"candidates\""))) return false;
  }
  vec_push(r->t->arena, &c->steps, s);
  if (k == 0) c->first = env;
  *shared = has_after ? after : env;
  return true;
}

static const char *const failure_kinds[] = {"not simulated", "range", "assertion", "exit", "index", "null"};

/* Reads "failure": {"kind", "step", "message"[, "variable"]} of a
 * counterexample with steps steps. */
static bool read_failure(reader *r, viz_conform *c, json_t *failure, size_t steps) {
  const char *kind = string_member(r, failure, "kind", "the failure");
  const char *message = kind ? string_member(r, failure, "message", "the failure") : NULL;
  if (!message) return false;
  size_t k = 0;
  while (k < sizeof failure_kinds / sizeof *failure_kinds && strcmp(failure_kinds[k], kind) != 0) k++;
  if (k == sizeof failure_kinds / sizeof *failure_kinds)
    return fail(r, "the failure's kind '%s' is not \"not simulated\", \"range\", \"assertion\", \"exit\", \"index\" or \"null\"",
                kind);
  json_t *step = json_object_get(failure, "step");
  if (!json_is_integer(step) || json_integer_value(step) < 0 || (size_t)json_integer_value(step) > steps)
    return fail(r, "the failure's \"step\" is not a step number from 0 to %zu", steps);
  const char *variable = json_string_value(json_object_get(failure, "variable"));
  if (variable) {
    size_t i = 0;
    while (i < r->spec->shared.len && strcmp(r->spec->shared.items[i]->name, variable) != 0) i++;
    if (i == r->spec->shared.len)
      return fail(r, "the failure's variable '%s' is not a shared variable of the spec", variable);
  }
  c->failure = failure_kinds[k];
  c->failure_step = (size_t)json_integer_value(step);
  c->message = arena_intern_cstr(r->t->arena, message);
  return true;
}

static bool read_counterexample(reader *r, viz_conform *c, const ast_thread *t, json_t *cex) {
  json_t *steps = json_object_get(cex, "steps"), *failure = object_member(r, cex, "failure", "the counterexample");
  if (!failure) return false;
  if (!json_is_array(steps)) return fail(r, "the counterexample has no array \"steps\"");
  size_t n = json_array_size(steps);
  if (!read_failure(r, c, failure, n)) return false;
  c->in_f = arena_alloc(r->t->arena, (n + 1) * sizeof *c->in_f);
  c->in_f[0] = arena_alloc(r->t->arena, t->states.len + 1);
  c->initial = read_candidates(r, json_object_get(cex, "initial_candidates"), t, c->in_f[0], "\"initial_candidates\"");
  if (!c->initial) return false;
  if (c->failure_step == 0) c->final_f = c->in_f[0];
  const char **shared = NULL;
  for (size_t k = 0; k < n; k++) {
    r->step = k + 1;
    if (!read_cstep(r, c, t, json_array_get(steps, k), k, &shared)) return false;
  }
  r->step = 0;
  c->last = shared;
  return true;
}

/* Reads one entry of "threads"; one without a counterexample goes into
 * verdicts ("B conforms"). seen is per spec thread. */
static bool read_verdict(reader *r, json_t *entry, bool *seen, strbuf *verdicts) {
  if (!json_is_object(entry)) return fail(r, "an entry of \"threads\" is not an object");
  const char *name = string_member(r, entry, "thread", "an entry of \"threads\"");
  const char *verdict = name ? string_member(r, entry, "verdict", "an entry of \"threads\"") : NULL;
  if (!verdict) return false;
  const ast_thread *t = ast_find_thread(r->spec, name);
  if (!t) return fail(r, "'%s' is not a thread of the spec (was the trace written for another spec?)", name);
  if (seen[t->index]) return fail(r, "thread %s is checked twice", name);
  seen[t->index] = true;
  sbuf_printf(verdicts, "%s%s %s", verdicts->len ? "; " : "", t->name, verdict);
  json_t *cex = json_object_get(entry, "counterexample");
  if (!cex) return true;
  r->thread = t->name;
  if (!json_is_object(cex)) return fail(r, "the \"counterexample\" is not an object");
  viz_conform *c = arena_alloc(r->t->arena, sizeof *c);
  const char *function = json_string_value(json_object_get(entry, "function"));
  const char *engine = json_string_value(json_object_get(entry, "engine"));
  *c = (viz_conform){.thread = t->index,
                     .function = function ? arena_intern_cstr(r->t->arena, function) : "",
                     .engine = engine ? arena_intern_cstr(r->t->arena, engine) : ""};
  if (!read_counterexample(r, c, t, cex)) return false;
  r->thread = NULL;
  r->t->conform[t->index] = c;
  return true;
}

/* "not checked: C, D" from "not_checked", each a thread of the spec. */
static bool read_not_checked(reader *r, json_t *names, strbuf *verdicts) {
  if (!names) return true;
  if (!json_is_array(names)) return fail(r, "\"not_checked\" is not an array of thread names");
  size_t k;
  json_t *name;
  json_array_foreach(names, k, name) {
    const char *s = json_string_value(name);
    if (!s) return fail(r, "\"not_checked\" is not an array of thread names");
    if (!ast_find_thread(r->spec, s)) return fail(r, "'%s' in \"not_checked\" is not a thread of the spec", s);
    sbuf_printf(verdicts, "%s%s", k ? ", " : (verdicts->len ? "; not checked: " : "not checked: "), s);
  }
  return true;
}

/* The JSON of `athread conform --json`: "threads", each with its "verdict"
 * and, when it does not conform, a "counterexample"; and "not_checked". */
static bool read_conform_trace(reader *r, json_t *root) {
  r->t->kind = VIZ_TRACE_CONFORM;
  json_t *threads = json_object_get(root, "threads");
  if (!json_is_array(threads)) return fail(r, "the file has no array \"threads\"");
  size_t n = r->spec->threads.len + 1;
  r->t->conform = arena_alloc(r->t->arena, n * sizeof *r->t->conform);
  bool *seen = xcalloc(n, sizeof *seen);
  strbuf verdicts = {0};
  bool ok = true;
  for (size_t k = 0; ok && k < json_array_size(threads); k++)
    ok = read_verdict(r, json_array_get(threads, k), seen, &verdicts);
  ok = ok && read_not_checked(r, json_object_get(root, "not_checked"), &verdicts);
  r->t->verdicts = arena_strndup(r->t->arena, sbuf_str(&verdicts), verdicts.len);
  bool any = false;
  vec_foreach(&r->spec->threads, i) any = any || r->t->conform[i];
  if (ok && !any)
    ok = fail(r, "no thread has a counterexample to draw (%s)",
              verdicts.len ? sbuf_str(&verdicts) : "the file checks no thread");
  sbuf_free(&verdicts);
  free(seen);
  return ok;
}

/* ---------------------------------------------------------------- entry */

/* The JSON object of the trace: read from f, or from text when f is NULL.
 * NULL after a report. */
static json_t *load_json(reader *r, FILE *f, const char *text, size_t len) {
  json_error_t err;
  json_t *root = f ? json_loadf(f, JSON_REJECT_DUPLICATES, &err) : json_loadb(text, len, JSON_REJECT_DUPLICATES, &err);
  if (!root) {
    fail(r, "not valid JSON (line %d, column %d): %s", err.line, err.column, err.text);
    return NULL;
  }
  if (json_is_object(root)) return root;
  fail(r, "not a trace: the JSON is not an object");
  json_decref(root);
  return NULL;
}

/* viz_trace_load and viz_trace_parse: the trace in f, or in text when f is NULL. */
static viz_trace *read_trace(diag_sink *sink, const char *file, const ast_spec *spec, FILE *f, const char *text,
                             size_t len) {
  reader r = {.sink = sink, .path = file, .spec = spec};
  if (spec->instance_total > MAX_TRACE_INSTANCES) {
    fail(&r, "the system has %" PRId64 " instances; traces of more than %d are not drawn", spec->instance_total,
         MAX_TRACE_INSTANCES);
    return NULL;
  }
  json_t *root = load_json(&r, f, text, len);
  if (!root) return NULL;
  arena *a = arena_new();
  r.t = arena_alloc(a, sizeof *r.t);
  r.t->arena = a;
  r.state = xmalloc(((size_t)spec->instance_total + 1) * sizeof *r.state);
  for (int64_t k = 0; k < spec->instance_total; k++) r.state[k] = -1;
  r.t->file = arena_intern_cstr(a, file);
  const char *command = json_string_value(json_object_get(root, "command"));
  bool ok = false;
  if (command && strcmp(command, "compose") == 0) ok = read_compose_trace(&r, root);
  else if (command && strcmp(command, "conform") == 0) ok = read_conform_trace(&r, root);
  else
    fail(&r, "not a counterexample written by 'athread compose --trace-out' or 'athread conform --json' (no "
             "\"command\": \"compose\" or \"conform\")");
  json_decref(root);
  free(r.state);
  if (ok) return r.t;
  arena_free(a);
  return NULL;
}

viz_trace *viz_trace_load(diag_sink *sink, const char *file, const ast_spec *spec) {
  bool from_stdin = strcmp(file, "-") == 0;
  FILE *f = from_stdin ? stdin : fopen(file, "rb");
  if (!f) {
    diag_error_at(sink, file, "cannot open file: %s", strerror(errno));
    return NULL;
  }
  viz_trace *t = read_trace(sink, from_stdin ? "<stdin>" : file, spec, f, NULL, 0);
  if (!from_stdin) fclose(f);
  return t;
}

viz_trace *viz_trace_parse(diag_sink *sink, const char *name, const char *text, size_t len, const ast_spec *spec) {
  return read_trace(sink, name, spec, NULL, text, len);
}

void viz_trace_free(viz_trace *t) {
  if (t) arena_free(t->arena);
}
