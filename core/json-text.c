/* core/json-text.c -- JSON strings from any bytes. */
#include "json-text.h"

#include <string.h>

#include "strbuf.h"
#include "utf8.h"

json_t *json_text(const char *s) {
  json_t *j = json_string(s);
  if (j) return j;
  strbuf b = {0};
  const unsigned char *end = (const unsigned char *)s + strlen(s);
  for (const unsigned char *p = (const unsigned char *)s; p < end;) {
    size_t n = utf8_length(p, (size_t)(end - p));
    if (n) sbuf_putn(&b, (const char *)p, n);
    else sbuf_puts(&b, "\xEF\xBF\xBD"); /* U+FFFD REPLACEMENT CHARACTER */
    p += n ? n : 1;
  }
  j = json_string(sbuf_str(&b));
  sbuf_free(&b);
  return j;
}
