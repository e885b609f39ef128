/* core/json-text.c -- JSON strings from any bytes. */
#include "json-text.h"

#include <stddef.h>

#include "strbuf.h"

/* The length of the valid UTF-8 sequence at s (RFC 3629: no overlong forms,
 * no surrogates, nothing above U+10FFFF), or 0 when none starts there. */
static size_t utf8_sequence(const unsigned char *s) {
  if (s[0] < 0x80) return 1;
  size_t n = s[0] >= 0xC2 && s[0] <= 0xDF ? 2 : s[0] >= 0xE0 && s[0] <= 0xEF ? 3 : s[0] >= 0xF0 && s[0] <= 0xF4 ? 4 : 0;
  unsigned char lo = 0x80, hi = 0xBF; /* the range of the second byte */
  if (s[0] == 0xE0) lo = 0xA0;
  if (s[0] == 0xED) hi = 0x9F;
  if (s[0] == 0xF0) lo = 0x90;
  if (s[0] == 0xF4) hi = 0x8F;
  if (n == 0 || s[1] < lo || s[1] > hi) return 0;
  for (size_t i = 2; i < n; i++)
    if ((s[i] & 0xC0) != 0x80) return 0;
  return n;
}

json_t *json_text(const char *s) {
  json_t *j = json_string(s);
  if (j) return j;
  strbuf b = {0};
  for (const unsigned char *p = (const unsigned char *)s; *p;) {
    size_t n = utf8_sequence(p);
    if (n) sbuf_putn(&b, (const char *)p, n);
    else sbuf_puts(&b, "\xEF\xBF\xBD"); /* U+FFFD REPLACEMENT CHARACTER */
    p += n ? n : 1;
  }
  j = json_string(sbuf_str(&b));
  sbuf_free(&b);
  return j;
}
