/* conformance/witness.c -- SV-COMP violation witnesses (format 2.0) from the
 * counterexamples of `athread conform`. The witness is built as a JSON tree
 * (jansson keeps the members in the order they are added) and written as
 * YAML by a small emitter, since the build has no YAML library. */
#include "witness.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../cfront/cfront.h"
#include "../core/json-text.h"
#include "../core/outfile.h"
#include "../core/sha256.h"
#include "../core/utf8.h"
#include "trace.h"

/* ---------------------------------------------------------------- metadata */

/* A random (version 4) UUID, RFC 4122's layout; the clock stands in for
 * /dev/urandom where it cannot be read (the uuid only has to be unique). */
static void uuid_v4(char out[37]) {
  unsigned char b[16] = {0};
  FILE *f = fopen("/dev/urandom", "rb");
  size_t n = f ? fread(b, 1, sizeof b, f) : 0;
  if (f) fclose(f);
  if (n < sizeof b) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t x = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
    for (size_t i = 0; i < sizeof b; i++) b[i] = (unsigned char)(x >> (8 * (i % 8))) ^ (unsigned char)(i * 37);
  }
  b[6] = (unsigned char)((b[6] & 0x0f) | 0x40);
  b[8] = (unsigned char)((b[8] & 0x3f) | 0x80);
  for (int i = 0, at = 0; i < 16; i++) {
    at += snprintf(out + at, 37 - (size_t)at, "%02x", b[i]);
    if (i == 3 || i == 5 || i == 7 || i == 9) out[at++] = '-';
  }
}

/* Now in UTC, ISO 8601 ("2026-11-27T13:55:19Z"). */
static void utc_now(char out[32]) {
  time_t now = time(NULL);
  struct tm tm;
  gmtime_r(&now, &tm);
  strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* {file: sha256} of every C file given, or NULL after reporting one that cannot be read. */
static json_t *hashes_json(diag_sink *sink, const witness_task *w) {
  json_t *o = json_object();
  for (size_t i = 0; i < w->file_count; i++) {
    diag_source *src = diag_source_load(sink, w->files[i]);
    if (!src) return json_decref(o), NULL;
    char hex[65];
    sha256_hex(src->text, src->len, hex);
    json_t *name = json_text(w->files[i]);
    json_object_set_new(o, json_string_value(name), json_string(hex));
    json_decref(name);
    diag_source_free(src);
  }
  return o;
}

static json_t *task_json(const conform_job *j, const witness_task *w, json_t *hashes) {
  json_t *files = json_array();
  for (size_t i = 0; i < w->file_count; i++) json_array_append_new(files, json_text(w->files[i]));
  strbuf spec = {0};
  sbuf_printf(&spec,
              "athread conformance: the C function %s is simulated by thread %s of %s while the other threads "
              "move as the spec allows (not an SV-COMP property such as unreach-call)",
              j->function, j->thread->name, w->spec_path);
  json_t *o =
      json_pack("{s:o, s:O, s:o, s:s, s:s}", "input_files", files, "input_file_hashes", hashes, "specification",
                json_text(sbuf_str(&spec)), "data_model", sizeof(long) == 8 ? "LP64" : "ILP32", "language", "C");
  sbuf_free(&spec);
  return o;
}

static json_t *producer_json(const conform_job *j, const witness_task *w) {
  strbuf d = {0};
  sbuf_printf(&d,
              "counterexample of thread %s (C function %s) against %s: the assumption waypoints give the shared "
              "variables' values when each step starts, after the other threads' moves; the branching waypoints "
              "the conditions the thread decides; the target the step or check that fails",
              j->thread->name, j->function, w->spec_path);
  json_t *a = report_assumptions_json(w->semantics);
  json_t *o = json_pack("{s:s, s:s, s:O, s:o}", "name", "athread", "version", w->version, "configuration",
                        json_object_get(a, "text"), "description", json_text(sbuf_str(&d)));
  json_decref(a);
  sbuf_free(&d);
  return o;
}

static json_t *metadata_json(const conform_job *j, const witness_task *w, json_t *hashes) {
  char uuid[37], now[32];
  uuid_v4(uuid);
  utc_now(now);
  return json_pack("{s:s, s:s, s:s, s:o, s:o}", "format_version", "2.0", "uuid", uuid, "creation_time", now, "producer",
                   producer_json(j, w), "task", task_json(j, w, hashes));
}

/* ---------------------------------------------------------------- waypoints */

typedef struct witness_ctx {
  const conform_run_result *run; /* the C files (the functions their lines are in) */
  const conform_job *job;        /* the failing thread */
  const witness_task *task;      /* the C files given */
  json_t *content;               /* the segments so far */
} witness_ctx;

/* Is o in one of the C files given? Code of athread's models
 * (include/athread/models/, inlined) is not: a validator has no such file. */
static bool in_task(const witness_ctx *c, prog_origin o) {
  if (o.file < 0) return false;
  const char *name = c->job->ins->files.items[o.file]->name;
  for (size_t i = 0; i < c->task->file_count; i++)
    if (strcmp(name, c->task->files[i]) == 0) return true;
  return false;
}

/* {file_name, line, column, function} of a byte of the source file (the
 * function is the one whose body holds it: calls are inlined). */
static json_t *location_json(const witness_ctx *c, int file, uint32_t offset) {
  const diag_source *src = c->job->ins->files.items[file];
  size_t line, col;
  diag_line_col(src, offset, &line, &col);
  const char *fn = c->run->unit ? cfe_function_at(c->run->unit, src, offset) : NULL;
  return json_pack("{s:o, s:I, s:I, s:s}", "file_name", json_text(src->name), "line", (json_int_t)line, "column",
                   (json_int_t)col, "function", fn ? fn : c->job->function);
}

/* A segment of one `follow` waypoint (steals constraint, which may be NULL, and location). */
static void add_waypoint(witness_ctx *c, const char *type, json_t *constraint, json_t *location) {
  json_t *w = json_pack("{s:s, s:s}", "type", type, "action", "follow");
  if (constraint) json_object_set_new(w, "constraint", constraint);
  json_object_set_new(w, "location", location);
  json_array_append_new(c->content, json_pack("{s:[{s:o}]}", "segment", "waypoint", w));
}

static void c_literal(int64_t x, strbuf *out) {
  if (x == INT64_MIN) sbuf_puts(out, "(-9223372036854775807 - 1)"); /* its magnitude is no literal of C */
  else sbuf_printf(out, "%lld", (long long)x);
}

/* "g == 1 && busy == 0": the shared variables' values, a C expression; NULL when there are none. */
static json_t *values_constraint(const prog *p, const int64_t *v) {
  strbuf b = {0};
  vec_foreach(&p->vars, k) {
    const prog_var *pv = &p->vars.items[k];
    if (pv->kind != VAR_SHARED) continue;
    sbuf_printf(&b, "%s%s == ", b.len ? " && " : "", pv->display);
    c_literal(v[k], &b);
  }
  json_t *o = b.len ? json_pack("{s:o, s:s}", "value", json_text(sbuf_str(&b)), "format", "c_expression") : NULL;
  sbuf_free(&b);
  return o;
}

static bool word_is(const char *text, long start, long end, const char *word) {
  return end - start == (long)strlen(word) && strncmp(text + start, word, (size_t)(end - start)) == 0;
}

/* The offset of the `if` or `while` whose condition starts at cond, or -1
 * (a `for`, a macro, a comment in between): the format points a branching
 * waypoint at the keyword. */
static long branch_keyword(const diag_source *src, uint32_t cond) {
  const char *text = src->text;
  long i = (long)cond - 1;
  while (i >= 0 && (isspace((unsigned char)text[i]) || text[i] == '(')) i--;
  long end = i + 1;
  while (i >= 0 && (isalnum((unsigned char)text[i]) || text[i] == '_')) i--;
  return word_is(text, i + 1, end, "if") || word_is(text, i + 1, end, "while") ? i + 1 : -1;
}

/* A step: the values it starts from, then the branch it takes. */
static void step_waypoints(witness_ctx *c, const trace_step *s) {
  const prog *p = c->job->ins;
  json_t *values = in_task(c, s->origin) ? values_constraint(p, s->env) : NULL;
  if (values) add_waypoint(c, "assumption", values, location_json(c, s->origin.file, s->origin.at.start));
  if (s->branch < 0 || !in_task(c, s->branch_at)) return;
  long kw = branch_keyword(p->files.items[s->branch_at.file], s->branch_at.at.start);
  if (kw >= 0)
    add_waypoint(c, "branching", json_pack("{s:s}", "value", s->branch ? "true" : "false"),
                 location_json(c, s->branch_at.file, (uint32_t)kw));
}

/* Where the violation is: the operation that is undefined, the step that is
 * not simulated or leaves a range, else the failing check's statement. */
static prog_origin target_origin(const conform_job *j, const trace *t) {
  const prog *p = j->ins;
  prog_origin none = {.file = -1};
  prog_origin last = t->steps.len ? t->steps.items[t->steps.len - 1].origin : none;
  if (t->failure == CHECK_ARITH) return p->operations.items[t->operation].origin;
  prog_origin failing = t->failing_edge >= 0 ? p->edges.items[t->failing_edge].origin : none;
  return t->failure == CHECK_SIMULATED || t->failure == CHECK_RANGE || failing.file < 0 ? last : failing;
}

/* The target, or, when it is in a model's code, the last step in the C files given. */
static prog_origin target_in_task(const witness_ctx *c, const trace *t) {
  prog_origin o = target_origin(c->job, t);
  for (size_t i = t->steps.len; !in_task(c, o) && i > 0; i--) o = t->steps.items[i - 1].origin;
  return o;
}

/* The entry of a thread that does not conform, or NULL when its counterexample has no source location. */
static json_t *entry_json(const conform_run_result *run, const conform_job *j, const witness_task *w, json_t *hashes) {
  trace t;
  trace_build(j->ins, &j->r, &run->env, j->thread, &t);
  witness_ctx c = {run, j, w, json_array()};
  vec_foreach(&t.steps, i) step_waypoints(&c, &t.steps.items[i]);
  prog_origin target = target_in_task(&c, &t);
  trace_free(&t);
  if (!in_task(&c, target)) return json_decref(c.content), NULL;
  add_waypoint(&c, "target", NULL, location_json(&c, target.file, target.at.start));
  return json_pack("{s:s, s:o, s:o}", "entry_type", "violation_sequence", "metadata", metadata_json(j, w, hashes),
                   "content", c.content);
}

json_t *witness_build(diag_sink *sink, const conform_run_result *run, const witness_task *task) {
  json_t *hashes = hashes_json(sink, task);
  if (!hashes) return NULL;
  json_t *doc = json_array();
  vec_foreach(&run->jobs, i) {
    const conform_job *j = &run->jobs.items[i];
    json_t *e = j->r.verdict == CONFORM_VIOLATED ? entry_json(run, j, task, hashes) : NULL;
    if (e) json_array_append_new(doc, e);
    else if (j->r.verdict == CONFORM_VIOLATED)
      fprintf(stderr, "athread: note: --witness: thread %s's counterexample has no location in the C files given\n",
              j->thread->name);
  }
  json_decref(hashes);
  return doc;
}

/* ---------------------------------------------------------------- YAML */

static uint32_t code_point(const unsigned char *s, size_t len) {
  static const unsigned char lead_mask[] = {0, 0x7f, 0x1f, 0x0f, 0x07};
  uint32_t cp = s[0] & lead_mask[len];
  for (size_t i = 1; i < len; i++) cp = cp << 6 | (s[i] & 0x3f);
  return cp;
}

/* Must the code point be escaped? YAML reads C0, C1, DEL and the
 * non-characters only escaped, and folds raw line and paragraph separators. */
static bool yaml_escaped(uint32_t cp) {
  return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || cp == 0x2028 || cp == 0x2029 || cp == 0xfeff || cp >= 0xfffe;
}

/* A double-quoted scalar: '"' and '\' escaped, the characters YAML
 * cannot hold raw as \xHH or \uHHHH, any other UTF-8 as it is. */
static void yaml_string(strbuf *out, const char *s) {
  const unsigned char *p = (const unsigned char *)s;
  size_t n = strlen(s);
  sbuf_putc(out, '"');
  for (size_t i = 0; i < n;) {
    size_t len = utf8_length(p + i, n - i);
    uint32_t cp = len ? code_point(p + i, len) : 0xfffd; /* a stray byte (keys, strings) reads as U+FFFD */
    if (cp == '"' || cp == '\\') sbuf_printf(out, "\\%c", (char)cp);
    else if (yaml_escaped(cp) && cp <= 0xff) sbuf_printf(out, "\\x%02x", (unsigned)cp);
    else if (yaml_escaped(cp) || !len) sbuf_printf(out, "\\u%04x", (unsigned)cp);
    else sbuf_putn(out, (const char *)p + i, len);
    i += len ? len : 1;
  }
  sbuf_putc(out, '"');
}

static void yaml_scalar(strbuf *out, const json_t *j) {
  if (json_is_string(j)) yaml_string(out, json_string_value(j));
  else if (json_is_integer(j)) sbuf_printf(out, "%lld", (long long)json_integer_value(j));
  else if (json_is_real(j)) sbuf_printf(out, "%.17g", json_real_value(j));
  else if (json_is_object(j)) sbuf_puts(out, "{}");
  else if (json_is_array(j)) sbuf_puts(out, "[]");
  else sbuf_puts(out, json_is_true(j) ? "true" : json_is_false(j) ? "false" : "null");
}

/* A key as it is when it is an identifier, else quoted (a file name of input_file_hashes). */
static void yaml_key(strbuf *out, const char *key) {
  bool plain = isalpha((unsigned char)key[0]) || key[0] == '_';
  for (const char *c = key; plain && *c; c++) plain = isalnum((unsigned char)*c) || *c == '_';
  if (plain) sbuf_puts(out, key);
  else yaml_string(out, key);
}

static bool yaml_is_block(const json_t *j) {
  return (json_is_object(j) && json_object_size(j)) || (json_is_array(j) && json_array_size(j));
}

static void yaml_block(strbuf *out, const json_t *j, int indent, bool first_inline);

static void yaml_indent(strbuf *out, int n) {
  for (int i = 0; i < n; i++) sbuf_putc(out, ' ');
}

/* What follows "key:" or "- ": a scalar on the line, a block below it (or, after "- ", on it). */
static void yaml_value(strbuf *out, const json_t *v, int indent, bool after_dash) {
  if (!yaml_is_block(v)) {
    if (!after_dash) sbuf_putc(out, ' ');
    yaml_scalar(out, v);
    sbuf_putc(out, '\n');
    return;
  }
  if (!after_dash) sbuf_putc(out, '\n');
  yaml_block(out, v, indent, after_dash);
}

static void yaml_array(strbuf *out, const json_t *j, int indent, bool first_inline) {
  size_t i;
  json_t *v;
  json_array_foreach(j, i, v) {
    if (i > 0 || !first_inline) yaml_indent(out, indent);
    sbuf_puts(out, "- ");
    yaml_value(out, v, indent + 2, true);
  }
}

static void yaml_object(strbuf *out, const json_t *j, int indent, bool first_inline) {
  bool first = true;
  const char *key;
  json_t *v;
  json_object_foreach((json_t *)j, key, v) {
    if (!first || !first_inline) yaml_indent(out, indent);
    first = false;
    yaml_key(out, key);
    sbuf_putc(out, ':');
    yaml_value(out, v, indent + 2, false);
  }
}

/* A nonempty container at indent; after "- " its first line is already indented. */
static void yaml_block(strbuf *out, const json_t *j, int indent, bool first_inline) {
  if (json_is_array(j)) yaml_array(out, j, indent, first_inline);
  else yaml_object(out, j, indent, first_inline);
}

char *witness_yaml(const json_t *doc) {
  strbuf out = {0};
  if (yaml_is_block(doc)) yaml_block(&out, doc, 0, false);
  else {
    yaml_scalar(&out, doc);
    sbuf_putc(&out, '\n');
  }
  return sbuf_take(&out);
}

/* ---------------------------------------------------------------- writing */

/* Why there is no witness: "every thread conforms" or "the verdict is unknown". */
static const char *no_witness_reason(const conform_run_result *run) {
  vec_foreach(&run->jobs, i)
    if (run->jobs.items[i].r.verdict == CONFORM_UNKNOWN) return "the verdict is unknown";
  return "every thread conforms";
}

bool witness_write(diag_sink *sink, const char *path, const conform_run_result *run, const witness_task *task) {
  json_t *doc = witness_build(sink, run, task);
  if (!doc) return false;
  bool ok = true;
  if (json_array_size(doc) == 0)
    fprintf(stderr, "athread: note: --witness: %s; nothing written to %s\n", no_witness_reason(run), path);
  else {
    char *text = witness_yaml(doc);
    ok = outfile_write(sink, path, text, strlen(text));
    free(text);
  }
  json_decref(doc);
  return ok;
}
