/* conformance/cfront-sequence.c -- side effects inside expressions, in C's
 * sequencing. An assignment, '++'/'--', a call of the code's functions or a
 * comma operator over them, nested in an expression, is run first, in evaluation order
 * (operands before their operator, left to right), its value kept in a fresh
 * temporary that takes its place; what is left is an expression without side
 * effects, which the rest of the lowering handles as before. The right
 * operand of && || and the branches of ?: run only when C evaluates them
 * (as an if statement over the temporary). Two side effects on one object,
 * or a side effect and a read of it, that C leaves unsequenced are an error:
 * the program's behaviour is undefined. */
#include <stdlib.h>
#include <string.h>

#include "c-ast.h"

#define UA(L) ((L)->u->arena)

/* ---------------------------------------------------------------- what an expression does */

bool cfe_has_effects(const cfe_expr *e) {
  if (!e) return false;
  if (e->kind == CE_ASSIGN || e->kind == CE_INCDEC || cfe_user_call(e)) return true;
  vec_foreach(&e->args, i) if (cfe_has_effects(e->args.items[i])) return true;
  return cfe_has_effects(e->a) || cfe_has_effects(e->b) || cfe_has_effects(e->c);
}

/* The variable an object expression is a part of (x for x, x.f, x[i]), or NULL. */
static const char *root(const cfe_expr *e) {
  while (e->kind == CE_MEMBER || e->kind == CE_INDEX) e = e->a;
  return e->kind == CE_NAME ? e->name : NULL;
}

/* Object expressions with a root variable (x, x.f, x[i]). */
typedef VEC(const cfe_expr *) objects;

/* The objects e's side effects modify (writes) and the objects it names
 * (reads); calls' effects are indeterminately sequenced in C, not
 * unsequenced, so they add nothing. The indices along an object's path are
 * read. */
static void effects(const cfe_expr *e, objects *writes, objects *reads) {
  if (!e) return;
  if ((e->kind == CE_ASSIGN || e->kind == CE_INCDEC) && root(e->a)) vec_push(NULL, writes, e->a);
  if (root(e)) {
    vec_push(NULL, reads, e);
    for (const cfe_expr *p = e; p->kind != CE_NAME; p = p->a)
      if (p->kind == CE_INDEX) effects(p->b, writes, reads);
    return;
  }
  vec_foreach(&e->args, i) effects(e->args.items[i], writes, reads);
  effects(e->a, writes, reads);
  effects(e->b, writes, reads);
  effects(e->c, writes, reads);
}

static size_t steps(const cfe_expr *e) {
  size_t n = 0;
  for (; e->kind == CE_MEMBER || e->kind == CE_INDEX; e = e->a) n++;
  return n;
}

/* Do steps x and y (at the same depth) go to different parts: members of a
 * struct (a union's share their storage), or elements at different constant
 * indices? */
static bool apart(const cfe_unit *u, const cfe_expr *x, const cfe_expr *y) {
  int64_t i = 0, j = 0;
  if (x->kind == CE_MEMBER && y->kind == CE_MEMBER) {
    const cfe_type *t = &x->a->ctype;
    return x->name != y->name && !(t->kind == CT_STRUCT && t->record && t->record->is_union);
  }
  return x->kind == CE_INDEX && y->kind == CE_INDEX && cfe_const_value(u, x->b, &i) && cfe_const_value(u, y->b, &j) &&
         i != j;
}

/* May objects x and y share storage? Of one variable, the longer path cut
 * to the shorter (a part of an object overlaps it), and no step apart. */
static bool overlap(const cfe_unit *u, const cfe_expr *x, const cfe_expr *y) {
  if (root(x) != root(y)) return false;
  size_t nx = steps(x), ny = steps(y);
  for (; nx > ny; nx--) x = x->a;
  for (; ny > nx; ny--) y = y->a;
  for (; x->kind != CE_NAME; x = x->a, y = y->a)
    if (apart(u, x, y)) return false;
  return true;
}

static bool shares(const cfe_unit *u, const objects *a, const objects *b, const char **which) {
  vec_foreach(a, i) vec_foreach(b, j) if (overlap(u, a->items[i], b->items[j])) return *which = root(a->items[i]), true;
  return false;
}

/* Do x's side effects meet what y names (or y's meet x)? which gets the object's variable. */
static bool unsequenced_pair(const cfe_unit *u, const cfe_expr *x, const cfe_expr *y, const char **which) {
  objects wx = {0}, rx = {0}, wy = {0}, ry = {0};
  effects(x, &wx, &rx);
  effects(y, &wy, &ry);
  bool clash = shares(u, &wx, &ry, which) || shares(u, &wy, &rx, which);
  vec_free(&wx);
  vec_free(&rx);
  vec_free(&wy);
  vec_free(&ry);
  return clash;
}

/* The operands of e that C evaluates without a sequence point between them. */
static bool sequenced_operator(const cfe_expr *e) {
  return e->kind == CE_COND || (e->kind == CE_BINARY && (e->op == CO_AND || e->op == CO_OR || e->op == CO_COMMA));
}

/* Reports the first unsequenced conflict in e; true when there is one. An
 * assignment's store is unsequenced with its operands' side effects, so its
 * operands are checked as a pair like those of +. */
static bool unsequenced(cfe_lowering *L, const cfe_expr *e) {
  if (!e || !cfe_has_effects(e)) return false;
  const char *which = NULL;
  bool clash = e->a && e->b && !sequenced_operator(e) && unsequenced_pair(L->u, e->a, e->b, &which);
  for (size_t i = 0; !clash && i < e->args.len; i++)
    for (size_t j = i + 1; !clash && j < e->args.len; j++)
      clash = unsequenced_pair(L->u, e->args.items[i], e->args.items[j], &which);
  if (clash) {
    cfe_error(L->u, e->at, "unsequenced side effects on '%s': C leaves their order undefined", which);
    return true;
  }
  vec_foreach(&e->args, i) if (unsequenced(L, e->args.items[i])) return true;
  return unsequenced(L, e->a) || unsequenced(L, e->b) || unsequenced(L, e->c);
}

/* ---------------------------------------------------------------- building syntax */

static cfe_expr *node(cfe_lowering *L, const cfe_expr *like) {
  cfe_expr *e = arena_alloc(UA(L), sizeof *e);
  *e = *like;
  return e;
}

/* A fresh local holding a value of e's type, bound to a name no C code can spell. */
static cfe_expr *temporary(cfe_lowering *L, const cfe_expr *e, const char *display) {
  static const cfe_type unknown = {.kind = CT_INT}; /* mathematical: an expression the lowering made */
  bool known = e->ctype.kind == CT_INT || e->ctype.kind == CT_BOOL || e->ctype.kind == CT_POINTER;
  int v = cfe_new_local(L, display, known ? &e->ctype : &unknown);
  if (e->ctype.kind == CT_POINTER) cfe_pointer_local(L, v, e->ctype.elem, false, e->at);
  const char *name = arena_printf(UA(L), "$%d", v);
  cfe_bind(L, name, v);
  cfe_expr *t = node(L, &(cfe_expr){.kind = CE_NAME, .at = e->at, .name = name, .depth = 1, .ctype = e->ctype});
  return t;
}

static cfe_expr *assign_expr(cfe_lowering *L, cfe_expr *target, cfe_expr *value, cfe_pos at) {
  return node(L, &(cfe_expr){.kind = CE_ASSIGN, .op = CO_ASSIGN, .at = at, .a = target, .b = value,
                             .depth = target->depth > value->depth ? target->depth + 1 : value->depth + 1});
}

static cfe_stmt *expr_stmt(cfe_lowering *L, cfe_expr *e) {
  cfe_stmt *s = arena_alloc(UA(L), sizeof *s);
  *s = (cfe_stmt){.kind = CS_EXPR, .at = e->at, .expr = e};
  return s;
}

/* ---------------------------------------------------------------- running side effects first */

typedef struct sequencer {
  cfe_lowering *L;
  int cur; /* where the next statement starts */
} sequencer;

static cfe_expr *pure(sequencer *q, const cfe_expr *e);

/* Lowers "target = value" (both already free of side effects) now. */
static void run(sequencer *q, cfe_expr *target, cfe_expr *value, cfe_pos at) {
  q->cur = cfe_lower_stmt(q->L, expr_stmt(q->L, assign_expr(q->L, target, value, at)), q->cur);
}

/* x = v, x op= v, ++x, x++: the new (or, for x++, the old) value in a temporary, then the store.
 * A struct copy is run as it is; its value, which no temporary holds, is
 * refused where it is used. */
static cfe_expr *store(sequencer *q, const cfe_expr *e) {
  cfe_expr *target = pure(q, e->a);
  cfe_expr *value;
  if (e->kind == CE_ASSIGN && e->a->ctype.kind == CT_STRUCT) {
    run(q, target, pure(q, e->b), e->at);
    return node(q->L, &(cfe_expr){.kind = CE_BAD, .at = e->at, .depth = 1, .ctype = e->ctype,
                                  .what = "unsupported: the value of a struct assignment (copy in a statement of its "
                                          "own, then use the struct)"});
  }
  if (e->kind == CE_ASSIGN && e->op == CO_ASSIGN) {
    value = pure(q, e->b);
  } else {
    cfe_expr *rhs = e->kind == CE_ASSIGN ? pure(q, e->b) : node(q->L, &(cfe_expr){.kind = CE_INT, .at = e->at, .value = 1, .depth = 1});
    cfe_op op = e->kind == CE_ASSIGN ? e->op : e->delta > 0 ? CO_ADD : CO_SUB;
    value = node(q->L, &(cfe_expr){.kind = CE_BINARY, .op = op, .at = e->at, .a = target, .b = rhs, .depth = 2, .ctype = e->ctype});
  }
  cfe_expr *t = temporary(q->L, e->a, "tmp");
  if (e->kind == CE_INCDEC && e->post) {
    run(q, t, target, e->at);
    cfe_expr *step = node(q->L, value);
    step->a = t;
    run(q, target, step, e->at);
  } else {
    run(q, t, value, e->at);
    run(q, target, t, e->at);
  }
  return t;
}

/* f(args): the arguments first, then the call into a temporary. */
static cfe_expr *call(sequencer *q, const cfe_expr *e) {
  cfe_expr *c = node(q->L, e);
  memset(&c->args, 0, sizeof c->args);
  vec_foreach(&e->args, i) vec_push(UA(q->L), &c->args, pure(q, e->args.items[i]));
  cfe_expr *t = temporary(q->L, e, arena_printf(UA(q->L), "%s_result", e->name));
  run(q, t, c, e->at);
  return t;
}

/* a && b, a || b, a ? b : c whose later operands have side effects: an if
 * statement over a temporary, so that they run only when C runs them. */
static cfe_expr *conditional(sequencer *q, const cfe_expr *e) {
  cfe_lowering *L = q->L;
  cfe_expr *cond = pure(q, e->a);
  cfe_expr *t = temporary(L, e, "tmp");
  cfe_expr *yes, *no;
  if (e->kind == CE_COND) {
    yes = e->b;
    no = e->c;
  } else {
    cfe_expr *truth = node(L, &(cfe_expr){.kind = CE_INT, .at = e->at, .value = e->op == CO_OR, .depth = 1});
    cfe_expr *b = node(L, &(cfe_expr){.kind = CE_UNARY, .op = CO_NOT, .at = e->b->at, .a = e->b, .depth = e->b->depth + 1});
    cfe_expr *bool_b = node(L, &(cfe_expr){.kind = CE_UNARY, .op = CO_NOT, .at = e->b->at, .a = b, .depth = b->depth + 1});
    yes = e->op == CO_AND ? bool_b : truth;
    no = e->op == CO_AND ? truth : bool_b;
  }
  cfe_stmt *s = arena_alloc(UA(q->L), sizeof *s);
  *s = (cfe_stmt){.kind = CS_IF, .at = e->at, .expr = cond, .body = expr_stmt(L, assign_expr(L, t, yes, yes->at)),
                  .els = expr_stmt(L, assign_expr(L, t, no, no->at))};
  q->cur = cfe_lower_stmt(L, s, q->cur);
  return t;
}

/* e with every side effect run first and replaced by its value. */
static cfe_expr *pure(sequencer *q, const cfe_expr *e) {
  if (!e || !cfe_has_effects(e)) return (cfe_expr *)e;
  if (e->kind == CE_ASSIGN || e->kind == CE_INCDEC) return store(q, e);
  if (cfe_user_call(e)) return call(q, e);
  if (e->kind == CE_BINARY && e->op == CO_COMMA) {
    q->cur = cfe_lower_stmt(q->L, expr_stmt(q->L, (cfe_expr *)e->a), q->cur);
    return pure(q, e->b);
  }
  if (sequenced_operator(e) && (cfe_has_effects(e->b) || cfe_has_effects(e->c))) return conditional(q, e);
  cfe_expr *c = node(q->L, e);
  c->a = pure(q, e->a);
  c->b = pure(q, e->b);
  c->c = pure(q, e->c);
  if (e->args.len) {
    memset(&c->args, 0, sizeof c->args);
    vec_foreach(&e->args, i) vec_push(UA(q->L), &c->args, pure(q, e->args.items[i]));
  }
  return c;
}

/* The operands of a top-level assignment, '++'/'--' or call (which the
 * lowering runs as they are), or for CFE_SEQ_VALUE the whole expression. */
static const cfe_expr *top(sequencer *q, const cfe_expr *e, cfe_seq_mode mode) {
  bool whole = mode == CFE_SEQ_VALUE || (mode == CFE_SEQ_INIT && !cfe_user_call(e)) ||
               (e->kind != CE_ASSIGN && e->kind != CE_INCDEC && e->kind != CE_CALL);
  if (whole) return pure(q, e);
  cfe_expr *c = node(q->L, e);
  c->a = pure(q, e->a);
  c->b = e->kind == CE_ASSIGN && cfe_user_call(e->b) ? (cfe_expr *)top(q, e->b, CFE_SEQ_STATEMENT) : pure(q, e->b);
  if (e->kind == CE_CALL) {
    memset(&c->args, 0, sizeof c->args);
    vec_foreach(&e->args, i) vec_push(UA(q->L), &c->args, pure(q, e->args.items[i]));
  }
  return c;
}

/* Does e have side effects that top() would run first? */
static bool below_top(const cfe_expr *e, cfe_seq_mode mode) {
  if (!e) return false;
  if (mode == CFE_SEQ_VALUE || (mode == CFE_SEQ_INIT && !cfe_user_call(e))) return cfe_has_effects(e);
  if (e->kind != CE_ASSIGN && e->kind != CE_INCDEC && e->kind != CE_CALL) return cfe_has_effects(e);
  vec_foreach(&e->args, i) if (cfe_has_effects(e->args.items[i])) return true;
  if (e->kind == CE_ASSIGN && cfe_user_call(e->b)) return cfe_has_effects(e->a) || below_top(e->b, CFE_SEQ_STATEMENT);
  return cfe_has_effects(e->a) || cfe_has_effects(e->b);
}

int cfe_sequence(cfe_lowering *L, const cfe_expr *e, cfe_seq_mode mode, int cur, const cfe_expr **out) {
  *out = e;
  if (!below_top(e, mode)) return cur;
  unsequenced(L, e); /* reported; the rest is lowered all the same, for its own errors */
  sequencer q = {L, cur};
  *out = top(&q, e, mode);
  return q.cur;
}
