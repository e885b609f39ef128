/* conformance/c-ast.h -- the C subset's syntax tree, the translation unit
 * and the state of one parse; private to the C front end (cfront*.c,
 * c-ast.c, c-lexer.l, c-parser.y).
 *
 * Owns nothing itself: nodes, vectors and strings live in the unit's arena
 * and die with cfe_free. The unit owns the diag_sources of the files seen.
 * The grammar builds nodes with the cfe_* constructors below; unsupported
 * constructs become CE_BAD/CS_BAD/CT_BAD nodes that lowering reports, so only
 * code that the checked function reaches is held to the subset. Struct types
 * are records shared through their tag (unit->records, arena-owned), so a
 * definition after a use completes the type the use holds.
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

/* A span in one original source file. */
typedef struct cfe_pos {
  int file; /* index into unit->files, -1 for none */
  loc at;   /* byte span in that file */
} cfe_pos;

/* ---------------------------------------------------------------- types */

typedef enum cfe_type_kind {
  CT_INT,    /* any integer type or enum: a mathematical integer */
  CT_BOOL,   /* _Bool */
  CT_VOID,   /* void (function results and "(void)" only) */
  CT_STRUCT, /* a struct: record */
  CT_ARRAY,  /* an array of a constant length: elem, length */
  CT_POINTER, /* a pointer: elem is what it points to (CT_VOID for void *) */
  CT_BAD     /* outside the subset: what says why */
} cfe_type_kind;

typedef struct cfe_record cfe_record;

typedef struct cfe_type {
  cfe_type_kind kind;          /* which */
  const char *what;            /* CT_BAD: the whole message ("unsupported pointer type") */
  cfe_pos at;                  /* CT_BAD: where to point; CT_STRUCT: the specifier */
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
  cfe_fields fields; /* in order */
};

typedef enum cfe_storage { SC_NONE, SC_TYPEDEF, SC_EXTERN, SC_STATIC, SC_OTHER } cfe_storage;

/* Declaration specifiers as they accumulate. */
typedef struct cfe_specs {
  int words;             /* type keywords seen */
  bool is_void, is_bool; /* saw void / _Bool */
  bool is_unsigned;      /* saw unsigned */
  int longs;             /* 'long' words seen */
  bool is_char, is_short; /* saw char / short */
  bool widths;           /* the unit's types have widths (cfe_options.widths) */
  bool has_type;         /* a typedef name, struct, union or enum was seen */
  cfe_type type;         /* the typedef's (or struct's, enum's) type when has_type */
  cfe_type bad;          /* first unsupported keyword (float, _Complex ...): kind CT_BAD, else CT_INT */
  cfe_storage storage;   /* storage class */
  cfe_pos at;            /* span of the specifiers */
} cfe_specs;

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

/* A declarator while it is built: the name and what surrounds it. */
typedef struct cfe_declarator {
  const char *name;  /* interned; NULL for an abstract declarator */
  cfe_pos name_at;   /* its span */
  cfe_pos at;        /* the whole declarator */
  const char *bad;   /* first unsupported derivation ("pointer type", "bit-field") or NULL */
  cfe_pos bad_at;    /* where it is */
  VEC(int64_t) dims; /* array lengths, as written left to right ("a[2][3]": 2, 3) */
  bool is_function;  /* name(params) */
  cfe_decls params;  /* the parameters */
  bool variadic;     /* params end in "..." */
} cfe_declarator;

struct cfe_decl {
  const char *name;           /* interned; NULL for an unnamed parameter */
  cfe_pos name_at;            /* the name */
  cfe_pos at;                 /* declarator and initializer (the statement when alone) */
  cfe_type type;              /* the variable's type, or a function's result type */
  cfe_storage storage;        /* storage class */
  cfe_expr *init;             /* the initializer, or NULL */
  bool is_function;           /* a function declarator */
  cfe_decls params;           /* is_function: the parameters */
  bool variadic;              /* is_function: ends in "..." */
  cfe_declarator *declarator; /* what it was built from */
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
  CS_BAD /* outside the subset: what */
} cfe_stmt_kind;

typedef struct cfe_stmt cfe_stmt;
typedef VEC(cfe_stmt *) cfe_stmts;

struct cfe_stmt {
  cfe_stmt_kind kind; /* which */
  cfe_pos at;         /* the statement (without its ';' where it has one) */
  cfe_expr *expr;     /* CS_EXPR, CS_RETURN value, condition of CS_IF/WHILE/DO/FOR (NULL: none) */
  cfe_expr *step;     /* CS_FOR: the step, or NULL */
  cfe_stmt *init;     /* CS_FOR: the init (CS_DECL or CS_EXPR), or NULL */
  cfe_stmt *body;     /* CS_IF then, loops, CS_ATOMIC */
  cfe_stmt *els;      /* CS_IF: else, or NULL */
  cfe_stmts items;    /* CS_BLOCK */
  cfe_decls decls;    /* CS_DECL */
  const char *what;   /* CS_BAD: the whole message */
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
  ENT_ENUM,    /* an enum constant: value */
  ENT_TYPEDEF, /* a type name: type */
  ENT_SYSTEM   /* a name declared in a system header (not a type) */
} cfe_entity_kind;

typedef struct cfe_entity {
  cfe_entity_kind kind; /* which */
  int index;            /* ENT_GLOBAL, ENT_FUNC */
  int64_t value;        /* ENT_ENUM */
  cfe_type type;        /* ENT_TYPEDEF */
  bool system;          /* ENT_TYPEDEF: from a system header */
} cfe_entity;

typedef struct cfe_file {
  const char *name; /* as the preprocessor wrote it, interned */
  diag_source *src; /* the text (owned), NULL for a system header or <built-in> */
  bool system;      /* a system header: its tokens are not parsed */
  uint32_t cursor;  /* lexer: offset of the next unmatched source byte */
} cfe_file;

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
  bool widths;               /* cfe_options.widths */
};

/* ---------------------------------------------------------------- one parse */

#define CFE_MAX_BRACES 16

typedef struct cfe_ctx {
  cfe_unit *unit;     /* what the parse adds to */
  int file;           /* lexer: the file the preprocessor is in */
  size_t line;        /* lexer: the line of that file */
  bool system;        /* lexer: in a system header (tokens are scanned, not parsed) */
  bool in_macro;      /* lexer: the tokens come from the expansion at macro_at */
  cfe_pos macro_at;   /* lexer: the macro name being expanded */
  cfe_pos last, prev; /* lexer: the token just returned and the one before */
  int64_t enum_next;  /* parser: value of the next enum constant without '=' */
  /* the scan of system headers for typedef and declared names */
  int sys_braces, sys_parens;          /* nesting */
  bool sys_typedef;                    /* the current declaration is a typedef */
  bool sys_scalar;                     /* every word of it so far is an integer type word */
  bool sys_bool;                       /* it names _Bool */
  int sys_words;                       /* integer type words in it so far */
  const char *sys_ident;               /* the identifier just scanned, or NULL */
  bool sys_after_star;                 /* the token before sys_ident was '*' */
  bool sys_prev_scalar;                /* sys_ident is an integer type's name */
  cfe_pos open_braces[CFE_MAX_BRACES]; /* '{' not yet closed, innermost last */
  int open_brace_count;                /* entries (deeper ones are not kept) */
} cfe_ctx;

/* Reports an error (or a note) at pos of the unit's files. */
void cfe_error(const cfe_unit *u, cfe_pos pos, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void cfe_note(const cfe_unit *u, cfe_pos pos, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* The entity a file-scope name stands for, or NULL. */
cfe_entity *cfe_lookup(const cfe_unit *u, const char *name);
/* Adds (or replaces, replace = true) the meaning of a file-scope name. */
void cfe_define(cfe_unit *u, const char *name, cfe_entity e, bool replace);

/* Runs the preprocessor on path; the output goes to out. On failure passes
 * its messages to the sink and returns false. */
bool cfe_preprocess(diag_sink *sink, const char *path, const cfe_options *o, strbuf *out);
/* Handles a preprocessor line ("# 12 \"a.c\" 2 3"); line is not NUL-terminated. */
void cfe_directive(cfe_ctx *ctx, const char *line, size_t len);
/* Maps a token of the preprocessed text back to the original file. */
cfe_pos cfe_map_token(cfe_ctx *ctx, const char *text, size_t len);
/* Feeds a token of a system header to the scan for typedef names. ident is
 * the interned text of identifiers and type names, else NULL. */
void cfe_system_token(cfe_ctx *ctx, int token, const char *text, size_t len);
/* Evaluates an integer constant expression; false after reporting an error. */
bool cfe_const_eval(const cfe_unit *u, const cfe_expr *e, int64_t *out);
/* The same without messages: false when e is not a constant or faults. */
bool cfe_const_value(const cfe_unit *u, const cfe_expr *e, int64_t *out);

/* ---------------------------------------------------------------- constructors (c-ast.c) */

cfe_type cfe_type_bad(cfe_ctx *ctx, cfe_pos at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
cfe_specs cfe_specs_empty(void);
/* Adds a type keyword (its text as written) to s. */
void cfe_specs_word(cfe_ctx *ctx, cfe_specs *s, const char *word, cfe_pos at);
void cfe_specs_storage(cfe_specs *s, cfe_storage storage, cfe_pos at);
void cfe_specs_type(cfe_specs *s, cfe_type t, cfe_pos at);
/* The type the specifiers denote. */
cfe_type cfe_specs_result(const cfe_specs *s);
/* The type a typedef name stands for (reporting a system header's name). */
cfe_type cfe_typedef_type(cfe_ctx *ctx, const char *name, cfe_pos at);
/* "struct TAG" (kw is "struct" or "union"): the tag's record, made incomplete
 * when it is new. A union is unsupported. */
cfe_type cfe_struct_ref(cfe_ctx *ctx, const char *kw, const char *tag, cfe_pos at);
/* "struct [TAG] { fields }": completes the tag's record (or a new one). */
cfe_type cfe_struct_def(cfe_ctx *ctx, const char *kw, const char *tag, cfe_fields *fields, cfe_pos at);
cfe_fields *cfe_fields_new(cfe_ctx *ctx);
/* Adds the members of one member declaration (unnamed bit-fields are left out). */
void cfe_fields_add(cfe_ctx *ctx, cfe_fields *fields, const cfe_specs *s, cfe_decls *decls);

cfe_declarator *cfe_declarator_name(cfe_ctx *ctx, const char *name, cfe_pos at);
cfe_declarator *cfe_declarator_abstract(cfe_ctx *ctx, cfe_pos at);
cfe_declarator *cfe_declarator_pointer(cfe_declarator *d, cfe_pos star_at, cfe_pos at);
/* d[length] (length NULL: "d[]"); a length that is not a positive constant makes d unsupported. */
cfe_declarator *cfe_declarator_array(cfe_ctx *ctx, cfe_declarator *d, const cfe_expr *length, cfe_pos at);
/* d : width (a bit-field, unsupported). */
cfe_declarator *cfe_declarator_bitfield(cfe_declarator *d, cfe_pos at);
cfe_declarator *cfe_declarator_function(cfe_ctx *ctx, cfe_declarator *d, cfe_decls *params, bool variadic, cfe_pos at);
cfe_decls *cfe_decls_new(cfe_ctx *ctx);
void cfe_decls_add(cfe_ctx *ctx, cfe_decls *list, cfe_decl *d);
/* A declaration from specifiers and one declarator (init may be NULL). With
 * s NULL, cfe_declaration applies the specifiers later. */
cfe_decl *cfe_decl_new(cfe_ctx *ctx, const cfe_specs *s, cfe_declarator *d, cfe_expr *init, cfe_pos at);
/* A declaration statement; registers typedef names for the lexer. */
cfe_stmt *cfe_declaration(cfe_ctx *ctx, const cfe_specs *s, cfe_decls *decls, cfe_pos at);
/* File scope: the globals, prototypes and typedefs of a declaration. */
void cfe_add_globals(cfe_ctx *ctx, cfe_stmt *decl);
void cfe_add_function(cfe_ctx *ctx, const cfe_specs *s, cfe_declarator *d, cfe_stmt *body, cfe_pos at);
void cfe_add_enum_const(cfe_ctx *ctx, const char *name, cfe_pos at, cfe_expr *value);

cfe_expr *cfe_int(cfe_ctx *ctx, cfe_pos at, int64_t value, bool big);
cfe_expr *cfe_name(cfe_ctx *ctx, cfe_pos at, const char *name);
cfe_expr *cfe_unary(cfe_ctx *ctx, cfe_pos at, cfe_op op, cfe_expr *a);
cfe_expr *cfe_binary(cfe_ctx *ctx, cfe_pos at, cfe_op op, cfe_expr *a, cfe_expr *b);
cfe_expr *cfe_cond(cfe_ctx *ctx, cfe_pos at, cfe_expr *a, cfe_expr *b, cfe_expr *c);
cfe_expr *cfe_assign(cfe_ctx *ctx, cfe_pos at, cfe_op op, cfe_expr *target, cfe_expr *value);
cfe_expr *cfe_incdec(cfe_ctx *ctx, cfe_pos at, int delta, bool post, cfe_expr *target);
cfe_expr *cfe_call(cfe_ctx *ctx, cfe_pos at, cfe_expr *callee, cfe_exprs *args);
cfe_exprs *cfe_args_new(cfe_ctx *ctx);
void cfe_args_add(cfe_ctx *ctx, cfe_exprs *args, cfe_expr *e);
cfe_expr *cfe_cast(cfe_ctx *ctx, cfe_pos at, cfe_type type, cfe_expr *a);
cfe_expr *cfe_index(cfe_ctx *ctx, cfe_pos at, cfe_expr *array, cfe_expr *index);
cfe_expr *cfe_member(cfe_ctx *ctx, cfe_pos at, cfe_expr *object, const char *field, cfe_pos field_at);
cfe_expr *cfe_star(cfe_ctx *ctx, cfe_pos at);
/* An unsupported expression; sub is an operand whose depth counts, or NULL. */
cfe_expr *cfe_bad_expr(cfe_ctx *ctx, cfe_pos at, cfe_expr *sub, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

cfe_stmt *cfe_stmt_new(cfe_ctx *ctx, cfe_stmt_kind kind, cfe_pos at);
cfe_stmt *cfe_expr_stmt(cfe_ctx *ctx, cfe_expr *e, cfe_pos at);
cfe_stmt *cfe_if(cfe_ctx *ctx, cfe_pos at, cfe_expr *cond, cfe_stmt *then, cfe_stmt *els);
cfe_stmt *cfe_loop(cfe_ctx *ctx, cfe_stmt_kind kind, cfe_pos at, cfe_expr *cond, cfe_stmt *body);
cfe_stmt *cfe_for(cfe_ctx *ctx, cfe_pos at, cfe_stmt *init, cfe_expr *cond, cfe_expr *step, cfe_stmt *body);
cfe_stmt *cfe_return(cfe_ctx *ctx, cfe_pos at, cfe_expr *value);
cfe_stmt *cfe_block(cfe_ctx *ctx, cfe_pos at);
void cfe_block_add(cfe_ctx *ctx, cfe_stmt *block, cfe_stmt *s);
cfe_stmt *cfe_atomic(cfe_ctx *ctx, cfe_pos at, cfe_stmt *body);
cfe_stmt *cfe_bad_stmt(cfe_ctx *ctx, cfe_pos at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

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
  const char *name; /* interned source name */
  int var;          /* its program variable */
} cfe_binding;

typedef struct cfe_jumps {
  int brk;  /* where break goes */
  int cont; /* where continue goes */
} cfe_jumps;

/* One function being inlined (or the entry function). */
typedef struct cfe_frame {
  const cfe_func *func; /* the function */
  bool entry;           /* the checked function: its result is ignored */
  int ret_var;          /* the variable that receives the result, -1 for none */
  int exit;             /* where return goes */
  size_t scope_base;    /* its names start here in names */
  size_t loop_base;     /* its loops start here in loops */
} cfe_frame;

typedef struct cfe_lowering {
  cfe_unit *u;                 /* borrowed */
  const ast_spec *spec;        /* borrowed */
  prog *p;                     /* the program being built */
  cfe_frame *frame;            /* the innermost function */
  VEC(cfe_binding) names;      /* local names in scope, innermost last (heap) */
  VEC(cfe_jumps) loops;        /* enclosing loops, innermost last (heap) */
  VEC(const cfe_func *) calls; /* the functions being inlined, outermost first (heap) */
  cfe_pending pending;         /* what the current statement does before its action */
  ir_expr *guard;              /* while an operand of && || ?: is lowered: when it is evaluated, else NULL */
  int *file_map;               /* unit file -> index in p->files, -1 until used (heap) */
  int *globals;                /* unit global -> shared variable; -2 unchecked, -1 failed (heap) */
  symtab cells;                /* a cell's C path (interned in the unit) -> its variable */
  symtab arrays;               /* a C array some cell is an element of (its path, interned) -> that cell */
  symtab reported;             /* C objects (interned paths, declarations) already reported */
  int atomic;                  /* depth of atomic sections around the current code */
  int nesting;                 /* depth of statements around the current one */
  bool too_big;                /* the edge limit was hit (reported once) */
  cfe_ints ints;               /* C's integers or mathematical ones */
} cfe_lowering;

typedef enum cfe_builtin {
  B_NONE,
  B_ASSERT,
  B_ASSUME,
  B_NONDET,
  B_NONDET_BOOL,
  B_NONDET_BAD,
  B_ATOMIC_BEGIN,
  B_ATOMIC_END
} cfe_builtin;

/* What a called name means as a verification builtin. */
cfe_builtin cfe_builtin_of(const char *name);
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
/* The value of "lhs op rhs" for a compound assignment (lhs of C type ta);
 * *type gets the type C computes it in. */
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

/* Maps the spec's cells by their C paths (L->cells, L->arrays); cfe_unmap_cells frees the maps. */
void cfe_map_cells(cfe_lowering *L);
void cfe_unmap_cells(cfe_lowering *L);
/* The local of that name in scope, or -1. */
int cfe_local(const cfe_lowering *L, const char *name);
/* Reports a name that the code does not declare (or a system header's). */
void cfe_unknown_name(cfe_lowering *L, const char *name, cfe_pos at, const char *kind);
/* The value of a name, a field or an element (CE_NAME, CE_MEMBER, CE_INDEX). */
ir_expr *cfe_lower_object(cfe_lowering *L, const cfe_expr *e);
/* What an assignment target names: a local, a global, or a field or element
 * of a global struct or array (bounds checks go to L->pending); {-1, NULL}
 * after reporting why not. */
cfe_place cfe_lower_place(cfe_lowering *L, const cfe_expr *e);
/* The value at a place: its variable, or a ?: tree over its cells by their indices. */
ir_expr *cfe_place_value(cfe_lowering *L, cfe_place place, loc at);

/* A span from the start of a to the end of b (a's when they are in different files). */
cfe_pos cfe_span(cfe_pos a, cfe_pos b);

#endif
