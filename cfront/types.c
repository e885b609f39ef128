/* cfront/types.c -- C types as the program records them: bool, integer, lock,
 * struct (its fields), array (its length), or something a spec cannot hold
 * (with the reason). Locks and thread handles are recognised by the names of
 * their typedefs and structs, not by their canonical types: pthread_t is an
 * unsigned long and pthread_mutex_t a union. */
#include <string.h>

#include "reader.h"

/* ---------------------------------------------------------------- names */

/* Types that guard critical sections: the draft models each as "held". */
static const char *const lock_names[] = {
    "pthread_mutex_t",
    "pthread_spinlock_t",
    "spinlock_t",
    "raw_spinlock_t",
    "mutex",
    "mtx_t",
    "KSPIN_LOCK",
    "FAST_MUTEX",
    "KMUTEX",
    "KGUARDED_MUTEX",
    "CRITICAL_SECTION",
};

/* Types a spec cannot hold although their canonical type is an integer or a union. */
static const struct {
  const char *name; /* typedef or struct name */
  const char *why;  /* the reason in the draft's comment */
} opaque_names[] = {
    {"pthread_t", "a thread handle"},
    {"thrd_t", "a thread handle"},
    {"HANDLE", "a handle"},
    {"pthread_cond_t", "a condition variable"},
    {"cnd_t", "a condition variable"},
    {"pthread_rwlock_t", "a read-write lock"},
    {"pthread_barrier_t", "a barrier"},
    {"sem_t", "a semaphore"},
    {"pthread_attr_t", "thread attributes"},
    {"pthread_mutexattr_t", "mutex attributes"},
    {"atomic_flag", "an atomic flag"},
};

static const char *const lock_init_names[] = {
    "pthread_mutex_init", "pthread_spin_init",    "spin_lock_init",        "mutex_init",
    "mtx_init",           "KeInitializeSpinLock", "ExInitializeFastMutex", "InitializeCriticalSection",
};

bool cfp_is_lock_init(const char *name) {
  for (size_t i = 0; i < sizeof lock_init_names / sizeof *lock_init_names; i++)
    if (strcmp(name, lock_init_names[i]) == 0) return true;
  return false;
}

static bool is_lock_name(const char *name) {
  for (size_t i = 0; i < sizeof lock_names / sizeof *lock_names; i++)
    if (strcmp(name, lock_names[i]) == 0) return true;
  return false;
}

static const char *opaque_reason(const char *name) {
  for (size_t i = 0; i < sizeof opaque_names / sizeof *opaque_names; i++)
    if (strcmp(name, opaque_names[i].name) == 0) return opaque_names[i].why;
  return NULL;
}

/* The name t's sugar gives it at one level: a typedef's or a record's. */
static const char *level_name(cfp_reader *r, CXType t) {
  if (t.kind == CXType_Typedef) return cfp_intern(r, clang_getTypedefName(t));
  if (t.kind == CXType_Record) return cfp_intern(r, clang_getCursorSpelling(clang_getTypeDeclaration(t)));
  return NULL;
}

/* One level of sugar less, or a type of kind CXType_Invalid at the bottom. */
static CXType desugar(CXType t) {
  switch (t.kind) {
  case CXType_Typedef: return clang_getTypedefDeclUnderlyingType(clang_getTypeDeclaration(t));
  case CXType_Elaborated: return clang_Type_getNamedType(t);
  case CXType_Attributed: return clang_Type_getModifiedType(t);
  default: return (CXType){.kind = CXType_Invalid};
  }
}

/* Looks through t's typedefs for a lock (returns CFP_LOCK) or an opaque
 * type (CFP_OTHER with *why); else CFP_INT, meaning "not found". */
static cfp_type_kind named_kind(cfp_reader *r, CXType t, const char **why) {
  for (int level = 0; level < 64 && t.kind != CXType_Invalid; level++, t = desugar(t)) {
    const char *name = level_name(r, t);
    if (!name) continue;
    if (is_lock_name(name)) return CFP_LOCK;
    if ((*why = opaque_reason(name))) return CFP_OTHER;
  }
  return CFP_INT;
}

/* ---------------------------------------------------------------- building */

static cfp_type *new_type(cfp_reader *r, cfp_type_kind kind, const char *spelling, const char *why) {
  cfp_type *t = arena_alloc(r->p->arena, sizeof *t);
  t->kind = kind;
  t->spelling = spelling;
  t->why = why;
  t->leaves = 1;
  return t;
}

static uint64_t saturating_add(uint64_t a, uint64_t b) { return a + b > CFP_MANY ? CFP_MANY : a + b; }

typedef struct field_ctx {
  cfp_reader *r; /* the reader */
  cfp_type *t;   /* the struct being filled */
} field_ctx;

static enum CXVisitorResult add_field(CXCursor c, CXClientData data) {
  field_ctx *f = data;
  cfp_field field = {cfp_intern(f->r, clang_getCursorSpelling(c)), cfp_type_of(f->r, clang_getCursorType(c))};
  CXCursor record = clang_getTypeDeclaration(clang_getCursorType(c));
  if (clang_Cursor_isAnonymousRecordDecl(record)) field.name = cfp_anonymous_name(f->r, record);
  vec_push(f->r->p->arena, &f->t->fields, field);
  f->t->leaves = saturating_add(f->t->leaves, field.type->leaves);
  return CXVisit_Continue;
}

/* The type's spelling has a space and names the declaration's place: unique
 * among the members, and never a C identifier. */
const char *cfp_anonymous_name(cfp_reader *r, CXCursor record) {
  return cfp_intern(r, clang_getTypeSpelling(clang_getCursorType(record)));
}

bool cfp_is_anonymous(const char *field) { return strchr(field, ' ') != NULL; }

static void fill_record(cfp_reader *r, cfp_type *t, CXType canonical) {
  CXCursor decl = clang_getTypeDeclaration(canonical);
  if (clang_getCursorKind(decl) == CXCursor_UnionDecl) {
    t->kind = CFP_OTHER, t->why = "a union";
    return;
  }
  if (clang_Type_getSizeOf(canonical) < 0) {
    t->kind = CFP_OTHER, t->why = "an incomplete struct";
    return;
  }
  t->kind = CFP_STRUCT;
  t->leaves = 0;
  field_ctx f = {r, t};
  clang_Type_visitFields(canonical, add_field, &f);
}

static void fill_array(cfp_reader *r, cfp_type *t, CXType sugared, CXType canonical) {
  CXType elem =
      sugared.kind == CXType_ConstantArray ? clang_getArrayElementType(sugared) : clang_getArrayElementType(canonical);
  t->kind = CFP_ARRAY;
  t->elem = cfp_type_of(r, elem);
  t->length = clang_getArraySize(canonical);
  uint64_t n = (uint64_t)t->length, each = t->elem->leaves;
  t->leaves = each && n > CFP_MANY / each ? CFP_MANY : n * each;
}

static bool is_integer_kind(enum CXTypeKind k) {
  return (k >= CXType_Char_U && k <= CXType_UInt128 && k != CXType_Bool) ||
         (k >= CXType_Char_S && k <= CXType_Int128) || k == CXType_Enum;
}

static bool is_float_kind(enum CXTypeKind k) {
  return (k >= CXType_Float && k <= CXType_LongDouble) || k == CXType_Float128 || k == CXType_Half ||
         k == CXType_Float16 || k == CXType_BFloat16 || k == CXType_Ibm128;
}

/* Fills t from the canonical type c (t.spelling already set). */
static void classify(cfp_reader *r, cfp_type *t, CXType sugared, CXType c) {
  if (c.kind == CXType_Atomic) c = clang_getCanonicalType(clang_Type_getValueType(c));
  if (c.kind == CXType_Bool) t->kind = CFP_BOOL;
  else if (is_integer_kind(c.kind)) t->kind = CFP_INT;
  else if (is_float_kind(c.kind)) t->why = "floating point";
  else if (c.kind == CXType_Pointer || c.kind == CXType_BlockPointer) t->why = "a pointer";
  else if (c.kind == CXType_Record) fill_record(r, t, c);
  else if (c.kind == CXType_ConstantArray) fill_array(r, t, sugared, c);
  else if (c.kind == CXType_IncompleteArray || c.kind == CXType_VariableArray) t->why = "an array of unknown length";
  else if (c.kind == CXType_Complex) t->why = "a complex number";
  else if (c.kind == CXType_FunctionProto || c.kind == CXType_FunctionNoProto) t->why = "a function";
  else t->why = "a type athread does not model";
}

cfp_type *cfp_type_of(cfp_reader *r, CXType t) {
  const char *spelling = cfp_intern(r, clang_getTypeSpelling(t));
  int known = symtab_get(&r->types, spelling);
  if (known >= 0) return r->type_memo.items[known];
  const char *why = NULL;
  cfp_type_kind named = named_kind(r, t, &why);
  cfp_type *type = new_type(r, named == CFP_INT ? CFP_OTHER : named, spelling, why);
  /* memoized before the fields: a struct cannot contain itself but through a pointer */
  symtab_put(&r->types, spelling, (int)r->type_memo.len);
  vec_push(NULL, &r->type_memo, type);
  if (named == CFP_INT) classify(r, type, t, clang_getCanonicalType(t));
  return type;
}
