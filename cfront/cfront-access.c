/* conformance/cfront-access.c -- the C objects the code names, as program
 * variables: locals, scalar globals, and the fields and elements of global
 * structs and arrays. A global object stands for the spec's cell with its C
 * path (ast_c_name: "x", "ext.PendingIo", "flag[2]"); the cells are the
 * program's first variables (cfront-lower.c, add_shared). An index that is
 * not a constant may name any element of its array: a read is a ?: tree over
 * the cells it may name, a write stores into one of them (cfront-lower.c),
 * and the index must lie within its array where it is evaluated, a bounds
 * check that the statement makes before its action (L->pending). An access
 * may also start from a dereference (*p, p->f): its first index is then the
 * pointer's, over the objects of its type (cfront-pointer.c). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "c-ast.h"

#define PA (L->p->arena)

/* ---------------------------------------------------------------- the spec's cells */

/* The array that C path is an element of ("a.q" for "a.q[2]"), interned in a, or NULL. */
static const char *array_of_path(arena *a, const char *path) {
  size_t n = strlen(path);
  const char *open = strrchr(path, '[');
  return n > 0 && path[n - 1] == ']' && open ? arena_intern(a, path, (size_t)(open - path)) : NULL;
}

void cfe_map_cells(cfe_lowering *L) {
  vec_foreach(&L->spec->shared, i) {
    const char *path = arena_intern_cstr(L->u->arena, ast_c_name(L->spec->shared.items[i]));
    symtab_put(&L->cells, path, (int)i);
    const char *array = array_of_path(L->u->arena, path);
    if (array) symtab_put(&L->arrays, array, (int)i);
  }
}

void cfe_unmap_cells(cfe_lowering *L) {
  symtab_free(&L->local_cells);
  symtab_free(&L->cells);
  symtab_free(&L->arrays);
  symtab_free(&L->reported);
  symtab_free(&L->statics);
}

/* True the first time it is asked about key (an interned path or a declaration). */
static bool first_report(cfe_lowering *L, const void *key) { return symtab_put(&L->reported, key, 1) < 0; }

static const char *c_type_word(cfe_type_kind k) { return k == CT_BOOL ? "bool" : "int"; }

/* The declaration of a cell in the spec (an element's array). */
static const ast_shared *declared(const ast_shared *cell) { return cell->array ? cell->array : cell; }

static void type_mismatch(cfe_lowering *L, cfe_pos use, const char *what, const char *path, cfe_type_kind c,
                          const ast_shared *cell) {
  cfe_error(L->u, use, "%s '%s' is %s in the C code but %s in the spec", what, path, c_type_word(c),
            cell->type.kind == TYPE_BOOL ? "bool" : "int");
  diag_note(L->spec->src, declared(cell)->at, "'%s' is declared here in the spec", declared(cell)->name);
}

static void unsupported_type(cfe_lowering *L, cfe_pos use, const char *what, const char *path, const cfe_type *t) {
  cfe_error(L->u, use, "%s '%s' has an unsupported type", what, path);
  if (t->kind == CT_BAD) cfe_note(L->u, t->at, "%s", t->what);
  if (t->kind == CT_POINTER) cfe_note(L->u, t->at, "unsupported pointer type (pointers are not in the subset yet)");
}

/* Types a C object of the subset cannot have. */
static bool unsupported(const cfe_type *t) { return t->kind == CT_BAD || t->kind == CT_VOID || t->kind == CT_POINTER; }

static bool aggregate(const cfe_type *t) { return t->kind == CT_STRUCT || t->kind == CT_ARRAY; }

/* A struct or an array where only a scalar may stand. */
static void whole(cfe_lowering *L, cfe_pos use, const cfe_type *t, const char *path) {
  if (t->kind == CT_STRUCT && t->record->is_union)
    cfe_error(L->u, use, "unsupported use of the whole union '%s' (use its member: '%s.MEMBER')", path, path);
  else if (t->kind == CT_STRUCT)
    cfe_error(L->u, use, "unsupported use of the whole struct '%s' (use its fields: '%s.FIELD')", path, path);
  else cfe_error(L->u, use, "unsupported use of the whole array '%s' (use its elements: '%s[i]')", path, path);
}

/* ---------------------------------------------------------------- names */

/* Checks a scalar global against the spec's cells once; returns its
 * variable or -1 (reported at the first use). */
static int global_var(cfe_lowering *L, int g, cfe_pos use) {
  if (L->globals[g] != -2) return L->globals[g];
  const cfe_decl *d = L->u->globals.items[g];
  L->globals[g] = -1;
  int cell = symtab_get(&L->cells, d->name);
  const ast_shared *sh = cell >= 0 ? L->spec->shared.items[cell] : NULL;
  if (d->type.kind == CT_POINTER) {
    cfe_error(L->u, use, "unsupported global pointer '%s' (pointers may be locals and parameters only)", d->name);
  } else if (unsupported(&d->type)) {
    unsupported_type(L, use, "global", d->name, &d->type);
  } else if (aggregate(&d->type)) {
    whole(L, use, &d->type, d->name);
  } else if (!sh) {
    cfe_error(L->u, use,
              "global '%s' is not a shared variable of the spec (declare one, or bind one to it: 'shared int NAME "
              "binds %s;')",
              d->name, d->name);
    cfe_note(L->u, d->name_at, "'%s' is declared here", d->name);
  } else if ((d->type.kind == CT_BOOL) != (sh->type.kind == TYPE_BOOL)) {
    type_mismatch(L, use, "global", d->name, d->type.kind, sh);
  } else {
    L->globals[g] = cell;
    L->p->vars.items[cell].ctype = cfe_ctype_of(L, &d->type); /* its values are the C object's */
  }
  return L->globals[g];
}

const cfe_binding *cfe_binding_of(const cfe_lowering *L, const char *name) {
  for (size_t i = L->names.len; i > L->frame->scope_base; i--)
    if (L->names.items[i - 1].name == name) return &L->names.items[i - 1];
  return NULL;
}

int cfe_local(const cfe_lowering *L, const char *name) {
  const cfe_binding *b = cfe_binding_of(L, name);
  return b ? b->var : -1;
}

/* ---------------------------------------------------------------- static locals */

/* The spec's cell of static scalar d at path, or -1 after reporting why there is none. */
static int static_cell(cfe_lowering *L, const cfe_decl *d, const char *path) {
  int cell = symtab_get(&L->cells, path);
  const ast_shared *sh = cell >= 0 ? L->spec->shared.items[cell] : NULL;
  if (unsupported(&d->type)) unsupported_type(L, d->name_at, "static local", d->name, &d->type);
  else if (!sh)
    cfe_error(L->u, d->name_at,
              "static local '%s' is one object for every call and every thread, so it must be a shared variable of "
              "the spec; declare one: 'shared %s %s binds %s;'",
              d->name, c_type_word(d->type.kind), d->name, path);
  else if ((d->type.kind == CT_BOOL) != (sh->type.kind == TYPE_BOOL))
    type_mismatch(L, d->name_at, "static local", path, d->type.kind, sh);
  else return cell;
  return -1;
}

/* False after reporting a second static local of the function with the same name (one path for two objects). */
static bool one_object(cfe_lowering *L, const cfe_decl *d, const char *path) {
  int first = symtab_get(&L->statics, path);
  if (first < 0) symtab_put(&L->statics, path, (int)d->name_at.at.start);
  if (first < 0 || first == (int)d->name_at.at.start) return true;
  cfe_error(L->u, d->name_at, "a second static local '%s' in '%s': both would be '%s' in the spec (rename one)",
            d->name, L->frame->func->name, path);
  return false;
}

void cfe_static_local(cfe_lowering *L, const cfe_decl *d) {
  const char *path = arena_intern_cstr(L->u->arena, arena_printf(L->u->arena, "%s.%s", L->frame->func->name, d->name));
  cfe_binding b = {.name = d->name, .var = CFE_AGGREGATE, .type = &d->type, .at = d->name_at, .statik = d, .path = path};
  bool ok = one_object(L, d, path);
  if (!aggregate(&d->type)) b.var = ok ? static_cell(L, d, path) : -1;
  if (b.var >= 0) L->p->vars.items[b.var].ctype = cfe_ctype_of(L, &d->type); /* its values are the C object's */
  if (b.var == -1) b.var = cfe_new_local(L, d->name, &d->type); /* after an error: its uses say nothing more */
  if (!ok) b.statik = NULL; /* nor do the parts of a struct or array */
  vec_push(NULL, &L->names, b);
}

/* ---------------------------------------------------------------- local structs and arrays */

#define MAX_LOCAL_LEAVES 4096

/* Makes the leaves of an object of type t whose key and shown path are the
 * buffers' contents; false when there would be more than the limit. */
static bool make_leaves(cfe_lowering *L, const cfe_type *t, strbuf *key, strbuf *shown, size_t *count) {
  size_t k = key->len, s = shown->len;
  bool ok = true;
  if (t->kind == CT_STRUCT) {
    vec_foreach(&t->record->fields, i) {
      sbuf_printf(key, ".%s", t->record->fields.items[i].name);
      sbuf_printf(shown, ".%s", t->record->fields.items[i].name);
      ok = ok && make_leaves(L, &t->record->fields.items[i].type, key, shown, count);
      key->len = k, shown->len = s;
    }
  } else if (t->kind == CT_ARRAY) {
    for (int64_t i = 0; ok && i < t->length; i++) {
      sbuf_printf(key, "[%" PRId64 "]", i);
      sbuf_printf(shown, "[%" PRId64 "]", i);
      ok = make_leaves(L, t->elem, key, shown, count);
      key->len = k, shown->len = s;
    }
  } else {
    if (++*count > MAX_LOCAL_LEAVES) return false;
    int v = cfe_new_local(L, sbuf_str(shown), t);
    symtab_put(&L->local_cells, arena_intern(L->u->arena, sbuf_str(key), key->len), v);
  }
  key->len = k, shown->len = s;
  return ok;
}

/* The first field or element type of t that a local cannot hold, or NULL. */
static const cfe_type *unsupported_leaf(const cfe_type *t) {
  if (t->kind == CT_ARRAY) return unsupported_leaf(t->elem);
  if (t->kind == CT_STRUCT) {
    if (!t->record->complete) return t;
    vec_foreach(&t->record->fields, i) {
      const cfe_type *bad = unsupported_leaf(&t->record->fields.items[i].type);
      if (bad) return bad;
    }
    return NULL;
  }
  return t->kind == CT_INT || t->kind == CT_BOOL ? NULL : t;
}

bool cfe_local_aggregate(cfe_lowering *L, const cfe_decl *d) {
  cfe_binding b = {.name = d->name, .var = CFE_AGGREGATE, .type = &d->type, .at = d->name_at};
  vec_push(NULL, &L->names, b); /* without a key after an error: its uses say nothing more */
  const cfe_type *bad = unsupported_leaf(&d->type);
  if (bad) {
    cfe_error(L->u, d->name_at, "local '%s' has a part of a type athread cannot hold here", d->name);
    if (bad->kind == CT_BAD) cfe_note(L->u, bad->at, "%s", bad->what);
    return false;
  }
  const char *key = arena_printf(L->u->arena, "$%d", L->ptr->declared++); /* the same in both passes (cfe_declare_local) */
  strbuf k = {0}, shown = {0};
  sbuf_puts(&k, key);
  sbuf_puts(&shown, d->name);
  size_t count = 0;
  bool ok = make_leaves(L, &d->type, &k, &shown, &count);
  sbuf_free(&k);
  sbuf_free(&shown);
  if (!ok) {
    cfe_error(L->u, d->name_at, "local '%s' has more than %d scalar parts", d->name, MAX_LOCAL_LEAVES);
    return false;
  }
  L->names.items[L->names.len - 1].key = key;
  return true;
}

void cfe_unknown_name(cfe_lowering *L, const char *name, cfe_pos at, const char *kind) {
  cfe_entity *x = cfe_lookup(L->u, name);
  if (strncmp(name, "__builtin_", 10) == 0) cfe_error(L->u, at, "unsupported compiler builtin '%s'", name);
  else if (strncmp(name, "__atomic_", 9) == 0 || strncmp(name, "__sync_", 7) == 0)
    cfe_error(L->u, at, "unsupported atomic builtin '%s' (" CFE_ATOMIC_HINT ")", name);
  else if (x && x->kind == ENT_SYSTEM) cfe_error(L->u, at, "unsupported: '%s' comes from a system header", name);
  else cfe_error(L->u, at, "unknown %s '%s'", kind, name);
}

/* A name as an operand: a variable or an error (an enum constant is a CE_INT already). */
static ir_expr *name_value(cfe_lowering *L, const cfe_expr *e) {
  int v = cfe_local(L, e->name);
  if (cfe_unknown_pointer(L, v, e->at)) return cfe_int_lit(L, e->at.at, 0);
  if (v >= 0) return prog_var_ref(L->p, v, e->at.at);
  if (v == CFE_AGGREGATE) {
    const cfe_binding *b = cfe_binding_of(L, e->name);
    if (b->key || b->statik) whole(L, e->at, b->type, e->name);
    return cfe_int_lit(L, e->at.at, 0);
  }
  cfe_entity *x = cfe_lookup(L->u, e->name);
  if (x && x->kind == ENT_GLOBAL) {
    v = global_var(L, x->index, e->at);
    return v >= 0 ? prog_var_ref(L->p, v, e->at.at) : cfe_int_lit(L, e->at.at, 0);
  }
  if (x && x->kind == ENT_FUNC) cfe_error(L->u, e->at, "unsupported use of function '%s' as a value", e->name);
  else cfe_unknown_name(L, e->name, e->at, "identifier");
  return cfe_int_lit(L, e->at.at, 0);
}

static int name_target(cfe_lowering *L, const cfe_expr *e) {
  int v = cfe_local(L, e->name);
  if (cfe_unknown_pointer(L, v, e->at)) return -1;
  if (v >= 0) return v;
  if (v == CFE_AGGREGATE) {
    const cfe_binding *b = cfe_binding_of(L, e->name);
    if (b->key || b->statik) whole(L, e->at, b->type, e->name);
    return -1;
  }
  cfe_entity *x = cfe_lookup(L->u, e->name);
  if (x && x->kind == ENT_GLOBAL) return global_var(L, x->index, e->at);
  if (x && x->kind == ENT_FUNC) cfe_error(L->u, e->at, "cannot assign to function '%s'", e->name);
  else cfe_unknown_name(L, e->name, e->at, "identifier");
  return -1;
}

/* ---------------------------------------------------------------- accesses */

/* A field or element of a global, resolved from the global outward. */
typedef struct access {
  const cfe_decl *global;   /* the root when it is a global, else NULL */
  const char *local;        /* the root's key when it is a local struct or array, else NULL */
  bool deref;               /* the root is *p: the first index of cells is p's, over targets[first ..] */
  size_t first;             /* with deref: the first of the pointer's targets */
  cfe_type type;            /* the type of the object reached */
  VEC(prog_path_part) path; /* its C path, indices that are not constants as such (program arena) */
  strbuf shown;             /* its C path as written ("a[i].q"), for messages (heap) */
  int64_t last_length;      /* when the last part is an index: the length of its array, else 0 */
  VEC(size_t) members;      /* the parts of path that name a union's member (program arena) */
  cfe_cells *cells;         /* the indices that are not constants (program arena) */
} access;

static void add_text(cfe_lowering *L, access *a, const char *text) {
  prog_path_part part = {.text = arena_intern_cstr(PA, text)};
  vec_push(PA, &a->path, part);
  sbuf_puts(&a->shown, text);
}

/* Appends the source text at pos ("..." when there is none). */
static void source_text(const cfe_lowering *L, cfe_pos pos, strbuf *out) {
  const diag_source *src = pos.file >= 0 ? L->u->files.items[pos.file].src : NULL;
  if (src && pos.at.end <= src->len) sbuf_putn(out, src->text + pos.at.start, pos.at.end - pos.at.start);
  else sbuf_puts(out, "...");
}

static bool usable(cfe_lowering *L, access *a, cfe_pos use) {
  const char *path = arena_intern_cstr(L->u->arena, sbuf_str(&a->shown));
  if (a->type.kind == CT_POINTER) {
    if (first_report(L, path))
      cfe_error(L->u, use, "unsupported pointer '%s' in a global (pointers may be locals and parameters only)", path);
    return false;
  }
  if (a->type.kind != CT_BAD && a->type.kind != CT_VOID) return true;
  if (first_report(L, path)) unsupported_type(L, use, a->path.len == 1 ? "global" : "C object", path, &a->type);
  return false;
}

/* The root *p: the object p names, one of the targets of its type. */
static bool deref_root(cfe_lowering *L, const cfe_expr *e, access *a) {
  cfe_deref d;
  if (!cfe_lower_deref(L, e, &d)) return false;
  a->deref = true;
  a->first = d.first;
  a->type = *d.pointee;
  sbuf_puts(&a->shown, "(*");
  source_text(L, e->a->at, &a->shown);
  sbuf_putc(&a->shown, ')');
  prog_path_part part = {.text = arena_intern_cstr(PA, sbuf_str(&a->shown))};
  vec_push(PA, &a->path, part);
  vec_push(PA, &a->cells->index, d.index);
  vec_push(PA, &a->cells->length, (int64_t)d.count);
  return true;
}

/* The global or local struct or array an access starts from. */
static bool root(cfe_lowering *L, const cfe_expr *e, access *a) {
  if (e->kind == CE_UNARY && e->op == CO_DEREF) return deref_root(L, e, a);
  int before = L->u->sink->errors;
  const cfe_binding *b = e->kind == CE_NAME ? cfe_binding_of(L, e->name) : NULL;
  if (b && b->var == CFE_AGGREGATE && b->statik) { /* a static local: cells under its path */
    a->global = b->statik;
    a->type = *b->type;
    add_text(L, a, b->path);
    return usable(L, a, e->at);
  }
  if (b && b->var == CFE_AGGREGATE) {
    if (!b->key) return false; /* its declaration was reported */
    a->local = b->key;
    a->type = *b->type;
    add_text(L, a, e->name);
    return true;
  }
  cfe_entity *x = e->kind == CE_NAME && !b ? cfe_lookup(L->u, e->name) : NULL;
  if (x && x->kind == ENT_GLOBAL) {
    a->global = L->u->globals.items[x->index];
    a->type = a->global->type;
    add_text(L, a, a->global->name);
    return usable(L, a, e->at);
  }
  if (b && b->name[0] == '$') return false; /* a struct value's temporary (f().x): its copy was reported */
  if (b && b->type && b->type->kind == CT_BAD) return false; /* a local whose type was reported ('int a[n]') */
  if (b) cfe_error(L->u, e->at, "'%s' is not an array or a struct", e->name);
  else if (e->kind == CE_NAME && (!x || x->kind == ENT_SYSTEM)) cfe_unknown_name(L, e->name, e->at, "identifier");
  else if (e->kind == CE_NAME) cfe_error(L->u, e->at, "'%s' is not an array or a struct", e->name);
  else cfe_lower_value(L, e); /* says what is wrong with it, if anything */
  if (L->u->sink->errors == before)
    cfe_error(L->u, e->at, "unsupported: only global variables have fields and elements here");
  return false;
}

static bool member(cfe_lowering *L, const cfe_expr *e, access *a) {
  const char *path = sbuf_str(&a->shown);
  const cfe_record *r = a->type.kind == CT_STRUCT ? a->type.record : NULL;
  if (!r) cfe_error(L->u, e->name_at, "'%s' is not a struct, so it has no field '%s'", path, e->name);
  else if (!r->complete)
    cfe_error(L->u, e->at, "'%s' has type 'struct %s', which is declared but never defined", path, r->tag);
  if (!r || !r->complete) return false;
  vec_foreach(&r->fields, i) {
    if (r->fields.items[i].name != e->name) continue;
    if (r->is_union) vec_push(PA, &a->members, a->path.len);
    add_text(L, a, arena_printf(PA, ".%s", e->name));
    a->type = r->fields.items[i].type;
    a->last_length = 0;
    return usable(L, a, e->at);
  }
  cfe_error(L->u, e->name_at, "'%s' has no field '%s'", path, e->name);
  cfe_note(L->u, r->at, "its struct is defined here");
  return false;
}

static ir_expr *typed(ir_expr *e, ir_type t) {
  e->type = t;
  return e;
}

static ir_expr *bin(cfe_lowering *L, loc at, ir_op op, ir_expr *a, ir_expr *b) {
  return typed(ir_binary(PA, at, op, a, b), op >= OP_LT ? TY_BOOL : TY_INT);
}

/* The check that index lies within the array of a's path (length n) where it is evaluated. */
static void add_check(cfe_lowering *L, const access *a, ir_expr *index, int64_t n) {
  prog_path_part *parts = arena_alloc(PA, (a->path.len + 1) * sizeof *parts);
  memcpy(parts, a->path.items, a->path.len * sizeof *parts);
  prog_subscript s = {.array = parts, .array_len = a->path.len, .index = index, .length = n};
  vec_push(PA, &L->p->subscripts, s);
  loc at = index->at;
  ir_expr *in = bin(L, at, OP_AND, bin(L, at, OP_LE, cfe_int_lit(L, at, 0), index),
                    bin(L, at, OP_LT, index, cfe_int_lit(L, at, n)));
  cfe_check c = {L->guard ? bin(L, at, OP_IMPLIES, L->guard, in) : in, CHECK_INDEX, (int)L->p->subscripts.len - 1};
  vec_push(NULL, &L->pending.checks, c);
}

static void variable_index(cfe_lowering *L, const cfe_expr *index, access *a, int64_t n) {
  ir_expr *i = cfe_lower_int(L, index);
  add_check(L, a, i, n);
  prog_path_part part = {.index = i};
  vec_push(PA, &a->path, part);
  sbuf_putc(&a->shown, '[');
  source_text(L, index->at, &a->shown);
  sbuf_putc(&a->shown, ']');
  vec_push(PA, &a->cells->index, i);
  vec_push(PA, &a->cells->length, n);
}

static bool subscript(cfe_lowering *L, const cfe_expr *e, access *a) {
  const char *path = sbuf_str(&a->shown);
  if (a->type.kind != CT_ARRAY) {
    cfe_error(L->u, e->at, "'%s' is not an array", path);
    return false;
  }
  int64_t n = a->type.length, k;
  if (!cfe_constant(L, e->b)) {
    variable_index(L, e->b, a, n);
  } else if (!cfe_const_eval(L->u, e->b, &k)) {
    return false;
  } else if (k < 0 || k >= n) {
    cfe_error(L->u, e->b->at, "index %" PRId64 " is outside the array '%s' (its elements are %s[0..%" PRId64 "])", k,
              path, path, n - 1);
    return false;
  } else {
    add_text(L, a, arena_printf(PA, "[%" PRId64 "]", k));
  }
  a->type = *a->type.elem;
  a->last_length = n;
  return true;
}

static bool walk(cfe_lowering *L, const cfe_expr *e, access *a) {
  if (e->kind == CE_MEMBER) return walk(L, e->a, a) && member(L, e, a);
  if (e->kind == CE_INDEX) return walk(L, e->a, a) && subscript(L, e, a);
  return root(L, e, a);
}

/* ---------------------------------------------------------------- the cells of an access */

/* The last identifier of a C path, without its indices ("q" for "a[1].q[2]"). */
static const char *last_name(arena *ar, const char *path) {
  const char *dot = strrchr(path, '.'), *start = dot ? dot + 1 : path;
  return arena_intern(ar, start, strcspn(start, "["));
}

/* Path (of a's type) has no cell: says which declaration would give it one. */
static void unbound(cfe_lowering *L, cfe_pos use, const access *a, const char *path) {
  const char *type = c_type_word(a->type.kind), *array = array_of_path(L->u->arena, path);
  const char *name = last_name(L->u->arena, array ? array : path);
  if (!array)
    cfe_error(L->u, use, "C object '%s' is not a shared variable of the spec; declare one: 'shared %s %s binds %s;'",
              path, type, name, path);
  else if (symtab_get(&L->arrays, array) >= 0)
    cfe_error(L->u, use,
              "C array '%s' is only partly bound to the spec: its element '%s' is not a shared variable; declare one: "
              "'shared %s NAME binds %s;'",
              array, path, type, path);
  else if (name == array)
    cfe_error(L->u, use,
              "C object '%s' is not a shared variable of the spec; declare its array: 'shared %s %s[%" PRId64 "];'",
              path, type, name, a->last_length);
  else
    cfe_error(L->u, use,
              "C object '%s' is not a shared variable of the spec; declare its array: 'shared %s %s[%" PRId64
              "] binds %s;'",
              path, type, name, a->last_length, array);
  if (a->global) cfe_note(L->u, a->global->name_at, "'%s' is declared here", a->global->name);
}

/* The target the pointer index value k names in a dereference. */
static const cfe_target *target(const cfe_lowering *L, const access *a, int64_t k) {
  return &L->ptr->targets.items[a->first + (size_t)k];
}

/* a's first n parts with the indices that are not constants at the values k
 * (a dereference's first index names a target: its key, or with shown its C path). */
static void path_upto(const cfe_lowering *L, const access *a, const int64_t *k, size_t n, bool shown, strbuf *out) {
  size_t j = 0, from = 0;
  if (a->deref) {
    const cfe_target *t = target(L, a, k[j++]);
    sbuf_puts(out, shown ? t->shown : t->key);
    from = 1;
  }
  for (size_t i = from; i < n; i++) {
    if (a->path.items[i].text) sbuf_puts(out, a->path.items[i].text);
    else sbuf_printf(out, "[%" PRId64 "]", k[j++]);
  }
}

/* The key of the object that a's first n parts name at index values k
 * (unit-interned): for a part of a local struct or array the local's key
 * and the path after its name ("$4.x"), else its C path. A dereference's
 * target keeps its key. */
static const char *key_upto(cfe_lowering *L, const access *a, const int64_t *k, size_t n) {
  strbuf b = {0}, key = {0};
  path_upto(L, a, k, n, false, &b);
  if (a->local) sbuf_puts(&key, a->local);
  sbuf_puts(&key, sbuf_str(&b) + (a->local ? strlen(a->path.items[0].text) : 0));
  const char *r = arena_intern(L->u->arena, sbuf_str(&key), key.len);
  sbuf_free(&b);
  sbuf_free(&key);
  return r;
}

static const char *object_key(cfe_lowering *L, const access *a, const int64_t *k) {
  return key_upto(L, a, k, a->path.len);
}

/* Is key (object_key) a part of a local struct or array, directly or through a pointer to it? */
static bool local_key(const char *key) { return key[0] == '$'; }

/* ---------------------------------------------------------------- unions */

/* The member name a path starts with ("x" for "x.f[2]"), unit-interned. */
static const char *member_at(cfe_lowering *L, const char *path) {
  return arena_intern(L->u->arena, path, strcspn(path, ".["));
}

/* The spec's first cell under union object key (a C path), -1 for none,
 * or -2 after reporting (once per object) cells under two of its members. */
static int spec_member(cfe_lowering *L, const char *key, cfe_pos use) {
  size_t n = strlen(key);
  int first = -1;
  vec_foreach(&L->spec->shared, i) {
    const char *path = ast_c_name(L->spec->shared.items[i]);
    if (strncmp(path, key, n) != 0 || path[n] != '.') continue;
    if (first < 0) first = (int)i;
    const ast_shared *one = L->spec->shared.items[first], *two = L->spec->shared.items[i];
    if (member_at(L, ast_c_name(one) + n + 1) == member_at(L, path + n + 1)) continue;
    if (!first_report(L, key)) return -2;
    cfe_error(L->u, use,
              "the spec binds the union '%s' through two members, '%s' and '%s' (a union is used through one member: "
              "bind cells under one of them)",
              key, ast_c_name(one), path);
    diag_note(L->spec->src, declared(one)->at, "'%s' is bound here", ast_c_name(one));
    diag_note(L->spec->src, declared(two)->at, "'%s' is bound here", path);
    return -2;
  }
  return first;
}

/* The use that decided the member of union object key, -1 when nothing
 * has yet, or -2 after reporting a spec that binds two members. */
static int decided(cfe_lowering *L, const char *key, cfe_pos use) {
  int d = symtab_get(&L->ptr->unions, key);
  int cell = d < 0 && !local_key(key) ? spec_member(L, key, use) : -1;
  if (cell < 0) return cell == -2 ? -2 : d;
  const char *path = ast_c_name(L->spec->shared.items[cell]);
  cfe_union_use u = {.member = member_at(L, path + strlen(key) + 1), .shown = path, .cell = cell};
  vec_push(NULL, &L->ptr->uses, u);
  symtab_put(&L->ptr->unions, key, (int)L->ptr->uses.len - 1);
  return (int)L->ptr->uses.len - 1;
}

/* Reports (once per object) union object key used through a second member, shown at use. */
static void punning(cfe_lowering *L, cfe_pos use, const char *key, const char *object, const char *shown,
                    const cfe_union_use *first) {
  if (!first_report(L, key)) return;
  cfe_error(L->u, use,
            "union '%s' is used through two members, '%s' here and '%s' (athread does not model type punning: use one "
            "member of a union, or two objects)",
            object, shown, first->shown);
  if (first->cell >= 0)
    diag_note(L->spec->src, declared(L->spec->shared.items[first->cell])->at, "'%s' is bound here in the spec",
              first->shown);
  else cfe_note(L->u, first->at, "'%s' is used here", first->shown);
}

/* False after reporting that an access to a at index values k uses a union
 * object through another member than the one it is used through (recording
 * the member of an object used for the first time). */
static bool one_member(cfe_lowering *L, cfe_pos use, const access *a, const int64_t *k) {
  vec_foreach(&a->members, i) {
    size_t part = a->members.items[i];
    const char *key = key_upto(L, a, k, part), *member = arena_intern_cstr(L->u->arena, a->path.items[part].text + 1);
    strbuf object = {0}, shown = {0};
    path_upto(L, a, k, part, true, &object);
    path_upto(L, a, k, a->path.len, true, &shown);
    int d = decided(L, key, use);
    const char *path = arena_intern(L->u->arena, sbuf_str(&shown), shown.len);
    if (d == -1) {
      cfe_union_use u = {.member = member, .shown = path, .at = use, .cell = -1};
      vec_push(NULL, &L->ptr->uses, u);
      symtab_put(&L->ptr->unions, key, (int)L->ptr->uses.len - 1);
    } else if (d >= 0 && L->ptr->uses.items[d].member != member) {
      punning(L, use, key, sbuf_str(&object), path, &L->ptr->uses.items[d]);
    }
    sbuf_free(&object);
    sbuf_free(&shown);
    if (d == -2 || (d >= 0 && L->ptr->uses.items[d].member != member)) return false;
  }
  return true;
}

/* The cell of a's object at index values k, or -1 after reporting (once per object) why there is none. */
static int cell_at(cfe_lowering *L, cfe_pos use, const access *a, const int64_t *k) {
  if (a->deref && a->path.len == 1 && target(L, a, k[0])->var >= 0) return target(L, a, k[0])->var; /* *p: a local */
  if (!one_member(L, use, a, k)) return -1;
  const char *path = object_key(L, a, k);
  if (local_key(path)) return symtab_get(&L->local_cells, path); /* every leaf of a local has one */
  int c = symtab_get(&L->cells, path);
  const ast_shared *cell = c >= 0 ? L->spec->shared.items[c] : NULL;
  if (cell && (a->type.kind == CT_BOOL) == (cell->type.kind == TYPE_BOOL)) {
    L->p->vars.items[c].ctype = cfe_ctype_of(L, &a->type); /* its values are the C object's */
    return c;
  }
  if (!first_report(L, path)) return -1;
  if (cell) type_mismatch(L, use, "C object", path, a->type.kind, cell);
  else unbound(L, use, a, path);
  return -1;
}

/* The next combination of index values, the last index fastest; false after the last one. */
static bool next_values(const cfe_cells *c, int64_t *k) {
  for (size_t d = c->index.len; d-- > 0;) {
    if (++k[d] < c->length.items[d]) return true;
    k[d] = 0;
  }
  return false;
}

/* True when some index has no values: a dereference of a pointer to a type no object of the code has. */
static bool no_values(const cfe_cells *c) {
  vec_foreach(&c->length, d)
    if (c->length.items[d] == 0) return true;
  return false;
}

/* The place a resolved access names: its one cell, or its cells by index values. */
static cfe_place place_of(cfe_lowering *L, cfe_pos use, access *a) {
  cfe_place none = {-1, NULL};
  if (aggregate(&a->type)) {
    whole(L, use, &a->type, sbuf_str(&a->shown));
    return none;
  }
  if (no_values(a->cells)) return (cfe_place){-1, a->cells}; /* no cells: its CHECK_NULL fails */
  int64_t *k = xcalloc(a->cells->index.len + 1, sizeof *k);
  int cell;
  do {
    cell = cell_at(L, use, a, k);
    if (cell >= 0) vec_push(PA, &a->cells->vars, cell);
  } while (cell >= 0 && next_values(a->cells, k));
  free(k);
  if (cell < 0) return none;
  return a->cells->index.len ? (cfe_place){-1, a->cells} : (cfe_place){a->cells->vars.items[0], NULL};
}

static cfe_place element(cfe_lowering *L, const cfe_expr *e) {
  cfe_place none = {-1, NULL};
  if (e->depth > IR_MAX_DEPTH) {
    cfe_lower_value(L, e); /* reports it */
    return none;
  }
  access a = {.cells = arena_alloc(PA, sizeof(cfe_cells))};
  cfe_place p = walk(L, e, &a) ? place_of(L, e->at, &a) : none;
  sbuf_free(&a.shown);
  return p;
}

/* ---------------------------------------------------------------- places and values */

cfe_place cfe_lower_place(cfe_lowering *L, const cfe_expr *e) {
  if (e->kind == CE_INDEX || e->kind == CE_MEMBER) return element(L, e);
  if (e->kind == CE_UNARY && e->op == CO_DEREF) return element(L, e);
  if (e->kind == CE_NAME) return (cfe_place){name_target(L, e), NULL};
  if (e->kind == CE_BAD || e->kind == CE_UNARY) cfe_lower_value(L, e);
  else cfe_error(L->u, e->at, "this expression cannot be assigned to");
  return (cfe_place){-1, NULL};
}

/* Leaf flat of a tree: cell c->vars[flat] (ints when mixed: a bool local among bool cells), or with ids
 * the literal ids[flat]. */
static ir_expr *leaf(cfe_lowering *L, const cfe_cells *c, const int64_t *ids, bool mixed, size_t flat, loc at) {
  if (ids) return cfe_int_lit(L, at, ids[flat]);
  ir_expr *v = prog_var_ref(L->p, c->vars.items[flat], at);
  if (!mixed || v->type != TY_BOOL) return v;
  return typed(ir_ite(PA, at, v, cfe_int_lit(L, at, 1), cfe_int_lit(L, at, 0)), TY_INT);
}

/* The leaves of c (cells, or ids) whose first d indices make the row-major prefix, the d-th index within [lo, hi). */
static ir_expr *tree(cfe_lowering *L, const cfe_cells *c, const int64_t *ids, bool mixed, size_t d, size_t prefix,
                     int64_t lo, int64_t hi, loc at) {
  if (hi - lo > 1) {
    int64_t mid = lo + (hi - lo) / 2;
    ir_expr *test = bin(L, at, OP_LT, (ir_expr *)c->index.items[d], cfe_int_lit(L, at, mid));
    ir_expr *low = tree(L, c, ids, mixed, d, prefix, lo, mid, at);
    ir_expr *high = tree(L, c, ids, mixed, d, prefix, mid, hi, at);
    return typed(ir_ite(PA, at, test, low, high), low->type);
  }
  size_t flat = prefix * (size_t)c->length.items[d] + (size_t)lo;
  if (d + 1 == c->index.len) return leaf(L, c, ids, mixed, flat, at);
  return tree(L, c, ids, mixed, d + 1, flat, 0, c->length.items[d + 1], at);
}

/* Do the cells have both types (a bool local, an int, among bool cells)? */
static bool mixed_types(const cfe_lowering *L, const cfe_cells *c) {
  vec_foreach(&c->vars, i)
    if (L->p->vars.items[c->vars.items[i]].type != L->p->vars.items[c->vars.items[0]].type) return true;
  return false;
}

ir_expr *cfe_place_value(cfe_lowering *L, cfe_place place, loc at) {
  if (place.var >= 0) return prog_var_ref(L->p, place.var, at);
  if (!place.cells || place.cells->vars.len == 0) return cfe_int_lit(L, at, 0);
  return tree(L, place.cells, NULL, mixed_types(L, place.cells), 0, 0, 0, place.cells->length.items[0], at);
}

/* ---------------------------------------------------------------- addresses */

/* The target of a's object at index values k: its id. */
static int64_t target_at(cfe_lowering *L, cfe_pos use, const access *a, const int64_t *k) {
  if (a->deref && a->path.len == 1) return (int64_t)(a->first + (size_t)k[0]) + 1; /* &*p */
  if (!one_member(L, use, a, k)) return 0;
  const char *key = object_key(L, a, k);
  if (!local_key(key)) return cfe_target_id(L, key, key, -1, &a->type, use);
  strbuf b = {0};
  path_upto(L, a, k, a->path.len, true, &b); /* a local's part, shown by its C path ("tmp.x") */
  const char *shown = arena_intern(L->u->arena, sbuf_str(&b), b.len);
  sbuf_free(&b);
  return cfe_target_id(L, key, shown, symtab_get(&L->local_cells, key), &a->type, use);
}

/* The ids of every object a may name, row-major by its indices (heap); *n gets their number. */
static int64_t *target_ids(cfe_lowering *L, cfe_pos use, const access *a, size_t *n) {
  size_t count = 1;
  vec_foreach(&a->cells->length, d) count *= (size_t)a->cells->length.items[d];
  int64_t *ids = xcalloc(count + 1, sizeof *ids), *k = xcalloc(a->cells->index.len + 1, sizeof *k);
  for (size_t j = 0; j < count; j++) {
    ids[j] = target_at(L, use, a, k);
    next_values(a->cells, k);
  }
  free(k);
  *n = count;
  return ids;
}

ir_expr *cfe_lower_address(cfe_lowering *L, const cfe_expr *e, cfe_type *type) {
  *type = (cfe_type){.kind = CT_VOID};
  access a = {.cells = arena_alloc(PA, sizeof(cfe_cells))};
  ir_expr *r = cfe_int_lit(L, e->at.at, 0);
  if (e->depth <= IR_MAX_DEPTH && walk(L, e, &a) && !no_values(a.cells)) {
    *type = a.type;
    size_t n;
    int64_t *ids = target_ids(L, e->at, &a, &n);
    r = a.cells->index.len == 0 ? cfe_int_lit(L, e->at.at, ids[0])
                                : tree(L, a.cells, ids, false, 0, 0, 0, a.cells->length.items[0], e->at.at);
    free(ids);
  } else if (e->depth > IR_MAX_DEPTH) {
    cfe_lower_value(L, e); /* reports it */
  }
  sbuf_free(&a.shown);
  return r;
}

/* The member decided for the union objects of a (the first one decided, NULL when none is yet). */
static const char *decided_member(cfe_lowering *L, cfe_pos use, const access *a) {
  const char *member = NULL;
  size_t n = 1;
  vec_foreach(&a->cells->length, d) n *= (size_t)a->cells->length.items[d];
  int64_t *k = xcalloc(a->cells->index.len + 1, sizeof *k);
  for (size_t j = 0; j < n && !member; j++) {
    int d = decided(L, object_key(L, a, k), use);
    if (d >= 0) member = L->ptr->uses.items[d].member;
    next_values(a->cells, k);
  }
  free(k);
  return member;
}

const char *cfe_union_member(cfe_lowering *L, const cfe_expr *e) {
  access a = {.cells = arena_alloc(PA, sizeof(cfe_cells))};
  size_t checks = L->pending.checks.len, subscripts = L->p->subscripts.len;
  const char *member = walk(L, e, &a) && !no_values(a.cells) ? decided_member(L, e->at, &a) : NULL;
  L->pending.checks.len = checks; /* the copy's accesses of its leaves make them */
  L->p->subscripts.len = subscripts;
  sbuf_free(&a.shown);
  return member;
}

ir_expr *cfe_lower_object(cfe_lowering *L, const cfe_expr *e) {
  if (e->kind == CE_NAME && cfe_pointee(L, cfe_local(L, e->name))) return cfe_lower_pointer(L, e, NULL);
  return e->kind == CE_NAME ? name_value(L, e) : cfe_place_value(L, element(L, e), e->at.at);
}
