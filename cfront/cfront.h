/* cfront/cfront.h -- the C front end of athread conform: read C files with
 * libclang, then lower one function of them (calls inlined) into a concrete
 * program.
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
#include "../conformance/prog.h"

typedef struct cfe_options {
  const char *const *cpp_flags; /* user -I/-D/-U flags passed through to clang, borrowed */
  size_t cpp_flag_count;
  const char *include_dir; /* the toolkit's include/ directory (before the C library's headers) */
} cfe_options;

/* What the code's integers are: C's (each value has its type's width and
 * signedness, unsigned arithmetic wraps, signed overflow, division by zero
 * and bad shifts are violations) or mathematical ones (the paper's
 * semantics). A type the front end does not know is mathematical in both. */
typedef enum cfe_ints { CFE_INTS_C, CFE_INTS_MATH } cfe_ints;

/* "c" or "math", as --int spells it. */
const char *cfe_ints_name(cfe_ints ints);

typedef struct cfe_unit cfe_unit; /* the parsed translation units; owns the diag_sources of every file seen */

/* Parses every file with clang (__ATHREAD__ defined), after the primitive
 * models (include_dir/athread/models/all.h, when there is one). Returns NULL
 * after reporting errors (clang's own at their locations) through sink.
 * Returns owned, free with cfe_free. */
cfe_unit *cfe_parse(diag_sink *sink, const char *const *files, size_t file_count, const cfe_options *o);
/* Parses text as the file name (clang reads it as an unsaved file: a name
 * ending in .i is preprocessed C, whose line markers clang honours for
 * system headers; any other name is C that clang preprocesses). Everything
 * is located in text itself. Returns NULL after reporting errors (a NUL byte
 * in text is one) through sink. Borrows text. Returns owned, free with
 * cfe_free. */
cfe_unit *cfe_parse_text(diag_sink *sink, const char *name, const char *text, size_t len);
void cfe_free(cfe_unit *u);

/* True when some file defines function name (with a body). */
bool cfe_has_function(const cfe_unit *u, const char *name);

/* The function whose body holds byte offset of src (one of the unit's
 * files), or NULL: the function a statement of a lowered program is in,
 * since calls are inlined. Borrows both; the name is interned. */
const char *cfe_function_at(const cfe_unit *u, const diag_source *src, uint32_t offset);

/* Lowers the function (calls inlined) into a concrete program with the
 * integers ints. Returns NULL
 * after reporting errors. Returns owned, free with prog_free (the prog
 * borrows the unit's diag_sources: free the prog before the unit). */
prog *cfe_lower(cfe_unit *u, const ast_spec *spec, const char *function, cfe_ints ints);
/* As cfe_lower, but a scalar global (int or bool) that no shared variable
 * of the spec stands for and whose initializer is a constant is the
 * function's own: a local that starts at its C initial value. Exact for a
 * main whose threads never access such a global (athread races). */
prog *cfe_lower_owning(cfe_unit *u, const ast_spec *spec, const char *function, cfe_ints ints);

#endif
