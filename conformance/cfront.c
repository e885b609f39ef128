/* conformance/cfront.c -- the C front end's entry points: preprocess and
 * parse every file into one unit; messages at original locations; constant
 * expressions. Lowering is in cfront-lower.c and cfront-expr.c. */
#include "cfront.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "c-ast.h"
#include "c-lexer.h"
#include "c-parser.h"

/* ---------------------------------------------------------------- messages */

static void report(const cfe_unit *u, cfe_pos pos, bool error, const char *fmt, va_list ap) {
  va_list copy;
  va_copy(copy, ap);
  int n = vsnprintf(NULL, 0, fmt, copy);
  va_end(copy);
  char *msg = xmalloc((size_t)n + 1);
  vsnprintf(msg, (size_t)n + 1, fmt, ap);
  const diag_source *src = pos.file >= 0 ? u->files.items[pos.file].src : NULL;
  if (!src && error) diag_error_at(u->sink, "athread", "%s", msg);
  else if (error) diag_error(src, pos.at, "%s", msg);
  else if (src) diag_note(src, pos.at, "%s", msg);
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

/* ---------------------------------------------------------------- parsing */

/* Loads a file named on the command line (reporting a missing one in our
 * own words before cpp would); false when it cannot be read. */
static bool load_main_file(cfe_unit *u, const char *path) {
  const char *name = arena_intern_cstr(u->arena, path);
  vec_foreach(&u->files, i) if (u->files.items[i].name == name) return u->files.items[i].src != NULL;
  diag_source *src = diag_source_load(u->sink, path);
  if (!src) return false;
  cfe_file f = {.name = name, .src = src};
  vec_push(u->arena, &u->files, f);
  return true;
}

/* Parses preprocessed text; its tokens belong to file (line 1) until the
 * first line marker, or to no file when file is -1. */
static void parse_text(cfe_unit *u, const char *text, size_t len, int file) {
  cfe_ctx ctx = {.unit = u, .file = file, .line = file >= 0, .last = {file, {0, 0}}, .prev = {file, {0, 0}}, .sys_scalar = true};
  vec_foreach(&u->files, i) u->files.items[i].cursor = 0;
  yyscan_t scanner;
  cfe_yylex_init_extra(&ctx, &scanner);
  cfe_yy_scan_bytes(text ? text : "", (int)len, scanner);
  int before = u->sink->errors;
  if (cfe_yyparse(scanner, &ctx) != 0 && u->sink->errors == before) cfe_error(u, ctx.last, "cannot parse this file");
  cfe_yylex_destroy(scanner);
}

static cfe_unit *unit_new(diag_sink *sink) {
  arena *a = arena_new();
  cfe_unit *u = arena_alloc(a, sizeof *u);
  u->arena = a;
  u->sink = sink;
  return u;
}

/* u, or NULL after freeing it when errors were reported since before. */
static cfe_unit *unit_result(cfe_unit *u, int before) {
  if (u->sink->errors == before) return u;
  cfe_free(u);
  return NULL;
}

cfe_unit *cfe_parse(diag_sink *sink, const char *const *files, size_t file_count, const cfe_options *o) {
  cfe_unit *u = unit_new(sink);
  int before = sink->errors;
  for (size_t i = 0; i < file_count; i++) {
    strbuf text = {0};
    if (load_main_file(u, files[i]) && cfe_preprocess(sink, files[i], o, &text)) parse_text(u, text.text, text.len, -1);
    sbuf_free(&text);
  }
  return unit_result(u, before);
}

cfe_unit *cfe_parse_text(diag_sink *sink, const char *name, const char *text, size_t len) {
  cfe_unit *u = unit_new(sink);
  int before = sink->errors;
  diag_source *src = diag_source_from_string(sink, name, text, len);
  cfe_file f = {.name = arena_intern_cstr(u->arena, name), .src = src};
  vec_push(u->arena, &u->files, f);
  const char *nul = memchr(src->text, '\0', src->len);
  if (nul) diag_error(src, (loc){(uint32_t)(nul - src->text), (uint32_t)(nul - src->text) + 1}, "NUL byte in input (is this a binary file?)");
  else parse_text(u, src->text, src->len, 0);
  return unit_result(u, before);
}

void cfe_free(cfe_unit *u) {
  if (!u) return;
  vec_foreach(&u->files, i) diag_source_free(u->files.items[i].src);
  symtab_free(&u->names);
  arena_free(u->arena);
}

bool cfe_has_function(const cfe_unit *u, const char *name) {
  vec_foreach(&u->funcs, i) if (u->funcs.items[i]->body && strcmp(u->funcs.items[i]->name, name) == 0) return true;
  return false;
}

/* ---------------------------------------------------------------- constant expressions */

static bool eval(const cfe_unit *u, const cfe_expr *e, int64_t *out);

static bool eval_binary(const cfe_unit *u, const cfe_expr *e, int64_t a, int64_t b, int64_t *out) {
  bool ovf = false;
  switch (e->op) {
  case CO_ADD: ovf = __builtin_add_overflow(a, b, out); break;
  case CO_SUB: ovf = __builtin_sub_overflow(a, b, out); break;
  case CO_MUL: ovf = __builtin_mul_overflow(a, b, out); break;
  case CO_DIV: case CO_MOD:
    if (b == 0) {
      cfe_error(u, e->b->at, "division by zero in a constant expression");
      return false;
    }
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
  default:
    cfe_error(u, e->at, "unsupported operator in a constant expression");
    return false;
  }
  if (ovf) cfe_error(u, e->at, "this constant expression overflows 64 bits");
  return !ovf;
}

static bool eval(const cfe_unit *u, const cfe_expr *e, int64_t *out) {
  int64_t a = 0, b = 0;
  switch (e->kind) {
  case CE_INT:
    if (e->big) cfe_error(u, e->at, "integer constant too large (the limit is 2^63 - 1)");
    *out = e->value;
    return !e->big;
  case CE_NAME: {
    cfe_entity *x = cfe_lookup(u, e->name);
    if (x && x->kind == ENT_ENUM) *out = x->value;
    else cfe_error(u, e->at, "'%s' is not a constant", e->name);
    return x && x->kind == ENT_ENUM;
  }
  case CE_CAST:
    if (e->type.kind == CT_BAD || e->type.kind == CT_VOID) break;
    if (!eval(u, e->a, &a)) return false;
    *out = e->type.kind == CT_BOOL ? a != 0 : a;
    return true;
  case CE_UNARY:
    if (e->op != CO_NEG && e->op != CO_NOT && e->op != CO_PLUS) break;
    if (!eval(u, e->a, &a)) return false;
    if (e->op == CO_NEG && a == INT64_MIN) {
      cfe_error(u, e->at, "this constant expression overflows 64 bits");
      return false;
    }
    *out = e->op == CO_NEG ? -a : e->op == CO_NOT ? !a : a;
    return true;
  case CE_BINARY:
    return eval(u, e->a, &a) && eval(u, e->b, &b) && eval_binary(u, e, a, b, out);
  case CE_COND:
    return eval(u, e->a, &a) && eval(u, a ? e->b : e->c, out);
  default:
    break;
  }
  cfe_error(u, e->at, "this is not an integer constant expression");
  return false;
}

bool cfe_const_eval(const cfe_unit *u, const cfe_expr *e, int64_t *out) {
  if (e->depth > IR_MAX_DEPTH) {
    cfe_error(u, e->at, "this expression is nested %u levels deep; the limit is %d", e->depth, IR_MAX_DEPTH);
    return false;
  }
  return eval(u, e, out);
}
