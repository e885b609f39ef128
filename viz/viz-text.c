/* viz/viz-text.c -- the text on a diagram: expressions in the spec's syntax,
 * wrapped or shortened, escaped for Graphviz's plain and HTML-like labels,
 * the test for an assertion that is constantly false, setting attributes, and
 * which threads a diagram draws. */
#include <stdlib.h>
#include <string.h>

#include "viz-impl.h"

/* ---------------------------------------------------------------- constant folding */

/* A value that is known, or not (it reads the shared state, or overflows). */
typedef struct folded {
  bool known;    /* value is meaningful */
  int64_t value; /* bool as 0/1 */
} folded;

static folded fold(const ast_spec *spec, const ir_expr *e);

static folded known(int64_t v) { return (folded){.known = true, .value = v}; }
static const folded unknown = {.known = false, .value = 0};

static folded fold_arith(ir_op op, int64_t a, int64_t b) {
  int64_t r = 0;
  return ir_arith(op, a, b, &r) == IR_FAULT_NONE ? known(r) : unknown;
}

/* && and || are known when one side decides them, even if the other is not. */
static folded fold_binary(const ast_spec *spec, const ir_expr *e) {
  folded a = fold(spec, e->a), b = fold(spec, e->b);
  if (e->op == OP_AND && ((a.known && !a.value) || (b.known && !b.value))) return known(0);
  if (e->op == OP_OR && ((a.known && a.value) || (b.known && b.value))) return known(1);
  if (!a.known || !b.known) return unknown;
  if (e->op == OP_AND || e->op == OP_OR) return known(e->op == OP_AND ? a.value && b.value : a.value || b.value);
  return fold_arith(e->op, a.value, b.value);
}

static folded fold(const ast_spec *spec, const ir_expr *e) {
  switch (e->kind) {
  case IR_BOOL: return known(e->value);
  case IR_INT: return e->big ? unknown : known(e->value);
  case IR_NAME:
    if (e->ref != REF_CONST || e->primed || e->index < 0) return unknown;
    return known(spec->consts.items[e->index]->value);
  case IR_UNARY: {
    folded a = fold(spec, e->a);
    return a.known ? fold_arith(e->op, a.value, 0) : unknown;
  }
  case IR_BINARY: return fold_binary(spec, e);
  case IR_ITE: {
    folded c = fold(spec, e->a);
    return c.known ? fold(spec, c.value ? e->b : e->c) : unknown;
  }
  default: return unknown;
  }
}

bool viz_constantly_false(const ast_spec *spec, const ir_expr *e) {
  folded f = fold(spec, e);
  return f.known && !f.value;
}

/* ---------------------------------------------------------------- escaping */

/* Graphviz parses HTML labels as XML, which has no control characters but
 * tab and line breaks, and no U+FFFE or U+FFFF (UTF-8 EF BF BE/BF; a trace
 * file may hold them all): those are written as \xNN and U+FFFD. The n
 * bytes at s. */
static void put_html_n(strbuf *b, const char *s, size_t n) {
  for (const char *end = s + n; s < end; s++) {
    unsigned char c = (unsigned char)*s;
    switch (c) {
    case '&': sbuf_puts(b, "&amp;"); break;
    case '<': sbuf_puts(b, "&lt;"); break;
    case '>': sbuf_puts(b, "&gt;"); break;
    case '"': sbuf_puts(b, "&quot;"); break;
    default:
      if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') sbuf_printf(b, "\\x%02x", c);
      else if (c == 0xef && end - s >= 3 && (unsigned char)s[1] == 0xbf && ((unsigned char)s[2] | 1) == 0xbf) {
        sbuf_puts(b, "\xef\xbf\xbd");
        s += 2;
      } else sbuf_putc(b, *s);
      break;
    }
  }
}

void viz_put_html(strbuf *b, const char *s) { put_html_n(b, s, strlen(s)); }

void viz_put_html_lines(strbuf *b, const char *text, const char *br) {
  for (const char *nl; (nl = strchr(text, '\n')); text = nl + 1) {
    put_html_n(b, text, (size_t)(nl - text));
    sbuf_puts(b, br);
  }
  viz_put_html(b, text);
}

void viz_put_plain(strbuf *b, const char *s) {
  for (; *s; s++) {
    if (*s == '\\') sbuf_putc(b, '\\');
    sbuf_putc(b, *s);
  }
}

void viz_put_short(strbuf *b, const char *s, size_t max) {
  size_t n = strlen(s);
  if (n <= max) {
    sbuf_puts(b, s);
    return;
  }
  size_t cut = max - 1;
  while (cut > 0 && ((unsigned char)s[cut] & 0xC0) == 0x80) cut--; /* not inside a UTF-8 character */
  while (cut > 0 && s[cut - 1] == ' ') cut--;
  sbuf_putn(b, s, cut);
  sbuf_puts(b, "\xE2\x80\xA6"); /* U+2026 HORIZONTAL ELLIPSIS */
}

void viz_put_label(strbuf *b, const char *literal) {
  for (const char *s = literal; *s; s++) {
    if (*s == '\\' && (s[1] == '"' || s[1] == '\\')) s++;
    sbuf_putc(b, *s);
  }
}

/* ---------------------------------------------------------------- expressions */

/* A conjunct printed on its own needs parentheses when it binds looser than &&. */
static bool looser_than_and(const ir_expr *e) {
  if (e->kind == IR_ITE || e->kind == IR_QUANT) return true;
  return e->kind == IR_BINARY && (e->op == OP_OR || e->op == OP_IMPLIES || e->op == OP_IFF);
}

void viz_put_wrapped(strbuf *b, const ir_expr *e, size_t width) {
  ir_expr_list parts = {0};
  ir_flatten(e, OP_AND, &parts);
  size_t line_start = b->len;
  strbuf one = {0};
  vec_foreach(&parts, i) {
    bool paren = parts.len > 1 && looser_than_and(parts.items[i]);
    sbuf_puts(&one, paren ? "(" : "");
    ir_print(&one, parts.items[i]);
    sbuf_puts(&one, paren ? ")" : "");
    if (i + 1 < parts.len) sbuf_puts(&one, " &&");
    if (i > 0 && b->len - line_start + 1 + one.len > width) {
      sbuf_putc(b, '\n');
      line_start = b->len;
    } else if (i > 0) {
      sbuf_putc(b, ' ');
    }
    sbuf_puts(b, sbuf_str(&one));
    sbuf_free(&one);
  }
  vec_free(&parts);
}

void viz_put_assignments(strbuf *b, const ast_edge *e) {
  vec_foreach(&e->assigns, i) {
    if (i) sbuf_puts(b, ", ");
    ast_print_assign(b, &e->assigns.items[i]);
  }
}

void viz_put_edge_source(strbuf *b, const ast_edge *e) {
  sbuf_printf(b, "%s -> %s", e->from, e->to);
  if (e->label) sbuf_printf(b, " \"%s\"", e->label); /* as written, escapes and all */
  if (e->kind == EDGE_RELATION) {
    sbuf_puts(b, " : ");
    ir_print(b, e->relation);
    return;
  }
  if (e->guard) {
    sbuf_puts(b, " when ");
    ir_print(b, e->guard);
  }
  if (e->has_do) sbuf_puts(b, " do ");
  viz_put_assignments(b, e);
}

/* ---------------------------------------------------------------- prose */

void viz_put_words(strbuf *b, const char *text, size_t width) {
  size_t line = 0;
  for (const char *s = text; *s;) {
    size_t n = strcspn(s, " ");
    if (line > 0 && line + 1 + n > width) {
      sbuf_putc(b, '\n');
      line = 0;
    } else if (line > 0) {
      sbuf_putc(b, ' ');
      line++;
    }
    sbuf_putn(b, s, n);
    line += n;
    s += n;
    while (*s == ' ') s++;
  }
}

/* ---------------------------------------------------------------- attributes and what is drawn */

void *viz_set(void *obj, const char *name, const char *value) {
  agsafeset(obj, (char *)name, (char *)value, "");
  return obj;
}

void viz_set_html(void *obj, const char *html) {
  Agraph_t *g = agraphof(obj);
  char *h = agstrdup_html(g, (char *)html);
  agsafeset(obj, "label", h, "");
  agstrfree(g, h);
}

bool viz_draws(const viz_options *o, const ast_thread *t) {
  if (o->only) return o->only == t;
  return !o->trace || o->trace->kind != VIZ_TRACE_CONFORM || o->trace->conform[t->index];
}
