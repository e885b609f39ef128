/* cfront/c-ast.h -- the C syntax tree that athread conform lowers, and the
 * translation unit; private to the C front end (cfront*.c, c-ast.c,
 * translate*.c).
 *
 * Owns nothing itself: nodes, vectors and strings live in the unit's arena
 * and die with cfe_free. The unit owns the diag_sources of the files seen.
 * The translator (translate*.c) builds the tree from libclang's cursors;
 * unsupported constructs become CE_BAD/CS_BAD/CT_BAD nodes that lowering
 * reports, so only code that the checked function reaches is held to the
 * subset. Struct types are records shared through their declaration
 * (unit->records, arena-owned).
 *
 * Pointers (cfront-pointer.c): `p->f` is a CE_MEMBER whose object is the
 * CE_UNARY CO_DEREF of p (spanning p). Synchronization objects are types by
 * their typedef or struct names (cfe_sync_type: pthread_mutex_t, spinlock_t,
 * sem_t ...), whatever their C definition: a lock is a _Bool (held), a
 * semaphore an integer (its count), so that a spec binds a cell to one.
 * The primitive models (include/athread/models/) are C functions named
 * athread_model_NAME, parsed with the user's files: a call to NAME, when the
 * code has no body for it, takes the model's body (cfe_callee).
 */
#ifndef ATHREAD_C_AST_H
#define ATHREAD_C_AST_H

#include <stdbool.h>
#include <stdint.h>

#include "../core/diag.h"
#include "../core/strbuf.h"
#include "../core/symtab.h"
#include "../core/vec.h"
#include "../spec-lang/ast.h"
#include "cfront.h"

/* A span in one original source file. Code that a macro expands to is
 * located at the macro's use (the whole "INC(x)"); macro says which. */
typedef struct cfe_pos {
  int file;  /* index into unit->files, -1 for none */
  loc at;    /* byte span in that file */
  int macro; /* 1 + index into unit->macros when the code comes from a macro's body, else 0 */
} cfe_pos;

/* ---------------------------------------------------------------- types */

typedef enum cfe_type_kind {
  CT_INT,    /* any integer type or enum: a mathematical integer */
  CT_BOOL,   /* _Bool */
  CT_VOID,   /* void (function results and "(void)" only) */
  CT_STRUCT, /* a struct or a union: record */
  CT_ARRAY,  /* an array of a constant length: elem, length */
  CT_POINTER, /* a pointer: elem is what it points to (CT_VOID for void *) */
  CT_BAD     /* outside the subset: what says why */
} cfe_type_kind;

typedef struct cfe_record cfe_record;

typedef struct cfe_type {
  cfe_type_kind kind;          /* which */
  const char *what;            /* CT_BAD: the whole message ("unsupported variable-length array") */
  cfe_pos at;                  /* CT_BAD, CT_POINTER: where to point (the declaration); CT_STRUCT: the specifier */
  cfe_record *record;          /* CT_STRUCT: the struct's fields (complete once its definition is seen) */
  const struct cfe_type *elem; /* CT_ARRAY: the element type; CT_POINTER: the pointee (arena-owned) */
  int64_t length;              /* CT_ARRAY: the number of elements, at least 1 */
  uint8_t bits;                /* CT_INT: the C type's width (8, 16, 32, 64); 0 when the front end does not know */
  bool is_unsigned;            /* CT_INT: an unsigned type (wraps modulo 2^bits) */
} cfe_type;

typedef struct cfe_field {
  const char *name; /* interned */
  cfe_pos at;       /* its declarator */
  cfe_type type;    /* its type */
} cfe_field;

typedef VEC(cfe_field) cfe_fields;

struct cfe_record {
  const char *tag;   /* interned, or NULL for an anonymous struct */
  cfe_pos at;        /* 'struct' and the tag where first seen, or where defined */
  bool complete;     /* its member list was seen */
  bool is_union;     /* a union: its fields are its members, of which the code uses one per object */
  cfe_fields fields; /* in order */
};

typedef enum cfe_storage { SC_NONE, SC_TYPEDEF, SC_EXTERN, SC_STATIC, SC_OTHER } cfe_storage;

/* ---------------------------------------------------------------- expressions */

typedef enum cfe_expr_kind {
  CE_INT,    /* integer or character constant: value, big */
  CE_NAME,   /* identifier: name */
  CE_UNARY,  /* op a */
  CE_BINARY, /* a op b */
  CE_COND,   /* a ? b : c */
  CE_ASSIGN, /* a = b (op CO_ASSIGN) or a op= b */
  CE_INCDEC, /* ++a, a++, --a, a-- (delta, post) */
  CE_CALL,   /* name(args) */
  CE_CAST,   /* (type) a */
  CE_INDEX,  /* a[b] */
  CE_MEMBER, /* a.name */
  CE_STAR,   /* '*' as a whole condition */
  CE_BAD     /* outside the subset: what */
} cfe_expr_kind;

typedef enum cfe_op {
  CO_ADD,
  CO_SUB,
  CO_MUL,
  CO_DIV,
  CO_MOD,
  CO_LT,
  CO_LE,
  CO_GT,
  CO_GE,
  CO_EQ,
  CO_NE,
  CO_AND,
  CO_OR,
  CO_NOT,
  CO_NEG,
  CO_PLUS,
  CO_BITAND,
  CO_BITOR,
  CO_XOR,
  CO_SHL,
  CO_SHR,
  CO_BITNOT, /* bitwise: unsupported */
  CO_ADDR,
  CO_DEREF,
  CO_COMMA, /* unsupported */
  CO_ASSIGN /* plain '=' */
} cfe_op;

typedef enum cfe_builtin {
  B_NONE,
  B_ASSERT,
  B_ASSUME,
  B_NONDET,
  B_NONDET_BOOL,
  B_NONDET_BAD,
  B_ATOMIC_BEGIN,
  B_ATOMIC_END,
  B_ERROR,      /* reach_error(), __VERIFIER_error(), __assert_fail(): the program goes wrong here */
  B_STOP,       /* abort(), exit(): the whole program ends, so nothing after it can go wrong */
  B_THREAD_EXIT, /* pthread_exit(): the thread ends */
  B_STATE,    /* __athread_state(p): the cell bound to the synchronization object *p */
  B_SET_STATE /* __athread_set_state(p, v): stores v into it */
} cfe_builtin;

typedef struct cfe_expr cfe_expr;
typedef VEC(cfe_expr *) cfe_exprs;

struct cfe_expr {
  cfe_expr_kind kind;  /* which node */
  cfe_op op;           /* CE_UNARY, CE_BINARY, CE_ASSIGN */
  cfe_pos at;          /* the whole expression */
  cfe_expr *a, *b, *c; /* operands */
  int64_t value;       /* CE_INT */
  bool big;            /* CE_INT: does not fit in 63 bits */
  const char *name;    /* CE_NAME, CE_CALL, CE_MEMBER (the field): interned */
  cfe_pos name_at;     /* CE_CALL: the callee's name; CE_MEMBER: the field's */
  cfe_exprs args;      /* CE_CALL */
  cfe_builtin builtin; /* CE_CALL: what the name means as a verification builtin */
  cfe_type type;       /* CE_CAST */
  int delta;           /* CE_INCDEC: +1 or -1 */
  bool post;           /* CE_INCDEC: written after the operand */
  const char *what;    /* CE_BAD: the whole message */
  uint32_t depth;      /* nesting levels, 1 for a leaf */
  cfe_type ctype;      /* the C type of the value (kind CT_BAD with what NULL when the front end does not know);
                          conversions C makes implicitly appear as CE_CAST nodes with implicit set */
  bool implicit;       /* CE_CAST: a conversion C makes (usual arithmetic conversions, assignment, argument) */
};

/* ---------------------------------------------------------------- declarations */

typedef struct cfe_decl cfe_decl;
typedef VEC(cfe_decl *) cfe_decls;

/* Where a declaration's declarator is ("a[4]" of "int a[4]"). */
typedef struct cfe_declarator {
  const char *name; /* interned; NULL for an unnamed parameter */
  cfe_pos name_at;  /* its name */
  cfe_pos at;       /* the whole declarator */
} cfe_declarator;

struct cfe_decl {
  const char *name;           /* interned; NULL for an unnamed parameter */
  cfe_pos name_at;            /* the name */
  cfe_pos at;                 /* declarator and initializer (the statement when alone) */
  cfe_type type;              /* the variable's type, or a function's result type */
  cfe_storage storage;        /* storage class */
  bool thread_local;          /* _Thread_local or __thread: every thread has its own */
  cfe_expr *init;             /* the initializer, or NULL */
  bool is_function;           /* a function declarator */
  cfe_decls params;           /* is_function: the parameters */
  bool variadic;              /* is_function: ends in "..." */
  cfe_declarator *declarator; /* where its declarator is */
};

/* ---------------------------------------------------------------- statements */

typedef enum cfe_stmt_kind {
  CS_EXPR,
  CS_DECL,
  CS_BLOCK,
  CS_IF,
  CS_WHILE,
  CS_DO,
  CS_FOR,
  CS_BREAK,
  CS_CONTINUE,
  CS_RETURN,
  CS_ATOMIC,
  CS_EMPTY,
  CS_SWITCH,  /* switch (expr) body */
  CS_CASE,    /* case expr: body (expr an integer constant expression) */
  CS_DEFAULT, /* default: body */
  CS_GOTO,    /* goto label */
  CS_LABEL,   /* label: body */
  CS_BAD      /* outside the subset: what */
} cfe_stmt_kind;

typedef struct cfe_stmt cfe_stmt;
typedef VEC(cfe_stmt *) cfe_stmts;

struct cfe_stmt {
  cfe_stmt_kind kind; /* which */
  cfe_pos at;         /* the statement (without its ';' where it has one) */
  cfe_expr *expr;     /* CS_EXPR, CS_RETURN value, condition of CS_IF/WHILE/DO/FOR (NULL: none) */
  cfe_expr *step;     /* CS_FOR: the step, or NULL */
  cfe_stmt *init;     /* CS_FOR: the init (CS_DECL or CS_EXPR), or NULL */
  cfe_stmt *body;     /* CS_IF then, loops, CS_ATOMIC, CS_SWITCH, CS_CASE, CS_DEFAULT, CS_LABEL */
  cfe_stmt *els;      /* CS_IF: else, or NULL */
  cfe_stmts items;    /* CS_BLOCK */
  cfe_decls decls;    /* CS_DECL */
  const char *what;   /* CS_BAD: the whole message */
  const char *label;  /* CS_GOTO, CS_LABEL: the label's name (interned) */
};

/* ---------------------------------------------------------------- the unit */

typedef struct cfe_func {
  const char *name;     /* interned */
  cfe_pos name_at;      /* the name in its first declaration */
  cfe_decl *decl;       /* the declaration with the body (or the first) */
  cfe_stmt *body;       /* NULL when declared only */
  cfe_pos body_name_at; /* the name where the body is */
} cfe_func;

typedef enum cfe_entity_kind {
  ENT_GLOBAL,  /* a global variable: globals[index] */
  ENT_FUNC,    /* a function: funcs[index] */
  ENT_SYSTEM   /* a name declared in a system header, or a compiler builtin */
} cfe_entity_kind;

typedef struct cfe_entity {
  cfe_entity_kind kind; /* which */
  int index;            /* ENT_GLOBAL, ENT_FUNC */
} cfe_entity;

typedef struct cfe_file {
  const char *name; /* as clang names it, interned */
  diag_source *src; /* the text (owned), NULL for a system header */
  bool system;      /* a system header: its declarations are the C library's */
} cfe_file;

/* A macro whose body some located code comes from. */
typedef struct cfe_macro {
  const char *name; /* interned */
  cfe_pos body;     /* where in its definition the code is written; file -1 when not in a user's file */
} cfe_macro;

struct cfe_unit {
  arena *arena;              /* owns every node and string */
  symtab tags;               /* interned struct tag -> index into records */
  VEC(cfe_record *) records; /* every tagged struct */
  diag_sink *sink;           /* borrowed */
  VEC(cfe_file) files;       /* every file seen */
  symtab names;              /* interned name -> index into entities */
  VEC(cfe_entity) entities;  /* what each file-scope name means */
  VEC(cfe_decl *) globals;   /* global variables, first declaration each */
  VEC(cfe_func *) funcs;     /* functions */
  VEC(cfe_macro) macros;     /* what cfe_pos.macro refers to */
  symtab reported;           /* messages already printed (interned "file:start:end:text") */
  bool repeated;             /* the last error was a repetition, so its notes are left out too */
  int errors;                /* errors found, repetitions included: what lowering counts to fail */
};

/* Reports an error (or a note) at pos of the unit's files, with a note
 * naming the macro when pos is in a macro's expansion. An error already
 * reported at the same place with the same text (code inlined twice) is left
 * out, and so are its notes. */
void cfe_error(const cfe_unit *u, cfe_pos pos, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void cfe_note(const cfe_unit *u, cfe_pos pos, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* The entity a file-scope name stands for, or NULL. */
cfe_entity *cfe_lookup(const cfe_unit *u, const char *name);
/* Adds or replaces the meaning of a file-scope name. */
void cfe_define(cfe_unit *u, const char *name, cfe_entity e);

/* Evaluates an integer constant expression; false after reporting an error. */
bool cfe_const_eval(const cfe_unit *u, const cfe_expr *e, int64_t *out);
/* The same without messages: false when e is not a constant or faults. */
bool cfe_const_value(const cfe_unit *u, const cfe_expr *e, int64_t *out);

/* ---------------------------------------------------------------- lowering (cfront-lower.c, cfront-expr.c, cfront-access.c) */

/* A check the current statement makes before its action. */
typedef struct cfe_check {
  ir_expr *holds;   /* where the index or operation is evaluated, it lies within its array or is defined */
  prog_check check; /* CHECK_INDEX or CHECK_ARITH */
  int detail;       /* the access (in p->subscripts) or the operation (in p->operations) */
} cfe_check;

/* What the current statement does before its action: havoc its nondet
 * temporaries, then make its bounds checks (heap vectors). */
typedef struct cfe_pending {
  VEC(int) temps;        /* nondet temporaries */
  VEC(cfe_check) checks; /* bounds checks, innermost index first */
} cfe_pending;

/* An element named through indices that are not constants: the cells it may be. */
typedef struct cfe_cells {
  VEC(const ir_expr *) index; /* the indices that are not constants, outermost first (program arena) */
  VEC(int64_t) length;        /* the length of the array each one indexes */
  VEC(int) vars;              /* the cell of each combination of their values, row-major */
} cfe_cells;

/* What an assignment writes: one variable, or one of several cells. */
typedef struct cfe_place {
  int var;                /* a local, a global, or an element named by constants; -1 for cells or after an error */
  const cfe_cells *cells; /* with var -1: the cells it may be, or NULL after an error */
} cfe_place;

typedef struct cfe_binding {
  const char *name;      /* interned source name */
  int var;               /* its program variable; CFE_AGGREGATE for a local struct or array */
  const cfe_type *type;  /* CFE_AGGREGATE: its type; a scalar local: its refused type (CT_BAD), else NULL */
  const char *key;       /* CFE_AGGREGATE: the unique prefix of its leaves' keys in local_cells; NULL after an error */
  const cfe_decl *statik; /* CFE_AGGREGATE: a static local struct or array, whose leaves are cells under path */
  const char *path;      /* statik: its C path "FUNCTION.NAME" (unit-interned) */
  cfe_pos at;            /* CFE_AGGREGATE: its declarator */
} cfe_binding;

#define CFE_AGGREGATE (-2) /* cfe_local: the name is a local struct or array (its leaves are locals) */

typedef struct cfe_jumps {
  int brk;  /* where break goes */
  int cont; /* where continue goes */
} cfe_jumps;

/* A label of the function being lowered: where goto and the label meet. */
typedef struct cfe_label {
  const char *name; /* interned */
  int loc;          /* its location */
  int atomic;       /* the depth of atomic sections where the location was made */
} cfe_label;

/* A case of the innermost switch: the value it matches and where it starts. */
typedef struct cfe_case {
  int64_t value; /* the case's value */
  int loc;       /* its location */
  cfe_pos at;    /* the case label */
} cfe_case;

/* A switch being lowered: its cases so far and its default. */
typedef struct cfe_switch {
  VEC(cfe_case) cases; /* in source order (heap) */
  int default_loc;     /* the default label's location, -1 for none */
  int atomic;          /* the depth of atomic sections around the switch */
} cfe_switch;

/* One function being inlined (or the entry function). */
typedef struct cfe_frame {
  const cfe_func *func; /* the function */
  bool entry;           /* the checked function: its result is ignored */
  int ret_var;          /* the variable that receives the result, -1 for none */
  int exit;             /* where return goes */
  size_t scope_base;    /* its names start here in names */
  size_t loop_base;     /* its loops start here in loops */
  VEC(cfe_label) labels; /* its labels, defined or only jumped to (heap) */
} cfe_frame;

/* A C object whose address the code takes: the pointer value k + 1 names
 * targets[k] (0 is NULL). */
typedef struct cfe_target {
  const char *key;   /* identity: a global object's C path, "#N" for the N-th local declared, "=V" for a static local's cell V, "$N.PATH" for a part of a local struct or array (unit-interned) */
  const char *shown; /* its C path, or the local's name */
  int var;           /* a local's variable, else -1 */
  const char *tkey;  /* its type's key (unit-interned): a pointer to that type may name it */
  cfe_type type;     /* its type */
} cfe_target;

/* The member a union object is used through: the first access's, or the
 * one the spec binds a cell under. */
typedef struct cfe_union_use {
  const char *member; /* its name (unit-interned) */
  const char *shown;  /* the access's C path as written ("u.x"), or the spec's cell's C path */
  cfe_pos at;         /* the access (unused when cell >= 0) */
  int cell;           /* the spec's cell that decided it, or -1 */
} cfe_union_use;

/* Pointers during one lowering. The targets are found by a first, silent
 * pass over the function; the second pass knows them all, grouped by type,
 * so that a dereference covers every object its pointer may name. The
 * union members the code uses are kept for the second pass too, so that a
 * copy of a union knows the member a later access uses. */
typedef struct cfe_pointers {
  VEC(cfe_target) targets;       /* heap */
  symtab ids;                    /* key -> index into targets */
  bool frozen;                   /* the second pass: targets is complete and sorted by tkey */
  VEC(const cfe_type *) pointee; /* per program variable: what a pointer local points to, else NULL (heap) */
  VEC(bool) unknown;             /* per program variable: an entry function's pointer parameter (heap) */
  VEC(const cfe_type *) types;   /* per program variable: a local's C type, or NULL (heap) */
  VEC(int) ordinal;              /* per program variable: the declared local's number in the pass, or -1 (heap) */
  int declared;                  /* locals declared so far in this pass */
  symtab unions;                 /* a union object's key (as a target's: "u", "$4.u") -> index into uses */
  VEC(cfe_union_use) uses;       /* (heap) */
  bool again;                    /* the first pass copied a union whose member it did not know yet */
} cfe_pointers;

typedef struct cfe_lowering {
  cfe_unit *u;                 /* borrowed */
  const ast_spec *spec;        /* borrowed */
  prog *p;                     /* the program being built */
  cfe_frame *frame;            /* the innermost function */
  VEC(cfe_binding) names;      /* local names in scope, innermost last (heap) */
  VEC(cfe_jumps) loops;        /* enclosing loops, innermost last (heap) */
  VEC(const cfe_func *) calls; /* the functions being inlined, outermost first (heap) */
  cfe_switch *innermost;       /* the switch whose body is being lowered, or NULL */
  int thread_exit;             /* where the thread ends (pthread_exit goes there) */
  cfe_pending pending;         /* what the current statement does before its action */
  ir_expr *guard;              /* while an operand of && || ?: is lowered: when it is evaluated, else NULL */
  int *file_map;               /* unit file -> index in p->files, -1 until used (heap) */
  int *globals;                /* unit global -> shared variable; -2 unchecked, -1 failed (heap) */
  bool own_globals;            /* cfe_lower_owning: scalar globals that no cell stands for are the function's own */
  symtab cells;                /* a cell's C path (interned in the unit) -> its variable */
  symtab arrays;               /* a C array some cell is an element of (its path, interned) -> that cell */
  symtab local_cells;          /* a leaf of a local struct or array (its key, interned) -> its local */
  symtab reported;             /* C objects (interned paths, declarations) already reported */
  symtab statics;              /* a static local's path -> where its name is (its declaration's identity) */
  int atomic;                  /* depth of atomic sections around the current code */
  int nesting;                 /* depth of statements around the current one */
  bool too_big;                /* the edge limit was hit (reported once) */
  cfe_pointers *ptr;           /* borrowed: the pointers' targets and pointer locals */
  cfe_ints ints;               /* C's integers or mathematical ones */
} cfe_lowering;


/* What a called name means as a verification builtin (the translator stores it in each CE_CALL). */
cfe_builtin cfe_builtin_of(const char *name);
/* True when e calls a function of the code or a library function (not a verification builtin). */
bool cfe_user_call(const cfe_expr *e);
/* A fresh local variable of C type type (bool ones are bounded to [0, 1]). */
int cfe_new_local(cfe_lowering *L, const char *display, const cfe_type *type);
/* C's integer type of type, or of expression e (clang's ctype, or worked out
 * from the operands when the front end left it unknown); bits 0 under
 * --int math or for a type athread does not know, bits 1 for _Bool. */
ir_ctype cfe_ctype_of(const cfe_lowering *L, const cfe_type *type);
ir_ctype cfe_ctype(const cfe_lowering *L, const cfe_expr *e);
/* Every value of from is one of to (to mathematical: always). */
bool cfe_ctype_fits(ir_ctype from, ir_ctype to);
/* Where at is, for an edge or an operation of the program. */
prog_origin cfe_origin(cfe_lowering *L, cfe_pos at);
/* True for a local that holds a C bool (0 or 1). */
bool cfe_is_bool_local(const cfe_lowering *L, int v);
/* The value of e as an int (TY_INT) or a condition (TY_BOOL). nondet calls
 * add temporaries, and indices that are not constants bounds checks, to
 * L->pending. After reporting an error returns a placeholder. */
ir_expr *cfe_lower_int(cfe_lowering *L, const cfe_expr *e);
ir_expr *cfe_lower_bool(cfe_lowering *L, const cfe_expr *e);
/* The natural value of e: TY_BOOL for conditions and bool shared variables, else TY_INT. */
ir_expr *cfe_lower_value(cfe_lowering *L, const cfe_expr *e);
/* ! c, folding literals. */
ir_expr *cfe_not(cfe_lowering *L, ir_expr *c);
/* The value of "lhs op rhs" for a compound assignment (lhs of C type ta; op
 * one of + - * / % & | ^ << >>); *type gets the type C computes it in. */
ir_expr *cfe_lower_compound(cfe_lowering *L, cfe_op op, ir_expr *lhs, ir_ctype ta, const cfe_expr *rhs, cfe_pos at,
                            ir_ctype *type);
/* What to store into v: the value (of C type from) converted to v's type
 * (modulo 2^bits for an integer type, bool locals normalized). */
ir_expr *cfe_store_value(cfe_lowering *L, int v, ir_expr *value, ir_ctype from);
/* The function a call names with its body, or NULL after reporting why not. */
const cfe_func *cfe_callee(cfe_lowering *L, const cfe_expr *call);
/* An int literal (arena-owned, typed). */
ir_expr *cfe_int_lit(cfe_lowering *L, loc at, int64_t v);
/* True when e is an integer constant expression (literals, enum constants, operators). */
bool cfe_constant(const cfe_lowering *L, const cfe_expr *e);

/* The hint of the error for an atomic builtin without a model. */
#define CFE_ATOMIC_HINT                                                                                             \
  "athread models GCC's __atomic_* and __sync_* builtins on int objects, see include/athread/models/gcc.h, and "     \
  "the atomic_* functions of <stdatomic.h>"

/* Maps the spec's cells by their C paths (L->cells, L->arrays); cfe_unmap_cells frees the maps. */
void cfe_map_cells(cfe_lowering *L);
void cfe_unmap_cells(cfe_lowering *L);
/* The local of that name in scope, CFE_AGGREGATE for a local struct or array, or -1. */
int cfe_local(const cfe_lowering *L, const char *name);
/* The binding of a local name in scope, or NULL. */
const cfe_binding *cfe_binding_of(const cfe_lowering *L, const char *name);
/* Declares local d of struct or array type: one local per scalar leaf, each
 * starting with any value; false after reporting why it cannot be. */
bool cfe_local_aggregate(cfe_lowering *L, const cfe_decl *d);
/* Binds static local d of the function being lowered: one object for
 * every call and every thread, so the spec's cell bound to the C path
 * "FUNCTION.NAME" (a struct's or array's leaves under it); reports one
 * without a cell at its declaration. */
void cfe_static_local(cfe_lowering *L, const cfe_decl *d);
/* Reports a name that the code does not declare (or a system header's, or
 * a compiler builtin without a model). */
void cfe_unknown_name(cfe_lowering *L, const char *name, cfe_pos at, const char *kind);
/* The value of a name, a field or an element (CE_NAME, CE_MEMBER, CE_INDEX). */
ir_expr *cfe_lower_object(cfe_lowering *L, const cfe_expr *e);
/* What an assignment target names: a local, a global, or a field or element
 * of a global struct or array (bounds checks go to L->pending); {-1, NULL}
 * after reporting why not. */
cfe_place cfe_lower_place(cfe_lowering *L, const cfe_expr *e);
/* The value at a place: its variable, or a ?: tree over its cells by their indices. */
ir_expr *cfe_place_value(cfe_lowering *L, cfe_place place, loc at);

/* Where an expression stands, for cfe_sequence: a statement of its own
 * (the lowering runs a top-level assignment, '++'/'--' or call itself), an
 * initializer or returned value (a top-level call stays), or a value. */
typedef enum cfe_seq_mode { CFE_SEQ_STATEMENT, CFE_SEQ_INIT, CFE_SEQ_VALUE } cfe_seq_mode;

/* True when e contains an assignment, '++'/'--' or a call of the code's functions. */
bool cfe_has_effects(const cfe_expr *e);
/* Runs the side effects nested in e (cfront-sequence.c) at cur, each its own
 * statement, in C's order; *out gets e with each replaced by a temporary
 * holding its value (e itself when there are none, or after an error: an
 * unsequenced conflict is reported). Returns where the rest starts. */
int cfe_sequence(cfe_lowering *L, const cfe_expr *e, cfe_seq_mode mode, int cur, const cfe_expr **out);
/* Lowers a statement at cur (cfront-lower.c); returns where it ends. */
int cfe_lower_stmt(cfe_lowering *L, const cfe_stmt *s, int cur);
/* Stores value into pl as part of the current step (after its pending
 * work), to a new location: the boundary that ends the step when last. No
 * place (a struct without fields): an edge that does nothing. */
int cfe_store_part(cfe_lowering *L, int cur, cfe_place pl, ir_expr *value, ir_ctype from, cfe_pos at, bool last);
/* var := value as a part of the current step, after its pending work; returns where the step goes on. */
int cfe_set_temp(cfe_lowering *L, int cur, int var, const ir_expr *value, cfe_pos at);
/* "dst = src" for objects of struct type (cfront-copy.c): one step copying
 * leaf by leaf; returns where it ends (cur after reporting why not). */
int cfe_copy_struct(cfe_lowering *L, const cfe_expr *dst, const cfe_expr *src, cfe_pos at, int cur);
/* The member (unit-interned) that union object e (an object expression
 * whose indices are constants or variables) is used through: the first
 * access's in this lowering or the previous pass, or the one the spec binds
 * a cell under; NULL when nothing has decided it yet. Adds no checks. */
const char *cfe_union_member(cfe_lowering *L, const cfe_expr *e);
/* Binds a local name (interned, or any pointer no other name has) to a variable in the current scope. */
void cfe_bind(cfe_lowering *L, const char *name, int var);

/* ---------------------------------------------------------------- pointers (cfront-pointer.c) and models (cfront-models.c) */

/* A pointer's dereference: which targets it may name. */
typedef struct cfe_deref {
  const cfe_type *pointee; /* the type it points to */
  ir_expr *index;          /* the pointer's value minus first + 1: 0..count-1 when it names a target */
  size_t first, count;     /* the targets of that type: targets[first .. first+count) */
} cfe_deref;

/* Registers local v as a pointer to pointee (unknown: an entry function's
 * parameter, whose value athread does not know); false after reporting a
 * pointee that is not supported. An unknown pointer's pointee is not
 * checked: every use of it is refused (cfe_unknown_pointer), so an unused
 * one, such as main's char **argv, may point to anything. */
bool cfe_pointer_local(cfe_lowering *L, int v, const cfe_type *pointee, bool unknown, cfe_pos at);
/* Declares a scalar local of C type t (borrowed), which &v points to: a new
 * variable, or in the second pass the one made for it at the start when its
 * address is taken. Locals are numbered in the order they are declared, the
 * same in both passes, so a target names its local by number: variable
 * indices differ between the passes (the second makes more temporaries). */
int cfe_declare_local(cfe_lowering *L, const char *display, const cfe_type *t);
/* The second pass, before anything else: a variable for each local whose address is taken. */
void cfe_place_local_targets(cfe_lowering *L);
/* What pointer local v points to, or NULL when v is no pointer. */
const cfe_type *cfe_pointee(const cfe_lowering *L, int v);
/* Reports a use of an entry function's pointer parameter (once); true when v is one. */
bool cfe_unknown_pointer(cfe_lowering *L, int v, cfe_pos at);
/* True when e is a pointer (by its ctype, or by its form: a pointer local, &x, a cast to a pointer). */
bool cfe_is_pointer(const cfe_lowering *L, const cfe_expr *e);
/* Reports what the subset refuses about pointer operands of e (arithmetic,
 * ordering, a cast to an integer); true when it did. */
bool cfe_pointer_misuse(cfe_lowering *L, const cfe_expr *e);
/* The value of pointer expression e, an int naming its target (0: NULL),
 * checked against want (NULL: no check); a placeholder after an error. */
ir_expr *cfe_lower_pointer(cfe_lowering *L, const cfe_expr *e, const cfe_type *want);
/* *p (e is CE_UNARY CO_DEREF): lowers p, adds its CHECK_NULL to L->pending,
 * and fills d; false after reporting why it cannot be dereferenced. */
bool cfe_lower_deref(cfe_lowering *L, const cfe_expr *e, cfe_deref *d);
/* The id of the target key (registered in the first pass); type is the object's. */
int64_t cfe_target_id(cfe_lowering *L, const char *key, const char *shown, int var, const cfe_type *type, cfe_pos at);
/* The key of a type (unit-interned): pointers to types of equal keys may name the same objects. */
const char *cfe_type_key(cfe_lowering *L, const cfe_type *t);
/* &e for an object e reached from a global or a dereference (cfront-access.c): its target
 * ids by the indices and pointers on the way; *type gets the object's type. */
ir_expr *cfe_lower_address(cfe_lowering *L, const cfe_expr *e, cfe_type *type);

/* The object *p that __athread_state(p) or __athread_set_state(p, v) (call)
 * names, as a dereference written into *deref (which borrows call); false
 * after reporting a wrong number of arguments. */
bool cfe_state_object(cfe_lowering *L, const cfe_expr *call, size_t args, cfe_expr *deref);

/* The type a synchronization object's name gives it (true), else false. */
bool cfe_sync_type(const char *name, cfe_type *out);
/* True for a library function without effect on shared state (printf, DbgPrint, pthread_mutex_init ...). */
bool cfe_noop_function(const char *name);
/* True when call names such a function and the code has neither a body nor a model for it. */
bool cfe_noop_call(const cfe_lowering *L, const cfe_expr *call);

/* A call of a thread API that the code has no body for (pthread_create,
 * pthread_join, pthread_detach; cfront-models.c) as its model takes it:
 * only the handle argument that the step writes (a NULL in its place when
 * no checked code can read it), after checking that the arguments left out
 * can be left out (each error reported; then NULL). Any other call: call
 * itself. The result is arena-owned and borrows call's arguments. */
const cfe_expr *cfe_thread_call(cfe_lowering *L, const cfe_expr *call);

/* A span from the start of a to the end of b (a's when they are in different files). */
cfe_pos cfe_span(cfe_pos a, cfe_pos b);

#endif
