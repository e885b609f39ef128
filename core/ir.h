/* core/ir.h -- the expression IR shared by every part of athread.
 *
 * The spec parser builds these nodes, sema resolves names and types in place,
 * and the engines and the Z3 translation read them. Nodes are arena-owned
 * (the arena of the spec they came from). Resolved references are indices
 * into the spec's tables, so the IR does not depend on the AST's types.
 */
#ifndef ATHREAD_IR_H
#define ATHREAD_IR_H

#include <stdbool.h>
#include <stdint.h>

#include "arena.h"
#include "ir-arith.h"
#include "diag.h"
#include "strbuf.h"
#include "vec.h"

typedef enum ir_type { TY_NONE, TY_BOOL, TY_INT } ir_type;

typedef enum ir_kind {
  IR_BOOL,   /* true / false: value */
  IR_INT,    /* integer literal: value (if !big), text as written */
  IR_NAME,   /* identifier or primed identifier; sema sets ref and index */
  IR_TID,    /* the instance number of the executing thread */
  IR_COUNT,  /* count(thread@state) */
  IR_AT,     /* thread[a]@state */
  IR_UNARY,  /* op a */
  IR_BINARY, /* a op b */
  IR_ITE,    /* a ? b : c */
  IR_INDEX,  /* text[a] (text'[a] when primed): an element of a shared array; sema sets index, extent, cell */
  IR_QUANT   /* op OP_AND: forall text in a..b: c; OP_OR: exists ...; sema sets lowered */
} ir_kind;


/* A C integer type: its width and signedness. bits 0 stands for athread's
 * mathematical integers (the spec's, and C code under --int math); bits 1 is
 * _Bool (0 or 1). */
typedef struct ir_ctype {
  uint8_t bits;     /* 1 (_Bool), 8, 16, 32, 64, or 0 */
  bool is_unsigned; /* wraps modulo 2^bits */
} ir_ctype;

/* REF_VAR: a variable of a sequential program (conformance/prog.h); index
 * is its position in the program's variable table. REF_BOUND: the variable
 * of a quantifier (index: the quantifier's binder number); only the body of
 * an IR_QUANT holds them, never its expansion. */
typedef enum ir_ref { REF_UNRESOLVED, REF_CONST, REF_SHARED, REF_VAR, REF_BOUND } ir_ref;

/* IR_INDEX cell values besides a cell number. */
#define IR_CELL_DYNAMIC (-1)      /* the index is not a constant */
#define IR_CELL_OUT_OF_RANGE (-2) /* the index is a constant outside the array */

typedef struct ir_expr ir_expr;
struct ir_expr {
  ir_kind kind;       /* which node */
  ir_op op;           /* IR_UNARY, IR_BINARY */
  ir_type type;       /* set by sema; TY_NONE after a type error */
  loc at;             /* source span of the whole expression */
  ir_expr *a, *b, *c; /* operands; IR_AT: a is the index */
  int64_t value;      /* IR_BOOL, IR_INT (when !big) */
  bool big;           /* IR_INT does not fit in 64 bits */
  bool primed;        /* IR_NAME written as x' */
  const char *
      text; /* IR_INT as written; IR_NAME, IR_COUNT, IR_AT, IR_INDEX, IR_QUANT: the (thread, array, bound variable) name, interned */
  const char *state_name; /* IR_COUNT, IR_AT: the state, interned */
  loc name_at;            /* IR_COUNT, IR_AT, IR_INDEX, IR_QUANT: span of the thread, array or bound variable name */
  loc state_at;           /* IR_COUNT, IR_AT: span of the state name */
  ir_ref ref;             /* IR_NAME: what it names, set by sema */
  int index;              /* IR_NAME: const, shared, program-variable or binder index; IR_COUNT/IR_AT: thread
                             index; IR_INDEX: the cell of element 0; IR_QUANT: its binder number */
  int state_index;        /* IR_COUNT, IR_AT: state index within the thread */
  int64_t extent;         /* IR_INDEX: the number of elements (cells index .. index + extent - 1) */
  int cell;               /* IR_INDEX: the element's cell when the index is a constant within the array, else
                             IR_CELL_DYNAMIC or IR_CELL_OUT_OF_RANGE */
  ir_expr *lowered;       /* IR_QUANT: the body for every value of the variable, joined by op (sema; no IR_QUANT) */
  uint32_t depth;         /* levels of nesting: 1 for a leaf */
  ir_ctype ity;           /* OP_WRAP and the bitwise and shift operators: the C type they work in */
};

/* The deepest expression athread accepts; every recursive walk over the IR
 * relies on this bound to stay within the C stack. */
#define IR_MAX_DEPTH 1000

/* Constructors; every result is arena-owned. */
ir_expr *ir_bool(arena *a, loc at, bool value);
/* text is the literal as written (decimal or 0x hex). */
ir_expr *ir_int(arena *a, loc at, const char *text);
/* The literal of a magnitude, written in decimal (ir_int without the printing and parsing: lowered C makes many). */
ir_expr *ir_int_magnitude(arena *a, loc at, uint64_t v);
ir_expr *ir_name(arena *a, loc at, const char *name, bool primed);
ir_expr *ir_tid(arena *a, loc at);
ir_expr *ir_count(arena *a, loc at, const char *thread, loc thread_at, const char *state, loc state_at);
ir_expr *ir_at(arena *a, loc at, const char *thread, loc thread_at, ir_expr *index, const char *state, loc state_at);
ir_expr *ir_unary(arena *a, loc at, ir_op op, ir_expr *operand);
ir_expr *ir_binary(arena *a, loc at, ir_op op, ir_expr *l, ir_expr *r);
ir_expr *ir_ite(arena *a, loc at, ir_expr *cond, ir_expr *then, ir_expr *otherwise);
/* array[index], or array'[index] when primed. */
ir_expr *ir_index(arena *a, loc at, const char *array, loc array_at, bool primed, ir_expr *index);
/* forall (op OP_AND) or exists (op OP_OR) var in lo..hi: body. */
ir_expr *ir_quant(arena *a, loc at, ir_op op, const char *var, loc var_at, ir_expr *lo, ir_expr *hi, ir_expr *body);

/* The operator as written ("&&", "==>"). */
const char *ir_op_text(ir_op op);
/* Appends e in the spec language's concrete syntax with the fewest parentheses. */
void ir_print(strbuf *out, const ir_expr *e);
/* Appends e as an S-expression without locations (for structural comparison). */
void ir_dump(strbuf *out, const ir_expr *e);

/* A heap vector of expressions (free with vec_free). */
typedef VEC(const ir_expr *) ir_expr_list;

/* Appends the operands of a chain of one associative operator (the conjuncts
 * of an &&-chain for OP_AND, the disjuncts for OP_OR), or e itself. */
void ir_flatten(const ir_expr *e, ir_op op, ir_expr_list *out);


/* C's integers (core/ir.c): the smallest and largest value of t (bits > 0;
 * the largest of unsigned long, 2^64 - 1, is given as INT64_MAX), its name
 * ("int", "unsigned char"), and whether v is one of its values. */
int64_t ir_ctype_min(ir_ctype t);
int64_t ir_ctype_max(ir_ctype t);
const char *ir_ctype_name(ir_ctype t);
bool ir_ctype_holds(ir_ctype t, int64_t v);
/* a op b for every operator: ir_arith's, and C's typed ones in t (OP_WRAP
 * reads a only). The operands of an operator of C lie in t; the result is
 * exact and in t. IR_FAULT_OVERFLOW when a value does not fit in 64 bits
 * (an unsigned long above INT64_MAX), IR_FAULT_SHIFT for a shift amount
 * outside [0, bits). The one definition that prog_eval uses and that the
 * Z3 translation (core/smt.c) follows. */
ir_fault ir_c_arith(ir_op op, ir_ctype t, int64_t a, int64_t b, int64_t *out);

/* Calls visit on e and every subexpression, parents first; in a quantifier,
 * its bounds and then its expansion once sema made one (else its body). */
void ir_walk(const ir_expr *e, void (*visit)(const ir_expr *, void *), void *ctx);

#endif
