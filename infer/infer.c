/* infer/infer.c -- see infer.h. */
#include "infer.h"

#include <stdlib.h>
#include <string.h>

#include "../cfront/cfront.h"
#include "../cfront/skeleton.h"
#include "../conformance/atomicity.h"
#include "../spec-lang/fmt.h"
#include "../spec-lang/spec.h"
#include "draft.h"

/* The spec that text holds, parsed and checked (reporting through sink),
 * or NULL. */
static ast_spec *spec_of(diag_sink *sink, const char *name, const strbuf *text) {
  ast_spec *spec = spec_parse_source(diag_source_from_string(sink, name, sbuf_str(text), text->len));
  spec_options opts = {0};
  if (sink->errors == 0 && spec_check(spec, &opts)) return spec;
  spec_free(spec);
  return NULL;
}

/* skeleton's draft of the program (with the globals main touches). */
static bool skeleton_text(diag_sink *sink, const char *const *files, size_t n, const infer_options *o, strbuf *out) {
  cfp_options opts = {o->cpp_flags, o->cpp_flag_count, o->include_dir};
  cfp_program *p = cfp_read(sink, files, n, &opts);
  bool ok = p && skel_write_with_main(sink, p, files, n, true, out);
  cfp_free(p);
  return ok;
}

/* Replaces [from, to) of b with text. */
static void splice(strbuf *b, size_t from, size_t to, const char *text) {
  strbuf joined = {0};
  sbuf_putn(&joined, b->text, from);
  sbuf_puts(&joined, text);
  sbuf_puts(&joined, b->text + to);
  sbuf_free(b);
  *b = joined;
}

/* main runs beside the threads it starts (its asserts are the program's):
 * a thread Main implements main, one instance, unless the draft has one. */
static void add_main(strbuf *text, const cfe_unit *u) {
  const char *system = strstr(sbuf_str(text), "\nsystem "); /* skeleton's last lines: "system NAME {" ... "}" */
  if (!cfe_has_function(u, "main") || strstr(sbuf_str(text), " implements main ") ||
      strstr(sbuf_str(text), "thread Main "))
    return;
  size_t thread_at = (size_t)(system - text->text) + 1;
  size_t instance_at = (size_t)(strchr(system + 1, '\n') - text->text) + 1;
  splice(text, instance_at, instance_at, "  Main;\n");
  splice(text, thread_at, thread_at, "thread Main implements main {\n  init state Start;\n}\n\n");
}

/* The first lines of skeleton's text say what skeleton drafts. */
static void retitle(strbuf *text, const char *const *files) {
  size_t body = (size_t)(strstr(sbuf_str(text), "\n\n") - text->text); /* after skeleton's two lines of title */
  strbuf title = {0};
  sbuf_printf(&title,
              "// Drafted by athread infer from %s: each machine comes from its thread's\n"
              "// code. A draft is a candidate: athread check proves it, or shows where it\n"
              "// is too coarse.",
              files[0]);
  splice(text, 0, body, sbuf_str(&title));
  sbuf_free(&title);
}

/* Whether t is drafted: it names its C function and, unless every such
 * thread is, its machine is one state and no edge (skeleton's, or the
 * user's placeholder); the others are the user's design. */
static bool to_draft(const ast_thread *t, bool all) {
  return t->impl && (all || (t->states.len == 1 && t->edges.len == 0));
}

/* A replacement of the spec's text: [from, to) becomes text. The spans of
 * the spec point into its source, so the edits are applied from the last. */
typedef struct edit {
  size_t from, to;
  char *text; /* owned, never NULL */
} edit;

typedef VEC(edit) edits;

static void add_edit(edits *es, size_t from, size_t to, strbuf *text) {
  edit e = {from, to, sbuf_take(text)};
  vec_push(NULL, es, e);
}

static int later_first(const void *a, const void *b) {
  const edit *x = a, *y = b;
  return x->from < y->from ? 1 : -1; /* the spans never start at one place */
}

/* Applies the edits (their spans do not overlap) to text, and frees them. */
static void apply_edits(edits *es, strbuf *text) {
  if (es->len > 1) qsort(es->items, es->len, sizeof *es->items, later_first); /* qsort takes no NULL */
  vec_foreach(es, i) {
    splice(text, es->items[i].from, es->items[i].to, es->items[i].text);
    free(es->items[i].text);
  }
  vec_free(es);
}

/* A step that runs only in athread's models of the C library is named
 * after the model's function: the call the user wrote. */
static void name_model_steps(const cfe_unit *u, const prog *p, inf_draft *d) {
  vec_foreach(&d->edges, i) {
    inf_edge *e = &d->edges.items[i];
    if (!inf_in_models(p, e->origin)) continue;
    static const char prefix[] = "athread_model_"; /* the models' functions: athread_model_pthread_mutex_lock */
    const char *function = cfe_function_at(u, p->files.items[e->origin.file], e->origin.at.start);
    if (function && strncmp(function, prefix, sizeof prefix - 1) == 0) e->label = function + sizeof prefix - 1;
  }
}

/* Drafts the machine of thread t from its code as athread check reads it
 * (C's integers; each access to shared memory a step, or each statement,
 * as o says: where the environment may move): an edit of its items
 * (comments before the first stay). */
static bool draft_thread(diag_sink *sink, const infer_options *o, cfe_unit *u, const ast_spec *spec,
                         const ast_thread *t, edits *es) {
  prog *p = cfe_lower(u, spec, t->impl, CFE_INTS_C);
  if (p && o->atomicity == ATOMICITY_ACCESS && !atomicity_split(p, sink)) prog_free(p), p = NULL;
  if (!p) return false;
  inf_draft *d = inf_draft_thread(p, spec);
  name_model_steps(u, p, d);
  strbuf body = {0};
  if (d->why_not) sbuf_printf(&body, "// not drafted: %s\n  init state Start;\n", d->why_not);
  else inf_draft_print(d, spec, &body);
  add_edit(es, t->items.items[0].at.start, t->close_at, &body);
  inf_draft_free(d);
  prog_free(p);
  return true;
}

typedef struct names_drafted {
  const bool *drafted; /* per thread of the spec */
  bool found;          /* an expression names a state of one */
} names_drafted;

static void look_for_drafted(const ir_expr *e, void *ctx) {
  names_drafted *n = ctx;
  if ((e->kind == IR_COUNT || e->kind == IR_AT) && n->drafted[e->index]) n->found = true;
}

/* A system invariant that names a state of a drafted thread named the old
 * machine's: it becomes a comment (on one line) that says so. */
static void leave_out_invariants(const ast_spec *spec, const bool *drafted, edits *es) {
  if (!spec->system) return;
  vec_foreach(&spec->system->items, i) {
    const ast_sys_item *item = &spec->system->items.items[i];
    names_drafted n = {drafted, false};
    if (item->kind == SYS_INVARIANT) ir_walk(item->expr, look_for_drafted, &n);
    if (!n.found) continue;
    strbuf note = {0};
    sbuf_puts(&note, "// left out by athread infer (it names a state of a drafted thread): ");
    diag_span_text(spec->src, item->at, &note);
    add_edit(es, item->at.start, item->at.end, &note);
  }
}

static bool draft_threads(diag_sink *sink, const infer_options *o, cfe_unit *u, const ast_spec *spec, strbuf *text) {
  edits es = {0};
  bool ok = true, *drafted = xcalloc(spec->threads.len + 1, sizeof *drafted);
  vec_foreach(&spec->threads, i) {
    drafted[i] = to_draft(spec->threads.items[i], o->all);
    if (ok && drafted[i]) ok = draft_thread(sink, o, u, spec, spec->threads.items[i], &es);
  }
  if (ok) leave_out_invariants(spec, drafted, &es);
  apply_edits(&es, text);
  free(drafted);
  return ok;
}

/* The text to draft in: the user's spec, or skeleton's draft with main
 * added. */
static bool starting_text(diag_sink *sink, const char *const *files, size_t n, const infer_options *o,
                          const cfe_unit *u, strbuf *text) {
  if (o->spec_path) {
    diag_source *src = diag_source_load(sink, o->spec_path);
    if (src) sbuf_putn(text, src->text, src->len);
    diag_source_free(src);
    return src != NULL;
  }
  if (!skeleton_text(sink, files, n, o, text)) return false;
  add_main(text, u);
  retitle(text, files);
  return true;
}

bool infer_spec(diag_sink *sink, const char *const *files, size_t file_count, const infer_options *o, strbuf *out) {
  cfe_options co = {o->cpp_flags, o->cpp_flag_count, o->include_dir};
  strbuf text = {0};
  ast_spec *start = NULL, *drafted = NULL;
  cfe_unit *u = cfe_parse(sink, files, file_count, &co);
  const char *name = o->spec_path ? o->spec_path : "<skeleton>";
  bool ok = u && starting_text(sink, files, file_count, o, u, &text) && (start = spec_of(sink, name, &text)) &&
            draft_threads(sink, o, u, start, &text) && (drafted = spec_of(sink, "<draft>", &text));
  if (ok) fmt_spec(out, drafted);
  spec_free(drafted);
  spec_free(start);
  cfe_free(u);
  sbuf_free(&text);
  return ok;
}
