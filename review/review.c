/* review/review.c -- athread review's pipeline: load the spec, check its
 * composition (compose_run, reported as compose --json reports it; with
 * --for-all also as compose --for-all does), draw the system and each
 * thread with viz_render_in, and write the page (review-page.c). */
#include <stdlib.h>
#include <string.h>

#include "../compose/run.h"
#include "../core/outfile.h"
#include "../core/smt.h"
#include "../viz/viz.h"
#include "review-impl.h"

/* ---------------------------------------------------------------- compose */

/* Checks spec's composition as `athread compose` does by default, or with
 * for_all as `athread compose --for-all N` does, and returns its JSON
 * report (as --json prints it, with times); NULL after a report when the
 * model or --for-all cannot apply, or (*failed set) when --for-all's
 * concrete re-run does not load or is safe: an internal error. Sets *z3
 * when the run used Z3 (whose tables the caller releases once, at the
 * end). Returns a new reference. */
static json_t *check_composition(diag_sink *sink, const review_request *rq, ast_spec *spec, const char *for_all,
                                 bool *failed, bool *z3) {
  compose_request crq = {
      .engine = "auto", .symmetry = true, .limits = rq->limits, .spec_options = rq->spec, .for_all = for_all};
  compose_run_result run;
  compose_run(spec, &crq, &run);
  json_t *j = NULL;
  if (run.failure == COMPOSE_RERUN_INTERNAL) {
    diag_error_at(sink, "athread", "--for-all %s: %s", for_all, run.fr.unknown_reason);
    *failed = true;
  } else if (run.failure != COMPOSE_BAD_INPUT) {
    compose_report rep;
    compose_report_of(rq->spec_path, spec, for_all, &run, true, &rep);
    j = compose_report_json(&rep, &run);
  }
  *z3 |= run.symbolic || for_all;
  compose_run_free(&run);
  return j;
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

/* Draws each thread of spec into svgs (per thread, owned: free with free()),
 * without viz's legend, which the page's overview shows once. */
static review_outcome draw_threads(viz_session *s, diag_sink *sink, const review_request *rq, const ast_spec *spec,
                                   char **svgs) {
  vec_foreach(&spec->threads, i) {
    viz_options o = {.only = spec->threads.items[i], .spec_name = rq->spec_path, .ids = true, .no_legend = true};
    size_t len;
    viz_result r = viz_render_in(s, sink, spec, &o, VIZ_SVG, &svgs[i], &len);
    if (r != VIZ_DONE) return r == VIZ_REFUSED ? REVIEW_BAD_INPUT : REVIEW_FAILED;
    svg_element(svgs[i]);
  }
  return REVIEW_WRITTEN;
}

/* The system's drawing and each thread's, in one Graphviz session
 * (viz_session_new says why). */
static review_outcome draw(diag_sink *sink, const review_request *rq, const ast_spec *spec, drawings *d) {
  viz_session *s = viz_session_new();
  review_outcome result = REVIEW_WRITTEN;
  d->system = draw_system(s, sink, rq, spec, &result);
  d->threads = xcalloc(spec->threads.len + 1, sizeof *d->threads);
  if (result == REVIEW_WRITTEN) result = draw_threads(s, sink, rq, spec, d->threads);
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

/* Draws spec and writes the page of the checks' reports (borrowed). */
static review_outcome review_checked(diag_sink *sink, const review_request *rq, ast_spec *spec, json_t *compose,
                                     json_t *for_all) {
  drawings d;
  review_outcome r = draw(sink, rq, spec, &d);
  review_page p = {
      .spec = spec, .rq = rq, .compose = compose, .for_all = for_all, .thread_svgs = d.threads, .system_svg = d.system};
  if (r == REVIEW_WRITTEN) r = write_page(sink, &p);
  drawings_free(spec, &d);
  return r;
}

/* The checks (the composition, and with --for-all for every N), then the
 * drawings and the page. */
static review_outcome review_spec(diag_sink *sink, const review_request *rq, ast_spec *spec) {
  bool failed = false, z3 = false;
  json_t *compose = check_composition(sink, rq, spec, NULL, &failed, &z3);
  json_t *for_all = compose && rq->for_all ? check_composition(sink, rq, spec, rq->for_all, &failed, &z3) : NULL;
  if (z3) smt_shutdown(); /* once: Z3 is not used after it */
  review_outcome r = failed ? REVIEW_FAILED : REVIEW_BAD_INPUT;
  if (compose && (for_all || !rq->for_all)) r = review_checked(sink, rq, spec, compose, for_all);
  json_decref(compose);
  json_decref(for_all);
  return r;
}

review_outcome review_write(diag_sink *sink, const review_request *rq) {
  ast_spec *spec = spec_load(sink, rq->spec_path, rq->spec);
  review_outcome r = spec ? review_spec(sink, rq, spec) : REVIEW_BAD_INPUT;
  spec_free(spec);
  return r;
}
