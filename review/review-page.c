/* review/review-page.c -- the HTML of athread review's page: the sections
 * (overview, one per thread, composition, counterexample), each written
 * from the spec and compose's JSON report, then the report itself as data
 * for page.js. The styles and the script are review/page.css and
 * review/page.js, embedded at build time (review-assets.h, made by xxd). */
#include <inttypes.h>
#include <string.h>

#include "../spec-lang/semantics.h"
#include "review-assets.h"
#include "review-impl.h"

/* ---------------------------------------------------------------- text */

/* Appends text with the characters HTML gives a meaning escaped. */
static void put_text(strbuf *b, const char *text) {
  for (const char *s = text; *s; s++) {
    switch (*s) {
    case '<': sbuf_puts(b, "&lt;"); break;
    case '>': sbuf_puts(b, "&gt;"); break;
    case '&': sbuf_puts(b, "&amp;"); break;
    case '"': sbuf_puts(b, "&quot;"); break;
    default: sbuf_putc(b, *s);
    }
  }
}

/* A string member of o, or fallback. */
static const char *member(const json_t *o, const char *name, const char *fallback) {
  const char *s = json_string_value(json_object_get(o, name));
  return s ? s : fallback;
}

/* ---------------------------------------------------------------- overview */

static void put_instances(strbuf *b, const ast_spec *spec) {
  sbuf_puts(b, "<table><caption>Threads</caption><tr><th scope=\"col\">thread</th><th scope=\"col\">instances</th>"
               "<th scope=\"col\">states</th><th scope=\"col\">edges</th></tr>\n");
  vec_foreach(&spec->instances, i) {
    const ast_instance *in = spec->instances.items[i];
    const ast_thread *t = spec->threads.items[in->thread_index];
    sbuf_printf(b, "<tr><td><a href=\"#thread-%s\">%s</a></td><td>%" PRId64 "</td><td>%zu</td><td>%zu</td></tr>\n",
                t->name, t->name, in->count_value, t->states.len, t->edges.len);
  }
  sbuf_puts(b, "</table>\n");
}

/* A type with its range as sema computed it ("int[0..3]", not "int[0..N]"). */
static void put_type(strbuf *b, const ast_type *t) {
  if (t->kind == TYPE_BOOL) sbuf_puts(b, "bool");
  if (t->kind == TYPE_INT) sbuf_puts(b, "int");
  if (t->kind == TYPE_RANGE) sbuf_printf(b, "int[%" PRId64 "..%" PRId64 "]", t->lo_value, t->hi_value);
}

/* An initial value as the model starts from it ("true", "3"). Sema has
 * checked that initializers are constants that evaluate; were one not, it
 * is shown as written. */
static void put_value(strbuf *b, const ast_spec *spec, const ast_type *t, const ir_expr *e) {
  int64_t v;
  bool known = sem_constant(spec, e, &v);
  strbuf text = {0};
  if (!known) ir_print(&text, e);
  else if (t->kind == TYPE_BOOL) sbuf_puts(&text, v ? "true" : "false");
  else sbuf_printf(&text, "%" PRId64, v);
  put_text(b, sbuf_str(&text));
  sbuf_free(&text);
}

typedef struct mention {
  const char *name; /* a shared variable's */
  bool found;       /* an expression walked names it */
} mention;

static void find_mention(const ir_expr *e, void *ctx) {
  mention *m = ctx;
  if ((e->kind == IR_NAME || e->kind == IR_INDEX) && strcmp(e->text, m->name) == 0) m->found = true;
}

/* Whether a system init predicate reads v, so that not every value of its
 * type is initial. */
static bool constrained(const ast_spec *spec, const ast_shared *v) {
  mention m = {.name = v->name};
  vec_foreach(&spec->inits, i) ir_walk(spec->inits.items[i], find_mention, &m);
  return m.found;
}

/* What v starts with: its initializer evaluated (an array: "0 in every
 * element", or "{0, 1, 2}"), or any value (that the init predicates allow). */
static void put_initial(strbuf *b, const ast_spec *spec, const ast_shared *v) {
  if (v->init) put_value(b, spec, &v->type, v->init);
  if (v->init && v->length) sbuf_puts(b, " in every element");
  if (v->init_list.len) sbuf_putc(b, '{');
  vec_foreach(&v->init_list, i) {
    sbuf_puts(b, i ? ", " : "");
    put_value(b, spec, &v->type, v->init_list.items[i]);
  }
  if (v->init_list.len) sbuf_putc(b, '}');
  if (!v->init && !v->init_list.len)
    sbuf_puts(b,
              constrained(spec, v) ? "any value of its type that the init predicates allow" : "any value of its type");
}

static void put_variable(strbuf *b, const ast_spec *spec, const ast_shared *v) {
  sbuf_printf(b, "<tr><td><code>%s</code></td><td><code>", v->name);
  if (v->length) sbuf_printf(b, "array of %" PRId64 " ", v->length);
  put_type(b, &v->type);
  sbuf_puts(b, "</code>");
  if (v->binds) {
    sbuf_puts(b, " (C: <code>");
    put_text(b, v->binds); /* a C path, "ext.slots[2]": no markup, but escaped all the same */
    sbuf_puts(b, "</code>)");
  }
  sbuf_puts(b, "</td><td>");
  put_initial(b, spec, v);
  sbuf_puts(b, "</td></tr>\n");
}

/* The consts and the shared variables: type and range, initial values. */
static void put_declarations(strbuf *b, const ast_spec *spec) {
  sbuf_puts(b, "<table class=\"decls\"><caption>Constants and shared variables</caption>"
               "<tr><th scope=\"col\">name</th><th scope=\"col\">type</th><th scope=\"col\">initially</th></tr>\n");
  vec_foreach(&spec->consts, i) {
    const ast_const *k = spec->consts.items[i];
    sbuf_printf(b, "<tr><td><code>%s</code></td><td>const</td><td>%" PRId64 "%s</td></tr>\n", k->name, k->value,
                k->overridden ? " (from --set)" : "");
  }
  vec_foreach(&spec->variables, i) put_variable(b, spec, spec->variables.items[i]);
  sbuf_puts(b, "</table>\n");
}

/* The system's init predicates, which narrow the initial values above. */
static void put_inits(strbuf *b, const ast_spec *spec) {
  if (!spec->inits.len) return;
  sbuf_puts(b, "<p class=\"inits\">Initially also (the system's <code>init</code>):");
  vec_foreach(&spec->inits, i) {
    strbuf e = {0};
    ir_print(&e, spec->inits.items[i]);
    sbuf_puts(b, i ? ", <code>" : " <code>");
    put_text(b, sbuf_str(&e));
    sbuf_puts(b, "</code>");
    sbuf_free(&e);
  }
  sbuf_puts(b, ".</p>\n");
}

/* A diagram (svg) in its box of class css, after its zoom buttons (page.js
 * finds the diagram after its buttons); the labels name both for readers. */
static void put_zoomable(strbuf *b, const char *css, const char *zoom_label, const char *label, const char *svg) {
  sbuf_printf(b,
              "<div class=\"zoom\" role=\"group\" aria-label=\"%s\">"
              "<button type=\"button\" data-zoom=\"1.25\">zoom in</button>"
              "<button type=\"button\" data-zoom=\"0.8\">zoom out</button>"
              "<button type=\"button\" data-zoom=\"0\">fit</button></div>\n"
              "<div class=\"%s\" tabindex=\"0\" role=\"img\" aria-label=\"%s\">\n",
              zoom_label, css, label);
  sbuf_puts(b, svg);
  sbuf_puts(b, "</div>\n");
}

/* The whole system as `athread viz` draws it, with the zoom buttons of the
 * threads' diagrams (page.js finds the diagram after its buttons). */
static void put_system_diagram(strbuf *b, const review_page *p) {
  sbuf_puts(b, "<h3 id=\"system-diagram\">System diagram</h3>\n");
  if (!p->system_svg) {
    sbuf_puts(b,
              "<p class=\"note\">The system has too many states to draw together; each thread is drawn below.</p>\n");
    return;
  }
  put_zoomable(b, "diagram system", "zoom the system diagram", "diagram of the system", p->system_svg);
}

static void put_overview(strbuf *b, const review_page *p) {
  const char *system = member(p->compose, "system", "");
  sbuf_puts(b, "<section id=\"overview\"><h2>Overview</h2>\n<p>System <strong>");
  put_text(b, system);
  sbuf_puts(b, "</strong> of <code>");
  put_text(b, p->rq->spec_path);
  sbuf_puts(b, "</code>.</p>\n");
  put_instances(b, p->spec);
  put_declarations(b, p->spec);
  put_inits(b, p->spec);
  sbuf_puts(b, "<p class=\"assumptions\"><strong>Assumptions of every verdict:</strong> ");
  put_text(b, member(json_object_get(p->compose, "assumptions"), "text", ""));
  sbuf_puts(b, ".</p>\n");
  put_system_diagram(b, p);
  sbuf_puts(b, "</section>\n");
}

/* ---------------------------------------------------------------- code counterexample */

/* "{X1, X2}" from an array of state names. */
static void put_set(strbuf *b, const json_t *names) {
  size_t i;
  const json_t *name;
  sbuf_putc(b, '{');
  json_array_foreach(names, i, name) {
    sbuf_puts(b, i ? ", " : "");
    put_text(b, json_string_value(name));
  }
  sbuf_putc(b, '}');
}

/* One step of a thread's counterexample: the other threads' moves before
 * it (the environment's, marked so), its C line and statement, and F. */
static void put_code_step(strbuf *b, const json_t *step, size_t number) {
  size_t i;
  const json_t *move;
  sbuf_printf(b, "<li data-step=\"%zu\">", number);
  json_array_foreach(json_object_get(step, "moves"), i, move) {
    sbuf_puts(b, "<span class=\"env\">environment: ");
    put_text(b, member(move, "move", ""));
    sbuf_puts(b, "</span>; ");
  }
  sbuf_printf(b, "line %" JSON_INTEGER_FORMAT ": <code>", json_integer_value(json_object_get(step, "line")));
  put_text(b, member(step, "statement", ""));
  sbuf_puts(b, "</code>");
  const json_t *after = json_object_get(step, "candidates");
  sbuf_puts(b, after ? "; F becomes " : "; from F = ");
  put_set(b, after ? after : json_object_get(step, "candidates_before"));
  sbuf_puts(b, "</li>\n");
}

/* The C files the steps are in, a line a block span (page.js marks the
 * current one): the source pane beside the diagram. */
static void put_sources(strbuf *b, const review_page *p, const json_t *steps) {
  const char *file;
  const json_t *text;
  json_object_foreach((json_t *)json_object_get(p->code, "sources"), file, text) {
    size_t i;
    const json_t *step;
    bool used = false;
    json_array_foreach(steps, i, step) used = used || strcmp(member(step, "file", ""), file) == 0;
    if (!used) continue;
    sbuf_puts(b, "<figure class=\"csource\"><figcaption><code>");
    put_text(b, file);
    sbuf_puts(b, "</code></figcaption><pre data-file=\"");
    put_text(b, file);
    sbuf_puts(b, "\">");
    size_t line = 1;
    for (const char *s = json_string_value(text); *s; line++) {
      size_t n = strcspn(s, "\n");
      char *row = strndup(s, n);
      sbuf_printf(b, "<span class=\"cl\" data-line=\"%zu\"><span class=\"ln\">%4zu</span> ", line, line);
      put_text(b, row);
      sbuf_puts(b, "</span>");
      free(row);
      s += n + (s[n] == '\n');
    }
    sbuf_puts(b, "</pre></figure>\n");
  }
}

/* The zoom buttons and the diagram of thread i (its SVG). */
static void put_diagram(strbuf *b, const review_page *p, size_t i) {
  const char *name = p->spec->threads.items[i]->name;
  strbuf zoom = {0}, label = {0};
  sbuf_printf(&zoom, "zoom the diagram of %s", name);
  sbuf_printf(&label, "diagram of thread %s", name);
  put_zoomable(b, "diagram", sbuf_str(&zoom), sbuf_str(&label), p->thread_svgs[i]);
  sbuf_free(&zoom);
  sbuf_free(&label);
}

/* A thread that does not conform: its counterexample to step through, the
 * C source beside the thread's diagram with the current line marked and F
 * drawn on the diagram (page.js), every step listed (for print). */
static void put_code_trace(strbuf *b, const review_page *p, size_t thread, const json_t *j) {
  const ast_thread *t = p->spec->threads.items[thread];
  const json_t *cex = json_object_get(j, "counterexample");
  const json_t *steps = json_object_get(cex, "steps");
  sbuf_printf(b,
              "<div class=\"ctrace\" id=\"ctrace-%s\" data-thread=\"%s\">\n<h3>Why %s does not conform</h3>\n<p "
              "class=\"failure\">",
              t->name, t->name, t->name);
  put_text(b, member(json_object_get(cex, "failure"), "message", ""));
  sbuf_printf(b,
              "</p>\n<div class=\"cstepper\" role=\"group\" aria-label=\"step through the counterexample of %s\">"
              "<button type=\"button\" data-cgo=\"first\">first</button>"
              "<button type=\"button\" data-cgo=\"back\">back</button>"
              "<input type=\"range\" class=\"cstep\" min=\"0\" max=\"%zu\" value=\"0\" aria-label=\"step of %s's "
              "counterexample\">"
              "<button type=\"button\" data-cgo=\"forward\">forward</button>"
              "<button type=\"button\" data-cgo=\"last\">last</button>"
              " <output class=\"cstep-label\" aria-live=\"polite\">before the first step</output></div>\n"
              "<p class=\"cnow\"></p>\n<div class=\"cpane\">\n<div class=\"cdiagram\">\n",
              t->name, json_array_size(steps), t->name);
  put_diagram(b, p, thread);
  sbuf_puts(b, "</div>\n");
  put_sources(b, p, steps);
  sbuf_puts(b, "</div>\n<ol class=\"csteps\">\n");
  size_t i;
  const json_t *step;
  json_array_foreach(steps, i, step) put_code_step(b, step, i + 1);
  sbuf_puts(b, "</ol>\n</div>\n");
}

/* ---------------------------------------------------------------- threads */

/* conform's verdict as a class name: conforms, violated or unknown. */
static const char *conform_class(const char *said) {
  return strcmp(said, "conforms") == 0 ? "conforms" : strcmp(said, "does not conform") == 0 ? "violated" : "unknown";
}

/* The edges the code never uses (dashed in the diagram, listed here), from
 * conform --coverage; nothing when coverage did not run (the thread does
 * not conform). */
static void put_coverage(strbuf *b, const ast_thread *t, const json_t *j) {
  const json_t *unused = json_object_get(j, "unused_edges");
  if (!unused) return;
  bool complete = json_is_true(json_object_get(j, "coverage_complete"));
  const char *caveat = complete ? "" : " (the search stopped before its end: other edges may be unused too)";
  if (!json_array_size(unused)) {
    sbuf_printf(b, "<p class=\"coverage\">Coverage: %s.</p>\n",
                complete ? "every edge is used by some step of the code"
                         : "no edge was proved unused (the search stopped before its end)");
    return;
  }
  sbuf_printf(b,
              "<p class=\"coverage\">Edges the code never uses (dashed in the diagram)%s:</p>\n<ul class=\"unused\">",
              caveat);
  size_t i;
  const json_t *k;
  json_array_foreach(unused, i, k) {
    const ast_edge *e = t->edges.items[json_integer_value(k)];
    sbuf_printf(b, "<li data-edge=\"e_%s_%" JSON_INTEGER_FORMAT "\"><code>%s -&gt; %s</code></li>", t->name,
                json_integer_value(k), e->from, e->to);
  }
  sbuf_puts(b, "</ul>\n");
}

/* What the composition never used of thread t, as compose warns of it
 * after a safe verdict: states no reachable state has an instance in, edges
 * out of reached states never taken (dashed in the diagram). The verdict
 * depends on neither. */
static void put_system_coverage(strbuf *b, const review_page *p, const ast_thread *t) {
  const json_t *j = json_object_get(p->unused_by_system, t->name);
  const json_t *edges = json_object_get(j, "never_taken"), *states = json_object_get(j, "never_reached");
  if (!j) return;
  if (!json_array_size(edges) && !json_array_size(states)) {
    sbuf_puts(b, "<p class=\"vacuity\">Composition: every state is reached and every edge out of one is taken.</p>\n");
    return;
  }
  sbuf_puts(b, "<p class=\"vacuity\">Never used by the composition (the safe verdict depends on none of them):</p>\n"
               "<ul class=\"vacuity\">");
  size_t i;
  const json_t *k;
  json_array_foreach(states, i, k)
      sbuf_printf(b, "<li data-state=\"s_%s_%" JSON_INTEGER_FORMAT "\">state <code>%s</code>: never reached</li>",
                  t->name, json_integer_value(k), t->states.items[json_integer_value(k)]->name);
  json_array_foreach(edges, i, k) {
    const ast_edge *e = t->edges.items[json_integer_value(k)];
    sbuf_printf(
        b, "<li data-edge=\"e_%s_%" JSON_INTEGER_FORMAT "\">edge <code>%s -&gt; %s</code>: never taken (dashed)</li>",
        t->name, json_integer_value(k), e->from, e->to);
  }
  sbuf_puts(b, "</ul>\n");
}

static void put_conformance(strbuf *b, const review_page *p, const ast_thread *t) {
  const json_t *j = p->code ? json_object_get(json_object_get(p->code, "threads"), t->name) : NULL;
  if (!p->code) sbuf_puts(b, "<p class=\"conformance\">Conformance: not checked (no C files given).</p>\n");
  else if (!json_is_true(json_object_get(p->code, "threads_checked")))
    sbuf_puts(b, "<p class=\"conformance verdict-unknown\">Conformance: <strong>not checked</strong>: athread check "
                 "checks the threads only when the abstract system is safe.</p>\n");
  else if (!j)
    sbuf_printf(b,
                "<p class=\"conformance verdict-unknown\">Conformance: <strong>not checked</strong>: no C function "
                "implements %s (add <code>implements FUNCTION</code> or <code>--thread %s=FUNCTION</code>).</p>\n",
                t->name, t->name);
  if (!j) return;
  const char *said = member(j, "verdict", "unknown");
  sbuf_printf(b, "<p class=\"conformance verdict-%s\">Conformance of the C function <code>", conform_class(said));
  put_text(b, member(j, "function", ""));
  sbuf_printf(b, "</code>: <strong>%s</strong> (engine %s, %.2f s)", said, member(j, "engine", "none"),
              json_real_value(json_object_get(j, "seconds")));
  const char *reason = member(j, "reason", NULL);
  if (reason) {
    sbuf_puts(b, ": ");
    put_text(b, reason);
  }
  sbuf_puts(b, ".</p>\n");
  put_coverage(b, t, j);
}

static void put_thread(strbuf *b, const review_page *p, size_t i) {
  const ast_thread *t = p->spec->threads.items[i];
  sbuf_printf(b, "<section id=\"thread-%s\" class=\"thread\" data-thread=\"%s\"><h2>Thread %s</h2>\n", t->name, t->name,
              t->name);
  if (t->impl && !p->code) sbuf_printf(b, "<p>Implemented by the C function <code>%s</code>.</p>\n", t->impl);
  put_conformance(b, p, t);
  put_system_coverage(b, p, t);
  const json_t *j = p->code ? json_object_get(json_object_get(p->code, "threads"), t->name) : NULL;
  if (json_object_get(j, "counterexample")) put_code_trace(b, p, i, j);
  else put_diagram(b, p, i);
  sbuf_puts(b, "</section>\n");
}

/* ": WHY" of a compose report j: its counterexample's violation, else its
 * reason; nothing when it has neither. */
static void put_why(strbuf *b, const json_t *j) {
  const char *why =
      member(json_object_get(json_object_get(j, "trace"), "violation"), "message", member(j, "reason", NULL));
  if (!why) return;
  sbuf_puts(b, ": ");
  put_text(b, why);
}

/* ---------------------------------------------------------------- composition */

static void put_statistic(strbuf *b, const json_t *stats, const char *name, const char *label) {
  json_t *v = json_object_get(stats, name);
  if (json_is_integer(v)) sbuf_printf(b, "<li>%s: %" JSON_INTEGER_FORMAT "</li>\n", label, json_integer_value(v));
  if (json_is_real(v)) sbuf_printf(b, "<li>%s: %.3f</li>\n", label, json_real_value(v));
}

/* --for-all's part (below: it lists steps as the counterexample does). */
static void put_for_all(strbuf *b, const review_page *p);

static void put_composition(strbuf *b, const review_page *p) {
  const json_t *j = p->compose;
  const char *said = member(j, "verdict", "unknown");
  sbuf_printf(b,
              "<section id=\"composition\"><h2>Composition</h2>\n<p class=\"verdict verdict-%s\">Verdict: "
              "<strong>%s</strong>",
              said, said);
  put_why(b, j);
  sbuf_puts(b, "</p>\n<ul>\n<li>engine: ");
  put_text(b, member(j, "engine", ""));
  sbuf_puts(b, " (");
  put_text(b, member(j, "engine_reason", ""));
  sbuf_puts(b, ")</li>\n");
  const json_t *stats = json_object_get(j, "statistics");
  put_statistic(b, stats, "states", "states");
  put_statistic(b, stats, "transitions", "transitions");
  put_statistic(b, stats, "depth", "depth");
  put_statistic(b, stats, "seconds", "seconds");
  sbuf_puts(b, "</ul>\n");
  if (p->for_all) put_for_all(b, p);
  sbuf_puts(b, "</section>\n");
}

/* ---------------------------------------------------------------- the C program */

/* With C files: the C program's verdict by the theorem, as athread check
 * gives it, and the assumptions it rests on. */
static void put_program(strbuf *b, const review_page *p) {
  const char *said = member(p->code, "verdict", "unknown");
  const char *css = strcmp(said, "safe") == 0 ? "safe" : strcmp(said, "not proved") == 0 ? "unsafe" : "unknown";
  sbuf_printf(
      b,
      "<section id=\"program\"><h2>The C program</h2>\n<p class=\"verdict verdict-%s\">Verdict: <strong>%s</strong>: ",
      css, said);
  put_text(b, member(p->code, "reason", ""));
  sbuf_puts(b, ".</p>\n<p>By the theorem: when every thread conforms to its abstract thread and the abstract system is "
               "safe, the C program is safe (the verdict <code>athread check</code> gives).</p>\n");
  if (p->rq->for_all)
    sbuf_printf(b,
                "<p class=\"note\">This verdict is for the system as the spec declares it, not for every %s: "
                "<code>athread check --for-all %s</code> checks the threads for every %s.</p>\n",
                p->rq->for_all, p->rq->for_all, p->rq->for_all);
  const json_t *assumptions = json_object_get(p->code, "assumptions");
  if (assumptions) {
    sbuf_puts(b, "<p class=\"assumptions\"><strong>Assumptions of the threads' verdicts:</strong> ");
    put_text(b, member(assumptions, "text", ""));
    sbuf_puts(b, ".</p>\n");
  }
  sbuf_puts(b, "</section>\n");
}

/* ---------------------------------------------------------------- counterexample */

/* "flag1, turn": the names in the array changed, or "nothing". */
static void put_changed(strbuf *b, const json_t *changed) {
  size_t i;
  const json_t *name;
  if (!json_array_size(changed)) sbuf_puts(b, "no shared variable");
  json_array_foreach(changed, i, name) {
    sbuf_puts(b, i ? ", " : "");
    put_text(b, json_string_value(name));
  }
}

static void put_step(strbuf *b, const json_t *step) {
  sbuf_printf(b, "<li data-step=\"%" JSON_INTEGER_FORMAT "\"><span class=\"who\">",
              json_integer_value(json_object_get(step, "step")));
  put_text(b, member(step, "instance", ""));
  sbuf_puts(b, "</span> takes <code>");
  put_text(b, member(step, "edge_text", ""));
  sbuf_puts(b, "</code>; changes ");
  put_changed(b, json_object_get(step, "changed"));
  sbuf_puts(b, "</li>\n");
}

/* The step control, above every section and kept in view, so that the
 * diagrams it highlights can be looked at while stepping. */
static void put_stepper(strbuf *b, const json_t *trace) {
  sbuf_printf(b,
              "<div class=\"stepper\" role=\"group\" aria-label=\"step through the counterexample\">"
              "<a href=\"#counterexample\">Counterexample</a>: "
              "<button type=\"button\" data-go=\"first\">first</button>"
              "<button type=\"button\" data-go=\"back\">back</button>"
              "<input type=\"range\" id=\"step\" min=\"0\" max=\"%zu\" value=\"0\" "
              "aria-label=\"step (arrow keys move)\">"
              "<button type=\"button\" data-go=\"forward\">forward</button>"
              "<button type=\"button\" data-go=\"last\">last</button>"
              " <output id=\"step-label\" aria-live=\"polite\">initial state</output></div>\n",
              json_array_size(json_object_get(trace, "steps")));
}

/* The state at the current step (page.js fills it in) and every step listed
 * (page.js marks the current one; printed, the list is the trace). */
static void put_counterexample(strbuf *b, const json_t *trace) {
  sbuf_puts(b, "<section id=\"counterexample\"><h2>Counterexample</h2>\n"
               "<table id=\"state\"><caption>State at this step (changed values marked *)</caption></table>\n"
               "<ol class=\"steps\">\n");
  size_t i;
  const json_t *step;
  json_array_foreach(json_object_get(trace, "steps"), i, step) put_step(b, step);
  sbuf_puts(b, "</ol>\n</section>\n");
}

/* ---------------------------------------------------------------- for every N */

/* "safe for every N &ge; 1", "unsafe for N = 1: WHY", "unknown for every N &ge; 1: WHY". */
static void put_for_all_verdict(strbuf *b, const json_t *j, const char *n) {
  const char *said = member(j, "verdict", "unknown");
  sbuf_printf(b, "<p class=\"verdict verdict-%s for-all\">Verdict: <strong>%s</strong> for ", said, said);
  json_t *found = json_object_get(json_object_get(j, "for_all"), "n");
  if (found) sbuf_printf(b, "%s = %" JSON_INTEGER_FORMAT, n, json_integer_value(found));
  else sbuf_printf(b, "every %s &ge; 1", n);
  put_why(b, j);
  sbuf_puts(b, "</p>\n");
}

/* What the all-N check covers: every N from the lower bound, not the
 * spec's value, by one counter per state of the counted instances. */
static void put_for_all_scope(strbuf *b, const json_t *fa, const char *n) {
  bool from_set = strcmp(member(fa, "ignored_from", ""), "--set") == 0;
  sbuf_printf(
      b, "<li>not used: %s = %" JSON_INTEGER_FORMAT " %s; the %s covers every %s &ge; %" JSON_INTEGER_FORMAT "</li>\n",
      n, json_integer_value(json_object_get(fa, "ignored_value")), from_set ? "from --set" : "in the spec",
      json_object_get(fa, "invariant_atoms") ? "proof" : "search", n,
      json_integer_value(json_object_get(fa, "lower_bound")));
  sbuf_puts(b, "<li>counter abstraction: one counter per state of ");
  put_text(b, member(fa, "counted", ""));
  if (*member(fa, "explicit", "")) sbuf_printf(b, "; explicit: %s", member(fa, "explicit", ""));
  sbuf_puts(b, "</li>\n");
}

/* Safe: the invariant's checks. Unsafe: BMC's depth, then the engine that
 * re-ran the concrete system for the trace. */
static void put_for_all_evidence(strbuf *b, const json_t *j, const char *n) {
  const json_t *fa = json_object_get(j, "for_all"), *concrete = json_object_get(j, "concrete");
  json_t *atoms = json_object_get(fa, "invariant_atoms");
  if (atoms)
    sbuf_printf(
        b,
        "<li>the inductive invariant over the counters passed three independent Z3 checks (%" JSON_INTEGER_FORMAT
        " atoms)</li>\n",
        json_integer_value(atoms));
  if (!concrete) return;
  sbuf_printf(b,
              "<li>found by bounded model checking of the counter system: depth %" JSON_INTEGER_FORMAT
              ", the smallest %s with a counterexample that short</li>\n",
              json_integer_value(json_object_get(json_object_get(j, "statistics"), "depth")), n);
  sbuf_printf(b, "<li>trace by engine %s with %s = %" JSON_INTEGER_FORMAT " (", member(concrete, "engine", ""), n,
              json_integer_value(json_object_get(fa, "n")));
  put_text(b, member(concrete, "engine_reason", ""));
  sbuf_puts(b, ")</li>\n");
}

/* What the all-N verdict rests on, in compose --for-all's words. */
static void put_for_all_facts(strbuf *b, const json_t *j, const char *n) {
  sbuf_puts(b, "<ul>\n<li>engine: for-all (");
  put_text(b, member(j, "engine_reason", ""));
  sbuf_puts(b, ")</li>\n");
  put_for_all_scope(b, json_object_get(j, "for_all"), n);
  put_for_all_evidence(b, j, n);
  put_statistic(b, json_object_get(j, "statistics"), "seconds", "seconds");
  sbuf_puts(b, "</ul>\n");
}

/* The counterexample of an unsafe all-N verdict, for the N it found: its
 * steps listed (the stepper above steps through the spec's own N). */
static void put_for_all_trace(strbuf *b, const review_page *p, const json_t *trace, const char *n) {
  json_int_t found = json_integer_value(json_object_get(json_object_get(p->for_all, "for_all"), "n"));
  sbuf_printf(b,
              "<p>The counterexample with %s = %" JSON_INTEGER_FORMAT " (to step through it on the diagrams: "
              "<code>athread review ",
              n, found);
  put_text(b, p->rq->spec_path);
  sbuf_printf(b, " --set %s=%" JSON_INTEGER_FORMAT "</code>):</p>\n<ol class=\"for-all-steps\">\n", n, found);
  size_t i;
  const json_t *step;
  json_array_foreach(json_object_get(trace, "steps"), i, step) put_step(b, step);
  sbuf_puts(b, "</ol>\n");
}

/* --for-all: the verdict for every N, as compose --for-all gives it. */
static void put_for_all(strbuf *b, const review_page *p) {
  const json_t *j = p->for_all;
  const char *n = p->rq->for_all;
  sbuf_printf(b, "<h3 id=\"for-all\">For every %s &ge; 1 (<code>--for-all %s</code>)</h3>\n", n, n);
  put_for_all_verdict(b, j, n);
  put_for_all_facts(b, j, n);
  sbuf_puts(b, "<p class=\"assumptions\"><strong>Assumptions:</strong> ");
  put_text(b, member(json_object_get(j, "assumptions"), "text", ""));
  sbuf_puts(b, ".</p>\n");
  const json_t *trace = json_object_get(j, "trace");
  if (trace) put_for_all_trace(b, p, trace, n);
}

/* ---------------------------------------------------------------- data */

/* The instances in system order, each with its thread and its states'
 * names, which page.js needs to find the diagrams' nodes. Returns new. */
static json_t *instances_json(const ast_spec *spec) {
  json_t *list = json_array();
  vec_foreach(&spec->instances, i) {
    const ast_instance *in = spec->instances.items[i];
    const ast_thread *t = spec->threads.items[in->thread_index];
    for (int64_t k = 0; k < in->count_value; k++) {
      json_t *name = in->count_value == 1 ? json_string(t->name) : json_sprintf("%s[%" PRId64 "]", t->name, k + 1);
      json_array_append_new(list, json_pack("{s:o,s:s}", "name", name, "thread", t->name));
    }
  }
  return list;
}

static json_t *states_json(const ast_spec *spec) {
  json_t *threads = json_object();
  vec_foreach(&spec->threads, i) {
    const ast_thread *t = spec->threads.items[i];
    json_t *names = json_array();
    vec_foreach(&t->states, s) json_array_append_new(names, json_string(t->states.items[s]->name));
    json_object_set_new(threads, t->name, names);
  }
  return threads;
}

/* The data as a JSON script element; "</" is written "<\/" so that no
 * string in it ends the element. */
static void put_data(strbuf *b, const review_page *p) {
  json_t *data = json_pack("{s:o,s:o,s:O}", "instances", instances_json(p->spec), "states", states_json(p->spec),
                           "compose", p->compose);
  if (p->code) json_object_set(data, "code", (json_t *)p->code);
  char *text = json_dumps(data, JSON_COMPACT | JSON_PRESERVE_ORDER);
  sbuf_puts(b, "<script type=\"application/json\" id=\"review-data\">");
  for (const char *s = text; *s; s++) {
    if (s[0] == '<' && s[1] == '/') sbuf_putc(b, '<'), sbuf_putc(b, '\\');
    else sbuf_putc(b, *s);
  }
  sbuf_puts(b, "</script>\n");
  free(text);
  json_decref(data);
}

/* ---------------------------------------------------------------- the page */

static void put_head(strbuf *b, const review_page *p) {
  sbuf_puts(b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>athread review: ");
  put_text(b, p->rq->spec_path);
  sbuf_puts(b, "</title>\n<style>\n");
  sbuf_putn(b, (const char *)review_page_css, review_page_css_len);
  sbuf_puts(b, "</style>\n</head>\n<body>\n<header><h1>athread review: <code>");
  put_text(b, p->rq->spec_path);
  sbuf_printf(b, "</code></h1>\n<p class=\"made\">Made by athread %s with <code>", p->rq->version);
  put_text(b, p->rq->command_line);
  sbuf_puts(b, "</code></p>\n</header>\n");
}

static void put_nav(strbuf *b, const ast_spec *spec, bool trace, bool code) {
  sbuf_puts(b, "<nav aria-label=\"sections\"><ul><li><a href=\"#overview\">Overview</a></li>");
  vec_foreach(&spec->threads, i)
    sbuf_printf(b, "<li><a href=\"#thread-%s\">Thread %s</a></li>", spec->threads.items[i]->name,
                spec->threads.items[i]->name);
  sbuf_puts(b, "<li><a href=\"#composition\">Composition</a></li>");
  if (code) sbuf_puts(b, "<li><a href=\"#program\">The C program</a></li>");
  if (trace) sbuf_puts(b, "<li><a href=\"#counterexample\">Counterexample</a></li>");
  sbuf_puts(b, "</ul></nav>\n<main>\n");
}

void review_page_build(strbuf *out, const review_page *p) {
  const json_t *trace = json_object_get(p->compose, "trace");
  put_head(out, p);
  put_nav(out, p->spec, trace, p->code);
  if (trace) put_stepper(out, trace);
  put_overview(out, p);
  vec_foreach(&p->spec->threads, i) put_thread(out, p, i);
  put_composition(out, p);
  if (p->code) put_program(out, p);
  if (trace) put_counterexample(out, trace);
  sbuf_puts(out, "</main>\n");
  put_data(out, p);
  sbuf_puts(out, "<script>\n");
  sbuf_putn(out, (const char *)review_page_js, review_page_js_len);
  sbuf_puts(out, "</script>\n</body>\n</html>\n");
}
