/* cfront/clang.c -- clang's command line and clang's errors, for both
 * readers of C (see clang.h). */
#include "clang.h"

#include <pthread.h>
#include <stdlib.h>

#include "../core/arena.h"

#ifndef CFRONT_CLANG_INCLUDE
#define CFRONT_CLANG_INCLUDE "/usr/lib/llvm-19/lib/clang/19/include"
#endif

/* The command line: clang's own headers (stddef.h, stdbool.h) as system
 * headers; for conform athread's include/ as a system directory searched
 * before the C library's (its assert.h wins, and clang's notes about its
 * declarations stay out of the user's way), for skeleton after everything;
 * the user's flags. Heap array of borrowed strings. */
static const char **clang_args(const cfc_setup *s, int *n) {
  const char **args = xcalloc(s->flag_count + 8, sizeof *args);
  args[(*n)++] = "-isystem";
  args[(*n)++] = CFRONT_CLANG_INCLUDE;
  if (s->athread) args[(*n)++] = "-D__ATHREAD__";
  if (s->athread && s->include_dir) args[(*n)++] = "-isystem", args[(*n)++] = s->include_dir;
  for (size_t i = 0; i < s->flag_count; i++) args[(*n)++] = s->flags[i];
  if (!s->athread && s->include_dir) args[(*n)++] = "-idirafter", args[(*n)++] = s->include_dir;
  return args;
}

/* clang's parser recurses once per level of an expression (a sum of 100,000
 * terms), and libclang runs it on a thread of its own with 8 MB of stack,
 * where such a file ends the process. So the parse runs on a thread of ours
 * with a large stack (reserved, not committed), and LIBCLANG_NOTHREADS keeps
 * libclang on it. */
#define PARSE_STACK ((size_t)1 << 30)

typedef struct parse_job {
  CXIndex index;
  const char *path;
  const char **args;
  int n;
  const cfc_setup *s;
  unsigned options;
  CXTranslationUnit tu;
  enum CXErrorCode e;
} parse_job;

static void *parse_on_thread(void *data) {
  parse_job *j = data;
  j->e = clang_parseTranslationUnit2(j->index, j->path, j->args, j->n, j->s->unsaved, j->s->unsaved_count, j->options,
                                     &j->tu);
  return NULL;
}

/* Runs the job on a thread with PARSE_STACK of stack (on the caller's when one cannot be made). */
static void run_parse(parse_job *j) {
  pthread_attr_t attr;
  pthread_t t;
  setenv("LIBCLANG_NOTHREADS", "1", 1);
  bool made = pthread_attr_init(&attr) == 0 && pthread_attr_setstacksize(&attr, PARSE_STACK) == 0 &&
              pthread_create(&t, &attr, parse_on_thread, j) == 0;
  pthread_attr_destroy(&attr);
  if (made) pthread_join(t, NULL);
  else parse_on_thread(j);
}

CXTranslationUnit cfc_parse(diag_sink *sink, CXIndex index, const char *path, const cfc_setup *s) {
  parse_job j = {.index = index, .path = path, .s = s};
  j.args = clang_args(s, &j.n);
  j.options = s->macros ? CXTranslationUnit_DetailedPreprocessingRecord : CXTranslationUnit_None;
  run_parse(&j);
  free(j.args);
  CXTranslationUnit tu = j.tu;
  enum CXErrorCode e = j.e;
  if (e == CXError_Success && tu) return tu;
  diag_error_at(sink, path, "libclang could not parse the file (error code %d)", (int)e);
  return NULL;
}

unsigned cfc_errors(CXTranslationUnit tu, cfc_report_fn report, void *ctx) {
  unsigned errors = 0;
  for (unsigned i = 0, n = clang_getNumDiagnostics(tu); i < n; i++) {
    CXDiagnostic d = clang_getDiagnostic(tu, i);
    if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error) {
      report(ctx, d);
      errors++;
    }
    clang_disposeDiagnostic(d);
  }
  return errors;
}

typedef struct kids {
  CXCursor *out; /* where the first max go (may be NULL when max is 0) */
  size_t max;    /* room in out */
  size_t n;      /* children seen */
} kids;

static enum CXChildVisitResult add_kid(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  kids *k = data;
  if (k->n < k->max) k->out[k->n] = c;
  k->n++;
  return CXChildVisit_Continue;
}

size_t cfc_children(CXCursor c, CXCursor *out, size_t max) {
  kids k = {out, max, 0};
  clang_visitChildren(c, add_kid, &k);
  return k.n;
}

CXCursor cfc_strip(CXCursor c) {
  for (int level = 0; level < 64; level++) {
    enum CXCursorKind kind = clang_getCursorKind(c);
    CXCursor kid;
    if ((kind != CXCursor_UnexposedExpr && kind != CXCursor_ParenExpr) || cfc_children(c, &kid, 1) != 1) break;
    c = kid;
  }
  return c;
}
