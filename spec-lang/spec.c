/* spec-lang/spec.c -- the front end's entry points: read, parse, check. */
#include "spec.h"

#include "spec-parser.h"
#include "spec-lexer.h"

static void check_depth(ir_expr *e, void *src) {
  if (e->depth > IR_MAX_DEPTH)
    diag_error(src, e->at, "this expression is nested %u levels deep; the limit is %d", e->depth, IR_MAX_DEPTH);
}

ast_spec *spec_parse_source(diag_source *src) {
  ast_spec *spec = ast_spec_new(src);
  parse_ctx ctx = {.spec = spec};
  yyscan_t scanner;
  sl_lex_init_extra(&ctx, &scanner);
  sl__scan_bytes(src->text, (int)src->len, scanner);
  int before = src->sink->errors;
  if (sl_parse(scanner, &ctx) != 0 && src->sink->errors == before)
    diag_error(src, (loc){(uint32_t)src->len, (uint32_t)src->len}, "cannot parse this file");
  sl_lex_destroy(scanner);
  ast_foreach_expr(spec, check_depth, src);
  return spec;
}

/* Parses and checks src (owned); NULL after reporting any error. */
static ast_spec *load_source(diag_sink *sink, diag_source *src, const spec_options *opts) {
  int before = sink->errors;
  ast_spec *spec = spec_parse_source(src);
  if (sink->errors == before && spec_check(spec, opts)) return spec;
  spec_free(spec);
  return NULL;
}

ast_spec *spec_load(diag_sink *sink, const char *path, const spec_options *opts) {
  diag_source *src = diag_source_load(sink, path);
  return src ? load_source(sink, src, opts) : NULL;
}

ast_spec *spec_reload(const ast_spec *spec, const spec_options *opts) {
  const diag_source *src = spec->src;
  return load_source(src->sink, diag_source_from_string(src->sink, src->name, src->text, src->len), opts);
}

void spec_free(ast_spec *spec) {
  if (!spec) return;
  diag_source_free(spec->src);
  arena_free(spec->arena);
}
