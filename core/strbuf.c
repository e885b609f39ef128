/* core/strbuf.c -- growable heap strings. */
#include "strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"

static void reserve(strbuf *b, size_t extra) {
  if (b->len + extra + 1 <= b->cap) return;
  size_t cap = b->cap ? b->cap : 64;
  while (cap < b->len + extra + 1) cap *= 2;
  b->text = xrealloc(b->text, cap);
  b->cap = cap;
}

void sbuf_putn(strbuf *b, const char *s, size_t n) {
  reserve(b, n);
  memcpy(b->text + b->len, s, n);
  b->len += n;
  b->text[b->len] = '\0';
}

void sbuf_truncate(strbuf *b, size_t len) {
  if (b->text) b->text[len] = '\0';
  b->len = len;
}

void sbuf_puts(strbuf *b, const char *s) { sbuf_putn(b, s, strlen(s)); }

void sbuf_putc(strbuf *b, char c) { sbuf_putn(b, &c, 1); }

/* Appends the formatted text (ap is used up). */
static void vappend(strbuf *b, const char *fmt, va_list ap) {
  va_list again;
  va_copy(again, ap);
  int n = vsnprintf(NULL, 0, fmt, ap);
  reserve(b, (size_t)n);
  vsnprintf(b->text + b->len, (size_t)n + 1, fmt, again);
  va_end(again);
  b->len += (size_t)n;
}

void sbuf_printf(strbuf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vappend(b, fmt, ap);
  va_end(ap);
}

void sbuf_line(strbuf *b, int indent, const char *fmt, ...) {
  va_list ap;
  for (int i = 0; i < indent; i++) sbuf_putc(b, ' ');
  va_start(ap, fmt);
  vappend(b, fmt, ap);
  va_end(ap);
  sbuf_putc(b, '\n');
}

const char *sbuf_str(const strbuf *b) { return b->text ? b->text : ""; }

char *sbuf_take(strbuf *b) {
  char *s = b->text ? b->text : xstrdup("");
  b->text = NULL;
  b->len = b->cap = 0;
  return s;
}

void sbuf_free(strbuf *b) {
  free(b->text);
  b->text = NULL;
  b->len = b->cap = 0;
}
