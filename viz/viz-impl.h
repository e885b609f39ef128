/* viz/viz-impl.h -- what the files of viz/ share: the trace as the drawing
 * code reads it, the text helpers, and the two halves of the drawing (the
 * threads in viz-graph.c, the legend in viz-legend.c). Private to viz/.
 *
 * The trace owns its arena (everything in it); graphs built here belong to
 * the caller (agclose). Text helpers append to caller-owned strbufs.
 */
#ifndef ATHREAD_VIZ_IMPL_H
#define ATHREAD_VIZ_IMPL_H

#include <gvc.h>

#include "../core/arena.h"
#include "../core/strbuf.h"
#include "../core/vec.h"
#include "viz.h"

/* ---------------------------------------------------------------- the trace */

typedef struct viz_step {
  int thread;           /* index in spec->threads */
  int edge;             /* index in that thread's edges */
  const char *instance; /* "Worker[1]", arena-owned */
  const char *changes;  /* "x=1, y=true": the shared values it changed ("" if none), arena-owned */
} viz_step;

typedef struct viz_place {
  const char *instance; /* arena-owned */
  int thread;           /* index in spec->threads */
  int state;            /* index in that thread's states */
} viz_place;

typedef VEC(viz_place) viz_places;

/* One concrete step of a conformance counterexample (athread conform --json). */
typedef struct viz_cstep {
  bool check;            /* an assertion checked, not a step taken */
  const char *where;     /* "a.c:4", or "" when the file does not say */
  const char *statement; /* "x = -1", or "" */
  const char **
      before; /* the shared values after the step before it, or NULL for step 1 (per spec->shared; NULL where unknown) */
  const char **env;       /* the same as the environment left them, when this step starts */
  const char **after;     /* the same after it, or NULL (a check) */
  const char *locals;     /* "x=-1": the locals it changed */
  const char *candidates; /* "{X1}": the set F after it, or NULL when it is not simulated */
} viz_cstep;

/* The counterexample of one thread that does not conform. Arena-owned. */
typedef struct viz_conform {
  int thread;           /* index in spec->threads */
  const char *function; /* the C function, or "" */
  const char *engine;   /* the engine that found it, or "" */
  VEC(viz_cstep) steps; /* in order, the failing one last */
  const char *initial;  /* "{X1}": F at the start */
  bool **
      in_f; /* in_f[k][state]: the state is in F after step k (0 = the start); in_f[k] is NULL when the step is not simulated */
  bool *final_f;       /* per state: in F before the failing step */
  const char **first;  /* value of each shared variable before step 1, or NULL (spec->shared order) */
  const char **last;   /* the same after the last step (before it, for a check) */
  const char *failure; /* "not simulated", "range", "assertion" or "exit" */
  size_t failure_step; /* the failing step, 1-based (0: the start) */
  const char *message; /* the reason, as conform says it */
} viz_conform;

typedef enum viz_trace_kind {
  VIZ_TRACE_COMPOSE, /* athread compose --trace-out: steps, start, end, ... */
  VIZ_TRACE_CONFORM  /* athread conform --json: conform, verdicts */
} viz_trace_kind;

struct viz_trace {
  arena *arena;        /* owns everything below */
  viz_trace_kind kind; /* which fields below are filled */
  const char *file;    /* the trace's path, for messages */
  /* conformance counterexamples */
  viz_conform **conform; /* per spec thread: its counterexample, or NULL */
  const char *verdicts;  /* "B conforms; not checked: C": the threads without a counterexample, or "" */
  /* a counterexample of compose */
  VEC(viz_step) steps;    /* in order */
  viz_places start;       /* every instance's initial state, in system order */
  viz_places end;         /* the same instances after the last step */
  const char **initial;   /* value of each shared variable at step 0, as text (spec->shared order) */
  const char **final;     /* the same after the last step */
  const char *message;    /* how the system goes wrong, as compose said it */
  const char *expression; /* the expression that is false */
  int bad;                /* index in end of the instance that goes wrong, or -1 (system invariant) */
};

/* ---------------------------------------------------------------- text (viz-text.c) */

/* The longest edge label line before it is cut with an ellipsis. */
#define VIZ_EDGE_WIDTH 36
/* Lines of a wrapped assertion or legend entry. */
#define VIZ_WRAP_WIDTH 40

/* True when e is false whatever the shared state (consts and literals only,
 * or a conjunct that is). */
bool viz_constantly_false(const ast_spec *spec, const ir_expr *e);
/* Appends s with &, <, > and " escaped for an HTML-like label. */
void viz_put_html(strbuf *b, const char *s);
/* Appends text escaped for HTML, with br in place of each '\n'. */
void viz_put_html_lines(strbuf *b, const char *text, const char *br);
/* Appends s with backslashes doubled, for a plain Graphviz label (escString). */
void viz_put_plain(strbuf *b, const char *s);
/* Appends s, cut after about max characters with an ellipsis (UTF-8 safe). */
void viz_put_short(strbuf *b, const char *s, size_t max);
/* Appends the text of an edge label literal (\" and \\ decoded). */
void viz_put_label(strbuf *b, const char *literal);
/* Appends e in the spec's syntax, its top-level conjuncts packed into lines
 * of about width characters separated by '\n'. */
void viz_put_wrapped(strbuf *b, const ir_expr *e, size_t width);
/* Appends text with its runs of spaces turned into one space or, where a
 * line would pass width characters, a '\n' (a longer word stays whole). */
void viz_put_words(strbuf *b, const char *text, size_t width);
/* Appends the assignments of an edge: x := e, y := *. */
void viz_put_assignments(strbuf *b, const ast_edge *e);
/* Appends the edge as the spec writes it: S1 -> S2 "label" when G do A. */
void viz_put_edge_source(strbuf *b, const ast_edge *e);

/* ---------------------------------------------------------------- drawing */

/* Sets attribute name of obj (a graph, node or edge) to value. Returns obj. */
void *viz_set(void *obj, const char *name, const char *value);
/* Sets an HTML-like label (html is the text between the outer < >). */
void viz_set_html(void *obj, const char *html);
/* Builds the whole diagram into a new graph opened with disc; the caller
 * closes it with agclose. */
Agraph_t *viz_build(const ast_spec *spec, const viz_options *o, Agdisc_t *disc);
/* True when thread t is drawn: the one --thread chose, else every thread,
 * but with a conformance trace only those with a counterexample. */
bool viz_draws(const viz_options *o, const ast_thread *t);
/* Makes the legend the label of g (viz-legend.c): shared variables,
 * instances, system predicates and, with a trace, the steps and the final
 * values; with a conformance trace, the variables and the concrete steps of
 * each counterexample drawn. */
void viz_add_legend(Agraph_t *g, const ast_spec *spec, const viz_options *o);

/* A graph built by fn from data (closed by the caller of fn), drawn as
 * viz_render draws a spec. */
typedef Agraph_t *(*viz_build_fn)(const void *data, Agdisc_t *disc);
viz_result viz_render_graph(diag_sink *sink, viz_build_fn build, const void *data, viz_format f, char **out,
                            size_t *len);

#endif
