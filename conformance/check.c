/* conformance/check.c -- the C program's verdict from compose and conform. */
#include "check.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* The abstract system: auto engine, symmetry, the request's time limit;
 * with --for-all the counter abstraction. */
static void compose_system(ast_spec *spec, const check_request *rq, check_result *out) {
  compose_request c = {.engine = "auto", .symmetry = true, .for_all = rq->for_all, .spec_options = rq->spec_options};
  c.limits.timeout = rq->conform.timeout > 0 ? rq->conform.timeout / 2 : 0;
  c.limits.progress = rq->conform.check.progress;
  progress_context(c.limits.progress, "the abstract system");
  progress_say(c.limits.progress, "composing");
  double start = smt_now();
  compose_run(spec, &c, &out->compose);
  progress_say(c.limits.progress, "done, %.2f s", smt_now() - start);
  progress_context(c.limits.progress, NULL);
}

/* The system's verdict: for every N under --for-all, else at the spec's. */
static verdict system_verdict(const check_result *out) {
  return out->compose.for_all_ran ? out->compose.fr.verdict : out->compose.r.verdict;
}

/* The first thread of the spec without C code, or NULL. */
static const ast_thread *unimplemented(const ast_spec *spec, const conform_request *rq) {
  vec_foreach(&spec->threads, i)
    if (!rq->function[i]) return spec->threads.items[i];
  return NULL;
}

static void conform_verdict_of(check_result *out) {
  out->verdict = CHECK_SAFE;
  if (out->compose.for_all_ran)
    snprintf(out->reason, sizeof out->reason,
             "every thread conforms and the abstract system is safe, for every %s from 1 to %" PRId64
             " (the threads' code is checked for %s up to that: C's integers are bounded)",
             out->compose.fr.invariants.param, ENV_MAX_INSTANCES, out->compose.fr.invariants.param);
  else snprintf(out->reason, sizeof out->reason, "every thread conforms and the abstract system is safe");
  vec_foreach(&out->conform.jobs, i) {
    const conform_job *j = &out->conform.jobs.items[i];
    if (j->r.verdict == CONFORM_VIOLATED) {
      out->verdict = CHECK_NOT_PROVED;
      snprintf(out->reason, sizeof out->reason, "thread %s does not conform (its counterexample is above)",
               j->thread->name);
      return;
    }
    if (j->r.verdict == CONFORM_UNKNOWN && out->verdict == CHECK_SAFE) {
      out->verdict = CHECK_UNKNOWN;
      snprintf(out->reason, sizeof out->reason, "the conformance of thread %s is unknown: %s", j->thread->name,
               j->r.reason);
    }
  }
}

void check_conclude(const ast_spec *spec, const conform_request *rq, check_result *out) {
  if (system_verdict(out) != VERDICT_SAFE) {
    out->verdict = system_verdict(out) == VERDICT_UNSAFE ? CHECK_NOT_PROVED : CHECK_UNKNOWN;
    snprintf(out->reason, sizeof out->reason, "%s",
             out->verdict == CHECK_NOT_PROVED ? "the abstract system is unsafe (its counterexample is above)"
                                              : "the abstract system's verdict is unknown");
    return;
  }
  conform_verdict_of(out);
  const ast_thread *t = unimplemented(spec, rq);
  if (t && out->verdict == CHECK_SAFE) {
    out->verdict = CHECK_UNKNOWN;
    snprintf(out->reason, sizeof out->reason,
             "thread %s has no C code (add 'implements FUNCTION' or --thread %s=FUNCTION): its steps are not checked",
             t->name, t->name);
  }
}

bool check_run(diag_sink *sink, ast_spec *spec, const check_request *rq, check_result *out) {
  memset(out, 0, sizeof *out);
  if (rq->for_all && !forall_conform_applicable(spec, rq->for_all)) {
    out->compose.failure = COMPOSE_BAD_INPUT;
    return false;
  }
  compose_system(spec, rq, out);
  if (out->compose.failure == COMPOSE_BAD_INPUT) return false;
  if (system_verdict(out) == VERDICT_SAFE) {
    out->conform_ran = true;
    conform_request c = rq->conform;
    c.invariants = out->compose.for_all_ran ? &out->compose.fr.invariants : NULL;
    if (!conform_run(sink, spec, &c, &out->conform)) return false;
  }
  check_conclude(spec, &rq->conform, out);
  return true;
}

const char *check_verdict_text(check_verdict v) {
  return v == CHECK_SAFE ? "safe" : v == CHECK_NOT_PROVED ? "not proved" : "unknown";
}

void check_run_free(check_result *out) {
  compose_run_free(&out->compose);
  if (out->conform_ran) conform_run_free(&out->conform);
}
