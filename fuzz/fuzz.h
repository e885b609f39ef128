/* fuzz/fuzz.h -- what the libFuzzer harnesses share: a check of the DOT that
 * viz_render writes. Header-only (each harness is one program). */
#ifndef ATHREAD_FUZZ_H
#define ATHREAD_FUZZ_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

/* Aborts when the DOT has bytes that Graphviz's XML parser of HTML labels
 * rejects at layout (which the harnesses skip: it is slow): control
 * characters other than tab and line breaks, U+FFFE and U+FFFF. */
static inline void fuzz_check_dot(const char *dot, size_t len) {
  const unsigned char *s = (const unsigned char *)dot;
  for (size_t i = 0; i < len; i++) {
    bool control = s[i] < 0x20 && s[i] != '\t' && s[i] != '\n' && s[i] != '\r';
    bool nonchar = s[i] == 0xef && i + 2 < len && s[i + 1] == 0xbf && (s[i + 2] | 1) == 0xbf;
    if (!control && !nonchar) continue;
    fprintf(stderr, "fuzz: byte %zu of the DOT (0x%02x) is not allowed in XML\n", i, s[i]);
    abort();
  }
}

#endif
