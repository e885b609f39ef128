/* core/linediff.h -- a unified diff of two texts, line by line, as
 * `diff -u` prints it (three lines of context), for fmt --diff.
 *
 * The lines common to both ends are set aside first; the rest is matched
 * by a longest common subsequence when it is small enough (at most
 * LINEDIFF_MAX_CELLS line pairs), else shown as replaced whole, which is
 * still a correct diff, only a longer one. Borrows everything.
 */
#ifndef ATHREAD_LINEDIFF_H
#define ATHREAD_LINEDIFF_H

#include <stddef.h>

#include "strbuf.h"

#define LINEDIFF_MAX_CELLS (16u << 20)

/* Appends to out the diff from old (named old_name in the "---" line) to
 * new (new_name, "+++"); nothing when the texts are equal. A last line
 * without a newline is marked "\ No newline at end of file". */
void linediff_unified(strbuf *out, const char *old, size_t old_len, const char *old_name, const char *new,
                      size_t new_len, const char *new_name);

#endif
