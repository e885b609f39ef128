/* fuzz/fuzz-trace.c -- libFuzzer harness for the counterexample reader of
 * athread viz: the input is the JSON of a trace (compose --trace-out or
 * conform --json), read with viz_trace_parse against the fixed spec
 * examples/bluetooth/bluetooth.athread; a trace that fits is overlaid on the
 * drawing (DOT: no layout, but every byte must be one XML takes). Every diagnostic goes to /dev/null; everything
 * is freed, so LeakSanitizer sees any leak. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../spec-lang/spec.h"
#include "../viz/viz.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char spec_text[] =
#include "fuzz-trace-spec.inc"
    ;

static FILE *quiet;    /* the sink's stream, opened once */
static ast_spec *spec; /* checked once, kept for the whole run */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!spec) spec = fuzz_load_spec("bluetooth.athread", spec_text, &quiet);
  diag_sink sink = {.out = quiet, .max_errors = 20};
  viz_trace *t = viz_trace_parse(&sink, "fuzz.json", (const char *)data, size, spec);
  if (!t) return 0;
  viz_options o = {.trace = t, .spec_name = "bluetooth.athread"};
  char *out = NULL;
  size_t len = 0;
  if (viz_render(&sink, spec, &o, VIZ_DOT, &out, &len) == VIZ_DONE) fuzz_check_dot(out, len);
  free(out);
  viz_trace_free(t);
  return 0;
}
