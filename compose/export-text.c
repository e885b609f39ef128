/* compose/export-text.c -- the text both exporters write alike
 * (export-text.h). */
#include "export-text.h"

#include <inttypes.h>
#include <string.h>

/* What c becomes at place: a '?' for a control byte, a '\'' for a '"' in a
 * string. */
static char safe_char(char c, ex_place place) {
  if ((unsigned char)c < ' ' || c == 0x7f) return '?';
  return place == EX_STRING && c == '"' ? '\'' : c;
}

void ex_text(strbuf *out, const char *s, ex_place place) {
  for (; *s; s++) {
    if (place == EX_BLOCK_COMMENT && s[0] == '*' && s[1] == '/') sbuf_puts(out, "* ");
    else sbuf_putc(out, safe_char(*s, place));
  }
}

/* Appends the header's text: the template with @MODEL@ as name. */
static void header_text(strbuf *out, const ex_style *c, const char *name) {
  static const char mark[] = "@MODEL@";
  const char *t = (const char *)c->header;
  for (size_t i = 0; i < c->header_len;) {
    bool at_mark = c->header_len - i >= sizeof mark - 1 && memcmp(t + i, mark, sizeof mark - 1) == 0;
    if (at_mark) ex_text(out, name, c->place);
    else sbuf_putc(out, t[i]);
    i += at_mark ? sizeof mark - 1 : 1;
  }
}

void ex_header(strbuf *out, const ex_style *c, const ast_spec *spec, const char *name) {
  sbuf_puts(out, c->open);
  ex_text(out, name, c->place);
  sbuf_puts(out, " -- ");
  if (spec->system) sbuf_printf(out, "system %s of ", spec->system->name);
  else sbuf_puts(out, "the default system (one instance of every thread) of ");
  ex_text(out, spec->src->name, c->place);
  sbuf_puts(out, ",\n");
  header_text(out, c, name);
}

void ex_thread_title(strbuf *out, const ex_style *c, const ast_thread *t) {
  sbuf_printf(out, "\n%sthread %s", c->open, t->name);
  if (t->impl) sbuf_printf(out, " (implements %s)", t->impl);
  sbuf_printf(out, "%s\n", c->close);
}

/* ", case 2 of 3" and the like: which plan of its edge s follows. */
static void step_part(strbuf *out, const step *s) {
  if (s->parts && s->edge->kind == EDGE_COMMAND) sbuf_printf(out, ", case %d of %d", s->plan->case_number, s->parts);
  else if (s->parts && s->plan->case_number)
    sbuf_printf(out, ", disjunct %d, case %d", s->plan->disjunct, s->plan->case_number);
  else if (s->parts) sbuf_printf(out, ", disjunct %d of %d", s->plan->disjunct, s->parts);
}

void ex_step_name(strbuf *out, const ast_thread *t, const step *s, ex_place place) {
  const ast_edge *e = s->edge;
  char quote = place == EX_STRING ? '\'' : '"';
  sbuf_printf(out, "%s -> %s", t->states.items[e->from_index]->name, t->states.items[e->to_index]->name);
  if (e->label) {
    sbuf_printf(out, " %c", quote);
    ex_text(out, e->label, place);
    sbuf_putc(out, quote);
  }
  step_part(out, s);
}

void ex_name_cells(arena *a, const ast_shared *v, const char *name, const char **var, const char **array) {
  if (!v->size) {
    var[v->index] = name;
    return;
  }
  for (int64_t k = 0; k < v->length; k++) {
    var[v->index + k] = arena_printf(a, "%s[%" PRId64 "]", name, k);
    array[v->index + k] = name;
  }
}
