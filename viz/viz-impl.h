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

struct viz_trace {
  arena *arena;          /* owns everything below */
  VEC(viz_step) steps;   /* in order */
  viz_places start;      /* every instance's initial state, in system order */
  viz_places end;        /* the same instances after the last step */
  const char **initial;  /* value of each shared variable at step 0, as text (spec->shared order) */
  const char **final;    /* the same after the last step */
  const char *message;   /* how the system goes wrong, as compose said it */
  const char *expression; /* the expression that is false */
  int bad;               /* index in end of the instance that goes wrong, or -1 (system invariant) */
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
/* Makes the legend the label of g (viz-legend.c): shared variables,
 * instances, system predicates and, with a trace, the steps and the final
 * values. */
void viz_add_legend(Agraph_t *g, const ast_spec *spec, const viz_options *o);

#endif
