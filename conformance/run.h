/* conformance/run.h -- `athread conform` as one call: parse the C files,
 * lower each implemented thread's function, build C(T, T#), write the
 * programs asked for (--emit-c, --emit-smt2), and check each thread. The CLI
 * resolves which function implements which thread, calls conform_run and
 * prints.
 *
 * Under ATOMICITY_ACCESS each lowered thread is split at its shared accesses
 * (atomicity.h) before C(T, T#) is built. Under ENV_SYSTEM the abstract
 * system is explored first, for the moves the environment may take
 * (environment.h).
 *
 * Borrows the spec and the request; the run owns its programs and results
 * (free with conform_run_free). Input errors are reported through sink.
 */
#ifndef ATHREAD_CONFORM_RUN_H
#define ATHREAD_CONFORM_RUN_H

#include <stdbool.h>

#include "../core/strbuf.h"
#include "../core/vec.h"
#include "../cfront/cfront.h"
#include "atomicity.h"
#include "conform.h"
#include "environment.h"
#include "initial.h"

typedef struct conform_request {
  const char *const *files;    /* the C files */
  size_t file_count;           /* how many */
  cfe_options cpp;             /* preprocessor flags and athread.h's directory */
  cfe_ints ints;               /* --int: C's integers (the default) or mathematical ones; print with cfe_ints_name */
  const char **function;       /* per thread of the spec: its C function, or NULL (not checked) */
  const char *emit_c;          /* write each C(T, T#) as C here, or NULL */
  const char *emit_smt2;       /* write each as SMT-LIB Horn clauses here, or NULL */
  conform_options check;       /* engine, bound, certificate (deadline: set from timeout) */
  double timeout;              /* seconds for all the proofs together; 0 = none */
  conform_atomicity atomicity; /* what runs as one atomic step */
  env_kind env;                /* what the other threads may do between two steps */
  bool coverage;               /* after a thread conforms, warn about the edges no step uses (coverage.h) */
  uint64_t env_max_states;     /* ENV_SYSTEM: explore at most this many states of the system (0: no limit) */
  const forall_invariants *invariants; /* ENV_SYSTEM from these invariants for every N (ENV_FROM_COUNTERS), or NULL */
} conform_request;

/* One thread checked. */
typedef struct conform_job {
  const ast_thread *thread; /* T# */
  const char *function;     /* its C function */
  prog *code;               /* the lowered function */
  prog *ins;                /* C(T, T#) */
  conform_result r;         /* the verdict */
  bool *unused;             /* --coverage of a thread that conforms: per edge of T#, proved never used
                             * (coverage.h); NULL when not computed */
  bool coverage_complete;   /* the search for unused edges ended (else an edge not marked may be unused) */
} conform_job;

typedef struct conform_run_result {
  VEC(conform_job) jobs; /* the implemented threads, in the spec's order */
  cfe_unit *unit;        /* the parsed C, which the programs' source locations point into */
  init_notes unchecked;  /* the C initial values not checked, one sentence each (owned) */
  conform_env env;       /* the environment every thread was checked under */
} conform_run_result;

/* Runs the pipeline; false after reporting an input error (nothing is
 * checked then, and no output file is left behind). A C initial value that
 * disagrees with the spec's initial states is such an error (initial.h). */
bool conform_run(diag_sink *sink, ast_spec *spec, const conform_request *rq, conform_run_result *out);
void conform_run_free(conform_run_result *out);
/* The verdict of the run as a whole: does not conform when a thread does
 * not, else unknown when a thread is unknown, else conforms. Appends to why
 * the threads with that verdict ("thread A", "threads A, B"). */
conform_verdict conform_run_verdict(const conform_run_result *run, strbuf *why);

#endif
