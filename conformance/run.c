/* conformance/run.c -- the conform pipeline: parse, lower, instrument, emit, check. */
#include "run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/interrupt.h"
#include "../core/outfile.h"
#include "../core/smt.h"
#include "coverage.h"
#include "emit-c.h"
#include "instrument.h"
#include "report.h"

/* Lowers every implemented thread into out; false after an input error. */
static bool lower_all(diag_sink *sink, const ast_spec *spec, cfe_unit *u, const conform_request *rq,
                      conform_run_result *out) {
  bool ok = true;
  vec_foreach(&spec->threads, i) {
    const char *function = rq->function[i];
    if (!function) continue;
    const ast_thread *t = spec->threads.items[i];
    if (!cfe_has_function(u, function)) {
      if (t->impl && function == t->impl)
        diag_error(spec->src, t->impl_at, "no function '%s' in the C files given", function);
      else
        diag_error_at(sink, "athread", "--thread %s=%s: no function '%s' in the C files given", t->name, function,
                      function);
      ok = false;
      continue;
    }
    prog *code = cfe_lower(u, spec, function, rq->ints);
    if (code && rq->atomicity == ATOMICITY_ACCESS && !atomicity_split(code, sink)) {
      prog_free(code);
      code = NULL;
    }
    if (!code) {
      ok = false;
      continue;
    }
    conform_job j = {.thread = t, .function = function, .code = code};
    vec_push(NULL, &out->jobs, j);
  }
  return ok;
}

/* The C program's initial state must be one of the spec's (initial.h): the
 * values come from libclang's reader, the one home of C's initialization
 * rules. Files that clang cannot read leave the values unchecked, with a note. */
static bool check_initial(diag_sink *sink, const ast_spec *spec, const conform_request *rq, conform_run_result *out) {
  if (!init_constrains(spec)) return true; /* any C value is an initial value of the spec */
  diag_sink quiet = {0};
  cfp_options o = {rq->cpp.cpp_flags, rq->cpp.cpp_flag_count, rq->cpp.include_dir};
  cfp_program *p = cfp_read(&quiet, rq->files, rq->file_count, &o);
  if (!p) {
    init_unreadable(spec, quiet.first_error, &out->unchecked);
    return true;
  }
  const prog **codes = xcalloc(out->jobs.len + 1, sizeof *codes);
  vec_foreach(&out->jobs, i) codes[i] = out->jobs.items[i].code;
  bool ok = init_check(sink, spec, p, codes, out->jobs.len, &out->unchecked);
  free(codes);
  cfp_free(p);
  return ok;
}

/* path, or with several threads path with ".THREAD" before its extension. */
static char *emit_path(const char *path, const char *thread, bool several) {
  if (!several) return xstrdup(path);
  const char *dot = strrchr(path, '.');
  const char *slash = strrchr(path, '/');
  size_t stem = dot && (!slash || dot > slash) ? (size_t)(dot - path) : strlen(path);
  char *out = xmalloc(strlen(path) + strlen(thread) + 2);
  sprintf(out, "%.*s.%s%s", (int)stem, path, thread, path + stem);
  return out;
}

static bool emit_one(diag_sink *sink, const char *path, const char *thread, bool several, char *text) {
  char *where = emit_path(path, thread, several);
  bool ok = outfile_write(sink, where, text, strlen(text));
  free(where);
  free(text);
  return ok;
}

static bool emit_all(diag_sink *sink, const ast_spec *spec, const conform_request *rq, conform_run_result *out) {
  bool several = out->jobs.len > 1, ok = true;
  vec_foreach(&out->jobs, i) {
    conform_job *j = &out->jobs.items[i];
    if (rq->emit_c)
      ok = emit_one(sink, rq->emit_c, j->thread->name, several, emit_c_program(j->ins, spec, j->thread)) && ok;
    if (rq->emit_smt2) ok = emit_one(sink, rq->emit_smt2, j->thread->name, several, conform_smt2(j->ins)) && ok;
  }
  return ok;
}

/* The paper's environment allows every move and more: when C(T, T#) under
 * havoc conforms, so does the program under the system's moves. Spacer often
 * proves the havoc program faster (the shared state is dead at every cut)
 * and sometimes only that one, so it goes first, briefly (one attempt
 * within a resource limit); the moves' program is checked when that gives
 * no proof. Not for big code: encoding a program costs time no limit
 * interrupts, and it would be encoded twice. */
#define BRIEF_MAX_EDGES 4096u

static void check_job(const ast_spec *spec, const conform_options *o, const conform_env *env, conform_job *j) {
  bool moves = env->source != ENV_FROM_HAVOC, violated = false;
  const conform_env havoc = {.source = ENV_FROM_HAVOC, .invariants = env->invariants};
  if (moves && j->code->edges.len <= BRIEF_MAX_EDGES && !(o->deadline > 0 && smt_now() >= o->deadline)) {
    prog *wide = ins_build(j->code, spec, j->thread, &havoc, false);
    conform_options brief = *o;
    brief.brief = o->engine == CONFORM_AUTO;
    brief.unseen = true; /* only its verdict is used */
    conform_check(wide, &brief, &j->r);
    prog_free(wide);
    if (j->r.verdict == CONFORM_HOLDS) {
      snprintf(j->r.why, sizeof j->r.why, "proved with the paper's environment (any values), which allows more");
      return;
    }
    violated = j->r.verdict == CONFORM_VIOLATED;
    conform_result_free(&j->r);
  }
  conform_options checked = *o;
  checked.search_first = violated; /* the havoc program's violation often has a short counterpart */
  conform_check(j->ins, &checked, &j->r);
}

/* After a thread conforms: finds the edges of T# that no step of the code
 * uses (coverage.h) into j->unused, within COVERAGE_MIN_SECONDS or
 * COVERAGE_PROOF_FACTOR times the proof's time, and the run's deadline, and
 * warns [-Wunused-edge] about each. */
static void find_unused_edges(const ast_spec *spec, const conform_options *o, const conform_env *env, bool checked,
                              conform_job *j) {
  if (j->r.verdict != CONFORM_HOLDS) return;
  double budget = j->r.seconds * COVERAGE_PROOF_FACTOR;
  conform_options c = *o;
  c.certificate = c.brief = c.search_first = false;
  c.unseen = true; /* the probes' traces only clear probes */
  double start = smt_now();
  c.deadline = start + (budget > COVERAGE_MIN_SECONDS ? budget : COVERAGE_MIN_SECONDS);
  if (o->deadline > 0 && o->deadline < c.deadline) c.deadline = o->deadline;
  const ast_thread *t = j->thread;
  j->unused = xcalloc(t->edges.len + 1, sizeof *j->unused);
  cov_input in = {j->code, spec, t, env, checked};
  j->coverage_complete = cov_unused_edges(&in, &c, j->unused);
  if (!j->coverage_complete)
    diag_note(spec->src, t->name_at,
              "--coverage of thread %s is incomplete: the search for unused edges stopped (time budget of %.1f s, "
              "--timeout, or an engine without an answer); the edges not reported may still be unused",
              t->name, c.deadline - start);
  vec_foreach(&t->edges, k)
    if (j->unused[k])
      diag_warning(spec->src, t->edges.items[k]->from_at, "unused-edge",
                   "edge %s -> %s of %s is never used by %s: no step of the code is simulated by it (conform proved "
                   "it never applies from a candidate state), so the code does not need it",
                   t->edges.items[k]->from, t->edges.items[k]->to, t->name, j->function);
}

/* The environment: under ENV_SYSTEM the abstract system is explored within
 * the request's state limit and half its time, unless the request gives the
 * invariants for every N. */
static void build_environment(ast_spec *spec, const conform_request *rq, double deadline, conform_run_result *out) {
  if (rq->env == ENV_SYSTEM && rq->invariants) return env_build_for_all(spec, rq->invariants, &out->env);
  explicit_options limits = {.max_states = rq->env_max_states, .progress = rq->check.progress};
  if (deadline > 0) limits.timeout = (deadline - smt_now()) / 2 > 0.01 ? (deadline - smt_now()) / 2 : 0.01;
  progress_context(limits.progress, "the environment");
  if (rq->env == ENV_SYSTEM)
    progress_say(limits.progress, "exploring the abstract system for the other threads' moves");
  env_build(spec, rq->env, &limits, &out->env);
  out->env.invariants = rq->invariants; /* --for-all under --env havoc: for N in C(T, T#) */
}

/* Checks job i (its progress: a line when it starts and one when it ends). */
static void check_thread(const ast_spec *spec, const conform_request *rq, const conform_options *o,
                         conform_run_result *out, size_t i) {
  conform_job *j = &out->jobs.items[i];
  double start = smt_now();
  progress_context(o->progress, "thread %s (%zu/%zu)", j->thread->name, i + 1, out->jobs.len);
  progress_say(o->progress, "checking %s", j->function);
  check_job(spec, o, &out->env, j);
  if (rq->coverage) find_unused_edges(spec, o, &out->env, out->unchecked.len == 0, j);
  progress_say(o->progress, "%s, engine %s, %.2f s", report_verdict_text(j->r.verdict), j->r.engine, smt_now() - start);
}

bool conform_run(diag_sink *sink, ast_spec *spec, const conform_request *rq, conform_run_result *out) {
  memset(out, 0, sizeof *out);
  double deadline = rq->timeout > 0 ? smt_now() + rq->timeout : 0;
  out->unit = cfe_parse(sink, rq->files, rq->file_count, &rq->cpp);
  if (!out->unit || !lower_all(sink, spec, out->unit, rq, out) || !check_initial(sink, spec, rq, out)) return false;
  interrupt_install(); /* from here on Ctrl-C ends the exploration and the proofs with verdict unknown */
  build_environment(spec, rq, deadline, out);
  vec_foreach(&out->jobs, i)
    out->jobs.items[i].ins =
        ins_build(out->jobs.items[i].code, spec, out->jobs.items[i].thread, &out->env, out->unchecked.len == 0);
  if (!emit_all(sink, spec, rq, out)) return false;
  conform_options o = rq->check;
  o.deadline = deadline;
  vec_foreach(&out->jobs, i) check_thread(spec, rq, &o, out, i);
  progress_context(o.progress, NULL);
  return true;
}

void conform_run_free(conform_run_result *out) {
  vec_foreach(&out->jobs, i) {
    conform_result_free(&out->jobs.items[i].r);
    prog_free(out->jobs.items[i].ins);
    prog_free(out->jobs.items[i].code);
    free(out->jobs.items[i].unused);
  }
  vec_free(&out->jobs);
  vec_foreach(&out->unchecked, i) free(out->unchecked.items[i]);
  vec_free(&out->unchecked);
  env_free(&out->env);
  cfe_free(out->unit);
}

/* Appends "threads A, B" (or "thread A"): the jobs with verdict v. */
static void name_threads(const conform_run_result *run, conform_verdict v, strbuf *why) {
  size_t n = 0, k = 0;
  vec_foreach(&run->jobs, i) n += run->jobs.items[i].r.verdict == v;
  sbuf_puts(why, n == 1 ? "thread " : "threads ");
  vec_foreach(&run->jobs, i)
    if (run->jobs.items[i].r.verdict == v) sbuf_printf(why, "%s%s", k++ ? ", " : "", run->jobs.items[i].thread->name);
}

conform_verdict conform_run_verdict(const conform_run_result *run, strbuf *why) {
  conform_verdict v = CONFORM_HOLDS;
  vec_foreach(&run->jobs, i) {
    conform_verdict t = run->jobs.items[i].r.verdict;
    if (t == CONFORM_VIOLATED || (t == CONFORM_UNKNOWN && v == CONFORM_HOLDS)) v = t;
  }
  name_threads(run, v, why);
  return v;
}
