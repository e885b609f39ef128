/* viz/viz.c -- athread viz's entry points: the output format, the cgraph
 * disciplines that make the graph the same on every run, and layout and
 * rendering to memory with gvc. */
#include "viz.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../core/symtab.h"
#include "viz-impl.h"

/* ---------------------------------------------------------------- formats */

typedef struct format_name {
  const char *ext;   /* file name extension, with the dot */
  viz_format format; /* what it asks for */
} format_name;

static const format_name extensions[] = {
    {".dot", VIZ_DOT}, {".gv", VIZ_DOT}, {".svg", VIZ_SVG}, {".png", VIZ_PNG}, {".pdf", VIZ_PDF},
};

/* gvRenderData's name of each format (DOT is written by agwrite instead). */
static const char *const renderers[] = {[VIZ_DOT] = "dot", [VIZ_SVG] = "svg", [VIZ_PNG] = "png", [VIZ_PDF] = "pdf"};

bool viz_format_of_name(const char *name, viz_format *out) {
  for (size_t i = 0; i < sizeof extensions / sizeof *extensions; i++) {
    if (strcasecmp(name, extensions[i].ext + 1) == 0) {
      *out = extensions[i].format;
      return true;
    }
  }
  return false;
}

bool viz_format_of_path(const char *file, viz_format *out) {
  const char *slash = strrchr(file, '/');
  const char *dot = strrchr(slash ? slash + 1 : file, '.');
  for (size_t i = 0; dot && i < sizeof extensions / sizeof *extensions; i++) {
    if (strcasecmp(dot, extensions[i].ext) == 0) {
      *out = extensions[i].format;
      return true;
    }
  }
  return false;
}

/* ---------------------------------------------------------------- disciplines */

/* cgraph's default id discipline makes the address of a name's string the
 * object's id, and keeps subgraphs in id order, so the order of the clusters
 * (and with it the layout) would follow malloc. This one numbers names in the
 * order they are first used (even ids, 2k for the k-th name) and anonymous
 * objects from a counter (odd ids). It maps names itself because cgraph 2.42's
 * fallback, its internal name map, is freed with the first subgraph closed
 * and leaks its entries. */
typedef struct id_table {
  arena *names;           /* interned names */
  symtab index;           /* interned name -> k */
  VEC(const char *) name; /* k -> name (heap vector) */
  IDTYPE anonymous;       /* anonymous objects so far */
} id_table;

static void *ids_open(Agraph_t *g, Agdisc_t *disc) {
  (void)g;
  (void)disc;
  id_table *t = xcalloc(1, sizeof *t);
  t->names = arena_new();
  return t;
}

static long ids_map(void *state, int kind, char *name, IDTYPE *id, int create) {
  (void)kind;
  id_table *t = state;
  if (!name) {
    if (create) *id = 2 * t->anonymous++ + 1;
    return create;
  }
  const char *key = arena_intern_cstr(t->names, name);
  int k = symtab_get(&t->index, key);
  if (k < 0 && !create) return 0;
  if (k < 0) {
    k = (int)t->name.len;
    vec_push(NULL, &t->name, key);
    symtab_put(&t->index, key, k);
  }
  *id = 2 * (IDTYPE)k;
  return 1;
}

static long ids_alloc(void *state, int kind, IDTYPE request) {
  (void)state;
  (void)kind;
  (void)request;
  return 0;
}

static void ids_free(void *state, int kind, IDTYPE id) {
  (void)state;
  (void)kind;
  (void)id;
}

static char *ids_print(void *state, int kind, IDTYPE id) {
  (void)kind;
  const id_table *t = state;
  return id % 2 == 0 && id / 2 < t->name.len ? (char *)t->name.items[id / 2] : NULL;
}

static void ids_close(void *state) {
  id_table *t = state;
  arena_free(t->names);
  symtab_free(&t->index);
  vec_free(&t->name);
  free(t);
}

static void ids_register(void *state, int kind, void *obj) {
  (void)state;
  (void)kind;
  (void)obj;
}

/* agwrite's output goes to a strbuf (the channel). */
static int put_text(void *chan, const char *s) {
  sbuf_puts(chan, s);
  return 0;
}

static int flush_nothing(void *chan) {
  (void)chan;
  return 0;
}

/* Constant tables; cgraph takes them through non-const pointers but never
 * writes to them. */
static const Agiddisc_t ids = {ids_open, ids_map, ids_alloc, ids_free, ids_print, ids_close, ids_register};
static const Agiodisc_t to_strbuf = {NULL, put_text, flush_nothing};

/* ---------------------------------------------------------------- rendering */

/* dot needs minutes for a few hundred nodes; beyond this, only DOT is written. */
#define MAX_LAYOUT_NODES 400

static void write_dot(Agraph_t *g, char **out, size_t *len) {
  strbuf text = {0};
  agwrite(g, &text);
  *len = text.len;
  *out = sbuf_take(&text);
}

/* Graphviz keeps its messages (agseterr(AGMAX)); this reports the last one. */
static void report_graphviz(diag_sink *sink) {
  char *msg = aglasterr();
  size_t n = msg ? strlen(msg) : 0;
  while (n > 0 && (msg[n - 1] == '\n' || msg[n - 1] == ' ')) n--;
  diag_error_at(sink, "athread", "Graphviz could not draw the diagram: %.*s", (int)n, n ? msg : "no reason given");
  free(msg);
}

/* Pixels per inch of PNG output: crisper than Graphviz's 96 when pasted into slides. */
#define PNG_DPI "120"

static bool lay_out_and_render(diag_sink *sink, GVC_t *gvc, Agraph_t *g, viz_format f, char **out, size_t *len) {
  if (f == VIZ_PNG) viz_set(g, "dpi", PNG_DPI); /* read by the layout, so set before it */
  agreseterrors();
  bool laid_out = gvLayout(gvc, g, "dot") == 0;
  char *data = NULL;
  unsigned n = 0;
  bool ok = laid_out && gvRenderData(gvc, g, (char *)renderers[f], &data, &n) == 0 && agerrors() < AGERR;
  if (ok) {
    *out = xmalloc((size_t)n + 1);
    memcpy(*out, data, n);
    (*out)[n] = '\0';
    *len = n;
  }
  if (data) gvFreeRenderData(data);
  if (laid_out) gvFreeLayout(gvc, g);
  if (!ok) report_graphviz(sink);
  return ok;
}

/* A conformance trace draws only threads with a counterexample: false after
 * a report when --thread names another. */
static bool chosen_thread_drawable(diag_sink *sink, const viz_options *o) {
  const viz_trace *tr = o->trace;
  if (!tr || tr->kind != VIZ_TRACE_CONFORM || !o->only || tr->conform[o->only->index]) return true;
  diag_error_at(sink, tr->file, "--thread %s: the trace has no counterexample for thread %s (%s)", o->only->name,
                o->only->name, tr->verdicts);
  return false;
}

struct viz_session {
  GVC_t *gvc; /* Graphviz's context, for every drawing of the session; NULL until the first layout */
};

viz_session *viz_session_new(void) { return xcalloc(1, sizeof(viz_session)); }

/* The session's Graphviz context, made for its first layout: DOT output
 * needs none (and a context keeps some memory Graphviz never frees). */
static GVC_t *session_gvc(viz_session *s) {
  if (!s->gvc) s->gvc = gvContext();
  return s->gvc;
}

void viz_session_free(viz_session *s) {
  if (!s) return;
  if (s->gvc) gvFreeContext(s->gvc);
  free(s);
}

viz_result viz_render(diag_sink *sink, const ast_spec *spec, const viz_options *o, viz_format f, char **out,
                      size_t *len) {
  viz_session *s = viz_session_new();
  viz_result r = viz_render_in(s, sink, spec, o, f, out, len);
  viz_session_free(s);
  return r;
}

/* Graph g as DOT, or laid out and rendered in format f; closes g. */
static viz_result finish(viz_session *s, diag_sink *sink, Agraph_t *g, viz_format f, char **out, size_t *len) {
  int nodes = agnnodes(g);
  viz_result r = VIZ_DONE;
  if (f == VIZ_DOT) {
    write_dot(g, out, len);
  } else if (nodes > MAX_LAYOUT_NODES) {
    diag_error_at(sink, "athread",
                  "the diagram has %d nodes, too many for dot (the limit is %d): draw one thread with --thread, or "
                  "write DOT (-o OUT.dot)",
                  nodes, MAX_LAYOUT_NODES);
    r = VIZ_REFUSED;
  } else if (!lay_out_and_render(sink, session_gvc(s), g, f, out, len)) {
    r = VIZ_FAILED;
  }
  agclose(g);
  return r;
}

viz_result viz_render_in(viz_session *s, diag_sink *sink, const ast_spec *spec, const viz_options *o, viz_format f,
                         char **out, size_t *len) {
  if (!chosen_thread_drawable(sink, o)) return VIZ_REFUSED;
  Agdisc_t disc = {.mem = &AgMemDisc, .id = (Agiddisc_t *)&ids, .io = (Agiodisc_t *)&to_strbuf};
  agseterr(AGMAX);
  return finish(s, sink, viz_build(spec, o, &disc), f, out, len);
}

viz_result viz_render_graph(diag_sink *sink, viz_build_fn build, const void *data, viz_format f, char **out,
                            size_t *len) {
  Agdisc_t disc = {.mem = &AgMemDisc, .id = (Agiddisc_t *)&ids, .io = (Agiodisc_t *)&to_strbuf};
  agseterr(AGMAX);
  viz_session *s = viz_session_new();
  viz_result r = finish(s, sink, build(data, &disc), f, out, len);
  viz_session_free(s);
  return r;
}
