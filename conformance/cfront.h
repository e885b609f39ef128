/* conformance/cfront.h -- the C front end: preprocess and parse C files,
 * then lower one function of them (calls inlined) into a concrete program.
 *
 * Owns: the cfe_unit (its arena holds the syntax of every file; it also owns
 * the diag_sources of every file seen); free with cfe_free. Borrows: the
 * sink, the options and the spec. The programs that cfe_lower returns borrow
 * the unit's diag_sources: free the prog before the unit.
 */
#ifndef ATHREAD_CFRONT_H
#define ATHREAD_CFRONT_H

#include <stdbool.h>
#include <stddef.h>

#include "../core/diag.h"
#include "../spec-lang/ast.h"
#include "prog.h"

typedef struct cfe_options {
  const char *const *cpp_flags; /* user -I/-D/-U flags passed through to cpp, borrowed */
  size_t cpp_flag_count;
  const char *include_dir;      /* the toolkit's include/ directory (put first on the include path) */
} cfe_options;

typedef struct cfe_unit cfe_unit; /* the parsed translation units; owns the diag_sources of every file seen */

/* Preprocesses and parses every file. Returns NULL after reporting errors
 * through sink. Returns owned, free with cfe_free. */
cfe_unit *cfe_parse(diag_sink *sink, const char *const *files, size_t file_count, const cfe_options *o);
void cfe_free(cfe_unit *u);

/* True when some file defines function name (with a body). */
bool cfe_has_function(const cfe_unit *u, const char *name);

/* Lowers the function (calls inlined) into a concrete program. Returns NULL
 * after reporting errors. Returns owned, free with prog_free (the prog
 * borrows the unit's diag_sources: free the prog before the unit). */
prog *cfe_lower(cfe_unit *u, const ast_spec *spec, const char *function);

#endif
