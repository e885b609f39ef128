/* viz/viz-legend.c -- the legend of a diagram, an HTML-like table that is
 * the label of the whole graph (at the top, so it does not share a rank with
 * any state): a title (and how the counterexample goes wrong), then side by
 * side the consts and shared variables (type and initial value; with a
 * trace, the values at its first and last step), the system's instances,
 * init predicates and invariants, and the steps of the counterexample. */
#include <inttypes.h>
#include <string.h>

#include "viz-impl.h"

/* The most counterexample steps listed in the legend. */
#define MAX_LEGEND_STEPS 40
/* Longest label shown in the list of steps. */
#define STEP_LABEL_WIDTH 30

#define MUTED "#555555"
#define CHANGED "#c0392b"

typedef struct legend {
  strbuf h;                /* the HTML being built */
  const ast_spec *spec;    /* borrowed */
  const viz_trace *trace;  /* borrowed, or NULL */
} legend;

/* A block of columns of the legend, beside the others: its row r is written
 * by row(l, r); rows past its own stay empty. */
typedef struct block {
  size_t rows;                       /* rows it fills */
  int columns;                       /* cells in each row */
  void (*row)(legend *l, size_t r);  /* writes the cells of row r < rows */
} block;

/* ---------------------------------------------------------------- cells */

/* A table cell; Graphviz refuses an empty <FONT> or <B>, so "" is a bare cell. */
static void cell(legend *l, const char *text, const char *color, bool bold) {
  sbuf_puts(&l->h, "<TD ALIGN=\"LEFT\">");
  if (!*text) {
    sbuf_puts(&l->h, "</TD>");
    return;
  }
  if (color) sbuf_printf(&l->h, "<FONT COLOR=\"%s\">", color);
  sbuf_puts(&l->h, bold ? "<B>" : "");
  viz_put_html(&l->h, text);
  sbuf_puts(&l->h, bold ? "</B>" : "");
  sbuf_puts(&l->h, color ? "</FONT></TD>" : "</TD>");
}

static void heading(legend *l, const char *text) {
  sbuf_printf(&l->h, "<TD ALIGN=\"LEFT\"><FONT COLOR=\"%s\"><I>%s</I></FONT></TD>", MUTED, text);
}

/* ---------------------------------------------------------------- variables */

static void put_type(strbuf *b, const ast_type *t) {
  if (t->kind == TYPE_BOOL) sbuf_puts(b, "bool");
  if (t->kind == TYPE_INT) sbuf_puts(b, "int");
  if (t->kind != TYPE_RANGE) return;
  sbuf_puts(b, "int[");
  ir_print(b, t->lo);
  sbuf_puts(b, "..");
  ir_print(b, t->hi);
  sbuf_puts(b, "]");
}

static void variables_heading(legend *l) {
  heading(l, "shared");
  heading(l, "type");
  heading(l, "initially");
  if (!l->trace) return;
  heading(l, "step 0");
  strbuf last = {0};
  sbuf_printf(&last, "step %zu", l->trace->steps.len);
  heading(l, sbuf_str(&last));
  sbuf_free(&last);
}

static void shared_cells(legend *l, const ast_shared *v) {
  strbuf type = {0}, init = {0};
  put_type(&type, &v->type);
  if (v->init) ir_print(&init, v->init);
  else sbuf_puts(&init, "any");
  cell(l, v->name, NULL, false);
  cell(l, sbuf_str(&type), MUTED, false);
  cell(l, sbuf_str(&init), NULL, false);
  if (l->trace) {
    const char *first = l->trace->initial[v->index], *last = l->trace->final[v->index];
    bool changed = strcmp(first, last) != 0;
    cell(l, first, NULL, false);
    cell(l, last, changed ? CHANGED : NULL, changed);
  }
  sbuf_free(&type);
  sbuf_free(&init);
}

static void const_cells(legend *l, const ast_const *c) {
  strbuf value = {0};
  sbuf_printf(&value, "%" PRId64 "%s", c->value, c->overridden ? " (--set)" : "");
  cell(l, c->name, NULL, false);
  cell(l, "const", MUTED, false);
  cell(l, sbuf_str(&value), NULL, false);
  if (l->trace) sbuf_puts(&l->h, "<TD COLSPAN=\"2\"></TD>");
  sbuf_free(&value);
}

/* Row 0: the headings; then the consts, then the shared variables. */
static void variables_row(legend *l, size_t r) {
  const ast_spec *spec = l->spec;
  if (r == 0) variables_heading(l);
  else if (r - 1 < spec->consts.len) const_cells(l, spec->consts.items[r - 1]);
  else shared_cells(l, spec->shared.items[r - 1 - spec->consts.len]);
}

/* ---------------------------------------------------------------- the system */

/* A muted heading, then text wrapped on '\n'. */
static void system_cells(legend *l, const char *what, const char *text, const char *color) {
  heading(l, what);
  sbuf_puts(&l->h, "<TD ALIGN=\"LEFT\" BALIGN=\"LEFT\">");
  if (color) sbuf_printf(&l->h, "<FONT COLOR=\"%s\"><B>", color);
  viz_put_html_lines(&l->h, text, "<BR/>    ");
  if (color) sbuf_puts(&l->h, "</B></FONT>");
  sbuf_puts(&l->h, "</TD>");
}

static void instances_cells(legend *l) {
  strbuf text = {0};
  vec_foreach(&l->spec->instances, i) {
    const ast_instance *in = l->spec->instances.items[i];
    sbuf_printf(&text, "%s%s", i ? ", " : "", in->thread);
    if (!in->count) continue;
    sbuf_putc(&text, '[');
    ir_print(&text, in->count);
    sbuf_putc(&text, ']');
    if (in->count->kind != IR_INT) sbuf_printf(&text, " = %" PRId64, in->count_value);
  }
  system_cells(l, "instances", text.len ? sbuf_str(&text) : "none", NULL);
  sbuf_free(&text);
}

/* An init predicate or invariant; the invariant a trace says is false is red. */
static void predicate_cells(legend *l, const char *what, const ir_expr *e, bool may_fail) {
  strbuf flat = {0}, text = {0};
  ir_print(&flat, e);
  bool failed = may_fail && l->trace && l->trace->bad < 0 && strcmp(sbuf_str(&flat), l->trace->expression) == 0;
  viz_put_wrapped(&text, e, VIZ_WRAP_WIDTH + 10);
  system_cells(l, what, sbuf_str(&text), failed ? CHANGED : NULL);
  sbuf_free(&flat);
  sbuf_free(&text);
}

/* Row 0: the instances; then the init predicates, the invariants, and (in
 * the row that --idle adds) what the dashed loops are. */
static void system_row(legend *l, size_t r) {
  const ast_spec *spec = l->spec;
  size_t inits = spec->inits.len, props = spec->properties.len;
  if (r == 0) instances_cells(l);
  else if (r - 1 < inits) predicate_cells(l, "init", spec->inits.items[r - 1], false);
  else if (r - 1 - inits < props) predicate_cells(l, "invariant", spec->properties.items[r - 1 - inits], true);
  else system_cells(l, "idle", "dashed loops: a step that changes nothing", NULL);
}

/* ---------------------------------------------------------------- the trace */

static void step_cells(legend *l, size_t k, const viz_step *s) {
  const ast_edge *e = l->spec->threads.items[s->thread]->edges.items[s->edge];
  strbuf num = {0}, move = {0};
  sbuf_printf(&num, "%zu", k + 1);
  sbuf_printf(&move, "%s \xE2\x86\x92 %s", e->from, e->to);
  if (e->label) {
    strbuf label = {0};
    viz_put_label(&label, e->label);
    sbuf_puts(&move, "  \"");
    viz_put_short(&move, sbuf_str(&label), STEP_LABEL_WIDTH);
    sbuf_puts(&move, "\"");
    sbuf_free(&label);
  }
  cell(l, sbuf_str(&num), MUTED, false);
  cell(l, s->instance, NULL, true);
  cell(l, sbuf_str(&move), NULL, false);
  cell(l, s->changes, CHANGED, false);
  sbuf_free(&num);
  sbuf_free(&move);
}

/* Row 0: the headings; then one step per row, and a last row that says how
 * many more there are, or that there are none. */
static void steps_row(legend *l, size_t r) {
  const viz_trace *tr = l->trace;
  if (r == 0) {
    heading(l, "step");
    heading(l, "instance");
    heading(l, "edge");
    heading(l, "changes");
  } else if (r - 1 < tr->steps.len && r - 1 < MAX_LEGEND_STEPS) {
    step_cells(l, r - 1, &tr->steps.items[r - 1]);
  } else if (tr->steps.len == 0) {
    sbuf_puts(&l->h, "<TD COLSPAN=\"4\" ALIGN=\"LEFT\"><I>none: the initial state goes wrong</I></TD>");
  } else {
    sbuf_printf(&l->h, "<TD COLSPAN=\"4\" ALIGN=\"LEFT\"><I>\xE2\x80\xA6 %zu more steps</I></TD>", tr->steps.len - MAX_LEGEND_STEPS);
  }
}

static size_t steps_rows(const viz_trace *tr) {
  if (tr->steps.len == 0) return 2;
  return 1 + (tr->steps.len > MAX_LEGEND_STEPS ? MAX_LEGEND_STEPS + 1 : tr->steps.len);
}

/* ---------------------------------------------------------------- the table */

static void title_row(legend *l, const viz_options *o, int columns) {
  sbuf_printf(&l->h, "<TR><TD ALIGN=\"LEFT\" BALIGN=\"LEFT\" COLSPAN=\"%d\"><FONT POINT-SIZE=\"14\"><B>", columns);
  if (l->spec->system) {
    sbuf_puts(&l->h, "system ");
    viz_put_html(&l->h, l->spec->system->name);
  } else {
    sbuf_puts(&l->h, "one instance of each thread");
  }
  sbuf_puts(&l->h, "</B></FONT>");
  if (o->spec_name) {
    sbuf_printf(&l->h, "  <FONT COLOR=\"%s\">", MUTED);
    viz_put_html(&l->h, o->spec_name);
    sbuf_puts(&l->h, "</FONT>");
  }
  if (l->trace) {
    sbuf_printf(&l->h, "<BR/><FONT COLOR=\"%s\"><B>counterexample, %zu step%s:</B> ", CHANGED, l->trace->steps.len,
                l->trace->steps.len == 1 ? "" : "s");
    viz_put_html(&l->h, l->trace->message);
    sbuf_puts(&l->h, "</FONT>");
  }
  sbuf_puts(&l->h, "</TD></TR><HR/>");
}

/* The blocks side by side, a vertical rule between them, as many rows as the
 * longest needs. */
static void block_rows(legend *l, const block *blocks, size_t n) {
  size_t rows = 0;
  for (size_t i = 0; i < n; i++) rows = blocks[i].rows > rows ? blocks[i].rows : rows;
  for (size_t r = 0; r < rows; r++) {
    sbuf_puts(&l->h, "<TR>");
    for (size_t i = 0; i < n; i++) {
      if (i) sbuf_puts(&l->h, "<VR/>");
      if (r < blocks[i].rows) blocks[i].row(l, r);
      else sbuf_printf(&l->h, "<TD COLSPAN=\"%d\"></TD>", blocks[i].columns);
    }
    sbuf_puts(&l->h, "</TR>");
  }
}

void viz_add_legend(Agraph_t *g, const ast_spec *spec, const viz_options *o) {
  legend l = {.spec = spec, .trace = o->trace};
  block blocks[3];
  size_t n = 0;
  if (spec->consts.len || spec->shared.len)
    blocks[n++] = (block){1 + spec->consts.len + spec->shared.len, o->trace ? 5 : 3, variables_row};
  blocks[n++] = (block){1 + spec->inits.len + spec->properties.len + o->idle, 2, system_row};
  if (o->trace) blocks[n++] = (block){steps_rows(o->trace), 4, steps_row};
  int columns = 0;
  for (size_t i = 0; i < n; i++) columns += blocks[i].columns;
  sbuf_puts(&l.h, "<TABLE BORDER=\"1\" CELLBORDER=\"0\" CELLSPACING=\"0\" CELLPADDING=\"3\" COLOR=\"#999999\" "
                  "BGCOLOR=\"#fcfcfc\">");
  title_row(&l, o, columns);
  block_rows(&l, blocks, n);
  sbuf_puts(&l.h, "</TABLE>");
  viz_set_html(g, sbuf_str(&l.h));
  sbuf_free(&l.h);
}
