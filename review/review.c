/* review/review.c -- athread review's pipeline: check the spec's
 * composition (compose_run, reported as compose --json reports it; with
 * --for-all also as compose --for-all does) and, given C files, each
 * thread's conformance (conform_run, reported as conform --json reports it)
 * and the C program's verdict (check_conclude); draw the system and each
 * thread with viz_render_in; write the page (review-page.c). */
#include <stdlib.h>
#include <string.h>

#include "../compose/run.h"
#include "../conformance/check.h"
#include "../conformance/report.h"
#include "../core/json-text.h"
#include "../core/outfile.h"
#include "../core/smt.h"
#include "../viz/viz.h"
#include "review-impl.h"

/* ---------------------------------------------------------------- compose */

/* The JSON report of run (as --json prints it, with times): compose's, or
 * with for_all compose --for-all's. Returns a new reference. */
static json_t *compose_json(const review_request *rq, const ast_spec *spec, const char *for_all,
                            const compose_run_result *run) {
  compose_report rep;
  compose_report_of(rq->spec_path, spec, for_all, run, true, &rep);
  return compose_report_json(&rep, run);
}

/* Checks spec's composition as `athread compose` does by default, into
 * c->compose; NULL after a report when the model cannot be built, else its
 * JSON report (a new reference). */
static json_t *check_composition(const review_request *rq, ast_spec *spec, check_result *c) {
  compose_request crq = {.engine = "auto", .symmetry = true, .limits = rq->limits, .spec_options = rq->spec};
  compose_run(spec, &crq, &c->compose);
  return c->compose.failure == COMPOSE_BAD_INPUT ? NULL : compose_json(rq, spec, NULL, &c->compose);
}

/* Checks spec for every N as `athread compose --for-all N` does and returns
 * its JSON report; NULL after a report when --for-all cannot apply, or
 * (*failed set) when its concrete re-run does not load or is safe: an
 * internal error. Returns a new reference. */
static json_t *check_for_all(diag_sink *sink, const review_request *rq, ast_spec *spec, bool *failed) {
  compose_request crq = {
      .engine = "auto", .symmetry = true, .limits = rq->limits, .spec_options = rq->spec, .for_all = rq->for_all};
  compose_run_result run;
  compose_run(spec, &crq, &run);
  json_t *j = NULL;
  if (run.failure == COMPOSE_RERUN_INTERNAL) {
    diag_error_at(sink, "athread", "--for-all %s: %s", rq->for_all, run.fr.unknown_reason);
    *failed = true;
  } else if (run.failure != COMPOSE_BAD_INPUT) {
    j = compose_json(rq, spec, rq->for_all, &run);
  }
  compose_run_free(&run);
  return j;
}

/* What the composition never used, per thread the system runs (by name):
 * {"never_taken": [edge indices], "never_reached": [state indices]} as
 * compose's [-Wnever-taken] and [-Wnever-reached] say it; NULL when the
 * run does not know (not the explicit engine's safe verdict). Returns new. */
static json_t *unused_by_system_json(const ast_spec *spec, const compose_coverage *cov) {
  if (!cov->taken) return NULL;
  json_t *o = json_object();
  vec_foreach(&spec->threads, i) {
    const ast_thread *t = spec->threads.items[i];
    json_t *edges = json_array(), *states = json_array();
    bool ran = false;
    vec_foreach(&t->states, q) {
      ran = ran || cov->reached[i][q];
      if (!cov->reached[i][q]) json_array_append_new(states, json_integer((json_int_t)q));
    }
    vec_foreach(&t->edges, d)
      if (!cov->taken[i][d] && cov->reached[i][t->edges.items[d]->from_index])
        json_array_append_new(edges, json_integer((json_int_t)d));
    json_t *entry = json_pack("{s:o,s:o}", "never_taken", edges, "never_reached", states);
    if (ran) json_object_set_new(o, t->name, entry);
    else json_decref(entry);
  }
  return o;
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

/* The drawings of a page, as SVG elements (owned: free with drawings_free). */
typedef struct drawings {
  char *system;   /* the whole system, with viz's legend; NULL when too large for dot */
  char **threads; /* per thread of the spec: its states and edges, without the legend */
} drawings;

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

/* Draws the whole system as `athread viz SPEC` does (legend included, no
 * ids: those belong to the threads' own drawings, which page.js marks).
 * NULL when it has more nodes than viz lets dot lay out: each thread is
 * drawn on its own anyway. Returns owned (free with free()), or NULL. */
static char *draw_system(viz_session *s, diag_sink *sink, const review_request *rq, const ast_spec *spec,
                         review_outcome *result) {
  diag_sink quiet = {0}; /* "too many nodes" is a note on the page, not an error */
  viz_options o = {.spec_name = rq->spec_path};
  char *svg = NULL;
  size_t len;
  viz_result r = viz_render_in(s, &quiet, spec, &o, VIZ_SVG, &svg, &len);
  if (r == VIZ_FAILED) {
    diag_error_at(sink, "athread", "%s", quiet.first_error);
    *result = REVIEW_FAILED;
  }
  if (svg) svg_element(svg);
  diag_sink_free(&quiet);
  return svg;
}

/* The edges of thread i drawn dashed: those its code never uses (c's
 * conform --coverage) and those the composition never takes from a state
 * it reaches. Returns owned (free with free()), or NULL: none known. */
static bool *unused_edges(const ast_spec *spec, const check_result *c, size_t i) {
  const conform_job *j = job_of(c, spec->threads.items[i]);
  const compose_coverage *cov = &c->compose.cover;
  if (!(j && j->unused) && !cov->taken) return NULL;
  const ast_thread *t = spec->threads.items[i];
  bool *dashed = xcalloc(t->edges.len + 1, sizeof *dashed);
  vec_foreach(&t->edges, d) {
    bool untaken = cov->taken && !cov->taken[i][d] && cov->reached[i][t->edges.items[d]->from_index];
    dashed[d] = (j && j->unused && j->unused[d]) || untaken;
  }
  return dashed;
}

/* Draws each thread of spec into svgs (per thread, owned: free with free()),
 * without viz's legend, which the page's overview shows once, and with the
 * edges its code never uses (c's coverage) dashed. */
static review_outcome draw_threads(viz_session *s, diag_sink *sink, const review_request *rq, const ast_spec *spec,
                                   const check_result *c, char **svgs) {
  vec_foreach(&spec->threads, i) {
    bool *dashed = unused_edges(spec, c, i);
    viz_options o = {
        .only = spec->threads.items[i], .spec_name = rq->spec_path, .ids = true, .no_legend = true, .unused = dashed};
    size_t len;
    viz_result r = viz_render_in(s, sink, spec, &o, VIZ_SVG, &svgs[i], &len);
    free(dashed);
    if (r != VIZ_DONE) return r == VIZ_REFUSED ? REVIEW_BAD_INPUT : REVIEW_FAILED;
    svg_element(svgs[i]);
  }
  return REVIEW_WRITTEN;
}

/* The system's drawing and each thread's, in one Graphviz session
 * (viz_session_new says why). */
static review_outcome draw(diag_sink *sink, const review_request *rq, const ast_spec *spec, const check_result *c,
                           drawings *d) {
  viz_session *s = viz_session_new();
  review_outcome result = REVIEW_WRITTEN;
  d->system = draw_system(s, sink, rq, spec, &result);
  d->threads = xcalloc(spec->threads.len + 1, sizeof *d->threads);
  if (result == REVIEW_WRITTEN) result = draw_threads(s, sink, rq, spec, c, d->threads);
  viz_session_free(s);
  return result;
}

static void drawings_free(const ast_spec *spec, drawings *d) {
  free(d->system);
  vec_foreach(&spec->threads, i) free(d->threads[i]);
  free(d->threads);
}

/* ---------------------------------------------------------------- the page */

static review_outcome write_page(diag_sink *sink, const review_page *p) {
  strbuf html = {0};
  review_page_build(&html, p);
  bool ok = outfile_write(sink, p->rq->output, sbuf_str(&html), html.len);
  sbuf_free(&html);
  return ok ? REVIEW_WRITTEN : REVIEW_BAD_INPUT;
}

/* The checks' reports (borrowed): compose's, --for-all's (or NULL), the code's (or NULL). */
typedef struct reports {
  const json_t *compose, *for_all, *code;
} reports;

/* Draws spec and writes the page of the checks' reports. */
static review_outcome review_checked(diag_sink *sink, const review_request *rq, const ast_spec *spec,
                                     const check_result *c, const reports *j) {
  drawings d;
  review_outcome r = draw(sink, rq, spec, c, &d);
  json_t *unused = unused_by_system_json(spec, &c->compose.cover);
  review_page p = {.spec = spec,
                   .rq = rq,
                   .unused_by_system = unused,
                   .compose = j->compose,
                   .for_all = j->for_all,
                   .code = j->code,
                   .thread_svgs = d.threads,
                   .system_svg = d.system};
  if (r == REVIEW_WRITTEN) r = write_page(sink, &p);
  drawings_free(spec, &d);
  json_decref(unused);
  return r;
}

review_outcome review_write(diag_sink *sink, ast_spec *spec, const review_request *rq) {
  check_result c = {0};
  bool failed = false;
  json_t *compose = check_composition(rq, spec, &c);
  json_t *for_all = compose && rq->for_all ? check_for_all(sink, rq, spec, &failed) : NULL;
  bool checked = compose && (for_all || !rq->for_all);
  json_t *code = checked && rq->code ? check_code(sink, rq, spec, &c) : NULL;
  review_outcome r = failed ? REVIEW_FAILED : REVIEW_BAD_INPUT;
  reports j = {compose, for_all, code};
  if (checked && (code || !rq->code)) r = review_checked(sink, rq, spec, &c, &j);
  check_run_free(&c);
  json_decref(compose);
  json_decref(for_all);
  json_decref(code);
  smt_shutdown(); /* once, after every run that may have used Z3 */
  return r;
}

review_outcome review_write_checked(diag_sink *sink, const ast_spec *spec, const review_request *rq,
                                    const check_result *c) {
  json_t *compose = compose_json(rq, spec, NULL, &c->compose);
  json_t *code = code_json(sink, rq, c);
  reports j = {compose, NULL, code};
  review_outcome r = code ? review_checked(sink, rq, spec, c, &j) : REVIEW_BAD_INPUT;
  json_decref(compose);
  json_decref(code);
  return r;
}
