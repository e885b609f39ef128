/* spec-lang/fmt.c -- canonical layout: one declaration, state group, edge or
 * system item per line (an item wider than FMT_WIDTH broken over several:
 * fmt-wrap.h), two-space indentation, single spaces around binary operators,
 * the fewest parentheses, and at most one blank line where the source had
 * one or more. Like gofmt's, the columns of a run of similar lines are
 * aligned: the "=" of consecutive consts, the type and name of consecutive
 * shared variables, the "->", label and clause of consecutive edges, and
 * the end-of-line comments of consecutive lines. A run of declarations or
 * edges ends only at an item of another kind or, for edges, at one too wide
 * for one line: blank lines and comment lines, which group the edges of a
 * thread, do not end it (the examples align their edges across groups). */
#include "fmt.h"

#include <stdlib.h>
#include <string.h>

#include "fmt-wrap.h"

typedef struct printer {
  strbuf *out;           /* destination */
  const ast_spec *spec;  /* source of the comments and text */
  size_t next_comment;   /* first comment not printed yet */
  uint32_t last_end;     /* source offset after the last thing printed */
  int indent;            /* current nesting depth */
  VEC(size_t) trailing;  /* output offsets where end-of-line comments start */
  VEC(fmt_break) breaks; /* where the item being printed may be broken */
  size_t cols[3];        /* widths of the columns of the current run (edge: from, to, label;
                            shared: type, name; const: name); 0 outside a run */
  size_t run_end;        /* index of the first item after the current run */
} printer;

/* ---------------------------------------------------------------- layout */

/* True when [from, to) holds a line of nothing but white space. */
static bool blank_line_between(const printer *p, uint32_t from, uint32_t to) {
  int newlines = 0;
  for (uint32_t i = from; i < to && i < p->spec->src->len; i++) {
    char c = p->spec->src->text[i];
    if (c == '\n' && ++newlines == 2) return true;
    if (c != '\n' && c != ' ' && c != '\t' && c != '\r') newlines = 0;
  }
  return false;
}

/* Starts a new output line for something at source offset `at`, keeping one
 * blank line where the source had one (but never first in a block). */
static void begin_line(printer *p, uint32_t at, bool first_in_block) {
  if (!first_in_block && blank_line_between(p, p->last_end, at)) sbuf_putc(p->out, '\n');
  for (int i = 0; i < p->indent; i++) sbuf_puts(p->out, "  ");
}

static const ast_comment *pending_comment(const printer *p) {
  const ast_spec *s = p->spec;
  return p->next_comment < s->comments.len ? &s->comments.items[p->next_comment] : NULL;
}

static void put_comment(printer *p, const ast_comment *c) {
  sbuf_putn(p->out, p->spec->src->text + c->at.start, c->at.end - c->at.start);
  p->last_end = c->at.end;
  p->next_comment++;
}

/* Prints, each on its own line, the comments that start before offset. */
static void comments_before(printer *p, uint32_t offset, bool *first_in_block) {
  for (const ast_comment *c; (c = pending_comment(p)) && c->at.start < offset;) {
    begin_line(p, c->at.start, *first_in_block);
    put_comment(p, c);
    sbuf_putc(p->out, '\n');
    *first_in_block = false;
  }
}

/* Ends the current line, with the comment that followed `end` on its line. */
static void end_line(printer *p, uint32_t end) {
  p->last_end = end;
  const ast_comment *c = pending_comment(p);
  if (c && c->at.start >= end) {
    const char *text = p->spec->src->text;
    if (!memchr(text + end, '\n', c->at.start - end)) {
      vec_push(NULL, &p->trailing, p->out->len);
      put_comment(p, c);
    }
  }
  sbuf_putc(p->out, '\n');
}

/* A scratch printer writing to line, to measure what p would print. */
static printer scratch(const printer *p, strbuf *line) {
  return (printer){.out = line, .spec = p->spec, .indent = p->indent};
}

static void scratch_free(printer *q) {
  sbuf_free(q->out);
  vec_free(&q->breaks);
  vec_free(&q->trailing);
}

/* Pads what was printed since start with spaces to width columns. */
static void pad_to(printer *p, size_t start, size_t width) {
  size_t printed = fmt_display_width(p->out->text + start, p->out->len - start);
  if (printed < width) sbuf_printf(p->out, "%*s", (int)(width - printed), "");
}

/* The line may break at the next character, a space, at this level. */
static void mark_break(printer *p, int level) { vec_push(NULL, &p->breaks, ((fmt_break){p->out->len, level})); }

/* Marks the space before each "&&" and "||" printed since start, at a level
 * one deeper than its brackets. */
static void mark_operators(printer *p, size_t start) {
  int depth = 1;
  for (size_t i = start; i < p->out->len; i++) {
    const char *c = p->out->text + i;
    if (*c == '(' || *c == '[') depth++;
    else if (*c == ')' || *c == ']') depth--;
    else if (strncmp(c, " && ", 4) == 0 || strncmp(c, " || ", 4) == 0)
      vec_push(NULL, &p->breaks, ((fmt_break){i, depth}));
  }
}

static void put_expr(printer *p, const ir_expr *e) {
  size_t start = p->out->len;
  ir_print(p->out, e);
  mark_operators(p, start);
}

/* Breaks the item printed since start over several lines if it is too wide. */
static void wrap_item(printer *p, size_t start) {
  size_t len = p->out->len - start, col = 2 * (size_t)p->indent;
  if (col + fmt_display_width(p->out->text + start, len) > FMT_WIDTH) {
    char *text = xmalloc(len);
    memcpy(text, p->out->text + start, len);
    vec_foreach(&p->breaks, i) p->breaks.items[i].at -= start;
    sbuf_truncate(p->out, start);
    fmt_wrap(p->out, text, len, col, p->breaks.items, p->breaks.len);
    free(text);
  }
  p->breaks.len = 0;
}

/* ---------------------------------------------------------------- items */

static void put_state_decl(printer *p, const ast_state_decl *d) {
  sbuf_puts(p->out, d->initial ? "init state " : "state ");
  vec_foreach(&d->states, i) sbuf_printf(p->out, "%s%s", i ? ", " : "", d->states.items[i]->name);
  if (d->assertion) {
    mark_break(p, 0);
    sbuf_puts(p->out, " assert ");
    put_expr(p, d->assertion);
  }
}

/* "From -> To "label"", its columns padded to the run's when more follows. */
static void put_edge_head(printer *p, const ast_edge *e, bool clause) {
  size_t start = p->out->len;
  sbuf_puts(p->out, e->from);
  pad_to(p, start, p->cols[0]);
  sbuf_printf(p->out, " -> %s", e->to);
  if (e->label || clause) pad_to(p, start, p->cols[0] + 4 + p->cols[1]);
  if (e->label) sbuf_printf(p->out, " \"%s\"", e->label);
  if (clause && p->cols[2]) pad_to(p, start, p->cols[0] + 4 + p->cols[1] + 1 + p->cols[2]);
}

static void put_clause(printer *p, const char *keyword, const ir_expr *e) {
  mark_break(p, 0);
  sbuf_puts(p->out, keyword);
  put_expr(p, e);
}

static void put_edge(printer *p, const ast_edge *e) {
  put_edge_head(p, e, e->kind == EDGE_RELATION || e->guard || e->has_do);
  if (e->kind == EDGE_RELATION) return put_clause(p, " : ", e->relation);
  if (e->guard) put_clause(p, " when ", e->guard);
  if (!e->has_do) return;
  mark_break(p, 0);
  sbuf_puts(p->out, " do ");
  vec_foreach(&e->assigns, i) {
    const ast_assign *as = &e->assigns.items[i];
    if (i) {
      sbuf_putc(p->out, ',');
      mark_break(p, 1);
      sbuf_putc(p->out, ' ');
    }
    ast_print_assign(p->out, as);
  }
}

static void put_thread_item(printer *p, const ast_thread_item *it) {
  if (it->kind == ITEM_INVARIANT) {
    sbuf_puts(p->out, "invariant ");
    put_expr(p, it->invariant);
  } else if (it->kind == ITEM_STATES) {
    put_state_decl(p, it->states);
  } else {
    put_edge(p, it->edge);
  }
  sbuf_putc(p->out, ';');
}

static void put_system_item(printer *p, const ast_sys_item *it) {
  if (it->kind == SYS_INSTANCE) {
    sbuf_puts(p->out, it->instance->thread);
    if (it->instance->count) {
      sbuf_putc(p->out, '[');
      put_expr(p, it->instance->count);
      sbuf_putc(p->out, ']');
    }
  } else {
    sbuf_puts(p->out, it->kind == SYS_INIT ? "init " : "invariant ");
    put_expr(p, it->expr);
  }
  sbuf_putc(p->out, ';');
}

/* ---------------------------------------------------------------- runs */

static void end_run(printer *p) {
  memset(p->cols, 0, sizeof p->cols);
  p->run_end = 0;
}

static void widen(size_t *col, size_t width) {
  if (width > *col) *col = width;
}

/* True when the item, unaligned, fits on one line. */
static bool fits_one_line(const printer *p, const ast_thread_item *it) {
  strbuf line = {0};
  printer q = scratch(p, &line);
  put_thread_item(&q, it);
  bool fits = 2 * (size_t)p->indent + fmt_display_width(line.text, line.len) <= FMT_WIDTH;
  scratch_free(&q);
  return fits;
}

static bool edge_joins_run(const printer *p, const ast_thread_item *it) {
  return it->kind == ITEM_EDGE && fits_one_line(p, it);
}

/* Before item i of a thread: the columns of the run of edges it starts. */
static void align_edges(printer *p, const ast_thread_item *items, size_t count, size_t i) {
  if (i < p->run_end) return;
  end_run(p);
  size_t j = i;
  while (j < count && edge_joins_run(p, &items[j])) j++;
  p->run_end = j > i ? j : i + 1;
  for (size_t k = i; k < j; k++) {
    const ast_edge *e = items[k].edge;
    widen(&p->cols[0], fmt_display_width(e->from, strlen(e->from)));
    widen(&p->cols[1], fmt_display_width(e->to, strlen(e->to)));
    if (e->label) widen(&p->cols[2], 2 + fmt_display_width(e->label, strlen(e->label)));
  }
}

/* ---------------------------------------------------------------- declarations */

/* Starts the line of a block's item, after its comments and those written
 * inside it; returns where the item's text starts. */
static size_t begin_item(printer *p, loc at, bool first) {
  comments_before(p, at.end, &first);
  begin_line(p, at.start, first);
  p->breaks.len = 0;
  return p->out->len;
}

/* Ends the line of an item printed since start; an aligned one is never
 * broken (it fits, unaligned, by the run's definition). */
static void end_item(printer *p, loc at, size_t start) {
  if (!p->cols[0]) wrap_item(p, start);
  end_line(p, at.end);
}

static void close_block(printer *p, uint32_t close_at, uint32_t end) {
  bool first = false;
  comments_before(p, close_at, &first);
  p->indent--;
  sbuf_putc(p->out, '}');
  end_line(p, end);
}

static void put_thread(printer *p, const ast_thread *t) {
  sbuf_printf(p->out, "thread %s", t->name);
  if (t->impl) sbuf_printf(p->out, " implements %s", t->impl);
  sbuf_puts(p->out, " {");
  end_line(p, t->impl ? t->impl_at.end : t->name_at.end);
  p->indent++;
  end_run(p);
  vec_foreach(&t->items, i) {
    const ast_thread_item *it = &t->items.items[i];
    size_t start = begin_item(p, it->at, i == 0);
    align_edges(p, t->items.items, t->items.len, i);
    put_thread_item(p, it);
    end_item(p, it->at, start);
  }
  end_run(p);
  close_block(p, t->close_at, t->at.end);
}

static void put_system(printer *p, const ast_system *sys) {
  sbuf_printf(p->out, "system %s {", sys->name);
  end_line(p, sys->name_at.end);
  p->indent++;
  vec_foreach(&sys->items, i) {
    const ast_sys_item *it = &sys->items.items[i];
    size_t start = begin_item(p, it->at, i == 0);
    put_system_item(p, it);
    end_item(p, it->at, start);
  }
  close_block(p, sys->close_at, sys->at.end);
}

static void put_type(printer *p, const ast_type *t) {
  if (t->kind == TYPE_BOOL) sbuf_puts(p->out, "bool");
  else if (t->kind == TYPE_INT) sbuf_puts(p->out, "int");
  else {
    sbuf_puts(p->out, "int[");
    put_expr(p, t->lo);
    sbuf_puts(p->out, "..");
    put_expr(p, t->hi);
    sbuf_putc(p->out, ']');
  }
}

/* "= v", or "= {v1, v2}" for one value per element. */
static void put_init(printer *p, const ast_shared *v) {
  if (v->init) {
    sbuf_puts(p->out, " = ");
    put_expr(p, v->init);
  }
  if (v->init_list.len == 0) return;
  sbuf_puts(p->out, " = {");
  vec_foreach(&v->init_list, i) {
    if (i) sbuf_puts(p->out, ", ");
    put_expr(p, v->init_list.items[i]);
  }
  sbuf_putc(p->out, '}');
}

/* "name" or "name[size]". */
static void put_shared_name(printer *p, const ast_shared *v) {
  sbuf_puts(p->out, v->name);
  if (v->size) {
    sbuf_putc(p->out, '[');
    put_expr(p, v->size);
    sbuf_putc(p->out, ']');
  }
}

/* The width of v's type; *name gets that of its name. */
static size_t shared_widths(const printer *p, const ast_shared *v, size_t *name) {
  strbuf line = {0};
  printer q = scratch(p, &line);
  put_type(&q, &v->type);
  size_t type = line.len;
  put_shared_name(&q, v);
  *name = line.len - type;
  scratch_free(&q);
  return type;
}

static void put_shared(printer *p, const ast_shared *v) {
  sbuf_puts(p->out, "shared ");
  size_t start = p->out->len;
  put_type(p, &v->type);
  pad_to(p, start, p->cols[0]);
  sbuf_putc(p->out, ' ');
  start = p->out->len;
  put_shared_name(p, v);
  if (v->init || v->init_list.len || v->binds) pad_to(p, start, p->cols[1]);
  put_init(p, v);
  if (v->binds) sbuf_printf(p->out, " binds %s", v->binds);
  sbuf_putc(p->out, ';');
  end_line(p, v->at.end);
}

static void put_decl(printer *p, const ast_decl *d) {
  switch (d->kind) {
  case DECL_CONST:
    sbuf_printf(p->out, "const %-*s = ", (int)p->cols[0], d->konst->name);
    put_expr(p, d->konst->value_expr);
    sbuf_putc(p->out, ';');
    end_line(p, d->at.end);
    break;
  case DECL_SHARED: put_shared(p, d->shared); break;
  case DECL_THREAD: put_thread(p, d->thread); break;
  case DECL_SYSTEM: put_system(p, d->system); break;
  }
}

static bool is_block(const ast_decl *d) { return d && (d->kind == DECL_THREAD || d->kind == DECL_SYSTEM); }

static void widen_decl(printer *p, const ast_decl *d) {
  if (d->kind == DECL_CONST) return widen(&p->cols[0], strlen(d->konst->name));
  size_t name, type = shared_widths(p, d->shared, &name);
  widen(&p->cols[0], type);
  widen(&p->cols[1], name);
}

/* Before declaration i: the columns of the run of consts or of shared
 * variables it starts. */
static void align_decls(printer *p, const ast_decl *decls, size_t count, size_t i) {
  if (i < p->run_end) return;
  end_run(p);
  size_t j = i + 1;
  if (!is_block(&decls[i]))
    while (j < count && decls[j].kind == decls[i].kind) j++;
  p->run_end = j;
  for (size_t k = i; k < j && !is_block(&decls[i]); k++) widen_decl(p, &decls[k]);
}

static size_t line_start(const char *text, size_t offset) {
  while (offset > 0 && text[offset - 1] != '\n') offset--;
  return offset;
}

static size_t newlines_between(const char *text, size_t from, size_t to) {
  size_t n = 0;
  for (size_t i = from; i < to; i++) n += text[i] == '\n';
  return n;
}

/* Lines [first, last) of text with their trailing comments in one column,
 * two spaces after the longest code among them. */
static void put_aligned_run(strbuf *out, const char *text, const size_t *marks, size_t first, size_t last) {
  size_t width = 0;
  for (size_t i = first; i < last; i++) {
    size_t code = marks[i] - line_start(text, marks[i]);
    if (code > width) width = code;
  }
  for (size_t i = first; i < last; i++) {
    size_t start = line_start(text, marks[i]);
    const char *eol = strchr(text + marks[i], '\n');
    sbuf_putn(out, text + start, marks[i] - start);
    sbuf_printf(out, "%*s", (int)(width + 2 - (marks[i] - start)), "");
    sbuf_putn(out, text + marks[i], (size_t)(eol - text) + 1 - marks[i]);
  }
}

/* Copies text to out, aligning the trailing comments of consecutive lines. */
static void align_trailing(strbuf *out, const char *text, const size_t *marks, size_t count) {
  size_t copied = 0;
  for (size_t i = 0; i < count;) {
    size_t j = i + 1; /* marks [i, j) are on consecutive lines */
    while (j < count && newlines_between(text, marks[j - 1], marks[j]) == 1) j++;
    size_t start = line_start(text, marks[i]);
    sbuf_putn(out, text + copied, start - copied);
    put_aligned_run(out, text, marks, i, j);
    copied = (size_t)(strchr(text + marks[j - 1], '\n') - text) + 1;
    i = j;
  }
  sbuf_puts(out, text + copied);
}

void fmt_spec(strbuf *result, const ast_spec *spec) {
  strbuf raw = {0};
  strbuf *out = &raw;
  printer p = {.out = out, .spec = spec};
  bool first = true;
  const ast_decl *prev = NULL;
  vec_foreach(&spec->decls, i) {
    const ast_decl *d = &spec->decls.items[i];
    if (prev && (is_block(prev) || is_block(d)) && !blank_line_between(&p, p.last_end, d->at.start))
      sbuf_putc(out, '\n');                                             /* blocks always stand apart */
    comments_before(&p, is_block(d) ? d->at.start : d->at.end, &first); /* comments inside an item go first */
    begin_line(&p, d->at.start, first);
    align_decls(&p, spec->decls.items, spec->decls.len, i);
    put_decl(&p, d);
    first = false;
    prev = d;
  }
  comments_before(&p, UINT32_MAX, &first);
  align_trailing(result, sbuf_str(&raw), p.trailing.items, p.trailing.len);
  vec_free(&p.trailing);
  vec_free(&p.breaks);
  sbuf_free(&raw);
}
