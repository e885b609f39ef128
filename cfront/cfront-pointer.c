/* cfront/cfront-pointer.c -- pointers in the C subset. A pointer value
 * is a small integer: 0 for NULL, k + 1 for the k-th object whose address
 * the function takes (a global, a field or an element of one, or a local).
 * Pointers live in locals and parameters only (so a pointer to a local never
 * outlives it: no pointer is returned, stored in a global or pointed to).
 * Dereferencing p names one of the objects of p's pointee type, chosen by
 * p's value: a read is a ?: tree over them, a write one conditional store
 * per object (cfront-access.c, as for an index that is not constant), and p
 * must name one of them where it is evaluated (CHECK_NULL, a violation like
 * an index outside its array). The objects are all known before any
 * dereference is lowered: cfe_lower makes a first, silent pass that collects
 * them, then sorts them by type so that each type's objects are one range. */
#include <stdlib.h>
#include <string.h>

#include "c-ast.h"

#define PA (L->p->arena)

static ir_expr *typed(ir_expr *e, ir_type t) {
  e->type = t;
  return e;
}

static ir_expr *bin(cfe_lowering *L, loc at, ir_op op, ir_expr *a, ir_expr *b) {
  return typed(ir_binary(PA, at, op, a, b), op >= OP_LT ? TY_BOOL : TY_INT);
}

static const cfe_type void_type = {.kind = CT_VOID};

/* ---------------------------------------------------------------- types */

static void type_key(const cfe_type *t, strbuf *out) {
  switch (t->kind) {
  case CT_INT: /* its width and signedness when known: a 'char *' may not name an int */
    if (t->is_unsigned) sbuf_puts(out, "unsigned ");
    sbuf_puts(out, t->bits == 8 ? "char" : t->bits == 16 ? "short" : t->bits == 64 ? "long" : "int");
    return;
  case CT_BOOL: sbuf_puts(out, "bool"); return;
  case CT_VOID: sbuf_puts(out, "void"); return;
  case CT_STRUCT: /* an anonymous struct by its fields: a model's atomic_t is the user's */
    if (t->record->tag) {
      sbuf_printf(out, "%s %s", t->record->is_union ? "union" : "struct", t->record->tag);
      return;
    }
    sbuf_puts(out, t->record->is_union ? "union {" : "struct {");
    vec_foreach(&t->record->fields, i) {
      type_key(&t->record->fields.items[i].type, out);
      sbuf_printf(out, " %s; ", t->record->fields.items[i].name);
    }
    sbuf_putc(out, '}');
    return;
  case CT_ARRAY:
    type_key(t->elem, out);
    sbuf_printf(out, "[%lld]", (long long)t->length);
    return;
  case CT_POINTER:
    type_key(t->elem, out);
    sbuf_putc(out, '*');
    return;
  case CT_BAD: sbuf_puts(out, "?"); return;
  }
}

const char *cfe_type_key(cfe_lowering *L, const cfe_type *t) {
  strbuf b = {0};
  type_key(t, &b);
  const char *k = arena_intern(L->u->arena, sbuf_str(&b), b.len);
  sbuf_free(&b);
  return k;
}

/* ---------------------------------------------------------------- pointer locals */

static void grow(cfe_lowering *L, int v) {
  cfe_pointers *P = L->ptr;
  while (P->pointee.len <= (size_t)v) {
    vec_push(NULL, &P->pointee, NULL);
    vec_push(NULL, &P->unknown, false);
    vec_push(NULL, &P->types, NULL);
    vec_push(NULL, &P->ordinal, -1);
  }
}

/* The target key of the n-th local declared. */
static const char *local_key(cfe_lowering *L, int n) {
  return arena_intern_cstr(L->u->arena, arena_printf(L->u->arena, "#%d", n));
}

int cfe_declare_local(cfe_lowering *L, const char *display, const cfe_type *t) {
  cfe_pointers *P = L->ptr;
  int n = P->declared++, i = P->frozen ? symtab_get(&P->ids, local_key(L, n)) : -1;
  if (i >= 0 && strcmp(P->targets.items[i].shown, display) != 0) { /* the passes declare the same locals */
    diag_error_at(L->u->sink, "athread", "internal error: local %d is '%s' in one pass, '%s' in the other", n,
                  P->targets.items[i].shown, display);
    L->u->errors++;
  }
  int v = i >= 0 ? P->targets.items[i].var : cfe_new_local(L, display, t);
  grow(L, v);
  P->types.items[v] = t;
  P->ordinal.items[v] = n;
  return v;
}

void cfe_place_local_targets(cfe_lowering *L) {
  vec_foreach(&L->ptr->targets, i) {
    cfe_target *t = &L->ptr->targets.items[i];
    if (t->key[0] == '#') t->var = cfe_new_local(L, t->shown, &t->type);
  }
}

bool cfe_pointer_local(cfe_lowering *L, int v, const cfe_type *pointee, bool unknown, cfe_pos at) {
  grow(L, v);
  L->ptr->pointee.items[v] = pointee;
  L->ptr->unknown.items[v] = unknown;
  if (unknown) return true;
  if (pointee->kind == CT_POINTER) cfe_error(L->u, at, "unsupported pointer to a pointer");
  else if (pointee->kind == CT_ARRAY)
    cfe_error(L->u, at, "unsupported pointer to an array (point to its elements instead: 'int *p = &a[i]')");
  else return true;
  return false;
}

const cfe_type *cfe_pointee(const cfe_lowering *L, int v) {
  return v >= 0 && (size_t)v < L->ptr->pointee.len ? L->ptr->pointee.items[v] : NULL;
}

bool cfe_unknown_pointer(cfe_lowering *L, int v, cfe_pos at) {
  if (v < 0 || (size_t)v >= L->ptr->unknown.len || !L->ptr->unknown.items[v]) return false;
  const char *name = L->p->vars.items[v].display;
  if (symtab_put(&L->reported, arena_intern_cstr(L->u->arena, name), 1) < 0)
    cfe_error(L->u, at,
              "unsupported use of '%s', a pointer parameter of the checked function: its value comes from the "
              "thread's creator (pthread_create), which athread does not follow (use the global objects it points to "
              "directly)",
              name);
  return true;
}

/* ---------------------------------------------------------------- targets */

int64_t cfe_target_id(cfe_lowering *L, const char *key, const char *shown, int var, const cfe_type *type, cfe_pos at) {
  cfe_pointers *P = L->ptr;
  int i = symtab_get(&P->ids, key);
  if (i >= 0) return i + 1;
  if (P->frozen) { /* the two passes lower the same code: this cannot happen */
    cfe_error(L->u, at, "internal error: the address of '%s' was not seen by the first pass", shown);
    return 0;
  }
  cfe_target t = {.key = key, .shown = shown, .var = var, .tkey = cfe_type_key(L, type), .type = *type};
  vec_push(NULL, &P->targets, t);
  symtab_put(&P->ids, key, (int)P->targets.len - 1);
  return (int64_t)P->targets.len;
}

/* The targets of type key tkey: [*first, *first + count). */
static size_t targets_of(const cfe_pointers *P, const char *tkey, size_t *first) {
  size_t n = 0;
  *first = 0;
  vec_foreach(&P->targets, i) {
    if (P->targets.items[i].tkey != tkey) continue;
    if (n++ == 0) *first = i;
  }
  return n;
}

/* ---------------------------------------------------------------- pointer expressions */

static bool null_constant(const cfe_lowering *L, const cfe_expr *e) {
  int64_t v;
  return cfe_constant(L, e) && cfe_const_value(L->u, e, &v) && v == 0;
}

bool cfe_is_pointer(const cfe_lowering *L, const cfe_expr *e) {
  if (e->ctype.kind == CT_POINTER) return true;
  switch (e->kind) {
  case CE_NAME: return cfe_pointee(L, cfe_local(L, e->name)) != NULL;
  case CE_UNARY: return e->op == CO_ADDR;
  case CE_CAST: return e->type.kind == CT_POINTER;
  case CE_COND: return cfe_is_pointer(L, e->b) || cfe_is_pointer(L, e->c);
  default: return false;
  }
}

bool cfe_pointer_misuse(cfe_lowering *L, const cfe_expr *e) {
  bool arith = e->kind == CE_BINARY && (e->op <= CO_MOD || (e->op >= CO_LT && e->op <= CO_GE));
  if (arith && (cfe_is_pointer(L, e->a) || cfe_is_pointer(L, e->b))) {
    cfe_error(L->u, e->at,
              e->op <= CO_MOD ? "unsupported pointer arithmetic (a pointer names one object: use '&a[i]' for an "
                                "element)"
                              : "unsupported ordering of pointers (only '==' and '!=' compare them)");
    return true;
  }
  if (e->kind == CE_CAST && e->type.kind == CT_INT && cfe_is_pointer(L, e->a)) {
    cfe_error(L->u, e->at, "unsupported cast of a pointer to an integer");
    return true;
  }
  return false;
}

static ir_expr *zero(cfe_lowering *L, cfe_pos at) { return cfe_int_lit(L, at.at, 0); }

/* Can a pointer to have point to an object of type want? */
static bool compatible(cfe_lowering *L, const cfe_type *have, const cfe_type *want) {
  return !want || have->kind == CT_VOID || want->kind == CT_VOID || cfe_type_key(L, have) == cfe_type_key(L, want);
}

/* The pointer value of e; *pointee gets its type (void for NULL). */
static ir_expr *pointer(cfe_lowering *L, const cfe_expr *e, const cfe_type **pointee);

static ir_expr *address(cfe_lowering *L, const cfe_expr *e, const cfe_type **pointee) {
  const cfe_expr *x = e->a;
  if (x->kind == CE_UNARY && x->op == CO_DEREF) return pointer(L, x->a, pointee); /* &*p is p */
  int v = x->kind == CE_NAME ? cfe_local(L, x->name) : -1;
  if (v >= 0 && cfe_pointee(L, v)) {
    cfe_error(L->u, e->at, "unsupported pointer to a pointer ('&%s')", x->name);
    return zero(L, e->at);
  }
  if (v >= 0) {
    static const cfe_type int_type = {.kind = CT_INT}, bool_type = {.kind = CT_BOOL};
    const cfe_type *t = (size_t)v < L->ptr->types.len ? L->ptr->types.items[v] : NULL;
    *pointee = t ? t : cfe_is_bool_local(L, v) ? &bool_type : &int_type;
    int n = (size_t)v < L->ptr->ordinal.len ? L->ptr->ordinal.items[v] : -1;
    const char *key = n >= 0 ? local_key(L, n) /* a declared local */
                             : arena_intern_cstr(L->u->arena, arena_printf(L->u->arena, "=%d", v)); /* a static local's cell */
    return cfe_int_lit(L, e->at.at, cfe_target_id(L, key, x->name, v, *pointee, e->at));
  }
  cfe_type *t = arena_alloc(L->u->arena, sizeof *t);
  ir_expr *id = cfe_lower_address(L, x, t);
  *pointee = t;
  return id;
}

static ir_expr *pointer_name(cfe_lowering *L, const cfe_expr *e, const cfe_type **pointee) {
  int v = cfe_local(L, e->name);
  if (cfe_unknown_pointer(L, v, e->at)) return zero(L, e->at);
  if (v >= 0 && cfe_pointee(L, v)) {
    *pointee = cfe_pointee(L, v);
    return prog_var_ref(L->p, v, e->at.at);
  }
  const cfe_entity *x = v < 0 ? cfe_lookup(L->u, e->name) : NULL;
  if (x && x->kind == ENT_GLOBAL && L->u->globals.items[x->index]->type.kind == CT_ARRAY)
    cfe_error(L->u, e->at, "unsupported use of array '%s' as a pointer (take the address of one element: '&%s[i]')",
              e->name, e->name);
  else if (x && x->kind == ENT_GLOBAL && L->u->globals.items[x->index]->type.kind == CT_POINTER)
    cfe_error(L->u, e->at, "unsupported global pointer '%s' (pointers may be locals and parameters only)", e->name);
  else if (x && x->kind == ENT_FUNC) cfe_error(L->u, e->at, "unsupported function pointer ('%s')", e->name);
  else if (v < 0 && (!x || x->kind == ENT_SYSTEM)) cfe_unknown_name(L, e->name, e->at, "identifier");
  else cfe_error(L->u, e->at, "'%s' is not a pointer", e->name);
  return zero(L, e->at);
}

static ir_expr *pointer_cast(cfe_lowering *L, const cfe_expr *e, const cfe_type **pointee) {
  if (e->type.kind != CT_POINTER) {
    cfe_error(L->u, e->at, "this cast does not give a pointer");
    return zero(L, e->at);
  }
  *pointee = e->type.elem;
  if (null_constant(L, e->a)) return zero(L, e->at);
  const cfe_type *from = &void_type;
  ir_expr *v = pointer(L, e->a, &from);
  if (!compatible(L, from, e->type.elem))
    cfe_error(L->u, e->at, "unsupported %s between unrelated pointer types ('%s *' to '%s *')",
              e->implicit ? "conversion" : "cast", cfe_type_key(L, from), cfe_type_key(L, e->type.elem));
  return v;
}

static ir_expr *pointer_cond(cfe_lowering *L, const cfe_expr *e, const cfe_type **pointee) {
  const cfe_type *b = &void_type, *c = &void_type;
  ir_expr *cond = cfe_lower_bool(L, e->a);
  ir_expr *x = pointer(L, e->b, &b), *y = pointer(L, e->c, &c);
  *pointee = b->kind != CT_VOID ? b : c;
  return typed(ir_ite(PA, e->at.at, cond, x, y), TY_INT);
}

static ir_expr *pointer(cfe_lowering *L, const cfe_expr *e, const cfe_type **pointee) {
  *pointee = &void_type;
  if (null_constant(L, e)) return zero(L, e->at);
  switch (e->kind) {
  case CE_NAME: return pointer_name(L, e, pointee);
  case CE_UNARY:
    if (e->op == CO_ADDR) return address(L, e, pointee);
    break;
  case CE_CAST: return pointer_cast(L, e, pointee);
  case CE_COND: return pointer_cond(L, e, pointee);
  case CE_BINARY:
    if (cfe_pointer_misuse(L, e)) return zero(L, e->at);
    break;
  case CE_CALL: cfe_error(L->u, e->at, "unsupported call giving a pointer"); return zero(L, e->at);
  case CE_BAD: cfe_error(L->u, e->at, "%s", e->what); return zero(L, e->at);
  default: break;
  }
  cfe_lower_value(L, e);
  cfe_error(L->u, e->at, "unsupported pointer expression (a pointer is NULL, '&object', or a pointer variable)");
  return zero(L, e->at);
}

ir_expr *cfe_lower_pointer(cfe_lowering *L, const cfe_expr *e, const cfe_type *want) {
  const cfe_type *have = &void_type;
  int before = L->u->sink->errors;
  ir_expr *v = pointer(L, e, &have);
  if (L->u->sink->errors == before && !compatible(L, have, want))
    cfe_error(L->u, e->at, "a pointer to '%s' where a pointer to '%s' is expected", cfe_type_key(L, have),
              cfe_type_key(L, want));
  return v;
}

/* ---------------------------------------------------------------- dereferences */

/* The CHECK_NULL of *p where it is evaluated: p names one of targets[first, first+n). */
static void null_check(cfe_lowering *L, const cfe_expr *p, ir_expr *value, size_t first, size_t n) {
  prog_path_part *part = arena_alloc(PA, sizeof *part);
  strbuf text = {0};
  const diag_source *src = p->at.file >= 0 ? L->u->files.items[p->at.file].src : NULL;
  if (src && p->at.at.end <= src->len) sbuf_putn(&text, src->text + p->at.at.start, p->at.at.end - p->at.at.start);
  else sbuf_puts(&text, "the pointer");
  part->text = arena_intern(PA, sbuf_str(&text), text.len);
  sbuf_free(&text);
  prog_subscript s = {.array = part, .array_len = 1, .index = value, .length = 0};
  vec_push(PA, &L->p->subscripts, s);
  loc at = value->at;
  ir_expr *in = n == 0 ? typed(ir_bool(PA, at, false), TY_BOOL)
                       : bin(L, at, OP_AND, bin(L, at, OP_LE, cfe_int_lit(L, at, (int64_t)first + 1), value),
                             bin(L, at, OP_LE, value, cfe_int_lit(L, at, (int64_t)(first + n))));
  cfe_check c = {L->guard ? bin(L, at, OP_IMPLIES, L->guard, in) : in, CHECK_NULL, (int)L->p->subscripts.len - 1};
  vec_push(NULL, &L->pending.checks, c);
}

bool cfe_lower_deref(cfe_lowering *L, const cfe_expr *e, cfe_deref *d) {
  const cfe_type *pointee = &void_type;
  int before = L->u->sink->errors;
  ir_expr *v = pointer(L, e->a, &pointee);
  if (L->u->sink->errors != before) return false;
  if (pointee->kind == CT_VOID) {
    cfe_error(L->u, e->at, "unsupported dereference of a 'void *' (cast it to the pointer type of its object first)");
    return false;
  }
  if (pointee->kind == CT_BAD) {
    cfe_error(L->u, e->at, "unsupported dereference: %s",
              pointee->what ? pointee->what : "the pointee type is unknown");
    return false;
  }
  d->pointee = pointee;
  d->count = targets_of(L->ptr, cfe_type_key(L, pointee), &d->first);
  null_check(L, e->a, v, d->first, d->count);
  d->index = bin(L, v->at, OP_SUB, v, cfe_int_lit(L, v->at, (int64_t)d->first + 1));
  return true;
}

/* ---------------------------------------------------------------- the state of synchronization objects */

/* p without the conversion to 'void *' that passing it to a builtin made. */
static const cfe_expr *unconverted(const cfe_expr *p) {
  while (p->kind == CE_CAST && p->implicit && p->type.kind == CT_POINTER && p->type.elem->kind == CT_VOID) p = p->a;
  return p;
}

bool cfe_state_object(cfe_lowering *L, const cfe_expr *call, size_t args, cfe_expr *deref) {
  if (call->args.len != args) {
    cfe_error(L->u, call->at, "'%s' takes %zu argument%s", call->name, args, args == 1 ? "" : "s");
    return false;
  }
  const cfe_expr *p = unconverted(call->args.items[0]);
  *deref = (cfe_expr){.kind = CE_UNARY, .op = CO_DEREF, .at = call->at, .a = (cfe_expr *)p, .depth = p->depth + 1};
  return true;
}
