/* tests/unit/spec-text.c -- specs from text for the unit tests (unit.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../spec-lang/spec.h"
#include "unit.h"

ast_spec *unit_spec_load(const char *text, spec_options *opts, int *errors) {
  static FILE *quiet;
  if (!quiet) quiet = fopen("/dev/null", "w");
  diag_sink *sink = calloc(1, sizeof *sink); /* lives as long as the spec: freed in unit_spec_free */
  sink->out = quiet;
  ast_spec *spec = spec_parse_source(diag_source_from_string(sink, "t.athread", text, strlen(text)));
  bool ok = sink->errors == 0 && spec_check(spec, opts);
  if (errors) *errors = sink->errors;
  if (ok) return spec;
  spec_free(spec);
  free(sink);
  return NULL;
}

void unit_spec_free(ast_spec *spec) {
  diag_sink *sink = spec->src->sink;
  spec_free(spec);
  free(sink);
}
