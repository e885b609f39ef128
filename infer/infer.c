/* infer/infer.c -- see infer.h. */
#include "infer.h"

#include <string.h>

#include "../cfront/cfront.h"
#include "../cfront/skeleton.h"
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

/* Inserts text at offset at of b. */
static void insert_at(strbuf *b, size_t at, const char *text) {
  strbuf joined = {0};
  sbuf_putn(&joined, b->text, at);
  sbuf_puts(&joined, text);
  sbuf_puts(&joined, b->text + at);
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
  insert_at(text, instance_at, "  Main;\n");
  insert_at(text, thread_at, "thread Main implements main {\n  init state Start;\n}\n\n");
}

/* The first lines of skeleton's text say what skeleton drafts. */
static void retitle(strbuf *text, const char *const *files) {
  const char *body = strstr(sbuf_str(text), "\n\n"); /* after skeleton's two lines of title */
  strbuf title = {0};
  sbuf_printf(&title,
              "// Drafted by athread infer from %s: each machine comes from its thread's\n"
              "// code. A draft is a candidate: athread check proves it, or shows where it\n"
              "// is too coarse.",
              files[0]);
  sbuf_puts(&title, body);
  sbuf_free(text);
  *text = title;
}

/* Whether t is drafted: it names its C function and, unless every such
 * thread is, its machine is one state and no edge (skeleton's, or the
 * user's placeholder); the others are the user's design. */
static bool to_draft(const ast_thread *t, bool all) {
  return t->impl && (all || (t->states.len == 1 && t->edges.len == 0));
}

/* Replaces thread t's machine in text (the spec's source: t's spans point
 * into it, so threads are replaced from the last) with body. Comments
 * before its first item stay. */
static void splice(strbuf *text, const ast_thread *t, const strbuf *body) {
  size_t from = t->items.items[0].at.start, to = t->close_at;
  strbuf joined = {0};
  sbuf_putn(&joined, text->text, from);
  sbuf_puts(&joined, sbuf_str(body));
  sbuf_puts(&joined, text->text + to);
  sbuf_free(text);
  *text = joined;
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

/* Drafts the machine of thread t from its code into text. */
static bool draft_thread(cfe_unit *u, const ast_spec *spec, const ast_thread *t, strbuf *text) {
  prog *p = cfe_lower(u, spec, t->impl, CFE_INTS_C);
  if (!p) return false;
  inf_draft *d = inf_draft_thread(p, spec);
  name_model_steps(u, p, d);
  strbuf body = {0};
  if (d->why_not) sbuf_printf(&body, "// not drafted: %s\n  init state Start;\n", d->why_not);
  else inf_draft_print(d, spec, &body);
  splice(text, t, &body);
  sbuf_free(&body);
  inf_draft_free(d);
  prog_free(p);
  return true;
}

static bool draft_threads(cfe_unit *u, const ast_spec *spec, bool all, strbuf *text) {
  bool ok = true;
  for (size_t i = spec->threads.len; ok && i-- > 0;)
    if (to_draft(spec->threads.items[i], all)) ok = draft_thread(u, spec, spec->threads.items[i], text);
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
            draft_threads(u, start, o->all, &text) && (drafted = spec_of(sink, "<draft>", &text));
  if (ok) fmt_spec(out, drafted);
  spec_free(drafted);
  spec_free(start);
  cfe_free(u);
  sbuf_free(&text);
  return ok;
}
