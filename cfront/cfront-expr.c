/* conformance/cfront-expr.c -- lowering C expressions to IR over program
 * variables: the int/bool conversions of C, constant divisors, nondet
 * temporaries, when an operand of && || ?: is evaluated (for the bounds
 * checks of its indices), and the errors for everything outside the subset
 * (reference section 7). Names, fields and elements are cfront-access.c's. */
#include <inttypes.h>
#include <string.h>

#include "c-ast.h"

#define PA (L->p->arena)

/* ---------------------------------------------------------------- builtins and variables */

cfe_builtin cfe_builtin_of(const char *name) {
  static const struct {
    const char *name;
    cfe_builtin kind;
  } table[] = {
      {"assert", B_ASSERT},
      {"assume", B_ASSUME},
      {"__VERIFIER_assume", B_ASSUME},
      {"await", B_ASSUME},
      {"nondet", B_NONDET},
      {"__VERIFIER_atomic_begin", B_ATOMIC_BEGIN},
      {"__VERIFIER_atomic_end", B_ATOMIC_END},
      {"reach_error", B_ERROR},
      {"__VERIFIER_error", B_ERROR},
      {"__assert_fail", B_ERROR},
      {"__assert_perror_fail", B_ERROR},
      {"__assert_rtn", B_ERROR},
      {"abort", B_STOP},
      {"exit", B_STOP},
      {"_exit", B_STOP},
      {"_Exit", B_STOP},
      {"__builtin_trap", B_STOP},
      {"__builtin_unreachable", B_ERROR}, /* reaching it is undefined behaviour */
      {"pthread_exit", B_THREAD_EXIT},
      {"__athread_state", B_STATE},
      {"__athread_set_state", B_SET_STATE},
  };
  static const char *const scalars[] = {"int",   "uint",     "long",     "ulong",     "short",  "ushort", "char",
                                        "uchar", "unsigned", "longlong", "ulonglong", "size_t", "u8",     "u16",
                                        "u32",   "u64",      "s8",       "s16",       "s32",    "s64",    "int8",
                                        "int16", "int32",    "int64",    "loff_t"};
  for (size_t i = 0; i < sizeof table / sizeof *table; i++)
    if (strcmp(name, table[i].name) == 0) return table[i].kind;
  const char *prefix = "__VERIFIER_nondet_";
  if (strncmp(name, prefix, strlen(prefix)) != 0) return B_NONE;
  const char *suffix = name + strlen(prefix);
  if (strcmp(suffix, "bool") == 0 || strcmp(suffix, "_Bool") == 0) return B_NONDET_BOOL;
  for (size_t i = 0; i < sizeof scalars / sizeof *scalars; i++)
    if (strcmp(suffix, scalars[i]) == 0) return B_NONDET;
  return B_NONDET_BAD;
}

int cfe_new_local(cfe_lowering *L, const char *display, bool boolean) {
  int v = prog_add_var(L->p, VAR_LOCAL, display, TY_INT);
  if (boolean) {
    L->p->vars.items[v].bounded = true;
    L->p->vars.items[v].lo = 0;
    L->p->vars.items[v].hi = 1;
  }
  return v;
}

bool cfe_is_bool_local(const cfe_lowering *L, int v) {
  const prog_var *x = &L->p->vars.items[v];
  return x->kind == VAR_LOCAL && x->bounded && x->lo == 0 && x->hi == 1;
}

/* ---------------------------------------------------------------- IR helpers */

static ir_expr *typed(ir_expr *e, ir_type t) {
  e->type = t;
  return e;
}

ir_expr *cfe_int_lit(cfe_lowering *L, loc at, int64_t v) {
  if (v >= 0) return typed(ir_int(PA, at, arena_printf(PA, "%" PRId64, v)), TY_INT);
  const char *text = v == INT64_MIN ? "9223372036854775808" : arena_printf(PA, "%" PRId64, -v);
  return typed(ir_unary(PA, at, OP_NEG, typed(ir_int(PA, at, text), TY_INT)), TY_INT);
}

/* The placeholder returned after an error. */
static ir_expr *placeholder(cfe_lowering *L, cfe_pos at) { return cfe_int_lit(L, at.at, 0); }

static ir_expr *to_int(cfe_lowering *L, ir_expr *e) {
  if (e->type != TY_BOOL) return e;
  if (e->kind == IR_BOOL) return cfe_int_lit(L, e->at, e->value);
  return typed(ir_ite(PA, e->at, e, cfe_int_lit(L, e->at, 1), cfe_int_lit(L, e->at, 0)), TY_INT);
}

static ir_expr *to_bool(cfe_lowering *L, ir_expr *e) {
  if (e->type == TY_BOOL) return e;
  if (e->kind == IR_INT) return typed(ir_bool(PA, e->at, e->value != 0 || e->big), TY_BOOL);
  return typed(ir_binary(PA, e->at, OP_NE, e, cfe_int_lit(L, e->at, 0)), TY_BOOL);
}

ir_expr *cfe_not(cfe_lowering *L, ir_expr *c) {
  if (c->kind == IR_BOOL) return typed(ir_bool(PA, c->at, !c->value), TY_BOOL);
  return typed(ir_unary(PA, c->at, OP_NOT, c), TY_BOOL);
}

ir_expr *cfe_store_value(cfe_lowering *L, int v, ir_expr *value) {
  if (L->p->vars.items[v].type == TY_BOOL) return to_bool(L, value);
  if (!cfe_is_bool_local(L, v)) return to_int(L, value);
  ir_expr *c = to_bool(L, value);
  if (c->kind == IR_BOOL) return cfe_int_lit(L, c->at, c->value);
  return typed(ir_ite(PA, c->at, c, cfe_int_lit(L, c->at, 1), cfe_int_lit(L, c->at, 0)), TY_INT);
}

/* ---------------------------------------------------------------- operators */

bool cfe_constant(const cfe_lowering *L, const cfe_expr *e) {
  switch (e->kind) {
  case CE_INT: return true;
  case CE_NAME: {
    const cfe_entity *x = cfe_lookup(L->u, e->name);
    return cfe_local(L, e->name) < 0 && x && x->kind == ENT_ENUM;
  }
  case CE_UNARY:
  case CE_CAST: return cfe_constant(L, e->a);
  case CE_BINARY: return cfe_constant(L, e->a) && cfe_constant(L, e->b);
  case CE_COND: return cfe_constant(L, e->a) && cfe_constant(L, e->b) && cfe_constant(L, e->c);
  default: return false;
  }
}

/* The divisor of / or %: a nonzero integer constant. */
static ir_expr *divisor(cfe_lowering *L, const cfe_expr *e) {
  int64_t d = 0;
  if (!cfe_constant(L, e)) {
    cfe_error(L->u, e->at, "unsupported: division by a non-constant (the divisor must be a nonzero integer constant)");
    return NULL;
  }
  if (!cfe_const_eval(L->u, e, &d)) return NULL;
  if (d != 0) return cfe_int_lit(L, e->at.at, d);
  cfe_error(L->u, e->at, "division by zero");
  return NULL;
}

static const char *const c_op_text[] = {
    [CO_BITAND] = "&", [CO_BITOR] = "|", [CO_XOR] = "^", [CO_SHL] = "<<", [CO_SHR] = ">>", [CO_BITNOT] = "~",
};

static ir_expr *arith(cfe_lowering *L, cfe_pos at, cfe_op op, ir_expr *a, const cfe_expr *rhs) {
  static const ir_op ops[] = {
      [CO_ADD] = OP_ADD, [CO_SUB] = OP_SUB, [CO_MUL] = OP_MUL, [CO_DIV] = OP_DIV, [CO_MOD] = OP_MOD};
  ir_expr *b = op == CO_DIV || op == CO_MOD ? divisor(L, rhs) : cfe_lower_int(L, rhs);
  if (!b) return placeholder(L, at);
  return typed(ir_binary(PA, at.at, ops[op], to_int(L, a), b), TY_INT);
}

ir_expr *cfe_lower_compound(cfe_lowering *L, cfe_op op, ir_expr *lhs, const cfe_expr *rhs, cfe_pos at) {
  if (op <= CO_MOD) return arith(L, at, op, lhs, rhs);
  cfe_lower_value(L, rhs);
  cfe_error(L->u, at, "unsupported compound assignment '%s='", c_op_text[op]);
  return placeholder(L, at);
}

/* e lowered by lower as an operand evaluated only where c holds: its indices are checked only there. */
static ir_expr *where(cfe_lowering *L, ir_expr *c, const cfe_expr *e,
                      ir_expr *(*lower)(cfe_lowering *, const cfe_expr *)) {
  ir_expr *outer = L->guard;
  L->guard = outer ? typed(ir_binary(PA, c->at, OP_AND, outer, c), TY_BOOL) : c;
  ir_expr *v = lower(L, e);
  L->guard = outer;
  return v;
}

/* a && b, a || b: b is evaluated only where a is true (false). */
static ir_expr *logical(cfe_lowering *L, const cfe_expr *e) {
  ir_expr *a = cfe_lower_bool(L, e->a);
  ir_expr *b = where(L, e->op == CO_AND ? a : cfe_not(L, a), e->b, cfe_lower_bool);
  return typed(ir_binary(PA, e->at.at, e->op == CO_AND ? OP_AND : OP_OR, a, b), TY_BOOL);
}

/* "a, b": a is evaluated for its effects (nondet temporaries, bounds checks; a
 * side effect inside it is reported as anywhere in an expression), then b. */
static ir_expr *comma(cfe_lowering *L, const cfe_expr *e) {
  cfe_lower_value(L, e->a);
  return cfe_lower_value(L, e->b);
}

static ir_expr *binary(cfe_lowering *L, const cfe_expr *e) {
  static const ir_op rel[] = {
      [CO_LT] = OP_LT, [CO_LE] = OP_LE, [CO_GT] = OP_GT, [CO_GE] = OP_GE, [CO_EQ] = OP_EQ, [CO_NE] = OP_NE};
  if (cfe_pointer_misuse(L, e)) return placeholder(L, e->at);
  if (e->op <= CO_MOD) return arith(L, e->at, e->op, cfe_lower_value(L, e->a), e->b);
  if (e->op == CO_AND || e->op == CO_OR) return logical(L, e);
  if (e->op == CO_COMMA) return comma(L, e);
  if (e->op <= CO_NE)
    return typed(ir_binary(PA, e->at.at, rel[e->op], cfe_lower_int(L, e->a), cfe_lower_int(L, e->b)), TY_BOOL);
  cfe_lower_value(L, e->a);
  cfe_lower_value(L, e->b);
  cfe_error(L->u, e->at, "unsupported %s operator '%s'", e->op == CO_SHL || e->op == CO_SHR ? "shift" : "bitwise",
            c_op_text[e->op]);
  return placeholder(L, e->at);
}

static ir_expr *unary(cfe_lowering *L, const cfe_expr *e) {
  if (e->op == CO_NOT) return cfe_not(L, cfe_lower_bool(L, e->a));
  if (e->op == CO_NEG) return typed(ir_unary(PA, e->at.at, OP_NEG, cfe_lower_int(L, e->a)), TY_INT);
  if (e->op == CO_PLUS) return cfe_lower_int(L, e->a);
  if (e->op == CO_ADDR) return cfe_lower_pointer(L, e, NULL);
  if (e->op == CO_DEREF) return cfe_lower_object(L, e);
  cfe_error(L->u, e->at, "unsupported bitwise operator '~'");
  return placeholder(L, e->at);
}

static ir_expr *conditional(cfe_lowering *L, const cfe_expr *e) {
  ir_expr *c = cfe_lower_bool(L, e->a);
  ir_expr *a = where(L, c, e->b, cfe_lower_value), *b = where(L, cfe_not(L, c), e->c, cfe_lower_value);
  if (a->type != TY_BOOL || b->type != TY_BOOL) {
    a = to_int(L, a);
    b = to_int(L, b);
  }
  return typed(ir_ite(PA, e->at.at, c, a, b), a->type);
}

static ir_expr *cast(cfe_lowering *L, const cfe_expr *e) {
  if (cfe_pointer_misuse(L, e)) return placeholder(L, e->at);
  if (e->type.kind == CT_POINTER) return cfe_lower_pointer(L, e, NULL);
  if (e->type.kind == CT_INT) return cfe_lower_int(L, e->a);
  if (e->type.kind == CT_BOOL) return cfe_lower_bool(L, e->a);
  cfe_lower_value(L, e->a);
  if (e->implicit && e->type.kind == CT_BAD) return placeholder(L, e->at); /* its float source or target is reported */
  if (e->type.kind == CT_VOID) cfe_error(L->u, e->at, "unsupported cast to void inside an expression");
  else if (e->type.kind != CT_BAD) cfe_error(L->u, e->at, "unsupported cast to a struct or array type");
  else cfe_error(L->u, e->type.at, "%s", e->type.what);
  return placeholder(L, e->at);
}

/* A builtin's call inside an expression: only the nondet builtins have a value there. */
static ir_expr *call_value(cfe_lowering *L, const cfe_expr *e) {
  cfe_builtin b = cfe_builtin_of(e->name);
  if ((b == B_NONDET || b == B_NONDET_BOOL) && e->args.len > 0) {
    cfe_error(L->u, e->at, "'%s' takes no arguments", e->name);
  } else if (b == B_NONDET || b == B_NONDET_BOOL) {
    int t = cfe_new_local(L, "nondet", b == B_NONDET_BOOL);
    vec_push(NULL, &L->pending.temps, t);
    return prog_var_ref(L->p, t, e->at.at);
  } else if (b == B_STATE) {
    cfe_expr deref;
    if (cfe_state_object(L, e, 1, &deref)) return cfe_lower_object(L, &deref);
  } else if (b == B_NONDET_BAD) {
    cfe_error(L->u, e->name_at, "unsupported: '%s' is not a nondeterministic integer", e->name);
  } else if (b != B_NONE) {
    cfe_error(L->u, e->at, "'%s' can only be used as a statement of its own", e->name);
  } /* a call of the code's functions has been run first (cfront-sequence.c) */
  return placeholder(L, e->at);
}

static ir_expr *value(cfe_lowering *L, const cfe_expr *e) {
  switch (e->kind) {
  case CE_INT:
    if (e->big) cfe_error(L->u, e->at, "integer constant too large (the limit is 2^63 - 1)");
    return cfe_int_lit(L, e->at.at, e->value);
  case CE_NAME:
  case CE_INDEX:
  case CE_MEMBER: return cfe_lower_object(L, e);
  case CE_UNARY: return unary(L, e);
  case CE_BINARY: return binary(L, e);
  case CE_COND: return conditional(L, e);
  case CE_CAST: return cast(L, e);
  case CE_CALL: return call_value(L, e);
  case CE_ASSIGN:
  case CE_INCDEC: return placeholder(L, e->at); /* run first (cfront-sequence.c) */
  case CE_STAR:
    cfe_error(L->u, e->at, "'*' is a nondeterministic choice only as a whole condition: if (*), while (*)");
    return placeholder(L, e->at);
  case CE_BAD: cfe_error(L->u, e->at, "%s", e->what); return placeholder(L, e->at);
  }
  return placeholder(L, e->at);
}

/* Expressions deeper than the IR limit are refused before any recursion. */
static bool too_deep(cfe_lowering *L, const cfe_expr *e) {
  if (e->depth <= IR_MAX_DEPTH) return false;
  cfe_error(L->u, e->at, "this expression is nested %u levels deep; the limit is %d", e->depth, IR_MAX_DEPTH);
  return true;
}

/* The int/bool conversions add nodes: the result is checked too (and
 * replaced, so that only the innermost offender is reported). */
static ir_expr *within_limit(cfe_lowering *L, const cfe_expr *e, ir_expr *r) {
  if (r->depth <= IR_MAX_DEPTH) return r;
  cfe_error(L->u, e->at, "this expression is nested %u levels deep once converted; the limit is %d", r->depth,
            IR_MAX_DEPTH);
  return r->type == TY_BOOL ? to_bool(L, placeholder(L, e->at)) : placeholder(L, e->at);
}

ir_expr *cfe_lower_value(cfe_lowering *L, const cfe_expr *e) {
  return too_deep(L, e) ? placeholder(L, e->at) : within_limit(L, e, value(L, e));
}

ir_expr *cfe_lower_int(cfe_lowering *L, const cfe_expr *e) {
  return too_deep(L, e) ? placeholder(L, e->at) : within_limit(L, e, to_int(L, value(L, e)));
}

ir_expr *cfe_lower_bool(cfe_lowering *L, const cfe_expr *e) {
  return too_deep(L, e) ? to_bool(L, placeholder(L, e->at)) : within_limit(L, e, to_bool(L, value(L, e)));
}
