/* core/smt.c -- IR to Z3, and a Z3 context that never exits the process. */
#include "smt.h"

#include <pthread.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "interrupt.h"
#include "progress.h"
#include "vec.h"

struct smt {
  Z3_context z3;    /* with reference counting */
  VEC(Z3_ast) kept; /* terms to dec_ref in smt_free */
  bool failed;      /* Z3 called the error handler */
  char error[256];  /* its first message */
  unsigned seed;    /* Spacer's random seed in the Horn solvers made from now on */
  unsigned rlimit;  /* Z3's resource limit per check in the solvers made from now on, 0 for none */
  progress *progress; /* the run's progress lines (borrowed), or NULL */
};

/* Z3 keeps no user pointer per context: the handler finds its smt here. */
static smt *handler_owner;

static void on_z3_error(Z3_context c, Z3_error_code e) {
  smt *s = handler_owner;
  if (!s || s->failed) return;
  s->failed = true;
  snprintf(s->error, sizeof s->error, "%s", Z3_get_error_msg(c, e));
}

smt *smt_new(void) {
  smt *s = xcalloc(1, sizeof *s);
  Z3_config cfg = Z3_mk_config();
  Z3_set_param_value(cfg, "model", "true");
  s->z3 = Z3_mk_context_rc(cfg);
  Z3_del_config(cfg);
  handler_owner = s;
  Z3_set_error_handler(s->z3, on_z3_error);
  return s;
}

void smt_free(smt *s) {
  if (!s) return;
  vec_foreach(&s->kept, i) Z3_dec_ref(s->z3, s->kept.items[i]);
  vec_free(&s->kept);
  Z3_del_context(s->z3);
  if (handler_owner == s) handler_owner = NULL;
  free(s);
}

void smt_shutdown(void) { Z3_finalize_memory(); }

Z3_context smt_z3(const smt *s) { return s->z3; }
void smt_set_progress(smt *s, progress *p) { s->progress = p; }
progress *smt_progress(const smt *s) { return s->progress; }
bool smt_failed(const smt *s) { return s->failed; }
const char *smt_error(const smt *s) { return s->error; }

/* After an error Z3 returns no term; what is built from it stands on true
 * instead, so that Z3 is never handed NULL (which it does not survive) and
 * the error ends the check as unknown (smt_failed). */
Z3_ast smt_keep(smt *s, Z3_ast t) {
  if (!t) {
    if (!s->failed) snprintf(s->error, sizeof s->error, "Z3 returned no term");
    s->failed = true;
    t = Z3_mk_true(s->z3);
  }
  Z3_inc_ref(s->z3, t);
  vec_push(NULL, &s->kept, t);
  return t;
}

/* ---------------------------------------------------------------- constructors */

Z3_ast smt_int(smt *s, int64_t v) { return smt_keep(s, Z3_mk_int64(s->z3, v, Z3_mk_int_sort(s->z3))); }
Z3_ast smt_bool(smt *s, bool v) { return smt_keep(s, v ? Z3_mk_true(s->z3) : Z3_mk_false(s->z3)); }

Z3_ast smt_var(smt *s, const char *name, bool is_bool) {
  Z3_sort sort = is_bool ? Z3_mk_bool_sort(s->z3) : Z3_mk_int_sort(s->z3);
  return smt_keep(s, Z3_mk_const(s->z3, Z3_mk_string_symbol(s->z3, name), sort));
}

Z3_ast smt_and(smt *s, unsigned n, const Z3_ast *args) {
  return n ? smt_keep(s, Z3_mk_and(s->z3, n, args)) : smt_bool(s, true);
}
Z3_ast smt_or(smt *s, unsigned n, const Z3_ast *args) {
  return n ? smt_keep(s, Z3_mk_or(s->z3, n, args)) : smt_bool(s, false);
}
Z3_ast smt_not(smt *s, Z3_ast a) { return smt_keep(s, Z3_mk_not(s->z3, a)); }
Z3_ast smt_eq(smt *s, Z3_ast a, Z3_ast b) { return smt_keep(s, Z3_mk_eq(s->z3, a, b)); }
Z3_ast smt_ite(smt *s, Z3_ast c, Z3_ast a, Z3_ast b) { return smt_keep(s, Z3_mk_ite(s->z3, c, a, b)); }
Z3_ast smt_add(smt *s, unsigned n, const Z3_ast *args) {
  return n ? smt_keep(s, Z3_mk_add(s->z3, n, args)) : smt_int(s, 0);
}
Z3_ast smt_le(smt *s, Z3_ast a, Z3_ast b) { return smt_keep(s, Z3_mk_le(s->z3, a, b)); }
Z3_ast smt_implies(smt *s, Z3_ast a, Z3_ast b) { return smt_keep(s, Z3_mk_implies(s->z3, a, b)); }

/* ---------------------------------------------------------------- translation */

/* A literal beyond 64 bits: Z3 reads decimal digits; hex is built by Horner's rule. */
static Z3_ast big_literal(smt *s, const char *text) {
  if (text[0] != '0' || (text[1] != 'x' && text[1] != 'X'))
    return smt_keep(s, Z3_mk_numeral(s->z3, text, Z3_mk_int_sort(s->z3)));
  Z3_ast v = smt_int(s, 0), sixteen = smt_int(s, 16);
  for (const char *p = text + 2; *p; p++) {
    int digit = *p <= '9' ? *p - '0' : (*p | 0x20) - 'a' + 10;
    Z3_ast prod[2] = {v, sixteen};
    Z3_ast sum[2] = {smt_keep(s, Z3_mk_mul(s->z3, 2, prod)), smt_int(s, digit)};
    v = smt_keep(s, Z3_mk_add(s->z3, 2, sum));
  }
  return v;
}

static Z3_ast literal(smt *s, const ir_expr *e) {
  if (e->kind == IR_BOOL) return smt_bool(s, e->value);
  return e->big ? big_literal(s, e->text) : smt_int(s, e->value);
}

/* C division truncates toward zero; Z3's div and mod are Euclidean. A
 * constant divisor (the spec's, which sema checks, and most of the code's)
 * keeps the formula linear. */
static Z3_ast truncating_by(smt *s, Z3_ast a, int64_t divisor) {
  Z3_context c = s->z3;
  Z3_ast zero = smt_int(s, 0);
  Z3_ast neg_a = smt_keep(s, Z3_mk_unary_minus(c, a));
  Z3_ast abs_b = smt_int(s, divisor < 0 ? -divisor : divisor);
  Z3_ast q_pos = smt_keep(s, Z3_mk_div(c, a, abs_b));                                        /* a >= 0 */
  Z3_ast q_neg = smt_keep(s, Z3_mk_unary_minus(c, smt_keep(s, Z3_mk_div(c, neg_a, abs_b)))); /* a < 0 */
  Z3_ast a_nonneg = smt_keep(s, Z3_mk_ge(c, a, zero));
  Z3_ast q = smt_ite(s, a_nonneg, q_pos, q_neg); /* a / |b| */
  if (divisor < 0) q = smt_keep(s, Z3_mk_unary_minus(c, q));
  return q;
}

static Z3_ast neg(smt *s, Z3_ast a) { return smt_keep(s, Z3_mk_unary_minus(s->z3, a)); }

/* |a| / |b| with the sign of a / b: a divisor the code computes (C's
 * integers; a check before makes sure it is not 0). */
static Z3_ast truncating_var(smt *s, Z3_ast a, Z3_ast b) {
  Z3_context c = s->z3;
  Z3_ast zero = smt_int(s, 0);
  Z3_ast a_nonneg = smt_keep(s, Z3_mk_ge(c, a, zero)), b_nonneg = smt_keep(s, Z3_mk_ge(c, b, zero));
  Z3_ast q = smt_keep(s, Z3_mk_div(c, smt_ite(s, a_nonneg, a, neg(s, a)), smt_ite(s, b_nonneg, b, neg(s, b))));
  return smt_ite(s, smt_eq(s, a_nonneg, b_nonneg), q, neg(s, q));
}

static Z3_ast truncating(smt *s, ir_op op, Z3_ast a, Z3_ast b) {
  Z3_context c = s->z3;
  int64_t d = 0;
  Z3_ast simple = smt_keep(s, Z3_simplify(c, b));
  bool constant = Z3_is_numeral_ast(c, simple) && Z3_get_numeral_int64(c, simple, &d) && d != 0;
  Z3_ast q = constant ? truncating_by(s, a, d) : truncating_var(s, a, b);
  if (op == OP_DIV) return q;
  Z3_ast prod_args[2] = {q, b};
  Z3_ast sub_args[2] = {a, smt_keep(s, Z3_mk_mul(c, 2, prod_args))};
  return smt_keep(s, Z3_mk_sub(c, 2, sub_args)); /* a - (a / b) * b */
}

/* ---------------------------------------------------------------- C's integers (ir_c_arith) */

/* 2^n as an Int (n <= 64). */
static Z3_ast pow2(smt *s, unsigned n) {
  char text[32];
  if (n < 64) snprintf(text, sizeof text, "%llu", 1ULL << n);
  else snprintf(text, sizeof text, "18446744073709551616");
  return smt_keep(s, Z3_mk_numeral(s->z3, text, Z3_mk_int_sort(s->z3)));
}

static Z3_ast add2(smt *s, Z3_ast a, Z3_ast b) {
  Z3_ast both[2] = {a, b};
  return smt_keep(s, Z3_mk_add(s->z3, 2, both));
}

static Z3_ast sub2(smt *s, Z3_ast a, Z3_ast b) {
  Z3_ast both[2] = {a, b};
  return smt_keep(s, Z3_mk_sub(s->z3, 2, both));
}

static Z3_ast mul2(smt *s, Z3_ast a, Z3_ast b) {
  Z3_ast both[2] = {a, b};
  return smt_keep(s, Z3_mk_mul(s->z3, 2, both));
}

static Z3_ast mod2(smt *s, Z3_ast a, Z3_ast b) { return smt_keep(s, Z3_mk_mod(s->z3, a, b)); }

/* a into t: Euclidean mod keeps a linear formula (Spacer's best theory). */
static Z3_ast wrap(smt *s, ir_ctype t, Z3_ast a) {
  if (t.bits == 0) return a;
  if (t.is_unsigned) return mod2(s, a, pow2(s, t.bits));
  Z3_ast half = pow2(s, t.bits - 1u);
  return sub2(s, mod2(s, add2(s, a, half), pow2(s, t.bits)), half);
}

Z3_ast smt_in_ctype(smt *s, ir_ctype t, Z3_ast x) {
  if (t.bits == 0) return smt_bool(s, true);
  Z3_ast lo = smt_int(s, ir_ctype_min(t));
  Z3_ast hi = t.bits == 64 && t.is_unsigned ? sub2(s, pow2(s, 64), smt_int(s, 1)) : smt_int(s, ir_ctype_max(t));
  Z3_ast both[2] = {smt_le(s, lo, x), smt_le(s, x, hi)};
  return smt_and(s, 2, both);
}

/* The value of a literal operand (IR_INT, or - IR_INT), when it is one. */
static bool literal_value(const ir_expr *e, int64_t *v) {
  if (e->kind == IR_INT && !e->big) return *v = e->value, true;
  if (e->kind == IR_UNARY && e->op == OP_NEG && e->a->kind == IR_INT && !e->a->big) return *v = -e->a->value, true;
  return false;
}

/* a << k or a >> k for a constant k within [0, bits): a * 2^k wrapped, or
 * floor(a / 2^k), which Euclidean div by a positive number is. */
static Z3_ast shift_by(smt *s, const ir_expr *e, Z3_ast a, int64_t k) {
  if (e->op == OP_SHL) return wrap(s, e->ity, mul2(s, a, pow2(s, (unsigned)k)));
  return smt_keep(s, Z3_mk_div(s->z3, a, pow2(s, (unsigned)k)));
}

/* A shift: by a constant, or a chain of ites over the amounts (linear, unlike
 * bit-vectors); an amount outside [0, bits), which a check excludes, gives 0. */
static Z3_ast shift(smt *s, const ir_expr *e, Z3_ast a, Z3_ast b) {
  int64_t k;
  unsigned width = e->ity.bits ? e->ity.bits : 64;
  if (literal_value(e->b, &k)) return k >= 0 && k < width ? shift_by(s, e, a, k) : smt_int(s, 0);
  Z3_ast r = smt_int(s, 0);
  for (unsigned i = width; i-- > 0;) r = smt_ite(s, smt_eq(s, b, smt_int(s, i)), shift_by(s, e, a, i), r);
  return r;
}

/* v + 1 is a power of two 2^k with k < bits (and < bits - 1 for a signed type). */
static bool low_mask(ir_ctype t, int64_t v) {
  unsigned room = t.bits - (t.is_unsigned ? 0u : 1u);
  return v >= 0 && (v & (v + 1)) == 0 && (room >= 63 || v < ((int64_t)1 << room));
}

/* & | ^ through bit-vectors (int2bv takes a modulo 2^bits, bv2int reads
 * signed or unsigned), except a & (2^k - 1), which is a mod 2^k. */
static Z3_ast bitwise(smt *s, const ir_expr *e, Z3_ast a, Z3_ast b) {
  Z3_context c = s->z3;
  int64_t v;
  if (e->op == OP_BITAND && literal_value(e->b, &v) && low_mask(e->ity, v)) return mod2(s, a, smt_int(s, v + 1));
  if (e->op == OP_BITAND && literal_value(e->a, &v) && low_mask(e->ity, v)) return mod2(s, b, smt_int(s, v + 1));
  unsigned n = e->ity.bits ? e->ity.bits : 64;
  Z3_ast x = smt_keep(s, Z3_mk_int2bv(c, n, a)), y = smt_keep(s, Z3_mk_int2bv(c, n, b));
  Z3_ast r = smt_keep(s, e->op == OP_BITAND  ? Z3_mk_bvand(c, x, y)
                         : e->op == OP_BITOR ? Z3_mk_bvor(c, x, y)
                                             : Z3_mk_bvxor(c, x, y));
  return smt_keep(s, Z3_mk_bv2int(c, r, !e->ity.is_unsigned));
}

/* ~a: -a - 1, wrapped for an unsigned type. */
static Z3_ast bitnot(smt *s, ir_ctype t, Z3_ast a) { return wrap(s, t, sub2(s, neg(s, a), smt_int(s, 1))); }

static Z3_ast binary(smt *s, const ir_expr *e, const smt_env *env) {
  Z3_context c = s->z3;
  Z3_ast a = smt_expr(s, e->a, env), b = smt_expr(s, e->b, env);
  Z3_ast both[2] = {a, b};
  switch (e->op) {
  case OP_ADD: return smt_keep(s, Z3_mk_add(c, 2, both));
  case OP_SUB: return smt_keep(s, Z3_mk_sub(c, 2, both));
  case OP_MUL: return smt_keep(s, Z3_mk_mul(c, 2, both));
  case OP_DIV:
  case OP_MOD: return truncating(s, e->op, a, b);
  case OP_LT: return smt_keep(s, Z3_mk_lt(c, a, b));
  case OP_LE: return smt_keep(s, Z3_mk_le(c, a, b));
  case OP_GT: return smt_keep(s, Z3_mk_gt(c, a, b));
  case OP_GE: return smt_keep(s, Z3_mk_ge(c, a, b));
  case OP_EQ:
  case OP_IFF: return smt_eq(s, a, b);
  case OP_NE: return smt_not(s, smt_eq(s, a, b));
  case OP_AND: return smt_and(s, 2, both);
  case OP_OR: return smt_or(s, 2, both);
  case OP_IMPLIES: return smt_implies(s, a, b);
  case OP_BITAND:
  case OP_BITOR:
  case OP_BITXOR: return bitwise(s, e, a, b);
  case OP_SHL:
  case OP_SHR: return shift(s, e, a, b);
  default: return NULL;
  }
}

/* An element: its cell when the index is constant, else a chain of ites over
 * the cells (the last one stands for every index outside the array, which
 * the bounds checks of the semantic layer report before it matters). */
static Z3_ast element(smt *s, const ir_expr *e, const smt_env *env) {
  Z3_ast const *cells = (e->primed ? env->next : env->cur) + e->index;
  if (e->cell >= 0) return cells[e->cell - e->index];
  Z3_ast index = smt_expr(s, e->a, env);
  Z3_ast value = cells[e->extent - 1];
  for (int64_t k = e->extent - 2; k >= 0; k--) value = smt_ite(s, smt_eq(s, index, smt_int(s, k)), cells[k], value);
  return value;
}

Z3_ast smt_expr(smt *s, const ir_expr *e, const smt_env *env) {
  switch (e->kind) {
  case IR_BOOL:
  case IR_INT: return literal(s, e);
  case IR_NAME:
    if (e->ref == REF_CONST) return smt_int(s, env->consts[e->index]);
    if (e->ref == REF_VAR) return env->vars[e->index];
    return e->primed ? env->next[e->index] : env->cur[e->index];
  case IR_TID: return env->tid;
  case IR_COUNT: return env->count(env->ctx, e->index, e->state_index);
  case IR_AT: {
    int64_t i = e->a->kind == IR_INT ? e->a->value : env->consts[e->a->index];
    return env->at(env->ctx, e->index, i, e->state_index);
  }
  case IR_UNARY: {
    Z3_ast a = smt_expr(s, e->a, env);
    if (e->op == OP_WRAP) return wrap(s, e->ity, a);
    if (e->op == OP_BITNOT) return bitnot(s, e->ity, a);
    return e->op == OP_NOT ? smt_not(s, a) : neg(s, a);
  }
  case IR_BINARY: return binary(s, e, env);
  case IR_ITE: return smt_ite(s, smt_expr(s, e->a, env), smt_expr(s, e->b, env), smt_expr(s, e->c, env));
  case IR_INDEX: return element(s, e, env);
  case IR_QUANT: return smt_expr(s, e->lowered, env);
  }
  return NULL;
}

bool smt_model_value(smt *s, Z3_model m, Z3_ast t, int64_t *out) {
  Z3_ast v = NULL;
  if (!Z3_model_eval(s->z3, m, t, true, &v) || !v) return false;
  smt_keep(s, v);
  if (Z3_get_sort_kind(s->z3, Z3_get_sort(s->z3, v)) == Z3_BOOL_SORT) {
    Z3_lbool b = Z3_get_bool_value(s->z3, v);
    *out = b == Z3_L_TRUE;
    return b != Z3_L_UNDEF;
  }
  return Z3_get_numeral_int64(s->z3, v, out);
}

/* ---------------------------------------------------------------- solvers */

double smt_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

unsigned smt_timeout_ms(double deadline) {
  double left = deadline - smt_now();
  return left > 0.001 ? (unsigned)(left * 1000) : 1;
}

void smt_set_horn_seed(smt *s, unsigned seed) { s->seed = seed; }

void smt_set_rlimit(smt *s, unsigned rlimit) { s->rlimit = rlimit; }

unsigned smt_rlimit(const smt *s) { return s->rlimit; }

Z3_solver smt_solver(smt *s, double deadline, bool horn) {
  Z3_context c = s->z3;
  Z3_solver sv = horn ? Z3_mk_solver_for_logic(c, Z3_mk_string_symbol(c, "HORN")) : Z3_mk_solver(c);
  Z3_solver_inc_ref(c, sv);
  Z3_params p = Z3_mk_params(c);
  Z3_params_inc_ref(c, p);
  if (deadline > 0) Z3_params_set_uint(c, p, Z3_mk_string_symbol(c, "timeout"), smt_timeout_ms(deadline));
  /* No Ctrl-C handler of Z3's own: SIGINT sets athread's flag, and the
   * watchdog interrupts Z3 (smt_watch_start). */
  Z3_params_set_bool(c, p, Z3_mk_string_symbol(c, "ctrl_c"), false);
  if (s->rlimit) Z3_params_set_uint(c, p, Z3_mk_string_symbol(c, "rlimit"), s->rlimit);
  if (horn) {
    Z3_params_set_bool(c, p, Z3_mk_string_symbol(c, "fp.xform.slice"), false);
    Z3_params_set_bool(c, p, Z3_mk_string_symbol(c, "fp.xform.inline_linear"), false);
    Z3_params_set_bool(c, p, Z3_mk_string_symbol(c, "fp.xform.inline_eager"), false);
    Z3_params_set_uint(c, p, Z3_mk_string_symbol(c, "fp.spacer.random_seed"), s->seed);
  }
  Z3_solver_set_params(c, sv, p);
  Z3_params_dec_ref(c, p);
  return sv;
}

/* ---------------------------------------------------------------- Z3's aborts */

static char abort_prefix[256] = "verdict: unknown: "; /* smt_unknown_on_abort's */
static volatile sig_atomic_t in_check;                /* inside Z3_solver_check */
static volatile sig_atomic_t check_limited;           /* with a resource limit */
static double check_deadline;                         /* its deadline, or 0 */

static void say(int fd, const char *text) {
  for (size_t n = strlen(text); n > 0;) {
    ssize_t k = write(fd, text, n);
    if (k <= 0) return;
    text += k, n -= (size_t)k;
  }
}

/* A SIGABRT inside a check that a limit or an interrupt cancelled: the
 * verdict unknown, as the limit would have given it; in any other check, an
 * internal error (exit 4); elsewhere, the abort it was. */
static void on_abort(int sig) {
  bool late = check_deadline > 0 && smt_now() >= check_deadline - SMT_CHECK_SLACK;
  if (!in_check || !(late || check_limited || interrupt_requested())) {
    signal(sig, SIG_DFL);
    if (in_check) {
      say(2, "athread: internal error: Z3 aborted during a query\n");
      _exit(4);
    }
    raise(sig);
    return;
  }
  fflush(stdout); /* (the main thread is inside Z3, not inside stdio) */
  say(1, abort_prefix);
  say(1, interrupt_requested() ? INTERRUPT_REASON "\n"
         : late                ? "the time limit (--timeout) was reached\n"
                               : "Z3 stopped abnormally when its resource limit cancelled a query\n");
  say(2, "athread: note: Z3 aborted while a limit cancelled its query (a fault in Z3's cancellation); the run "
         "ends as the limit ends it\n");
  _exit(3);
}

void smt_unknown_on_abort(const char *prefix) {
  snprintf(abort_prefix, sizeof abort_prefix, "%s", prefix);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_abort;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGABRT, &sa, NULL);
}

Z3_lbool smt_check(smt *s, Z3_solver sv, double deadline) {
  check_deadline = deadline;
  check_limited = s->rlimit > 0;
  in_check = 1;
  Z3_lbool r = Z3_solver_check(s->z3, sv);
  in_check = 0;
  if (s->failed || interrupt_requested() || smt_deadline_passed(deadline)) return Z3_L_UNDEF;
  return r;
}

bool smt_deadline_passed(double deadline) { return deadline > 0 && smt_now() >= deadline - SMT_CHECK_SLACK; }

/* ---------------------------------------------------------------- watchdog */

/* How often the watchdog looks at the interrupt flag, and repeats
 * Z3_interrupt once it fired (a call that starts later must not run on). */
#define WATCH_POLL_NS 20000000L

struct smt_watch {
  Z3_context z3;        /* what to interrupt */
  bool has_deadline;    /* else only SIGINT/SIGTERM fire it */
  struct timespec due;  /* the deadline */
  pthread_t thread;     /* the watchdog */
  pthread_mutex_t lock; /* guards stop and fired */
  pthread_cond_t wake;  /* signalled by smt_watch_stop */
  progress *progress;   /* beaten at every wake (the main thread is inside Z3), or NULL */
  bool stop;            /* the owner is done */
  bool fired;           /* Z3 was interrupted */
};

static bool earlier(const struct timespec *a, const struct timespec *b) {
  return a->tv_sec < b->tv_sec || (a->tv_sec == b->tv_sec && a->tv_nsec < b->tv_nsec);
}

/* Wakes every WATCH_POLL_NS (or at the deadline, if sooner); once the
 * deadline passed or an interrupt was requested, interrupts Z3 at every
 * wake until told to stop. */
static void *watch(void *arg) {
  smt_watch *w = arg;
  pthread_mutex_lock(&w->lock);
  while (!w->stop) {
    struct timespec now, next;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if ((w->has_deadline && !earlier(&now, &w->due)) || interrupt_requested()) {
      w->fired = true;
      Z3_interrupt(w->z3);
    }
    progress_beat(w->progress);
    next = now;
    next.tv_nsec += WATCH_POLL_NS;
    if (next.tv_nsec >= 1000000000L) next.tv_sec++, next.tv_nsec -= 1000000000L;
    if (w->has_deadline && !w->fired && earlier(&w->due, &next)) next = w->due;
    pthread_cond_timedwait(&w->wake, &w->lock, &next);
  }
  pthread_mutex_unlock(&w->lock);
  return NULL;
}

smt_watch *smt_watch_start(smt *s, double deadline) {
  smt_watch *w = xcalloc(1, sizeof *w);
  w->z3 = s->z3;
  w->progress = s->progress;
  w->has_deadline = deadline > 0;
  w->due.tv_sec = (time_t)deadline;
  w->due.tv_nsec = (long)((deadline - (double)w->due.tv_sec) * 1e9);
  pthread_condattr_t attr;
  pthread_condattr_init(&attr);
  pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
  pthread_cond_init(&w->wake, &attr);
  pthread_condattr_destroy(&attr);
  pthread_mutex_init(&w->lock, NULL);
  /* The watchdog inherits a mask without SIGINT and SIGTERM, so that the
   * handler runs on the main thread (which may hold them blocked while it
   * writes an output file). */
  sigset_t block, old;
  sigemptyset(&block);
  sigaddset(&block, SIGINT);
  sigaddset(&block, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &block, &old);
  int err = pthread_create(&w->thread, NULL, watch, w);
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  if (err != 0) {
    pthread_cond_destroy(&w->wake);
    pthread_mutex_destroy(&w->lock);
    free(w);
    return NULL;
  }
  return w;
}

bool smt_watch_fired(const smt_watch *w) { return w && w->fired; }

void smt_watch_stop(smt_watch *w) {
  if (!w) return;
  pthread_mutex_lock(&w->lock);
  w->stop = true;
  pthread_cond_signal(&w->wake);
  pthread_mutex_unlock(&w->lock);
  pthread_join(w->thread, NULL);
  pthread_cond_destroy(&w->wake);
  pthread_mutex_destroy(&w->lock);
  free(w);
}

/* ---------------------------------------------------------------- measures */

uint64_t smt_resources_used(smt *s, Z3_solver sv) {
  Z3_stats st = Z3_solver_get_statistics(s->z3, sv);
  Z3_stats_inc_ref(s->z3, st);
  uint64_t used = 0;
  for (unsigned i = 0; i < Z3_stats_size(s->z3, st); i++)
    if (strcmp(Z3_stats_get_key(s->z3, st, i), "rlimit count") == 0 && Z3_stats_is_uint(s->z3, st, i))
      used = Z3_stats_get_uint_value(s->z3, st, i);
  Z3_stats_dec_ref(s->z3, st);
  return used;
}

static size_t atoms(Z3_context c, Z3_ast t) {
  if (Z3_get_ast_kind(c, t) != Z3_APP_AST) return 1;
  Z3_app a = Z3_to_app(c, t);
  Z3_decl_kind k = Z3_get_decl_kind(c, Z3_get_app_decl(c, a));
  if (k == Z3_OP_TRUE || k == Z3_OP_FALSE) return 0;
  unsigned n_args = Z3_get_app_num_args(c, a);
  bool bool_args = n_args > 0 && Z3_get_sort_kind(c, Z3_get_sort(c, Z3_get_app_arg(c, a, n_args - 1))) == Z3_BOOL_SORT;
  bool connective = k == Z3_OP_AND || k == Z3_OP_OR || k == Z3_OP_NOT || k == Z3_OP_IMPLIES || k == Z3_OP_XOR ||
                    ((k == Z3_OP_EQ || k == Z3_OP_ITE) && bool_args);
  if (!connective) return 1;
  size_t n = 0;
  for (unsigned i = k == Z3_OP_ITE ? 1 : 0; i < n_args; i++) n += atoms(c, Z3_get_app_arg(c, a, i));
  return n;
}

size_t smt_atom_count(smt *s, Z3_ast t) { return atoms(s->z3, t); }
