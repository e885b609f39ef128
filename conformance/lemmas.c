/* conformance/lemmas.c -- Houdini over the proof clauses: the templates'
 * candidates, dropped until the rest is inductive. */
#include "lemmas.h"

#include <stdlib.h>

#include "../core/interrupt.h"

/* Z3's resource limit per query (about half a second): a query it
 * cannot answer within it drops the candidates it was about, so the
 * outcome does not depend on the machine's load. */
#define LEMMA_RLIMIT 1000000u
/* ... and for the whole search: past it, no guess (Spacer proceeds as
 * without one). 2,000 lines at 64 states take 700,000. */
#define LEMMA_BUDGET 20000000u
/* ... and for the second search, from where the first ended: the
 * battery's worker takes 890,000; past it the second search gives no guess,
 * so that a thread it cannot prove goes to Spacer soon (peterson's threads
 * took 2,900,000 each, a second, for nothing). */
#define GUARDED_BUDGET 1200000u

/* The constants of the integer templates: at most MAX_CONSTS, each at most
 * MAX_CONST in magnitude (bounds and steps, not the code's data). */
#define MAX_CONSTS 9
#define MAX_CONST 64

typedef VEC(int64_t) lemma_consts;

/* A candidate; a bound also says of what, so that the result keeps only
 * the strongest bound of each term. */
typedef struct lemma {
  Z3_ast term; /* over de Bruijn variables */
  Z3_ast of;   /* a bound: its term, else NULL */
  int64_t c;   /* a bound: its constant */
  bool lower;  /* a bound: c <= of, else of <= c */
  Z3_ast when;    /* a guarded candidate when || t: its guard F[S] or !F[S], else NULL */
  Z3_ast body;    /* a guarded candidate: its template t */
  bool nonempty;  /* the template "F is not empty" */
  bool state;     /* the template F[S] */
} lemma;

typedef VEC(lemma) lemma_set;

struct lemmas {
  enc *e;              /* borrowed: the proof encoding */
  smt *s;              /* borrowed: its context */
  Z3_context c;        /* s's Z3 context */
  Z3_solver sv;        /* the one plain solver of the search (a scope per clause) */
  double deadline;     /* the run's, or 0 */
  lemma_set *cands;    /* per cut: the candidates still standing */
  bool *stale;         /* per clause: its cut's candidates shrank since it was checked */
  lemma_consts consts; /* the bounds of the integer templates */
  int *old_of;         /* per variable: its VAR_OLD copy, or -1 */
  uint64_t budget;     /* the resources the solver may have used when the search ends */
  bool failed;         /* out of time or budget, interrupted, or Z3 failed: no result */
  bool second;         /* the second search (the guarded candidates) has run */
};

typedef lemmas houdini;

/* ---------------------------------------------------------------- the templates */

static bool is_bool(const enc *e, size_t v) { return e->p->vars.items[v].type == TY_BOOL; }

/* Per variable, its de Bruijn variable at cut k, or NULL where it is not live. */
static Z3_ast *bound_vars(houdini *h, int k) {
  Z3_ast *x = xcalloc(h->e->var_count + 1, sizeof *x);
  unsigned i = 0;
  for (size_t v = 0; v < h->e->var_count; v++) {
    if (!h->e->live[(size_t)k * h->e->var_count + v]) continue;
    Z3_sort sort = is_bool(h->e, v) ? Z3_mk_bool_sort(h->c) : Z3_mk_int_sort(h->c);
    x[v] = smt_keep(h->s, Z3_mk_bound(h->c, i++, sort));
  }
  return x;
}

/* F not empty; each live Boolean but F's true, and false; in the second
 * search also each F[S] and !F[S] (what is dropped tells the states
 * possible at the cut; not in the first search, where Houdini would walk a
 * loop of the abstract thread one state at a time) and each shared
 * Boolean's change in the step: old(g) implies g, and g implies old(g). */
static void seed_bools(houdini *h, const Z3_ast *x, bool second, lemma_set *out) {
  enc_terms f = {0};
  for (size_t v = 0; v < h->e->var_count; v++) {
    if (!x[v] || !is_bool(h->e, v)) continue;
    bool cand = h->e->p->vars.items[v].kind == VAR_CAND;
    if (cand) vec_push(NULL, &f, x[v]);
    if (cand && !second) continue;
    vec_push(NULL, out, ((lemma){.term = x[v], .state = cand}));
    vec_push(NULL, out, (lemma){.term = smt_not(h->s, x[v])});
    int old = h->old_of[v];
    if (!second || old < 0 || !x[old]) continue;
    vec_push(NULL, out, (lemma){.term = smt_implies(h->s, x[old], x[v])});
    vec_push(NULL, out, (lemma){.term = smt_implies(h->s, x[v], x[old])});
  }
  if (f.len > 0) vec_push(NULL, out, ((lemma){.term = smt_or(h->s, (unsigned)f.len, f.items), .nonempty = true}));
  vec_free(&f);
}

/* t >= c and t <= c for each constant c. */
static void seed_bounds(houdini *h, Z3_ast t, lemma_set *out) {
  vec_foreach(&h->consts, i) {
    int64_t c = h->consts.items[i];
    vec_push(NULL, out, ((lemma){.term = smt_le(h->s, smt_int(h->s, c), t), .of = t, .c = c, .lower = true}));
    vec_push(NULL, out, ((lemma){.term = smt_le(h->s, t, smt_int(h->s, c)), .of = t, .c = c, .lower = false}));
  }
}

/* l == u as l - u >= 0 and l - u <= 0, for a local l and each other live
 * integer u (a local that holds what the step read). */
static void seed_equal(houdini *h, const Z3_ast *x, size_t l, lemma_set *out) {
  for (size_t u = 0; u < h->e->var_count; u++) {
    if (u == l || !x[u] || is_bool(h->e, u)) continue;
    Z3_ast both[2] = {x[l], smt_keep(h->s, Z3_mk_unary_minus(h->c, x[u]))};
    Z3_ast t = smt_add(h->s, 2, both), zero = smt_int(h->s, 0);
    vec_push(NULL, out, ((lemma){.term = smt_le(h->s, zero, t), .of = t, .lower = true}));
    vec_push(NULL, out, ((lemma){.term = smt_le(h->s, t, zero), .of = t}));
  }
}

/* Bounds of each live integer, and of each shared variable's change in the
 * step (g - old(g)); in the second search also each local's equality with
 * another integer. */
static void seed_ints(houdini *h, const Z3_ast *x, bool second, lemma_set *out) {
  for (size_t v = 0; v < h->e->var_count; v++) {
    if (!x[v] || is_bool(h->e, v)) continue;
    seed_bounds(h, x[v], out);
    if (second && h->e->p->vars.items[v].kind == VAR_LOCAL) seed_equal(h, x, v, out);
    int old = h->old_of[v];
    if (old < 0 || !x[old]) continue;
    Z3_ast both[2] = {x[v], smt_keep(h->s, Z3_mk_unary_minus(h->c, x[old]))};
    seed_bounds(h, smt_add(h->s, 2, both), out);
  }
}

/* Every cut's candidates; none at the entry, where any value may start. */
static void seed(houdini *h) {
  h->cands = xcalloc(h->e->cuts.len + 1, sizeof *h->cands);
  vec_foreach(&h->e->cuts, k) {
    if ((int)k == h->e->cut_of[h->e->p->entry]) continue;
    Z3_ast *x = bound_vars(h, (int)k);
    seed_bools(h, x, false, &h->cands[k]);
    seed_ints(h, x, false, &h->cands[k]);
    free(x);
  }
}

/* Whether the first n candidates of set hold one whose term is t. */
static bool holds_in(const lemma_set *set, size_t n, Z3_ast t) {
  for (size_t i = 0; i < n; i++)
    if (set->items[i].term == t) return true;
  return false;
}

static bool holds(const lemma_set *set, Z3_ast t) { return holds_in(set, set->len, t); }

/* guard || t for each template t of base that the first search dropped
 * (the first n of set are what it kept), into set. */
static void seed_guard(houdini *h, Z3_ast guard, const lemma_set *base, size_t n, lemma_set *set) {
  vec_foreach(base, i) {
    lemma l = base->items[i];
    if (l.nonempty || holds_in(set, n, l.term) || l.term == guard || l.term == smt_not(h->s, guard)) continue;
    Z3_ast either[2] = {guard, l.term};
    l.term = smt_or(h->s, 2, either);
    l.when = guard;
    l.body = base->items[i].term;
    l.state = false;
    vec_push(NULL, set, l);
  }
}

/* The second search's candidates at cut k: the templates that the first
 * dropped, again, and !F[S] || t and F[S] || t for each of them and each
 * state S possible at k (!F[S] was dropped: few states, so few candidates). */
static void seed_guarded(houdini *h, int k) {
  lemma_set base = {0}, *set = &h->cands[k];
  Z3_ast *x = bound_vars(h, k);
  seed_bools(h, x, true, &base);
  seed_ints(h, x, true, &base);
  size_t kept = set->len;
  vec_foreach(&base, i) if (!holds(set, base.items[i].term)) vec_push(NULL, set, base.items[i]);
  for (size_t v = 0; v < h->e->var_count; v++) {
    if (!x[v] || h->e->p->vars.items[v].kind != VAR_CAND || holds_in(set, kept, smt_not(h->s, x[v]))) continue;
    seed_guard(h, smt_not(h->s, x[v]), &base, kept, set);
    seed_guard(h, x[v], &base, kept, set);
  }
  free(x);
  vec_free(&base);
}

/* ---------------------------------------------------------------- the constants */

static void add_const(const ir_expr *x, void *set) {
  if (x->kind != IR_INT || x->big || x->value > MAX_CONST || x->value < -MAX_CONST) return;
  lemma_consts *k = set;
  for (int64_t v = x->value, sign = 0; sign < 2; sign++, v = -v) {
    bool seen = false;
    vec_foreach(k, i) seen |= k->items[i] == v;
    if (!seen && k->len < MAX_CONSTS) vec_push(NULL, k, v);
  }
}

/* The bounds' constants: 0 and the code's small literals, either sign. */
static void find_consts(houdini *h) {
  vec_push(NULL, &h->consts, 0);
  vec_foreach(&h->e->p->edges, k)
    if (h->e->p->edges.items[k].expr) ir_walk(h->e->p->edges.items[k].expr, add_const, &h->consts);
}

/* Per variable, the index of its VAR_OLD copy, or -1. */
static void find_olds(houdini *h) {
  const prog *p = h->e->p;
  h->old_of = xcalloc(h->e->var_count + 1, sizeof *h->old_of);
  vec_foreach(&p->vars, v) {
    h->old_of[v] = -1;
    if (p->vars.items[v].kind != VAR_SHARED) continue;
    vec_foreach(&p->vars, u)
      if (p->vars.items[u].kind == VAR_OLD && p->vars.items[u].shared_index == p->vars.items[v].shared_index)
        h->old_of[v] = (int)u;
  }
}

/* ---------------------------------------------------------------- the queries */

/* Candidate t of cut k at the values vals (V terms). */
static Z3_ast at(houdini *h, int k, Z3_ast t, const Z3_ast *vals) {
  Z3_ast *args = xcalloc(h->e->var_count + 1, sizeof *args);
  unsigned n = enc_live_args(h->e, k, vals, args);
  Z3_ast r = smt_keep(h->s, Z3_substitute_vars(h->c, t, n, args));
  free(args);
  return r;
}

/* The candidates of cut k at vals, into out. */
static void all_at(houdini *h, int k, const Z3_ast *vals, enc_terms *out) {
  out->len = 0;
  vec_foreach(&h->cands[k], i) vec_push(NULL, out, at(h, k, h->cands[k].items[i].term, vals));
}

static bool true_in(houdini *h, Z3_model m, Z3_ast t) {
  Z3_ast v = NULL;
  return Z3_model_eval(h->c, m, t, true, &v) && v && Z3_get_bool_value(h->c, v) == Z3_L_TRUE;
}

/* Keeps the candidates of cut k that hold in m (terms: them at the clause's
 * end); true when some were dropped. */
static bool keep_true(houdini *h, int k, Z3_model m, const enc_terms *terms) {
  size_t n = 0;
  vec_foreach(terms, i)
    if (true_in(h, m, terms->items[i])) h->cands[k].items[n++] = h->cands[k].items[i];
  bool dropped = n < h->cands[k].len;
  h->cands[k].len = n;
  return dropped;
}

/* One query: can the clause end where some candidate of cut k (ends: them
 * at the clause's end) is false? Drops those; false when it is unsat. */
static bool refute_once(houdini *h, int k, const enc_terms *ends) {
  Z3_solver_push(h->c, h->sv);
  Z3_solver_assert(h->c, h->sv, smt_not(h->s, smt_and(h->s, (unsigned)ends->len, ends->items)));
  Z3_lbool r = smt_check(h->s, h->sv, h->deadline);
  bool dropped = false;
  if (r == Z3_L_TRUE) {
    Z3_model m = Z3_solver_get_model(h->c, h->sv);
    Z3_model_inc_ref(h->c, m);
    dropped = keep_true(h, k, m, ends);
    Z3_model_dec_ref(h->c, m);
  }
  Z3_solver_pop(h->c, h->sv, 1);
  h->failed |= r == Z3_L_UNDEF && (smt_failed(h->s) || smt_deadline_passed(h->deadline) || interrupt_requested());
  if (r == Z3_L_UNDEF || (r == Z3_L_TRUE && !dropped)) h->cands[k].len = 0; /* no answer: keep nothing */
  return r != Z3_L_FALSE;
}

/* Constants for the clause's end values, equal to them: the candidates
 * are then small terms over constants, which a model evaluates at once
 * (the end values are the whole path's terms). */
static Z3_ast *name_ends(houdini *h, const enc_clause *cl) {
  Z3_ast *ends = xcalloc(h->e->var_count + 1, sizeof *ends);
  for (size_t v = 0; v < h->e->var_count; v++) {
    if (!h->e->live[(size_t)cl->to * h->e->var_count + v]) continue;
    ends[v] = enc_var(h->e, (int)v, "end");
    Z3_solver_assert(h->c, h->sv, smt_eq(h->s, ends[v], cl->y[v]));
  }
  return ends;
}

/* Clause j: drops its target's candidates that it does not preserve; true
 * when the target's candidates shrank. */
static bool check_clause(houdini *h, size_t j) {
  const enc_clause *cl = &h->e->clauses.items[j];
  enc_terms from = {0}, ends = {0};
  size_t before = h->cands[cl->to].len;
  Z3_solver_push(h->c, h->sv);
  all_at(h, cl->from, enc_start(h->e), &from);
  Z3_solver_assert(h->c, h->sv, smt_and(h->s, (unsigned)from.len, from.items));
  Z3_solver_assert(h->c, h->sv, cl->formula);
  Z3_ast *end = name_ends(h, cl);
  all_at(h, cl->to, end, &ends);
  while (h->cands[cl->to].len > 0 && !h->failed && refute_once(h, cl->to, &ends)) all_at(h, cl->to, end, &ends);
  Z3_solver_pop(h->c, h->sv, 1);
  free(end);
  vec_free(&from);
  vec_free(&ends);
  return h->cands[cl->to].len < before;
}

/* Marks stale every clause from cut k to a cut (the error clauses are the re-check's). */
static void mark_from(houdini *h, int k) {
  vec_foreach(&h->e->clauses, j) {
    const enc_clause *cl = &h->e->clauses.items[j];
    if (cl->from == k && cl->to >= 0) h->stale[j] = true;
  }
}

/* Depth-first from cut k along the clauses; appends k after its successors. */
static void postorder(const enc *e, int k, bool *seen, int *out, size_t *n) {
  seen[k] = true;
  vec_foreach(&e->clauses, j) {
    const enc_clause *cl = &e->clauses.items[j];
    if (cl->from == k && cl->to >= 0 && !seen[cl->to]) postorder(e, cl->to, seen, out, n);
  }
  out[(*n)++] = k;
}

/* The clauses to cuts, by their first cut in reverse postorder from the
 * entry (the order the code runs in, so that one pass carries a dropped
 * candidate down a loop's body), after those from the cuts that no clause
 * leads to from the entry, into out; returns how many. */
static size_t clause_order(const enc *e, size_t *out) {
  size_t n = 0, count = 0, cuts = e->cuts.len;
  bool *seen = xcalloc(cuts + 1, sizeof *seen);
  int *post = xcalloc(cuts + 1, sizeof *post);
  postorder(e, e->cut_of[e->p->entry], seen, post, &n);
  vec_foreach(&e->cuts, k)
    if (!seen[k]) postorder(e, (int)k, seen, post, &n);
  for (size_t i = n; i-- > 0;)
    vec_foreach(&e->clauses, j)
      if (e->clauses.items[j].from == post[i] && e->clauses.items[j].to >= 0) out[count++] = j;
  free(seen);
  free(post);
  return count;
}

/* Checks stale clauses, in order, until none is: what is left is inductive. */
static void fixpoint(houdini *h) {
  size_t *order = xcalloc(h->e->clauses.len + 1, sizeof *order);
  size_t n = clause_order(h->e, order);
  for (bool again = true; again && !h->failed;) {
    again = false;
    for (size_t i = 0; i < n && !h->failed; i++) {
      size_t j = order[i];
      if (!h->stale[j]) continue;
      h->stale[j] = false;
      if (check_clause(h, j)) mark_from(h, h->e->clauses.items[j].to), again = true;
      h->failed |= smt_resources_used(h->s, h->sv) > h->budget;
    }
  }
  free(order);
}

/* F[S] and !F[S] added to what the first search kept, at every cut but
 * the entry: which states are possible where. */
static void with_states(houdini *h) {
  if (h->failed) return;
  vec_foreach(&h->e->cuts, k) {
    mark_from(h, (int)k);
    if ((int)k == h->e->cut_of[h->e->p->entry]) continue;
    Z3_ast *x = bound_vars(h, (int)k);
    for (size_t v = 0; v < h->e->var_count; v++) {
      if (!x[v] || h->e->p->vars.items[v].kind != VAR_CAND) continue;
      vec_push(NULL, &h->cands[k], ((lemma){.term = x[v], .state = true}));
      vec_push(NULL, &h->cands[k], (lemma){.term = smt_not(h->s, x[v])});
    }
    free(x);
  }
  fixpoint(h);
}

/* The second search: the states' literals, then the guarded candidates,
 * each added to what the search before kept (which is inductive, so it
 * stays); the states possible at each cut keep the candidates few. */
static void guarded(houdini *h) {
  with_states(h);
  if (h->failed) return;
  vec_foreach(&h->e->cuts, k) {
    if ((int)k != h->e->cut_of[h->e->p->entry]) seed_guarded(h, (int)k);
    mark_from(h, (int)k);
  }
  fixpoint(h);
}

/* ---------------------------------------------------------------- the result */

/* Whether another bound in set, of the same term and direction, is stronger than b
 * (or the same, and earlier: one of equal bounds stays). */
static bool weaker(const lemma_set *set, size_t b) {
  const lemma *l = &set->items[b];
  vec_foreach(set, i) {
    const lemma *o = &set->items[i];
    if (i == b || !o->of || o->of != l->of || o->lower != l->lower) continue;
    if (o->when != l->when) continue;
    if (o->c == l->c ? i < b : (o->c > l->c) == l->lower) return true;
  }
  return false;
}

/* Whether guarded candidate i, a || b, comes after b || a (!F[S] || !F[T]
 * and !F[T] || !F[S]: the same candidate). */
static bool swapped_before(const lemma_set *set, size_t i) {
  const lemma *l = &set->items[i];
  for (size_t j = 0; j < i; j++)
    if (set->items[j].when == l->body && set->items[j].body == l->when) return true;
  return false;
}

/* Whether another candidate in set implies candidate i: a stronger bound,
 * for guard || t guard or t itself (or t || guard, earlier), and for "F is
 * not empty" some F[S]. */
static bool implied(const lemma_set *set, size_t i) {
  const lemma *l = &set->items[i];
  if (l->when && (holds(set, l->when) || holds(set, l->body) || swapped_before(set, i))) return true;
  if (l->nonempty) vec_foreach(set, j) if (set->items[j].state) return true;
  return l->of && weaker(set, i);
}

/* Per cut, the conjunction of what survived, without the candidates that
 * others imply (the same conjunction, easier to read). */
static Z3_ast *conjunctions(houdini *h) {
  Z3_ast *out = xcalloc(h->e->cuts.len + 1, sizeof *out);
  enc_terms kept = {0};
  vec_foreach(&h->e->cuts, k) {
    kept.len = 0;
    vec_foreach(&h->cands[k], i)
      if (!implied(&h->cands[k], i)) vec_push(NULL, &kept, h->cands[k].items[i].term);
    out[k] = smt_and(h->s, (unsigned)kept.len, kept.items);
  }
  vec_free(&kept);
  return out;
}

/* Runs step (a search) under the searches' resource limit. */
static void limited(houdini *h, void (*step)(houdini *)) {
  unsigned rlimit = smt_rlimit(h->s);
  smt_set_rlimit(h->s, LEMMA_RLIMIT);
  step(h);
  smt_set_rlimit(h->s, rlimit);
}

static Z3_ast *result(houdini *h) { return h->failed || smt_failed(h->s) ? NULL : conjunctions(h); }

lemmas *lemmas_new(enc *e, double deadline) {
  houdini *h = xcalloc(1, sizeof *h);
  *h = (houdini){.e = e, .s = e->s, .c = smt_z3(e->s), .deadline = deadline, .budget = LEMMA_BUDGET};
  unsigned rlimit = smt_rlimit(e->s);
  smt_set_rlimit(e->s, LEMMA_RLIMIT);
  h->sv = smt_solver(e->s, deadline, false);
  smt_set_rlimit(e->s, rlimit);
  find_consts(h);
  find_olds(h);
  seed(h);
  h->stale = xcalloc(e->clauses.len + 1, sizeof *h->stale);
  vec_foreach(&e->cuts, k) mark_from(h, (int)k);
  limited(h, fixpoint);
  return h;
}

Z3_ast *lemmas_find(lemmas *h) { return result(h); }

Z3_ast *lemmas_find_guarded(lemmas *h) {
  if (h->failed || h->second) return NULL;
  h->second = true;
  h->budget = smt_resources_used(h->s, h->sv) + GUARDED_BUDGET;
  limited(h, guarded);
  return result(h);
}

void lemmas_free(lemmas *h) {
  if (!h) return;
  Z3_solver_dec_ref(h->c, h->sv);
  vec_foreach(&h->e->cuts, k) vec_free(&h->cands[k]);
  free(h->cands);
  free(h->stale);
  free(h->old_of);
  vec_free(&h->consts);
  free(h);
}
