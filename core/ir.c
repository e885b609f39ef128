/* core/ir.c -- construction and printing of IR expressions. */
#include "ir.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- construction */

static ir_expr *node(arena *a, ir_kind kind, loc at) {
  ir_expr *e = arena_alloc(a, sizeof *e);
  e->kind = kind;
  e->at = at;
  e->index = -1;
  e->state_index = -1;
  e->cell = IR_CELL_DYNAMIC;
  e->depth = 1;
  return e;
}

/* Nesting depth of a node over its operands (NULL ones ignored). */
static uint32_t depth_over(const ir_expr *a, const ir_expr *b, const ir_expr *c) {
  uint32_t d = 0;
  if (a && a->depth > d) d = a->depth;
  if (b && b->depth > d) d = b->depth;
  if (c && c->depth > d) d = c->depth;
  return d + 1;
}

ir_expr *ir_bool(arena *a, loc at, bool value) {
  ir_expr *e = node(a, IR_BOOL, at);
  e->value = value;
  return e;
}

ir_expr *ir_int(arena *a, loc at, const char *text) {
  ir_expr *e = node(a, IR_INT, at);
  e->text = text;
  errno = 0;
  unsigned long long v = strtoull(text, NULL, 0); /* decimal or 0x; no octal in the language */
  if (text[0] == '0' && text[1] != 'x' && text[1] != 'X') v = strtoull(text, NULL, 10);
  e->big = errno == ERANGE || v > (unsigned long long)INT64_MAX;
  e->value = e->big ? 0 : (int64_t)v;
  return e;
}

ir_expr *ir_int_magnitude(arena *a, loc at, uint64_t v) {
  char digits[24], *p = digits + sizeof digits;
  *--p = '\0';
  uint64_t rest = v;
  do *--p = (char)('0' + rest % 10);
  while (rest /= 10);
  ir_expr *e = node(a, IR_INT, at);
  e->text = arena_strndup(a, p, (size_t)(digits + sizeof digits - 1 - p));
  e->big = v > (uint64_t)INT64_MAX;
  e->value = e->big ? 0 : (int64_t)v;
  return e;
}

ir_expr *ir_name(arena *a, loc at, const char *name, bool primed) {
  ir_expr *e = node(a, IR_NAME, at);
  e->text = name;
  e->primed = primed;
  return e;
}

ir_expr *ir_tid(arena *a, loc at) { return node(a, IR_TID, at); }

ir_expr *ir_count(arena *a, loc at, const char *thread, loc thread_at, const char *state, loc state_at) {
  ir_expr *e = node(a, IR_COUNT, at);
  e->text = thread;
  e->name_at = thread_at;
  e->state_name = state;
  e->state_at = state_at;
  return e;
}

ir_expr *ir_at(arena *a, loc at, const char *thread, loc thread_at, ir_expr *index, const char *state, loc state_at) {
  ir_expr *e = ir_count(a, at, thread, thread_at, state, state_at);
  e->kind = IR_AT;
  e->a = index;
  e->depth = depth_over(index, NULL, NULL);
  return e;
}

ir_expr *ir_unary(arena *a, loc at, ir_op op, ir_expr *operand) {
  ir_expr *e = node(a, IR_UNARY, at);
  e->op = op;
  e->a = operand;
  e->depth = depth_over(operand, NULL, NULL);
  return e;
}

ir_expr *ir_binary(arena *a, loc at, ir_op op, ir_expr *l, ir_expr *r) {
  ir_expr *e = node(a, IR_BINARY, at);
  e->op = op;
  e->a = l;
  e->b = r;
  e->depth = depth_over(l, r, NULL);
  return e;
}

ir_expr *ir_ite(arena *a, loc at, ir_expr *cond, ir_expr *then, ir_expr *otherwise) {
  ir_expr *e = node(a, IR_ITE, at);
  e->a = cond;
  e->b = then;
  e->c = otherwise;
  e->depth = depth_over(cond, then, otherwise);
  return e;
}

ir_expr *ir_index(arena *a, loc at, const char *array, loc array_at, bool primed, ir_expr *index) {
  ir_expr *e = node(a, IR_INDEX, at);
  e->text = array;
  e->name_at = array_at;
  e->primed = primed;
  e->a = index;
  e->depth = depth_over(index, NULL, NULL);
  return e;
}

ir_expr *ir_quant(arena *a, loc at, ir_op op, const char *var, loc var_at, ir_expr *lo, ir_expr *hi, ir_expr *body) {
  ir_expr *e = node(a, IR_QUANT, at);
  e->op = op;
  e->text = var;
  e->name_at = var_at;
  e->a = lo;
  e->b = hi;
  e->c = body;
  e->depth = depth_over(lo, hi, body);
  return e;
}

/* ---------------------------------------------------------------- printing */

static const char *const op_texts[] = {
    [OP_NOT] = "!", [OP_NEG] = "-",  [OP_MUL] = "*", [OP_DIV] = "/",       [OP_MOD] = "%",    [OP_ADD] = "+",
    [OP_SUB] = "-", [OP_LT] = "<",   [OP_LE] = "<=", [OP_GT] = ">",        [OP_GE] = ">=",    [OP_EQ] = "==",
    [OP_NE] = "!=", [OP_AND] = "&&", [OP_OR] = "||", [OP_IMPLIES] = "==>", [OP_IFF] = "<==>",
    [OP_WRAP] = "", [OP_BITNOT] = "~", [OP_BITAND] = "&", [OP_BITOR] = "|", [OP_BITXOR] = "^",
    [OP_SHL] = "<<", [OP_SHR] = ">>",
};

/* Binding strength, low to high, as in the language reference section 5. */
enum {
  PREC_ITE = 1,
  PREC_IFF,
  PREC_IMPLIES,
  PREC_OR,
  PREC_AND,
  PREC_BITOR, /* C's operators as C binds them */
  PREC_BITXOR,
  PREC_BITAND,
  PREC_EQ,
  PREC_REL,
  PREC_SHIFT,
  PREC_ADD,
  PREC_MUL,
  PREC_UNARY,
  PREC_ATOM
};

static const int op_prec[] = {
    [OP_NOT] = PREC_UNARY,       [OP_NEG] = PREC_UNARY, [OP_MUL] = PREC_MUL, [OP_DIV] = PREC_MUL, [OP_MOD] = PREC_MUL,
    [OP_ADD] = PREC_ADD,         [OP_SUB] = PREC_ADD,   [OP_LT] = PREC_REL,  [OP_LE] = PREC_REL,  [OP_GT] = PREC_REL,
    [OP_GE] = PREC_REL,          [OP_EQ] = PREC_EQ,     [OP_NE] = PREC_EQ,   [OP_AND] = PREC_AND, [OP_OR] = PREC_OR,
    [OP_IMPLIES] = PREC_IMPLIES, [OP_IFF] = PREC_IFF,    [OP_WRAP] = PREC_UNARY, [OP_BITNOT] = PREC_UNARY,
    [OP_BITAND] = PREC_BITAND,   [OP_BITOR] = PREC_BITOR, [OP_BITXOR] = PREC_BITXOR, [OP_SHL] = PREC_SHIFT,
    [OP_SHR] = PREC_SHIFT,
};

const char *ir_op_text(ir_op op) { return op_texts[op]; }

static int prec_of(const ir_expr *e) {
  switch (e->kind) {
  case IR_ITE:
  case IR_QUANT: return PREC_ITE;
  case IR_UNARY:
  case IR_BINARY: return op_prec[e->op];
  default: return PREC_ATOM;
  }
}

static void print_prec(strbuf *out, const ir_expr *e, int min_prec);

static void print_binary(strbuf *out, const ir_expr *e) {
  int p = op_prec[e->op];
  bool right_assoc = e->op == OP_IMPLIES;
  print_prec(out, e->a, right_assoc ? p + 1 : p);
  sbuf_printf(out, " %s ", op_texts[e->op]);
  print_prec(out, e->b, right_assoc ? p : p + 1);
}

static void print_atom(strbuf *out, const ir_expr *e) {
  switch (e->kind) {
  case IR_BOOL: sbuf_puts(out, e->value ? "true" : "false"); break;
  case IR_INT: sbuf_puts(out, e->text); break;
  case IR_NAME: sbuf_printf(out, "%s%s", e->text, e->primed ? "'" : ""); break;
  case IR_TID: sbuf_puts(out, "tid"); break;
  case IR_COUNT: sbuf_printf(out, "count(%s@%s)", e->text, e->state_name); break;
  case IR_AT:
    sbuf_printf(out, "%s[", e->text);
    print_prec(out, e->a, PREC_ITE);
    sbuf_printf(out, "]@%s", e->state_name);
    break;
  case IR_INDEX:
    sbuf_printf(out, "%s%s[", e->text, e->primed ? "'" : "");
    print_prec(out, e->a, PREC_ITE);
    sbuf_putc(out, ']');
    break;
  default: break;
  }
}

/* forall i in lo..hi: body -- the body extends as far right as it can. */
static void print_quant(strbuf *out, const ir_expr *e) {
  sbuf_printf(out, "%s %s in ", e->op == OP_AND ? "forall" : "exists", e->text);
  print_prec(out, e->a, PREC_ITE + 1);
  sbuf_puts(out, "..");
  print_prec(out, e->b, PREC_ITE + 1);
  sbuf_puts(out, ": ");
  print_prec(out, e->c, PREC_ITE);
}

static void print_prec(strbuf *out, const ir_expr *e, int min_prec) {
  bool parens = prec_of(e) < min_prec;
  if (parens) sbuf_putc(out, '(');
  switch (e->kind) {
  case IR_UNARY: /* -(-x), not --x, which reads like a decrement */
    if (e->op == OP_WRAP) sbuf_printf(out, "(%s)", ir_ctype_name(e->ity));
    else sbuf_puts(out, op_texts[e->op]);
    print_prec(out, e->a, e->op == OP_NEG && e->a->kind == IR_UNARY && e->a->op == OP_NEG ? PREC_ATOM : PREC_UNARY);
    break;
  case IR_BINARY: print_binary(out, e); break;
  case IR_ITE:
    print_prec(out, e->a, PREC_ITE + 1);
    sbuf_puts(out, " ? ");
    print_prec(out, e->b, PREC_ITE);
    sbuf_puts(out, " : ");
    print_prec(out, e->c, PREC_ITE);
    break;
  case IR_QUANT: print_quant(out, e); break;
  default: print_atom(out, e); break;
  }
  if (parens) sbuf_putc(out, ')');
}

void ir_print(strbuf *out, const ir_expr *e) { print_prec(out, e, PREC_ITE); }

/* "(HEAD a b c)" over the operands that are present. */
static void dump_operands(strbuf *out, const char *head, const ir_expr *e) {
  const ir_expr *operands[] = {e->a, e->b, e->c};
  sbuf_printf(out, "(%s", head);
  for (int i = 0; i < 3 && operands[i]; i++) {
    sbuf_putc(out, ' ');
    ir_dump(out, operands[i]);
  }
  sbuf_putc(out, ')');
}

void ir_dump(strbuf *out, const ir_expr *e) {
  strbuf head = {0};
  switch (e->kind) {
  case IR_INT:
    if (e->big) sbuf_printf(out, "(int %s)", e->text);
    else sbuf_printf(out, "(int %" PRId64 ")", e->value);
    return;
  case IR_UNARY:
  case IR_BINARY:
  case IR_ITE:
    if (e->kind == IR_UNARY && e->op == OP_WRAP) sbuf_printf(&head, "(%s)", ir_ctype_name(e->ity));
    else sbuf_puts(&head, e->kind == IR_ITE ? "?:" : op_texts[e->op]);
    dump_operands(out, sbuf_str(&head), e);
    sbuf_free(&head);
    return;
  case IR_AT:
    sbuf_printf(out, "(at %s ", e->text);
    ir_dump(out, e->a);
    sbuf_printf(out, " %s)", e->state_name);
    return;
  case IR_INDEX:
  case IR_QUANT:
    if (e->kind == IR_INDEX) sbuf_printf(&head, "index %s%s", e->text, e->primed ? "'" : "");
    else sbuf_printf(&head, "%s %s", e->op == OP_AND ? "forall" : "exists", e->text);
    dump_operands(out, sbuf_str(&head), e);
    sbuf_free(&head);
    return;
  default: print_atom(out, e); return;
  }
}

void ir_flatten(const ir_expr *e, ir_op op, ir_expr_list *out) {
  if (e->kind == IR_BINARY && e->op == op) {
    ir_flatten(e->a, op, out);
    ir_flatten(e->b, op, out);
  } else {
    vec_push(NULL, out, e);
  }
}

void ir_walk(const ir_expr *e, void (*visit)(const ir_expr *, void *), void *ctx) {
  if (!e) return;
  visit(e, ctx);
  ir_walk(e->a, visit, ctx);
  ir_walk(e->b, visit, ctx);
  ir_walk(e->kind == IR_QUANT && e->lowered ? e->lowered : e->c, visit, ctx);
}

/* ---------------------------------------------------------------- C's integers */

int64_t ir_ctype_min(ir_ctype t) {
  if (t.is_unsigned || t.bits <= 1) return 0;
  return t.bits >= 64 ? INT64_MIN : -((int64_t)1 << (t.bits - 1));
}

int64_t ir_ctype_max(ir_ctype t) {
  if (t.bits <= 1) return t.bits;
  if (t.bits >= 64 || (t.bits == 63 && t.is_unsigned)) return INT64_MAX;
  return ((int64_t)1 << (t.is_unsigned ? t.bits : t.bits - 1)) - 1;
}

bool ir_ctype_holds(ir_ctype t, int64_t v) { return t.bits == 0 || (ir_ctype_min(t) <= v && v <= ir_ctype_max(t)); }

const char *ir_ctype_name(ir_ctype t) {
  switch (t.bits) {
  case 0: return "integer";
  case 1: return "_Bool";
  case 8: return t.is_unsigned ? "unsigned char" : "signed char";
  case 16: return t.is_unsigned ? "unsigned short" : "short";
  case 32: return t.is_unsigned ? "unsigned int" : "int";
  case 64: return t.is_unsigned ? "unsigned long" : "long";
  default: return t.is_unsigned ? "unsigned integer" : "signed integer";
  }
}

/* v modulo 2^64 as a value of t (two's complement, GCC's choice for signed
 * types); false when it does not fit in int64_t. */
static bool wrap_u64(ir_ctype t, uint64_t v, int64_t *out) {
  *out = 0;
  if (t.bits == 0 || t.bits >= 64) {
    if (t.is_unsigned && v > (uint64_t)INT64_MAX) return false;
    *out = (int64_t)v;
    return true;
  }
  uint64_t low = v & ((UINT64_C(1) << t.bits) - 1), sign = UINT64_C(1) << (t.bits - 1);
  *out = !t.is_unsigned && (low & sign) ? (int64_t)low - ((int64_t)1 << (t.bits - 1)) * 2 : (int64_t)low;
  return true;
}

static ir_fault shift(ir_op op, ir_ctype t, int64_t a, int64_t b, int64_t *out) {
  *out = 0;
  int width = t.bits ? t.bits : 64;
  if (b < 0 || b >= width) return IR_FAULT_SHIFT;
  if (op == OP_SHR) { /* floor(a / 2^b): arithmetic for negative a (GCC) */
    *out = a >= 0 ? a >> b : -(int64_t)((~(uint64_t)a) >> b) - 1;
    return IR_FAULT_NONE;
  }
  return wrap_u64(t, (uint64_t)a << b, out) ? IR_FAULT_NONE : IR_FAULT_OVERFLOW;
}

ir_fault ir_c_arith(ir_op op, ir_ctype t, int64_t a, int64_t b, int64_t *out) {
  uint64_t r;
  switch (op) {
  case OP_WRAP: r = (uint64_t)a; break;
  case OP_BITNOT: r = ~(uint64_t)a; break;
  case OP_BITAND: r = (uint64_t)a & (uint64_t)b; break;
  case OP_BITOR: r = (uint64_t)a | (uint64_t)b; break;
  case OP_BITXOR: r = (uint64_t)a ^ (uint64_t)b; break;
  case OP_SHL:
  case OP_SHR: return shift(op, t, a, b, out);
  default: return ir_arith(op, a, b, out);
  }
  return wrap_u64(t, r, out) ? IR_FAULT_NONE : IR_FAULT_OVERFLOW;
}
