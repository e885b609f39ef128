/* spec-lang/fmt.c -- canonical layout: one declaration, state group, edge or
 * system item per line, two-space indentation, single spaces around binary
 * operators, the fewest parentheses, and at most one blank line where the
 * source had one or more. */
#include "fmt.h"

#include <stdlib.h>
#include <string.h>

typedef struct printer {
  strbuf *out;          /* destination */
  const ast_spec *spec; /* source of the comments and text */
  size_t next_comment;  /* first comment not printed yet */
  uint32_t last_end;    /* source offset after the last thing printed */
  int indent;           /* current nesting depth */
  VEC(size_t) trailing; /* output offsets where end-of-line comments start */
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

static void put_expr(printer *p, const ir_expr *e) { ir_print(p->out, e); }

/* ---------------------------------------------------------------- items */

static void put_state_decl(printer *p, const ast_state_decl *d) {
  sbuf_puts(p->out, d->initial ? "init state " : "state ");
  vec_foreach(&d->states, i) sbuf_printf(p->out, "%s%s", i ? ", " : "", d->states.items[i]->name);
  if (d->assertion) {
    sbuf_puts(p->out, " assert ");
    put_expr(p, d->assertion);
  }
}

static void put_edge(printer *p, const ast_edge *e) {
  sbuf_printf(p->out, "%s -> %s", e->from, e->to);
  if (e->label) sbuf_printf(p->out, " \"%s\"", e->label);
  if (e->kind == EDGE_RELATION) {
    sbuf_puts(p->out, " : ");
    put_expr(p, e->relation);
    return;
  }
  if (e->guard) {
    sbuf_puts(p->out, " when ");
    put_expr(p, e->guard);
  }
  if (!e->has_do) return;
  sbuf_puts(p->out, " do ");
  vec_foreach(&e->assigns, i) {
    const ast_assign *as = &e->assigns.items[i];
    if (i) sbuf_puts(p->out, ", ");
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

/* ---------------------------------------------------------------- declarations */

/* One line per item of a block, each preceded by its comments and by those
 * written inside it. */
#define PUT_BLOCK(p, block, put_item)       \
  do {                                      \
    bool first_ = true;                     \
    vec_foreach(block, i_) {                \
      loc at_ = (block)->items[i_].at;      \
      comments_before(p, at_.end, &first_); \
      begin_line(p, at_.start, first_);     \
      put_item(p, &(block)->items[i_]);     \
      end_line(p, at_.end);                 \
      first_ = false;                       \
    }                                       \
  } while (0)

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
  PUT_BLOCK(p, &t->items, put_thread_item);
  close_block(p, t->close_at, t->at.end);
}

static void put_system(printer *p, const ast_system *sys) {
  sbuf_printf(p->out, "system %s {", sys->name);
  end_line(p, sys->name_at.end);
  p->indent++;
  PUT_BLOCK(p, &sys->items, put_system_item);
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

static void put_shared(printer *p, const ast_shared *v) {
  sbuf_puts(p->out, "shared ");
  put_type(p, &v->type);
  sbuf_printf(p->out, " %s", v->name);
  if (v->size) {
    sbuf_putc(p->out, '[');
    put_expr(p, v->size);
    sbuf_putc(p->out, ']');
  }
  put_init(p, v);
  if (v->binds) sbuf_printf(p->out, " binds %s", v->binds);
  sbuf_putc(p->out, ';');
  end_line(p, v->at.end);
}

static void put_decl(printer *p, const ast_decl *d) {
  switch (d->kind) {
  case DECL_CONST:
    sbuf_printf(p->out, "const %s = ", d->konst->name);
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
    put_decl(&p, d);
    first = false;
    prev = d;
  }
  comments_before(&p, UINT32_MAX, &first);
  align_trailing(result, sbuf_str(&raw), p.trailing.items, p.trailing.len);
  vec_free(&p.trailing);
  sbuf_free(&raw);
}
