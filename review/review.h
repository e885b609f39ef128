/* review/review.h -- athread review: one self-contained HTML page about a
 * spec: the system, a diagram per thread (Graphviz SVG, viz/viz.h), the
 * composition's verdict and, when it is unsafe, its counterexample to step
 * through. Given C files, also each thread's conformance (conform_run with
 * --coverage: unused edges dashed), a C-source pane to step through for a
 * thread that does not conform, and the C program's verdict by the theorem
 * (check_conclude), as `athread check` gives it. CSS and JavaScript are inlined from review/page.css and
 * review/page.js (embedded at build time); the page loads nothing else.
 *
 * Borrows the request. The page is written atomically (core/outfile.h), so
 * bad input leaves no file behind. Reports through the caller's diag_sink.
 */
#ifndef ATHREAD_REVIEW_H
#define ATHREAD_REVIEW_H

#include "../compose/engine-explicit.h"
#include "../conformance/check.h"
#include "../core/diag.h"
#include "../spec-lang/spec.h"

typedef struct review_request {
  const char *spec_path;       /* the specification */
  const spec_options *spec;    /* --set overrides it was asked with */
  const char *output;          /* the page's path; "-" for standard output */
  const char *command_line;    /* the command as typed, shown on the page */
  const char *version;         /* athread's version, shown on the page */
  explicit_options limits;     /* --max-states, --timeout of the composition check (0: none) */
  const char *for_all;         /* --for-all N: also check every N >= 1 (compose/run.h), or NULL */
  const conform_request *code; /* the C files, each thread's function, how to check them; NULL: none */
} review_request;

typedef enum review_outcome {
  REVIEW_WRITTEN,   /* the page is written, whatever the verdicts on it */
  REVIEW_BAD_INPUT, /* --for-all cannot apply, the C files do not lower, or the output cannot be written
                     (reported) */
  REVIEW_FAILED     /* Graphviz or the model checker failed (reported): an internal error */
} review_outcome;

/* Checks the composition of spec (loaded from rq->spec_path) and, with C
 * files, each thread's conformance, and writes the page to rq->output. */
review_outcome review_write(diag_sink *sink, ast_spec *spec, const review_request *rq);
/* Writes the page of checks already run (athread check --html): c's
 * composition (not --for-all's) and, when c->conform_ran, its threads as
 * rq->code checked them. */
review_outcome review_write_checked(diag_sink *sink, const ast_spec *spec, const review_request *rq,
                                    const check_result *c);

#endif
