/* compose/engine-symbolic.h -- a model checked through its symbolic face
 * (mdl_symbolic_new: Z3 terms, unbounded integers allowed): bounded model
 * checking for counterexamples and an inductive proof by Spacer (IC3/PDR on
 * constrained Horn clauses), whose invariant is re-checked by three
 * independent queries before "safe" is reported, and whose counterexamples are
 * re-executed on the model (mdl_step_holds) before "unsafe" is.
 *
 * Borrows the model (e.g. product_build_checker's); the result owns its trace
 * and certificate (free with compose_result_free and smt_cert_free).
 */
#ifndef ATHREAD_ENGINE_SYMBOLIC_H
#define ATHREAD_ENGINE_SYMBOLIC_H

#include "../core/progress.h"
#include "../core/smt-print.h"
#include "model.h"
#include "result.h"

typedef struct symbolic_options {
  double timeout;     /* seconds for the whole run; 0 = none */
  unsigned bmc_bound; /* deepest counterexample searched for; 0 = 100 */
  progress *progress; /* the run's progress lines (borrowed), or NULL */
} symbolic_options;

/* Fills r like the explicit engine does (trace in the model's slot layout).
 * *certificate is set to the inductive invariant, as SMT-LIB and in the
 * spec's syntax, when the verdict is safe, else emptied (free with
 * smt_cert_free). */
void symbolic_run(const mdl *m, const symbolic_options *o, compose_result *r, smt_cert *certificate);

#endif
