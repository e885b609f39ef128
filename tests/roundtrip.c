/* tests/roundtrip.c -- for every spec named on the command line that parses:
 * parse -> fmt -> parse must give the same AST (compared through ast_dump),
 * and fmt must be idempotent. Prints one line per failure and a summary. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../spec-lang/fmt.h"
#include "../spec-lang/spec.h"

typedef struct parsed {
  ast_spec *spec; /* NULL when the text has syntax errors */
  strbuf dump;    /* ast_dump of it */
  strbuf text;    /* fmt of it */
} parsed;

static parsed parse_text(diag_sink *sink, const char *name, const char *text, size_t len) {
  parsed p = {0};
  int before = sink->errors;
  p.spec = spec_parse_source(diag_source_from_string(sink, name, text, len));
  if (sink->errors != before) {
    spec_free(p.spec);
    p.spec = NULL;
    return p;
  }
  ast_dump(&p.dump, p.spec);
  fmt_spec(&p.text, p.spec);
  return p;
}

static void parsed_free(parsed *p) {
  spec_free(p->spec);
  sbuf_free(&p->dump);
  sbuf_free(&p->text);
}

/* Returns NULL when the file round-trips, else what went wrong. */
static const char *round_trip(diag_sink *sink, diag_source *src, bool *skipped) {
  parsed first = parse_text(sink, src->name, src->text, src->len);
  const char *problem = NULL;
  *skipped = first.spec == NULL;
  if (first.spec) {
    parsed second = parse_text(sink, "(formatted)", sbuf_str(&first.text), first.text.len);
    if (!second.spec) problem = "the formatted text does not parse";
    else if (strcmp(sbuf_str(&first.dump), sbuf_str(&second.dump)) != 0)
      problem = "the formatted text has a different AST";
    else if (strcmp(sbuf_str(&first.text), sbuf_str(&second.text)) != 0) problem = "fmt is not idempotent";
    parsed_free(&second);
  }
  parsed_free(&first);
  return problem;
}

int main(int argc, char **argv) {
  FILE *quiet = fopen("/dev/null", "w");
  diag_sink sink = {.out = quiet};
  int passed = 0, failed = 0, skipped = 0;
  for (int i = 1; i < argc; i++) {
    diag_source *src = diag_source_load(&sink, argv[i]);
    if (!src) {
      skipped++;
      continue;
    }
    bool skip = false;
    const char *problem = round_trip(&sink, src, &skip);
    diag_source_free(src);
    if (skip) skipped++;
    else if (problem) failed++, printf("FAIL: %s: %s\n", argv[i], problem);
    else passed++;
  }
  fclose(quiet);
  printf("roundtrip: %d passed, %d failed (%d files with syntax errors skipped)\n", passed, failed, skipped);
  return failed ? 1 : 0;
}
