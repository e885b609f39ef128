/* infer/infer.h -- athread infer: a spec drafted from a C program with no
 * spec. athread skeleton gives the threads, the shared variables and the
 * system; each thread's machine is drafted from its code (draft.h).
 *
 * Borrows the sink, the files and the options; the text goes to a
 * caller-owned strbuf.
 */
#ifndef ATHREAD_INFER_H
#define ATHREAD_INFER_H

#include <stdbool.h>
#include <stddef.h>

#include "../core/diag.h"
#include "../conformance/atomicity.h"
#include "../core/strbuf.h"

typedef struct infer_options {
  const char *const *cpp_flags; /* -I, -D, -U flags for clang (borrowed) */
  size_t cpp_flag_count;        /* entries in cpp_flags */
  const char *include_dir;      /* athread's include/ directory, or NULL */
  const char *spec_path;        /* the user's spec to draft in, or NULL for skeleton's draft */
  bool all;                     /* draft every thread that names its function, not only those of one state */
  conform_atomicity atomicity;  /* the steps the draft is for (athread check's --atomicity) */
} infer_options;

/* Appends the drafted spec of the program in files to out, in the
 * canonical layout: the threads that name their C function and whose
 * machine is one state without edges get one drafted from the code (all
 * such threads with o->all); the rest of the spec stays. False after reporting errors (clang's, a program that
 * starts no thread, code the C front end does not take) through sink, out
 * untouched. */
bool infer_spec(diag_sink *sink, const char *const *files, size_t file_count, const infer_options *o, strbuf *out);

#endif
