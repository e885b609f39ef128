/* viz/viz-race.c -- the data races of a report of athread races --json as a
 * graph: one cluster per race cell, titled with the cell, its two accesses
 * and the length of its trace; in it one column per thread instance, its
 * steps down the column in the order they run (solid edges within an
 * instance, a dashed gray edge where the run passes to another instance,
 * which ranks the steps by time), and at the bottom the two racing accesses
 * in red, joined by a red two-headed edge "race on CELL". The JSON is the
 * contract of docs/json.md, read defensively (a missing member reads as
 * empty). */
#include <jansson.h>
#include <string.h>

#include "viz-impl.h"

/* ---------------------------------------------------------------- the report's text */

static const char *text_of(const json_t *o, const char *key) {
  const char *s = json_string_value(json_object_get(o, key));
  return s ? s : "";
}

static json_int_t number_of(const json_t *o, const char *key) { return json_integer_value(json_object_get(o, key)); }

static bool is_race(const json_t *cell) { return strcmp(text_of(cell, "verdict"), "race") == 0; }

/* "worker#2": the column of an instance. */
static void instance_name(strbuf *b, const json_t *o) {
  sbuf_printf(b, "%s#%" JSON_INTEGER_FORMAT, text_of(o, "thread"), number_of(o, "instance"));
}

/* "worker#2 reads": an access's instance and what it does. */
static void accessor(strbuf *b, const json_t *x) {
  instance_name(b, x);
  sbuf_printf(b, " %ss", text_of(x, "access"));
}

/* "file:line" with the file's base name. */
static void place(strbuf *b, const json_t *o) {
  const char *file = text_of(o, "file"), *slash = strrchr(file, '/');
  sbuf_printf(b, "%s:%" JSON_INTEGER_FORMAT, slash ? slash + 1 : file, number_of(o, "line"));
}

/* The statement, cut to fit a box (a backslash in C's text is no Graphviz
 * escape). */
static void statement(strbuf *b, const json_t *s) {
  strbuf cut = {0};
  viz_put_short(&cut, json_is_true(json_object_get(s, "starts")) ? "starts" : text_of(s, "text"), 40);
  viz_put_plain(b, sbuf_str(&cut));
  sbuf_free(&cut);
}

static void step_label(strbuf *b, size_t n, const json_t *s) {
  sbuf_printf(b, "%zu. ", n);
  place(b, s);
  sbuf_puts(b, "\n");
  statement(b, s);
  if (*text_of(s, "accesses")) sbuf_printf(b, "\n(%s)", text_of(s, "accesses"));
  if (*text_of(s, "inputs")) {
    sbuf_puts(b, "\n[");
    viz_put_plain(b, text_of(s, "inputs"));
    sbuf_puts(b, "]");
  }
  const json_t *changes = json_object_get(s, "changes");
  for (size_t i = 0; i < json_array_size(changes); i++) {
    const json_t *c = json_array_get(changes, i);
    sbuf_printf(b, "%s%s = %" JSON_INTEGER_FORMAT, i ? ", " : "\n-> ", text_of(c, "cell"), number_of(c, "value"));
  }
}

/* "dispatch#1 reads sent" then "at file:line:col (atomic)" and the locks
 * held, each part after sep. */
static void access_label(strbuf *b, const json_t *x, const char *cell, const char *sep) {
  accessor(b, x);
  sbuf_printf(b, " %s%sat ", cell, sep);
  place(b, x);
  sbuf_printf(b, ":%" JSON_INTEGER_FORMAT "%s", number_of(x, "column"),
              json_is_true(json_object_get(x, "atomic")) ? " (atomic)" : "");
  const json_t *locks = json_object_get(x, "locks");
  for (size_t i = 0; i < json_array_size(locks); i++)
    sbuf_printf(b, "%s%s", i ? ", " : "\nholding ", json_string_value(json_array_get(locks, i)));
}

/* "data race on sent: dispatch#1 reads, dispatch#2 writes; both enabled after
 * 15 steps (replayed)". */
static void title(strbuf *b, const json_t *cell) {
  const json_t *first = json_object_get(cell, "first"), *second = json_object_get(cell, "second");
  size_t steps = json_array_size(json_object_get(cell, "trace"));
  sbuf_printf(b, "data race on %s: ", text_of(cell, "cell"));
  accessor(b, first);
  sbuf_puts(b, ", ");
  accessor(b, second);
  sbuf_puts(b, "; both enabled ");
  if (steps) sbuf_printf(b, "after %zu step%s (replayed)", steps, steps == 1 ? "" : "s");
  else sbuf_puts(b, "from the start (replayed)");
}

/* ---------------------------------------------------------------- one race */

/* A column: its instance's name and the last node drawn in it. */
typedef struct lane {
  char *name;
  Agnode_t *last;
} lane;

typedef VEC(lane) lanes_t;

/* One race cell being drawn. */
typedef struct race_draw {
  Agraph_t *g;        /* the race's cluster */
  size_t number;      /* from 1, in the report's order: in its nodes' and columns' names */
  lanes_t lanes;      /* its columns, in the order the run enters them */
  Agnode_t *previous; /* the last step of the run drawn so far, or NULL */
} race_draw;

static Agraph_t *column(race_draw *r, const json_t *o) {
  strbuf name = {0}, label = {0};
  sbuf_printf(&name, "cluster_r%zu_", r->number);
  instance_name(&name, o);
  instance_name(&label, o);
  Agraph_t *c = agsubg(r->g, (char *)sbuf_str(&name), 1);
  viz_set(c, "label", sbuf_str(&label));
  sbuf_free(&name);
  sbuf_free(&label);
  return c;
}

/* A box named "r1.role" in o's column. */
static Agnode_t *step_box(race_draw *r, const json_t *o, const char *role, const char *label) {
  strbuf name = {0};
  sbuf_printf(&name, "r%zu.%s", r->number, role);
  Agnode_t *n = agnode(column(r, o), (char *)sbuf_str(&name), 1);
  viz_set(n, "shape", "box");
  viz_set(n, "label", label);
  sbuf_free(&name);
  return n;
}

static Agnode_t **last_in(lanes_t *lanes, const json_t *o) {
  strbuf name = {0};
  instance_name(&name, o);
  vec_foreach(lanes, i)
    if (strcmp(lanes->items[i].name, sbuf_str(&name)) == 0) {
      sbuf_free(&name);
      return &lanes->items[i].last;
    }
  lane l = {sbuf_take(&name), NULL};
  vec_push(NULL, lanes, l);
  return &lanes->items[lanes->len - 1].last;
}

/* Puts n after the run so far: a solid edge from its column's last node and,
 * when the run comes from another column, a dashed gray one from the run's
 * last step (within a column the solid edge already orders them). */
static void append(race_draw *r, const json_t *o, Agnode_t *n) {
  Agnode_t **last = last_in(&r->lanes, o);
  if (*last) agedge(r->g, *last, n, NULL, 1);
  if (r->previous && r->previous != *last) {
    Agedge_t *e = agedge(r->g, r->previous, n, NULL, 1);
    viz_set(e, "style", "dashed");
    viz_set(e, "color", "gray");
  }
  *last = n;
}

static void add_step(race_draw *r, size_t n, const json_t *s) {
  strbuf role = {0}, label = {0};
  sbuf_printf(&role, "step%zu", n);
  step_label(&label, n, s);
  Agnode_t *node = step_box(r, s, sbuf_str(&role), sbuf_str(&label));
  append(r, s, node);
  r->previous = node;
  sbuf_free(&role);
  sbuf_free(&label);
}

/* One racing access (role "first" or "second"): a red box at the end of its
 * instance's column. */
static Agnode_t *add_access(race_draw *r, const json_t *cell, const char *role) {
  const json_t *x = json_object_get(cell, role);
  strbuf label = {0};
  access_label(&label, x, text_of(cell, "cell"), "\n");
  Agnode_t *n = step_box(r, x, role, sbuf_str(&label));
  viz_set(n, "color", "red");
  viz_set(n, "fontcolor", "red");
  viz_set(n, "penwidth", "2");
  append(r, x, n);
  sbuf_free(&label);
  return n;
}

static void add_race_edge(race_draw *r, Agnode_t *a, Agnode_t *b, const char *cell) {
  Agedge_t *e = agedge(r->g, a, b, "race", 1);
  strbuf on = {0};
  sbuf_printf(&on, "race on %s", cell);
  viz_set(e, "label", sbuf_str(&on));
  viz_set(e, "color", "red");
  viz_set(e, "fontcolor", "red");
  viz_set(e, "dir", "both");
  viz_set(e, "constraint", "false"); /* side by side, both after the run */
  sbuf_free(&on);
}

/* Race cell number (from 1) as a cluster of g. */
static void add_race(Agraph_t *g, size_t number, const json_t *cell) {
  strbuf name = {0}, label = {0};
  sbuf_printf(&name, "cluster_r%zu", number);
  title(&label, cell);
  race_draw r = {.g = agsubg(g, (char *)sbuf_str(&name), 1), .number = number};
  viz_set(r.g, "label", sbuf_str(&label));
  const json_t *trace = json_object_get(cell, "trace");
  for (size_t i = 0; i < json_array_size(trace); i++) add_step(&r, i + 1, json_array_get(trace, i));
  Agnode_t *first = add_access(&r, cell, "first");
  Agnode_t *second = add_access(&r, cell, "second");
  add_race_edge(&r, first, second, text_of(cell, "cell"));
  vec_foreach(&r.lanes, i) free(r.lanes.items[i].name);
  vec_free(&r.lanes);
  sbuf_free(&name);
  sbuf_free(&label);
}

/* ---------------------------------------------------------------- the report */

static Agraph_t *races_graph(const void *data, Agdisc_t *disc) {
  const json_t *cells = json_object_get(data, "cells");
  Agraph_t *g = agopen("races", Agdirected, disc);
  viz_set(g, "newrank", "true"); /* the run's order across columns too (dot ranks a cluster alone) */
  size_t number = 0;
  for (size_t i = 0; i < json_array_size(cells); i++)
    if (is_race(json_array_get(cells, i))) add_race(g, ++number, json_array_get(cells, i));
  return g;
}

bool viz_is_race_report(const char *text, size_t len) {
  json_t *root = json_loadb(text, len, 0, NULL);
  bool races = root && strcmp(text_of(root, "command"), "races") == 0;
  json_decref(root);
  return races;
}

static bool has_race(const json_t *root) {
  const json_t *cells = json_object_get(root, "cells");
  for (size_t i = 0; i < json_array_size(cells); i++)
    if (is_race(json_array_get(cells, i))) return true;
  return false;
}

/* Is root (NULL: text that did not parse, why) a report with a race to
 * draw? Reports why not. */
static bool drawable(diag_sink *sink, const char *name, const json_t *root, const json_error_t *why) {
  if (!root) {
    strbuf where = {0};
    sbuf_printf(&where, "%s:%d:%d", name, why->line, why->column);
    diag_error_at(sink, sbuf_str(&where), "not JSON: %s", why->text);
    sbuf_free(&where);
    return false;
  }
  if (strcmp(text_of(root, "command"), "races") != 0) {
    diag_error_at(sink, name,
                  "not a report of athread races --json (a trace of compose or conform needs its "
                  "specification: athread viz SPEC --trace FILE)");
    return false;
  }
  bool race = has_race(root);
  if (!race)
    diag_error_at(sink, name, "no race to draw: the report of athread races has no cell with verdict \"race\"");
  return race;
}

viz_result viz_render_race(diag_sink *sink, const char *name, const char *text, size_t len, viz_format f, char **out,
                           size_t *out_len) {
  json_error_t why;
  json_t *root = json_loadb(text, len, 0, &why);
  viz_result r =
      drawable(sink, name, root, &why) ? viz_render_graph(sink, races_graph, root, f, out, out_len) : VIZ_REFUSED;
  json_decref(root);
  return r;
}
