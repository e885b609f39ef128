/* core/smt-print.c -- a Z3 formula in the spec language's expression syntax.
 *
 * Each node is written into its own buffer, which reports the precedence of
 * what it wrote, so that the parent adds parentheses only where the grammar
 * needs them. Rewrites keep the meaning exactly: a negated comparison flips
 * its operator, a sum with negative coefficients moves them to the other
 * side, and a comparison of a control state with a number becomes the set of
 * states it allows (exact because a control state is always one of its
 * thread's states). */
#include "smt-print.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "strbuf.h"

/* The spec's precedence levels, low to high (reference section 5). */
enum { P_ITE, P_OR, P_AND, P_EQ, P_REL, P_ADD, P_MUL, P_UNARY, P_PRIMARY };

typedef struct printer {
  Z3_context c;
  const smt_leaf *leaves; /* the constants' texts */
  size_t count;           /* entries in leaves */
  bool failed;            /* some part had no text */
} printer;

static int emit(printer *p, Z3_ast t, strbuf *out);

/* ---------------------------------------------------------------- helpers */

static Z3_decl_kind kind_of(const printer *p, Z3_ast t) {
  if (Z3_get_ast_kind(p->c, t) != Z3_APP_AST) return Z3_OP_UNINTERPRETED;
  return Z3_get_decl_kind(p->c, Z3_get_app_decl(p->c, Z3_to_app(p->c, t)));
}

static unsigned arity(const printer *p, Z3_ast t) { return Z3_get_app_num_args(p->c, Z3_to_app(p->c, t)); }

static Z3_ast arg(const printer *p, Z3_ast t, unsigned i) { return Z3_get_app_arg(p->c, Z3_to_app(p->c, t), i); }

static bool is_numeral(const printer *p, Z3_ast t) {
  return Z3_get_ast_kind(p->c, t) == Z3_NUMERAL_AST && Z3_get_sort_kind(p->c, Z3_get_sort(p->c, t)) == Z3_INT_SORT;
}

/* Appends the text of an integer literal, "-n" or "n" (Z3's own "(- n)"
 * too); false when t is none. */
static bool literal(const printer *p, Z3_ast t, strbuf *text) {
  if (is_numeral(p, t)) {
    sbuf_puts(text, Z3_get_numeral_string(p->c, t));
    return true;
  }
  if (Z3_get_ast_kind(p->c, t) != Z3_APP_AST ||
      Z3_get_decl_kind(p->c, Z3_get_app_decl(p->c, Z3_to_app(p->c, t))) != Z3_OP_UMINUS)
    return false;
  Z3_ast n = Z3_get_app_arg(p->c, Z3_to_app(p->c, t), 0);
  if (!is_numeral(p, n)) return false;
  const char *v = Z3_get_numeral_string(p->c, n);
  sbuf_puts(text, v[0] == '-' ? v + 1 : "-");
  if (v[0] != '-') sbuf_puts(text, v);
  return true;
}

/* The literal's text (owned, free()), or NULL. */
static char *literal_text(const printer *p, Z3_ast t) {
  strbuf b = {0};
  if (literal(p, t, &b)) return sbuf_take(&b);
  sbuf_free(&b);
  return NULL;
}

/* The literal's value, when it fits in 64 bits. */
static bool literal_value(const printer *p, Z3_ast t, int64_t *out) {
  char *text = literal_text(p, t), *end = NULL;
  errno = 0;
  if (text) *out = strtoll(text, &end, 10);
  bool ok = text && errno == 0 && *end == '\0';
  free(text);
  return ok;
}

static const smt_leaf *leaf_of(const printer *p, Z3_ast t) {
  if (Z3_get_ast_kind(p->c, t) != Z3_APP_AST || arity(p, t) != 0) return NULL;
  for (size_t i = 0; i < p->count; i++)
    if (Z3_is_eq_ast(p->c, p->leaves[i].term, t)) return &p->leaves[i];
  return NULL;
}

static int unsupported(printer *p) {
  p->failed = true;
  return P_PRIMARY;
}

/* Writes t, in parentheses when its precedence is below min. */
static void operand(printer *p, Z3_ast t, int min, strbuf *out) {
  strbuf b = {0};
  bool wrap = emit(p, t, &b) < min;
  sbuf_printf(out, wrap ? "(%s)" : "%s", sbuf_str(&b));
  sbuf_free(&b);
}

/* ---------------------------------------------------------------- control states */

/* "T[1]@A || T[1]@B" for the states whose flag is set (m of them). */
static int state_disjunction(const smt_leaf *l, const bool *in, size_t m, strbuf *out) {
  const char *sep = "";
  for (size_t k = 0; k < l->state_count; k++)
    if (in[k]) {
      sbuf_printf(out, "%s%s@%s", sep, l->text, l->states[k]);
      sep = " || ";
    }
  return m == 1 ? P_PRIMARY : P_OR;
}

static bool holds(Z3_decl_kind op, int64_t k, int64_t c) {
  switch (op) {
  case Z3_OP_LE: return k <= c;
  case Z3_OP_GE: return k >= c;
  case Z3_OP_LT: return k < c;
  case Z3_OP_GT: return k > c;
  case Z3_OP_EQ: return k == c;
  default: return k != c; /* Z3_OP_DISTINCT */
  }
}

/* "state op c" as the states it allows; more than half of them as the
 * negation of the others ("!T[1]@Critical"). */
static int state_set(const smt_leaf *l, Z3_decl_kind op, int64_t c, strbuf *out) {
  bool *in = xcalloc(l->state_count + 1, sizeof *in);
  size_t m = 0;
  for (size_t k = 0; k < l->state_count; k++) m += in[k] = holds(op, (int64_t)k, c);
  int prec = P_PRIMARY;
  if (m == 0 || m == l->state_count) sbuf_puts(out, m ? "true" : "false");
  else if (2 * m <= l->state_count) prec = state_disjunction(l, in, m, out);
  else {
    for (size_t k = 0; k < l->state_count; k++) in[k] = !in[k];
    sbuf_puts(out, l->state_count - m == 1 ? "!" : "!(");
    state_disjunction(l, in, l->state_count - m, out);
    if (l->state_count - m > 1) sbuf_putc(out, ')');
    prec = P_UNARY;
  }
  free(in);
  return prec;
}

/* A control state as a number: "(T[1]@A ? 0 : T[1]@B ? 1 : 2)". */
static int state_number(const smt_leaf *l, strbuf *out) {
  sbuf_putc(out, '(');
  for (size_t k = 0; k + 1 < l->state_count; k++) sbuf_printf(out, "%s@%s ? %zu : ", l->text, l->states[k], k);
  sbuf_printf(out, "%zu)", l->state_count ? l->state_count - 1 : 0);
  return P_PRIMARY;
}

static int leaf(printer *p, Z3_ast t, strbuf *out) {
  const smt_leaf *l = leaf_of(p, t);
  if (!l) return unsupported(p);
  if (l->states) return state_number(l, out);
  sbuf_puts(out, l->text);
  return P_PRIMARY;
}

/* ---------------------------------------------------------------- arithmetic */

static int numeral(printer *p, Z3_ast t, strbuf *out) {
  if (!is_numeral(p, t)) return unsupported(p);
  const char *text = Z3_get_numeral_string(p->c, t);
  sbuf_puts(out, text);
  return text[0] == '-' ? P_UNARY : P_PRIMARY;
}

/* True when t is -n or (* -n x): writes n, or x, or "n * x" into mag. */
static bool negative_term(printer *p, Z3_ast t, strbuf *mag) {
  char *n = literal_text(p, t);
  bool neg = n && n[0] == '-';
  if (neg) sbuf_puts(mag, n + 1);
  free(n);
  if (n || kind_of(p, t) != Z3_OP_MUL || arity(p, t) != 2) return neg;
  char *k = literal_text(p, arg(p, t, 0));
  neg = k && k[0] == '-';
  if (neg && strcmp(k, "-1") != 0) sbuf_printf(mag, "%s * ", k + 1);
  if (neg) operand(p, arg(p, t, 1), P_MUL + 1, mag);
  free(k);
  return neg;
}

/* The terms of a sum, each negative one subtracted ("x - y - 2 * z + 1"). */
static void terms(printer *p, const Z3_ast *ts, size_t n, strbuf *out) {
  for (size_t i = 0; i < n; i++) {
    strbuf mag = {0};
    if (negative_term(p, ts[i], &mag)) sbuf_printf(out, i ? " - %s" : "-%s", sbuf_str(&mag));
    else {
      if (i) sbuf_puts(out, " + ");
      operand(p, ts[i], P_ADD + 1, out);
    }
    sbuf_free(&mag);
  }
}

static int sum(printer *p, Z3_ast t, strbuf *out) {
  unsigned n = arity(p, t);
  Z3_ast *ts = xcalloc(n + 1, sizeof *ts);
  for (unsigned i = 0; i < n; i++) ts[i] = arg(p, t, i);
  terms(p, ts, n, out);
  free(ts);
  return P_ADD;
}

static int difference(printer *p, Z3_ast t, strbuf *out) {
  operand(p, arg(p, t, 0), P_ADD, out);
  for (unsigned i = 1; i < arity(p, t); i++) {
    sbuf_puts(out, " - ");
    operand(p, arg(p, t, i), P_ADD + 1, out);
  }
  return P_ADD;
}

static int product(printer *p, Z3_ast t, strbuf *out) {
  int64_t k = 0;
  if (arity(p, t) == 2 && literal_value(p, arg(p, t, 0), &k) && k == -1) {
    sbuf_putc(out, '-');
    operand(p, arg(p, t, 1), P_UNARY, out);
    return P_UNARY;
  }
  for (unsigned i = 0; i < arity(p, t); i++) {
    if (i) sbuf_puts(out, " * ");
    operand(p, arg(p, t, i), i ? P_MUL + 1 : P_MUL, out);
  }
  return P_MUL;
}

static int negative(printer *p, Z3_ast t, strbuf *out) {
  sbuf_putc(out, '-');
  operand(p, arg(p, t, 0), P_UNARY, out);
  return P_UNARY;
}

/* ---------------------------------------------------------------- comparisons */

static const char *op_text(Z3_decl_kind op) {
  switch (op) {
  case Z3_OP_LE: return "<=";
  case Z3_OP_GE: return ">=";
  case Z3_OP_LT: return "<";
  case Z3_OP_GT: return ">";
  case Z3_OP_EQ: return "==";
  default: return "!="; /* Z3_OP_DISTINCT */
  }
}

static Z3_decl_kind negated(Z3_decl_kind op) {
  switch (op) {
  case Z3_OP_LE: return Z3_OP_GT;
  case Z3_OP_GE: return Z3_OP_LT;
  case Z3_OP_LT: return Z3_OP_GE;
  case Z3_OP_GT: return Z3_OP_LE;
  case Z3_OP_EQ: return Z3_OP_DISTINCT;
  default: return Z3_OP_EQ;
  }
}

/* The operator with its operands swapped: a op b == b mirrored(op) a. */
static Z3_decl_kind mirrored(Z3_decl_kind op) {
  switch (op) {
  case Z3_OP_LE: return Z3_OP_GE;
  case Z3_OP_GE: return Z3_OP_LE;
  case Z3_OP_LT: return Z3_OP_GT;
  case Z3_OP_GT: return Z3_OP_LT;
  default: return op;
  }
}

static int comparison_prec(Z3_decl_kind op) { return op == Z3_OP_EQ || op == Z3_OP_DISTINCT ? P_EQ : P_REL; }

/* A sum compared with a number and with terms of both signs: the negative
 * ones move to the right ("x - y <= 0" as "x <= y"). False when it is not. */
static bool balanced(printer *p, Z3_ast lhs, Z3_decl_kind op, Z3_ast rhs, strbuf *out) {
  char *c = literal_text(p, rhs);
  if (kind_of(p, lhs) != Z3_OP_ADD || !c) return free(c), false;
  unsigned n = arity(p, lhs);
  Z3_ast *pos = xcalloc(n + 1, sizeof *pos), *neg = xcalloc(n + 2, sizeof *neg);
  size_t np = 0, nn = 0;
  for (unsigned i = 0; i < n; i++) {
    strbuf mag = {0};
    if (negative_term(p, arg(p, lhs, i), &mag)) neg[nn++] = arg(p, lhs, i);
    else pos[np++] = arg(p, lhs, i);
    sbuf_free(&mag);
  }
  bool ok = np && nn;
  if (ok) {
    terms(p, pos, np, out);
    sbuf_printf(out, " %s ", op_text(op));
    for (size_t i = 0; i < nn; i++) {
      strbuf mag = {0};
      negative_term(p, neg[i], &mag);
      sbuf_printf(out, "%s%s", i ? " + " : "", sbuf_str(&mag));
      sbuf_free(&mag);
    }
    if (strcmp(c, "0") != 0) sbuf_printf(out, c[0] == '-' ? " - %s" : " + %s", c[0] == '-' ? c + 1 : c);
  }
  free(c);
  free(pos);
  free(neg);
  return ok;
}

static int compared(printer *p, Z3_ast lhs, Z3_decl_kind op, Z3_ast rhs, strbuf *out) {
  int64_t c;
  const smt_leaf *l = leaf_of(p, lhs), *r = leaf_of(p, rhs);
  if (l && l->states && literal_value(p, rhs, &c)) return state_set(l, op, c, out);
  if (r && r->states && literal_value(p, lhs, &c)) return state_set(r, mirrored(op), c, out);
  if (balanced(p, lhs, op, rhs, out)) return comparison_prec(op);
  operand(p, lhs, P_ADD, out);
  sbuf_printf(out, " %s ", op_text(op));
  operand(p, rhs, P_ADD, out);
  return comparison_prec(op);
}

static bool is_comparison(const printer *p, Z3_ast t) {
  switch (kind_of(p, t)) {
  case Z3_OP_LE:
  case Z3_OP_GE:
  case Z3_OP_LT:
  case Z3_OP_GT:
  case Z3_OP_EQ:
  case Z3_OP_IFF: return arity(p, t) == 2;
  case Z3_OP_DISTINCT: return arity(p, t) == 2;
  default: return false;
  }
}

/* t (a comparison), negated when flip. */
static int comparison(printer *p, Z3_ast t, bool flip, strbuf *out) {
  Z3_decl_kind op = kind_of(p, t) == Z3_OP_IFF ? Z3_OP_EQ : kind_of(p, t);
  return compared(p, arg(p, t, 0), flip ? negated(op) : op, arg(p, t, 1), out);
}

/* ---------------------------------------------------------------- logic */

static int negation(printer *p, Z3_ast t, strbuf *out) {
  if (kind_of(p, t) == Z3_OP_NOT) return emit(p, arg(p, t, 0), out);
  if (is_comparison(p, t)) return comparison(p, t, true, out);
  sbuf_putc(out, '!');
  operand(p, t, P_UNARY, out);
  return P_UNARY;
}

static int joined(printer *p, Z3_ast t, const char *sep, int prec, strbuf *out) {
  unsigned n = arity(p, t);
  if (n == 0) sbuf_puts(out, prec == P_AND ? "true" : "false");
  for (unsigned i = 0; i < n; i++) {
    if (i) sbuf_puts(out, sep);
    operand(p, arg(p, t, i), prec, out);
  }
  return n == 0 ? P_PRIMARY : prec;
}

/* a ==> b as !a || b (C has no ==>). */
static int implication(printer *p, Z3_ast t, strbuf *out) {
  strbuf b = {0};
  if (negation(p, arg(p, t, 0), &b) < P_OR) sbuf_printf(out, "(%s)", sbuf_str(&b));
  else sbuf_puts(out, sbuf_str(&b));
  sbuf_free(&b);
  sbuf_puts(out, " || ");
  operand(p, arg(p, t, 1), P_OR, out);
  return P_OR;
}

static int conditional(printer *p, Z3_ast t, strbuf *out) {
  operand(p, arg(p, t, 0), P_ITE + 1, out);
  sbuf_puts(out, " ? ");
  operand(p, arg(p, t, 1), P_ITE + 1, out);
  sbuf_puts(out, " : ");
  operand(p, arg(p, t, 2), P_ITE, out);
  return P_ITE;
}

static int emit(printer *p, Z3_ast t, strbuf *out) {
  if (Z3_get_ast_kind(p->c, t) == Z3_NUMERAL_AST) return numeral(p, t, out);
  if (Z3_get_ast_kind(p->c, t) != Z3_APP_AST) return unsupported(p);
  if (is_comparison(p, t)) return comparison(p, t, false, out);
  switch (kind_of(p, t)) {
  case Z3_OP_TRUE: sbuf_puts(out, "true"); return P_PRIMARY;
  case Z3_OP_FALSE: sbuf_puts(out, "false"); return P_PRIMARY;
  case Z3_OP_AND: return joined(p, t, " && ", P_AND, out);
  case Z3_OP_OR: return joined(p, t, " || ", P_OR, out);
  case Z3_OP_NOT: return negation(p, arg(p, t, 0), out);
  case Z3_OP_IMPLIES: return implication(p, t, out);
  case Z3_OP_ITE: return conditional(p, t, out);
  case Z3_OP_ADD: return sum(p, t, out);
  case Z3_OP_SUB: return difference(p, t, out);
  case Z3_OP_UMINUS: return negative(p, t, out);
  case Z3_OP_MUL: return product(p, t, out);
  case Z3_OP_UNINTERPRETED: return leaf(p, t, out);
  default: return unsupported(p); /* div and mod round unlike C, and the rest has no spec syntax */
  }
}

/* ---------------------------------------------------------------- entry points */

static void conjuncts(printer *p, Z3_ast t, smt_texts *out) {
  if (kind_of(p, t) == Z3_OP_AND) {
    for (unsigned i = 0; i < arity(p, t); i++) conjuncts(p, arg(p, t, i), out);
    return;
  }
  strbuf b = {0};
  emit(p, t, &b);
  vec_push(NULL, out, sbuf_take(&b));
}

bool smt_print_conjuncts(smt *s, Z3_ast t, const smt_leaf *leaves, size_t count, smt_texts *out) {
  printer p = {smt_z3(s), leaves, count, false};
  smt_texts mine = {0};
  conjuncts(&p, t, &mine);
  if (mine.len == 0) vec_push(NULL, &mine, xstrdup("true"));
  if (p.failed) {
    smt_texts_free(&mine);
    return false;
  }
  vec_foreach(&mine, i) vec_push(NULL, out, mine.items[i]);
  vec_free(&mine);
  return true;
}

void smt_texts_free(smt_texts *t) {
  vec_foreach(t, i) free(t->items[i]);
  vec_free(t);
}

void smt_cert_free(smt_cert *c) {
  free(c->smt);
  smt_texts_free(&c->readable);
  c->smt = NULL;
}
