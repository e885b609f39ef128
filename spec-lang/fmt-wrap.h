/* spec-lang/fmt-wrap.h -- breaking one long item of a spec over several
 * lines, for fmt.
 *
 * The item is printed on one line first, with the places where a line may
 * break: each is a space of the text (it becomes the line break) and a
 * level, 0 before a clause ("when", "do", ":", "assert") and 1 + the
 * bracket depth before a "&&" or "||" or after the comma of an assignment.
 * A line that fits in FMT_WIDTH columns stays whole; one that does not is
 * broken at the last places of the lowest level that keep each piece within
 * the width (greedily), and each piece still too long is broken in turn at
 * the next level. Layout depends on the text alone, so formatting the
 * output again gives the same output. Borrows everything.
 */
#ifndef ATHREAD_FMT_WRAP_H
#define ATHREAD_FMT_WRAP_H

#include <stddef.h>

#include "../core/strbuf.h"

#define FMT_WIDTH 100 /* columns, the indentation included */

typedef struct fmt_break {
  size_t at; /* offset of the space that becomes the line break */
  int level; /* 0: a clause; 1 + bracket depth: an operator or a comma */
} fmt_break;

/* The number of characters (UTF-8 code points) of text[0, len). */
size_t fmt_display_width(const char *text, size_t len);

/* Appends text[0, len), one item that starts at column col, to out, breaking
 * it where it is wider than FMT_WIDTH at some of breaks (sorted by at);
 * a continuation line is indented col + 4 columns, 2 more per bracket level. */
void fmt_wrap(strbuf *out, const char *text, size_t len, size_t col, const fmt_break *breaks, size_t count);

#endif
