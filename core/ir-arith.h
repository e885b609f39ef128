/* core/ir-arith.h -- athread's integer operators and the one definition of
 * their arithmetic (ir_arith). Self-contained (the C standard headers only):
 * the build also embeds this file's text in the C that compose/model-compiled.c
 * writes for a model, so a compiled model computes with this same code. */
#ifndef ATHREAD_IR_ARITH_H
#define ATHREAD_IR_ARITH_H

#include <stdbool.h>
#include <stdint.h>

typedef enum ir_op {
  OP_NOT,
  OP_NEG,
  OP_MUL,
  OP_DIV,
  OP_MOD,
  OP_ADD,
  OP_SUB,
  OP_LT,
  OP_LE,
  OP_GT,
  OP_GE,
  OP_EQ,
  OP_NE,
  OP_AND,
  OP_OR,
  OP_IMPLIES,
  OP_IFF,
  /* C's integers, made only by the C front end: each works in the C type
   * ity of its node (ir_c_arith) */
  OP_WRAP,   /* unary: a converted to ity (modulo 2^bits into its range) */
  OP_BITNOT, /* unary: ~a */
  OP_BITAND, /* a & b */
  OP_BITOR,  /* a | b */
  OP_BITXOR, /* a ^ b */
  OP_SHL,    /* a << b (b within [0, bits)) */
  OP_SHR     /* a >> b (b within [0, bits)); arithmetic for negative a, as GCC does */
} ir_op;

/* What can go wrong in one operation of athread's integers. */
typedef enum ir_fault {
  IR_FAULT_NONE,     /* *out holds the exact result */
  IR_FAULT_OVERFLOW, /* the result does not fit in 64 bits (INT64_MIN / -1, -INT64_MIN) */
  IR_FAULT_DIVISION, /* division or remainder by zero */
  IR_FAULT_SHIFT     /* a shift by a negative amount or by at least the width */
} ir_fault;

/* / and % of ir_arith. By -1 they are computed as 0 - a and 0: the only
 * quotient that can overflow is INT64_MIN / -1, and C leaves INT64_MIN % -1
 * undefined. */
static inline ir_fault ir_divide(ir_op op, int64_t a, int64_t b, int64_t *out) {
  *out = 0;
  if (b == 0) return IR_FAULT_DIVISION;
  if (b != -1) *out = op == OP_DIV ? a / b : a % b;
  else if (op == OP_DIV && __builtin_sub_overflow((int64_t)0, a, out)) return *out = 0, IR_FAULT_OVERFLOW;
  return IR_FAULT_NONE;
}

/* The one definition of athread's arithmetic, for every operator but the
 * short-circuit ones' evaluation order: a op b on 64-bit integers, with /
 * and % truncating toward zero as in C, and the exact result whenever it fits
 * (so x % -1 is 0 for every x). Unary operators read a only (OP_NEG is 0 - a).
 * Comparisons and logical operators give 0 or 1. On a fault *out is 0.
 * Inline: the explicit engine evaluates it for every successor. */
static inline ir_fault ir_arith(ir_op op, int64_t a, int64_t b, int64_t *out) {
  bool ovf = false;
  switch (op) {
  case OP_NOT: *out = !a; break;
  case OP_NEG: ovf = __builtin_sub_overflow((int64_t)0, a, out); break;
  case OP_ADD: ovf = __builtin_add_overflow(a, b, out); break;
  case OP_SUB: ovf = __builtin_sub_overflow(a, b, out); break;
  case OP_MUL: ovf = __builtin_mul_overflow(a, b, out); break;
  case OP_DIV:
  case OP_MOD: return ir_divide(op, a, b, out);
  case OP_LT: *out = a < b; break;
  case OP_LE: *out = a <= b; break;
  case OP_GT: *out = a > b; break;
  case OP_GE: *out = a >= b; break;
  case OP_EQ:
  case OP_IFF: *out = a == b; break;
  case OP_NE: *out = a != b; break;
  case OP_AND: *out = a && b; break;
  case OP_OR: *out = a || b; break;
  case OP_IMPLIES: *out = !a || b; break;
  default: *out = 0; return IR_FAULT_OVERFLOW; /* C's typed operators: ir_c_arith */
  }
  if (!ovf) return IR_FAULT_NONE;
  *out = 0;
  return IR_FAULT_OVERFLOW;
}

#endif
