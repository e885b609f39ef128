/* conformance/engine-chc.c -- C(T, T#) as constrained Horn clauses, solved
 * by Spacer; the invariant it returns is re-checked clause by clause by a
 * plain solver before a proof is reported.
 *
 * One predicate per cut point over the variables live there; one clause per
 * path between cut points (encode.h): P_from(live x) and the path imply
 * P_to(live y), or false for a path that ends in a failing assertion.
 *
 * With lemmas (lemmas.h), they are tried first as the whole invariant, by
 * the same re-check (the first search's, then the second's); Spacer runs
 * only when they fail it. (Assuming them in
 * Spacer's clauses made Spacer slower, up to ten times, on the battery.)
 */
#include "engines.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/smt-drive.h"
#include "../core/smt-print.h"

/* Z3's resource limit per query of the guarded guess's re-check (about
 * half a second; the battery's worker needs under a quarter of it). */
#define GUARDED_RLIMIT 1000000u

typedef struct chc {
  enc *e;
  Z3_context c;
  Z3_func_decl *preds; /* per cut */
  Z3_ast *interp;      /* per cut: the invariant over de Bruijn variables, once known */
  bool use_interp;     /* build clauses with the invariants instead of the predicates */
} chc;

static Z3_ast predicate(chc *h, int k, const Z3_ast *x) {
  Z3_ast *args = xcalloc(h->e->var_count + 1, sizeof *args);
  unsigned n = enc_live_args(h->e, k, x, args);
  Z3_ast t = h->use_interp ? Z3_substitute_vars(h->c, h->interp[k], n, args) : Z3_mk_app(h->c, h->preds[k], n, args);
  free(args);
  return smt_keep(h->e->s, t);
}

static void declare_predicates(chc *h) {
  h->preds = xcalloc(h->e->cuts.len + 1, sizeof *h->preds);
  Z3_sort *sorts = xcalloc(h->e->var_count + 1, sizeof *sorts);
  vec_foreach(&h->e->cuts, k) {
    unsigned n = 0;
    for (size_t v = 0; v < h->e->var_count; v++)
      if (h->e->live[k * h->e->var_count + v])
        sorts[n++] = h->e->p->vars.items[v].type == TY_BOOL ? Z3_mk_bool_sort(h->c) : Z3_mk_int_sort(h->c);
    char name[32];
    snprintf(name, sizeof name, "P%d", h->e->cuts.items[k]);
    h->preds[k] = Z3_mk_func_decl(h->c, Z3_mk_string_symbol(h->c, name), n, sorts, Z3_mk_bool_sort(h->c));
    Z3_inc_ref(h->c, Z3_func_decl_to_ast(h->c, h->preds[k]));
  }
  free(sorts);
}

static Z3_ast quantified(chc *h, const enc_terms *consts, Z3_ast body) {
  if (h->use_interp || consts->len == 0) return body;
  Z3_app *bound = xcalloc(consts->len, sizeof *bound);
  vec_foreach(consts, i) bound[i] = Z3_to_app(h->c, consts->items[i]);
  Z3_ast q = smt_keep(h->e->s, Z3_mk_forall_const(h->c, 0, (unsigned)consts->len, bound, 0, NULL, body));
  free(bound);
  return q;
}

/* Clause j (or the entry fact for j == clauses): body ==> head. */
static Z3_ast clause(chc *h, size_t j) {
  enc *e = h->e;
  const Z3_ast *x = enc_start(e);
  enc_terms consts = {0};
  for (size_t v = 0; v < e->var_count; v++) vec_push(NULL, &consts, x[v]);
  Z3_ast f;
  if (j == e->clauses.len) {
    f = predicate(h, e->cut_of[e->p->entry], x);
  } else {
    const enc_clause *c = &e->clauses.items[j];
    vec_foreach(&c->fresh, i) vec_push(NULL, &consts, c->fresh.items[i]);
    Z3_ast body[2] = {predicate(h, c->from, x), c->formula};
    Z3_ast head = c->to >= 0 ? predicate(h, c->to, c->y) : smt_bool(e->s, false);
    f = smt_implies(e->s, smt_and(e->s, 2, body), head);
  }
  f = quantified(h, &consts, f);
  vec_free(&consts);
  return f;
}

static void assert_clauses(chc *h, Z3_solver s) {
  for (size_t j = 0; j <= h->e->clauses.len; j++) Z3_solver_assert(h->c, s, clause(h, j));
}

/* ---------------------------------------------------------------- the invariant */

static bool read_interpretations(chc *h, Z3_model m) {
  h->interp = xcalloc(h->e->cuts.len + 1, sizeof *h->interp);
  vec_foreach(&h->e->cuts, k) {
    Z3_func_decl d = h->preds[k];
    if (Z3_get_arity(h->c, d) == 0) {
      Z3_ast v = Z3_model_get_const_interp(h->c, m, d);
      h->interp[k] = v ? smt_keep(h->e->s, v) : smt_bool(h->e->s, true);
      continue;
    }
    Z3_func_interp fi = Z3_model_get_func_interp(h->c, m, d);
    if (!fi) {
      if (Z3_model_has_interp(h->c, m, d)) return false;
      h->interp[k] = smt_bool(h->e->s, true);
      continue;
    }
    Z3_func_interp_inc_ref(h->c, fi);
    h->interp[k] = smt_keep(h->e->s, Z3_func_interp_get_else(h->c, fi));
    Z3_func_interp_dec_ref(h->c, fi);
    if (!h->interp[k]) return false;
  }
  return true;
}

/* Whether clauses start .. end - 1 are all valid under the invariants: one
 * query, the disjunction of their negations, unsat exactly when each
 * negation is. */
static bool all_valid(chc *h, Z3_solver sv, double deadline, size_t start, size_t end) {
  enc_terms negations = {0};
  for (size_t j = start; j < end; j++) vec_push(NULL, &negations, smt_not(h->e->s, clause(h, j)));
  bool ok = smt_unsat_in(h->e->s, sv, deadline, smt_or(h->e->s, (unsigned)negations.len, negations.items));
  vec_free(&negations);
  return ok;
}

/* Every clause valid under the invariants, by a plain solver: one query per
 * run of clauses from the same cut point (the paths from a cut share their
 * prefixes, which one query reads once: 3.3 s against 6.3 s for a query
 * per clause on bench/conform-scaling's 2,000 lines at 64 states), and one
 * for the entry fact (a scope of one solver each: the same answers, 0.04 s
 * against 0.55 s for a solver each on the battery's worker). */
static bool rechecked(chc *h, double deadline) {
  h->use_interp = true;
  bool ok = true;
  Z3_solver sv = smt_solver(h->e->s, deadline, false);
  size_t n = h->e->clauses.len;
  for (size_t start = 0, end = 0; start < n && ok; start = end) {
    while (end < n && h->e->clauses.items[end].from == h->e->clauses.items[start].from) end++;
    ok = all_valid(h, sv, deadline, start, end);
  }
  ok = ok && all_valid(h, sv, deadline, n, n + 1);
  Z3_solver_dec_ref(h->c, sv);
  h->use_interp = false;
  return ok;
}

/* Where a cut point is, for people: the next statement of the code. */
static void describe_cut(const chc *h, int k, strbuf *out) {
  const prog *p = h->e->p;
  int l = h->e->cuts.items[k];
  for (int guard = 0; guard < 10000 && p->locs.items[l].out.len > 0; guard++) {
    const prog_edge *ed = &p->edges.items[p->locs.items[l].out.items[0]];
    const char *file;
    size_t line;
    if (ed->role == ROLE_CODE && prog_origin_line(p, ed->origin, &file, &line)) {
      sbuf_printf(out, "before %s:%zu (", file, line);
      prog_origin_text(p, ed->origin, out);
      sbuf_puts(out, ")");
      return;
    }
    l = ed->to;
  }
  sbuf_puts(out, l == p->exit ? "at exit" : "at the start");
}

/* A variable's name in C's syntax: its source name (a local's own name
 * when another variable shows the same), "old(g)" for g before the step,
 * "F[S]" for "state S is a candidate". */
static char *shown(const prog *p, size_t v) {
  const prog_var *pv = &p->vars.items[v];
  strbuf b = {0};
  bool unique = true;
  vec_foreach(&p->vars, u) unique &= u == v || p->vars.items[u].display != pv->display;
  if (pv->kind == VAR_OLD) sbuf_printf(&b, "old(%s)", pv->display);
  else if (pv->kind == VAR_CAND) sbuf_printf(&b, "F[%s]", pv->display + 2);
  else sbuf_puts(&b, unique ? pv->display : pv->name);
  return sbuf_take(&b);
}

/* One cut point's invariant: in C's syntax, one conjunct a line after
 * "where:" (on its line when there is one), or as SMT-LIB when some part
 * has no C syntax. */
static void readable_cut(chc *h, Z3_ast inv, const smt_leaf *leaves, const char *where, strbuf *out) {
  smt_texts t = {0};
  if (!smt_print_conjuncts(h->e->s, inv, leaves, h->e->var_count, &t))
    sbuf_printf(out, "%s (SMT-LIB: part of it has no C syntax): %s\n", where, Z3_ast_to_string(h->c, inv));
  else if (t.len == 1) sbuf_printf(out, "%s: %s\n", where, t.items[0]);
  else {
    sbuf_printf(out, "%s:\n", where);
    vec_foreach(&t, i) sbuf_printf(out, "  %s\n", t.items[i]);
  }
  smt_texts_free(&t);
}

/* The invariant per cut point, as SMT-LIB (*smt_text) and in C's syntax (*c_text). */
static void certificate_text(chc *h, char **smt_text, char **c_text) {
  strbuf out = {0}, readable = {0}, where = {0};
  Z3_ast *x = xcalloc(h->e->var_count + 1, sizeof *x), *args = xcalloc(h->e->var_count + 1, sizeof *args);
  smt_leaf *leaves = xcalloc(h->e->var_count + 1, sizeof *leaves);
  for (size_t v = 0; v < h->e->var_count; v++) {
    x[v] = smt_var(h->e->s, h->e->p->vars.items[v].name, h->e->p->vars.items[v].type == TY_BOOL);
    leaves[v] = (smt_leaf){.term = x[v], .text = shown(h->e->p, v)};
  }
  vec_foreach(&h->e->cuts, k) {
    unsigned n = enc_live_args(h->e, (int)k, x, args);
    Z3_ast inv =
        smt_keep(h->e->s, Z3_simplify(h->c, smt_keep(h->e->s, Z3_substitute_vars(h->c, h->interp[k], n, args))));
    if (Z3_is_eq_ast(h->c, inv, smt_bool(h->e->s, true))) continue;
    sbuf_truncate(&where, 0);
    describe_cut(h, (int)k, &where);
    sbuf_printf(&out, "%s: %s\n", sbuf_str(&where), Z3_ast_to_string(h->c, inv));
    readable_cut(h, inv, leaves, sbuf_str(&where), &readable);
  }
  for (size_t v = 0; v < h->e->var_count; v++) free((char *)leaves[v].text);
  free(leaves);
  free(x);
  free(args);
  sbuf_free(&where);
  *smt_text = out.len ? sbuf_take(&out) : xstrdup("true (every cut point)\n");
  *c_text = readable.len ? sbuf_take(&readable) : xstrdup("true (every cut point)\n");
  sbuf_free(&out);
  sbuf_free(&readable);
}

/* ---------------------------------------------------------------- entry points */

static void release(chc *h) {
  vec_foreach(&h->e->cuts, k) Z3_dec_ref(h->c, Z3_func_decl_to_ast(h->c, h->preds[k]));
  free(h->preds);
  free(h->interp);
}

/* What smt_spacer's acceptance reads and writes. */
typedef struct chc_proof {
  chc *h;
  double deadline;
  char **certificate; /* NULL: not wanted */
  char **readable;    /* with certificate: the same in C's syntax */
} chc_proof;

static bool accept(void *ctx, Z3_model m) {
  chc_proof *p = ctx;
  if (!read_interpretations(p->h, m) || !rechecked(p->h, p->deadline)) return false;
  if (p->certificate) certificate_text(p->h, p->certificate, p->readable);
  return true;
}

/* Guessed invariants alone (guessed: owned, or NULL) as the invariant:
 * true when they pass the re-check. */
static bool lemmas_prove(chc *h, Z3_ast *guessed, chc_proof *p) {
  if (!guessed) return false;
  progress_phase(smt_progress(h->e->s), "re-checking the invariant guessed from templates");
  h->interp = guessed;
  if (rechecked(h, p->deadline)) {
    if (p->certificate) certificate_text(h, p->certificate, p->readable);
    return true;
  }
  free(h->interp);
  h->interp = NULL;
  return false;
}

/* The first search's guess, else the second's (lemmas.h), whose re-check
 * gives up past GUARDED_RLIMIT a query (then Spacer runs: its many guarded
 * conjuncts can make a query slow when they are no proof). */
static bool guess_proves(chc *h, lemmas *guess, chc_proof *p) {
  if (!guess) return false;
  if (lemmas_prove(h, lemmas_find(guess), p)) return true;
  progress_phase(smt_progress(h->e->s), "guessing an invariant from templates guarded by the states");
  Z3_ast *guarded = lemmas_find_guarded(guess);
  unsigned rlimit = smt_rlimit(h->e->s);
  smt_set_rlimit(h->e->s, rlimit && rlimit < GUARDED_RLIMIT ? rlimit : GUARDED_RLIMIT);
  bool proved = lemmas_prove(h, guarded, p);
  smt_set_rlimit(h->e->s, rlimit);
  return proved;
}

int chc_prove(enc *e, lemmas *guess, double deadline, char **certificate, char **readable, char *reason,
              size_t reason_size) {
  chc h = {.e = e, .c = smt_z3(e->s)};
  declare_predicates(&h);
  chc_proof p = {&h, deadline, certificate, readable};
  if (guess_proves(&h, guess, &p)) {
    release(&h);
    return 1;
  }
  Z3_solver s = smt_solver(e->s, deadline, true);
  assert_clauses(&h, s);
  int outcome = smt_spacer(e->s, s, deadline, accept, &p, reason, reason_size);
  Z3_solver_dec_ref(h.c, s);
  release(&h);
  return outcome;
}

char *chc_smt2(enc *e) {
  chc h = {.e = e, .c = smt_z3(e->s)};
  declare_predicates(&h);
  Z3_solver s = smt_solver(e->s, 0, true);
  assert_clauses(&h, s);
  strbuf out = {0};
  sbuf_puts(&out, "; C(T, T#) as constrained Horn clauses: sat means the thread conforms.\n(set-logic HORN)\n");
  sbuf_puts(&out, Z3_solver_to_string(h.c, s));
  sbuf_puts(&out, "(check-sat)\n");
  Z3_solver_dec_ref(h.c, s);
  release(&h);
  return sbuf_take(&out);
}
