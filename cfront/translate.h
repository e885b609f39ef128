/* cfront/translate.h -- what the parts of the translator from libclang's
 * cursors to the syntax tree of c-ast.h share (translate.c: files,
 * locations, types and declarations; translate-expr.c: expressions;
 * translate-stmt.c: statements).
 *
 * Owns: nothing beyond one translation unit's scratch state (heap vectors,
 * freed by cft_unit). Everything it builds goes into the unit's arena. The
 * CXTranslationUnit is borrowed from cfront.c for one file.
 */
#ifndef ATHREAD_CFRONT_TRANSLATE_H
#define ATHREAD_CFRONT_TRANSLATE_H

#include <clang-c/Index.h>

#include "c-ast.h"
#include "clang.h"

/* A use of a macro in a user's file. */
typedef struct cft_use {
  int file;         /* unit file */
  loc at;           /* the whole use, "INC(x)" */
  const char *name; /* interned */
  CXCursor cursor;  /* its MacroExpansion cursor */
  int macro;        /* 1 + its index in unit->macros once an error may need it, else 0 */
} cft_use;

/* A file clang read, as a unit file. */
typedef struct cft_file {
  CXFile file; /* clang's handle, valid while the translation unit lives */
  int index;   /* into unit->files */
} cft_file;

/* A struct declaration already translated. */
typedef struct cft_record {
  CXCursor decl;     /* its canonical declaration */
  cfe_record *record; /* arena-owned */
} cft_record;

typedef struct cft {
  cfe_unit *u;                 /* what is built */
  CXTranslationUnit tu;        /* the file being read */
  VEC(cft_file) files;         /* clang's files seen (heap) */
  VEC(cft_use) uses;           /* macro uses in users' files, in file order per file (heap) */
  VEC(cft_record) records;     /* structs translated (heap) */
  const uint32_t *stars;       /* offsets of the '*' of "if (*)", "while (*)" in the main file, ascending */
  size_t star_count;           /* entries in stars */
  int main_file;               /* unit file of the file given to clang, -1 until seen */
  int depth;                   /* expression nesting while translating */
} cft;

/* ---------------------------------------------------------------- translate.c */

/* Reads the file-scope declarations of tu into t->u. */
void cft_unit(cft *t);
/* The span of c (macro-expanded code at the macro's use). */
cfe_pos cft_pos(cft *t, CXCursor c);
/* The span of a range. */
cfe_pos cft_range(cft *t, CXSourceRange r);
/* The point where c's location is (a name's first byte). */
cfe_pos cft_point(cft *t, CXCursor c);
/* A name's span: from c's location, as long as the name. */
cfe_pos cft_name_pos(cft *t, CXCursor c, const char *name);
/* From a's start to b's start, without the blanks before b. */
cfe_pos cft_until(cft *t, cfe_pos a, cfe_pos b);
/* The type of c's value (or of a declaration) as the tree holds it; at says
 * where a problem with it is reported. */
cfe_type cft_type(cft *t, CXType type, cfe_pos at);
/* Interns s (and disposes of it). */
const char *cft_intern(cft *t, CXString s);
/* The index in t->uses of the macro used just before pos (only blanks between), or -1. */
long cft_use_before(cft *t, cfe_pos pos);
/* Whether c is in a system header. */
bool cft_system(CXCursor c);
/* The entity of a name declared in a system header or built in (ENT_SYSTEM unless the code declares it). */
void cft_system_name(cft *t, const char *name);

/* ---------------------------------------------------------------- translate-expr.c */

/* The expression at c (never NULL: an unsupported one is a CE_BAD node). */
cfe_expr *cft_expr(cft *t, CXCursor c);
/* Nodes made by the statement translator. */
cfe_expr *cft_call_named(cft *t, cfe_pos at, const char *name, cfe_pos name_at, cfe_expr *arg);
cfe_expr *cft_not(cft *t, cfe_expr *e);
/* True when c (stripped) calls the C library's assertion failure (__assert_fail, __assert). */
bool cft_is_assert_fail(CXCursor c);

/* ---------------------------------------------------------------- translate-stmt.c */

/* The statement at c. */
cfe_stmt *cft_stmt(cft *t, CXCursor c);
/* A declaration (a VarDecl of a DeclStmt or a parameter). */
cfe_decl *cft_decl(cft *t, CXCursor c, bool with_init);

#endif
