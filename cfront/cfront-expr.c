/* conformance/cfront-expr.c -- lowering C expressions to IR over program
 * variables: the int/bool conversions of C, C's integer types (the usual
 * arithmetic conversions, wrap-around, and the checks that no operation
 * overflows, divides by zero or shifts too far: CHECK_ARITH), nondet
 * temporaries, when an operand of && || ?: is evaluated (for the checks of
 * its indices and operations), and the errors for everything outside the
 * subset (reference section 7). Names, fields and elements are
 * cfront-access.c's. */
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

bool cfe_user_call(const cfe_expr *e) { return e->kind == CE_CALL && e->builtin == B_NONE; }

int cfe_new_local(cfe_lowering *L, const char *display, const cfe_type *type) {
  int v = prog_add_var(L->p, VAR_LOCAL, display, TY_INT);
  L->p->vars.items[v].ctype = cfe_ctype_of(L, type);
  if (type->kind == CT_BOOL) {
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

/* ---------------------------------------------------------------- C's integer types */

/* int: the type of constants, comparisons and promoted narrow operands. */
static const ir_ctype c_int = {32, false};

ir_ctype cfe_ctype_of(const cfe_lowering *L, const cfe_type *t) {
  if (L->ints == CFE_INTS_MATH) return (ir_ctype){0, false};
  if (t->kind == CT_BOOL) return (ir_ctype){1, true};
  return t->kind == CT_INT ? (ir_ctype){t->bits, t->is_unsigned} : (ir_ctype){0, false};
}

/* The integer promotions: what is narrower than int computes as int. */
static ir_ctype promote(ir_ctype t) { return t.bits && t.bits < 32 ? c_int : t; }

/* The usual arithmetic conversions (C11 6.3.1.8) of two operands' types;
 * mathematical when either is. */
static ir_ctype usual(ir_ctype a, ir_ctype b) {
  a = promote(a);
  b = promote(b);
  if (!a.bits || !b.bits) return (ir_ctype){0, false};
  if (a.is_unsigned == b.is_unsigned) return a.bits >= b.bits ? a : b;
  ir_ctype u = a.is_unsigned ? a : b, s = a.is_unsigned ? b : a;
  if (u.bits >= s.bits) return u;
  return s; /* the signed type is wider, so it holds every value of the unsigned one */
}

bool cfe_ctype_fits(ir_ctype from, ir_ctype to) {
  if (!to.bits || from.bits == 1) return true;
  if (!from.bits) return false;
  if (from.is_unsigned == to.is_unsigned) return from.bits <= to.bits;
  return from.is_unsigned && from.bits < to.bits;
}

/* The C type of a nondet builtin's result (__VERIFIER_nondet_uchar: unsigned char). */
static ir_ctype nondet_type(const char *name) {
  static const struct {
    const char *suffix;
    ir_ctype type;
  } table[] = {{"uint", {32, true}},   {"unsigned", {32, true}}, {"u32", {32, true}},       {"ulong", {64, true}},
               {"ulonglong", {64, true}}, {"size_t", {64, true}}, {"u64", {64, true}},     {"long", {64, false}},
               {"longlong", {64, false}}, {"s64", {64, false}},  {"int64", {64, false}},  {"loff_t", {64, false}},
               {"short", {16, false}},    {"s16", {16, false}},  {"int16", {16, false}},  {"ushort", {16, true}},
               {"u16", {16, true}},       {"char", {8, false}},  {"s8", {8, false}},      {"int8", {8, false}},
               {"uchar", {8, true}},      {"u8", {8, true}},     {"bool", {1, true}},     {"_Bool", {1, true}}};
  const char *prefix = "__VERIFIER_nondet_";
  if (strncmp(name, prefix, strlen(prefix)) != 0) return c_int;
  for (size_t i = 0; i < sizeof table / sizeof *table; i++)
    if (strcmp(name + strlen(prefix), table[i].suffix) == 0) return table[i].type;
  return c_int;
}

/* The type of the object a name, field or element denotes, or NULL. */
static const cfe_type *object_type(const cfe_lowering *L, const cfe_expr *e) {
  if (e->kind == CE_NAME) {
    const cfe_entity *x = cfe_local(L, e->name) < 0 ? cfe_lookup(L->u, e->name) : NULL;
    return x && x->kind == ENT_GLOBAL ? &L->u->globals.items[x->index]->type : NULL;
  }
  const cfe_type *t = e->kind == CE_INDEX || e->kind == CE_MEMBER ? object_type(L, e->a) : NULL;
  if (t && e->kind == CE_INDEX) return t->kind == CT_ARRAY ? t->elem : NULL;
  if (!t || t->kind != CT_STRUCT || !t->record) return NULL;
  vec_foreach(&t->record->fields, i)
    if (t->record->fields.items[i].name == e->name) return &t->record->fields.items[i].type;
  return NULL;
}

static ir_ctype name_type(const cfe_lowering *L, const cfe_expr *e) {
  int v = cfe_local(L, e->name);
  if (v >= 0) return L->p->vars.items[v].ctype;
  const cfe_type *t = object_type(L, e);
  return t ? cfe_ctype_of(L, t) : (ir_ctype){0, false};
}

static ir_ctype call_type(const cfe_lowering *L, const cfe_expr *e) {
  cfe_builtin b = e->builtin;
  if (b == B_NONDET || b == B_NONDET_BOOL) return nondet_type(e->name);
  const cfe_entity *x = cfe_lookup(L->u, e->name);
  return x && x->kind == ENT_FUNC ? cfe_ctype_of(L, &L->u->funcs.items[x->index]->decl->type) : (ir_ctype){0, false};
}

static ir_ctype binary_type(const cfe_lowering *L, const cfe_expr *e) {
  if (e->op == CO_SHL || e->op == CO_SHR) return promote(cfe_ctype(L, e->a));
  if (e->op <= CO_MOD || e->op == CO_BITAND || e->op == CO_BITOR || e->op == CO_XOR)
    return usual(cfe_ctype(L, e->a), cfe_ctype(L, e->b));
  return e->op == CO_COMMA ? cfe_ctype(L, e->b) : c_int;
}

/* The C type of an expression the lowering makes itself (the 1 of '++', a
 * temporary's name), which carries no ctype from clang: worked out from its
 * operands as clang would. */
static ir_ctype derived_type(const cfe_lowering *L, const cfe_expr *e) {
  switch (e->kind) {
  case CE_INT: return e->value >= INT32_MIN && e->value <= INT32_MAX ? c_int : (ir_ctype){64, false};
  case CE_NAME: return name_type(L, e);
  case CE_INDEX:
  case CE_MEMBER: {
    const cfe_type *t = object_type(L, e);
    return t ? cfe_ctype_of(L, t) : (ir_ctype){0, false};
  }
  case CE_UNARY: return e->op == CO_NOT ? c_int : promote(cfe_ctype(L, e->a));
  case CE_BINARY: return binary_type(L, e);
  case CE_COND: {
    ir_ctype b = cfe_ctype(L, e->b), c = cfe_ctype(L, e->c);
    return b.bits == 1 && c.bits == 1 ? b : usual(b, c);
  }
  case CE_CAST: return cfe_ctype_of(L, &e->type);
  case CE_CALL: return call_type(L, e);
  default: return (ir_ctype){0, false};
  }
}

ir_ctype cfe_ctype(const cfe_lowering *L, const cfe_expr *e) {
  if (L->ints == CFE_INTS_MATH) return (ir_ctype){0, false};
  if ((e->ctype.kind == CT_INT && e->ctype.bits) || e->ctype.kind == CT_BOOL) return cfe_ctype_of(L, &e->ctype);
  return derived_type(L, e);
}

/* ---------------------------------------------------------------- IR helpers */

static ir_expr *typed(ir_expr *e, ir_type t) {
  e->type = t;
  return e;
}

ir_expr *cfe_int_lit(cfe_lowering *L, loc at, int64_t v) {
  if (v >= 0) return typed(ir_int_magnitude(PA, at, (uint64_t)v), TY_INT);
  ir_expr *magnitude = typed(ir_int_magnitude(PA, at, -(uint64_t)v), TY_INT); /* 2^63 for INT64_MIN */
  return typed(ir_unary(PA, at, OP_NEG, magnitude), TY_INT);
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

/* A literal's value (IR_INT, or - IR_INT), when e is one. */
static bool literal(const ir_expr *e, int64_t *v) {
  if (e->kind == IR_INT && !e->big) return *v = e->value, true;
  if (e->kind == IR_UNARY && e->op == OP_NEG && e->a->kind == IR_INT && !e->a->big) return *v = -e->a->value, true;
  return false;
}

/* v (an int of type from) converted to type to: the same value when it
 * fits, else modulo 2^bits into to's range (GCC's choice for a signed type). */
static ir_expr *convert(cfe_lowering *L, ir_expr *v, ir_ctype from, ir_ctype to) {
  int64_t k, w;
  if (to.bits <= 1 || cfe_ctype_fits(from, to)) return v;
  if (literal(v, &k) && ir_c_arith(OP_WRAP, to, k, 0, &w) == IR_FAULT_NONE) return cfe_int_lit(L, v->at, w);
  ir_expr *x = typed(ir_unary(PA, v->at, OP_WRAP, v), TY_INT);
  x->ity = to;
  return x;
}

ir_expr *cfe_store_value(cfe_lowering *L, int v, ir_expr *value, ir_ctype from) {
  if (L->p->vars.items[v].type == TY_BOOL) return to_bool(L, value);
  if (!cfe_is_bool_local(L, v)) return convert(L, to_int(L, value), from, L->p->vars.items[v].ctype);
  ir_expr *c = to_bool(L, value);
  if (c->kind == IR_BOOL) return cfe_int_lit(L, c->at, c->value);
  return typed(ir_ite(PA, c->at, c, cfe_int_lit(L, c->at, 1), cfe_int_lit(L, c->at, 0)), TY_INT);
}

/* ---------------------------------------------------------------- checks of operations */

/* The statement checks, where the operation at is evaluated, that holds:
 * else the operation has no defined result (fault). */
static void check_operation(cfe_lowering *L, prog_fault fault, cfe_pos at, ir_ctype t, ir_expr *holds,
                            const ir_expr *amount) {
  if (holds->kind == IR_BOOL && holds->value) return;
  prog_operation o = {.fault = fault, .origin = cfe_origin(L, at), .type = t, .shift = amount};
  vec_push(PA, &L->p->operations, o);
  if (L->guard) holds = typed(ir_binary(PA, holds->at, OP_IMPLIES, L->guard, holds), TY_BOOL);
  cfe_check c = {holds, CHECK_ARITH, (int)L->p->operations.len - 1};
  vec_push(NULL, &L->pending.checks, c);
}

static ir_expr *bin(cfe_lowering *L, loc at, ir_op op, ir_expr *a, ir_expr *b) {
  return typed(ir_binary(PA, at, op, a, b), op >= OP_LT && op <= OP_IFF ? TY_BOOL : TY_INT);
}

/* min(t) <= r <= max(t), folded for literals. */
static ir_expr *within(cfe_lowering *L, ir_ctype t, ir_expr *r) {
  int64_t k;
  if (literal(r, &k)) return typed(ir_bool(PA, r->at, ir_ctype_holds(t, k)), TY_BOOL);
  return bin(L, r->at, OP_AND, bin(L, r->at, OP_LE, cfe_int_lit(L, r->at, ir_ctype_min(t)), r),
             bin(L, r->at, OP_LE, r, cfe_int_lit(L, r->at, ir_ctype_max(t))));
}

/* r = a op b exactly: in t wrapped (unsigned), or checked not to overflow (signed). */
static ir_expr *in_type(cfe_lowering *L, cfe_pos at, ir_ctype t, ir_expr *r) {
  if (!t.bits) return r;
  if (t.is_unsigned) return convert(L, r, (ir_ctype){0, false}, t);
  check_operation(L, FAULT_OVERFLOW, at, t, within(L, t, r), NULL);
  return r;
}

/* / and %: the divisor is not 0, and INT_MIN / -1 does not overflow. */
static void check_division(cfe_lowering *L, cfe_pos at, ir_ctype t, ir_expr *a, ir_expr *b) {
  int64_t k = 0;
  bool constant = literal(b, &k);
  if (!constant) check_operation(L, FAULT_DIVISION, at, t, bin(L, b->at, OP_NE, b, cfe_int_lit(L, b->at, 0)), NULL);
  if (t.is_unsigned || (constant && k != -1)) return;
  ir_expr *min = bin(L, at.at, OP_EQ, a, cfe_int_lit(L, at.at, ir_ctype_min(t)));
  ir_expr *minus_one = bin(L, at.at, OP_EQ, b, cfe_int_lit(L, at.at, -1));
  check_operation(L, FAULT_OVERFLOW, at, t, cfe_not(L, bin(L, at.at, OP_AND, min, minus_one)), NULL);
}

/* A C operator node of type t. */
static ir_expr *typed_op(cfe_lowering *L, loc at, ir_op op, ir_ctype t, ir_expr *a, ir_expr *b) {
  ir_expr *x = typed(b ? ir_binary(PA, at, op, a, b) : ir_unary(PA, at, op, a), TY_INT);
  x->ity = t;
  return x;
}

/* a << b and a >> b (a of type t, b of type tb): the amount lies within
 * [0, bits), and a signed a << b is a nonnegative a (checked apart, for
 * its own message) whose product fits. */
static ir_expr *shift(cfe_lowering *L, cfe_pos at, cfe_op op, ir_ctype t, ir_expr *a, ir_expr *b) {
  int64_t k = 0;
  bool constant = literal(b, &k);
  ir_expr *in = bin(L, at.at, OP_AND, bin(L, at.at, OP_LE, cfe_int_lit(L, at.at, 0), b),
                    bin(L, at.at, OP_LT, b, cfe_int_lit(L, at.at, t.bits)));
  if (!constant || k < 0 || k >= t.bits) check_operation(L, FAULT_SHIFT, at, t, in, b);
  ir_expr *r = typed_op(L, at.at, op == CO_SHL ? OP_SHL : OP_SHR, t, a, b);
  if (op == CO_SHR || t.is_unsigned) return r;
  ir_ctype u = {t.bits, true};
  ir_expr *fits = constant && k >= 0 && k < t.bits ? bin(L, at.at, OP_LE, a, cfe_int_lit(L, at.at, ir_ctype_max(t) >> k))
                                                   : bin(L, at.at, OP_AND,
                                                         bin(L, at.at, OP_EQ, typed_op(L, at.at, OP_SHR, u, typed_op(L, at.at, OP_SHL, u, a, b), b), a),
                                                         bin(L, at.at, OP_LE, typed_op(L, at.at, OP_SHL, u, a, b), cfe_int_lit(L, at.at, ir_ctype_max(t))));
  ir_expr *nonnegative = bin(L, at.at, OP_LE, cfe_int_lit(L, at.at, 0), a);
  check_operation(L, FAULT_NEGATIVE_SHIFT, at, t, nonnegative, NULL);
  check_operation(L, FAULT_OVERFLOW, at, t, bin(L, at.at, OP_OR, cfe_not(L, nonnegative), fits), NULL);
  return r;
}

/* ---------------------------------------------------------------- operators */

bool cfe_constant(const cfe_lowering *L, const cfe_expr *e) {
  switch (e->kind) {
  case CE_INT: return true; /* an enum constant too: the translator folds it (translate-expr.c, enum_value) */
  case CE_UNARY:
  case CE_CAST: return cfe_constant(L, e->a);
  case CE_BINARY: return cfe_constant(L, e->a) && cfe_constant(L, e->b);
  case CE_COND: return cfe_constant(L, e->a) && cfe_constant(L, e->b) && cfe_constant(L, e->c);
  default: return false;
  }
}


static const char *const c_op_text[] = {
    [CO_BITAND] = "&", [CO_BITOR] = "|", [CO_XOR] = "^", [CO_SHL] = "<<", [CO_SHR] = ">>", [CO_BITNOT] = "~",
};

/* A bitwise operator needs its operands' widths: under --int math, or on a
 * type the front end does not know, it is refused. */
static ir_expr *no_width(cfe_lowering *L, cfe_pos at, cfe_op op, bool compound) {
  const char *hint = L->ints == CFE_INTS_MATH ? " with --int math (bitwise operators need C's integers: --int c)" : "";
  if (compound) cfe_error(L->u, at, "unsupported compound assignment '%s='%s", c_op_text[op], hint);
  else
    cfe_error(L->u, at, "unsupported %s operator '%s'%s", op == CO_SHL || op == CO_SHR ? "shift" : "bitwise",
              c_op_text[op], hint);
  return placeholder(L, at);
}

/* The operand b of a / or % in type t: under mathematical integers a
 * nonzero constant (a divisor the code computes would make the formulas
 * nonlinear for no C semantics); in C's, any value, checked to be nonzero
 * where it is not a constant. */
static ir_expr *divisor(cfe_lowering *L, const cfe_expr *e, ir_ctype t) {
  int64_t d = 0;
  bool constant = cfe_constant(L, e);
  if (!constant && t.bits) return cfe_lower_int(L, e);
  if (!constant) {
    cfe_error(L->u, e->at, "unsupported: division by a non-constant (the divisor must be a nonzero integer constant)");
    return NULL;
  }
  if (!cfe_const_eval(L->u, e, &d)) return NULL;
  if (d != 0) return cfe_lower_int(L, e);
  cfe_error(L->u, e->at, "division by zero");
  return NULL;
}

static const ir_op arith_ops[] = {[CO_ADD] = OP_ADD,       [CO_SUB] = OP_SUB,     [CO_MUL] = OP_MUL,
                                  [CO_DIV] = OP_DIV,       [CO_MOD] = OP_MOD,     [CO_BITAND] = OP_BITAND,
                                  [CO_BITOR] = OP_BITOR,   [CO_XOR] = OP_BITXOR,  [CO_SHL] = OP_SHL,
                                  [CO_SHR] = OP_SHR};

/* a op b, a already lowered (of type ta), b the operand rhs, in the type C
 * computes it in (*type): + - * and / % checked or wrapped, & | ^ << >>. */
static ir_expr *arith(cfe_lowering *L, cfe_pos at, cfe_op op, ir_expr *a, ir_ctype ta, const cfe_expr *rhs,
                      bool compound, ir_ctype *type) {
  ir_ctype tb = cfe_ctype(L, rhs);
  bool shifts = op == CO_SHL || op == CO_SHR, divides = op == CO_DIV || op == CO_MOD;
  ir_ctype t = *type = shifts ? promote(ta) : usual(ta, tb);
  if (op > CO_MOD && !t.bits) {
    cfe_lower_value(L, rhs);
    return no_width(L, at, op, compound);
  }
  ir_expr *b = divides ? divisor(L, rhs, t) : cfe_lower_int(L, rhs);
  if (!b) return placeholder(L, at);
  a = convert(L, to_int(L, a), ta, t);
  b = convert(L, b, tb, shifts ? promote(tb) : t);
  if (shifts) return shift(L, at, op, t, a, b);
  if (op > CO_MOD) return typed_op(L, at.at, arith_ops[op], t, a, b);
  if (divides && t.bits) check_division(L, at, t, a, b);
  ir_expr *r = bin(L, at.at, arith_ops[op], a, b);
  return divides ? r : in_type(L, at, t, r);
}

ir_expr *cfe_lower_compound(cfe_lowering *L, cfe_op op, ir_expr *lhs, ir_ctype ta, const cfe_expr *rhs, cfe_pos at,
                            ir_ctype *type) {
  return arith(L, at, op, lhs, ta, rhs, true, type);
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

/* A comparison, after the usual arithmetic conversions (-1 < 0u is false). */
static ir_expr *comparison(cfe_lowering *L, const cfe_expr *e) {
  static const ir_op rel[] = {
      [CO_LT] = OP_LT, [CO_LE] = OP_LE, [CO_GT] = OP_GT, [CO_GE] = OP_GE, [CO_EQ] = OP_EQ, [CO_NE] = OP_NE};
  ir_ctype ta = cfe_ctype(L, e->a), tb = cfe_ctype(L, e->b), t = usual(ta, tb);
  ir_expr *a = convert(L, cfe_lower_int(L, e->a), ta, t), *b = convert(L, cfe_lower_int(L, e->b), tb, t);
  return typed(ir_binary(PA, e->at.at, rel[e->op], a, b), TY_BOOL);
}

static ir_expr *binary(cfe_lowering *L, const cfe_expr *e) {
  ir_ctype type;
  if (cfe_pointer_misuse(L, e)) return placeholder(L, e->at);
  if (e->op == CO_AND || e->op == CO_OR) return logical(L, e);
  if (e->op == CO_COMMA) return comma(L, e);
  if (e->op >= CO_LT && e->op <= CO_NE) return comparison(L, e);
  return arith(L, e->at, e->op, cfe_lower_value(L, e->a), cfe_ctype(L, e->a), e->b, false, &type);
}


/* -a, +a, ~a: in a's promoted type; -INT_MIN overflows. */
static ir_expr *sign(cfe_lowering *L, const cfe_expr *e) {
  ir_ctype ta = cfe_ctype(L, e->a), t = promote(ta);
  if (e->op == CO_BITNOT && !t.bits) {
    cfe_lower_value(L, e->a);
    return no_width(L, e->at, e->op, false);
  }
  ir_expr *a = convert(L, cfe_lower_int(L, e->a), ta, t);
  if (e->op == CO_PLUS) return a;
  if (e->op == CO_BITNOT) return typed_op(L, e->at.at, OP_BITNOT, t, a, NULL);
  return in_type(L, e->at, t, typed(ir_unary(PA, e->at.at, OP_NEG, a), TY_INT));
}

static ir_expr *unary(cfe_lowering *L, const cfe_expr *e) {
  if (e->op == CO_NOT) return cfe_not(L, cfe_lower_bool(L, e->a));
  if (e->op == CO_NEG || e->op == CO_PLUS || e->op == CO_BITNOT) return sign(L, e);
  if (e->op == CO_ADDR) return cfe_lower_pointer(L, e, NULL);
  return cfe_lower_object(L, e); /* *p: the translator makes no other unary operator */
}

static ir_expr *conditional(cfe_lowering *L, const cfe_expr *e) {
  ir_expr *c = cfe_lower_bool(L, e->a);
  ir_expr *a = where(L, c, e->b, cfe_lower_value), *b = where(L, cfe_not(L, c), e->c, cfe_lower_value);
  if (a->type != TY_BOOL || b->type != TY_BOOL) {
    ir_ctype t = cfe_ctype(L, e);
    a = convert(L, to_int(L, a), cfe_ctype(L, e->b), t);
    b = convert(L, to_int(L, b), cfe_ctype(L, e->c), t);
  }
  return typed(ir_ite(PA, e->at.at, c, a, b), a->type);
}

static ir_expr *cast(cfe_lowering *L, const cfe_expr *e) {
  if (cfe_pointer_misuse(L, e)) return placeholder(L, e->at);
  if (e->type.kind == CT_POINTER) return cfe_lower_pointer(L, e, NULL);
  if (e->type.kind == CT_INT) return convert(L, cfe_lower_int(L, e->a), cfe_ctype(L, e->a), cfe_ctype_of(L, &e->type));
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
  cfe_builtin b = e->builtin;
  if ((b == B_NONDET || b == B_NONDET_BOOL) && e->args.len > 0) {
    cfe_error(L->u, e->at, "'%s' takes no arguments", e->name);
  } else if (b == B_NONDET || b == B_NONDET_BOOL) {
    cfe_type type = {.kind = b == B_NONDET_BOOL ? CT_BOOL : CT_INT};
    ir_ctype c = nondet_type(e->name);
    type.bits = c.bits;
    type.is_unsigned = c.is_unsigned;
    int t = cfe_new_local(L, "nondet", &type);
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
