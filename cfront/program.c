/* cfront/program.c -- cfp_read: parse each file with libclang, pass clang's
 * errors on, read the file-scope declarations (globals here, function bodies
 * in walk.c), then pick the function that starts the threads and expand the
 * calls among its early writes. Also the queries over the finished program. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "c-ast.h"
#include "clang.h"
#include "reader.h"

/* ---------------------------------------------------------------- helpers for the reader */

const char *cfp_intern(cfp_reader *r, CXString s) {
  const char *text = clang_getCString(s);
  const char *out = arena_intern_cstr(r->p->arena, text ? text : "");
  clang_disposeString(s);
  return out;
}

void cfp_where(cfp_reader *r, CXCursor c, const char **file, unsigned *line) {
  CXFile f = NULL;
  unsigned l = 0;
  clang_getExpansionLocation(clang_getCursorLocation(c), &f, &l, NULL, NULL);
  *file = f ? cfp_intern(r, clang_getFileName(f)) : "";
  *line = l;
}

/* The expansion location of l: its file, line, column and offset. */
static CXFile expansion(CXSourceLocation l, unsigned *line, unsigned *col, unsigned *offset) {
  CXFile f = NULL;
  clang_getExpansionLocation(l, &f, line, col, offset);
  return f;
}

static cfp_span span_from(cfp_reader *r, CXSourceLocation start, CXSourceLocation end) {
  cfp_span s = {.file = ""};
  unsigned line = 0, col = 0, o1 = 0, o2 = 0;
  CXFile f1 = expansion(start, &line, &col, &o1), f2 = expansion(end, NULL, NULL, &o2);
  if (!f1) return s;
  s = (cfp_span){cfp_intern(r, clang_getFileName(f1)), line, col, o1, o1};
  if (f2 && clang_File_isEqual(f1, f2) && o2 > o1) s.end = o2;
  return s;
}

cfp_span cfp_span_of(cfp_reader *r, CXCursor c) {
  CXSourceRange range = clang_getCursorExtent(c);
  return span_from(r, clang_getRangeStart(range), clang_getRangeEnd(range));
}

cfp_span cfp_name_span(cfp_reader *r, CXCursor c, const char *name) {
  CXSourceLocation l = clang_getCursorLocation(c);
  cfp_span s = span_from(r, l, l);
  s.end = s.start + (uint32_t)strlen(name);
  return s;
}

cfp_value cfp_eval(CXCursor c) {
  cfp_value v = {CFP_UNKNOWN, 0};
  if (!clang_isExpression(clang_getCursorKind(c))) return v;
  CXEvalResult e = clang_Cursor_Evaluate(c);
  if (!e) return v;
  if (clang_EvalResult_getKind(e) == CXEval_Int && clang_EvalResult_isUnsignedInt(e)) {
    unsigned long long u = clang_EvalResult_getAsUnsigned(e);
    v = u > INT64_MAX ? (cfp_value){CFP_TOO_BIG, 0} : (cfp_value){CFP_KNOWN, (int64_t)u};
  } else if (clang_EvalResult_getKind(e) == CXEval_Int) {
    v = (cfp_value){CFP_KNOWN, clang_EvalResult_getAsLongLong(e)};
  }
  clang_EvalResult_dispose(e);
  return v;
}

/* ---------------------------------------------------------------- globals */

static cfp_global *new_global(cfp_reader *r, CXCursor decl, const char *name) {
  cfp_global *g = arena_alloc(r->p->arena, sizeof *g);
  g->name = name;
  g->type = cfp_type_of(r, clang_getCursorType(decl));
  g->thread_local = clang_getCursorTLSKind(decl) != CXTLS_None;
  cfp_where(r, decl, &g->file, &g->line);
  g->name_at = cfp_name_span(r, decl, name);
  return g;
}

int cfp_global_of(cfp_reader *r, CXCursor decl) {
  if (clang_Cursor_hasVarDeclGlobalStorage(decl) != 1 ||
      clang_getCursorKind(clang_getCursorSemanticParent(decl)) != CXCursor_TranslationUnit)
    return -1; /* a local, or a static local */
  const char *name = cfp_intern(r, clang_getCursorSpelling(decl));
  int index = symtab_get(&r->globals, name);
  if (index >= 0 || clang_Location_isInSystemHeader(clang_getCursorLocation(decl))) return index;
  index = (int)r->p->globals.len;
  symtab_put(&r->globals, name, index);
  vec_push(r->p->arena, &r->p->globals, new_global(r, decl, name));
  return index;
}

/* A file-scope variable declaration: the definition gives the type and the
 * place, an initializer the values. */
static void read_global(cfp_reader *r, CXCursor decl) {
  int index = cfp_global_of(r, decl);
  if (index < 0) return;
  cfp_global *g = r->p->globals.items[index];
  CXCursor init = clang_Cursor_getVarDeclInitializer(decl);
  if (clang_isCursorDefinition(decl) || !clang_Cursor_isNull(init)) {
    g->type = cfp_type_of(r, clang_getCursorType(decl));
    cfp_where(r, decl, &g->file, &g->line);
    g->name_at = cfp_name_span(r, decl, g->name);
  }
  if (clang_Cursor_getStorageClass(decl) != CX_SC_Extern || !clang_Cursor_isNull(init)) g->defined = true;
  if (clang_Cursor_isNull(init)) return;
  g->init_at = cfp_span_of(r, init);
  cfp_read_initializer(r, g, init);
}

/* Static locals: in the statements of a function's body (not inside
 * expressions, whose nesting may be deep), named "FUNCTION.NAME". */
static enum CXChildVisitResult find_statics(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  cfp_reader *r = data;
  enum CXCursorKind kind = clang_getCursorKind(c);
  if (kind == CXCursor_VarDecl && clang_Cursor_hasVarDeclGlobalStorage(c) == 1 &&
      clang_Cursor_getStorageClass(c) == CX_SC_Static) {
    CXCursor fn = clang_getCursorSemanticParent(c);
    const char *name = arena_printf(r->p->arena, "%s.%s", cfp_intern(r, clang_getCursorSpelling(fn)),
                                    cfp_intern(r, clang_getCursorSpelling(c)));
    cfp_global *g = new_global(r, c, arena_intern_cstr(r->p->arena, name));
    g->name_at = cfp_name_span(r, c, cfp_intern(r, clang_getCursorSpelling(c)));
    g->defined = true;
    CXCursor init = clang_Cursor_getVarDeclInitializer(c);
    if (!clang_Cursor_isNull(init)) g->init_at = cfp_span_of(r, init);
    if (!clang_Cursor_isNull(init)) cfp_read_initializer(r, g, init);
    vec_push(r->p->arena, &r->p->statics, g);
    return CXChildVisit_Continue;
  }
  return clang_isStatement(kind) || kind == CXCursor_CompoundStmt ? CXChildVisit_Recurse : CXChildVisit_Continue;
}

static enum CXChildVisitResult top_level(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  cfp_reader *r = data;
  if (clang_Location_isInSystemHeader(clang_getCursorLocation(c))) return CXChildVisit_Continue;
  enum CXCursorKind kind = clang_getCursorKind(c);
  if (kind == CXCursor_VarDecl) read_global(r, c);
  else if (kind == CXCursor_FunctionDecl && clang_isCursorDefinition(c)) {
    cfp_walk_function(r, c);
    clang_visitChildren(c, find_statics, r);
  }
  return CXChildVisit_Continue;
}

/* ---------------------------------------------------------------- parsing */

/* clang's "file:line:col: error: msg" (or "fatal error:") through the sink. */
static void report(cfp_reader *r, const char *path, CXDiagnostic d) {
  CXString s = clang_formatDiagnostic(d, CXDiagnostic_DisplaySourceLocation | CXDiagnostic_DisplayColumn);
  const char *text = clang_getCString(s);
  static const char *const marks[] = {": fatal error: ", ": error: "};
  for (int i = 0; i < 2; i++) {
    const char *at = strstr(text, marks[i]);
    if (!at) continue;
    diag_error_at(r->sink, arena_strndup(r->p->arena, text, (size_t)(at - text)), "%s", at + strlen(marks[i]));
    clang_disposeString(s);
    return;
  }
  const char *msg = strncmp(text, "fatal error: ", 13) == 0 ? text + 13 : text;
  diag_error_at(r->sink, path, "%s", strncmp(msg, "error: ", 7) == 0 ? msg + 7 : msg);
  clang_disposeString(s);
}

/* The reader and the file, for report. */
typedef struct reporting {
  cfp_reader *r;    /* the reader */
  const char *path; /* the file being read */
} reporting;

static void report_one(void *ctx, CXDiagnostic d) {
  reporting *rp = ctx;
  report(rp->r, rp->path, d);
}

static bool readable(cfp_reader *r, const char *path) {
  struct stat st;
  if (stat(path, &st) != 0) diag_error_at(r->sink, path, "cannot open file: %s", strerror(errno));
  else if (S_ISDIR(st.st_mode)) diag_error_at(r->sink, path, "is a directory, not a file");
  else return true;
  return false;
}

/* A character device (/dev/null) holds no program: libclang cannot parse one. */
static bool device(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISCHR(st.st_mode);
}

static bool read_file(cfp_reader *r, CXIndex index, const char *path, const cfp_options *o) {
  if (!readable(r, path)) return false;
  if (device(path)) return true;
  cfc_setup setup = {.flags = o->clang_args, .flag_count = o->clang_arg_count, .include_dir = o->include_dir};
  CXTranslationUnit tu = cfc_parse(r->sink, index, path, &setup);
  if (!tu) return false;
  reporting rp = {r, path};
  bool ok = cfc_errors(tu, report_one, &rp) == 0;
  r->tu = tu;
  if (ok) clang_visitChildren(clang_getTranslationUnitCursor(tu), top_level, r);
  clang_disposeTranslationUnit(tu);
  r->tu = NULL;
  return ok;
}

/* ---------------------------------------------------------------- after the files */

/* main when it starts threads, else the function of the first start. */
static const char *pick_creator(const cfp_program *p) {
  vec_foreach(&p->sites, i)
    if (strcmp(p->sites.items[i].creator, "main") == 0) return p->sites.items[i].creator;
  return p->sites.len ? p->sites.items[0].creator : NULL;
}

/* add's lock_op for a call through a pointer (cfp_late.unknown). */
#define LATE_UNKNOWN 2

/* Adds the accesses of raw (one list's entries) with add, each call
 * replaced by what the callee accesses transitively (only its writes when
 * writes_only). An ordered entry only says what happens to the locks: a
 * callee's is to forget them when it has a body. */
static void resolve_list(cfp_program *p, const cfp_raw_list *raw, bool writes_only,
                         void (*add)(cfp_program *, const cfp_raw_early *, const cfp_early *, int)) {
  vec_foreach(raw, k) {
    const cfp_raw_early *w = &raw->items[k];
    if (w->ordered) {
      if (!w->callee || cfp_function_named(p, w->callee)) add(p, w, &w->early, w->lock_op);
      continue;
    }
    if (!w->callee) {
      add(p, w, &w->early, w->pointer ? LATE_UNKNOWN : w->lock_op);
      continue;
    }
    cfp_accesses reached = {0};
    if (cfp_reach(p, w->callee, &reached) && !writes_only) add(p, w, &w->early, LATE_UNKNOWN);
    vec_foreach(&reached, a)
      if (reached.items[a].write || !writes_only) {
        cfp_early e = {reached.items[a], {CFP_UNKNOWN, 0}, w->early.at};
        add(p, w, &e, 0); /* a callee's access is plain */
      }
    vec_free(&reached);
  }
}

static void add_early(cfp_program *p, const cfp_raw_early *raw, const cfp_early *e, int lock_op) {
  (void)raw, (void)lock_op; /* only late accesses lock */
  vec_push(p->arena, &p->early, *e);
}

static void add_late(cfp_program *p, const cfp_raw_early *raw, const cfp_early *e, int lock_op) {
  cfp_late l = {e->where, e->at, lock_op == LATE_UNKNOWN ? 0 : lock_op, lock_op == LATE_UNKNOWN, raw->ordered,
                raw->forget};
  vec_push(p->arena, &p->late, l);
}

/* The creator's early writes and late accesses, with each call replaced by
 * what it writes (accesses). */
static void resolve_early(cfp_reader *r) {
  cfp_program *p = r->p;
  p->creator = pick_creator(p);
  vec_foreach(&r->early, i) {
    const cfp_early_list *list = &r->early.items[i];
    if (list->function != p->creator) continue;
    resolve_list(p, &list->writes, true, add_early);
    resolve_list(p, &list->late, false, add_late);
    break;
  }
}

static void reader_free(cfp_reader *r) {
  symtab_free(&r->globals);
  symtab_free(&r->functions);
  symtab_free(&r->types);
  vec_free(&r->type_memo);
  vec_free(&r->early);
}

cfp_program *cfp_read(diag_sink *sink, const char *const *files, size_t file_count, const cfp_options *opts) {
  cfp_program *p = xcalloc(1, sizeof *p);
  p->arena = arena_new();
  cfp_reader r = {.p = p, .sink = sink};
  CXIndex index = clang_createIndex(0, 0);
  bool ok = true;
  for (size_t i = 0; i < file_count; i++) ok &= read_file(&r, index, files[i], opts);
  clang_disposeIndex(index);
  if (ok) resolve_early(&r);
  reader_free(&r);
  if (ok) return p;
  cfp_free(p);
  return NULL;
}

void cfp_free(cfp_program *p) {
  if (!p) return;
  arena_free(p->arena);
  free(p);
}

/* ---------------------------------------------------------------- queries */

const cfp_function *cfp_function_named(const cfp_program *p, const char *name) {
  vec_foreach(&p->functions, i)
    if (strcmp(p->functions.items[i]->name, name) == 0) return p->functions.items[i];
  return NULL;
}

/* Calls visit on function name and on every function it calls,
 * transitively, each once; stops when visit returns true (and returns true). */
static bool reach_each(const cfp_program *p, const char *name, bool (*visit)(const cfp_function *, void *), void *ctx) {
  const cfp_function *start = cfp_function_named(p, name);
  if (!start) return false;
  symtab index = {0};
  vec_foreach(&p->functions, i) symtab_put(&index, p->functions.items[i]->name, (int)i);
  bool *seen = xcalloc(p->functions.len + 1, sizeof *seen), stop = false;
  VEC(const cfp_function *) todo = {0};
  vec_push(NULL, &todo, start);
  seen[symtab_get(&index, start->name)] = true;
  while (todo.len && !stop) {
    const cfp_function *f = todo.items[--todo.len];
    stop = visit(f, ctx);
    vec_foreach(&f->callees, i) {
      int k = symtab_get(&index, f->callees.items[i]);
      if (k < 0 || seen[k]) continue;
      seen[k] = true;
      vec_push(NULL, &todo, p->functions.items[k]);
    }
  }
  vec_free(&todo);
  free(seen);
  symtab_free(&index);
  return stop;
}

typedef struct reach_ctx {
  cfp_accesses *out; /* where the accesses go */
  bool pointer;      /* some function goes through a pointer */
} reach_ctx;

static bool add_accesses(const cfp_function *f, void *data) {
  reach_ctx *c = data;
  c->pointer |= f->through_pointer;
  vec_foreach(&f->accesses, i) vec_push(NULL, c->out, f->accesses.items[i]);
  return false;
}

bool cfp_reach(const cfp_program *p, const char *name, cfp_accesses *out) {
  reach_ctx c = {out, false};
  reach_each(p, name, add_accesses, &c);
  return c.pointer;
}

typedef struct call_ctx {
  bool (*match)(const char *callee, void *ctx); /* the calls looked for */
  void *ctx;                                    /* match's */
  const char *found;                            /* the first one met */
} call_ctx;

static bool find_call(const cfp_function *f, void *data) {
  call_ctx *c = data;
  vec_foreach(&f->callees, i)
    if (c->match(f->callees.items[i], c->ctx)) return c->found = f->callees.items[i], true;
  return false;
}

const char *cfp_reached_call(const cfp_program *p, const char *name, bool (*match)(const char *callee, void *ctx),
                             void *ctx) {
  call_ctx c = {match, ctx, NULL};
  reach_each(p, name, find_call, &c);
  return c.found;
}

typedef struct unknown_ctx {
  const cfp_program *p; /* the program */
  const char *found;    /* the first unknown callee */
} unknown_ctx;

static bool is_declared(const cfp_program *p, const char *name) {
  vec_foreach(&p->declared, i)
    if (strcmp(p->declared.items[i], name) == 0) return true;
  return false;
}

/* A function athread knows without its body, even when a preprocessed file
 * (.i) declares it in the user's text: POSIX threads and semaphores (the
 * models, or the C library: they reach shared objects only through their
 * arguments, which the walker records) and the calls the front end reads
 * itself (an assertion's failure, abort, exit, the __VERIFIER_ functions). */
static bool known_without_body(const char *name) {
  return strncmp(name, "pthread_", 8) == 0 || strncmp(name, "sem_", 4) == 0 || strncmp(name, "__VERIFIER_", 11) == 0 ||
         cfe_builtin_of(name) != B_NONE;
}

static bool find_unknown(const cfp_function *f, void *data) {
  unknown_ctx *c = data;
  if (f->calls_pointer) {
    c->found = "a function through a pointer";
    return true;
  }
  vec_foreach(&f->callees, i) {
    const char *callee = f->callees.items[i];
    if (known_without_body(callee) || cfp_function_named(c->p, callee) || !is_declared(c->p, callee)) continue;
    c->found = callee;
    return true;
  }
  return false;
}

const char *cfp_unknown_callee(const cfp_program *p, const char *name) {
  unknown_ctx c = {p, NULL};
  reach_each(p, name, find_unknown, &c);
  return c.found;
}

uint64_t cfp_leaf_of(const cfp_type *t, const cfp_step *steps, size_t len) {
  uint64_t leaf = 0;
  for (size_t i = 0; i < len; i++) {
    const cfp_step *s = &steps[i];
    if (t->kind == CFP_ARRAY && !s->field && s->index >= 0 && s->index < t->length) {
      leaf += (uint64_t)s->index * t->elem->leaves;
      t = t->elem;
      continue;
    }
    if (t->kind != CFP_STRUCT || !s->field) return CFP_MANY;
    size_t k = 0;
    while (k < t->fields.len && strcmp(t->fields.items[k].name, s->field) != 0)
      leaf += t->fields.items[k++].type->leaves;
    if (k == t->fields.len) return CFP_MANY;
    t = t->fields.items[k].type;
  }
  return t->kind == CFP_STRUCT || t->kind == CFP_ARRAY ? CFP_MANY : leaf;
}
