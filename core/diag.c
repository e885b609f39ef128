/* core/diag.c -- loading sources and printing located messages. */
#include "diag.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "arena.h"
#include "utf8.h"

/* ---------------------------------------------------------------- sources */

static void build_line_map(diag_source *src) {
  size_t cap = 64;
  src->line_starts = xmalloc(cap * sizeof *src->line_starts);
  src->line_starts[0] = 0;
  src->line_count = 1;
  for (size_t i = 0; i < src->len; i++) {
    if (src->text[i] != '\n') continue;
    if (src->line_count == cap) src->line_starts = xrealloc(src->line_starts, (cap *= 2) * sizeof *src->line_starts);
    src->line_starts[src->line_count++] = (uint32_t)(i + 1);
  }
}

diag_source *diag_source_from_string(diag_sink *sink, const char *name, const char *text, size_t len) {
  diag_source *src = xcalloc(1, sizeof *src);
  src->sink = sink;
  src->name = xstrdup(name);
  src->text = xmalloc(len + 1);
  memcpy(src->text, text, len);
  src->text[len] = '\0';
  src->len = len;
  build_line_map(src);
  return src;
}

static char *read_whole_file(diag_sink *sink, const char *path, size_t *len) {
  struct stat st = {0};
  bool from_stdin = strcmp(path, "-") == 0;
  FILE *f = from_stdin ? stdin : fopen(path, "rb");
  if (!f) {
    diag_error_at(sink, path, "cannot open file: %s", strerror(errno));
    return NULL;
  }
  if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
    diag_error_at(sink, path, "is a directory, not a file");
    fclose(f);
    return NULL;
  }
  /* Room for the whole file and one byte more (to see EOF), grown when the
   * size is unknown (a pipe) or the file grows: one byte past the limit is
   * enough to know it is too large. */
  size_t cap = 65536, n = 0;
  if (S_ISREG(st.st_mode) && st.st_size >= 0 && (uintmax_t)st.st_size < DIAG_MAX_SOURCE_BYTES)
    cap = (size_t)st.st_size + 1;
  char *buf = xmalloc(cap);
  for (;;) {
    n += fread(buf + n, 1, cap - n, f);
    if (n < cap || cap > DIAG_MAX_SOURCE_BYTES || ferror(f)) break;
    cap = cap > DIAG_MAX_SOURCE_BYTES / 2 ? DIAG_MAX_SOURCE_BYTES + 1 : cap * 2;
    buf = xrealloc(buf, cap);
  }
  bool failed = ferror(f);
  if (!from_stdin) fclose(f);
  if (failed) {
    diag_error_at(sink, path, "cannot read file");
  } else if (n > DIAG_MAX_SOURCE_BYTES) {
    diag_error_at(sink, path, "file is too large (the limit is %u bytes)", DIAG_MAX_SOURCE_BYTES);
    failed = true;
  }
  if (failed) {
    free(buf);
    return NULL;
  }
  *len = n;
  return buf;
}

diag_source *diag_source_load(diag_sink *sink, const char *path) {
  size_t len = 0;
  char *text = read_whole_file(sink, path, &len);
  if (!text) return NULL;
  diag_source *src = diag_source_from_string(sink, strcmp(path, "-") == 0 ? "<stdin>" : path, text, len);
  free(text);
  const char *nul = memchr(src->text, '\0', src->len);
  if (nul) {
    uint32_t at = (uint32_t)(nul - src->text);
    diag_error(src, (loc){at, at + 1}, "NUL byte in input (is this a binary file?)");
    diag_source_free(src);
    return NULL;
  }
  return src;
}

void diag_source_free(diag_source *src) {
  if (!src) return;
  free(src->name);
  free(src->text);
  free(src->line_starts);
  free(src);
}

/* Length of a comment starting at s (bounded by end), or 0. */
static size_t comment_length(const char *s, const char *end) {
  if (end - s < 2 || s[0] != '/' || (s[1] != '*' && s[1] != '/')) return 0;
  const char *p = s + 2;
  if (s[1] == '/') {
    while (p < end && *p != '\n') p++;
    return (size_t)(p - s);
  }
  while (p + 1 < end && !(p[0] == '*' && p[1] == '/')) p++;
  return (size_t)(p + 2 <= end ? p + 2 - s : end - s);
}

void diag_span_text(const diag_source *src, loc at, strbuf *out) {
  const char *end = src->text + (at.end < src->len ? at.end : src->len);
  bool space = false;
  for (const char *c = src->text + at.start; c < end; c++) {
    size_t skip = comment_length(c, end);
    if (skip || isspace((unsigned char)*c)) {
      space = true;
      c += skip ? skip - 1 : 0;
      continue;
    }
    if (space && out->len > 0 && out->text[out->len - 1] != ' ') sbuf_putc(out, ' ');
    space = false;
    sbuf_putc(out, *c);
  }
}

void diag_line_col(const diag_source *src, uint32_t offset, size_t *line, size_t *col) {
  size_t lo = 0, hi = src->line_count; /* last line start <= offset */
  while (hi - lo > 1) {
    size_t mid = lo + (hi - lo) / 2;
    if (src->line_starts[mid] <= offset) lo = mid;
    else hi = mid;
  }
  *line = lo + 1;
  *col = offset - src->line_starts[lo] + 1;
}

/* ---------------------------------------------------------------- messages */

void diag_sink_free(diag_sink *sink) {
  for (size_t i = 0; i < sink->record_count; i++) {
    free(sink->records[i].message);
    free(sink->records[i].file);
    free(sink->records[i].warning);
  }
  free(sink->records);
  sink->records = NULL;
  sink->record_count = sink->record_cap = 0;
}

const char *diag_char_repr(char buf[8], unsigned char c) {
  if (c >= 0x20 && c < 0x7f) snprintf(buf, 8, "%c", c);
  else snprintf(buf, 8, "\\x%02x", c);
  return buf;
}

/* Longest excerpt of a source line echoed under a message. */
#define EXCERPT_WIDTH 160

/* True when a source line ends at byte i: a '\n', the '\r' of "\r\n", or the
 * end of the text. A lone '\r' is inside its line (lines are split at '\n'
 * only: a span after it is still on that line). */
static bool at_line_end(const diag_source *src, uint32_t i) {
  return i >= src->len || src->text[i] == '\n' ||
         (src->text[i] == '\r' && (i + 1 == src->len || src->text[i + 1] == '\n'));
}

/* Echoes the line holding `at` (a window of it around `at` when the line is
 * long) and underlines the span, clipped to what is shown. */
static void print_excerpt(const diag_source *src, loc at) {
  FILE *out = src->sink->out;
  size_t line, col;
  diag_line_col(src, at.start, &line, &col);
  uint32_t first = src->line_starts[line - 1];
  uint32_t last = first;
  while (!at_line_end(src, last)) last++;
  bool cut_front = at.start - first > EXCERPT_WIDTH / 2 && last - first > EXCERPT_WIDTH;
  if (cut_front) first = at.start - EXCERPT_WIDTH / 2;
  bool cut_back = last - first > EXCERPT_WIDTH;
  if (cut_back) last = first + EXCERPT_WIDTH;
  if (cut_front) fputs("...", out);
  for (uint32_t i = first; i < last; i++) {
    unsigned char c = (unsigned char)src->text[i];
    fputc(c == '\t' || (c >= 0x20 && c != 0x7f) ? c : '?', out);
  }
  fputs(cut_back ? "...\n" : "\n", out);
  if (cut_front) fputs("   ", out);
  for (uint32_t i = first; i < at.start && i < last; i++) fputc(src->text[i] == '\t' ? '\t' : ' ', out);
  fputc('^', out);
  uint32_t end = at.end < last ? at.end : last;
  for (uint32_t i = at.start + 1; i < end; i++) fputc('~', out);
  fputc('\n', out);
}

/* Keeps the first error's message for callers that give it in their own words. */
static void remember(diag_sink *sink, const char *fmt, va_list ap) {
  if (sink->errors != 1) return;
  va_list copy;
  va_copy(copy, ap);
  vsnprintf(sink->first_error, sizeof sink->first_error, fmt, copy);
  va_end(copy);
}

/* True when messages are kept for diag_render or diag_json. */
static bool keeps(const diag_sink *sink) { return sink->out && (sink->keep || sink->format != DIAG_TEXT); }

/* Appends a message without a place to the kept ones; returns it. */
static diag_record *keep_record(diag_sink *sink, diag_level level, const char *file, const char *fmt, va_list ap) {
  if (sink->record_count == sink->record_cap) {
    sink->record_cap = sink->record_cap ? 2 * sink->record_cap : 16;
    sink->records = xrealloc(sink->records, sink->record_cap * sizeof *sink->records);
  }
  diag_record *r = &sink->records[sink->record_count++];
  *r = (diag_record){.level = level, .file = file ? xstrdup(file) : NULL, .parent = -1};
  va_list copy;
  va_copy(copy, ap);
  int n = vsnprintf(NULL, 0, fmt, copy);
  va_end(copy);
  r->message = xmalloc((size_t)(n > 0 ? n : 0) + 1);
  vsnprintf(r->message, (size_t)(n > 0 ? n : 0) + 1, fmt, ap);
  return r;
}

/* A valid UTF-8 sequence counts once, any other byte once (SARIF counts
 * characters, the text form bytes). */
uint32_t diag_code_point_column(const diag_source *src, uint32_t offset) {
  size_t line, col;
  diag_line_col(src, offset, &line, &col);
  uint32_t i = src->line_starts[line - 1], column = 1;
  while (i < offset && i < src->len) {
    size_t n = utf8_length((const unsigned char *)src->text + i, src->len - i);
    i += n ? (uint32_t)n : 1;
    column++;
  }
  return column + (offset > i ? offset - i : 0);
}

/* Keeps a located message: its span is what the text form underlines (a
 * point is one column, on its line even at the line's end). A note belongs
 * to the last message that is not one. */
static void keep_located(const diag_source *src, loc at, diag_level level, const char *fmt, va_list ap) {
  diag_sink *sink = src->sink;
  diag_record *r = keep_record(sink, level, src->name, fmt, ap);
  size_t line, col;
  diag_line_col(src, at.start, &line, &col);
  r->line = r->end_line = (uint32_t)line;
  r->column = (uint32_t)col, r->end_column = (uint32_t)col + 1;
  r->column_cp = diag_code_point_column(src, at.start), r->end_column_cp = r->column_cp + 1;
  if (at.end > at.start) {
    diag_line_col(src, at.end, &line, &col);
    r->end_line = (uint32_t)line, r->end_column = (uint32_t)col;
    r->end_column_cp = diag_code_point_column(src, at.end);
  }
  for (size_t i = sink->record_count - 1; level == DIAG_NOTE && i-- > 0;)
    if (sink->records[i].level != DIAG_NOTE) {
      r->parent = (long)i;
      break;
    }
}

static void report(const diag_source *src, loc at, diag_level level, const char *fmt, va_list ap) {
  static const char *const kinds[] = {"error", "warning", "note"};
  diag_sink *sink = src->sink;
  if (!sink->out) return;
  if (at.start > src->len) at.start = at.end = (uint32_t)src->len; /* a span past the end: at the end */
  if (at.end > src->len) at.end = (uint32_t)src->len;
  if (keeps(sink)) {
    va_list copy;
    va_copy(copy, ap);
    keep_located(src, at, level, fmt, copy);
    va_end(copy);
  }
  if (sink->format != DIAG_TEXT) return;
  size_t line, col;
  diag_line_col(src, at.start, &line, &col);
  fprintf(sink->out, "%s:%zu:%zu: %s: ", src->name, line, col, kinds[level]);
  vfprintf(sink->out, fmt, ap);
  fputc('\n', sink->out);
  print_excerpt(src, at);
}

/* Says that the limit stopped the errors: a note of its own in json and sarif. */
static void too_many(diag_sink *sink, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void too_many(diag_sink *sink, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  if (keeps(sink)) {
    va_list copy;
    va_copy(copy, ap);
    keep_record(sink, DIAG_NOTE, NULL, fmt, copy);
    va_end(copy);
  }
  if (sink->format == DIAG_TEXT) {
    fputs("athread: ", sink->out);
    vfprintf(sink->out, fmt, ap);
    fputc('\n', sink->out);
  }
  va_end(ap);
}

/* True when the error limit has been reached; says so once. */
static bool over_limit(diag_sink *sink) {
  if (!sink->max_errors || sink->errors < sink->max_errors) return false;
  if (sink->errors == sink->max_errors && sink->out)
    too_many(sink, "too many errors (limit %d); stopping", sink->max_errors);
  return true;
}

void diag_error(const diag_source *src, loc at, const char *fmt, ...) {
  bool silent = over_limit(src->sink);
  src->sink->errors++;
  va_list ap;
  va_start(ap, fmt);
  remember(src->sink, fmt, ap);
  if (!silent) report(src, at, DIAG_ERROR, fmt, ap);
  va_end(ap);
}

static void report_of(const diag_source *src, loc at, diag_level level, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void report_of(const diag_source *src, loc at, diag_level level, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  report(src, at, level, fmt, ap);
  va_end(ap);
}

void diag_warning(const diag_source *src, loc at, const char *name, const char *fmt, ...) {
  bool as_error = src->sink->warnings_as_errors;
  char what[1024];
  src->sink->warnings++;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  size_t kept = src->sink->record_count;
  report_of(src, at, as_error ? DIAG_ERROR : DIAG_WARNING, "%s [-W%s%s]", what, as_error ? "error,-W" : "", name);
  if (src->sink->record_count > kept) src->sink->records[kept].warning = xstrdup(name);
}

void diag_note(const diag_source *src, loc at, const char *fmt, ...) {
  if (src->sink->max_errors && src->sink->errors > src->sink->max_errors) return;
  va_list ap;
  va_start(ap, fmt);
  report(src, at, DIAG_NOTE, fmt, ap);
  va_end(ap);
}

void diag_error_at(diag_sink *sink, const char *where, const char *fmt, ...) {
  sink->errors++;
  va_list ap;
  va_start(ap, fmt);
  remember(sink, fmt, ap);
  if (keeps(sink)) {
    va_list copy;
    va_copy(copy, ap);
    keep_record(sink, DIAG_ERROR, strcmp(where, "athread") == 0 ? NULL : where, fmt, copy);
    va_end(copy);
  }
  if (sink->out && sink->format == DIAG_TEXT) {
    fprintf(sink->out, "%s: error: ", where);
    vfprintf(sink->out, fmt, ap);
    fputc('\n', sink->out);
  }
  va_end(ap);
}

void diag_error_atv(diag_sink *sink, const char *where, const char *context, const char *fmt, va_list ap) {
  char msg[1024];
  vsnprintf(msg, sizeof msg, fmt, ap);
  diag_error_at(sink, where, "%s%s", context, msg);
}
