/* core/strbuf.h -- a growable heap string for building output text.
 *
 * Owns its buffer; the owner calls sbuf_free, or takes the text with
 * sbuf_take (returns owned, free with free()). The text is always
 * NUL-terminated; a zeroed strbuf is a valid empty one.
 */
#ifndef ATHREAD_STRBUF_H
#define ATHREAD_STRBUF_H

#include <stddef.h>

typedef struct strbuf {
  char *text; /* NUL-terminated contents, NULL while empty */
  size_t len; /* bytes before the NUL */
  size_t cap; /* allocated bytes */
} strbuf;

void sbuf_putn(strbuf *b, const char *s, size_t n);
void sbuf_puts(strbuf *b, const char *s);
void sbuf_putc(strbuf *b, char c);
void sbuf_printf(strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Appends one line: indent spaces, the formatted text, a newline. */
void sbuf_line(strbuf *b, int indent, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Drops the text after the first len bytes (len <= b->len). */
void sbuf_truncate(strbuf *b, size_t len);
/* Returns the contents ("" if empty); valid until the next change. */
const char *sbuf_str(const strbuf *b);
/* Returns owned text, free with free(); the buffer is left empty. */
char *sbuf_take(strbuf *b);
void sbuf_free(strbuf *b);

#endif
