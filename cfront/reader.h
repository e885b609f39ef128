/* cfront/reader.h -- what the parts of the reader share (program.c, types.c,
 * init.c, walk.c) for athread skeleton; with clang.h and translate.h one of
 * the headers of cfront/ that include libclang.
 *
 * Owns: nothing. The reader state lives while cfp_read runs; everything it
 * keeps goes into the program's arena. A CXTranslationUnit is borrowed for
 * one file at a time and disposed of by program.c.
 */
#ifndef ATHREAD_CFRONT_READER_H
#define ATHREAD_CFRONT_READER_H

#include <clang-c/Index.h>

#include "../core/symtab.h"
#include "clang.h"
#include "program.h"

/* A write list entry before calls are expanded (see cfp_program.early). */
typedef struct cfp_raw_early {
  cfp_early early;    /* a write, when callee is NULL */
  const char *callee; /* else: everything this function writes, transitively */
  int lock_op;        /* a late access: cfp_late.lock_op */
  bool pointer;       /* a late statement's call through a pointer (cfp_late.unknown; early unused) */
  bool ordered;       /* cfp_late.ordered */
  bool forget;        /* cfp_late.forget (with a callee: only when the callee has a body) */
} cfp_raw_early;

typedef VEC(cfp_raw_early) cfp_raw_list;

/* The writes of one function before its first thread creation, and its
 * accesses while its threads may run (early.where, with value unused). */
typedef struct cfp_early_list {
  const char *function;      /* interned */
  cfp_raw_list writes;  /* in order */
  cfp_raw_list late;    /* in order */
} cfp_early_list;

typedef struct cfp_reader {
  cfp_program *p;            /* what is being built */
  diag_sink *sink;           /* borrowed */
  CXTranslationUnit tu;      /* the file being read */
  symtab globals;            /* interned name -> index in p->globals */
  symtab functions;          /* interned name -> index in p->functions */
  symtab types;              /* interned spelling -> index in type_memo */
  VEC(cfp_type *) type_memo; /* types built so far (heap vector) */
  VEC(cfp_early_list) early; /* per function that starts threads (heap vector) */
} cfp_reader;

/* ---------------------------------------------------------------- program.c */

/* Interns s (and disposes of it). Returns arena-owned text. */
const char *cfp_intern(cfp_reader *r, CXString s);
/* The file (as given to clang) and line where c's expansion starts. */
void cfp_where(cfp_reader *r, CXCursor c, const char **file, unsigned *line);
/* The span of c in the file where its expansion starts. */
cfp_span cfp_span_of(cfp_reader *r, CXCursor c);
/* The span of c's name (a declaration's location, the name's length). */
cfp_span cfp_name_span(cfp_reader *r, CXCursor c, const char *name);
/* Evaluates c as an integer constant. */
cfp_value cfp_eval(CXCursor c);
/* The index of the file-scope variable decl in p->globals (added when new),
 * or -1 when it is not a shared global (a local, a system header's). */
int cfp_global_of(cfp_reader *r, CXCursor decl);

/* ---------------------------------------------------------------- types.c */

/* The type t as the program records it (memoized by spelling). Arena-owned. */
cfp_type *cfp_type_of(cfp_reader *r, CXType t);
/* The field name of the anonymous struct or union declared by record (see
 * cfp_is_anonymous). Arena-owned. */
const char *cfp_anonymous_name(cfp_reader *r, CXCursor record);
/* True when calls to name take a lock's address to initialize it. */
bool cfp_is_lock_init(const char *name);

/* ---------------------------------------------------------------- init.c */

/* Records the slots that initializer init sets in g. */
void cfp_read_initializer(cfp_reader *r, cfp_global *g, CXCursor init);

/* ---------------------------------------------------------------- walk.c */

/* Reads the body of function definition fn: its accesses and calls, its
 * thread creation sites and, when it has some, its early writes. */
void cfp_walk_function(cfp_reader *r, CXCursor fn);

#endif
