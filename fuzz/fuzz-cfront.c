/* fuzz/fuzz-cfront.c -- libFuzzer harness for the C front end: the input is
 * preprocessed C (cfe_parse_text: no cpp runs); every function with a body
 * (the first 8) is lowered against the fixed spec fuzz/cfront.athread, whose
 * shared variables are x, y, flag, r, g, the array a[3], and the fields f,
 * in.b and q[2] of a struct s. Every diagnostic goes to
 * /dev/null; everything is freed, so LeakSanitizer sees any leak. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cfront/c-ast.h"
#include "../cfront/cfront.h"
#include "../spec-lang/spec.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char spec_text[] =
#include "fuzz-cfront-spec.inc"
    ;

#define MAX_LOWERED 8

static FILE *quiet;    /* the sink's stream, opened once */
static ast_spec *spec; /* checked once, kept for the whole run */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!spec) spec = fuzz_load_spec("cfront.athread", spec_text, &quiet);
  diag_sink sink = {.out = quiet, .max_errors = 20};
  cfe_unit *u = cfe_parse_text(&sink, "fuzz.i", (const char *)data, size);
  if (!u) return 0;
  size_t lowered = 0;
  vec_foreach(&u->funcs, i) {
    const cfe_func *f = u->funcs.items[i];
    if (!f->body || lowered++ == MAX_LOWERED) continue;
    prog_free(cfe_lower(u, spec, f->name, CFE_INTS_C));
  }
  cfe_free(u);
  return 0;
}
