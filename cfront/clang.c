/* cfront/clang.c -- clang's command line and clang's errors, for both
 * readers of C (see clang.h). */
#include "clang.h"

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

CXTranslationUnit cfc_parse(diag_sink *sink, CXIndex index, const char *path, const cfc_setup *s) {
  int n = 0;
  const char **args = clang_args(s, &n);
  unsigned options = s->macros ? CXTranslationUnit_DetailedPreprocessingRecord : CXTranslationUnit_None;
  CXTranslationUnit tu = NULL;
  enum CXErrorCode e = clang_parseTranslationUnit2(index, path, args, n, s->unsaved, s->unsaved_count, options, &tu);
  free(args);
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
