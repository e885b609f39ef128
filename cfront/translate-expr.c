/* cfront/translate-expr.c -- C expressions from libclang's cursors: every
 * node gets its C type (ctype); the conversions C makes implicitly (libclang
 * shows them as UnexposedExpr over a child of another type) become CE_CAST
 * nodes marked implicit, except the decays of arrays and functions, whose
 * operand is kept as written. Enum constants become their values. p->f is
 * the member f of the dereference of p. */
#include <stdlib.h>
#include <string.h>

#include "translate.h"

#define A(t) ((t)->u->arena)

/* Deeper expressions are not translated (lowering refuses them anyway); it
 * keeps a pathological one from exhausting the stack. */
#define MAX_DEPTH (IR_MAX_DEPTH + 50)

/* ---------------------------------------------------------------- nodes */

static uint32_t deepest(const cfe_expr *a, const cfe_expr *b, const cfe_expr *c) {
  uint32_t d = 0;
  if (a && a->depth > d) d = a->depth;
  if (b && b->depth > d) d = b->depth;
  if (c && c->depth > d) d = c->depth;
  return d + 1;
}

/* A node for c over up to three operands, typed as c. */
static cfe_expr *node(cft *t, CXCursor c, cfe_expr_kind kind, cfe_op op, cfe_expr *a, cfe_expr *b, cfe_expr *x) {
  cfe_expr *e = arena_alloc(A(t), sizeof *e);
  *e = (cfe_expr){.kind = kind, .op = op, .at = cft_pos(t, c), .a = a, .b = b, .c = x, .depth = deepest(a, b, x)};
  e->ctype = cft_type(t, clang_getCursorType(c), e->at);
  return e;
}

static cfe_expr *bad(cft *t, CXCursor c, const char *what, const cfe_expr *sub) {
  cfe_expr *e = node(t, c, CE_BAD, 0, NULL, NULL, NULL);
  e->what = what;
  e->depth = deepest(sub, NULL, NULL);
  return e;
}

cfe_expr *cft_call_named(cft *t, cfe_pos at, const char *name, cfe_pos name_at, cfe_expr *arg) {
  cfe_expr *e = arena_alloc(A(t), sizeof *e);
  *e = (cfe_expr){.kind = CE_CALL, .at = at, .name = arena_intern_cstr(A(t), name), .name_at = name_at,
                  .builtin = cfe_builtin_of(name),
                  .depth = deepest(arg, NULL, NULL), .ctype = {.kind = CT_VOID}};
  vec_push(A(t), &e->args, arg);
  return e;
}

cfe_expr *cft_not(cft *t, cfe_expr *a) {
  cfe_expr *e = arena_alloc(A(t), sizeof *e);
  *e = (cfe_expr){.kind = CE_UNARY, .op = CO_NOT, .at = a->at, .a = a, .depth = a->depth + 1,
                  .ctype = {.kind = CT_INT, .bits = 32}};
  return e;
}

/* ---------------------------------------------------------------- helpers */

static CXType type_of(CXCursor c) { return clang_getCanonicalType(clang_getCursorType(c)); }

static bool is_pointer(CXType t) { return t.kind == CXType_Pointer; }

/* The function a call's callee names, or a null cursor (a call through a pointer). */
static CXCursor callee_decl(CXCursor callee) {
  CXCursor ref = cfc_strip(callee);
  if (clang_getCursorKind(ref) != CXCursor_DeclRefExpr) return clang_getNullCursor();
  CXCursor decl = clang_getCursorReferenced(ref);
  return clang_getCursorKind(decl) == CXCursor_FunctionDecl ? decl : clang_getNullCursor();
}

bool cft_is_assert_fail(CXCursor c) {
  c = cfc_strip(c);
  if (clang_getCursorKind(c) == CXCursor_CStyleCastExpr) { /* (void) __assert_fail (...) */
    CXCursor kids[2];
    size_t n = cfc_children(c, kids, 2);
    if (n >= 1 && n <= 2) c = cfc_strip(kids[n - 1]);
  }
  CXCursor callee;
  if (clang_getCursorKind(c) != CXCursor_CallExpr || cfc_children(c, &callee, 1) < 1) return false;
  CXCursor decl = callee_decl(callee);
  if (clang_Cursor_isNull(decl)) return false;
  CXString s = clang_getCursorSpelling(decl);
  const char *name = clang_getCString(s);
  bool yes = name && (strcmp(name, "__assert_fail") == 0 || strcmp(name, "__assert") == 0 ||
                      strcmp(name, "__assert_rtn") == 0 || strcmp(name, "_assert") == 0);
  clang_disposeString(s);
  return yes;
}

/* ---------------------------------------------------------------- leaves */

/* The first star at or after offset. */
static size_t star_from(const cft *t, uint32_t offset) {
  size_t lo = 0, hi = t->star_count;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (t->stars[mid] < offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/* A '*' condition: the constant where a '*' was, or a macro whose body it is
 * (a star on the line of its definition). */
static bool is_star(const cft *t, cfe_pos at) {
  if (at.macro) {
    const cfe_pos *def = &t->u->macros.items[at.macro - 1].body;
    const diag_source *src = def->file == t->main_file ? t->u->files.items[def->file].src : NULL;
    if (!src) return false;
    size_t k = star_from(t, def->at.end);
    const char *eol = memchr(src->text + def->at.end, '\n', src->len - def->at.end);
    return k < t->star_count && (!eol || t->stars[k] < (size_t)(eol - src->text));
  }
  size_t k = at.file == t->main_file ? star_from(t, at.at.start) : t->star_count;
  return k < t->star_count && t->stars[k] == at.at.start;
}

/* An integer or character constant: its value, big when it does not fit in 63 bits. */
static cfe_expr *constant(cft *t, CXCursor c) {
  cfe_expr *e = node(t, c, CE_INT, 0, NULL, NULL, NULL);
  if (is_star(t, e->at)) {
    e->kind = CE_STAR;
    return e;
  }
  CXEvalResult r = clang_Cursor_Evaluate(c);
  if (r && clang_EvalResult_getKind(r) == CXEval_Int && clang_EvalResult_isUnsignedInt(r)) {
    unsigned long long u = clang_EvalResult_getAsUnsigned(r);
    e->big = u > INT64_MAX;
    e->value = e->big ? 0 : (int64_t)u;
  } else if (r && clang_EvalResult_getKind(r) == CXEval_Int) {
    e->value = clang_EvalResult_getAsLongLong(r);
  }
  if (r) clang_EvalResult_dispose(r);
  return e;
}

static cfe_expr *enum_value(cft *t, CXCursor c, CXCursor decl) {
  cfe_expr *e = node(t, c, CE_INT, 0, NULL, NULL, NULL);
  CXType type = clang_getCanonicalType(clang_getCursorType(decl));
  unsigned long long u = clang_getEnumConstantDeclUnsignedValue(decl);
  bool is_unsigned = type.kind == CXType_UInt || type.kind == CXType_ULong || type.kind == CXType_ULongLong;
  e->big = is_unsigned && u > INT64_MAX;
  e->value = e->big ? 0 : is_unsigned ? (int64_t)u : clang_getEnumConstantDeclValue(decl);
  return e;
}

/* A name: a variable, a function or an enum constant. */
static cfe_expr *reference(cft *t, CXCursor c) {
  CXCursor decl = clang_getCursorReferenced(c);
  enum CXCursorKind kind = clang_getCursorKind(decl);
  if (kind == CXCursor_EnumConstantDecl) return enum_value(t, c, decl);
  const char *name = cft_intern(t, clang_getCursorSpelling(c));
  if (kind != CXCursor_VarDecl && kind != CXCursor_ParmDecl && kind != CXCursor_FunctionDecl)
    return bad(t, c, arena_printf(A(t), "unsupported use of '%s'", name), NULL);
  if (cft_system(decl)) cft_system_name(t, name);
  cfe_expr *e = node(t, c, CE_NAME, 0, NULL, NULL, NULL);
  e->name = name;
  return e;
}

/* ---------------------------------------------------------------- operators */

/* An implicit conversion of kid, c's one child. */
static cfe_expr *conversion(cft *t, CXCursor c, CXCursor kid) {
  CXType to = type_of(c), from = type_of(kid);
  bool decay = from.kind == CXType_ConstantArray || from.kind == CXType_IncompleteArray ||
               from.kind == CXType_VariableArray || from.kind == CXType_FunctionProto ||
               from.kind == CXType_FunctionNoProto;
  if (decay || clang_equalTypes(to, from)) return cft_expr(t, kid);
  cfe_expr *e = node(t, c, CE_CAST, 0, cft_expr(t, kid), NULL, NULL);
  e->type = e->ctype;
  e->implicit = true;
  return e;
}

static cfe_expr *explicit_cast(cft *t, CXCursor c) {
  CXCursor kids[2];
  size_t n = cfc_children(c, kids, 2);
  if (n < 1 || n > 2) return bad(t, c, "unsupported cast", NULL);
  cfe_expr *e = node(t, c, CE_CAST, 0, cft_expr(t, kids[n - 1]), NULL, NULL);
  e->type = e->ctype;
  return e;
}

static const cfe_op binary_ops[] = {
    [CXBinaryOperator_Mul] = CO_MUL,       [CXBinaryOperator_Div] = CO_DIV,       [CXBinaryOperator_Rem] = CO_MOD,
    [CXBinaryOperator_Add] = CO_ADD,       [CXBinaryOperator_Sub] = CO_SUB,       [CXBinaryOperator_Shl] = CO_SHL,
    [CXBinaryOperator_Shr] = CO_SHR,       [CXBinaryOperator_LT] = CO_LT,         [CXBinaryOperator_GT] = CO_GT,
    [CXBinaryOperator_LE] = CO_LE,         [CXBinaryOperator_GE] = CO_GE,         [CXBinaryOperator_EQ] = CO_EQ,
    [CXBinaryOperator_NE] = CO_NE,         [CXBinaryOperator_And] = CO_BITAND,    [CXBinaryOperator_Xor] = CO_XOR,
    [CXBinaryOperator_Or] = CO_BITOR,      [CXBinaryOperator_LAnd] = CO_AND,      [CXBinaryOperator_LOr] = CO_OR,
    [CXBinaryOperator_Assign] = CO_ASSIGN, [CXBinaryOperator_MulAssign] = CO_MUL, [CXBinaryOperator_DivAssign] = CO_DIV,
    [CXBinaryOperator_RemAssign] = CO_MOD, [CXBinaryOperator_AddAssign] = CO_ADD, [CXBinaryOperator_SubAssign] = CO_SUB,
    [CXBinaryOperator_ShlAssign] = CO_SHL, [CXBinaryOperator_ShrAssign] = CO_SHR, [CXBinaryOperator_AndAssign] = CO_BITAND,
    [CXBinaryOperator_XorAssign] = CO_XOR, [CXBinaryOperator_OrAssign] = CO_BITOR, [CXBinaryOperator_Comma] = CO_COMMA,
};

static cfe_expr *binary(cft *t, CXCursor c) {
  CXCursor kids[2];
  enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(c);
  if (cfc_children(c, kids, 2) != 2 || op < CXBinaryOperator_Mul || op > CXBinaryOperator_Comma)
    return bad(t, c, "unsupported operator", NULL);
  bool assign = op >= CXBinaryOperator_Assign && op <= CXBinaryOperator_OrAssign;
  cfe_expr *a = cft_expr(t, kids[0]), *b = cft_expr(t, kids[1]);
  return node(t, c, assign ? CE_ASSIGN : CE_BINARY, binary_ops[op], a, b, NULL);
}

static cfe_expr *unary(cft *t, CXCursor c) {
  CXCursor kid;
  enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(c);
  if (cfc_children(c, &kid, 1) != 1) return bad(t, c, "unsupported operator", NULL);
  if (op == CXUnaryOperator_Extension) return cft_expr(t, kid); /* __extension__ e */
  cfe_expr *a = cft_expr(t, kid);
  switch (op) {
  case CXUnaryOperator_PostInc:
  case CXUnaryOperator_PostDec:
  case CXUnaryOperator_PreInc:
  case CXUnaryOperator_PreDec: {
    cfe_expr *e = node(t, c, CE_INCDEC, CO_ADD, a, NULL, NULL);
    e->delta = op == CXUnaryOperator_PostInc || op == CXUnaryOperator_PreInc ? 1 : -1;
    e->post = op == CXUnaryOperator_PostInc || op == CXUnaryOperator_PostDec;
    return e;
  }
  case CXUnaryOperator_AddrOf: return node(t, c, CE_UNARY, CO_ADDR, a, NULL, NULL);
  case CXUnaryOperator_Deref: return node(t, c, CE_UNARY, CO_DEREF, a, NULL, NULL);
  case CXUnaryOperator_Plus: return node(t, c, CE_UNARY, CO_PLUS, a, NULL, NULL);
  case CXUnaryOperator_Minus: return node(t, c, CE_UNARY, CO_NEG, a, NULL, NULL);
  case CXUnaryOperator_Not: return node(t, c, CE_UNARY, CO_BITNOT, a, NULL, NULL);
  case CXUnaryOperator_LNot: return node(t, c, CE_UNARY, CO_NOT, a, NULL, NULL);
  default: return bad(t, c, "unsupported operator (__real__, __imag__)", a);
  }
}

/* sizeof, _Alignof: the constant clang computes for a complete type; else
 * (a variable-length array) refused, named by the first token. */
static cfe_expr *size_query(cft *t, CXCursor c) {
  CXEvalResult r = clang_Cursor_Evaluate(c);
  bool known = r && clang_EvalResult_getKind(r) == CXEval_Int;
  if (r) clang_EvalResult_dispose(r);
  if (known) return constant(t, c);
  CXToken *tokens = NULL;
  unsigned n = 0;
  clang_tokenize(t->tu, clang_getCursorExtent(c), &tokens, &n);
  const char *word = n > 0 ? cft_intern(t, clang_getTokenSpelling(t->tu, tokens[0])) : "sizeof";
  clang_disposeTokens(t->tu, tokens, n);
  return bad(t, c, arena_printf(A(t), "unsupported %s", word), NULL);
}

static cfe_expr *conditional(cft *t, CXCursor c) {
  CXCursor kids[3];
  if (cfc_children(c, kids, 3) != 3) return bad(t, c, "unsupported conditional expression", NULL);
  cfe_expr *a = cft_expr(t, kids[0]), *b = cft_expr(t, kids[1]), *x = cft_expr(t, kids[2]);
  return node(t, c, CE_COND, 0, a, b, x);
}

/* ---------------------------------------------------------------- objects and calls */

static cfe_expr *member(cft *t, CXCursor c) {
  CXCursor base;
  if (cfc_children(c, &base, 1) != 1) return bad(t, c, "unsupported member access", NULL);
  cfe_expr *object = cft_expr(t, base);
  if (is_pointer(type_of(base))) { /* p->f is (*p).f */
    cfe_expr *deref = node(t, base, CE_UNARY, CO_DEREF, object, NULL, NULL);
    deref->ctype = object->ctype.kind == CT_POINTER ? *object->ctype.elem : deref->ctype;
    object = deref;
  }
  cfe_expr *e = node(t, c, CE_MEMBER, 0, object, NULL, NULL);
  e->name = cft_intern(t, clang_getCursorSpelling(c));
  e->name_at = cft_name_pos(t, c, e->name);
  return e;
}

static cfe_expr *subscript(cft *t, CXCursor c) {
  CXCursor kids[2];
  if (cfc_children(c, kids, 2) != 2) return bad(t, c, "unsupported subscript", NULL);
  cfe_expr *a = cft_expr(t, kids[0]), *b = cft_expr(t, kids[1]);
  return node(t, c, CE_INDEX, 0, a, b, NULL);
}

#define MAX_ARGS 256

/* __atomic_test_and_set(p, order), __atomic_clear(p, order): clang declares
 * p 'volatile void *', which would let their model take any object. */
static bool flag_builtin(const char *name) {
  return strcmp(name, "__atomic_test_and_set") == 0 || strcmp(name, "__atomic_clear") == 0;
}

/* e without an implicit conversion to a void pointer: the pointer as written,
 * whose object's type the model then checks. */
static cfe_expr *without_void_pointer(cfe_expr *e) {
  bool to_void = e->kind == CE_CAST && e->implicit && e->ctype.kind == CT_POINTER && e->ctype.elem->kind == CT_VOID;
  return to_void ? e->a : e;
}

static cfe_expr *call(cft *t, CXCursor c) {
  CXCursor kids[MAX_ARGS + 1];
  size_t n = cfc_children(c, kids, MAX_ARGS + 1);
  if (n < 1 || n > MAX_ARGS + 1) return bad(t, c, "unsupported call", NULL);
  CXCursor decl = callee_decl(kids[0]);
  if (clang_Cursor_isNull(decl)) return bad(t, c, "unsupported call through a function pointer", NULL);
  const char *name = cft_intern(t, clang_getCursorSpelling(decl));
  if (strcmp(name, "__builtin_expect") == 0 && n == 3) return cft_expr(t, kids[1]); /* likely(), unlikely() */
  if (cft_system(decl)) cft_system_name(t, name);
  cfe_expr *e = node(t, c, CE_CALL, 0, NULL, NULL, NULL);
  e->name = name;
  e->builtin = cfe_builtin_of(name);
  e->name_at = cft_pos(t, cfc_strip(kids[0]));
  for (size_t i = 1; i < n; i++) {
    cfe_expr *arg = cft_expr(t, kids[i]);
    if (i == 1 && flag_builtin(name)) arg = without_void_pointer(arg);
    vec_push(A(t), &e->args, arg);
    if (arg->depth >= e->depth) e->depth = arg->depth + 1;
  }
  return e;
}

/* ---------------------------------------------------------------- GCC's __atomic builtins */

/* Where clang keeps the operands of an AtomicExpr (libclang: an
 * UnexposedExpr whose children are the operands): Sema's order, pointer,
 * order, value, failure order, second value, weak; each layout lists the
 * children in the order the arguments are written. */
static const uint8_t atomic_load_layout[] = {0, 1};          /* (p, order) */
static const uint8_t atomic_value_layout[] = {0, 2, 1};      /* (p, v, order) */
static const uint8_t atomic_exchange_layout[] = {0, 2, 3, 1}; /* (p, v, ret, order) */
static const uint8_t atomic_cas_layout[] = {0, 2, 4, 5, 1, 3}; /* (p, expected, desired, weak, success, failure) */

#define LAYOUT(a) a, sizeof a
static const struct {
  const char *name;      /* the builtin */
  const uint8_t *layout; /* its children in written order */
  size_t args;           /* entries in layout */
} atomic_builtins[] = {
    {"__atomic_load_n", LAYOUT(atomic_load_layout)},
    {"__atomic_store_n", LAYOUT(atomic_value_layout)},
    {"__atomic_exchange_n", LAYOUT(atomic_value_layout)},
    {"__atomic_compare_exchange_n", LAYOUT(atomic_cas_layout)},
    {"__atomic_load", LAYOUT(atomic_value_layout)},
    {"__atomic_store", LAYOUT(atomic_value_layout)},
    {"__atomic_exchange", LAYOUT(atomic_exchange_layout)},
    {"__atomic_compare_exchange", LAYOUT(atomic_cas_layout)},
    {"__atomic_fetch_add", LAYOUT(atomic_value_layout)},
    {"__atomic_fetch_sub", LAYOUT(atomic_value_layout)},
    {"__atomic_fetch_and", LAYOUT(atomic_value_layout)},
    {"__atomic_fetch_or", LAYOUT(atomic_value_layout)},
    {"__atomic_fetch_xor", LAYOUT(atomic_value_layout)},
    {"__atomic_fetch_nand", LAYOUT(atomic_value_layout)},
    {"__atomic_add_fetch", LAYOUT(atomic_value_layout)},
    {"__atomic_sub_fetch", LAYOUT(atomic_value_layout)},
    {"__atomic_and_fetch", LAYOUT(atomic_value_layout)},
    {"__atomic_or_fetch", LAYOUT(atomic_value_layout)},
    {"__atomic_xor_fetch", LAYOUT(atomic_value_layout)},
    {"__atomic_nand_fetch", LAYOUT(atomic_value_layout)},
};
#undef LAYOUT

/* The identifier or keyword (__builtin_offsetof is one) c's code starts with
 * (where it is spelled, also inside a macro's body or pasted by ##), or NULL. */
static const char *first_word(cft *t, CXCursor c) {
  CXToken *token = clang_getToken(t->tu, clang_getRangeStart(clang_getCursorExtent(c)));
  if (!token) return NULL;
  const char *word = NULL;
  CXTokenKind kind = clang_getTokenKind(*token);
  if (kind == CXToken_Identifier || kind == CXToken_Keyword) word = cft_intern(t, clang_getTokenSpelling(t->tu, *token));
  clang_disposeTokens(t->tu, token, 1);
  return word;
}

/* Whether word names one of clang's atomic builtins, which clang keeps as an AtomicExpr. */
static bool atomic_word(const char *word) {
  static const char *const prefixes[] = {"__atomic_", "__c11_atomic_", "__opencl_atomic_", "__hip_atomic_",
                                         "__scoped_atomic_"};
  for (size_t i = 0; word && i < sizeof prefixes / sizeof *prefixes; i++)
    if (strncmp(word, prefixes[i], strlen(prefixes[i])) == 0) return true;
  return false;
}

/* An AtomicExpr of c's n children: the call of the builtin it names, with
 * the arguments in written order, which the model athread_model_NAME of
 * include/athread/models/gcc.h lowers (the memory orders are arguments the
 * model ignores). Builtins without a model are refused, named. */
static cfe_expr *atomic_builtin(cft *t, CXCursor c, const char *name, size_t n) {
  size_t k = 0, count = sizeof atomic_builtins / sizeof *atomic_builtins;
  while (k < count && strcmp(atomic_builtins[k].name, name) != 0) k++;
  if (k == count || atomic_builtins[k].args != n)
    return bad(t, c,
               arena_printf(A(t), "unsupported atomic builtin '%s' (" CFE_ATOMIC_HINT ")", name),
               NULL);
  CXCursor kids[6];
  cfc_children(c, kids, 6);
  cfe_expr *e = node(t, c, CE_CALL, 0, NULL, NULL, NULL);
  e->name = name;
  e->builtin = cfe_builtin_of(name);
  e->name_at = cft_name_pos(t, c, name);
  cft_system_name(t, name);
  for (size_t i = 0; i < n; i++) {
    cfe_expr *arg = cft_expr(t, kids[atomic_builtins[k].layout[i]]);
    vec_push(A(t), &e->args, arg);
    if (arg->depth >= e->depth) e->depth = arg->depth + 1;
  }
  return e;
}

/* Whether c's text has a '?' right before a ':' (GNU's "a ?: b"). */
static bool elvis(cft *t, CXCursor c) {
  CXToken *tokens = NULL;
  unsigned n = 0;
  clang_tokenize(t->tu, clang_getCursorExtent(c), &tokens, &n);
  bool found = false;
  for (unsigned i = 0; i + 1 < n && !found; i++) {
    CXString a = clang_getTokenSpelling(t->tu, tokens[i]), b = clang_getTokenSpelling(t->tu, tokens[i + 1]);
    found = strcmp(clang_getCString(a), "?") == 0 && strcmp(clang_getCString(b), ":") == 0;
    clang_disposeString(a);
    clang_disposeString(b);
  }
  clang_disposeTokens(t->tu, tokens, n);
  return found;
}

/* An UnexposedExpr: an implicit conversion (one child), an atomic builtin,
 * or another GNU form clang does not expose (refused, named when it can be). */
static cfe_expr *unexposed(cft *t, CXCursor c) {
  CXCursor kid;
  size_t n = cfc_children(c, &kid, 1);
  if (n == 1) return conversion(t, c, kid);
  const char *word = first_word(t, c);
  if (atomic_word(word)) return atomic_builtin(t, c, word, n);
  if (word && strncmp(word, "__builtin_", 10) == 0)
    return bad(t, c, arena_printf(A(t), "unsupported compiler builtin '%s'", word), NULL);
  if (elvis(t, c)) return bad(t, c, "unsupported conditional 'a ?: b' (write 'a ? a : b')", NULL);
  return bad(t, c, "unsupported expression", NULL);
}

/* ---------------------------------------------------------------- dispatch */

static cfe_expr *expr(cft *t, CXCursor c) {
  switch (clang_getCursorKind(c)) {
  case CXCursor_IntegerLiteral:
  case CXCursor_CharacterLiteral: return constant(t, c);
  case CXCursor_FloatingLiteral:
  case CXCursor_ImaginaryLiteral: return bad(t, c, "unsupported floating-point constant", NULL);
  case CXCursor_StringLiteral: return bad(t, c, "unsupported string literal", NULL);
  case CXCursor_ParenExpr: {
    CXCursor kid;
    return cfc_children(c, &kid, 1) == 1 ? cft_expr(t, kid) : bad(t, c, "unsupported expression", NULL);
  }
  case CXCursor_UnexposedExpr: return unexposed(t, c);
  case CXCursor_DeclRefExpr: return reference(t, c);
  case CXCursor_MemberRefExpr: return member(t, c);
  case CXCursor_ArraySubscriptExpr: return subscript(t, c);
  case CXCursor_CallExpr: return call(t, c);
  case CXCursor_BinaryOperator:
  case CXCursor_CompoundAssignOperator: return binary(t, c);
  case CXCursor_UnaryOperator: return unary(t, c);
  case CXCursor_UnaryExpr: return size_query(t, c);
  case CXCursor_ConditionalOperator: return conditional(t, c);
  case CXCursor_CStyleCastExpr: return explicit_cast(t, c);
  case CXCursor_InitListExpr: return bad(t, c, "unsupported initializer list", NULL);
  case CXCursor_StmtExpr: return bad(t, c, "unsupported statement expression '({ ... })'", NULL);
  case CXCursor_CompoundLiteralExpr: return bad(t, c, "unsupported compound literal", NULL);
  case CXCursor_AddrLabelExpr: return bad(t, c, "unsupported address of a label ('&&label')", NULL);
  case CXCursor_GenericSelectionExpr: return bad(t, c, "unsupported _Generic selection", NULL);
  default: return bad(t, c, "unsupported expression", NULL);
  }
}

cfe_expr *cft_expr(cft *t, CXCursor c) {
  if (t->depth >= MAX_DEPTH) {
    cfe_expr *e = bad(t, c, "unsupported: this expression is nested too deeply", NULL);
    e->depth = MAX_DEPTH;
    return e;
  }
  t->depth++;
  cfe_expr *e = expr(t, c);
  t->depth--;
  return e;
}
