/* viz/viz.h -- diagrams of abstract threads, systems and counterexamples
 * (athread viz), built with Graphviz's cgraph and laid out and rendered by
 * its gvc library, to DOT, SVG, PNG or PDF.
 *
 * Borrows the checked spec (spec_load) and the options. Owns: a viz_trace
 * (viz_trace_load; free with viz_trace_free), a viz_session (free with
 * viz_session_free) and the bytes viz_render returns (free with free()). Reports through the caller's diag_sink. The same
 * inputs always give the same DOT and SVG bytes.
 */
#ifndef ATHREAD_VIZ_H
#define ATHREAD_VIZ_H

#include <stdbool.h>
#include <stddef.h>

#include "../core/diag.h"
#include "../spec-lang/ast.h"

typedef enum viz_format { VIZ_DOT, VIZ_SVG, VIZ_PNG, VIZ_PDF } viz_format;

/* A counterexample read from a file, checked against one spec. Opaque. */
typedef struct viz_trace viz_trace;

typedef struct viz_options {
  const ast_thread *only; /* draw only this thread, or NULL for every thread */
  bool idle;              /* draw the implicit idle self-loops (dashed) */
  const viz_trace *trace; /* counterexample to overlay, or NULL */
  const char *spec_name;  /* the spec's file name, for the legend */
  bool ids;               /* SVG: give each state the id s_T_I and each edge e_T_I (I its index in
                           * thread T), which pages that highlight them look up (review/) */
  const bool *unused;     /* with only: per edge of that thread, true when the code never uses it
                           * (conform --coverage); drawn dashed and grey. NULL: none */
  bool no_legend;         /* leave out the legend (the title, variables, system table): a page that
                           * shows them once beside several drawings (review/) */
} viz_options;

/* The format an output path asks for, from its extension (.dot or .gv, .svg,
 * .png, .pdf). Returns false for any other name. */
/* The format named as -T names it ("svg", "dot", "gv", "png", "pdf", any
 * case); false when name is none of them. */
bool viz_format_of_name(const char *name, viz_format *out);
bool viz_format_of_path(const char *path, viz_format *out);

/* Reads the counterexample in path and checks that it fits spec. The file's
 * "command" says what it is: "compose" (the JSON of `athread compose
 * --trace-out`: its instances, states and edge indices must exist, and every
 * step start where its instance is) or "conform" (the JSON of `athread
 * conform --json`: its threads, candidate states and shared variables must
 * exist, and some thread must have a counterexample). Returns NULL after
 * reporting "path: error: ..." to sink. Returns owned, free with
 * viz_trace_free. Borrows spec, which must outlive the trace. */
viz_trace *viz_trace_load(diag_sink *sink, const char *path, const ast_spec *spec);
/* The same for a trace already in memory: len bytes of text (borrowed, need
 * not be NUL-terminated), reported as file name. Returns owned, free with
 * viz_trace_free. */
viz_trace *viz_trace_parse(diag_sink *sink, const char *name, const char *text, size_t len, const ast_spec *spec);
/* NULL is fine. */
void viz_trace_free(viz_trace *t);

typedef enum viz_result {
  VIZ_DONE,                    /* *out holds the drawing */
  VIZ_REFUSED,                 /* bad input for this drawing (reported): too many nodes for dot (DOT
                     is fine), or --thread names a thread the conformance trace
                     has no counterexample for */
  VIZ_TOO_LARGE = VIZ_REFUSED, /* the older name */
  VIZ_FAILED                   /* Graphviz failed (reported): an internal error */
} viz_result;

/* Draws spec as the options say, in format f. When done, *out holds *len
 * bytes (returns owned, free with free(); NUL-terminated). DOT is the graph
 * before layout, so it is the same on every machine; the other formats are
 * laid out by dot. Reports any other result to sink. */
viz_result viz_render(diag_sink *sink, const ast_spec *spec, const viz_options *o, viz_format f, char **out,
                      size_t *len);

/* Is text the JSON report of athread races (its "command")? */
bool viz_is_race_report(const char *text, size_t len);
/* Draws every data race of such a report (name: its file, for errors), as
 * viz_render draws a spec: each race cell a cluster with its trace, one
 * column per thread instance, and its two racing accesses (viz-race.c).
 * Text that is not JSON, not such a report, or a report without a race is
 * bad input (reported; VIZ_REFUSED). */
viz_result viz_render_race(diag_sink *sink, const char *name, const char *text, size_t len, viz_format f, char **out,
                           size_t *out_len);

/* Several drawings in one run share one Graphviz context: Graphviz's text
 * plugin remembers the last font of a context after the context is freed,
 * so a second context's layout reads freed memory (valgrind shows it).
 * Returns owned, free with viz_session_free (NULL is fine), after the last
 * drawing. */
typedef struct viz_session viz_session;
viz_session *viz_session_new(void);
void viz_session_free(viz_session *s);
/* viz_render in session s (borrowed). */
viz_result viz_render_in(viz_session *s, diag_sink *sink, const ast_spec *spec, const viz_options *o, viz_format f,
                         char **out, size_t *len);

#endif
