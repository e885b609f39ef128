/* viz/viz-race.c -- a data race's trace (athread races --json) as a graph:
 * one column per thread instance, its steps down the column in the order
 * they run (solid edges within an instance, dashed gray edges from each step
 * to the next one of the run, which rank the steps by time), and at the
 * bottom the two racing accesses in red, joined by a red edge "race on
 * CELL". The report's first race cell is drawn; its JSON is the contract of
 * docs/json.md, read defensively (a member missing reads as empty). */
#include <jansson.h>
#include <string.h>

#include "viz-impl.h"

static const char *text_of(const json_t *o, const char *key) {
  const char *s = json_string_value(json_object_get(o, key));
  return s ? s : "";
}

static json_int_t number_of(const json_t *o, const char *key) { return json_integer_value(json_object_get(o, key)); }

/* "worker#2": the column of an instance. */
static void instance_name(strbuf *b, const json_t *o) {
  sbuf_printf(b, "%s#%" JSON_INTEGER_FORMAT, text_of(o, "thread"), number_of(o, "instance"));
}

static Agraph_t *column(Agraph_t *g, const json_t *o) {
  strbuf name = {0}, label = {0};
  sbuf_puts(&name, "cluster_");
  instance_name(&name, o);
  instance_name(&label, o);
  Agraph_t *c = agsubg(g, (char *)sbuf_str(&name), 1);
  viz_set(c, "label", sbuf_str(&label));
  sbuf_free(&name);
  sbuf_free(&label);
  return c;
}

/* "file:line" with the file's base name. */
static void place(strbuf *b, const json_t *o) {
  const char *file = text_of(o, "file"), *slash = strrchr(file, '/');
  sbuf_printf(b, "%s:%" JSON_INTEGER_FORMAT, slash ? slash + 1 : file, number_of(o, "line"));
}

static void step_label(strbuf *b, size_t n, const json_t *s) {
  sbuf_printf(b, "%zu. ", n);
  place(b, s);
  sbuf_puts(b, "\n");
  viz_put_short(b, json_is_true(json_object_get(s, "starts")) ? "starts" : text_of(s, "text"), 40);
  if (*text_of(s, "accesses")) sbuf_printf(b, "\n(%s)", text_of(s, "accesses"));
  if (*text_of(s, "inputs")) sbuf_printf(b, "\n[%s]", text_of(s, "inputs"));
  const json_t *changes = json_object_get(s, "changes");
  for (size_t i = 0; i < json_array_size(changes); i++) {
    const json_t *c = json_array_get(changes, i);
    sbuf_printf(b, "%s%s = %" JSON_INTEGER_FORMAT, i ? ", " : "\n-> ", text_of(c, "cell"), number_of(c, "value"));
  }
}

static Agnode_t *step_box(Agraph_t *in, const char *name, const char *label) {
  Agnode_t *n = agnode(in, (char *)name, 1);
  viz_set(n, "shape", "box");
  viz_set(n, "label", label);
  return n;
}

static void ordering_edge(Agraph_t *g, Agnode_t *from, Agnode_t *to) {
  Agedge_t *e = agedge(g, from, to, NULL, 1);
  viz_set(e, "style", "dashed");
  viz_set(e, "color", "gray");
}

/* The last node drawn in each column: the columns by name, in order. */
typedef struct lane {
  char *name;
  Agnode_t *last;
} lane;

typedef VEC(lane) lanes_t;

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

/* Adds node n to its instance's column after that column's last node. */
static void follow(Agraph_t *g, lanes_t *lanes, const json_t *o, Agnode_t *n) {
  Agnode_t **last = last_in(lanes, o);
  if (*last) agedge(g, *last, n, NULL, 1);
  *last = n;
}

/* One racing access: a red node at the end of its instance's column. */
static Agnode_t *access_node(Agraph_t *g, lanes_t *lanes, const char *name, const json_t *x) {
  strbuf label = {0};
  sbuf_printf(&label, "%s %ss\nat ", text_of(x, "thread"), text_of(x, "access"));
  place(&label, x);
  sbuf_printf(&label, ":%" JSON_INTEGER_FORMAT "%s", number_of(x, "column"),
              json_is_true(json_object_get(x, "atomic")) ? " (atomic)" : "");
  Agnode_t *n = step_box(column(g, x), name, sbuf_str(&label));
  viz_set(n, "color", "red");
  viz_set(n, "fontcolor", "red");
  viz_set(n, "penwidth", "2");
  follow(g, lanes, x, n);
  sbuf_free(&label);
  return n;
}

static Agraph_t *race_graph(const void *data, Agdisc_t *disc) {
  const json_t *cell = data;
  Agraph_t *g = agopen("race", Agdirected, disc);
  const json_t *trace = json_object_get(cell, "trace");
  strbuf title = {0};
  sbuf_printf(&title, "data race on %s: both accesses enabled after %zu step%s (replayed)", text_of(cell, "cell"),
              json_array_size(trace), json_array_size(trace) == 1 ? "" : "s");
  viz_set(g, "label", sbuf_str(&title));
  viz_set(g, "labelloc", "t");
  lanes_t lanes = {0};
  Agnode_t *previous = NULL;
  for (size_t i = 0; i < json_array_size(trace); i++) {
    const json_t *s = json_array_get(trace, i);
    strbuf name = {0}, label = {0};
    sbuf_printf(&name, "step%zu", i + 1);
    step_label(&label, i + 1, s);
    Agnode_t *n = step_box(column(g, s), sbuf_str(&name), sbuf_str(&label));
    follow(g, &lanes, s, n);
    if (previous) ordering_edge(g, previous, n);
    previous = n;
    sbuf_free(&name);
    sbuf_free(&label);
  }
  Agnode_t *a = access_node(g, &lanes, "first", json_object_get(cell, "first"));
  Agnode_t *b = access_node(g, &lanes, "second", json_object_get(cell, "second"));
  if (previous) ordering_edge(g, previous, a), ordering_edge(g, previous, b);
  Agedge_t *race = agedge(g, a, b, "race", 1);
  strbuf on = {0};
  sbuf_printf(&on, "race on %s", text_of(cell, "cell"));
  viz_set(race, "label", sbuf_str(&on));
  sbuf_free(&on);
  viz_set(race, "color", "red");
  viz_set(race, "fontcolor", "red");
  viz_set(race, "dir", "both");
  viz_set(race, "constraint", "false");
  vec_foreach(&lanes, i) free(lanes.items[i].name);
  vec_free(&lanes);
  sbuf_free(&title);
  return g;
}

bool viz_is_race_report(const char *text, size_t len) {
  json_t *root = json_loadb(text, len, 0, NULL);
  bool races = root && strcmp(text_of(root, "command"), "races") == 0;
  json_decref(root);
  return races;
}

/* The report's first race cell, or NULL. */
static const json_t *first_race(const json_t *root) {
  const json_t *cells = json_object_get(root, "cells");
  for (size_t i = 0; i < json_array_size(cells); i++)
    if (strcmp(text_of(json_array_get(cells, i), "verdict"), "race") == 0) return json_array_get(cells, i);
  return NULL;
}

/* The report's race cell to draw (root's), or NULL after a report. */
static const json_t *race_to_draw(diag_sink *sink, const char *name, const json_t *root, const json_error_t *why) {
  if (!root) {
    strbuf where = {0};
    sbuf_printf(&where, "%s:%d:%d", name, why->line, why->column);
    diag_error_at(sink, sbuf_str(&where), "not JSON: %s", why->text);
    sbuf_free(&where);
    return NULL;
  }
  if (strcmp(text_of(root, "command"), "races") != 0) {
    diag_error_at(sink, name, "not a report of athread races --json (a trace of compose or conform needs its "
                              "specification: athread viz SPEC --trace FILE)");
    return NULL;
  }
  const json_t *cell = first_race(root);
  if (!cell) diag_error_at(sink, name, "no race to draw: the report of athread races has no cell with verdict \"race\"");
  return cell;
}

viz_result viz_render_race(diag_sink *sink, const char *name, const char *text, size_t len, viz_format f, char **out,
                           size_t *out_len) {
  json_error_t why;
  json_t *root = json_loadb(text, len, 0, &why);
  const json_t *cell = race_to_draw(sink, name, root, &why);
  if (!cell) {
    json_decref(root);
    return VIZ_REFUSED;
  }
  viz_result r = viz_render_graph(sink, race_graph, cell, f, out, out_len);
  json_decref(root);
  return r;
}
