/* review/review.h -- athread review: one self-contained HTML page about a
 * spec: the system, a diagram per thread (Graphviz SVG, viz/viz.h), the
 * composition's verdict and, when it is unsafe, its counterexample to step
 * through. CSS and JavaScript are inlined from review/page.css and
 * review/page.js (embedded at build time); the page loads nothing else.
 *
 * Borrows the request. The page is written atomically (core/outfile.h), so
 * bad input leaves no file behind. Reports through the caller's diag_sink.
 */
#ifndef ATHREAD_REVIEW_H
#define ATHREAD_REVIEW_H

#include "../compose/engine-explicit.h"
#include "../core/diag.h"
#include "../spec-lang/spec.h"

typedef struct review_request {
  const char *spec_path;    /* the specification */
  const spec_options *spec; /* --set overrides it was asked with */
  const char *output;       /* the page's path; "-" for standard output */
  const char *command_line; /* the command as typed, shown on the page */
  const char *version;      /* athread's version, shown on the page */
  explicit_options limits;  /* --max-states, --timeout of the composition check (0: none) */
  const char *for_all;      /* --for-all N: also check every N >= 1 (compose/run.h), or NULL */
} review_request;

typedef enum review_outcome {
  REVIEW_WRITTEN,   /* the page is written, whatever the verdicts on it */
  REVIEW_BAD_INPUT, /* the spec does not load, --for-all cannot apply, or the output cannot be written (reported) */
  REVIEW_FAILED     /* Graphviz or the model checker failed (reported): an internal error */
} review_outcome;

/* Checks the spec's composition and writes the page to rq->output. */
review_outcome review_write(diag_sink *sink, const review_request *rq);

#endif
