/* cfront/init.c -- the initial values of a global: C's initialization rules
 * over libclang's syntactic initializer lists (designators, brace elision,
 * string literals for char arrays). Every scalar slot of the global has a
 * number (its leaf, in initializer order); an initializer sets some of them
 * and the rest are zero. A shape this file does not follow marks the whole
 * global's initializer unknown rather than guess. */
#include <stdlib.h>
#include <string.h>

#include "reader.h"

typedef struct init_ctx {
  cfp_reader *r; /* the reader */
  cfp_global *g; /* the global being initialized */
  bool failed;   /* a shape we do not follow: everything unknown */
} init_ctx;

enum { MAX_KIDS = 1 << 20 };

/* ---------------------------------------------------------------- members */

static bool is_aggregate(const cfp_type *t) { return t->kind == CFP_STRUCT || t->kind == CFP_ARRAY; }

static size_t member_count(const cfp_type *t) {
  if (t->kind == CFP_STRUCT) return t->fields.len;
  return t->kind == CFP_ARRAY ? (size_t)t->length : 0;
}

static const cfp_type *member_type(const cfp_type *t, size_t k) {
  return t->kind == CFP_STRUCT ? t->fields.items[k].type : t->elem;
}

static uint64_t member_base(const cfp_type *t, uint64_t base, size_t k) {
  if (t->kind == CFP_ARRAY) return base + (uint64_t)k * t->elem->leaves;
  for (size_t i = 0; i < k; i++) base += t->fields.items[i].type->leaves;
  return base;
}

/* ---------------------------------------------------------------- values */

static void set_leaf(init_ctx *x, uint64_t leaf, cfp_value v, CXCursor from) {
  cfp_leaf_value lv = {leaf, v, cfp_span_of(x->r, from)};
  vec_push(x->r->p->arena, &x->g->values, lv);
}

static void set_scalar(init_ctx *x, const cfp_type *t, uint64_t leaf, CXCursor c) {
  if (t->kind != CFP_INT && t->kind != CFP_BOOL) return; /* a lock or a pointer: never asked for */
  cfp_value v = cfp_eval(c);
  if (t->kind == CFP_BOOL && v.kind != CFP_UNKNOWN) v = (cfp_value){CFP_KNOWN, v.kind == CFP_TOO_BIG || v.value};
  set_leaf(x, leaf, v, c);
}

/* A char array from a string literal: one slot per character, then zeros. */
static void set_string(init_ctx *x, const cfp_type *t, uint64_t base, CXCursor c) {
  CXEvalResult e = clang_Cursor_Evaluate(c);
  const char *s = e && clang_EvalResult_getKind(e) == CXEval_StrLiteral ? clang_EvalResult_getAsStr(e) : NULL;
  if (!s) x->failed = true;
  bool is_unsigned = strstr(t->elem->spelling, "unsigned") != NULL;
  for (size_t i = 0; s && s[i] && i < (size_t)t->length; i++) {
    int64_t ch = is_unsigned ? (unsigned char)s[i] : (signed char)s[i];
    set_leaf(x, base + i, (cfp_value){CFP_KNOWN, ch}, c);
  }
  if (e) clang_EvalResult_dispose(e);
}

static bool is_char_array(const cfp_type *t) { return t->kind == CFP_ARRAY && t->elem->kind == CFP_INT; }

/* ---------------------------------------------------------------- lists */

static void init_object(init_ctx *x, const cfp_type *t, uint64_t base, CXCursor c);
static void init_list(init_ctx *x, const cfp_type *t, uint64_t base, CXCursor *kids, size_t n, size_t *i, bool braced);

/* libclang shows a designated initializer as a void UnexposedExpr: the
 * designators (MemberRef for .f, the index expression for [k]), then the value. */
static bool is_designated(CXCursor c) {
  return clang_getCursorKind(c) == CXCursor_UnexposedExpr && clang_getCursorType(c).kind == CXType_Void &&
         cfc_children(c, NULL, 0) >= 2;
}

/* The member of t that designator d names, or -1. */
static long designated_member(init_ctx *x, const cfp_type *t, CXCursor d) {
  if (t->kind == CFP_STRUCT && clang_getCursorKind(d) == CXCursor_MemberRef) {
    const char *name = cfp_intern(x->r, clang_getCursorSpelling(d));
    vec_foreach(&t->fields, k)
      if (t->fields.items[k].name == name) return (long)k;
    return -1;
  }
  cfp_value v = t->kind == CFP_ARRAY ? cfp_eval(d) : (cfp_value){CFP_UNKNOWN, 0};
  return v.kind == CFP_KNOWN && v.value >= 0 && v.value < t->length ? (long)v.value : -1;
}

/* .a.b[2] = v: follows the designators from t, sets *next to the member
 * after the first one, and initializes the designated object. Returns
 * whether there was more than one designator. */
static bool init_designated(init_ctx *x, const cfp_type *t, uint64_t base, CXCursor c, size_t *next) {
  CXCursor kids[64];
  size_t n = cfc_children(c, kids, 64);
  if (n > 64) n = 0, x->failed = true;
  for (size_t i = 0; i + 1 < n && !x->failed; i++) {
    long k = is_aggregate(t) ? designated_member(x, t, kids[i]) : -1;
    if (k < 0) {
      x->failed = true;
      return false;
    }
    if (i == 0) *next = (size_t)k + 1;
    base = member_base(t, base, (size_t)k);
    t = member_type(t, (size_t)k);
  }
  if (n >= 2 && !x->failed) init_object(x, t, base, kids[n - 1]);
  return n > 2;
}

/* The members of aggregate t from kids[*i...]: all of them inside braces,
 * else (brace elision) as many as t has. After a nested designator
 * (.a.b = v) the next positional initializer is not followed. */
static void init_list(init_ctx *x, const cfp_type *t, uint64_t base, CXCursor *kids, size_t n, size_t *i, bool braced) {
  bool nested = false;
  for (size_t k = 0; *i < n && !x->failed;) {
    CXCursor kid = kids[*i];
    if (is_designated(kid)) {
      if (!braced) return; /* a designator belongs to the enclosing braces */
      nested = init_designated(x, t, base, kid, &k);
      ++*i;
      continue;
    }
    if (k >= member_count(t)) return;
    if (nested) x->failed = true;
    const cfp_type *mt = member_type(t, k);
    uint64_t mb = member_base(t, base, k++);
    enum CXCursorKind kind = clang_getCursorKind(kid);
    if (is_aggregate(mt) && kind != CXCursor_InitListExpr && !(is_char_array(mt) && kind == CXCursor_StringLiteral))
      init_list(x, mt, mb, kids, n, i, false);
    else init_object(x, mt, mb, kids[(*i)++]);
  }
}

static void init_object(init_ctx *x, const cfp_type *t, uint64_t base, CXCursor c) {
  enum CXCursorKind kind = clang_getCursorKind(c);
  if (kind == CXCursor_InitListExpr) {
    size_t n = cfc_children(c, NULL, 0), i = 0;
    if (n > MAX_KIDS) {
      x->failed = true;
      return;
    }
    CXCursor *kids = xcalloc(n + 1, sizeof *kids);
    cfc_children(c, kids, n);
    if (is_aggregate(t)) init_list(x, t, base, kids, n, &i, true);
    else if (n > 0) init_object(x, t, base, kids[0]);
    free(kids);
  } else if (is_char_array(t) && cfc_strip(c).kind == CXCursor_StringLiteral) {
    set_string(x, t, base, cfc_strip(c));
  } else if (is_aggregate(t)) {
    x->failed = true; /* a struct copied from another object */
  } else {
    set_scalar(x, t, base, c);
  }
}

/* ---------------------------------------------------------------- entry */

/* A slot write with its order, for a stable sort. */
typedef struct ordered {
  cfp_leaf_value v; /* the write */
  size_t seq;       /* its position in the initializer */
} ordered;

static int by_leaf(const void *a, const void *b) {
  const ordered *x = a, *y = b;
  if (x->v.leaf != y->v.leaf) return x->v.leaf < y->v.leaf ? -1 : 1;
  return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Sorts the slots and keeps the last value written to each. */
static void settle(cfp_global *g) {
  ordered *o = xcalloc(g->values.len + 1, sizeof *o);
  vec_foreach(&g->values, i) o[i] = (ordered){g->values.items[i], i};
  qsort(o, g->values.len, sizeof *o, by_leaf);
  size_t out = 0;
  vec_foreach(&g->values, i) {
    if (out > 0 && g->values.items[out - 1].leaf == o[i].v.leaf) out--;
    g->values.items[out++] = o[i].v;
  }
  g->values.len = out;
  free(o);
}

void cfp_read_initializer(cfp_reader *r, cfp_global *g, CXCursor init) {
  init_ctx x = {r, g, false};
  g->values.len = 0;
  g->init_unknown = false;
  if (g->type->leaves >= CFP_MANY) x.failed = true;
  else init_object(&x, g->type, 0, init);
  if (x.failed) g->values.len = 0, g->init_unknown = true;
  else settle(g);
}

const cfp_leaf_value *cfp_initializer_of(const cfp_global *g, uint64_t leaf) {
  size_t lo = 0, hi = g->values.len;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (g->values.items[mid].leaf < leaf) lo = mid + 1;
    else hi = mid;
  }
  return lo < g->values.len && g->values.items[lo].leaf == leaf ? &g->values.items[lo] : NULL;
}

cfp_value cfp_initial_value(const cfp_global *g, uint64_t leaf) {
  if (g->init_unknown) return (cfp_value){CFP_UNKNOWN, 0};
  const cfp_leaf_value *v = cfp_initializer_of(g, leaf);
  return v ? v->value : (cfp_value){CFP_KNOWN, 0};
}
