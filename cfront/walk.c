/* cfront/walk.c -- reading a function body: which parts of which globals it
 * reads and writes (x, s.f, a[2], a[i]), which functions it calls, where it
 * starts threads and inside which loops, and -- for a function that starts
 * threads -- what it writes before the first start. Taking an address (&x,
 * an array passed to a function) counts as a read and a write: the callee
 * may do either. */
#include <stdlib.h>
#include <string.h>

#include "reader.h"

enum { READ = 1, WRITE = 2, READ_WRITE = 3 };

/* How deep expressions are followed; deeper ones are not read (p->truncated). */
enum { MAX_DEPTH = 1500 };

typedef struct walker {
  cfp_reader *r;       /* the reader */
  cfp_function *fn;    /* the function being read */
  cfp_accesses *out;   /* where accesses go: fn->accesses, or a site's argument */
  VEC(CXCursor) loops; /* the loops around the current statement (heap) */
  VEC(cfp_step) steps; /* the lvalue path being built, outermost step first (heap) */
  int depth;           /* expression nesting */
  size_t pointer_uses; /* calls and accesses through a pointer seen so far */
  size_t sync_calls;   /* calls of synchronisation primitives seen so far */
  int conditional;     /* the current statement runs on some runs only: under an if, switch, ?:, && or ||, or a
                          while or do loop */
  bool stopped;        /* the function has a return statement before the current one (not under a condition) */
} walker;

static void walk(walker *w, CXCursor c, int mode);

/* ---------------------------------------------------------------- thread APIs */

static const struct {
  const char *name; /* the function that starts a thread */
  unsigned routine; /* the argument naming the thread function */
  unsigned data;    /* the argument the thread gets */
} thread_apis[] = {
    {"pthread_create", 2, 3}, {"CreateThread", 2, 3},   {"PsCreateSystemThread", 5, 6},
    {"kthread_run", 0, 1},    {"kthread_create", 0, 1}, {"kthread_create_on_node", 0, 1},
};

static int thread_api(const char *name) {
  for (size_t i = 0; i < sizeof thread_apis / sizeof *thread_apis; i++)
    if (strcmp(name, thread_apis[i].name) == 0) return (int)i;
  return -1;
}

/* ---------------------------------------------------------------- children */

static enum CXChildVisitResult walk_child(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  walk(data, c, READ);
  return CXChildVisit_Continue;
}

static void walk_children(walker *w, CXCursor c) { clang_visitChildren(c, walk_child, w); }

/* ---------------------------------------------------------------- accesses */

/* A call or an access through a pointer: what it reaches is not known. */
static void note_pointer(walker *w) {
  w->fn->through_pointer = true;
  w->pointer_uses++;
}

static void note(walker *w, int global, int mode) {
  if (!w->out) return;
  arena *a = w->r->p->arena;
  cfp_access acc = {.global = global, .len = w->steps.len, .read = mode & READ, .write = mode & WRITE};
  acc.steps = arena_alloc(a, (acc.len + 1) * sizeof *acc.steps);
  for (size_t i = 0; i < acc.len; i++) acc.steps[i] = w->steps.items[acc.len - 1 - i];
  vec_push(a, w->out, acc);
}

/* A name used as a value: a global (an access) or a function (a possible call). */
static void note_reference(walker *w, CXCursor c, int mode) {
  CXCursor decl = clang_getCursorReferenced(c);
  enum CXCursorKind kind = clang_getCursorKind(decl);
  if (kind == CXCursor_VarDecl) {
    int g = cfp_global_of(w->r, decl);
    if (g >= 0) note(w, g, mode);
  } else if (kind == CXCursor_FunctionDecl) {
    vec_push(w->r->p->arena, &w->fn->callees, cfp_intern(w->r, clang_getCursorSpelling(decl)));
  }
}

static bool is_array_type(CXType t) {
  enum CXTypeKind k = clang_getCanonicalType(t).kind;
  return k == CXType_ConstantArray || k == CXType_IncompleteArray || k == CXType_VariableArray;
}

static bool is_pointer_type(CXType t) { return clang_getCanonicalType(t).kind == CXType_Pointer; }

/* The array under an array-to-pointer decay, or c itself. */
static CXCursor undecay(CXCursor c) {
  CXCursor kid;
  if (clang_getCursorKind(c) == CXCursor_UnexposedExpr && cfc_children(c, &kid, 1) == 1 &&
      is_array_type(clang_getCursorType(kid)))
    return kid;
  return c;
}

static bool is_path_kind(enum CXCursorKind k) {
  return k == CXCursor_DeclRefExpr || k == CXCursor_ParenExpr || k == CXCursor_UnexposedExpr ||
         k == CXCursor_MemberRefExpr || k == CXCursor_ArraySubscriptExpr;
}

static void push_step(walker *w, const char *field, int64_t index) {
  cfp_step s = {field, index};
  vec_push(NULL, &w->steps, s);
}

/* s.b where b belongs to anonymous members of s: libclang hides C's implicit
 * accesses of those members, so their steps are put back, innermost first
 * (the path is built from the outside in, then reversed). */
static void push_anonymous_steps(walker *w, CXCursor field, CXType base) {
  CXCursor outer = clang_getTypeDeclaration(clang_getCanonicalType(base));
  CXCursor record = clang_getCursorSemanticParent(field);
  for (int level = 0; level < MAX_DEPTH && clang_Cursor_isAnonymousRecordDecl(record) &&
                      !clang_equalCursors(record, outer);
       level++) {
    push_step(w, cfp_anonymous_name(w->r, record), 0);
    record = clang_getCursorSemanticParent(record);
  }
}

/* x, s.f, a[k], (x): follows the path down to a global, one step per level. */
static void walk_lvalue(walker *w, CXCursor c, int mode) {
  size_t mark = w->steps.len;
  CXCursor kids[2];
  for (int level = 0; level < MAX_DEPTH; level++) {
    enum CXCursorKind kind = clang_getCursorKind(c);
    if (kind == CXCursor_DeclRefExpr) {
      note_reference(w, c, mode);
    } else if ((kind == CXCursor_ParenExpr || kind == CXCursor_UnexposedExpr) && cfc_children(c, kids, 2) == 1) {
      if (kind == CXCursor_UnexposedExpr && is_array_type(clang_getCursorType(kids[0])))
        mode = READ_WRITE; /* an array decays to its address (under an implicit cast too: memset(a, ...)) */
      c = kids[0];
      continue;
    } else if (kind == CXCursor_MemberRefExpr && cfc_children(c, kids, 1) == 1) {
      if (is_pointer_type(clang_getCursorType(kids[0]))) {
        note_pointer(w);
        walk(w, kids[0], READ); /* p->f: the pointer is read */
      } else {
        push_step(w, cfp_intern(w->r, clang_getCursorSpelling(c)), 0);
        push_anonymous_steps(w, clang_getCursorReferenced(c), clang_getCursorType(kids[0]));
        c = kids[0];
        continue;
      }
    } else if (kind == CXCursor_ArraySubscriptExpr && cfc_children(c, kids, 2) == 2) {
      walk(w, kids[1], READ);
      CXCursor base = undecay(kids[0]);
      if (!is_array_type(clang_getCursorType(base))) {
        note_pointer(w);
        walk(w, kids[0], READ); /* p[i]: the pointer is read */
      } else {
        cfp_value k = cfp_eval(kids[1]);
        push_step(w, NULL, k.kind == CFP_KNOWN && k.value >= 0 ? k.value : CFP_ANY);
        c = base;
        continue;
      }
    } else if (level > 0 && !is_path_kind(kind)) {
      walk(w, c, READ); /* (x++), (*p): an expression, not a path */
    } else {
      walk_children(w, c);
    }
    break;
  }
  w->steps.len = mark;
}

/* ---------------------------------------------------------------- operators */

static void walk_binary(walker *w, CXCursor c) {
  CXCursor kids[2];
  if (cfc_children(c, kids, 2) != 2) return walk_children(w, c);
  enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(c);
  if (op == CXBinaryOperator_Assign) walk(w, kids[0], WRITE);
  else if (clang_getCursorKind(c) == CXCursor_CompoundAssignOperator) walk(w, kids[0], READ_WRITE);
  else walk(w, kids[0], READ);
  bool lazy = op == CXBinaryOperator_LAnd || op == CXBinaryOperator_LOr;
  w->conditional += lazy;
  walk(w, kids[1], READ);
  w->conditional -= lazy;
}

/* An if, switch or ?: whose first child (the condition) always runs and
 * whose other children run on some runs only. */
static void walk_branches(walker *w, CXCursor c) {
  CXCursor kids[3];
  size_t n = cfc_children(c, kids, 3);
  if (n > 3) { /* not the form expected: every child counts as conditional */
    w->conditional++;
    walk_children(w, c);
    w->conditional--;
    return;
  }
  for (size_t i = 0; i < n; i++) {
    w->conditional += i > 0;
    walk(w, kids[i], READ);
    w->conditional -= i > 0;
  }
}

static void walk_unary(walker *w, CXCursor c) {
  CXCursor kid;
  if (cfc_children(c, &kid, 1) != 1) return walk_children(w, c);
  switch (clang_getCursorUnaryOperatorKind(c)) {
  case CXUnaryOperator_PostInc:
  case CXUnaryOperator_PostDec:
  case CXUnaryOperator_PreInc:
  case CXUnaryOperator_PreDec:
  case CXUnaryOperator_AddrOf: walk(w, kid, READ_WRITE); break;
  case CXUnaryOperator_Deref:
    note_pointer(w);
    walk(w, kid, READ);
    break;
  default: walk(w, kid, READ); break;
  }
}

/* ---------------------------------------------------------------- loops */

/* The range r as written in the file (a macro's use, not its definition). */
static CXSourceRange expansion_range(CXTranslationUnit tu, CXSourceRange r) {
  CXFile f1 = NULL, f2 = NULL;
  unsigned o1 = 0, o2 = 0;
  clang_getExpansionLocation(clang_getRangeStart(r), &f1, NULL, NULL, &o1);
  clang_getExpansionLocation(clang_getRangeEnd(r), &f2, NULL, NULL, &o2);
  if (!f1 || !clang_File_isEqual(f1, f2) || o2 < o1) return clang_getNullRange();
  return clang_getRange(clang_getLocationForOffset(tu, f1, o1), clang_getLocationForOffset(tu, f1, o2));
}

/* The macro or enum constant that spells bound, if it is a single name. */
static const char *bound_name(walker *w, CXCursor bound) {
  CXCursor s = cfc_strip(bound);
  if (clang_getCursorKind(s) == CXCursor_DeclRefExpr &&
      clang_getCursorKind(clang_getCursorReferenced(s)) == CXCursor_EnumConstantDecl)
    return cfp_intern(w->r, clang_getCursorSpelling(s));
  CXToken *tokens = NULL;
  unsigned n = 0;
  clang_tokenize(w->r->tu, expansion_range(w->r->tu, clang_getCursorExtent(bound)), &tokens, &n);
  const char *name = NULL;
  if (n == 1 && clang_getTokenKind(tokens[0]) == CXToken_Identifier)
    name = cfp_intern(w->r, clang_getTokenSpelling(w->r->tu, tokens[0]));
  clang_disposeTokens(w->r->tu, tokens, n);
  return name;
}

/* The loop variable and its start from `i = a` or `int i = a`. */
static bool loop_start(CXCursor init, CXCursor *var, CXCursor *start) {
  CXCursor kids[2];
  if (clang_getCursorKind(init) == CXCursor_DeclStmt && cfc_children(init, kids, 2) == 1 &&
      clang_getCursorKind(kids[0]) == CXCursor_VarDecl) {
    *var = kids[0];
    *start = clang_Cursor_getVarDeclInitializer(kids[0]);
    return !clang_Cursor_isNull(*start);
  }
  if (clang_getCursorKind(init) != CXCursor_BinaryOperator ||
      clang_getCursorBinaryOperatorKind(init) != CXBinaryOperator_Assign || cfc_children(init, kids, 2) != 2)
    return false;
  CXCursor lhs = cfc_strip(kids[0]);
  if (clang_getCursorKind(lhs) != CXCursor_DeclRefExpr) return false;
  *var = clang_getCursorReferenced(lhs);
  *start = kids[1];
  return true;
}

static bool is_var(CXCursor e, CXCursor var) {
  e = cfc_strip(e);
  return clang_getCursorKind(e) == CXCursor_DeclRefExpr && clang_equalCursors(clang_getCursorReferenced(e), var);
}

/* +1 for i++, ++i, i += 1; -1 for the decrements; 0 otherwise. */
static int loop_step(CXCursor inc, CXCursor var) {
  CXCursor kids[2];
  size_t n = cfc_children(inc, kids, 2);
  if (clang_getCursorKind(inc) == CXCursor_UnaryOperator && n == 1 && is_var(kids[0], var)) {
    enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(inc);
    if (op == CXUnaryOperator_PostInc || op == CXUnaryOperator_PreInc) return 1;
    if (op == CXUnaryOperator_PostDec || op == CXUnaryOperator_PreDec) return -1;
  }
  if (clang_getCursorKind(inc) != CXCursor_CompoundAssignOperator || n != 2 || !is_var(kids[0], var)) return 0;
  cfp_value one = cfp_eval(kids[1]);
  if (one.kind != CFP_KNOWN || one.value != 1) return 0;
  enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(inc);
  return op == CXBinaryOperator_AddAssign ? 1 : op == CXBinaryOperator_SubAssign ? -1 : 0;
}

static enum CXBinaryOperatorKind flipped(enum CXBinaryOperatorKind op) {
  switch (op) {
  case CXBinaryOperator_LT: return CXBinaryOperator_GT;
  case CXBinaryOperator_LE: return CXBinaryOperator_GE;
  case CXBinaryOperator_GT: return CXBinaryOperator_LT;
  case CXBinaryOperator_GE: return CXBinaryOperator_LE;
  default: return op;
  }
}

typedef struct bound_form {
  int64_t start, limit;         /* i = start; i OP limit */
  enum CXBinaryOperatorKind op; /* with i on the left */
  int step;                     /* +1 or -1 */
} bound_form;

/* The number of iterations of the form, or 0 when it is not a plain count. */
static int64_t trip_count(const bound_form *f) {
  const int64_t big = INT64_C(1) << 60;
  if (f->start <= -big || f->start >= big || f->limit <= -big || f->limit >= big) return 0;
  int64_t d = f->step > 0 ? f->limit - f->start : f->start - f->limit;
  if ((f->step > 0 && f->op == CXBinaryOperator_LE) || (f->step < 0 && f->op == CXBinaryOperator_GE)) d++;
  else if (!(f->op == CXBinaryOperator_NE || (f->step > 0 && f->op == CXBinaryOperator_LT) ||
             (f->step < 0 && f->op == CXBinaryOperator_GT)))
    return 0;
  return d > 0 ? d : 0;
}

/* for (i = a; i < b; i++) and its variants: the count, named when b (or a,
 * counting down to 0) is a macro or an enum constant and is the count. */
static void analyze_for(walker *w, CXCursor loop, cfp_loop *out) {
  CXCursor kids[5], var, start, sides[2];
  if (cfc_children(loop, kids, 5) != 4 || !loop_start(kids[0], &var, &start)) return;
  if (clang_getCursorKind(kids[1]) != CXCursor_BinaryOperator || cfc_children(kids[1], sides, 2) != 2) return;
  bound_form f = {.op = clang_getCursorBinaryOperatorKind(kids[1]), .step = loop_step(kids[2], var)};
  CXCursor bound = sides[1];
  if (is_var(sides[1], var) && !is_var(sides[0], var)) bound = sides[0], f.op = flipped(f.op);
  else if (!is_var(sides[0], var)) return;
  cfp_value a = cfp_eval(start), b = cfp_eval(bound);
  if (a.kind != CFP_KNOWN || b.kind != CFP_KNOWN || f.step == 0) return;
  f.start = a.value, f.limit = b.value;
  if (!(out->count = trip_count(&f))) return;
  out->constant = true;
  if (f.step > 0 && f.start == 0 && f.op != CXBinaryOperator_LE) out->name = bound_name(w, bound);
  if (f.step < 0 && f.limit == 0 && f.op == CXBinaryOperator_GT) out->name = bound_name(w, start);
}

static cfp_loop analyze_loop(walker *w, CXCursor loop) {
  cfp_loop l = {0};
  cfp_where(w->r, loop, &l.file, &l.line);
  if (clang_getCursorKind(loop) == CXCursor_ForStmt) analyze_for(w, loop, &l);
  return l;
}

static void walk_loop(walker *w, CXCursor c) {
  bool counted = clang_getCursorKind(c) == CXCursor_ForStmt; /* its count decides (site_count) */
  vec_push(NULL, &w->loops, c);
  w->conditional += !counted;
  walk_children(w, c);
  w->conditional -= !counted;
  w->loops.len--;
}

/* ---------------------------------------------------------------- calls */

/* The function named by a thread routine argument: f, &f, (cast)f. */
static const char *routine_name(walker *w, CXCursor arg) {
  for (int level = 0; level < 16 && !clang_Cursor_isNull(arg); level++) {
    enum CXCursorKind kind = clang_getCursorKind(arg);
    CXCursor kids[2];
    size_t n = cfc_children(arg, kids, 2);
    if (kind == CXCursor_DeclRefExpr) {
      CXCursor decl = clang_getCursorReferenced(arg);
      if (clang_getCursorKind(decl) != CXCursor_FunctionDecl) return NULL;
      return cfp_intern(w->r, clang_getCursorSpelling(decl));
    }
    if (n == 0 || !(kind == CXCursor_UnexposedExpr || kind == CXCursor_ParenExpr || kind == CXCursor_CStyleCastExpr ||
                    kind == CXCursor_UnaryOperator))
      return NULL;
    arg = kids[n - 1]; /* a cast's first child may be its TypeRef */
  }
  return NULL;
}

static void add_site(walker *w, CXCursor call, int api) {
  cfp_program *p = w->r->p;
  cfp_site s = {.api = thread_apis[api].name, .creator = w->fn->name, .sure = !w->conditional && !w->stopped};
  cfp_where(w->r, call, &s.file, &s.line);
  s.function = routine_name(w, clang_Cursor_getArgument(call, thread_apis[api].routine));
  vec_foreach(&w->loops, i) {
    cfp_loop l = analyze_loop(w, w->loops.items[i]);
    vec_push(p->arena, &s.loops, l);
  }
  CXCursor data = clang_Cursor_getArgument(call, thread_apis[api].data);
  cfp_accesses *saved = w->out;
  w->out = &s.argument;
  if (!clang_Cursor_isNull(data)) walk(w, data, READ);
  w->out = saved;
  vec_push(p->arena, &p->sites, s);
}

/* A call of a synchronisation primitive (its first argument names the object). */
static bool is_sync_call(const char *name) {
  static const char *const prefixes[] = {"pthread_mutex_", "pthread_spin_", "pthread_cond_", "pthread_rwlock_",
                                         "sem_", "mtx_", "cnd_", "spin_", "mutex_"};
  for (size_t i = 0; i < sizeof prefixes / sizeof *prefixes; i++)
    if (strncmp(name, prefixes[i], strlen(prefixes[i])) == 0) return true;
  return false;
}

/* The first argument of call names one part of a global (&m, &s.lock),
 * not a pointer whose target is not known. */
static bool names_one_global(walker *w, CXCursor call) {
  if (clang_Cursor_getNumArguments(call) < 1) return false;
  cfp_accesses arg = {0}, *saved = w->out;
  size_t uses = w->pointer_uses;
  w->out = &arg;
  walk(w, clang_Cursor_getArgument(call, 0), READ);
  w->out = saved;
  bool one = arg.len == 1 && w->pointer_uses == uses;
  w->pointer_uses = uses;
  return one;
}

static void walk_call(walker *w, CXCursor c) {
  CXCursor callee = clang_getCursorReferenced(c);
  if (clang_getCursorKind(callee) != CXCursor_FunctionDecl) {
    w->fn->calls_pointer = true;
    note_pointer(w);
    return walk_children(w, c);
  }
  const char *name = cfp_intern(w->r, clang_getCursorSpelling(callee));
  vec_push(w->r->p->arena, &w->fn->callees, name);
  if (clang_Cursor_isNull(clang_getCursorDefinition(callee)) &&
      !clang_Location_isInSystemHeader(clang_getCursorLocation(callee)))
    vec_push(w->r->p->arena, &w->r->p->declared, name); /* no body here: maybe in another file, maybe none */
  int api = thread_api(name);
  if (api >= 0) return add_site(w, c, api);
  if (is_sync_call(name) || cfp_is_lock_init(name)) w->sync_calls++;
  if (cfp_is_lock_init(name)) { /* the lock starts free: not a write to report, but a reset of a lock in use */
    note_pointer(w);
    return;
  }
  if (is_sync_call(name) && !names_one_global(w, c)) note_pointer(w); /* which lock is not known */
  int n = clang_Cursor_getNumArguments(c);
  for (int i = 0; i < n; i++) walk(w, clang_Cursor_getArgument(c, (unsigned)i), READ);
}

/* ---------------------------------------------------------------- dispatch */

static void walk(walker *w, CXCursor c, int mode) {
  if (w->depth >= MAX_DEPTH) {
    w->r->p->truncated = true;
    return;
  }
  w->depth++;
  switch (clang_getCursorKind(c)) {
  case CXCursor_DeclRefExpr:
  case CXCursor_MemberRefExpr:
  case CXCursor_ArraySubscriptExpr:
  case CXCursor_ParenExpr: walk_lvalue(w, c, mode); break;
  case CXCursor_UnexposedExpr:
    if (!clang_equalCursors(undecay(c), c)) mode = READ_WRITE; /* an array passed on: its address */
    if (cfc_children(c, NULL, 0) == 1) walk_lvalue(w, c, mode);
    else walk_children(w, c);
    break;
  case CXCursor_BinaryOperator:
  case CXCursor_CompoundAssignOperator: walk_binary(w, c); break;
  case CXCursor_UnaryOperator: walk_unary(w, c); break;
  case CXCursor_CallExpr: walk_call(w, c); break;
  case CXCursor_ForStmt:
  case CXCursor_WhileStmt:
  case CXCursor_DoStmt: walk_loop(w, c); break;
  case CXCursor_UnaryExpr: break; /* sizeof, _Alignof: nothing is evaluated */
  case CXCursor_IfStmt:
  case CXCursor_SwitchStmt:
  case CXCursor_ConditionalOperator: walk_branches(w, c); break;
  case CXCursor_ReturnStmt:
    walk_children(w, c);
    w->stopped = w->stopped || !w->conditional;
    break;
  case CXCursor_GotoStmt:
  case CXCursor_IndirectGotoStmt:
    w->fn->jumps = true;
    walk_children(w, c);
    break;
  default: walk_children(w, c); break;
  }
  w->depth--;
}

/* ---------------------------------------------------------------- early writes */

/* `g = constant;` with a global part on the left, every index constant. */
static bool constant_assignment(walker *w, CXCursor stmt, cfp_raw_early *out) {
  CXCursor kids[2];
  if (clang_getCursorKind(stmt) != CXCursor_BinaryOperator ||
      clang_getCursorBinaryOperatorKind(stmt) != CXBinaryOperator_Assign || cfc_children(stmt, kids, 2) != 2)
    return false;
  cfp_value v = cfp_eval(kids[1]);
  if (v.kind == CFP_UNKNOWN) return false;
  cfp_accesses lhs = {0}, *saved = w->out;
  w->out = &lhs;
  walk(w, kids[0], WRITE);
  w->out = saved;
  bool ok = lhs.len == 1 && !lhs.items[0].read;
  for (size_t i = 0; ok && i < lhs.items[0].len; i++) ok = lhs.items[0].steps[i].index != CFP_ANY;
  if (ok) *out = (cfp_raw_early){.early = {lhs.items[0], v, cfp_span_of(w->r, stmt)}};
  return ok;
}

/* Statement stmt came before the first start: its writes, or its calls. */
static void record_early(walker *w, CXCursor stmt, cfp_early_list *list, size_t acc0, size_t calls0) {
  arena *a = w->r->p->arena;
  cfp_span at = cfp_span_of(w->r, stmt);
  cfp_raw_early e;
  if (constant_assignment(w, stmt, &e)) {
    vec_push(a, &list->writes, e);
    return;
  }
  for (size_t i = acc0; i < w->fn->accesses.len; i++) {
    if (!w->fn->accesses.items[i].write) continue;
    e = (cfp_raw_early){.early = {w->fn->accesses.items[i], {CFP_UNKNOWN, 0}, at}};
    vec_push(a, &list->writes, e);
  }
  for (size_t i = calls0; i < w->fn->callees.len; i++) {
    e = (cfp_raw_early){.early = {.at = at}, .callee = w->fn->callees.items[i]};
    vec_push(a, &list->writes, e);
  }
}

static enum CXChildVisitResult collect(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  VEC(CXCursor) *v = data;
  vec_push(NULL, v, c);
  return CXChildVisit_Continue;
}

/* ---------------------------------------------------------------- accesses while threads run */

/* Counts of threads: a count that is not a constant is UNBOUNDED. */
#define UNBOUNDED INT64_MAX

/* The threads the sites from sites0 on start: each site once per iteration
 * of its loops. An upper bound: a site under an if counts too. */
static int64_t started_by(const cfp_program *p, size_t sites0) {
  int64_t n = 0;
  for (size_t i = sites0; i < p->sites.len; i++) {
    int64_t k = 1;
    vec_foreach(&p->sites.items[i].loops, l) {
      const cfp_loop *loop = &p->sites.items[i].loops.items[l];
      if (!loop->constant || k > UNBOUNDED / loop->count) return UNBOUNDED;
      k *= loop->count;
    }
    if (n > UNBOUNDED - k) return UNBOUNDED;
    n += k;
  }
  return n;
}

static bool is_call_to(CXCursor c, const char *a, const char *b) {
  c = cfc_strip(c);
  if (clang_getCursorKind(c) == CXCursor_CStyleCastExpr) { /* (void)pthread_join(t, 0) */
    CXCursor kids[2];
    size_t n = cfc_children(c, kids, 2);
    if (n == 0) return false;
    c = cfc_strip(kids[n - 1]);
  }
  if (clang_getCursorKind(c) != CXCursor_CallExpr) return false;
  CXString name = clang_getCursorSpelling(c);
  const char *text = clang_getCString(name);
  bool yes = text && (strcmp(text, a) == 0 || (b && strcmp(text, b) == 0));
  clang_disposeString(name);
  return yes;
}

/* The threads a statement of the creator surely joins: a join call as the
 * whole statement (1), or a counted for loop whose body is one (its count);
 * else 0. Each join is assumed to wait for a thread not joined before (POSIX
 * leaves joining another undefined), so N joins after N starts mean every
 * thread has ended. */
static int64_t joined_by(walker *w, CXCursor stmt) {
  if (is_call_to(stmt, "pthread_join", "thrd_join")) return 1;
  CXCursor kids[5], body;
  if (clang_getCursorKind(stmt) != CXCursor_ForStmt || cfc_children(stmt, kids, 5) != 4) return 0;
  body = kids[3];
  if (clang_getCursorKind(body) == CXCursor_CompoundStmt && cfc_children(body, &body, 1) != 1) return 0;
  if (!is_call_to(body, "pthread_join", "thrd_join")) return 0;
  cfp_loop l = analyze_loop(w, stmt);
  return l.constant ? l.count : 0;
}

/* +1 when stmt is a lock call with its lock as the only access (from acc0
 * on), -1 for an unlock call, else 0. */
static int lock_op(walker *w, CXCursor stmt, size_t acc0) {
  if (w->fn->accesses.len != acc0 + 1) return 0;
  if (is_call_to(stmt, "pthread_mutex_lock", "pthread_spin_lock")) return 1;
  if (is_call_to(stmt, "pthread_mutex_unlock", "pthread_spin_unlock")) return -1;
  return 0;
}

/* Statement stmt may run while threads run: its accesses and its calls'. */
static void record_late(walker *w, CXCursor stmt, cfp_early_list *list, const size_t mark[4]) {
  size_t acc0 = mark[0], calls0 = mark[1];
  arena *a = w->r->p->arena;
  cfp_span at = cfp_span_of(w->r, stmt);
  int op = lock_op(w, stmt, acc0);
  if (w->pointer_uses > mark[2]) {
    cfp_raw_early e = {.early = {.at = at}, .pointer = true};
    vec_push(a, &list->late, e);
  }
  for (size_t i = acc0; i < w->fn->accesses.len; i++) {
    cfp_raw_early e = {.early = {w->fn->accesses.items[i], {CFP_UNKNOWN, 0}, at}, .lock_op = op};
    vec_push(a, &list->late, e);
  }
  for (size_t i = calls0; i < w->fn->callees.len; i++) {
    cfp_raw_early e = {.early = {.at = at}, .callee = w->fn->callees.items[i]};
    vec_push(a, &list->late, e);
  }
}

/* Statement stmt runs while no thread runs (before the first start, or
 * between two rounds): what it does to main's locks. A lock or unlock call
 * of its own; else, when it calls a synchronisation primitive another way
 * or a function (which may have a body, program.c decides), main's locks
 * are forgotten: it may have released one. */
static void record_ordered(walker *w, CXCursor stmt, cfp_early_list *list, const size_t mark[4]) {
  arena *a = w->r->p->arena;
  cfp_span at = cfp_span_of(w->r, stmt);
  int op = lock_op(w, stmt, mark[0]);
  if (op) {
    cfp_raw_early e = {.early = {w->fn->accesses.items[mark[0]], {CFP_UNKNOWN, 0}, at}, .lock_op = op, .ordered = true};
    vec_push(a, &list->late, e);
    return;
  }
  if (w->sync_calls > mark[3]) {
    cfp_raw_early e = {.early = {.at = at}, .ordered = true, .forget = true};
    vec_push(a, &list->late, e);
  }
  for (size_t i = mark[1]; i < w->fn->callees.len; i++) {
    cfp_raw_early e = {.early = {.at = at}, .callee = w->fn->callees.items[i], .ordered = true, .forget = true};
    vec_push(a, &list->late, e);
  }
}

/* Where the creator is: before its first start, while threads may run, or
 * after it has joined as many threads as it started. */
typedef struct phase {
  bool started;     /* a thread was started */
  int64_t running;  /* threads started and not surely joined (UNBOUNDED: not counted) */
} phase;

/* Updates ph after statement stmt, which started the sites from sites0 on;
 * true when stmt may run while threads run. The statement that starts the
 * first threads runs before them only when it is the creation call itself. */
static bool advance(walker *w, CXCursor stmt, size_t sites0, phase *ph) {
  int64_t started = started_by(w->r->p, sites0);
  bool concurrent = ph->running > 0 || (started > 0 && !is_call_to(stmt, "pthread_create", "thrd_create"));
  if (started > 0) {
    if (ph->started && ph->running == 0) w->fn->restarts = true;
    ph->started = true;
    ph->running = ph->running > UNBOUNDED - started ? UNBOUNDED : ph->running + started;
  }
  int64_t joined = joined_by(w, stmt);
  if (ph->running != UNBOUNDED) ph->running = joined >= ph->running ? 0 : ph->running - joined;
  return concurrent;
}

/* The statements of the body in order; those before the first thread start
 * give the function's early writes, and those that may run while its
 * threads run its late accesses (both kept when it starts threads). */
static void walk_body(walker *w, CXCursor body) {
  VEC(CXCursor) stmts = {0};
  clang_visitChildren(body, collect, &stmts);
  cfp_program *p = w->r->p;
  cfp_early_list list = {.function = w->fn->name};
  phase ph = {0};
  vec_foreach(&stmts, i) {
    size_t sites0 = p->sites.len;
    size_t mark[4] = {w->fn->accesses.len, w->fn->callees.len, w->pointer_uses, w->sync_calls};
    walk(w, stmts.items[i], READ);
    bool was_started = ph.started;
    if (advance(w, stmts.items[i], sites0, &ph)) {
      record_late(w, stmts.items[i], &list, mark);
      continue;
    }
    if (!was_started && !ph.started) record_early(w, stmts.items[i], &list, mark[0], mark[1]);
    record_ordered(w, stmts.items[i], &list, mark);
  }
  if (ph.started) vec_push(NULL, &w->r->early, list);
  vec_free(&stmts);
}

/* ---------------------------------------------------------------- entry */

static int compare_steps(const cfp_access *x, const cfp_access *y) {
  if (x->len != y->len) return x->len < y->len ? -1 : 1;
  for (size_t i = 0; i < x->len; i++) {
    const cfp_step *s = &x->steps[i], *t = &y->steps[i];
    if (s->field != t->field) return s->field ? (t->field ? strcmp(s->field, t->field) : 1) : -1;
    if (s->index != t->index) return s->index < t->index ? -1 : 1;
  }
  return 0;
}

static int by_target(const void *a, const void *b) {
  const cfp_access *x = a, *y = b;
  if (x->global != y->global) return x->global < y->global ? -1 : 1;
  return compare_steps(x, y);
}

/* One access per part of a global, its flags merged. */
static void dedupe(cfp_accesses *v) {
  if (v->len > 1) qsort(v->items, v->len, sizeof *v->items, by_target);
  size_t out = 0;
  vec_foreach(v, i) {
    cfp_access *last = out ? &v->items[out - 1] : NULL;
    if (last && by_target(last, &v->items[i]) == 0) {
      last->read |= v->items[i].read;
      last->write |= v->items[i].write;
    } else {
      v->items[out++] = v->items[i];
    }
  }
  v->len = out;
}

static enum CXChildVisitResult find_body(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  if (clang_getCursorKind(c) == CXCursor_CompoundStmt) *(CXCursor *)data = c;
  return CXChildVisit_Continue;
}

void cfp_walk_function(cfp_reader *r, CXCursor fn_decl) {
  const char *name = cfp_intern(r, clang_getCursorSpelling(fn_decl));
  int index = symtab_get(&r->functions, name);
  if (index < 0) {
    cfp_function *f = arena_alloc(r->p->arena, sizeof *f);
    f->name = name;
    index = (int)r->p->functions.len;
    symtab_put(&r->functions, name, index);
    vec_push(r->p->arena, &r->p->functions, f);
  }
  walker w = {.r = r, .fn = r->p->functions.items[index]};
  w.out = &w.fn->accesses;
  CXCursor body = clang_getNullCursor();
  clang_visitChildren(fn_decl, find_body, &body);
  if (!clang_Cursor_isNull(body)) walk_body(&w, body);
  dedupe(&w.fn->accesses);
  vec_free(&w.loops);
  vec_free(&w.steps);
}
