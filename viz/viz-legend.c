/* viz/viz-legend.c -- the legend of a diagram, an HTML-like table that is
 * the label of the whole graph (at the top, so it does not share a rank with
 * any state): a title (and how the counterexample goes wrong), then side by
 * side the consts and shared variables (type and initial value; with a
 * trace, the values at its first and last step), the system's instances,
 * init predicates and invariants, and the steps of the counterexample.
 * With a conformance trace, one section per thread drawn instead: how its
 * code goes wrong, the variables, and the concrete steps with F after each. */
#include <inttypes.h>
#include <string.h>

#include "viz-impl.h"

/* The most counterexample steps listed in the legend. */
#define MAX_LEGEND_STEPS 40
/* Longest label shown in the list of steps. */
#define STEP_LABEL_WIDTH 30
/* Longest C statement shown in the list of concrete steps. */
#define STATEMENT_WIDTH 40
/* Lines of the reason a thread does not conform. */
#define MESSAGE_WIDTH 90

#define MUTED "#555555"
#define CHANGED "#c0392b"

typedef struct legend {
  strbuf h;               /* the HTML being built */
  const ast_spec *spec;   /* borrowed */
  const viz_trace *trace; /* borrowed, or NULL */
  const viz_conform *c;   /* the conformance counterexample of this section, or NULL */
} legend;

/* A block of columns of the legend, beside the others: its row r is written
 * by row(l, r); rows past its own stay empty. */
typedef struct block {
  size_t rows;                      /* rows it fills */
  int columns;                      /* cells in each row */
  void (*row)(legend *l, size_t r); /* writes the cells of row r < rows */
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
  heading(l, l->c ? "before 1" : "step 0");
  strbuf last = {0};
  if (!l->c) sbuf_printf(&last, "step %zu", l->trace->steps.len);
  else if (l->c->steps.len)
    sbuf_printf(&last, "%s %zu", l->c->steps.items[l->c->steps.len - 1].check ? "at" : "after", l->c->steps.len);
  else sbuf_puts(&last, "at 0");
  heading(l, sbuf_str(&last));
  sbuf_free(&last);
}

/* "{0, 1, 2}" for an array's list of initial values. */
static void put_init_list(strbuf *b, const ast_shared *v) {
  sbuf_putc(b, '{');
  vec_foreach(&v->init_list, i) {
    if (i) sbuf_puts(b, ", ");
    ir_print(b, v->init_list.items[i]);
  }
  sbuf_putc(b, '}');
}

/* A shared variable as declared (an array: "flag[N]", one row), or with a
 * trace one cell (an element: "flag[2]", whose values the trace shows). */
static void shared_cells(legend *l, const ast_shared *v) {
  strbuf name = {0}, type = {0}, init = {0};
  sbuf_puts(&name, v->name);
  if (v->size) {
    sbuf_putc(&name, '[');
    ir_print(&name, v->size);
    sbuf_putc(&name, ']');
  }
  put_type(&type, &v->type);
  if (v->binds) sbuf_printf(&type, " binds %s", v->binds); /* the C object it stands for */
  if (v->init) ir_print(&init, v->init);
  else if (v->init_list.len) put_init_list(&init, v);
  else sbuf_puts(&init, "any");
  cell(l, sbuf_str(&name), NULL, false);
  cell(l, sbuf_str(&type), MUTED, false);
  cell(l, sbuf_str(&init), NULL, false);
  if (l->trace) {
    const char *first = l->c ? (l->c->first ? l->c->first[v->index] : NULL) : l->trace->initial[v->index];
    const char *last = l->c ? (l->c->last ? l->c->last[v->index] : NULL) : l->trace->final[v->index];
    first = first ? first : "";
    last = last ? last : "";
    bool changed = *first && *last && strcmp(first, last) != 0;
    cell(l, first, NULL, false);
    cell(l, last, changed ? CHANGED : NULL, changed);
  }
  sbuf_free(&name);
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

/* The shared variables' rows: one per declaration, or with a trace one per
 * cell (every element of an array has its own values). */
static size_t shared_rows(const legend *l) { return l->trace ? l->spec->shared.len : l->spec->variables.len; }

/* Row 0: the headings; then the consts, then the shared variables. */
static void variables_row(legend *l, size_t r) {
  const ast_spec *spec = l->spec;
  size_t k = r - 1 - spec->consts.len;
  if (r == 0) variables_heading(l);
  else if (r - 1 < spec->consts.len) const_cells(l, spec->consts.items[r - 1]);
  else shared_cells(l, l->trace ? spec->shared.items[k] : spec->variables.items[k]);
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
    sbuf_printf(&l->h, "<TD COLSPAN=\"4\" ALIGN=\"LEFT\"><I>\xE2\x80\xA6 %zu more steps</I></TD>",
                tr->steps.len - MAX_LEGEND_STEPS);
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
  if (l->c) {
    sbuf_printf(&l->h, "<BR/><FONT COLOR=\"%s\">conformance: ", MUTED);
    viz_put_html(&l->h, l->trace->verdicts);
    sbuf_puts(&l->h, "</FONT>");
  } else if (l->trace) {
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

/* ---------------------------------------------------------------- conformance */

/* How the thread of l->c goes wrong, across the table. */
static void conform_title_row(legend *l, int columns) {
  const viz_conform *c = l->c;
  const ast_thread *t = l->spec->threads.items[c->thread];
  strbuf text = {0};
  sbuf_printf(&l->h, "<TR><TD ALIGN=\"LEFT\" BALIGN=\"LEFT\" COLSPAN=\"%d\"><FONT COLOR=\"%s\"><B>thread ", columns,
              CHANGED);
  viz_put_html(&l->h, t->name);
  if (*c->function) sbuf_printf(&l->h, " (%s)", c->function);
  sbuf_printf(&l->h, " does not conform, %zu step%s", c->steps.len, c->steps.len == 1 ? "" : "s");
  if (*c->engine) sbuf_printf(&l->h, " (%s)", c->engine);
  sbuf_puts(&l->h, ":</B><BR/>");
  viz_put_words(&text, c->message, MESSAGE_WIDTH);
  viz_put_html_lines(&l->h, sbuf_str(&text), "<BR/>");
  sbuf_puts(&l->h, "</FONT></TD></TR>");
  sbuf_free(&text);
}

/* The longest line of shared values in a cell of the list of concrete steps. */
#define VALUES_WIDTH 44

/* A cell of shared values "g=1, h=true" (spec order, the ones in now that
 * differ from hide, all when hide is NULL), in lines of about VALUES_WIDTH
 * characters; those that differ from mark are bold. */
static void values_cell(legend *l, const char **now, const char **hide, const char **mark, const char *color) {
  strbuf items = {0};
  size_t line = 0;
  vec_foreach(&l->spec->shared, i) {
    if (!now || !now[i] || (hide && hide[i] && strcmp(hide[i], now[i]) == 0)) continue;
    const char *name = l->spec->shared.items[i]->name;
    size_t n = strlen(name) + 1 + strlen(now[i]);
    if (line && line + 2 + n > VALUES_WIDTH) {
      sbuf_puts(&items, ",<BR/>");
      line = 0;
    } else if (line) {
      sbuf_puts(&items, ", ");
      line += 2;
    }
    bool bold = mark && (!mark[i] || strcmp(mark[i], now[i]) != 0);
    sbuf_puts(&items, bold ? "<B>" : "");
    viz_put_html(&items, name);
    sbuf_putc(&items, '=');
    viz_put_html(&items, now[i]);
    sbuf_puts(&items, bold ? "</B>" : "");
    line += n;
  }
  sbuf_puts(&l->h, "<TD ALIGN=\"LEFT\" BALIGN=\"LEFT\">");
  if (items.len && color) sbuf_printf(&l->h, "<FONT COLOR=\"%s\">%s</FONT>", color, sbuf_str(&items));
  else sbuf_puts(&l->h, sbuf_str(&items)); /* Graphviz refuses an empty <FONT> */
  sbuf_puts(&l->h, "</TD>");
  sbuf_free(&items);
}

/* What the failing step's F cell says when it has no F after it. */
static const char *failure_note(const char *kind) {
  if (strcmp(kind, "range") == 0) return "out of range";
  if (strcmp(kind, "assertion") == 0) return "assertion fails";
  if (strcmp(kind, "exit") == 0) return "exits";
  if (strcmp(kind, "index") == 0) return "index outside its array";
  if (strcmp(kind, "null") == 0) return "dereferences NULL";
  return kind;
}

static void cstep_cells(legend *l, size_t k, const viz_cstep *s) {
  bool failing = k + 1 == l->c->failure_step;
  const char *color = failing ? CHANGED : NULL;
  strbuf num = {0}, statement = {0};
  sbuf_printf(&num, "%zu%s", k + 1, s->check ? " (check)" : "");
  viz_put_short(&statement, s->statement, STATEMENT_WIDTH);
  cell(l, sbuf_str(&num), failing ? CHANGED : MUTED, failing);
  cell(l, s->where, color ? color : MUTED, false);
  cell(l, sbuf_str(&statement), color, failing);
  values_cell(l, s->env, s->before, NULL, color);
  values_cell(l, s->after, NULL, s->env, color);
  cell(l, s->locals, color ? color : MUTED, false);
  if (s->candidates) cell(l, s->candidates, color, false);
  else cell(l, failing ? failure_note(l->c->failure) : "", CHANGED, true);
  sbuf_free(&num);
  sbuf_free(&statement);
}

/* The start, as step 0: F before the first step. */
static void cstart_cells(legend *l) {
  bool failing = l->c->failure_step == 0;
  cell(l, "0", failing ? CHANGED : MUTED, failing);
  cell(l, "", NULL, false);
  cell(l, "start", failing ? CHANGED : MUTED, failing);
  sbuf_puts(&l->h, "<TD COLSPAN=\"3\"></TD>");
  cell(l, l->c->initial, failing ? CHANGED : NULL, false);
}

/* Row 0: the headings; row 1 the start; then, when there are too many, a
 * row that says how many of the first steps are left out, and the last
 * steps, one per row. */
static void csteps_row(legend *l, size_t r) {
  const viz_conform *c = l->c;
  size_t n = c->steps.len, skipped = n > MAX_LEGEND_STEPS ? n - MAX_LEGEND_STEPS : 0;
  if (r == 0) {
    const char *const names[] = {"step", "at", "statement", "environment sets", "after", "locals", "F after"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) heading(l, names[i]);
  } else if (r == 1) {
    cstart_cells(l);
  } else if (skipped && r == 2) {
    sbuf_printf(&l->h, "<TD COLSPAN=\"7\" ALIGN=\"LEFT\"><I>\xE2\x80\xA6 steps 1\xE2\x80\x93%zu not shown</I></TD>",
                skipped);
  } else {
    size_t k = skipped + r - 2 - (skipped ? 1 : 0);
    cstep_cells(l, k, &c->steps.items[k]);
  }
}

static size_t csteps_rows(const viz_conform *c) {
  size_t n = c->steps.len;
  return 2 + (n > MAX_LEGEND_STEPS ? MAX_LEGEND_STEPS + 1 : n);
}

/* The legend of a conformance trace: the title and verdicts, then a section
 * per thread drawn. */
static void conform_legend(legend *l, const viz_options *o) {
  const ast_spec *spec = l->spec;
  bool variables = spec->consts.len || spec->shared.len;
  int columns = (variables ? 5 : 0) + 7;
  bool first = true;
  vec_foreach(&spec->threads, i) {
    if (!(l->c = l->trace->conform[i]) || !viz_draws(o, spec->threads.items[i])) continue;
    if (first) title_row(l, o, columns);
    else sbuf_puts(&l->h, "<HR/>");
    first = false;
    block blocks[2];
    size_t n = 0;
    if (variables) blocks[n++] = (block){1 + spec->consts.len + shared_rows(l), 5, variables_row};
    blocks[n++] = (block){csteps_rows(l->c), 7, csteps_row};
    conform_title_row(l, columns);
    block_rows(l, blocks, n);
  }
}

/* ---------------------------------------------------------------- the legend */

/* The legend of a system, with or without a compose counterexample: the
 * title, then the variables, the system and the steps side by side. */
static void system_legend(legend *l, const viz_options *o) {
  const ast_spec *spec = l->spec;
  block blocks[3];
  size_t n = 0;
  if (spec->consts.len || spec->shared.len)
    blocks[n++] = (block){1 + spec->consts.len + shared_rows(l), o->trace ? 5 : 3, variables_row};
  blocks[n++] = (block){1 + spec->inits.len + spec->properties.len + o->idle, 2, system_row};
  if (o->trace) blocks[n++] = (block){steps_rows(o->trace), 4, steps_row};
  int columns = 0;
  for (size_t i = 0; i < n; i++) columns += blocks[i].columns;
  title_row(l, o, columns);
  block_rows(l, blocks, n);
}

void viz_add_legend(Agraph_t *g, const ast_spec *spec, const viz_options *o) {
  legend l = {.spec = spec, .trace = o->trace};
  sbuf_puts(&l.h, "<TABLE BORDER=\"1\" CELLBORDER=\"0\" CELLSPACING=\"0\" CELLPADDING=\"3\" COLOR=\"#999999\" "
                  "BGCOLOR=\"#fcfcfc\">");
  if (o->trace && o->trace->kind == VIZ_TRACE_CONFORM) conform_legend(&l, o);
  else system_legend(&l, o);
  sbuf_puts(&l.h, "</TABLE>");
  viz_set_html(g, sbuf_str(&l.h));
  sbuf_free(&l.h);
}
