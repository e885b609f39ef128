/* conformance/prog.c -- building programs of one-action edges. */
#include "prog.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

prog *prog_new(const char *function) {
  arena *a = arena_new();
  prog *p = arena_alloc(a, sizeof *p);
  memset(p, 0, sizeof *p);
  p->arena = a;
  p->function = arena_intern_cstr(a, function);
  p->entry = p->exit = -1;
  return p;
}

void prog_free(prog *p) {
  if (!p) return;
  symtab_free(&p->names);
  symtab_free(&p->bases);
  arena_free(p->arena);
}

/* Is name (interned) a variable's? Registers first the names of variables
 * appended without prog_add_var (a program copied in bulk). */
static bool name_taken(prog *p, const char *name) {
  for (; p->named < p->vars.len; p->named++) symtab_put(&p->names, p->vars.items[p->named].name, 1);
  return symtab_get(&p->names, name) >= 0;
}

/* base, or base_N with the first N from 2 on that is free: each base
 * remembers where its search stopped, so that n variables of one name cost
 * O(n), not O(n^2). */
static const char *free_name(prog *p, const char *base) {
  if (!name_taken(p, base)) return base;
  int slot = symtab_put(&p->bases, base, (int)p->next_suffix.len);
  if (slot < 0) {
    slot = (int)p->next_suffix.len;
    vec_push(p->arena, &p->next_suffix, 2);
  }
  const char *name;
  do name = arena_intern_cstr(p->arena, arena_printf(p->arena, "%s_%d", base, p->next_suffix.items[slot]++));
  while (name_taken(p, name));
  return name;
}

/* display as a C identifier: an element's "a[2]" becomes "a_2", a path's "s.f" "s_f". */
static const char *identifier(prog *p, const char *display) {
  strbuf b = {0};
  for (const char *c = display; *c; c++)
    if (isalnum((unsigned char)*c) || *c == '_') sbuf_putc(&b, *c);
    else if (*c != ']') sbuf_putc(&b, '_');
  const char *name = arena_intern(p->arena, sbuf_str(&b), b.len);
  sbuf_free(&b);
  return name;
}

int prog_add_var(prog *p, prog_var_kind kind, const char *display, ir_type type) {
  const char *name = free_name(p, identifier(p, display));
  prog_var v = {.kind = kind,
                .name = name,
                .display = arena_intern_cstr(p->arena, display),
                .type = type,
                .shared_index = -1,
                .state_index = -1};
  vec_push(p->arena, &p->vars, v);
  symtab_put(&p->names, name, 1);
  p->named = p->vars.len;
  return (int)p->vars.len - 1;
}

int prog_add_loc(prog *p, bool boundary) {
  prog_location l = {.boundary = boundary};
  vec_push(p->arena, &p->locs, l);
  return (int)p->locs.len - 1;
}

int prog_add_edge(prog *p, prog_edge e) {
  vec_push(p->arena, &p->edges, e);
  int index = (int)p->edges.len - 1;
  vec_push(p->arena, &p->locs.items[e.from].out, index);
  return index;
}

ir_expr *prog_var_ref(prog *p, int v, loc at) {
  ir_expr *e = ir_name(p->arena, at, p->vars.items[v].name, false);
  e->ref = REF_VAR;
  e->index = v;
  e->type = p->vars.items[v].type;
  return e;
}

void prog_origin_text(const prog *p, prog_origin o, strbuf *out) {
  if (o.file >= 0) diag_span_text(p->files.items[o.file], o.at, out);
}

bool prog_origin_line(const prog *p, prog_origin o, const char **file, size_t *line) {
  if (o.file < 0) return false;
  size_t col;
  *file = p->files.items[o.file]->name;
  diag_line_col(p->files.items[o.file], o.at.start, line, &col);
  return true;
}

size_t prog_origin_column(const prog *p, prog_origin o) {
  if (o.file < 0) return 0;
  size_t line, col;
  diag_line_col(p->files.items[o.file], o.at.start, &line, &col);
  return col;
}

/* ---------------------------------------------------------------- values */

static bool eval_ite(const prog *p, const ir_expr *e, const int64_t *values, int64_t *out) {
  int64_t c;
  return prog_eval(p, e->a, values, &c) && prog_eval(p, c ? e->b : e->c, values, out);
}

bool prog_eval(const prog *p, const ir_expr *e, const int64_t *values, int64_t *out) {
  int64_t a = 0, b = 0;
  switch (e->kind) {
  case IR_BOOL:
  case IR_INT: *out = e->value; return !e->big;
  case IR_NAME:
    if (e->ref != REF_VAR || e->index < 0 || (size_t)e->index >= p->vars.len) return false;
    *out = values[e->index];
    return true;
  case IR_ITE: return eval_ite(p, e, values, out);
  case IR_UNARY: return prog_eval(p, e->a, values, &a) && ir_c_arith(e->op, e->ity, a, 0, out) == IR_FAULT_NONE;
  case IR_BINARY:
    return prog_eval(p, e->a, values, &a) && prog_eval(p, e->b, values, &b) &&
           ir_c_arith(e->op, e->ity, a, b, out) == IR_FAULT_NONE;
  default: return false;
  }
}

void prog_path_text(const prog *p, const prog_path_part *parts, size_t n, const int64_t *values, strbuf *out) {
  for (size_t i = 0; i < n; i++) {
    int64_t k;
    if (parts[i].text) sbuf_puts(out, parts[i].text);
    else if (prog_eval(p, parts[i].index, values, &k)) sbuf_printf(out, "[%lld]", (long long)k);
    else sbuf_puts(out, "[?]");
  }
}
