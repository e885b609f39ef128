/* cfront/cfront.c -- the C front end's entry points: parse every file with
 * libclang (clang.c sets it up, as for athread skeleton), pass clang's own
 * errors on at their locations, and translate the declarations into one
 * unit (translate*.c). Lowering is in cfront-lower.c, cfront-expr.c and
 * cfront-access.c.
 *
 * One thing is not C: the nondeterministic condition of "if (*)" and
 * "while (*)", also through a macro whose whole body is '*' ("#define ANY
 * *", then "while (ANY)"). Before clang reads a file, each such '*' is
 * replaced by a 0 (same length, so every location stays), and the
 * translator turns the constant from that offset back into '*'. */
#include "cfront.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clang.h"
#include "translate.h"

/* ---------------------------------------------------------------- the '*' conditions */

/* Offsets of the '*' of "if (*)" and "while (*)" in a file's text (heap vector). */
typedef VEC(uint32_t) offsets;

static bool is_word(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'; }

static size_t skip_blanks(const char *s, size_t len, size_t i) {
  while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')) i++;
  return i;
}

/* The '*' of "(*)" after the keyword that ends at i, or 0. */
static size_t star_after(const char *s, size_t len, size_t i) {
  i = skip_blanks(s, len, i);
  if (i >= len || s[i] != '(') return 0;
  size_t star = skip_blanks(s, len, i + 1);
  if (star >= len || s[star] != '*') return 0;
  size_t close = skip_blanks(s, len, star + 1);
  return close < len && s[close] == ')' ? star : 0;
}

/* Skips a comment, a string or a character constant starting at i; returns where it ends, or i. */
static size_t skip_literal(const char *s, size_t len, size_t i) {
  if (s[i] == '/' && i + 1 < len && s[i + 1] == '/') {
    const char *end = memchr(s + i, '\n', len - i);
    return end ? (size_t)(end - s) : len;
  }
  if (s[i] == '/' && i + 1 < len && s[i + 1] == '*') {
    const char *end = strstr(s + i + 2, "*/");
    return end ? (size_t)(end - s) + 2 : len;
  }
  if (s[i] != '"' && s[i] != '\'') return i;
  size_t k = i + 1;
  while (k < len && s[k] != s[i] && s[k] != '\n') k += s[k] == '\\' ? 2 : 1;
  return k < len ? k + 1 : len;
}

/* The '*' of "#define NAME *" (only blanks or a comment after it) at i, or 0. */
static size_t star_macro(const char *s, size_t len, size_t i) {
  i = skip_blanks(s, len, i + 1);
  if (len - i < 6 || strncmp(s + i, "define", 6) != 0) return 0;
  i = skip_blanks(s, len, i + 6);
  size_t name = i;
  while (i < len && is_word(s[i])) i++;
  if (i == name || i >= len || (s[i] != ' ' && s[i] != '\t')) return 0;
  size_t star = skip_blanks(s, len, i);
  if (star >= len || s[star] != '*') return 0;
  size_t after = star + 1;
  while (after < len && (s[after] == ' ' || s[after] == '\t')) after++;
  bool ends = after >= len || s[after] == '\n' || s[after] == '\r' ||
              (s[after] == '/' && after + 1 < len && (s[after + 1] == '*' || s[after + 1] == '/'));
  return ends ? star : 0;
}

static void find_stars(const char *s, size_t len, offsets *out) {
  for (size_t i = 0; i < len;) {
    size_t next = skip_literal(s, len, i);
    if (next != i) {
      i = next;
      continue;
    }
    size_t star = s[i] == '#' ? star_macro(s, len, i) : 0;
    if (star) vec_push(NULL, out, (uint32_t)star);
    size_t word = 0;
    if (!(i > 0 && is_word(s[i - 1])) && strncmp(s + i, "while", 5 < len - i ? 5 : len - i) == 0) word = 5;
    else if (!(i > 0 && is_word(s[i - 1])) && len - i >= 2 && strncmp(s + i, "if", 2) == 0) word = 2;
    if (word && (i + word >= len || !is_word(s[i + word]))) {
      star = star_after(s, len, i + word);
      if (star) vec_push(NULL, out, (uint32_t)star);
    }
    i += word ? word : 1;
  }
}

/* ---------------------------------------------------------------- clang's errors */

/* The span a clang message points at: the range that starts at its
 * location, else the word (a name, a number) there. */
static cfe_pos clang_span(cft *t, CXDiagnostic d, cfe_pos at) {
  if (at.macro || at.file < 0 || !t->u->files.items[at.file].src) return at;
  for (unsigned i = 0, n = clang_getDiagnosticNumRanges(d); i < n; i++) {
    cfe_pos r = cft_range(t, clang_getDiagnosticRange(d, i));
    if (r.file == at.file && r.at.start == at.at.start && !r.macro) return r;
  }
  const diag_source *src = t->u->files.items[at.file].src;
  while (at.at.end < src->len && is_word(src->text[at.at.end])) at.at.end++;
  return at;
}

/* clang's message, at its location when that is in a user's file. */
static void clang_message(cft *t, CXDiagnostic d, bool error) {
  CXString text = clang_getDiagnosticSpelling(d);
  const char *msg = clang_getCString(text);
  CXSourceLocation l = clang_getDiagnosticLocation(d);
  cfe_pos at = clang_span(t, d, cft_range(t, clang_getRange(l, l)));
  if (at.file >= 0 && t->u->files.items[at.file].src) {
    if (error) cfe_error(t->u, at, "%s", msg);
    else cfe_note(t->u, at, "%s", msg);
  } else if (error) {
    CXFile f = NULL;
    unsigned line = 0, col = 0;
    clang_getFileLocation(l, &f, &line, &col, NULL);
    CXString name = clang_getFileName(f);
    const char *where = arena_printf(t->u->arena, "%s:%u:%u", f ? clang_getCString(name) : "athread", line, col);
    diag_error_at(t->u->sink, where, "%s", msg);
    clang_disposeString(name);
  }
  clang_disposeString(text);
}

static void report_clang(void *ctx, CXDiagnostic d) {
  cft *t = ctx;
  clang_message(t, d, true);
  CXDiagnosticSet notes = clang_getChildDiagnostics(d);
  for (unsigned i = 0, n = clang_getNumDiagnosticsInSet(notes); i < n; i++) {
    CXDiagnostic note = clang_getDiagnosticInSet(notes, i);
    if (clang_getDiagnosticSeverity(note) == CXDiagnostic_Note) clang_message(t, note, false);
    clang_disposeDiagnostic(note);
  }
}

/* ---------------------------------------------------------------- parsing */

/* Loads a file named on the command line (reporting a missing one in our
 * own words before clang would); its unit file, or -1 when it cannot be read. */
static int load_main_file(cfe_unit *u, const char *path) {
  const char *name = arena_intern_cstr(u->arena, path);
  vec_foreach(&u->files, i)
    if (u->files.items[i].name == name) return u->files.items[i].src ? (int)i : -1;
  diag_source *src = diag_source_load(u->sink, path);
  if (!src) return -1;
  cfe_file f = {.name = name, .src = src};
  vec_push(u->arena, &u->files, f);
  return (int)u->files.len - 1;
}

/* Parses the unit's file (its text, with the '*' conditions replaced) and translates it. */
static void translate_file(cfe_unit *u, CXIndex index, int file, const cfe_options *o) {
  const cfe_file *f = &u->files.items[file];
  if (f->src->len == 0) return; /* nothing to read (/dev/null) */
  offsets stars = {0};
  find_stars(f->src->text, f->src->len, &stars);
  char *text = xmalloc(f->src->len + 1);
  memcpy(text, f->src->text, f->src->len + 1);
  vec_foreach(&stars, i) text[stars.items[i]] = '0';
  struct CXUnsavedFile unsaved = {f->name, text, (unsigned long)f->src->len};
  cfc_setup setup = {.flags = o ? o->cpp_flags : NULL,
                     .flag_count = o ? o->cpp_flag_count : 0,
                     .include_dir = o ? o->include_dir : NULL,
                     .athread = true,
                     .macros = true,
                     .unsaved = &unsaved,
                     .unsaved_count = 1};
  CXTranslationUnit tu = cfc_parse(u->sink, index, f->name, &setup);
  if (tu) {
    cft t = {.u = u, .tu = tu, .stars = stars.items, .star_count = stars.len, .main_file = file};
    cft_file main = {clang_getFile(tu, f->name), file};
    if (main.file) vec_push(NULL, &t.files, main);
    if (cfc_errors(tu, report_clang, &t) == 0) cft_unit(&t);
    vec_free(&t.files);
    vec_free(&t.uses);
    vec_free(&t.records);
    clang_disposeTranslationUnit(tu);
  }
  vec_free(&stars);
  free(text);
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

/* Messages and traces name the models' files from the include directory
 * ("athread/models/pthread.h"), wherever athread is installed. */
static void shorten_model_names(cfe_unit *u, size_t from, const char *dir) {
  size_t n = strlen(dir);
  for (size_t i = from; i < u->files.len; i++) {
    diag_source *src = u->files.items[i].src;
    if (!src || strncmp(src->name, dir, n) != 0 || src->name[n] != '/') continue;
    char *shorter = xstrdup(src->name + n + 1);
    free(src->name);
    src->name = shorter;
  }
}

/* The primitive models (athread_model_NAME functions, include/athread/models/all.h). */
static void translate_models(cfe_unit *u, CXIndex index, const cfe_options *o) {
  if (!o || !o->include_dir) return;
  char *path = arena_printf(u->arena, "%s/athread/models/all.h", o->include_dir);
  if (access(path, R_OK) != 0) return; /* an install without models: calls to them are errors */
  size_t from = u->files.len;
  int file = load_main_file(u, path);
  if (file >= 0) translate_file(u, index, file, o);
  shorten_model_names(u, from, o->include_dir);
}

cfe_unit *cfe_parse(diag_sink *sink, const char *const *files, size_t file_count, const cfe_options *o) {
  cfe_unit *u = unit_new(sink);
  int before = sink->errors;
  CXIndex index = clang_createIndex(0, 0);
  translate_models(u, index, o);
  for (size_t i = 0; i < file_count; i++) {
    int file = load_main_file(u, files[i]);
    if (file >= 0) translate_file(u, index, file, o);
  }
  clang_disposeIndex(index);
  return unit_result(u, before);
}

cfe_unit *cfe_parse_text(diag_sink *sink, const char *name, const char *text, size_t len) {
  cfe_unit *u = unit_new(sink);
  int before = sink->errors;
  diag_source *src = diag_source_from_string(sink, name, text, len);
  cfe_file f = {.name = arena_intern_cstr(u->arena, name), .src = src};
  vec_push(u->arena, &u->files, f);
  const char *nul = memchr(src->text, '\0', src->len);
  if (nul) {
    diag_error(src, (loc){(uint32_t)(nul - src->text), (uint32_t)(nul - src->text) + 1},
               "NUL byte in input (is this a binary file?)");
    return unit_result(u, before);
  }
  CXIndex index = clang_createIndex(0, 0);
  translate_file(u, index, 0, NULL);
  clang_disposeIndex(index);
  return unit_result(u, before);
}

void cfe_free(cfe_unit *u) {
  if (!u) return;
  vec_foreach(&u->files, i) diag_source_free(u->files.items[i].src);
  symtab_free(&u->names);
  symtab_free(&u->tags);
  symtab_free(&u->reported);
  arena_free(u->arena);
}

bool cfe_has_function(const cfe_unit *u, const char *name) {
  vec_foreach(&u->funcs, i)
    if (u->funcs.items[i]->body && strcmp(u->funcs.items[i]->name, name) == 0) return true;
  return false;
}

const char *cfe_function_at(const cfe_unit *u, const diag_source *src, uint32_t offset) {
  vec_foreach(&u->funcs, i) {
    const cfe_stmt *body = u->funcs.items[i]->body;
    if (!body || body->at.file < 0 || u->files.items[body->at.file].src != src) continue;
    if (body->at.at.start <= offset && offset < body->at.at.end) return u->funcs.items[i]->name;
  }
  return NULL;
}
