/* fuzz/fuzz.h -- what the libFuzzer harnesses share: the fixed spec a
 * harness checks its inputs against, and a check of the DOT that viz_render
 * writes. Header-only (each harness is one program). */
#ifndef ATHREAD_FUZZ_H
#define ATHREAD_FUZZ_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../spec-lang/spec.h"

/* The spec text (embedded in the harness) parsed and checked; aborts if it
 * has errors. Its diagnostics, and all later ones, go to *quiet (/dev/null).
 * Kept for the whole run. */
static inline ast_spec *fuzz_load_spec(const char *name, const char *text, FILE **quiet) {
  *quiet = fopen("/dev/null", "w");
  static diag_sink sink;
  sink.out = stderr;
  ast_spec *spec = spec_parse_source(diag_source_from_string(&sink, name, text, strlen(text)));
  if (sink.errors || !spec_check(spec, NULL)) abort();
  sink.out = *quiet;
  return spec;
}

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
