/* cfront/clang.h -- parsing C with libclang: the one place where both
 * readers (program.c for athread skeleton, cfront.c for athread conform) set
 * up clang's command line and collect clang's own errors.
 *
 * Owns nothing: the translation unit cfc_parse returns is the caller's
 * (dispose of it with clang_disposeTranslationUnit). Borrows the sink, the
 * index and the setup.
 */
#ifndef ATHREAD_CFRONT_CLANG_H
#define ATHREAD_CFRONT_CLANG_H

#include <clang-c/Index.h>
#include <stdbool.h>
#include <stddef.h>

#include "../core/diag.h"

typedef struct cfc_setup {
  const char *const *flags;       /* the user's -I, -D, -U flags (borrowed) */
  size_t flag_count;              /* entries in flags */
  const char *include_dir;        /* athread's include/ (athread.h, assert.h), or NULL */
  bool athread;                   /* conform: include_dir before the C library's headers and __ATHREAD__
                                     defined, so that athread's assert.h hides the C library's; else
                                     include_dir last */
  bool macros;                    /* keep the preprocessing record (macro expansions and their names) */
  struct CXUnsavedFile *unsaved;  /* contents that replace files on disk (borrowed), or NULL */
  unsigned unsaved_count;         /* entries in unsaved */
} cfc_setup;

/* Parses path (a file on disk, or one of s->unsaved). Returns NULL after
 * reporting to sink why libclang could not; a file with errors still gives a
 * translation unit (see cfc_errors). */
CXTranslationUnit cfc_parse(diag_sink *sink, CXIndex index, const char *path, const cfc_setup *s);

/* Calls report for each error and fatal error clang found in tu, in order;
 * returns how many there were. */
typedef void (*cfc_report_fn)(void *ctx, CXDiagnostic d);
unsigned cfc_errors(CXTranslationUnit tu, cfc_report_fn report, void *ctx);

/* The number of children of c; the first max of them are put into out. */
size_t cfc_children(CXCursor c, CXCursor *out, size_t max);
/* c without the parentheses and implicit conversions (UnexposedExpr) around it. */
CXCursor cfc_strip(CXCursor c);

#endif
