/* core/diag.h -- source files, locations and every message athread prints
 * about its input.
 *
 * Owns: diag_source (the text of one input file and its line map; free with
 * diag_source_free). Borrows: the sink, which main points at stderr and tests
 * at a memory stream. No other module writes diagnostics to stderr.
 * Format: "file:line:col: error: what", the source line, a ^~~ underline;
 * or, with --diagnostics-format json|sarif, every message of the run kept in
 * the sink and printed at its end as one document (diag_render,
 * docs/language.md section 9).
 */
#ifndef ATHREAD_DIAG_H
#define ATHREAD_DIAG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>

#include <jansson.h>

#include "strbuf.h"

/* A span of bytes [start, end) in one source text. */
typedef struct loc {
  uint32_t start; /* offset of the first byte */
  uint32_t end;   /* offset one past the last byte; == start for a point */
} loc;

/* How a sink reports what it is told (--diagnostics-format). */
typedef enum diag_format {
  DIAG_TEXT,  /* each message printed at once, as text */
  DIAG_JSON,  /* kept, and printed by diag_render as one JSON object */
  DIAG_SARIF, /* kept, and printed by diag_render as one SARIF 2.1.0 log */
} diag_format;

typedef enum diag_level { DIAG_ERROR, DIAG_WARNING, DIAG_NOTE } diag_level;

/* One message as the sink keeps it. Lines and columns are 1-based and 0 when
 * the message has no place in its file (or no file); the end is one past the
 * last column the text form underlines. */
typedef struct diag_record {
  diag_level level;
  char *message;                     /* owned: the text form's "what" */
  char *file;                        /* owned; NULL for a message about the command line */
  uint32_t line, column;             /* column in bytes, as the text form counts */
  uint32_t end_line, end_column;     /* the end of the span, likewise */
  uint32_t column_cp, end_column_cp; /* the columns in Unicode code points (SARIF) */
  long parent;                       /* a note: the index of the message it belongs to; else -1 */
  char *warning;                     /* owned: a warning's name ("unreachable-state", for -W), else NULL */
} diag_record;

typedef struct diag_sink {
  FILE *out;             /* where messages go; NULL: nowhere (a quiet sink only counts) */
  int errors;            /* errors reported so far */
  int warnings;          /* warnings reported so far */
  int max_errors;        /* errors printed before "too many errors"; 0 = no limit */
  bool warnings_as_errors; /* -Werror: warnings print as "error: ... [-Werror,-Wname]" (still counted as warnings) */
  char first_error[200]; /* the first error's message, without its location */
  diag_format format;    /* DIAG_TEXT unless set */
  bool keep;             /* keep messages in text format too (for diag_json) */
  diag_record *records;  /* what was kept (with out set and keep or a format
                          * other than text), owned: free with diag_sink_free */
  size_t record_count, record_cap;
} diag_sink;

/* The program a log names (SARIF's tool.driver). */
typedef struct diag_tool {
  const char *name;    /* "athread" */
  const char *version; /* "0.1.0" */
  const char *uri;     /* its home page, or NULL */
} diag_tool;

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
/* Appends the text of src within at on one line: comments left out, each
 * run of white space one space. */
void diag_span_text(const diag_source *src, loc at, strbuf *out);

/* 1-based line and column (in bytes) of an offset. */
void diag_line_col(const diag_source *src, uint32_t offset, size_t *line, size_t *col);

/* The 1-based column of offset in Unicode code points (SARIF's columns). */
uint32_t diag_code_point_column(const diag_source *src, uint32_t offset);

void diag_error(const diag_source *src, loc at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* A warning called name ("never-reached": printed as [-Wnever-reached], the
 * name -Werror and the docs use). */
void diag_warning(const diag_source *src, loc at, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void diag_note(const diag_source *src, loc at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* A message about a file or the command line as a whole: "where: error: what".
 * where is a file name or "athread" (the command line: no file in json and
 * sarif). */
void diag_error_at(diag_sink *sink, const char *where, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* diag_error_at with a va_list and a context put before the message, for
 * readers that say where in their input they were ("step 3: "); context may
 * be "". */
void diag_error_atv(diag_sink *sink, const char *where, const char *context, const char *fmt, va_list ap)
    __attribute__((format(printf, 4, 0)));

/* Frees what sink kept (not the sink itself, nor out); the sink stays usable. */
void diag_sink_free(diag_sink *sink);
/* The kept messages as a JSON array of objects (level, message, file, line,
 * column, end_line, end_column; notes nested in the message they follow).
 * Borrows sink. Returns a new reference. */
json_t *diag_json(const diag_sink *sink);
/* The kept messages as a SARIF 2.1.0 log of one run that ended with
 * exit_code. Borrows both. Returns a new reference. */
json_t *diag_sarif(const diag_sink *sink, const diag_tool *tool, int exit_code);
/* A SARIF physicalLocation in file: the file as a whole when line is 0, else
 * the point at line and column (in code points); file is added to the run's
 * artifacts (a JSON array) when new, the two named by index. Borrows both.
 * Returns a new reference. */
json_t *diag_sarif_location(json_t *artifacts, const char *file, uint32_t line, uint32_t column_cp);
/* In json or sarif format, prints the kept messages to out as one document
 * (diag_json's array in an object, or diag_sarif's log); in text format,
 * nothing (each message was printed when it came). Borrows both. */
void diag_render(const diag_sink *sink, const diag_tool *tool, int exit_code);

/* Writes c into buf (>= 8 bytes) as it should appear in a quoted message. */
const char *diag_char_repr(char buf[8], unsigned char c);

#endif
