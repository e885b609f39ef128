/* core/smt.h -- the one translation of the expression IR to Z3 terms.
 *
 * Owns: an smt context (a Z3 context with reference counting, an error
 * handler that records instead of exiting, and the list of terms it keeps
 * alive); free with smt_free, which releases every kept term. Every term an
 * smt_* function returns is kept until smt_free. Borrows the IR and the
 * environment that says what names, primed names, tid, count and @ mean.
 */
#ifndef ATHREAD_SMT_H
#define ATHREAD_SMT_H

#include <stdbool.h>
#include <stdint.h>
#include <z3.h>

#include "ir.h"
#include "progress.h"

typedef struct smt smt;

/* What the free parts of an expression stand for. */
typedef struct smt_env {
  Z3_ast const *cur;     /* per shared variable: its value before the step */
  Z3_ast const *next;    /* per shared variable: after the step (primed names), or NULL */
  Z3_ast const *vars;    /* per program variable (REF_VAR names), or NULL */
  Z3_ast tid;            /* the running instance's number, or NULL outside threads */
  const int64_t *consts; /* per const: its value */
  /* count(T@S) and T[i]@S: the caller's encoding of instance states */
  Z3_ast (*count)(void *ctx, int thread, int state);
  Z3_ast (*at)(void *ctx, int thread, int64_t index, int state);
  void *ctx; /* passed to count and at */
} smt_env;

/* Returns owned, free with smt_free. */
smt *smt_new(void);
void smt_free(smt *s);
/* Releases Z3's global tables (call once, at exit, after every smt_free). */
void smt_shutdown(void);
Z3_context smt_z3(const smt *s);
/* The run's progress lines (borrowed; NULL: none): the drivers of
 * smt-drive.h set their phase there, and the watchdog repeats it while one
 * long check runs. Set it before smt_watch_start. */
void smt_set_progress(smt *s, progress *p);
progress *smt_progress(const smt *s);
/* Keeps t alive until smt_free and returns it; NULL (a Z3 error) becomes true
 * and marks s failed. */
Z3_ast smt_keep(smt *s, Z3_ast t);
/* True once Z3 reported an error; every verdict after that is void. */
bool smt_failed(const smt *s);
const char *smt_error(const smt *s);

/* The term for e under env (Int for int expressions, Bool for bool ones). */
Z3_ast smt_expr(smt *s, const ir_expr *e, const smt_env *env);

/* lo <= x <= hi for the range of the C integer type t (true for bits 0). */
Z3_ast smt_in_ctype(smt *s, ir_ctype t, Z3_ast x);

/* Monotonic seconds (CLOCK_MONOTONIC): the clock of every deadline. */
double smt_now(void);
/* Z3's "timeout" for the time left until deadline, in ms (at least 1). */
unsigned smt_timeout_ms(double deadline);
/* A new solver (a Spacer one for horn) whose timeout is the time left until
 * deadline (smt_now() seconds; 0 for none). Horn solvers keep every predicate
 * (no slicing or inlining), so the invariant reads per predicate and can be
 * re-checked. Returns a new reference: release with Z3_solver_dec_ref. */
Z3_solver smt_solver(smt *s, double deadline, bool horn);
/* Spacer's random seed for the Horn solvers made from now on (0 at first):
 * its luck on one problem varies much with it. */
void smt_set_horn_seed(smt *s, unsigned seed);
/* Z3's resource limit per check for the solvers made from now on (0: none).
 * Unlike a time limit it ends a check at the same point on every machine
 * and under any load, so what a limited attempt finds is reproducible. */
void smt_set_rlimit(smt *s, unsigned rlimit);
/* The resource limit smt_set_rlimit set last (0: none). */
unsigned smt_rlimit(const smt *s);

/* Z3_solver_check, except that the answer is Z3_L_UNDEF when Z3 reported an
 * error, or when the check ended within SMT_CHECK_SLACK seconds of deadline
 * (0 for none), or after it, or after SIGINT/SIGTERM: Z3 4.8 can answer sat
 * (with a meaningless model) or unsat to a check that the watchdog or its own
 * timeout interrupted, so no answer near the limit is trusted. Use it for
 * every check a verdict depends on. */
#define SMT_CHECK_SLACK 0.005
Z3_lbool smt_check(smt *s, Z3_solver sv, double deadline);
/* True when deadline (0 for none) is within SMT_CHECK_SLACK or past: no
 * answer that ends now is trusted (smt_check). */
bool smt_deadline_passed(double deadline);

/* Z3 can abort the process while a limit or an interrupt cancels a query
 * (std::terminate on an exception thrown as Spacer unwinds: about 1 in 400
 * runs of a Horn query stopped at a 1 ms limit, with or without athread's
 * watchdog). After this call, such an abort inside smt_check ends the run as
 * the limit would: prefix and the reason on stdout ("system S: unknown: "
 * "the time limit (--timeout) was reached"), a note on stderr, exit code 3;
 * an abort inside an unlimited query exits 4 (Z3 failed). */
void smt_unknown_on_abort(const char *prefix);

/* A watchdog thread that interrupts every Z3 call on s once the monotonic
 * clock (CLOCK_MONOTONIC, in seconds) passes deadline (0 for none), or once
 * SIGINT/SIGTERM arrived (core/interrupt.h), so that a time limit and Ctrl-C
 * hold even inside a long Spacer run. Returns owned (NULL only when no
 * thread could be started); stop it with smt_watch_stop before smt_free. */
typedef struct smt_watch smt_watch;
smt_watch *smt_watch_start(smt *s, double deadline);
void smt_watch_stop(smt_watch *w);
/* True once the watchdog interrupted Z3 (deadline or signal). */
bool smt_watch_fired(const smt_watch *w);

/* Small constructors that keep their result. */
Z3_ast smt_int(smt *s, int64_t v);
Z3_ast smt_bool(smt *s, bool v);
Z3_ast smt_var(smt *s, const char *name, bool is_bool);
Z3_ast smt_and(smt *s, unsigned n, const Z3_ast *args);
Z3_ast smt_or(smt *s, unsigned n, const Z3_ast *args);
Z3_ast smt_not(smt *s, Z3_ast a);
Z3_ast smt_eq(smt *s, Z3_ast a, Z3_ast b);
Z3_ast smt_ite(smt *s, Z3_ast c, Z3_ast a, Z3_ast b);
Z3_ast smt_add(smt *s, unsigned n, const Z3_ast *args);
Z3_ast smt_le(smt *s, Z3_ast a, Z3_ast b);
Z3_ast smt_implies(smt *s, Z3_ast a, Z3_ast b);

/* The value of a term in a model (completion on): ints that fit in 64 bits
 * and bools as 0/1. False when the value is not such a numeral. */
bool smt_model_value(smt *s, Z3_model m, Z3_ast t, int64_t *out);

/* Z3's resource count on solver sv so far ("rlimit count"): a measure of
 * work that, unlike time, is the same on every run. */
uint64_t smt_resources_used(smt *s, Z3_solver sv);

/* The atomic formulas of a Boolean term, counted through its connectives
 * (the size of a certificate). */
size_t smt_atom_count(smt *s, Z3_ast t);

#endif
