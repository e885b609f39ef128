/* compose/expr-print.h -- printing IR expressions in an exported model's
 * language (athread murphi, athread promela): one printer, driven by a
 * syntax table (operator spellings, how ?: reads, where parentheses go) and
 * callbacks for what only the target knows (tid, count(T@S), T[i]@S, the
 * name of a step's temporary).
 *
 * The printer borrows the spec and the step's binds and appends to the
 * exporter's strbuf; the names it prints (the exporter's) live in the
 * exporter's arena.
 */
#ifndef ATHREAD_EXPR_PRINT_H
#define ATHREAD_EXPR_PRINT_H

#include <stdbool.h>
#include <stdint.h>

#include "../core/arena.h"
#include "../core/ir.h"
#include "../core/strbuf.h"
#include "../spec-lang/ast.h"
#include "step-plan.h"

typedef struct xp_printer xp_printer;

/* How one target language writes expressions. */
typedef struct xp_syntax {
  const char *(*op_text)(ir_op op); /* a unary or binary operator's spelling */
  bool implies_negates_left;        /* a -> b is written !a OP b, OP being op_text(OP_IMPLIES) */
  const char *ite[4];               /* c ? a : b is ite[0] c ite[1] a ite[2] b ite[3] */
  bool inline_computed;             /* a primed cell with a computed value is written as that value */
  bool (*atom)(const xp_printer *x, const ir_expr *e); /* e needs no parentheses as an operand */
  /* an operand of a binary operator needs parentheses (NULL: unless it is an atom) */
  bool (*operand_parens)(const xp_printer *x, const ir_expr *parent, const ir_expr *child, bool right);
  void (*count)(xp_printer *x, const ir_expr *e);                      /* count(T@S) */
  void (*in_state)(xp_printer *x, int thread, int64_t tid, int state); /* T[i]@S, for the instance's tid */
  const char *(*temp)(xp_printer *x, int cell);                        /* a primed cell's temporary */
} xp_syntax;

/* Where and how expressions are printed; the exporter fills it in. */
struct xp_printer {
  const xp_syntax *syntax; /* the target's */
  strbuf *out;             /* where the text goes */
  const ast_spec *spec;    /* borrowed */
  const char **konst;      /* per const: its name, or NULL to write its value */
  const char **var;        /* per cell: its variable, or its element (a[2]) */
  const char **array;      /* per cell: its array, or NULL */
  const char *tid;         /* what tid reads as */
  const bind *binds;       /* how primes read in the expression being printed, or NULL */
  void *ctx;               /* the exporter's, for the callbacks */
};

/* A printer for spec in syntax, appending to out, with tid reading as
 * "tid": its konst, var and array (per const, per cell) are allocated in a,
 * all NULL, for the exporter to fill. */
xp_printer xp_new(const xp_syntax *syntax, strbuf *out, const ast_spec *spec, arena *a, void *ctx);
/* Appends e. */
void xp_expr(xp_printer *x, const ir_expr *e);
/* Appends e, in parentheses unless it is an atom. */
void xp_tight(xp_printer *x, const ir_expr *e);

#endif
