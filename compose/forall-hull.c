/* compose/forall-hull.c -- affine invariants for --for-all: sampled
 * reachable states, the equations of their affine hull, and Houdini.
 *
 * Spacer finds disjunctive lemmas quickly but rarely the affine equalities
 * that tie a shared counter to the thread counters (pendingIO is 1 plus the
 * number of workers holding a reference). So before the proof: sample
 * reachable states by BMC until their affine hull is stable, keep the hull's
 * equations that are inductive together (Houdini), and give them to Spacer
 * as a known invariant. The proof's certificate includes them, and the
 * re-check runs without them. */
#include "forall-hull.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/arena.h"
#include "../core/vec.h"

typedef VEC(Z3_ast) term_list;

/* sum a_i f_i == b for one row. */
static Z3_ast equation(const hull_system *e, const int64_t *row, Z3_ast *f) {
  Z3_context c = smt_z3(e->sys->s);
  term_list terms = {0};
  for (size_t i = 0; i < e->feature_count; i++) {
    if (row[i] == 0) continue;
    Z3_ast prod[2] = {smt_int(e->sys->s, row[i]), f[i]};
    vec_push(NULL, &terms, row[i] == 1 ? f[i] : smt_keep(e->sys->s, Z3_mk_mul(c, 2, prod)));
  }
  Z3_ast eq = smt_eq(e->sys->s, smt_add(e->sys->s, (unsigned)terms.len, terms.items),
                     smt_int(e->sys->s, row[e->feature_count]));
  vec_free(&terms);
  return eq;
}

Z3_ast hull_equations(const hull_system *e, const int64_t *rows, size_t n, Z3_ast *v) {
  Z3_ast *f = e->features(e->sys->ctx, v);
  term_list all = {0};
  for (size_t k = 0; k < n; k++) vec_push(NULL, &all, equation(e, &rows[k * (e->feature_count + 1)], f));
  Z3_ast conj = smt_and(e->sys->s, (unsigned)all.len, all.items);
  vec_free(&all);
  free(f);
  return conj;
}

static int64_t gcd64(int64_t a, int64_t b) {
  a = a < 0 ? -a : a;
  b = b < 0 ? -b : b;
  while (b) {
    int64_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

#define HULL_LIMIT ((int64_t)1 << 30) /* larger entries: give up (no hints) */

static bool reduce_row(int64_t *row, size_t n) {
  int64_t g = 0;
  for (size_t i = 0; i < n; i++) g = gcd64(g, row[i]);
  for (size_t i = 0; g > 1 && i < n; i++) row[i] /= g;
  for (size_t i = 0; i < n; i++)
    if (row[i] > HULL_LIMIT || row[i] < -HULL_LIMIT) return false;
  return true;
}

/* The equations a.f = b that every sample satisfies (a basis, one row of
 * cols = dims + 1 entries each, the constant last), into *out (owned).
 * Returns the number of rows, or (size_t)-1 when numbers grow too large. */
static size_t null_space(const int64_t *samples, size_t count, size_t dims, int64_t **out) {
  size_t cols = dims + 1;
  int64_t *m = xcalloc(count * cols + 1, sizeof *m);
  for (size_t r = 0; r < count; r++) {
    memcpy(&m[r * cols], &samples[r * dims], dims * sizeof *m);
    m[r * cols + dims] = -1; /* a.f - b = 0 */
  }
  size_t *pivot = xcalloc(cols + 1, sizeof *pivot), rank = 0;
  bool ok = true;
  for (size_t col = 0; col < cols && rank < count && ok; col++) {
    size_t r = rank;
    while (r < count && m[r * cols + col] == 0) r++;
    if (r == count) continue;
    for (size_t j = 0; j < cols; j++) {
      int64_t t = m[r * cols + j];
      m[r * cols + j] = m[rank * cols + j];
      m[rank * cols + j] = t;
    }
    int64_t *p = &m[rank * cols];
    if (p[col] < 0)
      for (size_t j = 0; j < cols; j++) p[j] = -p[j];
    for (size_t i = 0; i < count && ok; i++) {
      int64_t *q = &m[i * cols], a = p[col], b = q[col];
      if (i == rank || b == 0) continue;
      for (size_t j = 0; j < cols; j++) q[j] = a * q[j] - b * p[j];
      ok = reduce_row(q, cols);
    }
    pivot[rank++] = col;
  }
  size_t n = 0;
  *out = xcalloc((cols - rank) * cols + 1, sizeof **out);
  for (size_t free_col = 0, k = 0; free_col < cols && ok; free_col++) {
    if (k < rank && pivot[k] == free_col) {
      k++;
      continue;
    }
    int64_t l = 1; /* lcm of the pivots */
    for (size_t i = 0; i < rank && ok; i++) {
      int64_t pv = m[i * cols + pivot[i]];
      l = l / gcd64(l, pv) * pv;
      ok = l < HULL_LIMIT;
    }
    int64_t *z = &(*out)[n * cols];
    z[free_col] = l;
    for (size_t i = 0; i < rank && ok; i++) z[pivot[i]] = -m[i * cols + free_col] * (l / m[i * cols + pivot[i]]);
    ok = ok && reduce_row(z, cols); /* a.f - b = 0 with b = z[dims] */
    n++;
  }
  free(m);
  free(pivot);
  return ok ? n : (size_t)-1;
}

/* Some equation of rows false at some frame. */
static Z3_ast outside(const hull_system *e, const int64_t *rows, size_t n, Z3_ast **fs, unsigned frames) {
  term_list alt = {0};
  for (unsigned j = 0; j <= frames; j++)
    for (size_t k = 0; k < n; k++)
      vec_push(NULL, &alt, smt_not(e->sys->s, equation(e, &rows[k * (e->feature_count + 1)], fs[j])));
  Z3_ast any = smt_or(e->sys->s, (unsigned)alt.len, alt.items);
  vec_free(&alt);
  return any;
}

/* The sampling's budget in Z3 resource units (smt_resources_used): about
 * 2 s of work on the examples, and the same work on every run, so that the
 * hints -- and the certificate -- do not depend on the machine's speed. */
#define HULL_UNITS UINT64_C(5000000)

/* Limits the next check on s to what is left of the sampling budget: the
 * resource units up to units_end and, under a deadline (--timeout), the
 * time up to stop. False when nothing is left. */
static bool limit_query(const hull_system *e, Z3_solver s, uint64_t units_end, double stop) {
  Z3_context c = smt_z3(e->sys->s);
  uint64_t used = smt_resources_used(e->sys->s, s);
  double left = stop - smt_now();
  if (used >= units_end || (e->deadline > 0 && left <= 0.01) || smt_deadline_passed(e->deadline)) return false;
  Z3_params p = Z3_mk_params(c);
  Z3_params_inc_ref(c, p);
  Z3_params_set_uint(c, p, Z3_mk_string_symbol(c, "rlimit"),
                     (unsigned)(units_end - used < UINT_MAX ? units_end - used : UINT_MAX));
  if (e->deadline > 0) Z3_params_set_uint(c, p, Z3_mk_string_symbol(c, "timeout"), (unsigned)(left * 1000));
  Z3_solver_set_params(c, s, p);
  Z3_params_dec_ref(c, p);
  return true;
}

/* The affine hull of sampled reachable states, depth by depth up to depth
 * steps: a basis of its equations (rows, owned; *count of them), or NULL
 * when no sample was found or the numbers grew too large. The hull is that of
 * every state within depth steps unless the budget ran out first; either
 * way Houdini (find_hints) keeps only equations that are invariant. */
static int64_t *sample_hull(const hull_system *e, unsigned depth, double budget, size_t *count) {
  Z3_context c = smt_z3(e->sys->s);
  Z3_solver s = smt_solver(e->sys->s, e->deadline, false);
  Z3_ast **frames = xcalloc(depth + 1, sizeof *frames), **fs = xcalloc(depth + 1, sizeof *fs);
  char name[32];
  size_t dims = e->feature_count, n = 0;
  VEC(int64_t) samples = {0};
  int64_t *basis = NULL;
  bool broken = false;
  double stop = smt_now() + budget;
  uint64_t units_end = smt_resources_used(e->sys->s, s) + HULL_UNITS;
  unsigned stable = 0; /* depths in a row that did not change the hull */
  bool done = false;
  for (unsigned j = 0; j <= depth && !broken && !done && stable < 2; j++) {
    snprintf(name, sizeof name, "h%u", j);
    frames[j] = e->sys->state(e->sys->ctx, name);
    fs[j] = e->features(e->sys->ctx, frames[j]);
    Z3_solver_assert(c, s,
                     j ? sym_step_or_stay(e->sys, frames[j - 1], frames[j]) : e->sys->initial(e->sys->ctx, frames[0]));
    size_t before = n;
    for (unsigned round = 0; round <= dims + 1 && !broken && !done; round++) {
      if (!limit_query(e, s, units_end, stop)) {
        done = true;
        break;
      }
      Z3_solver_push(c, s);
      if (basis) Z3_solver_assert(c, s, outside(e, basis, n, &fs[j], 0));
      Z3_lbool r = Z3_solver_check(c, s);
      if (r == Z3_L_TRUE) {
        Z3_model model = Z3_solver_get_model(c, s);
        Z3_model_inc_ref(c, model);
        for (unsigned k = 0; k <= j; k++)
          for (size_t i = 0; i < dims; i++) {
            int64_t x = 0;
            broken |= !smt_model_value(e->sys->s, model, fs[k][i], &x);
            vec_push(NULL, &samples, x);
          }
        Z3_model_dec_ref(c, model);
      }
      Z3_solver_pop(c, s, 1);
      broken |= smt_failed(e->sys->s);
      done |= r == Z3_L_UNDEF;
      if (r != Z3_L_TRUE || broken) break;
      free(basis);
      n = null_space(samples.items, samples.len / dims, dims, &basis);
      broken |= n == (size_t)-1;
      done |= n == 0; /* no equation left */
    }
    stable = n == before && j > 0 ? stable + 1 : 0;
  }
  for (unsigned j = 0; j <= depth; j++) {
    free(frames[j]);
    free(fs[j]);
  }
  free(frames);
  free(fs);
  vec_free(&samples);
  Z3_solver_dec_ref(c, s);
  if (broken && basis) {
    free(basis);
    basis = NULL;
  }
  *count = basis ? n : 0;
  return basis;
}

/* Drops the rows that are false in w (moving the others up). */
static size_t keep_true(const hull_system *e, Z3_model model, Z3_ast *w, int64_t *rows, size_t n) {
  Z3_ast *f = e->features(e->sys->ctx, w);
  size_t kept = 0, cols = e->feature_count + 1;
  for (size_t k = 0; k < n; k++) {
    int64_t holds = 0;
    if (!smt_model_value(e->sys->s, model, equation(e, &rows[k * cols], f), &holds) || !holds) continue;
    memmove(&rows[kept * cols], &rows[k * cols], cols * sizeof *rows);
    kept++;
  }
  free(f);
  return kept;
}

int64_t *hull_invariants(const hull_system *e, unsigned depth, double budget, size_t *count) {
  size_t n = 0;
  int64_t *rows = sample_hull(e, depth, budget, &n);
  Z3_context c = smt_z3(e->sys->s);
  Z3_ast *x = e->sys->state(e->sys->ctx, "hx"), *y = e->sys->state(e->sys->ctx, "hy");
  for (bool changed = rows != NULL; changed && n > 0 && !smt_deadline_passed(e->deadline);) {
    Z3_solver s = smt_solver(e->sys->s, e->deadline, false);
    Z3_solver_assert(c, s, hull_equations(e, rows, n, x));
    Z3_solver_assert(c, s, e->sys->domains(e->sys->ctx, x));
    Z3_solver_assert(c, s, sym_transition(e->sys, x, y, NULL));
    Z3_solver_assert(c, s, smt_not(e->sys->s, hull_equations(e, rows, n, y)));
    Z3_lbool r = smt_check(e->sys->s, s, e->deadline);
    changed = r == Z3_L_TRUE;
    if (r == Z3_L_TRUE) {
      Z3_model model = Z3_solver_get_model(c, s);
      Z3_model_inc_ref(c, model);
      n = keep_true(e, model, y, rows, n);
      Z3_model_dec_ref(c, model);
    } else if (r != Z3_L_FALSE || smt_failed(e->sys->s)) {
      n = 0;
    }
    Z3_solver_dec_ref(c, s);
  }
  if (smt_deadline_passed(e->deadline)) n = 0;
  free(x);
  free(y);
  *count = rows ? n : 0;
  return rows;
}
