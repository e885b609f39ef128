/* cfront/translate-stmt.c -- C statements and declarations from libclang's
 * cursors. Three forms are recognized here: athread's `atomic { ... }` (a
 * block right after a use of athread.h's empty macro atomic), the C
 * library's assert (glibc expands assert(e) to a statement expression that
 * calls __assert_fail when e is false; it becomes a call of the assert
 * builtin), and the parts of a for loop, which libclang does not name. */
#include <stdlib.h>
#include <string.h>

#include "translate.h"

#define A(t) ((t)->u->arena)

static cfe_stmt *stmt_new(cft *t, cfe_stmt_kind kind, cfe_pos at) {
  cfe_stmt *s = arena_alloc(A(t), sizeof *s);
  s->kind = kind;
  s->at = at;
  return s;
}

static cfe_stmt *bad(cft *t, cfe_pos at, const char *what) {
  cfe_stmt *s = stmt_new(t, CS_BAD, at);
  s->what = what;
  return s;
}

/* ---------------------------------------------------------------- declarations */

/* auto and register are a local's automatic storage, as no storage class is
 * (clang refuses an address of a register variable itself). */
static cfe_storage storage_of(CXCursor c) {
  switch (clang_Cursor_getStorageClass(c)) {
  case CX_SC_Extern: return SC_EXTERN;
  case CX_SC_Static: return SC_STATIC;
  default: return clang_getCursorTLSKind(c) != CXTLS_None ? SC_OTHER : SC_NONE;
  }
}

cfe_decl *cft_decl(cft *t, CXCursor c, bool with_init) {
  cfe_decl *d = arena_alloc(A(t), sizeof *d);
  const char *name = cft_intern(t, clang_getCursorSpelling(c));
  d->name = *name ? name : NULL;
  d->at = cft_pos(t, c);
  d->name_at = d->name ? cft_name_pos(t, c, name) : d->at;
  d->storage = storage_of(c);
  d->thread_local = clang_getCursorTLSKind(c) != CXTLS_None;
  CXCursor init = with_init ? clang_Cursor_getVarDeclInitializer(c) : clang_getNullCursor();
  cfe_declarator *x = arena_alloc(A(t), sizeof *x);
  *x = (cfe_declarator){.name = d->name, .name_at = d->name_at, .at = d->name_at};
  if (clang_Cursor_isNull(init) && d->name_at.file == d->at.file && !d->at.macro && d->at.at.end >= d->name_at.at.start)
    x->at.at.end = d->at.at.end; /* "a[4]" */
  d->declarator = x;
  CXType type = clang_getCursorType(c);
  enum CXTypeKind k = clang_getCanonicalType(type).kind;
  bool array = k == CXType_ConstantArray || k == CXType_IncompleteArray || k == CXType_VariableArray;
  d->type = cft_type(t, type, !d->name ? d->at : array ? x->at : cft_until(t, d->at, d->name_at));
  if (!clang_Cursor_isNull(init)) d->init = cft_expr(t, init);
  return d;
}

/* The declarations of a declaration statement, without its ';'. */
static cfe_stmt *declaration(cft *t, CXCursor c) {
  cfe_pos at = cft_pos(t, c);
  const diag_source *src = at.file >= 0 ? t->u->files.items[at.file].src : NULL;
  if (src && !at.macro && at.at.end > at.at.start && src->text[at.at.end - 1] == ';') at.at.end--;
  cfe_stmt *s = stmt_new(t, CS_DECL, at);
  CXCursor kids[256];
  size_t n = cfc_children(c, kids, 256);
  if (n > 256) return bad(t, at, "unsupported: more than 256 declarators in one declaration");
  for (size_t i = 0; i < n; i++) {
    if (clang_getCursorKind(kids[i]) != CXCursor_VarDecl) continue; /* typedefs, tags, prototypes */
    cfe_decl *d = cft_decl(t, kids[i], true);
    if (n > 1 && d->name_at.file == d->at.file) d->at = cfe_span(d->name_at, d->at);
    else d->at = at;
    vec_push(A(t), &s->decls, d);
  }
  return s;
}

/* ---------------------------------------------------------------- assert */

/* assert(cond) for the code at at (a use of the macro when it is one). */
static cfe_stmt *assertion(cft *t, cfe_pos at, cfe_expr *cond) {
  cfe_pos name = at;
  if (!at.macro) name.at.end = name.at.start;
  cfe_stmt *s = stmt_new(t, CS_EXPR, at);
  s->expr = cft_call_named(t, at, "assert", name, cond);
  return s;
}

static bool is_kind(CXCursor c, enum CXCursorKind kind) { return clang_getCursorKind(c) == kind; }

/* "if (e) ; else __assert_fail (...);" is assert(e); "if (e) __assert_fail (...);" is assert(!e). */
static cfe_stmt *assert_if(cft *t, CXCursor c, const CXCursor *kids, size_t n) {
  if (n == 3 && is_kind(kids[1], CXCursor_NullStmt) && cft_is_assert_fail(kids[2]))
    return assertion(t, cft_pos(t, c), cft_expr(t, kids[0]));
  if (n == 2 && cft_is_assert_fail(kids[1])) return assertion(t, cft_pos(t, c), cft_not(t, cft_expr(t, kids[0])));
  return NULL;
}

/* ---------------------------------------------------------------- expression statements */

static cfe_stmt *expression(cft *t, CXCursor c);

/* "(void) sizeof ((e) ? 1 : 0), rest" (glibc's assert checks e's type so): rest. */
static bool sizeof_then(CXCursor c, CXCursor *rest) {
  CXCursor kids[2], cast[2];
  if (!is_kind(c, CXCursor_BinaryOperator) || clang_getCursorBinaryOperatorKind(c) != CXBinaryOperator_Comma ||
      cfc_children(c, kids, 2) != 2 || !is_kind(kids[0], CXCursor_CStyleCastExpr))
    return false;
  size_t n = cfc_children(kids[0], cast, 2);
  if (n < 1 || n > 2 || !is_kind(cfc_strip(cast[n - 1]), CXCursor_UnaryExpr)) return false;
  *rest = kids[1];
  return true;
}

static cfe_stmt *expression(cft *t, CXCursor c) {
  CXCursor s = c, kids[3], rest;
  while (is_kind(s, CXCursor_ParenExpr) && cfc_children(s, kids, 1) == 1) s = kids[0];
  if (sizeof_then(s, &rest)) return expression(t, rest);
  if (is_kind(s, CXCursor_UnaryOperator) && clang_getCursorUnaryOperatorKind(s) == CXUnaryOperator_Extension &&
      cfc_children(s, kids, 1) == 1)
    return expression(t, kids[0]);
  if (is_kind(s, CXCursor_StmtExpr) && cfc_children(s, kids, 1) == 1) return cft_stmt(t, kids[0]);
  if (is_kind(s, CXCursor_ConditionalOperator) && cfc_children(s, kids, 3) == 3 && cft_is_assert_fail(kids[2]))
    return assertion(t, cft_pos(t, c), cft_expr(t, kids[0]));
  cfe_stmt *st = stmt_new(t, CS_EXPR, cft_pos(t, c));
  st->expr = cft_expr(t, c);
  return st;
}

/* ---------------------------------------------------------------- control */

/* The child of a for loop's header at k: init, condition or step. */
static cfe_stmt *for_init(cft *t, CXCursor c) {
  if (is_kind(c, CXCursor_DeclStmt)) return declaration(t, c);
  return expression(t, c);
}

static bool skip_comment(const char *s, size_t len, size_t *i) {
  if (*i + 1 >= len || s[*i] != '/') return false;
  if (s[*i + 1] == '/') {
    while (*i < len && s[*i] != '\n') (*i)++;
    return true;
  }
  if (s[*i + 1] != '*') return false;
  for (*i += 2; *i + 1 < len && !(s[*i] == '*' && s[*i + 1] == '/'); (*i)++) continue;
  *i += 2;
  return true;
}

/* The offsets of the two ';' of "for (a; b; c)" written at at; false when
 * the header is not there as text (a macro writes it). */
static bool for_header(cft *t, cfe_pos at, uint32_t semi[2]) {
  const diag_source *src = at.file >= 0 && !at.macro ? t->u->files.items[at.file].src : NULL;
  if (!src || at.at.start + 3 > src->len || strncmp(src->text + at.at.start, "for", 3) != 0) return false;
  int depth = 0, found = 0;
  for (size_t i = at.at.start + 3; i < src->len && i < at.at.end; i++) {
    char ch = src->text[i];
    if (skip_comment(src->text, src->len, &i)) {
      i--;
      continue;
    }
    if (ch == '\'' || ch == '"') {
      for (i++; i < src->len && src->text[i] != ch; i++) i += src->text[i] == '\\';
      continue;
    }
    if (ch == '(') depth++;
    if (ch == ')' && --depth == 0) return found == 2;
    if (ch == ';' && depth == 1 && found < 2) semi[found++] = (uint32_t)i;
  }
  return false;
}

static cfe_stmt *for_loop(cft *t, CXCursor c) {
  cfe_stmt *s = stmt_new(t, CS_FOR, cft_pos(t, c));
  CXCursor kids[4];
  size_t n = cfc_children(c, kids, 4);
  uint32_t semi[2];
  bool text = for_header(t, s->at, semi);
  if (n < 1 || n > 4 || (!text && n != 4 && n != 1))
    return bad(t, s->at, "unsupported: a 'for' loop that a macro writes with some of its three parts left out");
  for (size_t i = 0; i + 1 < n; i++) {
    cfe_pos at = cft_pos(t, kids[i]);
    int part = text ? (at.at.start < semi[0] ? 0 : at.at.start < semi[1] ? 1 : 2) : (int)i;
    if (part == 0) s->init = for_init(t, kids[i]);
    else if (part == 1) s->expr = cft_expr(t, kids[i]);
    else s->step = cft_expr(t, kids[i]);
  }
  s->body = cft_stmt(t, kids[n - 1]);
  return s;
}

static cfe_stmt *if_stmt(cft *t, CXCursor c) {
  CXCursor kids[3];
  size_t n = cfc_children(c, kids, 3);
  if (n < 2 || n > 3) return bad(t, cft_pos(t, c), "unsupported if statement");
  cfe_stmt *a = assert_if(t, c, kids, n);
  if (a) return a;
  cfe_stmt *s = stmt_new(t, CS_IF, cft_pos(t, c));
  s->expr = cft_expr(t, kids[0]);
  s->body = cft_stmt(t, kids[1]);
  if (n == 3) s->els = cft_stmt(t, kids[2]);
  return s;
}

/* while (cond) body; do body while (cond) when do_loop. */
static cfe_stmt *loop(cft *t, CXCursor c, bool do_loop) {
  CXCursor kids[2];
  cfe_stmt *s = stmt_new(t, do_loop ? CS_DO : CS_WHILE, cft_pos(t, c));
  if (cfc_children(c, kids, 2) != 2) return bad(t, s->at, "unsupported loop");
  s->expr = cft_expr(t, kids[do_loop ? 1 : 0]);
  s->body = cft_stmt(t, kids[do_loop ? 0 : 1]);
  return s;
}

static cfe_stmt *return_stmt(cft *t, CXCursor c) {
  CXCursor kid;
  cfe_stmt *s = stmt_new(t, CS_RETURN, cft_pos(t, c));
  if (cfc_children(c, &kid, 1) == 1) s->expr = cft_expr(t, kid);
  return s;
}

/* A block, or `atomic { ... }` when athread.h's atomic comes right before it. */
static cfe_stmt *block(cft *t, CXCursor c) {
  cfe_stmt *s = stmt_new(t, CS_BLOCK, cft_pos(t, c));
  CXCursor kids[64];
  size_t n = cfc_children(c, kids, 64);
  if (n > 64) {
    CXCursor *all = xcalloc(n, sizeof *all);
    cfc_children(c, all, n);
    for (size_t i = 0; i < n; i++) vec_push(A(t), &s->items, cft_stmt(t, all[i]));
    free(all);
  } else {
    for (size_t i = 0; i < n; i++) vec_push(A(t), &s->items, cft_stmt(t, kids[i]));
  }
  long i = s->at.macro ? -1 : cft_use_before(t, s->at);
  if (i < 0 || strcmp(t->uses.items[i].name, "atomic") != 0) return s;
  cfe_pos use = s->at;
  use.at.start = t->uses.items[i].at.start;
  cfe_stmt *atomic = stmt_new(t, CS_ATOMIC, use);
  atomic->body = s;
  return atomic;
}

/* The statement's head, up to its body: "switch (g)", "case 1:". */
static cfe_pos head(cft *t, CXCursor c) {
  CXCursor kids[2];
  cfe_pos at = cft_pos(t, c);
  size_t n = cfc_children(c, kids, 2);
  return n == 0 ? at : cft_until(t, at, cft_pos(t, kids[n < 2 ? 0 : 1]));
}

/* switch, case, default, goto and labels: kind with the fields it uses. */
static cfe_stmt *control(cft *t, cfe_stmt_kind kind, cfe_pos at, const char *label, cfe_expr *expr, cfe_stmt *body) {
  cfe_stmt *s = stmt_new(t, kind, at);
  s->label = label;
  s->expr = expr;
  s->body = body;
  return s;
}

static cfe_stmt *label(cft *t, CXCursor c) {
  const char *name = cft_intern(t, clang_getCursorSpelling(c));
  CXCursor kids[1];
  cfe_pos at = cft_name_pos(t, c, name);
  if (!at.macro) at.at.end++; /* its ':' */
  if (cfc_children(c, kids, 1) != 1) return bad(t, at, "unsupported label without a statement");
  return control(t, CS_LABEL, at, name, NULL, cft_stmt(t, kids[0]));
}

static cfe_stmt *goto_stmt(cft *t, CXCursor c) {
  CXCursor kids[1];
  if (cfc_children(c, kids, 1) != 1) return bad(t, cft_pos(t, c), "unsupported goto statement");
  return control(t, CS_GOTO, cft_pos(t, c), cft_intern(t, clang_getCursorSpelling(kids[0])), NULL, NULL);
}

/* switch (e) body; a declaration in the condition (C++ only) is refused. */
static cfe_stmt *switch_stmt(cft *t, CXCursor c) {
  CXCursor kids[3];
  size_t n = cfc_children(c, kids, 3);
  if (n != 2) return bad(t, head(t, c), "unsupported switch statement");
  return control(t, CS_SWITCH, head(t, c), NULL, cft_expr(t, kids[0]), cft_stmt(t, kids[1]));
}

/* case e: body and default: body; GNU's case ranges (case 1 ... 3) are refused. */
static cfe_stmt *case_stmt(cft *t, CXCursor c) {
  CXCursor kids[3];
  size_t n = cfc_children(c, kids, 3);
  bool is_default = clang_getCursorKind(c) == CXCursor_DefaultStmt;
  if (n != (is_default ? 1u : 2u)) return bad(t, head(t, c), "unsupported case range");
  cfe_expr *value = is_default ? NULL : cft_expr(t, kids[0]);
  return control(t, is_default ? CS_DEFAULT : CS_CASE, head(t, c), NULL, value, cft_stmt(t, kids[n - 1]));
}

/* A statement with attributes (libclang: an UnexposedStmt over it), such as
 * "__attribute__((fallthrough));": the statement; the attributes C allows
 * on statements (fallthrough, assume, musttail) only permit or promise, so
 * leaving them out keeps every behaviour. */
static cfe_stmt *attributed(cft *t, CXCursor c) {
  CXCursor kid;
  if (cfc_children(c, &kid, 1) != 1) return bad(t, cft_pos(t, c), "unsupported statement");
  return cft_stmt(t, kid);
}

/* ---------------------------------------------------------------- dispatch */

static cfe_stmt *statement(cft *t, CXCursor c) {
  enum CXCursorKind kind = clang_getCursorKind(c);
  switch (kind) {
  case CXCursor_CompoundStmt: return block(t, c);
  case CXCursor_DeclStmt: return declaration(t, c);
  case CXCursor_IfStmt: return if_stmt(t, c);
  case CXCursor_WhileStmt: return loop(t, c, false);
  case CXCursor_DoStmt: return loop(t, c, true);
  case CXCursor_ForStmt: return for_loop(t, c);
  case CXCursor_BreakStmt: return stmt_new(t, CS_BREAK, cft_pos(t, c));
  case CXCursor_ContinueStmt: return stmt_new(t, CS_CONTINUE, cft_pos(t, c));
  case CXCursor_ReturnStmt: return return_stmt(t, c);
  case CXCursor_NullStmt: return stmt_new(t, CS_EMPTY, cft_pos(t, c));
  case CXCursor_GotoStmt: return goto_stmt(t, c);
  case CXCursor_IndirectGotoStmt: return bad(t, cft_pos(t, c), "unsupported computed goto ('goto *p')");
  case CXCursor_LabelStmt: return label(t, c);
  case CXCursor_SwitchStmt: return switch_stmt(t, c);
  case CXCursor_CaseStmt:
  case CXCursor_DefaultStmt: return case_stmt(t, c);
  case CXCursor_GCCAsmStmt:
  case CXCursor_MSAsmStmt: return bad(t, cft_pos(t, c), "unsupported inline assembly");
  case CXCursor_UnexposedStmt: return attributed(t, c);
  default:
    if (clang_isExpression(kind)) return expression(t, c);
    return bad(t, cft_pos(t, c), "unsupported statement");
  }
}

/* Deeper statements are not translated: lowering refuses them anyway. */
#define MAX_NESTING (IR_MAX_DEPTH + 50)

cfe_stmt *cft_stmt(cft *t, CXCursor c) {
  if (t->depth >= MAX_NESTING) return bad(t, cft_pos(t, c), "unsupported: statements are nested too deeply here");
  t->depth++;
  cfe_stmt *s = statement(t, c);
  t->depth--;
  return s;
}
