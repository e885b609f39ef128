/* review/review.c -- athread review's pipeline: load the spec, check its
 * composition (compose_run, reported as compose --json reports it), draw
 * each thread with viz_render, and write the page (review-page.c). */
#include <stdlib.h>
#include <string.h>

#include "../compose/report.h"
#include "../compose/run.h"
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

/* Checks spec's composition as `athread compose` does by default; NULL
 * after a report when the model cannot be built. Returns a new reference. */
static json_t *check_composition(const review_request *rq, ast_spec *spec) {
  compose_request crq = {.engine = "auto", .symmetry = true, .limits = rq->limits, .spec_options = rq->spec};
  compose_run_result run;
  compose_run(spec, &crq, &run);
  json_t *j = run.failure == COMPOSE_BAD_INPUT ? NULL : compose_json(rq, spec, &run);
  if (run.symbolic) smt_shutdown();
  compose_run_free(&run);
  return j;
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
static review_outcome draw_threads(diag_sink *sink, const review_request *rq, const ast_spec *spec, char **svgs) {
  viz_session *s = viz_session_new();
  review_outcome result = REVIEW_WRITTEN;
  vec_foreach(&spec->threads, i) {
    viz_options o = {.only = spec->threads.items[i], .spec_name = rq->spec_path, .ids = true};
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

static review_outcome review_spec(diag_sink *sink, const review_request *rq, ast_spec *spec) {
  json_t *compose = check_composition(rq, spec);
  if (!compose) return REVIEW_BAD_INPUT;
  char **svgs = xcalloc(spec->threads.len + 1, sizeof *svgs);
  review_outcome r = draw_threads(sink, rq, spec, svgs);
  review_page p = {.spec = spec, .rq = rq, .compose = compose, .thread_svgs = svgs};
  if (r == REVIEW_WRITTEN) r = write_page(sink, &p);
  vec_foreach(&spec->threads, i) free(svgs[i]);
  free(svgs);
  json_decref(compose);
  return r;
}

review_outcome review_write(diag_sink *sink, const review_request *rq) {
  ast_spec *spec = spec_load(sink, rq->spec_path, rq->spec);
  review_outcome r = spec ? review_spec(sink, rq, spec) : REVIEW_BAD_INPUT;
  spec_free(spec);
  return r;
}
