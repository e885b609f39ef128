/* cfront/c-ast.c -- the file-scope name table, messages at the user's
 * locations (once each, with the macro they come from), and constant
 * expressions. */
#include "c-ast.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

cfe_pos cfe_span(cfe_pos a, cfe_pos b) {
  if (a.file != b.file || b.at.end < a.at.start) return a;
  return (cfe_pos){a.file, {a.at.start, b.at.end}, a.macro};
}

/* ---------------------------------------------------------------- names */

cfe_entity *cfe_lookup(const cfe_unit *u, const char *name) {
  int i = symtab_get(&u->names, name);
  return i < 0 ? NULL : &u->entities.items[i];
}

void cfe_define(cfe_unit *u, const char *name, cfe_entity e) {
  int i = symtab_get(&u->names, name);
  if (i >= 0) {
    u->entities.items[i] = e;
    return;
  }
  vec_push(u->arena, &u->entities, e);
  symtab_put(&u->names, name, (int)u->entities.len - 1);
}

/* ---------------------------------------------------------------- messages */

/* True when the same error was printed before: the unit is const for the
 * lowering, but what was printed is the messages' own state. */
static bool repeated(const cfe_unit *u, cfe_pos pos, const char *msg) {
  cfe_unit *w = (cfe_unit *)u;
  w->errors++;
  char *key = arena_printf(w->arena, "%d:%u:%u:%s", pos.file, pos.at.start, pos.at.end, msg);
  w->repeated = symtab_put(&w->reported, arena_intern_cstr(w->arena, key), 1) >= 0;
  return w->repeated;
}

/* "in expansion of macro 'INC'": where its body has the code, else at the use. */
static void macro_note(const cfe_unit *u, cfe_pos pos) {
  const cfe_macro *m = &u->macros.items[pos.macro - 1];
  const cfe_pos *at = m->body.file >= 0 && u->files.items[m->body.file].src ? &m->body : &pos;
  diag_note(u->files.items[at->file].src, at->at, "in expansion of macro '%s'", m->name);
}

static void report(const cfe_unit *u, cfe_pos pos, bool error, const char *fmt, va_list ap) {
  va_list copy;
  va_copy(copy, ap);
  int n = vsnprintf(NULL, 0, fmt, copy);
  va_end(copy);
  char *msg = xmalloc((size_t)n + 1);
  vsnprintf(msg, (size_t)n + 1, fmt, ap);
  const diag_source *src = pos.file >= 0 ? u->files.items[pos.file].src : NULL;
  if (error ? repeated(u, pos, msg) : u->repeated) {
    free(msg);
    return;
  }
  if (!src && error) diag_error_at(u->sink, "athread", "%s", msg);
  else if (error) diag_error(src, pos.at, "%s", msg);
  else if (src) diag_note(src, pos.at, "%s", msg);
  if (src && pos.macro > 0) macro_note(u, pos);
  free(msg);
}

void cfe_error(const cfe_unit *u, cfe_pos pos, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  report(u, pos, true, fmt, ap);
  va_end(ap);
}

void cfe_note(const cfe_unit *u, cfe_pos pos, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  report(u, pos, false, fmt, ap);
  va_end(ap);
}

/* ---------------------------------------------------------------- constant expressions */

/* An evaluation: the unit, and whether to report why an expression is not constant. */
typedef struct evaluator {
  const cfe_unit *u; /* the names */
  bool report;       /* report errors (else only answer false) */
} evaluator;

static bool refuse(const evaluator *ev, cfe_pos at, const char *msg) {
  if (ev->report) cfe_error(ev->u, at, "%s", msg);
  return false;
}

static bool eval(const evaluator *ev, const cfe_expr *e, int64_t *out);

/* The width of e's integer type in bits: 64 when the front end does not know it. */
static unsigned width(const cfe_expr *e) {
  return e->ctype.kind == CT_INT && e->ctype.bits ? e->ctype.bits : 64;
}

/* v as a value of e's type, as C converts it: modulo 2^bits into the type's
 * range. A 64-bit unsigned value above 2^63 - 1 is refused (values are
 * int64_t). */
static bool fit(const evaluator *ev, const cfe_expr *e, int64_t v, int64_t *out) {
  if (e->ctype.kind == CT_BOOL) v = v != 0;
  unsigned bits = width(e);
  if (bits == 64 && e->ctype.is_unsigned && v < 0)
    return refuse(ev, e->at, "this constant expression is too large (the limit is 2^63 - 1)");
  if (bits < 64) {
    uint64_t low = (uint64_t)v & ((UINT64_C(1) << bits) - 1), top = UINT64_C(1) << (bits - 1);
    v = e->ctype.is_unsigned || low < top ? (int64_t)low : (int64_t)(low - top) - (int64_t)top;
  }
  *out = v;
  return true;
}

/* a << b and a >> b in the type of e (whose width bounds the count). */
static bool eval_shift(const evaluator *ev, const cfe_expr *e, int64_t a, int64_t b, int64_t *out) {
  if (b < 0 || b >= (int64_t)width(e)) return refuse(ev, e->b->at, "shift count out of range in a constant expression");
  *out = e->op == CO_SHL ? (int64_t)((uint64_t)a << b) : a >> b;
  return true;
}

static bool eval_binary(const evaluator *ev, const cfe_expr *e, int64_t a, int64_t b, int64_t *out) {
  bool ovf = false;
  switch (e->op) {
  case CO_ADD: ovf = __builtin_add_overflow(a, b, out); break;
  case CO_SUB: ovf = __builtin_sub_overflow(a, b, out); break;
  case CO_MUL: ovf = __builtin_mul_overflow(a, b, out); break;
  case CO_DIV:
  case CO_MOD:
    if (b == 0) return refuse(ev, e->b->at, "division by zero in a constant expression");
    ovf = a == INT64_MIN && b == -1;
    if (!ovf) *out = e->op == CO_DIV ? a / b : a % b;
    break;
  case CO_LT: *out = a < b; break;
  case CO_LE: *out = a <= b; break;
  case CO_GT: *out = a > b; break;
  case CO_GE: *out = a >= b; break;
  case CO_EQ: *out = a == b; break;
  case CO_NE: *out = a != b; break;
  case CO_AND: *out = a && b; break;
  case CO_OR: *out = a || b; break;
  case CO_BITAND: *out = a & b; break;
  case CO_BITOR: *out = a | b; break;
  case CO_XOR: *out = a ^ b; break;
  case CO_SHL:
  case CO_SHR: return eval_shift(ev, e, a, b, out);
  default: return refuse(ev, e->at, "unsupported operator in a constant expression");
  }
  return !ovf || refuse(ev, e->at, "this constant expression overflows 64 bits");
}

static bool eval_unary(const evaluator *ev, const cfe_expr *e, int64_t *out) {
  int64_t a = 0;
  if (!eval(ev, e->a, &a)) return false;
  if (e->op == CO_NEG && a == INT64_MIN) return refuse(ev, e->at, "this constant expression overflows 64 bits");
  *out = e->op == CO_NEG ? -a : e->op == CO_NOT ? !a : e->op == CO_BITNOT ? ~a : a;
  return true;
}

/* e's value before it is fitted to its type. */
static bool eval_raw(const evaluator *ev, const cfe_expr *e, int64_t *out) {
  int64_t a = 0, b = 0;
  switch (e->kind) {
  case CE_INT:
    *out = e->value;
    return !e->big || refuse(ev, e->at, "integer constant too large (the limit is 2^63 - 1)");
  case CE_NAME: /* enum constants are CE_INT already */
    if (ev->report) cfe_error(ev->u, e->at, "'%s' is not a constant", e->name);
    return false;
  case CE_CAST:
    if (e->type.kind != CT_INT && e->type.kind != CT_BOOL) break;
    return eval(ev, e->a, out);
  case CE_UNARY:
    if (e->op == CO_ADDR || e->op == CO_DEREF) break;
    return eval_unary(ev, e, out);
  case CE_BINARY:
    return eval(ev, e->a, &a) && eval(ev, e->b, &b) && eval_binary(ev, e, a, b, out);
  case CE_COND: return eval(ev, e->a, &a) && eval(ev, a ? e->b : e->c, out);
  default: break;
  }
  return refuse(ev, e->at, "this is not an integer constant expression");
}

/* e's value, as a value of e's C type. */
static bool eval(const evaluator *ev, const cfe_expr *e, int64_t *out) {
  int64_t v = 0;
  return eval_raw(ev, e, &v) && fit(ev, e, v, out);
}

bool cfe_const_eval(const cfe_unit *u, const cfe_expr *e, int64_t *out) {
  if (e->depth > IR_MAX_DEPTH) {
    cfe_error(u, e->at, "this expression is nested %u levels deep; the limit is %d", e->depth, IR_MAX_DEPTH);
    return false;
  }
  evaluator ev = {u, true};
  return eval(&ev, e, out);
}

bool cfe_const_value(const cfe_unit *u, const cfe_expr *e, int64_t *out) {
  evaluator ev = {u, false};
  return e->depth <= IR_MAX_DEPTH && eval(&ev, e, out);
}
