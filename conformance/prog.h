/* conformance/prog.h -- a program as a control-flow graph of one-action edges.
 *
 * Two kinds of program share this type: the concrete thread that the C front
 * end lowers (its locations say where the environment may interleave), and
 * the sequential conformance program C(T, T#) that the instrumenter builds
 * from it. Expressions are IR (core/ir.h) whose names are REF_VAR indices
 * into vars, or REF_CONST. Owns: everything, in its arena; free with prog_free.
 */
#ifndef ATHREAD_PROG_H
#define ATHREAD_PROG_H

#include <stdbool.h>
#include <stdint.h>

#include "../core/arena.h"
#include "../core/diag.h"
#include "../core/ir.h"
#include "../core/symtab.h"
#include "../core/vec.h"

typedef enum prog_var_kind {
  VAR_SHARED, /* a shared variable of the spec (shared_index says which) */
  VAR_LOCAL,  /* a local, parameter or temporary of the code */
  VAR_OLD,    /* instrumenter: a shared variable's value before the step (u) */
  VAR_CAND,   /* instrumenter: F[state], state_index says which */
  VAR_TID,    /* instrumenter: the instance number of the thread */
  VAR_TEMP,   /* scratch within a step, not shown in traces (the next F while it is computed; the index and the
                 value of a write to an element whose index is not constant) */
  VAR_LOAD,   /* --atomicity access: a shared variable's value read by an earlier access of the same statement
                 (atomicity.c); shared_index is the variable's program index */
  VAR_PARAM   /* instrumenter, check --for-all N: N, any value >= 1 fixed at the start */
} prog_var_kind;

typedef struct prog_var {
  prog_var_kind kind;  /* what it stands for */
  const char *name;    /* unique within the program (a C identifier), interned */
  const char *display; /* the name to show users (source name), interned */
  ir_type type;        /* TY_INT or TY_BOOL */
  bool bounded;        /* values stay within [lo, hi] */
  int64_t lo, hi;      /* the bounds when bounded */
  int shared_index;    /* VAR_SHARED, VAR_OLD, VAR_LOAD: index in spec->shared, else -1 */
  int state_index;     /* VAR_CAND: index in the thread's states, else -1 */
  ir_ctype ctype;      /* the C integer type of its values (bits 0: any integer): havocs stay within it */
  const char *range;   /* a shared variable whose range depends on --for-all's N: the type as written
                          ("int[0..N]"; then not bounded: C(T, T#) states the range), else NULL */
  bool parameter;      /* made for a parameter of the entry function, which starts with any value */
} prog_var;

typedef enum prog_action {
  ACT_SKIP,   /* nothing (a jump) */
  ACT_ASSIGN, /* var := expr */
  ACT_HAVOC,  /* var := any value of its type (within its bounds) */
  ACT_ASSUME, /* continue only if expr holds */
  ACT_ASSERT  /* go wrong unless expr holds */
} prog_action;

/* Why an instrumented assertion exists (ACT_ASSERT edges of C(T, T#)). */
typedef enum prog_check {
  CHECK_CODE,         /* a concrete assert(e) between steps: e, or some candidate goes wrong */
  CHECK_CODE_IN_STEP, /* a concrete assert(e) inside a step: e itself (no abstract state is mid-step) */
  CHECK_SIMULATED,    /* F nonempty after a step: some abstract state simulates it */
  CHECK_RANGE,        /* a bounded shared variable keeps its range after a step */
  CHECK_EXIT,         /* F nonempty when the thread exits */
  CHECK_INDEX,        /* an index of the code lies within its array (detail: the access in prog->subscripts) */
  CHECK_NULL,         /* a pointer the code dereferences names an object (detail: the pointer in prog->subscripts) */
  CHECK_ARITH,        /* an operation of the code on C's integers is defined (detail: it, in prog->operations) */
  CHECK_EDGE_UNUSED,  /* coverage probe (ins_build_probed): edge detail of T# simulates no step */
  CHECK_STATE_UNUSED  /* state probe (ins_build_probed): detail = l * states + q, F_q is false at code location l */
} prog_check;

/* Where an edge comes from in the user's C source. */
typedef struct prog_origin {
  int file; /* index into prog->files, -1 when the edge has no source */
  loc at;   /* span of the statement or condition */
} prog_origin;

/* What goes wrong in an operation on C's integers: undefined behaviour. */
typedef enum prog_fault {
  FAULT_OVERFLOW,      /* a signed result outside its type (+ - * unary -, INT_MIN / -1 and % -1, <<) */
  FAULT_DIVISION,      /* division or remainder by zero */
  FAULT_SHIFT,         /* a shift by a negative amount or by at least the width */
  FAULT_NEGATIVE_SHIFT /* a negative signed value shifted left */
} prog_fault;

/* An operation of the code that a CHECK_ARITH assertion guards. */
typedef struct prog_operation {
  prog_fault fault;     /* what the check excludes */
  prog_origin origin;   /* the operation in the source */
  ir_ctype type;        /* the type it is computed in */
  const ir_expr *shift; /* FAULT_SHIFT: the amount, for the message */
} prog_operation;

/* One part of a C path: text (a name, ".f", "[2]"), or an index known only
 * when the code runs. */
typedef struct prog_path_part {
  const char *text;     /* the text, or NULL for an index */
  const ir_expr *index; /* with text NULL: the index, an int over the program's variables */
} prog_path_part;

/* An element of a C array that the code reaches through an index that is
 * not constant: what a CHECK_INDEX assertion bounds. For CHECK_NULL: the
 * pointer's text (array), its value (index) and length 0. */
typedef struct prog_subscript {
  const prog_path_part *array; /* the C path of the array (arena-owned) */
  size_t array_len;            /* parts in it */
  const ir_expr *index;        /* the index */
  int64_t length;              /* the array's number of elements */
} prog_subscript;

/* What an edge of C(T, T#) does for the check (concrete programs: ROLE_CODE). */
typedef enum prog_role {
  ROLE_CODE,   /* an action of the concrete code */
  ROLE_INIT,   /* sets up F and tid */
  ROLE_ENV,    /* the environment: havoc of the shared state, candidates' assertions assumed */
  ROLE_SAVE,   /* u := g before a step */
  ROLE_UPDATE, /* the F update after a step (and its nonempty and range checks) */
  ROLE_EXIT    /* the check at thread exit */
} prog_role;

typedef struct prog_edge {
  int from, to;        /* location indices */
  prog_action action;  /* what it does */
  int var;             /* ACT_ASSIGN, ACT_HAVOC: the variable */
  const ir_expr *expr; /* ACT_ASSIGN value; ACT_ASSUME/ACT_ASSERT condition (TY_BOOL) */
  bool starts_step;    /* concrete program: leaves a boundary and begins an atomic step */
  prog_role role;      /* instrumented program: its part in the check */
  prog_check check;    /* ACT_ASSERT of an instrumented program: what it checks */
  int step;            /* instrumented program: the concrete edge this belongs to, -1 if none */
  int detail;          /* CHECK_RANGE: the variable whose range is left; CHECK_INDEX: the subscript; CHECK_ARITH:
                          the operation; else -1 */
  prog_origin origin;  /* source of the statement, for traces and messages */
  bool speculative;    /* --atomicity access: a load of a read that C makes on some runs of the statement only (the
                          right operand of && or ||, a branch of ?:): the load may read what C never reads */
} prog_edge;

typedef struct prog_location {
  bool boundary; /* concrete program: between atomic steps (the environment may move) */
  bool atomic;   /* concrete program: inside an atomic section, whose step stays one step under every atomicity */
  bool split;    /* concrete program: between two parts of one statement (the leaves of a struct copy), which
                    --atomicity access makes steps of their own (a boundary) */
  VEC(int) out;  /* indices of the edges that leave it */
} prog_location;

typedef struct prog {
  arena *arena;                   /* owns everything below */
  const char *function;           /* the entry function (interned) */
  VEC(diag_source *) files;       /* the source files origins point into (borrowed) */
  VEC(prog_var) vars;             /* the variables; IR REF_VAR indices point here */
  VEC(prog_location) locs;        /* the locations */
  VEC(prog_edge) edges;           /* the edges */
  VEC(prog_subscript) subscripts; /* the accesses that CHECK_INDEX assertions bound */
  VEC(prog_operation) operations; /* the operations that CHECK_ARITH assertions guard */
  int entry;                      /* where execution starts */
  int exit;                       /* where a finished thread ends (a boundary) */
  symtab names;                   /* prog_add_var: the names of vars[0 .. named) (interned) */
  size_t named;                   /* how many vars are in names (vars copied in bulk are added later) */
  symtab bases;                   /* prog_add_var: a name's index into next_suffix */
  VEC(int) next_suffix;           /* per base name: the suffix to try next */
} prog;

/* Returns owned (a fresh arena), free with prog_free. */
prog *prog_new(const char *function);
void prog_free(prog *p);

/* Adds a variable; the name is made unique (a suffix if taken). Returns its index. */
int prog_add_var(prog *p, prog_var_kind kind, const char *display, ir_type type);
/* Adds a location; returns its index. */
int prog_add_loc(prog *p, bool boundary);
/* Adds an edge (from, to and the action fields of e) and links it; returns its index. */
int prog_add_edge(prog *p, prog_edge e);
/* An IR name node for variable v (arena-owned). */
ir_expr *prog_var_ref(prog *p, int v, loc at);

/* Appends the source text of an edge's origin, on one line with runs of
 * white space collapsed, or "" when it has none. */
void prog_origin_text(const prog *p, prog_origin o, strbuf *out);
/* The file and line of an origin ("a.c", 12); false when it has none. */
bool prog_origin_line(const prog *p, prog_origin o, const char **file, size_t *line);
/* The 1-based column (in bytes) where o starts, or 0 when o has no source. */
size_t prog_origin_column(const prog *p, prog_origin o);

/* The value of the int or bool expression e (an IR over p's variables) when
 * the variables hold values (one per variable), by ir_c_arith; false when it
 * cannot be computed (a value beyond 64 bits, a division by zero, a shift
 * outside the width, a name that is no variable). */
bool prog_eval(const prog *p, const ir_expr *e, const int64_t *values, int64_t *out);
/* Appends a C path with its indices computed from values ("flag[3]"; "?" for
 * one that cannot be). */
void prog_path_text(const prog *p, const prog_path_part *parts, size_t n, const int64_t *values, strbuf *out);

#endif
