/* core/utf8.h -- what counts as UTF-8 text (RFC 3629), for the checks of
 * labels and the text written to JSON. Borrows everything.
 */
#ifndef ATHREAD_UTF8_H
#define ATHREAD_UTF8_H

#include <stddef.h>

/* The length of the UTF-8 sequence at s (at most n bytes, n >= 1), or 0 when
 * it is not one (overlong, surrogate, above U+10FFFF or cut short). */
size_t utf8_length(const unsigned char *s, size_t n);

#endif
