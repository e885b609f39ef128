/* review/review-impl.h -- what the files of review/ share: the inputs of
 * one page, gathered by review.c (the checks and the drawings) and written
 * out as HTML by review-page.c. Private to review/.
 *
 * Everything in a review_page is borrowed; review.c owns it and frees it
 * after the page is built. The page text goes to a caller-owned strbuf.
 */
#ifndef ATHREAD_REVIEW_IMPL_H
#define ATHREAD_REVIEW_IMPL_H

#include <jansson.h>

#include "../core/strbuf.h"
#include "review.h"

typedef struct review_page {
  const ast_spec *spec;           /* the spec reviewed */
  const review_request *rq;       /* what was asked */
  const json_t *compose;          /* compose's JSON report (compose/report.h) */
  const json_t *code;             /* with C files: {verdict, reason, assumptions, threads: {NAME: conform's report of
                             * the thread, with function, unused_edges, coverage_complete}, sources: {FILE:
                             * text}} (review.c's code_json); NULL without */
  const json_t *for_all;          /* --for-all: compose --for-all's JSON report, else NULL */
  const json_t *unused_by_system; /* per thread name: {never_taken: [edge indices], never_reached: [state
                                   * indices]} in the composition (review.c), or NULL: not known */
  char *const *thread_svgs;       /* per thread of spec: its diagram as SVG (NUL-terminated), without viz's legend */
  const char *system_svg;         /* the whole system as `athread viz` draws it, or NULL: too large for dot */
} review_page;

/* Appends the whole page for p to out. */
void review_page_build(strbuf *out, const review_page *p);

#endif
