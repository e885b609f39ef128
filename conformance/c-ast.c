/* conformance/c-ast.c -- constructors of the C syntax tree (used by the
 * grammar actions), the file-scope name table, messages at original
 * locations, and constant expressions. */
#include "c-ast.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define A(ctx) ((ctx)->unit->arena)

static char *vformat(arena *a, const char *fmt, va_list ap) {
  va_list copy;
  va_copy(copy, ap);
  int n = vsnprintf(NULL, 0, fmt, copy);
  va_end(copy);
  char *s = arena_alloc(a, (size_t)n + 1);
  vsnprintf(s, (size_t)n + 1, fmt, ap);
  return s;
}

cfe_pos cfe_span(cfe_pos a, cfe_pos b) {
  if (a.file != b.file || b.at.end < a.at.start) return a;
  return (cfe_pos){a.file, {a.at.start, b.at.end}};
}

/* ---------------------------------------------------------------- names */

cfe_entity *cfe_lookup(const cfe_unit *u, const char *name) {
  int i = symtab_get(&u->names, name);
  return i < 0 ? NULL : &u->entities.items[i];
}

void cfe_define(cfe_unit *u, const char *name, cfe_entity e, bool replace) {
  int i = symtab_get(&u->names, name);
  if (i >= 0) {
    if (replace) u->entities.items[i] = e;
    return;
  }
  vec_push(u->arena, &u->entities, e);
  symtab_put(&u->names, name, (int)u->entities.len - 1);
}

/* ---------------------------------------------------------------- types */

cfe_type cfe_type_bad(cfe_ctx *ctx, cfe_pos at, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  cfe_type t = {.kind = CT_BAD, .what = vformat(A(ctx), fmt, ap), .at = at};
  va_end(ap);
  return t;
}

cfe_specs cfe_specs_empty(void) {
  cfe_specs s = {.bad = {.kind = CT_INT}, .at = {-1, {0, 0}}};
  return s;
}

static void specs_extend(cfe_specs *s, cfe_pos at) { s->at = s->at.file < 0 ? at : cfe_span(s->at, at); }

void cfe_specs_word(cfe_ctx *ctx, cfe_specs *s, const char *word, cfe_pos at) {
  specs_extend(s, at);
  s->words++;
  s->widths = ctx->unit->widths;
  if (strcmp(word, "void") == 0) s->is_void = true;
  else if (strcmp(word, "_Bool") == 0) s->is_bool = true;
  else if (strcmp(word, "unsigned") == 0) s->is_unsigned = true;
  else if (strcmp(word, "long") == 0) s->longs++;
  else if (strcmp(word, "char") == 0) s->is_char = true;
  else if (strcmp(word, "short") == 0) s->is_short = true;
  else if (s->bad.kind != CT_BAD &&
           (strcmp(word, "float") == 0 || strcmp(word, "double") == 0 || strcmp(word, "_Complex") == 0))
    s->bad = cfe_type_bad(ctx, at, "unsupported floating-point type '%s'", word);
}

void cfe_specs_storage(cfe_specs *s, cfe_storage storage, cfe_pos at) {
  specs_extend(s, at);
  s->storage = storage;
}

void cfe_specs_type(cfe_specs *s, cfe_type t, cfe_pos at) {
  specs_extend(s, at);
  s->has_type = true;
  s->type = t;
}

cfe_type cfe_specs_result(const cfe_specs *s) {
  if (s->bad.kind == CT_BAD) return s->bad;
  if (s->has_type) return s->type;
  if (s->is_void) return (cfe_type){.kind = CT_VOID};
  if (s->is_bool) return (cfe_type){.kind = CT_BOOL};
  /* x86-64 (LP64): char 8 bits and signed, short 16, int 32, long 64 */
  uint8_t bits = !s->widths ? 0 : s->is_char ? 8 : s->is_short ? 16 : s->longs ? 64 : 32;
  return (cfe_type){.kind = CT_INT, .bits = bits, .is_unsigned = s->is_unsigned};
}

/* ---------------------------------------------------------------- structs */

static cfe_record *record_new(cfe_ctx *ctx, const char *tag, cfe_pos at) {
  cfe_record *r = arena_alloc(A(ctx), sizeof *r);
  r->tag = tag;
  r->at = at;
  if (!tag) return r;
  vec_push(A(ctx), &ctx->unit->records, r);
  symtab_put(&ctx->unit->tags, tag, (int)ctx->unit->records.len - 1);
  return r;
}

static cfe_type struct_type(cfe_record *r, cfe_pos at) { return (cfe_type){.kind = CT_STRUCT, .at = at, .record = r}; }

static cfe_type union_type(cfe_ctx *ctx, cfe_pos at) {
  return cfe_type_bad(ctx, at, "unsupported union type (the subset has structs, not unions)");
}

cfe_type cfe_struct_ref(cfe_ctx *ctx, const char *kw, const char *tag, cfe_pos at) {
  if (strcmp(kw, "union") == 0) return union_type(ctx, at);
  int i = symtab_get(&ctx->unit->tags, tag);
  return struct_type(i >= 0 ? ctx->unit->records.items[i] : record_new(ctx, tag, at), at);
}

cfe_type cfe_struct_def(cfe_ctx *ctx, const char *kw, const char *tag, cfe_fields *fields, cfe_pos at) {
  if (strcmp(kw, "union") == 0) return union_type(ctx, at);
  int i = tag ? symtab_get(&ctx->unit->tags, tag) : -1;
  cfe_record *r = i >= 0 && !ctx->unit->records.items[i]->complete ? ctx->unit->records.items[i] : NULL;
  if (!r) r = record_new(ctx, tag, at); /* a new tag, an anonymous struct, or a redefinition in another scope */
  r->at = at;
  r->complete = true;
  r->fields = *fields;
  return struct_type(r, at);
}

cfe_fields *cfe_fields_new(cfe_ctx *ctx) { return arena_alloc(A(ctx), sizeof(cfe_fields)); }

static void apply_specs(cfe_ctx *ctx, const cfe_specs *s, cfe_decl *x);

void cfe_fields_add(cfe_ctx *ctx, cfe_fields *fields, const cfe_specs *s, cfe_decls *decls) {
  vec_foreach(decls, i) {
    cfe_decl *d = decls->items[i];
    if (!d->name) continue;
    apply_specs(ctx, s, d);
    if (d->is_function) d->type = cfe_type_bad(ctx, d->name_at, "unsupported function type");
    cfe_field f = {.name = d->name, .at = d->name_at, .type = d->type};
    vec_push(A(ctx), fields, f);
  }
}

cfe_type cfe_typedef_type(cfe_ctx *ctx, const char *name, cfe_pos at) {
  cfe_entity *e = cfe_lookup(ctx->unit, name);
  if (e->type.kind == CT_BAD && e->system)
    return cfe_type_bad(ctx, at, "unsupported: '%s' comes from a system header", name);
  if (e->type.kind == CT_BAD) return cfe_type_bad(ctx, at, "%s (through typedef '%s')", e->type.what, name);
  return e->type;
}

/* ---------------------------------------------------------------- declarators */

cfe_declarator *cfe_declarator_name(cfe_ctx *ctx, const char *name, cfe_pos at) {
  cfe_declarator *d = arena_alloc(A(ctx), sizeof *d);
  d->name = name;
  d->name_at = d->at = at;
  return d;
}

cfe_declarator *cfe_declarator_abstract(cfe_ctx *ctx, cfe_pos at) { return cfe_declarator_name(ctx, NULL, at); }

cfe_declarator *cfe_declarator_pointer(cfe_declarator *d, cfe_pos star_at, cfe_pos at) {
  if (!d->bad || d->is_function) {
    d->bad = d->is_function ? "function returning a pointer" : "pointer type";
    d->bad_at = star_at;
  }
  d->at = at;
  return d;
}

/* Why a length cannot size an array, or NULL when len is one. */
static const char *bad_length(cfe_ctx *ctx, const cfe_expr *length, int64_t *len) {
  if (!length) return "array type without a length (give it one: 'int a[4]')";
  if (!cfe_const_value(ctx->unit, length, len))
    return "array length: not a constant of the subset (literals, enum constants, + - * / %), or a variable-length "
           "array";
  if (*len <= 0) return arena_printf(A(ctx), "array length %lld (an array has at least one element)", (long long)*len);
  return NULL;
}

cfe_declarator *cfe_declarator_array(cfe_ctx *ctx, cfe_declarator *d, const cfe_expr *length, cfe_pos at) {
  int64_t len = 0;
  const char *bad = d->is_function ? "function returning an array" : bad_length(ctx, length, &len);
  if (!d->bad && bad) {
    d->bad = bad;
    d->bad_at = at;
  }
  if (!d->bad) vec_push(A(ctx), &d->dims, len);
  d->at = at;
  return d;
}

cfe_declarator *cfe_declarator_bitfield(cfe_declarator *d, cfe_pos at) {
  if (!d->bad) {
    d->bad = "bit-field (declare the field without a width)";
    d->bad_at = at;
  }
  d->at = cfe_span(d->at, at);
  return d;
}

cfe_declarator *cfe_declarator_function(cfe_ctx *ctx, cfe_declarator *d, cfe_decls *params, bool variadic, cfe_pos at) {
  (void)ctx;
  if (d->bad && strcmp(d->bad, "pointer type") == 0) { /* a variable: (*fp)(...) */
    d->bad = "function pointer";
    d->at = at;
    return d;
  }
  if ((d->is_function || d->dims.len > 0) && !d->bad) {
    d->bad = d->is_function ? "function returning a function" : "array of functions";
    d->bad_at = at;
  }
  d->is_function = true;
  if (params) d->params = *params;
  d->variadic = variadic;
  d->at = at;
  return d;
}

cfe_decls *cfe_decls_new(cfe_ctx *ctx) { return arena_alloc(A(ctx), sizeof(cfe_decls)); }

void cfe_decls_add(cfe_ctx *ctx, cfe_decls *list, cfe_decl *d) { vec_push(A(ctx), list, d); }

/* An array of length elements of elem (whose problem it keeps). */
static cfe_type array_of(cfe_ctx *ctx, cfe_type elem, int64_t length, cfe_pos at) {
  if (elem.kind == CT_BAD) return elem;
  if (elem.kind == CT_VOID) return cfe_type_bad(ctx, at, "unsupported array of void");
  cfe_type *e = arena_alloc(A(ctx), sizeof *e);
  *e = elem;
  return (cfe_type){.kind = CT_ARRAY, .at = at, .elem = e, .length = length};
}

static void apply_specs(cfe_ctx *ctx, const cfe_specs *s, cfe_decl *x) {
  cfe_declarator *d = x->declarator;
  x->storage = s->storage;
  x->type = cfe_specs_result(s);
  if (d->bad && x->type.kind != CT_BAD) x->type = cfe_type_bad(ctx, d->bad_at, "unsupported %s", d->bad);
  for (size_t i = d->dims.len; i-- > 0;) x->type = array_of(ctx, x->type, d->dims.items[i], d->at);
}

cfe_decl *cfe_decl_new(cfe_ctx *ctx, const cfe_specs *s, cfe_declarator *d, cfe_expr *init, cfe_pos at) {
  cfe_decl *x = arena_alloc(A(ctx), sizeof *x);
  x->declarator = d;
  x->name = d->name;
  x->name_at = d->name_at;
  x->at = at;
  x->init = init;
  x->is_function = d->is_function;
  x->params = d->params;
  x->variadic = d->variadic;
  if (s) apply_specs(ctx, s, x);
  return x;
}

cfe_stmt *cfe_declaration(cfe_ctx *ctx, const cfe_specs *s, cfe_decls *decls, cfe_pos at) {
  cfe_stmt *st = cfe_stmt_new(ctx, CS_DECL, at);
  if (!decls) return st;
  st->decls = *decls;
  if (decls->len == 1) decls->items[0]->at = at;
  vec_foreach(decls, i) {
    cfe_decl *d = decls->items[i];
    apply_specs(ctx, s, d);
    if (s->storage != SC_TYPEDEF || !d->name) continue;
    cfe_entity e = {.kind = ENT_TYPEDEF,
                    .type = d->is_function ? cfe_type_bad(ctx, d->name_at, "unsupported function type") : d->type};
    cfe_define(ctx->unit, d->name, e, true);
  }
  return st;
}

/* ---------------------------------------------------------------- file scope */

static cfe_func *function_named(cfe_ctx *ctx, cfe_decl *d) {
  cfe_entity *e = cfe_lookup(ctx->unit, d->name);
  if (e && e->kind == ENT_FUNC) return ctx->unit->funcs.items[e->index];
  cfe_func *f = arena_alloc(A(ctx), sizeof *f);
  f->name = d->name;
  f->name_at = d->name_at;
  f->decl = d;
  vec_push(A(ctx), &ctx->unit->funcs, f);
  cfe_define(ctx->unit, d->name, (cfe_entity){.kind = ENT_FUNC, .index = (int)ctx->unit->funcs.len - 1}, true);
  return f;
}

void cfe_add_globals(cfe_ctx *ctx, cfe_stmt *decl) {
  cfe_unit *u = ctx->unit;
  vec_foreach(&decl->decls, i) {
    cfe_decl *d = decl->decls.items[i];
    if (!d->name || d->storage == SC_TYPEDEF) continue;
    if (d->is_function) {
      function_named(ctx, d);
      continue;
    }
    cfe_entity *e = cfe_lookup(u, d->name);
    bool completes =
        e && e->kind == ENT_GLOBAL && u->globals.items[e->index]->type.kind == CT_BAD && d->type.kind != CT_BAD;
    if (completes) u->globals.items[e->index] = d; /* "extern int a[]; int a[4];" */
    if (e && e->kind == ENT_GLOBAL) continue;
    vec_push(u->arena, &u->globals, d);
    cfe_define(u, d->name, (cfe_entity){.kind = ENT_GLOBAL, .index = (int)u->globals.len - 1}, true);
  }
}

void cfe_add_function(cfe_ctx *ctx, const cfe_specs *s, cfe_declarator *d, cfe_stmt *body, cfe_pos at) {
  if (!d->name) return;
  cfe_decl *decl = cfe_decl_new(ctx, s, d, NULL, at);
  if (!d->is_function) {
    cfe_error(ctx->unit, d->at, "'%s' has a body but is not declared as a function", d->name);
    return;
  }
  cfe_func *f = function_named(ctx, decl);
  if (f->body) {
    cfe_error(ctx->unit, d->name_at, "redefinition of function '%s'", d->name);
    cfe_note(ctx->unit, f->body_name_at, "'%s' was first defined here", d->name);
    return;
  }
  f->decl = decl;
  f->body = body;
  f->body_name_at = d->name_at;
}

void cfe_add_enum_const(cfe_ctx *ctx, const char *name, cfe_pos at, cfe_expr *value) {
  int64_t v = ctx->enum_next;
  if (value && !cfe_const_eval(ctx->unit, value, &v)) v = 0;
  ctx->enum_next = v + 1;
  cfe_define(ctx->unit, name, (cfe_entity){.kind = ENT_ENUM, .value = v}, true);
  (void)at;
}

/* ---------------------------------------------------------------- expressions */

static uint32_t depth_of(const cfe_expr *a, const cfe_expr *b, const cfe_expr *c) {
  uint32_t d = 0;
  if (a && a->depth > d) d = a->depth;
  if (b && b->depth > d) d = b->depth;
  if (c && c->depth > d) d = c->depth;
  return d + 1;
}

static cfe_expr *expr_new(cfe_ctx *ctx, cfe_expr_kind kind, cfe_pos at) {
  cfe_expr *e = arena_alloc(A(ctx), sizeof *e);
  e->kind = kind;
  e->at = at;
  e->depth = 1;
  return e;
}

cfe_expr *cfe_int(cfe_ctx *ctx, cfe_pos at, int64_t value, bool big) {
  cfe_expr *e = expr_new(ctx, CE_INT, at);
  e->value = value;
  e->big = big;
  return e;
}

cfe_expr *cfe_name(cfe_ctx *ctx, cfe_pos at, const char *name) {
  cfe_expr *e = expr_new(ctx, CE_NAME, at);
  e->name = name;
  return e;
}

/* An operator node over up to three operands, one deeper than the deepest. */
static cfe_expr *tree(cfe_ctx *ctx, cfe_expr_kind kind, cfe_pos at, cfe_op op, cfe_expr *a, cfe_expr *b, cfe_expr *c) {
  cfe_expr *e = arena_alloc(A(ctx), sizeof *e);
  *e = (cfe_expr){.kind = kind, .at = at, .op = op, .a = a, .b = b, .c = c, .depth = depth_of(a, b, c)};
  return e;
}

cfe_expr *cfe_unary(cfe_ctx *ctx, cfe_pos at, cfe_op op, cfe_expr *a) {
  return tree(ctx, CE_UNARY, at, op, a, NULL, NULL);
}

cfe_expr *cfe_binary(cfe_ctx *ctx, cfe_pos at, cfe_op op, cfe_expr *a, cfe_expr *b) {
  return tree(ctx, CE_BINARY, at, op, a, b, NULL);
}

cfe_expr *cfe_cond(cfe_ctx *ctx, cfe_pos at, cfe_expr *a, cfe_expr *b, cfe_expr *c) {
  return tree(ctx, CE_COND, at, 0, a, b, c); /* no operator */
}

cfe_expr *cfe_assign(cfe_ctx *ctx, cfe_pos at, cfe_op op, cfe_expr *target, cfe_expr *value) {
  cfe_expr *e = cfe_binary(ctx, at, op, target, value);
  e->kind = CE_ASSIGN;
  return e;
}

cfe_expr *cfe_incdec(cfe_ctx *ctx, cfe_pos at, int delta, bool post, cfe_expr *target) {
  cfe_expr *e = cfe_unary(ctx, at, CO_ADD, target);
  e->kind = CE_INCDEC;
  e->delta = delta;
  e->post = post;
  return e;
}

cfe_exprs *cfe_args_new(cfe_ctx *ctx) { return arena_alloc(A(ctx), sizeof(cfe_exprs)); }

void cfe_args_add(cfe_ctx *ctx, cfe_exprs *args, cfe_expr *e) { vec_push(A(ctx), args, e); }

cfe_expr *cfe_call(cfe_ctx *ctx, cfe_pos at, cfe_expr *callee, cfe_exprs *args) {
  if (callee->kind != CE_NAME) return cfe_bad_expr(ctx, at, callee, "unsupported call through a function pointer");
  cfe_expr *e = expr_new(ctx, CE_CALL, at);
  e->name = callee->name;
  e->name_at = callee->at;
  if (args) e->args = *args;
  vec_foreach(&e->args, i)
    if (e->args.items[i]->depth >= e->depth) e->depth = e->args.items[i]->depth + 1;
  return e;
}

cfe_expr *cfe_cast(cfe_ctx *ctx, cfe_pos at, cfe_type type, cfe_expr *a) {
  cfe_expr *e = cfe_unary(ctx, at, CO_PLUS, a);
  e->kind = CE_CAST;
  e->type = type;
  return e;
}

cfe_expr *cfe_index(cfe_ctx *ctx, cfe_pos at, cfe_expr *array, cfe_expr *index) {
  return tree(ctx, CE_INDEX, at, 0, array, index, NULL); /* no operator */
}

cfe_expr *cfe_member(cfe_ctx *ctx, cfe_pos at, cfe_expr *object, const char *field, cfe_pos field_at) {
  cfe_expr *e = tree(ctx, CE_MEMBER, at, 0, object, NULL, NULL);
  e->name = field;
  e->name_at = field_at;
  return e;
}

cfe_expr *cfe_star(cfe_ctx *ctx, cfe_pos at) { return expr_new(ctx, CE_STAR, at); }

cfe_expr *cfe_bad_expr(cfe_ctx *ctx, cfe_pos at, cfe_expr *sub, const char *fmt, ...) {
  cfe_expr *e = expr_new(ctx, CE_BAD, at);
  va_list ap;
  va_start(ap, fmt);
  e->what = vformat(A(ctx), fmt, ap);
  va_end(ap);
  e->depth = depth_of(sub, NULL, NULL);
  return e;
}

/* ---------------------------------------------------------------- statements */

cfe_stmt *cfe_stmt_new(cfe_ctx *ctx, cfe_stmt_kind kind, cfe_pos at) {
  cfe_stmt *s = arena_alloc(A(ctx), sizeof *s);
  s->kind = kind;
  s->at = at;
  return s;
}

cfe_stmt *cfe_expr_stmt(cfe_ctx *ctx, cfe_expr *e, cfe_pos at) {
  cfe_stmt *s = cfe_stmt_new(ctx, CS_EXPR, at);
  s->expr = e;
  return s;
}

cfe_stmt *cfe_if(cfe_ctx *ctx, cfe_pos at, cfe_expr *cond, cfe_stmt *then, cfe_stmt *els) {
  cfe_stmt *s = cfe_stmt_new(ctx, CS_IF, at);
  s->expr = cond;
  s->body = then;
  s->els = els;
  return s;
}

cfe_stmt *cfe_loop(cfe_ctx *ctx, cfe_stmt_kind kind, cfe_pos at, cfe_expr *cond, cfe_stmt *body) {
  cfe_stmt *s = cfe_stmt_new(ctx, kind, at);
  s->expr = cond;
  s->body = body;
  return s;
}

cfe_stmt *cfe_for(cfe_ctx *ctx, cfe_pos at, cfe_stmt *init, cfe_expr *cond, cfe_expr *step, cfe_stmt *body) {
  cfe_stmt *s = cfe_loop(ctx, CS_FOR, at, cond, body);
  s->init = init;
  s->step = step;
  return s;
}

cfe_stmt *cfe_return(cfe_ctx *ctx, cfe_pos at, cfe_expr *value) {
  cfe_stmt *s = cfe_stmt_new(ctx, CS_RETURN, at);
  s->expr = value;
  return s;
}

cfe_stmt *cfe_block(cfe_ctx *ctx, cfe_pos at) { return cfe_stmt_new(ctx, CS_BLOCK, at); }

void cfe_block_add(cfe_ctx *ctx, cfe_stmt *block, cfe_stmt *s) {
  if (s) vec_push(A(ctx), &block->items, s);
}

cfe_stmt *cfe_atomic(cfe_ctx *ctx, cfe_pos at, cfe_stmt *body) {
  cfe_stmt *s = cfe_stmt_new(ctx, CS_ATOMIC, at);
  s->body = body;
  return s;
}

cfe_stmt *cfe_bad_stmt(cfe_ctx *ctx, cfe_pos at, const char *fmt, ...) {
  cfe_stmt *s = cfe_stmt_new(ctx, CS_BAD, at);
  va_list ap;
  va_start(ap, fmt);
  s->what = vformat(A(ctx), fmt, ap);
  va_end(ap);
  return s;
}

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
  default: return refuse(ev, e->at, "unsupported operator in a constant expression");
  }
  return !ovf || refuse(ev, e->at, "this constant expression overflows 64 bits");
}

static bool eval_name(const evaluator *ev, const cfe_expr *e, int64_t *out) {
  cfe_entity *x = cfe_lookup(ev->u, e->name);
  if (x && x->kind == ENT_ENUM) *out = x->value;
  else if (ev->report) cfe_error(ev->u, e->at, "'%s' is not a constant", e->name);
  return x && x->kind == ENT_ENUM;
}

static bool eval_unary(const evaluator *ev, const cfe_expr *e, int64_t *out) {
  int64_t a = 0;
  if (!eval(ev, e->a, &a)) return false;
  if (e->op == CO_NEG && a == INT64_MIN) return refuse(ev, e->at, "this constant expression overflows 64 bits");
  *out = e->op == CO_NEG ? -a : e->op == CO_NOT ? !a : a;
  return true;
}

static bool eval(const evaluator *ev, const cfe_expr *e, int64_t *out) {
  int64_t a = 0, b = 0;
  switch (e->kind) {
  case CE_INT:
    *out = e->value;
    return !e->big || refuse(ev, e->at, "integer constant too large (the limit is 2^63 - 1)");
  case CE_NAME: return eval_name(ev, e, out);
  case CE_CAST:
    if (e->type.kind != CT_INT && e->type.kind != CT_BOOL) break;
    if (!eval(ev, e->a, &a)) return false;
    *out = e->type.kind == CT_BOOL ? a != 0 : a;
    return true;
  case CE_UNARY:
    if (e->op != CO_NEG && e->op != CO_NOT && e->op != CO_PLUS) break;
    return eval_unary(ev, e, out);
  case CE_BINARY: return eval(ev, e->a, &a) && eval(ev, e->b, &b) && eval_binary(ev, e, a, b, out);
  case CE_COND: return eval(ev, e->a, &a) && eval(ev, a ? e->b : e->c, out);
  default: break;
  }
  return refuse(ev, e->at, "this is not an integer constant expression");
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
