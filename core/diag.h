/* core/diag.h -- source files, locations and every message athread prints
 * about its input.
 *
 * Owns: diag_source (the text of one input file and its line map; free with
 * diag_source_free). Borrows: the sink, which main points at stderr and tests
 * at a memory stream. No other module writes diagnostics to stderr.
 * Format: "file:line:col: error: what", the source line, a ^~~ underline.
 */
#ifndef ATHREAD_DIAG_H
#define ATHREAD_DIAG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* A span of bytes [start, end) in one source text. */
typedef struct loc {
  uint32_t start; /* offset of the first byte */
  uint32_t end;   /* offset one past the last byte; == start for a point */
} loc;

typedef struct diag_sink {
  FILE *out;             /* where messages go; NULL: nowhere (a quiet sink only counts) */
  int errors;            /* errors reported so far */
  int warnings;          /* warnings reported so far */
  int max_errors;        /* errors printed before "too many errors"; 0 = no limit */
  bool warnings_as_errors; /* -Werror: warnings print as "error: ... [-Werror,-Wname]" (still counted as warnings) */
  char first_error[200]; /* the first error's message, without its location */
} diag_sink;

typedef struct diag_source {
  diag_sink *sink;       /* borrowed */
  char *name;            /* the path as the user gave it */
  char *text;            /* the file's bytes, NUL-terminated */
  size_t len;            /* bytes in text */
  uint32_t *line_starts; /* offset of the first byte of each line */
  size_t line_count;     /* entries in line_starts */
} diag_source;

/* The largest input file athread reads. */
#define DIAG_MAX_SOURCE_BYTES (8u << 20)

/* Reads path ("-": standard input, named "<stdin>") into a new source. On
 * failure (missing file, directory, too large, NUL byte) reports the error
 * and returns NULL. Returns owned, free
 * with diag_source_free. */
diag_source *diag_source_load(diag_sink *sink, const char *path);
/* Wraps text that is already in memory (copied). Returns owned. */
diag_source *diag_source_from_string(diag_sink *sink, const char *name, const char *text, size_t len);
void diag_source_free(diag_source *src);

/* 1-based line and column (in bytes) of an offset. */
void diag_line_col(const diag_source *src, uint32_t offset, size_t *line, size_t *col);

void diag_error(const diag_source *src, loc at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* A warning called name ("never-reached": printed as [-Wnever-reached], the
 * name -Werror and the docs use). */
void diag_warning(const diag_source *src, loc at, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void diag_note(const diag_source *src, loc at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* A message about a file or the command line as a whole: "where: error: what".
 * where is a file name or "athread". */
void diag_error_at(diag_sink *sink, const char *where, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Writes c into buf (>= 8 bytes) as it should appear in a quoted message. */
const char *diag_char_repr(char buf[8], unsigned char c);

#endif
