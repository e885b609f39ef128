/* cfront/translate.c -- from libclang's cursors to the syntax tree of
 * c-ast.h: the files clang read, locations in the user's files (code a macro
 * expands to is located at the macro's use, which the unit remembers for the
 * "in expansion of macro" note), C types as the tree holds them, and the
 * file-scope declarations. Declarations in system headers are not read: a
 * name the code takes from one becomes an ENT_SYSTEM entity when used.
 * Expressions are translate-expr.c's, statements translate-stmt.c's. */
#include <stdlib.h>
#include <string.h>

#include "translate.h"

#define A(t) ((t)->u->arena)

/* ---------------------------------------------------------------- small helpers */

const char *cft_intern(cft *t, CXString s) {
  const char *text = clang_getCString(s);
  const char *out = arena_intern_cstr(A(t), text ? text : "");
  clang_disposeString(s);
  return out;
}

bool cft_system(CXCursor c) {
  CXSourceLocation l = clang_getCursorLocation(c);
  CXFile f = NULL;
  clang_getExpansionLocation(l, &f, NULL, NULL, NULL);
  return !f || clang_Location_isInSystemHeader(l);
}

void cft_system_name(cft *t, const char *name) {
  if (!cfe_lookup(t->u, name)) cfe_define(t->u, name, (cfe_entity){.kind = ENT_SYSTEM});
}

/* ---------------------------------------------------------------- files */

/* The unit file named name, or -1. */
static int unit_file(const cfe_unit *u, const char *name) {
  vec_foreach(&u->files, i)
    if (u->files.items[i].name == name) return (int)i;
  return -1;
}

/* Adds clang's file f to the unit: a user's file with its text (read
 * quietly: clang has read it, so it exists), a system header without. */
static int add_file(cft *t, CXFile f) {
  const char *name = cft_intern(t, clang_getFileName(f));
  int index = unit_file(t->u, name);
  if (index < 0) {
    bool system = clang_Location_isInSystemHeader(clang_getLocationForOffset(t->tu, f, 0)) != 0;
    cfe_file file = {.name = name, .system = system};
    diag_sink quiet = {0};
    if (!system && (file.src = diag_source_load(&quiet, name))) file.src->sink = t->u->sink;
    vec_push(A(t), &t->u->files, file);
    index = (int)t->u->files.len - 1;
  }
  cft_file seen = {f, index};
  vec_push(NULL, &t->files, seen);
  return index;
}

static int file_index(cft *t, CXFile f) {
  if (!f) return -1;
  for (size_t i = t->files.len; i-- > 0;)
    if (t->files.items[i].file == f) return t->files.items[i].index;
  return add_file(t, f);
}

/* ---------------------------------------------------------------- macro uses */

static int by_place(const void *a, const void *b) {
  const cft_use *x = a, *y = b;
  if (x->file != y->file) return x->file < y->file ? -1 : 1;
  return x->at.start < y->at.start ? -1 : x->at.start > y->at.start;
}

/* The index of the last use in file starting at or before offset, or -1. */
static long use_before(const cft *t, int file, uint32_t offset) {
  long lo = 0, hi = (long)t->uses.len - 1, found = -1;
  while (lo <= hi) {
    long mid = (lo + hi) / 2;
    const cft_use *m = &t->uses.items[mid];
    if (m->file < file || (m->file == file && m->at.start <= offset)) {
      if (m->file == file) found = mid;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return found;
}

/* 1 + the unit macro of use i (made when first needed). */
static int macro_of(cft *t, long i) {
  cft_use *use = &t->uses.items[i];
  if (use->macro) return use->macro;
  CXCursor def = clang_getCursorReferenced(use->cursor);
  cfe_macro m = {.name = use->name, .body = {-1, {0, 0}, 0}};
  if (!clang_Cursor_isNull(def) && !cft_system(def)) {
    cfe_pos at = cft_point(t, def);
    m.body = (cfe_pos){at.file, {at.at.start, at.at.start + (uint32_t)strlen(use->name)}, 0};
  }
  vec_push(A(t), &t->u->macros, m);
  use->macro = (int)t->u->macros.len;
  return use->macro;
}

static bool blank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

long cft_use_before(cft *t, cfe_pos pos) {
  long i = pos.file >= 0 && pos.at.start > 0 ? use_before(t, pos.file, pos.at.start - 1) : -1;
  const diag_source *src = i >= 0 ? t->u->files.items[pos.file].src : NULL;
  if (!src || t->uses.items[i].at.end > pos.at.start) return -1;
  for (uint32_t k = t->uses.items[i].at.end; k < pos.at.start; k++)
    if (!blank(src->text[k])) return -1;
  return i;
}

/* ---------------------------------------------------------------- locations */

typedef struct point {
  int file;        /* unit file, -1 for none */
  uint32_t offset; /* byte offset in it */
} point;

/* Where l is in a file: for code from a macro's body, the macro's use; for
 * a macro's argument, where the argument is written. */
static point file_point(cft *t, CXSourceLocation l) {
  CXFile f = NULL;
  unsigned offset = 0;
  clang_getFileLocation(l, &f, NULL, NULL, &offset);
  return (point){file_index(t, f), offset};
}

/* The use of a macro that starts at p (so p's code comes from its body), or -1. */
static long use_at(const cft *t, point p) {
  long i = p.file >= 0 ? use_before(t, p.file, p.offset) : -1;
  return i >= 0 && t->uses.items[i].at.start == p.offset ? i : -1;
}

/* The use of a macro whose body [s, e) comes from (at least in part: it
 * starts at the use, or ends where the use ends), or -1. An argument alone
 * lies strictly inside its use. */
static long use_around(const cft *t, point s, point e) {
  long i = s.file >= 0 ? use_before(t, s.file, s.offset) : -1;
  for (int tries = 0; i >= 0 && tries < 16 && t->uses.items[i].file == s.file; i--, tries++) {
    const cft_use *u = &t->uses.items[i];
    bool inside = s.offset < u->at.end && (e.file != s.file || e.offset <= u->at.end);
    if (inside && (s.offset == u->at.start || (e.file == s.file && e.offset == u->at.end))) return i;
  }
  return -1;
}

cfe_pos cft_range(cft *t, CXSourceRange r) {
  point s = file_point(t, clang_getRangeStart(r)), e = file_point(t, clang_getRangeEnd(r));
  long use = use_around(t, s, e);
  if (use >= 0) return (cfe_pos){s.file, t->uses.items[use].at, macro_of(t, use)};
  if (e.file != s.file || e.offset < s.offset) e.offset = s.offset;
  return (cfe_pos){s.file, {s.offset, e.offset}, 0};
}

cfe_pos cft_pos(cft *t, CXCursor c) { return cft_range(t, clang_getCursorExtent(c)); }

cfe_pos cft_point(cft *t, CXCursor c) {
  point p = file_point(t, clang_getCursorLocation(c));
  long use = use_at(t, p);
  if (use >= 0) return (cfe_pos){p.file, t->uses.items[use].at, macro_of(t, use)};
  return (cfe_pos){p.file, {p.offset, p.offset}, 0};
}

cfe_pos cft_name_pos(cft *t, CXCursor c, const char *name) {
  cfe_pos p = cft_point(t, c);
  if (!p.macro && name) p.at.end = p.at.start + (uint32_t)strlen(name);
  return p;
}

cfe_pos cft_until(cft *t, cfe_pos a, cfe_pos b) {
  const diag_source *src = a.file >= 0 ? t->u->files.items[a.file].src : NULL;
  if (!src || a.file != b.file || b.at.start < a.at.start || b.at.start > src->len) return a;
  uint32_t end = b.at.start;
  while (end > a.at.start && blank(src->text[end - 1])) end--;
  return (cfe_pos){a.file, {a.at.start, end}, a.macro};
}

/* ---------------------------------------------------------------- types */

static cfe_type bad_type(cft *t, cfe_pos at, const char *what) {
  return (cfe_type){.kind = CT_BAD, .what = arena_intern_cstr(A(t), what), .at = at};
}

static cfe_type int_type(CXType c, bool is_unsigned) {
  long long size = clang_Type_getSizeOf(c); /* an integer type: never a builtin function's (see the notes) */
  return (cfe_type){.kind = CT_INT, .bits = size > 0 && size <= 16 ? (uint8_t)(size * 8) : 0, .is_unsigned = is_unsigned};
}

/* "struct dev": from the keyword to the end of the tag. */
static cfe_pos record_pos(cft *t, CXCursor decl) {
  cfe_pos at = cft_pos(t, decl), name = cft_point(t, decl);
  const char *tag = clang_Cursor_isAnonymous(decl) ? "" : cft_intern(t, clang_getCursorSpelling(decl));
  uint32_t end = name.at.start + (uint32_t)strlen(tag);
  uint32_t keyword = clang_getCursorKind(decl) == CXCursor_UnionDecl ? 5 : 6;
  if (!*tag || name.file != at.file || end < at.at.start || name.macro) end = at.at.start + keyword;
  if (!at.macro) at.at.end = end;
  return at;
}

static enum CXChildVisitResult add_field(CXCursor c, CXCursor parent, CXClientData data);

typedef struct fields_ctx {
  cft *t;          /* the translator */
  cfe_record *r;   /* the record whose fields these are */
  cfe_pos in_union; /* an anonymous union's keyword when reading its members, else .file -1 */
} fields_ctx;

static cfe_field field_of(cft *t, CXCursor c) {
  const char *name = cft_intern(t, clang_getCursorSpelling(c));
  cfe_field f = {.name = name, .at = cft_name_pos(t, c, name)};
  cfe_pos whole = cft_pos(t, c);
  f.type = cft_type(t, clang_getCursorType(c), cft_until(t, whole, f.at));
  if (!clang_Cursor_isBitField(c)) return f;
  cfe_pos width = {f.at.file, {f.at.at.end, whole.at.end}, 0};
  const diag_source *src = width.file >= 0 ? t->u->files.items[width.file].src : NULL;
  while (src && width.at.start < width.at.end && blank(src->text[width.at.start])) width.at.start++;
  f.type = bad_type(t, whole.macro ? whole : width, "unsupported bit-field (declare the field without a width)");
  return f;
}

/* C11's anonymous members ("struct { int a; };" inside a struct): an
 * anonymous struct's fields are the record's own; an anonymous union's are
 * refused, since they would be separate cells where C overlaps them. */
static enum CXChildVisitResult add_field(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  fields_ctx *x = data;
  if (clang_Cursor_isAnonymousRecordDecl(c)) {
    fields_ctx inner = *x;
    if (clang_getCursorKind(c) == CXCursor_UnionDecl && inner.in_union.file < 0) inner.in_union = record_pos(x->t, c);
    clang_visitChildren(c, add_field, &inner);
    return CXChildVisit_Continue;
  }
  if (clang_getCursorKind(c) != CXCursor_FieldDecl) return CXChildVisit_Continue;
  cfe_field f = field_of(x->t, c);
  if (x->in_union.file >= 0)
    f.type = bad_type(x->t, x->in_union, "unsupported member of an anonymous union (give the union a member name)");
  if (*f.name) vec_push(A(x->t), &x->r->fields, f);
  return CXChildVisit_Continue;
}

/* The record of a struct or union declaration, shared by every use (memoized before
 * its fields are read, so a struct that points to itself terminates). */
static cfe_record *record_of(cft *t, CXCursor decl) {
  decl = clang_getCanonicalCursor(decl);
  vec_foreach(&t->records, i)
    if (clang_equalCursors(t->records.items[i].decl, decl)) return t->records.items[i].record;
  cfe_record *r = arena_alloc(A(t), sizeof *r);
  r->tag = clang_Cursor_isAnonymous(decl) ? NULL : cft_intern(t, clang_getCursorSpelling(decl));
  r->is_union = clang_getCursorKind(decl) == CXCursor_UnionDecl;
  cft_record memo = {decl, r};
  vec_push(NULL, &t->records, memo);
  CXCursor def = clang_getCursorDefinition(decl);
  r->at = record_pos(t, clang_Cursor_isNull(def) ? decl : def);
  if (clang_Cursor_isNull(def)) return r;
  r->complete = true;
  fields_ctx x = {t, r, {.file = -1}};
  clang_visitChildren(def, add_field, &x);
  return r;
}

/* A struct or a union: a union is a record too, used through one member (cfront-access.c). */
static cfe_type record_type(cft *t, CXType c, cfe_pos at) {
  return (cfe_type){.kind = CT_STRUCT, .at = at, .record = record_of(t, clang_getTypeDeclaration(c))};
}

static cfe_type array_type(cft *t, CXType c, cfe_pos at) {
  long long n = clang_getArraySize(c);
  cfe_type elem = cft_type(t, clang_getArrayElementType(c), at);
  if (elem.kind == CT_BAD) return elem;
  if (elem.kind == CT_VOID) return bad_type(t, at, "unsupported array of void");
  if (n < 1) return bad_type(t, at, arena_printf(A(t), "array length %lld (an array has at least one element)", n));
  cfe_type *e = arena_alloc(A(t), sizeof *e);
  *e = elem;
  return (cfe_type){.kind = CT_ARRAY, .at = at, .elem = e, .length = n};
}

/* The pointer type under type's sugar, keeping the pointee's own (its
 * typedef names a synchronization type: KSPIN_LOCK *). */
static CXType sugared_pointer(CXType type) {
  for (int level = 0; level < 32 && type.kind != CXType_Pointer; level++) {
    if (type.kind == CXType_Elaborated) type = clang_Type_getNamedType(type);
    else if (type.kind == CXType_Typedef) type = clang_getTypedefDeclUnderlyingType(clang_getTypeDeclaration(type));
    else break;
  }
  return type.kind == CXType_Pointer ? type : clang_getCanonicalType(type);
}

static cfe_type pointer_type(cft *t, CXType c, cfe_pos at) {
  cfe_type *e = arena_alloc(A(t), sizeof *e);
  CXType pointee = clang_getPointeeType(c);
  enum CXTypeKind k = clang_getCanonicalType(pointee).kind;
  *e = k == CXType_FunctionProto || k == CXType_FunctionNoProto ? bad_type(t, at, "unsupported function type")
                                                                : cft_type(t, pointee, at);
  return (cfe_type){.kind = CT_POINTER, .at = at, .elem = e};
}

/* A struct type that a system header names (FILE): the C library's, not the code's. */
static const char *system_typedef(cft *t, CXType type) {
  while (type.kind == CXType_Elaborated) type = clang_Type_getNamedType(type);
  if (type.kind != CXType_Typedef) return NULL;
  CXCursor decl = clang_getTypeDeclaration(type);
  enum CXTypeKind k = clang_getCanonicalType(type).kind;
  if (k != CXType_Record || !cft_system(decl)) return NULL;
  return cft_intern(t, clang_getCursorSpelling(decl));
}

/* A synchronization object's type by the names its sugar gives it
 * (cfe_sync_type: pthread_mutex_t is a union, spinlock_t a struct). */
static bool sync_type(cft *t, CXType type, cfe_type *out) {
  for (int level = 0; level < 32; level++) {
    if (type.kind == CXType_Elaborated) {
      type = clang_Type_getNamedType(type);
    } else if (type.kind == CXType_Typedef) {
      if (cfe_sync_type(cft_intern(t, clang_getTypedefName(type)), out)) return true;
      type = clang_getTypedefDeclUnderlyingType(clang_getTypeDeclaration(type));
    } else {
      return type.kind == CXType_Record &&
             cfe_sync_type(cft_intern(t, clang_getCursorSpelling(clang_getTypeDeclaration(type))), out);
    }
  }
  return false;
}

cfe_type cft_type(cft *t, CXType type, cfe_pos at) {
  cfe_type sync;
  if (sync_type(t, type, &sync)) return sync;
  const char *sys = system_typedef(t, type);
  if (sys) return bad_type(t, at, arena_printf(A(t), "unsupported: '%s' comes from a system header", sys));
  CXType c = clang_getCanonicalType(type);
  switch (c.kind) {
  case CXType_Bool: return (cfe_type){.kind = CT_BOOL};
  case CXType_Char_U:
  case CXType_UChar:
  case CXType_UShort:
  case CXType_UInt:
  case CXType_ULong:
  case CXType_ULongLong:
  case CXType_UInt128:
  case CXType_Char16:
  case CXType_Char32: return int_type(c, true);
  case CXType_Char_S:
  case CXType_SChar:
  case CXType_Short:
  case CXType_Int:
  case CXType_Long:
  case CXType_LongLong:
  case CXType_Int128:
  case CXType_WChar: return int_type(c, false);
  case CXType_Enum: return cft_type(t, clang_getEnumDeclIntegerType(clang_getTypeDeclaration(c)), at);
  case CXType_Atomic: return cft_type(t, clang_Type_getValueType(c), at);
  case CXType_Void: return (cfe_type){.kind = CT_VOID};
  case CXType_Pointer: return pointer_type(t, sugared_pointer(type), at);
  case CXType_ConstantArray: return array_type(t, c, at);
  case CXType_IncompleteArray: return bad_type(t, at, "unsupported array type without a length (give it one: 'int a[4]')");
  case CXType_VariableArray: return bad_type(t, at, "unsupported variable-length array");
  case CXType_Record: return record_type(t, c, at);
  case CXType_FunctionProto:
  case CXType_FunctionNoProto: return bad_type(t, at, "unsupported function type");
  case CXType_Float:
  case CXType_Double:
  case CXType_LongDouble:
  case CXType_Half:
  case CXType_Float16:
  case CXType_Float128:
  case CXType_BFloat16:
  case CXType_Ibm128:
  case CXType_Complex:
    return bad_type(t, at,
                    arena_printf(A(t), "unsupported floating-point type '%s'", cft_intern(t, clang_getTypeSpelling(c))));
  default:
    return bad_type(t, at, arena_printf(A(t), "unsupported type '%s'", cft_intern(t, clang_getTypeSpelling(c))));
  }
}

/* ---------------------------------------------------------------- file scope */

static cfe_func *function_named(cft *t, cfe_decl *d) {
  cfe_entity *e = cfe_lookup(t->u, d->name);
  if (e && e->kind == ENT_FUNC) return t->u->funcs.items[e->index];
  cfe_func *f = arena_alloc(A(t), sizeof *f);
  f->name = d->name;
  f->name_at = d->name_at;
  f->decl = d;
  vec_push(A(t), &t->u->funcs, f);
  cfe_define(t->u, d->name, (cfe_entity){.kind = ENT_FUNC, .index = (int)t->u->funcs.len - 1});
  return f;
}

static enum CXChildVisitResult last_block(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  if (clang_getCursorKind(c) == CXCursor_CompoundStmt) *(CXCursor *)data = c;
  return CXChildVisit_Continue;
}

/* The body of a function definition: its compound statement, after however many parameters. */
static CXCursor body_of(CXCursor fn) {
  CXCursor body = clang_getNullCursor();
  clang_visitChildren(fn, last_block, &body);
  return body;
}

static bool same_place(cfe_pos a, cfe_pos b) { return a.file == b.file && a.at.start == b.at.start; }

static cfe_decl *function_decl(cft *t, CXCursor c) {
  cfe_decl *d = cft_decl(t, c, false);
  d->is_function = true;
  d->type = cft_type(t, clang_getCursorResultType(c), d->type.at);
  CXType type = clang_getCursorType(c);
  d->variadic = type.kind == CXType_FunctionProto && clang_isFunctionTypeVariadic(type);
  int n = clang_Cursor_getNumArguments(c);
  for (int i = 0; i < n; i++) vec_push(A(t), &d->params, cft_decl(t, clang_Cursor_getArgument(c, (unsigned)i), false));
  return d;
}

static void read_function(cft *t, CXCursor c) {
  cfe_decl *d = function_decl(t, c);
  cfe_func *f = function_named(t, d);
  CXCursor body = clang_isCursorDefinition(c) ? body_of(c) : clang_getNullCursor();
  if (clang_Cursor_isNull(body) || (f->body && same_place(f->body_name_at, d->name_at)))
    return; /* the same definition again: a file named twice, or a header two files include */
  if (f->body) {
    cfe_error(t->u, d->name_at, "redefinition of function '%s'", d->name);
    cfe_note(t->u, f->body_name_at, "'%s' was first defined here", d->name);
    return;
  }
  f->decl = d;
  f->body = cft_stmt(t, body);
  f->body_name_at = d->name_at;
}

/* A global's first declaration, replaced by one that completes its type
 * ("extern int a[]; int a[4];"). Only a thread-local one keeps its
 * initializer: the lowering starts each thread's copy with it (the shared
 * ones' initial values are the spec's, checked by conformance/initial.c). */
static void read_global(cft *t, CXCursor c) {
  cfe_unit *u = t->u;
  cfe_decl *d = cft_decl(t, c, clang_getCursorTLSKind(c) != CXTLS_None);
  if (!d->name) return;
  cfe_entity *e = cfe_lookup(u, d->name);
  if (e && e->kind == ENT_GLOBAL) {
    if (u->globals.items[e->index]->type.kind == CT_BAD && d->type.kind != CT_BAD) u->globals.items[e->index] = d;
    return;
  }
  vec_push(u->arena, &u->globals, d);
  cfe_define(u, d->name, (cfe_entity){.kind = ENT_GLOBAL, .index = (int)u->globals.len - 1});
}

/* The declarations of the users' files, and the uses of macros in them. */
typedef struct scope {
  cft *t;               /* the translator */
  VEC(CXCursor) decls;  /* file-scope declarations to read (heap) */
} scope;

static void add_use(cft *t, CXCursor c) {
  CXSourceRange r = clang_getCursorExtent(c);
  point s = file_point(t, clang_getRangeStart(r)), e = file_point(t, clang_getRangeEnd(r));
  if (s.file < 0 || e.file != s.file || e.offset < s.offset) return;
  cft_use use = {.file = s.file, .at = {s.offset, e.offset}, .name = cft_intern(t, clang_getCursorSpelling(c)), .cursor = c};
  vec_push(NULL, &t->uses, use);
}

static enum CXChildVisitResult top_level(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  scope *s = data;
  enum CXCursorKind kind = clang_getCursorKind(c);
  bool wanted = kind == CXCursor_MacroExpansion || kind == CXCursor_VarDecl || kind == CXCursor_FunctionDecl;
  if (!wanted || clang_Location_isInSystemHeader(clang_getCursorLocation(c))) return CXChildVisit_Continue;
  if (kind == CXCursor_MacroExpansion) add_use(s->t, c);
  else vec_push(NULL, &s->decls, c);
  return CXChildVisit_Continue;
}

void cft_unit(cft *t) {
  scope s = {.t = t};
  clang_visitChildren(clang_getTranslationUnitCursor(t->tu), top_level, &s);
  if (t->uses.len) qsort(t->uses.items, t->uses.len, sizeof *t->uses.items, by_place);
  vec_foreach(&s.decls, i) {
    CXCursor c = s.decls.items[i];
    if (clang_getCursorKind(c) == CXCursor_FunctionDecl) read_function(t, c);
    else read_global(t, c);
  }
  vec_free(&s.decls);
}
