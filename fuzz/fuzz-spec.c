/* fuzz/fuzz-spec.c -- libFuzzer harness for the .athread front end: the
 * input is a spec; it is parsed, checked (with warnings) and formatted; the
 * formatted text must parse again to the same AST (ast_dump) and format to
 * itself, as tests/roundtrip.c asks of every spec we have; a spec that
 * checks is drawn (DOT, whose bytes XML must take).
 * Inputs with a NUL byte are skipped (diag_source_load rejects them). Every
 * diagnostic goes to /dev/null; everything is freed, so LeakSanitizer
 * sees any leak. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../spec-lang/fmt.h"
#include "../spec-lang/spec.h"
#include "../viz/viz.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *quiet; /* the sink's stream, opened once */

/* Reports a broken round trip through fmt and aborts. */
static void fail(const char *what, const strbuf *text, const strbuf *again) {
  fprintf(stderr, "fuzz-spec: %s:\n%s\n", what, sbuf_str(text));
  if (again) fprintf(stderr, "---- formatted again:\n%s\n", sbuf_str(again));
  abort();
}

/* The diagram of a checked spec, as DOT (no layout). */
static void draw(diag_sink *sink, const ast_spec *spec) {
  viz_options o = {.idle = true, .spec_name = "fuzz.athread"};
  char *out = NULL;
  size_t len = 0;
  if (viz_render(sink, spec, &o, VIZ_DOT, &out, &len) == VIZ_DONE) fuzz_check_dot(out, len);
  free(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!quiet) quiet = fopen("/dev/null", "w");
  if (memchr(data, '\0', size)) return 0; /* diag_source_load rejects these files; the parser never sees them */
  diag_sink sink = {.out = quiet, .max_errors = 20};
  ast_spec *spec = spec_parse_source(diag_source_from_string(&sink, "fuzz.athread", (const char *)data, size));
  if (sink.errors == 0) {
    strbuf text = {0}, dump = {0};
    fmt_spec(&text, spec);
    ast_dump(&dump, spec);
    spec_options opts = {.warnings = true};
    if (spec_check(spec, &opts)) draw(&sink, spec);
    diag_sink again = {.out = quiet};
    ast_spec *formatted =
        spec_parse_source(diag_source_from_string(&again, "formatted.athread", sbuf_str(&text), text.len));
    if (again.errors != 0) fail("the formatted text does not parse", &text, NULL);
    strbuf dump2 = {0}, text2 = {0};
    ast_dump(&dump2, formatted);
    fmt_spec(&text2, formatted);
    if (strcmp(sbuf_str(&dump), sbuf_str(&dump2)) != 0) fail("the formatted text has a different AST", &text, NULL);
    if (strcmp(sbuf_str(&text), sbuf_str(&text2)) != 0) fail("fmt is not idempotent", &text, &text2);
    spec_free(formatted);
    sbuf_free(&text);
    sbuf_free(&text2);
    sbuf_free(&dump);
    sbuf_free(&dump2);
  }
  spec_free(spec);
  return 0;
}
