/* conformance/cfront.c -- the C front end's entry points: preprocess and
 * parse every file into one unit. Lowering is in cfront-lower.c and
 * cfront-expr.c. */
#include "cfront.h"

#include <stdlib.h>
#include <string.h>

#include "c-ast.h"
#include "c-lexer.h"
#include "c-parser.h"

/* ---------------------------------------------------------------- parsing */

/* Loads a file named on the command line (reporting a missing one in our
 * own words before cpp would); false when it cannot be read. */
static bool load_main_file(cfe_unit *u, const char *path) {
  const char *name = arena_intern_cstr(u->arena, path);
  vec_foreach(&u->files, i)
    if (u->files.items[i].name == name) return u->files.items[i].src != NULL;
  diag_source *src = diag_source_load(u->sink, path);
  if (!src) return false;
  cfe_file f = {.name = name, .src = src};
  vec_push(u->arena, &u->files, f);
  return true;
}

/* Parses preprocessed text; its tokens belong to file (line 1) until the
 * first line marker, or to no file when file is -1. */
static void parse_text(cfe_unit *u, const char *text, size_t len, int file) {
  cfe_ctx ctx = {
      .unit = u, .file = file, .line = file >= 0, .last = {file, {0, 0}}, .prev = {file, {0, 0}}, .sys_scalar = true};
  vec_foreach(&u->files, i) u->files.items[i].cursor = 0;
  yyscan_t scanner;
  cfe_yylex_init_extra(&ctx, &scanner);
  cfe_yy_scan_bytes(text ? text : "", (int)len, scanner);
  int before = u->sink->errors;
  if (cfe_yyparse(scanner, &ctx) != 0 && u->sink->errors == before) cfe_error(u, ctx.last, "cannot parse this file");
  cfe_yylex_destroy(scanner);
}

static cfe_unit *unit_new(diag_sink *sink) {
  arena *a = arena_new();
  cfe_unit *u = arena_alloc(a, sizeof *u);
  u->arena = a;
  u->sink = sink;
  return u;
}

/* u, or NULL after freeing it when errors were reported since before. */
static cfe_unit *unit_result(cfe_unit *u, int before) {
  if (u->sink->errors == before) return u;
  cfe_free(u);
  return NULL;
}

cfe_unit *cfe_parse(diag_sink *sink, const char *const *files, size_t file_count, const cfe_options *o) {
  cfe_unit *u = unit_new(sink);
  u->widths = o->widths;
  int before = sink->errors;
  for (size_t i = 0; i < file_count; i++) {
    strbuf text = {0};
    if (load_main_file(u, files[i]) && cfe_preprocess(sink, files[i], o, &text)) parse_text(u, text.text, text.len, -1);
    sbuf_free(&text);
  }
  return unit_result(u, before);
}

cfe_unit *cfe_parse_text(diag_sink *sink, const char *name, const char *text, size_t len) {
  cfe_unit *u = unit_new(sink);
  int before = sink->errors;
  diag_source *src = diag_source_from_string(sink, name, text, len);
  cfe_file f = {.name = arena_intern_cstr(u->arena, name), .src = src};
  vec_push(u->arena, &u->files, f);
  const char *nul = memchr(src->text, '\0', src->len);
  if (nul)
    diag_error(src, (loc){(uint32_t)(nul - src->text), (uint32_t)(nul - src->text) + 1},
               "NUL byte in input (is this a binary file?)");
  else parse_text(u, src->text, src->len, 0);
  return unit_result(u, before);
}

void cfe_free(cfe_unit *u) {
  if (!u) return;
  vec_foreach(&u->files, i) diag_source_free(u->files.items[i].src);
  symtab_free(&u->names);
  symtab_free(&u->tags);
  arena_free(u->arena);
}

bool cfe_has_function(const cfe_unit *u, const char *name) {
  vec_foreach(&u->funcs, i)
    if (u->funcs.items[i]->body && strcmp(u->funcs.items[i]->name, name) == 0) return true;
  return false;
}
