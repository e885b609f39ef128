/* review/review.c -- athread review's pipeline: check the spec's
 * composition (compose_run, reported as compose --json reports it) and,
 * given C files, each thread's conformance (conform_run, reported as conform
 * --json reports it) and the C program's verdict (check_conclude); draw each
 * thread with viz_render; write the page (review-page.c). */
#include <stdlib.h>
#include <string.h>

#include "../compose/report.h"
#include "../compose/run.h"
#include "../conformance/check.h"
#include "../conformance/report.h"
#include "../core/json-text.h"
#include "../core/outfile.h"
#include "../core/smt.h"
#include "../viz/viz.h"
#include "review-impl.h"

/* ---------------------------------------------------------------- compose */

/* compose's JSON report of run (as `athread compose --json` makes it, with
 * times). Returns a new reference. */
static json_t *compose_json(const review_request *rq, const ast_spec *spec, const compose_run_result *run) {
  report_context c = {.spec = spec,
                      .spec_path = rq->spec_path,
                      .system = spec->system ? spec->system->name : "(one instance of each thread)",
                      .engine = run->symbolic ? "symbolic" : "explicit",
                      .engine_why = run->why,
                      .symmetry = !run->symbolic,
                      .timing = true};
  return report_json(&c, run->m, &run->r);
}

/* Checks spec's composition as `athread compose` does by default, into
 * c->compose; NULL after a report when the model cannot be built, else its
 * JSON report (a new reference). */
static json_t *check_composition(const review_request *rq, ast_spec *spec, check_result *c) {
  compose_request crq = {.engine = "auto", .symmetry = true, .limits = rq->limits, .spec_options = rq->spec};
  compose_run(spec, &crq, &c->compose);
  return c->compose.failure == COMPOSE_BAD_INPUT ? NULL : compose_json(rq, spec, &c->compose);
}

/* ---------------------------------------------------------------- code */

/* The job of thread t in run, or NULL when t has no C function. */
static const conform_job *job_of(const check_result *c, const ast_thread *t) {
  if (!c->conform_ran) return NULL;
  vec_foreach(&c->conform.jobs, i)
    if (c->conform.jobs.items[i].thread == t) return &c->conform.jobs.items[i];
  return NULL;
}

/* conform --json's report of job j, with its coverage: "unused_edges" (the
 * indices of the edges the code never uses) and "coverage_complete". */
static json_t *job_json(const conform_run_result *run, const conform_job *j) {
  conform_report r = {.thread = j->thread, .ins = j->ins, .r = &j->r, .env = &run->env, .timing = true};
  json_t *o = report_conform_json(&r);
  json_object_set_new(o, "function", json_text(j->function));
  if (!j->unused) return o;
  json_t *unused = json_array();
  vec_foreach(&j->thread->edges, k)
    if (j->unused[k]) json_array_append_new(unused, json_integer((json_int_t)k));
  json_object_set_new(o, "unused_edges", unused);
  json_object_set_new(o, "coverage_complete", json_boolean(j->coverage_complete));
  return o;
}

/* Each C file's text by its name, for the source panes; NULL after a
 * report when one cannot be read. */
static json_t *sources_json(diag_sink *sink, const conform_request *code) {
  json_t *o = json_object();
  for (size_t i = 0; i < code->file_count; i++) {
    diag_source *src = diag_source_load(sink, code->files[i]);
    if (!src) return json_decref(o), NULL;
    json_object_set_new(o, code->files[i], json_text(src->text));
    diag_source_free(src);
  }
  return o;
}

/* The code's part of the page: the C program's verdict by the theorem,
 * whether the threads were checked (athread check stops at an unsafe
 * system), their assumptions, each implemented thread's report by name, the
 * C files. */
static json_t *code_json(diag_sink *sink, const review_request *rq, const check_result *c) {
  json_t *sources = sources_json(sink, rq->code);
  if (!sources) return NULL;
  json_t *threads = json_object();
  vec_foreach(&c->conform.jobs, i)
    json_object_set_new(threads, c->conform.jobs.items[i].thread->name,
                        job_json(&c->conform, &c->conform.jobs.items[i]));
  json_t *o = json_pack("{s:s,s:s,s:b,s:o,s:o}", "verdict", check_verdict_text(c->verdict), "reason", c->reason,
                        "threads_checked", c->conform_ran, "threads", threads, "sources", sources);
  conform_semantics semantics = {.atomicity = rq->code->atomicity, .ints = rq->code->ints, .env = &c->conform.env};
  if (c->conform_ran) json_object_set_new(o, "assumptions", report_assumptions_json(&semantics));
  return o;
}

/* Checks every implemented thread (with coverage) and concludes for the C
 * program; NULL after a report when the C files do not lower. */
static json_t *check_code(diag_sink *sink, const review_request *rq, ast_spec *spec, check_result *c) {
  conform_request code = *rq->code;
  code.coverage = true;
  c->conform_ran = true;
  if (!conform_run(sink, spec, &code, &c->conform)) return NULL;
  check_conclude(spec, rq->code, c);
  return code_json(sink, rq, c);
}

/* ---------------------------------------------------------------- diagrams */

/* Removes the first occurrence of text from s. */
static void cut(char *s, const char *text) {
  char *at = strstr(s, text);
  if (at) memmove(at, at + strlen(text), strlen(at + strlen(text)) + 1);
}

/* The SVG element of viz's output, without the XML prologue before it and
 * without its namespace declarations, which HTML does not need (and whose
 * http:// names would look like references to a reader of the page). */
static void svg_element(char *svg) {
  char *start = strstr(svg, "<svg");
  if (start) memmove(svg, start, strlen(start) + 1);
  cut(svg, " xmlns=\"http://www.w3.org/2000/svg\"");
  cut(svg, " xmlns:xlink=\"http://www.w3.org/1999/xlink\"");
}

/* Draws each thread of spec into svgs (per thread, owned: free with free()),
 * in one Graphviz session (viz_session_new says why). */
static review_outcome draw_threads(diag_sink *sink, const review_request *rq, const ast_spec *spec,
                                   const check_result *c, char **svgs) {
  viz_session *s = viz_session_new();
  review_outcome result = REVIEW_WRITTEN;
  vec_foreach(&spec->threads, i) {
    const conform_job *j = job_of(c, spec->threads.items[i]);
    viz_options o = {
        .only = spec->threads.items[i], .spec_name = rq->spec_path, .ids = true, .unused = j ? j->unused : NULL};
    size_t len;
    viz_result r = viz_render_in(s, sink, spec, &o, VIZ_SVG, &svgs[i], &len);
    if (r != VIZ_DONE) {
      result = r == VIZ_REFUSED ? REVIEW_BAD_INPUT : REVIEW_FAILED;
      break;
    }
    svg_element(svgs[i]);
  }
  viz_session_free(s);
  return result;
}

/* ---------------------------------------------------------------- the page */

static review_outcome write_page(diag_sink *sink, const review_page *p) {
  strbuf html = {0};
  review_page_build(&html, p);
  bool ok = outfile_write(sink, p->rq->output, sbuf_str(&html), html.len);
  sbuf_free(&html);
  return ok ? REVIEW_WRITTEN : REVIEW_BAD_INPUT;
}

/* Draws the threads and writes the page of the checks' reports. */
static review_outcome write_review(diag_sink *sink, const review_request *rq, const ast_spec *spec,
                                   const check_result *c, const json_t *compose, const json_t *code) {
  char **svgs = xcalloc(spec->threads.len + 1, sizeof *svgs);
  review_outcome r = draw_threads(sink, rq, spec, c, svgs);
  review_page p = {.spec = spec, .rq = rq, .compose = compose, .code = code, .thread_svgs = svgs};
  if (r == REVIEW_WRITTEN) r = write_page(sink, &p);
  vec_foreach(&spec->threads, i) free(svgs[i]);
  free(svgs);
  return r;
}

review_outcome review_write(diag_sink *sink, ast_spec *spec, const review_request *rq) {
  check_result c = {0};
  json_t *compose = check_composition(rq, spec, &c);
  json_t *code = compose && rq->code ? check_code(sink, rq, spec, &c) : NULL;
  review_outcome r = REVIEW_BAD_INPUT;
  if (compose && (code || !rq->code)) r = write_review(sink, rq, spec, &c, compose, code);
  check_run_free(&c);
  json_decref(compose);
  json_decref(code);
  smt_shutdown();
  return r;
}

review_outcome review_write_checked(diag_sink *sink, const ast_spec *spec, const review_request *rq,
                                    const check_result *c) {
  json_t *compose = compose_json(rq, spec, &c->compose);
  json_t *code = code_json(sink, rq, c);
  review_outcome r = code ? write_review(sink, rq, spec, c, compose, code) : REVIEW_BAD_INPUT;
  json_decref(compose);
  json_decref(code);
  return r;
}
