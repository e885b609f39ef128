/* viz/viz-graph.c -- the threads of a diagram: one cluster per thread, the
 * states as nodes (a point's arrow into each init state, the assertion under
 * the name, an octagon for a state whose assertion is constantly false), the
 * edges with their labels or bodies, and the counterexample overlay.
 *
 * Everything is created in spec order, and the graph is opened with viz.c's
 * id discipline, so Graphviz sees the same graph on every run.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "viz-impl.h"

/* ---------------------------------------------------------------- look */

#define FONT "Helvetica,Arial,sans-serif"
#define TRACE_COLOR "#c0392b"  /* taken edges, the failing state */
#define UNUSED_COLOR "#8a8a8a" /* edges the code never uses (viz_options.unused), also dashed */
#define VISITED_FILL "#fff3c4" /* states the counterexample passes through */
#define BAD_FILL "#f9d6d2"     /* the state where an instance goes wrong */
#define ERROR_FILL "#fdecea"   /* states whose assertion is constantly false */

/* Pastel cluster fills and their borders, one pair per thread in turn. */
static const char *const cluster_fill[] = {"#eef4fb", "#eef7ea", "#fbf3e4", "#f4eefa", "#e8f5f3", "#faeef0"};
static const char *const cluster_border[] = {"#7d9cc4", "#85ad78", "#cfa660", "#a48bc2", "#6daea3", "#c98b97"};
#define PALETTE (sizeof cluster_fill / sizeof *cluster_fill)

typedef struct attr_default {
  int kind;          /* AGRAPH, AGNODE or AGEDGE */
  const char *name;  /* attribute */
  const char *value; /* its default for every object of that kind */
} attr_default;

/* Declared once, so the DOT header holds the common look. */
static const attr_default defaults[] = {
    {AGRAPH, "fontname", FONT},     {AGRAPH, "fontsize", "13"},
    {AGRAPH, "nodesep", "0.45"},    {AGRAPH, "ranksep", "0.4"},
    {AGRAPH, "labelloc", "t"},      {AGRAPH, "labeljust", "l"},
    {AGRAPH, "pad", "0.2"},         {AGRAPH, "label", ""},
    {AGRAPH, "style", ""},          {AGRAPH, "color", ""},
    {AGRAPH, "fillcolor", ""},      {AGRAPH, "margin", ""},
    {AGNODE, "shape", "box"},       {AGNODE, "style", "rounded,filled"},
    {AGNODE, "fillcolor", "white"}, {AGNODE, "color", "#444444"},
    {AGNODE, "penwidth", "1"},      {AGNODE, "fontname", FONT},
    {AGNODE, "fontsize", "12"},     {AGNODE, "margin", "0.1,0.04"},
    {AGNODE, "height", "0.4"},      {AGNODE, "width", "0.6"},
    {AGNODE, "label", "\\N"},       {AGNODE, "tooltip", ""},
    {AGEDGE, "fontname", FONT},     {AGEDGE, "fontsize", "10"},
    {AGEDGE, "color", "#555555"},   {AGEDGE, "fontcolor", "#333333"},
    {AGEDGE, "penwidth", "1"},      {AGEDGE, "arrowsize", "0.7"},
    {AGEDGE, "label", ""},          {AGEDGE, "tooltip", ""},
    {AGEDGE, "style", ""},
};

/* ---------------------------------------------------------------- the overlay */

/* What the counterexample says about one thread. */
typedef struct overlay {
  strbuf *edge_steps; /* per edge: "1, 4", the steps that take it */
  size_t *taken;      /* per edge: how many steps take it */
  bool *visited;      /* per state: some instance is there at some step */
  strbuf *ends;       /* per state: the instances there after the last step */
  bool *
      bad; /* per state: the instance that goes wrong is there (compose), or the state is in F when the failing step comes (conform) */
  strbuf *f_after; /* per state (conform): "0–2, 5", the steps after which it is in F */
  bool conform;    /* the trace is a conformance counterexample of this thread */
  size_t failing;  /* its failing step (conform) */
} overlay;

typedef struct builder {
  const ast_spec *spec; /* borrowed */
  const viz_options *o; /* borrowed */
  Agraph_t *g;          /* being built */
  overlay *ov;          /* per thread; NULL without a trace */
} builder;

/* The most step numbers written on one edge. */
#define MAX_EDGE_STEPS 6

static void note_place(overlay *ov, const viz_place *p, bool end, bool bad) {
  overlay *o = &ov[p->thread];
  o->visited[p->state] = true;
  if (!end) return;
  sbuf_printf(&o->ends[p->state], "%s%s", o->ends[p->state].len ? ", " : "", p->instance);
  if (bad) o->bad[p->state] = true;
}

static void note_step(overlay *ov, const ast_spec *spec, const viz_step *s, size_t number) {
  overlay *o = &ov[s->thread];
  strbuf *b = &o->edge_steps[s->edge];
  size_t k = o->taken[s->edge]++;
  if (k < MAX_EDGE_STEPS) sbuf_printf(b, "%s%zu", k ? ", " : "", number);
  else if (k == MAX_EDGE_STEPS) sbuf_puts(b, ", \xE2\x80\xA6");
  o->visited[spec->threads.items[s->thread]->edges.items[s->edge]->to_index] = true;
}

/* The most runs of step numbers after "F after" on a state. */
#define MAX_F_RUNS 6

/* Appends the steps k after which state is in F (0 is the start), a run of
 * three or more as a range: "0–3, 5, 6". */
static void put_f_after(strbuf *b, const viz_conform *c, int state) {
  size_t runs = 0, n = c->steps.len;
  for (size_t k = 0; k <= n; k++) {
    if (!c->in_f[k] || !c->in_f[k][state]) continue;
    size_t first = k;
    while (k < n && c->in_f[k + 1] && c->in_f[k + 1][state]) k++;
    if (runs++ == MAX_F_RUNS) {
      sbuf_puts(b, ", \xE2\x80\xA6");
      return;
    }
    sbuf_printf(b, "%s%zu", b->len ? ", " : "", first);
    if (k > first) sbuf_printf(b, "%s%zu", k == first + 1 ? ", " : "\xE2\x80\x93", k); /* U+2013 EN DASH */
  }
}

/* What a conformance counterexample says about its thread's states. */
static void note_conform(overlay *o, const ast_thread *t, const viz_conform *c) {
  o->conform = true;
  o->failing = c->failure_step;
  vec_foreach(&t->states, s) {
    put_f_after(&o->f_after[s], c, (int)s);
    o->visited[s] = o->f_after[s].len > 0;
    o->bad[s] = c->final_f && c->final_f[s];
  }
}

static overlay *overlay_new(const ast_spec *spec, const viz_trace *tr) {
  overlay *ov = xcalloc(spec->threads.len, sizeof *ov);
  vec_foreach(&spec->threads, i) {
    const ast_thread *t = spec->threads.items[i];
    ov[i] = (overlay){.edge_steps = xcalloc(t->edges.len + 1, sizeof(strbuf)),
                      .taken = xcalloc(t->edges.len + 1, sizeof(size_t)),
                      .visited = xcalloc(t->states.len, 1),
                      .ends = xcalloc(t->states.len, sizeof(strbuf)),
                      .bad = xcalloc(t->states.len, 1),
                      .f_after = xcalloc(t->states.len, sizeof(strbuf))};
    if (tr->kind == VIZ_TRACE_CONFORM && tr->conform[i]) note_conform(&ov[i], t, tr->conform[i]);
  }
  if (tr->kind == VIZ_TRACE_CONFORM) return ov;
  vec_foreach(&tr->start, i) note_place(ov, &tr->start.items[i], false, false);
  vec_foreach(&tr->steps, i) note_step(ov, spec, &tr->steps.items[i], i + 1);
  vec_foreach(&tr->end, i) note_place(ov, &tr->end.items[i], true, (int)i == tr->bad);
  return ov;
}

static void overlay_free(overlay *ov, const ast_spec *spec) {
  if (!ov) return;
  vec_foreach(&spec->threads, i) {
    const ast_thread *t = spec->threads.items[i];
    for (size_t k = 0; k < t->edges.len; k++) sbuf_free(&ov[i].edge_steps[k]);
    for (size_t k = 0; k < t->states.len; k++) sbuf_free(&ov[i].ends[k]);
    for (size_t k = 0; k < t->states.len; k++) sbuf_free(&ov[i].f_after[k]);
    free(ov[i].edge_steps);
    free(ov[i].taken);
    free(ov[i].visited);
    free(ov[i].ends);
    free(ov[i].bad);
    free(ov[i].f_after);
  }
  free(ov);
}

/* ---------------------------------------------------------------- states */

/* With o->ids, names obj "PREFIX_THREAD_INDEX" in the SVG (viz_options.ids;
 * not "-", which Graphviz writes as &#45;). */
static void set_id(const builder *b, void *obj, const char *prefix, const ast_thread *t, int index) {
  if (!b->o->ids) return;
  char id[160];
  snprintf(id, sizeof id, "%s_%s_%d", prefix, t->name, index);
  viz_set(obj, "id", id);
}

/* Node names are unique over the whole graph: '.' and '/' cannot occur in
 * the spec's names. */
static Agnode_t *named_node(Agraph_t *c, const char *thread, const char *sep, const char *name) {
  strbuf n = {0};
  sbuf_printf(&n, "%s%s%s", thread, sep, name);
  Agnode_t *node = agnode(c, (char *)sbuf_str(&n), 1);
  sbuf_free(&n);
  return node;
}

/* Appends a table row of small text. */
static void put_small_row(strbuf *h, const char *text, const char *color, bool bold) {
  sbuf_printf(h, "<TR><TD><FONT POINT-SIZE=\"10\" COLOR=\"%s\">%s", color, bold ? "<B>" : "");
  viz_put_html_lines(h, text, "<BR/>");
  sbuf_printf(h, "%s</FONT></TD></TR>", bold ? "</B>" : "");
}

static void state_label(builder *b, const ast_thread *t, const ast_state *s, Agnode_t *n) {
  const overlay *ov = b->ov ? &b->ov[t->index] : NULL;
  strbuf h = {0}, text = {0};
  sbuf_puts(&h, "<TABLE BORDER=\"0\" CELLBORDER=\"0\" CELLSPACING=\"0\" CELLPADDING=\"1\"><TR><TD><B>");
  viz_put_html(&h, s->name);
  sbuf_puts(&h, "</B></TD></TR>");
  if (s->assertion) {
    viz_put_wrapped(&text, s->assertion, VIZ_WRAP_WIDTH);
    sbuf_puts(&h, "<HR/>");
    put_small_row(&h, sbuf_str(&text), "#444444", false);
    sbuf_free(&text);
  }
  if (ov && ov->f_after[s->index].len) {
    sbuf_printf(&text, "F after %s", sbuf_str(&ov->f_after[s->index]));
    put_small_row(&h, sbuf_str(&text), "#1c4f8a", false);
    sbuf_free(&text);
  }
  if (ov && ov->conform && ov->bad[s->index]) {
    if (ov->failing) sbuf_printf(&text, "in F when step %zu fails", ov->failing);
    else sbuf_puts(&text, "in F when it fails");
    put_small_row(&h, sbuf_str(&text), TRACE_COLOR, true);
    sbuf_free(&text);
  }
  if (ov && ov->ends[s->index].len) {
    sbuf_printf(&text, "%s: %s", ov->bad[s->index] ? "goes wrong" : "ends here", sbuf_str(&ov->ends[s->index]));
    put_small_row(&h, sbuf_str(&text), ov->bad[s->index] ? TRACE_COLOR : "#1c4f8a", true);
    sbuf_free(&text);
  }
  sbuf_puts(&h, "</TABLE>");
  viz_set_html(n, sbuf_str(&h));
  sbuf_free(&h);
}

/* The tooltip of a state: its assertion in full (with the thread's invariant). */
static void state_tooltip(const ast_thread *t, const ast_state *s, Agnode_t *n) {
  strbuf tip = {0};
  sbuf_printf(&tip, "state %s", s->name);
  if (s->assertion) {
    sbuf_puts(&tip, " assert ");
    ir_print(&tip, s->assertion);
  }
  vec_foreach(&t->invariants, i) {
    sbuf_puts(&tip, "\ninvariant ");
    ir_print(&tip, t->invariants.items[i]);
  }
  strbuf esc = {0};
  viz_put_plain(&esc, sbuf_str(&tip));
  viz_set(n, "tooltip", sbuf_str(&esc));
  sbuf_free(&esc);
  sbuf_free(&tip);
}

static bool error_state(const ast_spec *spec, const ast_thread *t, const ast_state *s) {
  if (s->assertion && viz_constantly_false(spec, s->assertion)) return true;
  vec_foreach(&t->invariants, i)
    if (viz_constantly_false(spec, t->invariants.items[i])) return true;
  return false;
}

static Agnode_t *add_state(builder *b, Agraph_t *c, const ast_thread *t, const ast_state *s) {
  Agnode_t *n = named_node(c, t->name, ".", s->name);
  state_label(b, t, s, n);
  state_tooltip(t, s, n);
  set_id(b, n, "s", t, s->index);
  if (error_state(b->spec, t, s)) {
    viz_set(n, "shape", "octagon");
    viz_set(n, "style", "filled");
    viz_set(n, "color", TRACE_COLOR);
    viz_set(n, "fillcolor", ERROR_FILL);
  }
  const overlay *ov = b->ov ? &b->ov[t->index] : NULL;
  if (ov && ov->visited[s->index]) {
    viz_set(n, "fillcolor", VISITED_FILL);
    viz_set(n, "penwidth", "1.5");
  }
  if (ov && ov->bad[s->index]) {
    viz_set(n, "fillcolor", BAD_FILL);
    viz_set(n, "color", TRACE_COLOR);
    viz_set(n, "penwidth", "3");
  }
  return n;
}

/* A small black point with an arrow into every init state. */
static void add_init_arrows(Agraph_t *c, const ast_thread *t, Agnode_t **nodes) {
  Agnode_t *start = named_node(c, t->name, "/", "init");
  viz_set(start, "shape", "point");
  viz_set(start, "style", "filled");
  viz_set(start, "fillcolor", "black");
  viz_set(start, "width", "0.12");
  viz_set(start, "height", "0.12");
  viz_set(start, "tooltip", "initial states");
  vec_foreach(&t->states, i)
    if (t->states.items[i]->initial) viz_set(agedge(c, start, nodes[i], NULL, 1), "tooltip", "init state");
}

/* ---------------------------------------------------------------- edges */

/* Appends text shortened to width, in brackets when bracket. */
static void put_part(strbuf *out, const strbuf *text, size_t width, bool bracket) {
  sbuf_puts(out, bracket ? "[" : "");
  viz_put_short(out, sbuf_str(text), bracket ? width - 2 : width);
  sbuf_puts(out, bracket ? "]" : "");
}

/* The lines of an edge's label, '\n' between them: its label string, or the
 * guard in brackets and the assignments, or the relation (nothing for
 * `true`), each cut to VIZ_EDGE_WIDTH. */
static void edge_lines(strbuf *out, const ast_edge *e) {
  strbuf part = {0};
  if (e->label) {
    viz_put_label(&part, e->label);
    put_part(out, &part, VIZ_EDGE_WIDTH, false);
  } else if (e->kind == EDGE_RELATION) {
    if (e->relation->kind != IR_BOOL || !e->relation->value) ir_print(&part, e->relation);
    put_part(out, &part, VIZ_EDGE_WIDTH, false);
  } else {
    if (e->guard) ir_print(&part, e->guard);
    if (e->guard) put_part(out, &part, VIZ_EDGE_WIDTH, true);
    sbuf_free(&part);
    viz_put_assignments(&part, e);
    if (e->guard && part.len) sbuf_putc(out, '\n');
    put_part(out, &part, VIZ_EDGE_WIDTH, false);
  }
  sbuf_free(&part);
}

/* The label is HTML so that it keeps a margin from the edges beside it (a
 * plain label touches the next parallel edge) and the step numbers are bold. */
static void edge_label(Agedge_t *ge, const char *text, const strbuf *steps) {
  if (!*text && !(steps && steps->len)) return;
  strbuf h = {0};
  sbuf_puts(&h, "<TABLE BORDER=\"0\" CELLBORDER=\"0\" CELLSPACING=\"0\" CELLPADDING=\"3\"><TR><TD>");
  if (steps && steps->len) sbuf_printf(&h, "<B>%s:</B> ", sbuf_str(steps));
  viz_put_html_lines(&h, text, "<BR/>");
  sbuf_puts(&h, "</TD></TR></TABLE>");
  viz_set_html(ge, sbuf_str(&h));
  sbuf_free(&h);
}

static void edge_text(Agedge_t *ge, const ast_edge *e, const strbuf *steps) {
  strbuf lines = {0}, tip = {0}, esc = {0};
  edge_lines(&lines, e);
  edge_label(ge, sbuf_str(&lines), steps);
  if (steps && steps->len) sbuf_printf(&tip, "steps %s: ", sbuf_str(steps));
  viz_put_edge_source(&tip, e);
  viz_put_plain(&esc, sbuf_str(&tip));
  viz_set(ge, "tooltip", sbuf_str(&esc));
  sbuf_free(&lines);
  sbuf_free(&tip);
  sbuf_free(&esc);
}

static void add_edge(builder *b, Agraph_t *c, const ast_thread *t, const ast_edge *e, Agnode_t **nodes) {
  Agedge_t *ge = agedge(c, nodes[e->from_index], nodes[e->to_index], NULL, 1);
  const strbuf *steps = b->ov ? &b->ov[t->index].edge_steps[e->index] : NULL;
  edge_text(ge, e, steps);
  set_id(b, ge, "e", t, e->index);
  if (b->o->unused && b->o->only == t && b->o->unused[e->index]) {
    viz_set(ge, "style", "dashed");
    viz_set(ge, "color", UNUSED_COLOR);
    viz_set(ge, "fontcolor", UNUSED_COLOR);
  }
  if (!steps || !steps->len) return;
  viz_set(ge, "color", TRACE_COLOR);
  viz_set(ge, "fontcolor", TRACE_COLOR);
  viz_set(ge, "penwidth", "2.5");
}

/* The implicit step of every state that changes nothing (--idle): a small
 * dashed loop without a label (a label would cross the labels of the
 * state's own self-loops; the legend says what the dashed loops are). */
static void add_idle_loops(Agraph_t *c, const ast_thread *t, Agnode_t **nodes) {
  vec_foreach(&t->states, i) {
    Agedge_t *e = agedge(c, nodes[i], nodes[i], NULL, 1);
    viz_set(e, "style", "dashed");
    viz_set(e, "color", "#999999");
    viz_set(e, "arrowsize", "0.5");
    viz_set(e, "tooltip", "idle step: changes nothing");
  }
}

/* ---------------------------------------------------------------- threads */

static int64_t instances_of(const ast_spec *spec, const ast_thread *t) {
  vec_foreach(&spec->instances, i)
    if (spec->instances.items[i]->thread_index == t->index) return spec->instances.items[i]->count_value;
  return 0;
}

static void thread_title(const ast_spec *spec, const ast_thread *t, Agraph_t *c) {
  strbuf h = {0}, inv = {0};
  sbuf_puts(&h, "<B>");
  viz_put_html(&h, t->name);
  sbuf_puts(&h, "</B>");
  if (t->impl) sbuf_printf(&h, " <FONT COLOR=\"#555555\">implements</FONT> %s", t->impl);
  int64_t n = instances_of(spec, t);
  if (n > 1) sbuf_printf(&h, "  <FONT COLOR=\"#555555\">(%" PRId64 " instances)</FONT>", n);
  if (n == 0) sbuf_puts(&h, "  <FONT COLOR=\"#555555\">(not in the system)</FONT>");
  vec_foreach(&t->invariants, i) {
    viz_put_wrapped(&inv, t->invariants.items[i], VIZ_WRAP_WIDTH + 10);
    sbuf_puts(&h, "<BR ALIGN=\"LEFT\"/><FONT POINT-SIZE=\"10\">invariant ");
    viz_put_html_lines(&h, sbuf_str(&inv), "<BR ALIGN=\"LEFT\"/>    ");
    sbuf_puts(&h, "</FONT>");
    sbuf_free(&inv);
  }
  if (t->invariants.len) sbuf_puts(&h, "<BR ALIGN=\"LEFT\"/>");
  viz_set_html(c, sbuf_str(&h));
  sbuf_free(&h);
}

static void add_thread(builder *b, const ast_thread *t, size_t color) {
  strbuf name = {0};
  sbuf_printf(&name, "cluster_%s", t->name);
  Agraph_t *c = agsubg(b->g, (char *)sbuf_str(&name), 1);
  sbuf_free(&name);
  thread_title(b->spec, t, c);
  viz_set(c, "style", "rounded,filled");
  viz_set(c, "fillcolor", cluster_fill[color % PALETTE]);
  viz_set(c, "color", cluster_border[color % PALETTE]);
  viz_set(c, "margin", "16");
  Agnode_t **nodes = xcalloc(t->states.len + 1, sizeof *nodes);
  vec_foreach(&t->states, i) nodes[i] = add_state(b, c, t, t->states.items[i]);
  add_init_arrows(c, t, nodes);
  if (b->o->idle) add_idle_loops(c, t, nodes); /* first: dot nests later self-loops around them */
  vec_foreach(&t->edges, i) add_edge(b, c, t, t->edges.items[i], nodes);
  free(nodes);
}

/* ---------------------------------------------------------------- the graph */

Agraph_t *viz_build(const ast_spec *spec, const viz_options *o, Agdisc_t *disc) {
  const char *name = spec->system ? spec->system->name : "athread";
  Agraph_t *g = agopen((char *)name, Agdirected, disc);
  for (size_t i = 0; i < sizeof defaults / sizeof *defaults; i++)
    agattr(g, defaults[i].kind, (char *)defaults[i].name, (char *)defaults[i].value);
  builder b = {.spec = spec, .o = o, .g = g, .ov = o->trace ? overlay_new(spec, o->trace) : NULL};
  vec_foreach(&spec->threads, i)
    if (viz_draws(o, spec->threads.items[i])) add_thread(&b, spec->threads.items[i], i);
  if (!o->no_legend) viz_add_legend(g, spec, o);
  overlay_free(b.ov, spec);
  return g;
}
