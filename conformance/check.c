/* conformance/check.c -- the C program's verdict from compose and conform. */
#include "check.h"

#include <stdio.h>
#include <string.h>

/* The abstract system: auto engine, symmetry, the request's time limit. */
static void compose_system(ast_spec *spec, const conform_request *rq, check_result *out) {
  spec_options none = {0};
  compose_request c = {.engine = "auto", .symmetry = true, .spec_options = &none};
  c.limits.timeout = rq->timeout > 0 ? rq->timeout / 2 : 0;
  compose_run(spec, &c, &out->compose);
}

/* The first thread of the spec without C code, or NULL. */
static const ast_thread *unimplemented(const ast_spec *spec, const conform_request *rq) {
  vec_foreach(&spec->threads, i)
    if (!rq->function[i]) return spec->threads.items[i];
  return NULL;
}

static void conform_verdict_of(check_result *out) {
  out->verdict = CHECK_SAFE;
  snprintf(out->reason, sizeof out->reason, "every thread conforms and the abstract system is safe");
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

bool check_run(diag_sink *sink, ast_spec *spec, const conform_request *rq, check_result *out) {
  memset(out, 0, sizeof *out);
  compose_system(spec, rq, out);
  if (out->compose.failure == COMPOSE_BAD_INPUT) return false;
  if (out->compose.r.verdict != VERDICT_SAFE) {
    out->verdict = out->compose.r.verdict == VERDICT_UNSAFE ? CHECK_NOT_PROVED : CHECK_UNKNOWN;
    snprintf(out->reason, sizeof out->reason, "%s",
             out->verdict == CHECK_NOT_PROVED ? "the abstract system is unsafe (its counterexample is above)"
                                              : "the abstract system's verdict is unknown");
    return true;
  }
  out->conform_ran = true;
  if (!conform_run(sink, spec, rq, &out->conform)) return false;
  conform_verdict_of(out);
  const ast_thread *t = unimplemented(spec, rq);
  if (t && out->verdict == CHECK_SAFE) {
    out->verdict = CHECK_UNKNOWN;
    snprintf(out->reason, sizeof out->reason,
             "thread %s has no C code (add 'implements FUNCTION' or --thread %s=FUNCTION): its steps are not checked",
             t->name, t->name);
  }
  return true;
}

void check_run_free(check_result *out) {
  compose_run_free(&out->compose);
  if (out->conform_ran) conform_run_free(&out->conform);
}
