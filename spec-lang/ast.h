/* spec-lang/ast.h -- the abstract syntax of a .athread specification.
 *
 * Owns nothing itself: every node, vector and string lives in the spec's
 * arena and is freed by spec_free (spec-lang/spec.h). The parser fills the
 * syntax fields in source order; sema fills the fields marked "sema" (the
 * resolved tables that engines read) and leaves the syntax as written, so
 * fmt can print it back.
 */
#ifndef ATHREAD_AST_H
#define ATHREAD_AST_H

#include <stdbool.h>
#include <stdint.h>

#include "../core/diag.h"
#include "../core/ir.h"
#include "../core/vec.h"

typedef struct ast_const {
  const char *name;    /* interned */
  loc name_at;         /* span of the name */
  loc at;              /* span of the whole declaration */
  ir_expr *value_expr; /* the defining expression */
  int64_t value;       /* sema: the value, after --set overrides */
  bool overridden;     /* sema: value came from --set */
  bool failed;         /* sema: the definition has an error (value unusable) */
  int index;           /* position in spec->consts */
} ast_const;

typedef enum ast_type_kind { TYPE_BOOL, TYPE_INT, TYPE_RANGE } ast_type_kind;

typedef struct ast_type {
  ast_type_kind kind; /* bool, int, or int[lo..hi] */
  ir_expr *lo, *hi;   /* TYPE_RANGE: the bound expressions */
  int64_t lo_value;   /* sema: TYPE_RANGE lower bound */
  int64_t hi_value;   /* sema: TYPE_RANGE upper bound */
  loc at;             /* span of the type */
} ast_type;

/* An initializer: one value, or a list of one value per array element. */
typedef struct ast_init {
  ir_expr *value;      /* "= e", or NULL */
  VEC(ir_expr *) list; /* "= {e1, e2, ...}": the values in order (empty without a list) */
  loc list_at;         /* span of "= {...}" */
} ast_init;

/* A declared shared variable (spec->variables), or a cell: a scalar variable,
 * or one element of an array, which sema makes (spec->shared). A scalar's
 * declaration is its cell. */
typedef struct ast_shared {
  const char *name;               /* interned; a cell of an array: "a[2]" */
  loc name_at;                    /* span of the name */
  loc at;                         /* span of the declaration */
  ast_type type;                  /* declared type (of each element of an array) */
  ir_expr *size;                  /* "[N]": the number of elements of an array, or NULL for a scalar */
  ir_expr *init;                  /* initial value (of every element), or NULL for "any value of the type" */
  VEC(ir_expr *) init_list;       /* initial values, one per element ("= {...}"), or empty */
  loc init_list_at;               /* span of "= {...}" */
  const char *binds;              /* the C object it stands for when named otherwise ("binds PATH"), or NULL */
  loc binds_at;                   /* span of that path */
  int index;                      /* sema: its cell in spec->shared (an array: the cell of element 0) */
  int64_t length;                 /* sema: an array's number of elements; 0 for a scalar */
  int variable;                   /* sema: position in spec->variables (-1 for an element's cell) */
  const struct ast_shared *array; /* sema, element cells: the array it belongs to, else NULL */
  int64_t element;                /* sema, element cells: its position in the array */
} ast_shared;

typedef struct ast_state {
  const char *name;                /* interned */
  loc at;                          /* span of the name */
  bool initial;                    /* declared with init */
  ir_expr *assertion;              /* NULL when none (shared by the states of one declaration) */
  int index;                       /* sema: position in thread->states */
  const struct sem_checks *checks; /* semantics.h: sem_state_checks() */
} ast_state;

typedef struct ast_state_decl {
  bool initial;            /* "init state ..." */
  VEC(ast_state *) states; /* the names, in order */
  ir_expr *assertion;      /* "assert e", or NULL */
} ast_state_decl;

/* What an assignment writes, as written: a variable or an element. */
typedef struct ast_target {
  const char *var; /* interned shared variable (array) name */
  loc var_at;      /* span of the name */
  ir_expr *index;  /* the element's index, or NULL */
  loc at;          /* span of the whole target */
} ast_target;

typedef struct ast_assign {
  const char *var;       /* interned shared variable (array) name */
  loc var_at;            /* span of the name */
  ir_expr *index;        /* "a[e] := ...": the index, or NULL */
  loc target_at;         /* span of the target (a[e] or x) */
  ir_expr *value;        /* right-hand side, NULL for '*' */
  int var_index;         /* sema: the written cell (an array's element 0 when the index is not constant), -1 if
                             unresolved */
  const ir_expr *target; /* sema: what it writes, primed (x' or a'[e]) */
} ast_assign;

typedef enum ast_edge_kind { EDGE_RELATION, EDGE_COMMAND } ast_edge_kind;

typedef struct ast_edge {
  ast_edge_kind kind;             /* relational (":") or guarded command */
  const char *from, *to;          /* state names, interned */
  loc from_at, to_at;             /* their spans */
  const char *label;              /* label text as written between the quotes, or NULL */
  loc label_at;                   /* span of the label literal */
  ir_expr *relation;              /* EDGE_RELATION */
  ir_expr *guard;                 /* EDGE_COMMAND: "when g", or NULL for true */
  bool has_do;                    /* EDGE_COMMAND: a "do" part was written */
  VEC(ast_assign) assigns;        /* EDGE_COMMAND: the assignments in order */
  int from_index, to_index;       /* sema: state indices, -1 if unresolved */
  int index;                      /* sema: position in thread->edges */
  const struct sem_conj *meaning; /* semantics.h: sem_edge() */
  const struct sem_plans *plans;  /* semantics.h: sem_edge_plans() */
} ast_edge;

typedef enum ast_item_kind { ITEM_INVARIANT, ITEM_STATES, ITEM_EDGE } ast_item_kind;

typedef struct ast_thread_item {
  ast_item_kind kind;     /* which member is set */
  loc at;                 /* span of the item */
  ir_expr *invariant;     /* ITEM_INVARIANT */
  ast_state_decl *states; /* ITEM_STATES */
  ast_edge *edge;         /* ITEM_EDGE */
} ast_thread_item;

typedef struct ast_thread {
  const char *name;           /* interned */
  loc name_at;                /* span of the name */
  loc at;                     /* span of the whole thread */
  const char *impl;           /* C function after "implements", or NULL */
  loc impl_at;                /* its span */
  VEC(ast_thread_item) items; /* in source order */
  uint32_t close_at;          /* offset of the closing brace */
  VEC(ast_state *) states;    /* sema: every state, in order */
  VEC(ast_edge *) edges;      /* sema: every edge, in order */
  VEC(ir_expr *) invariants;  /* sema: the invariant clauses */
  bool uses_tid;              /* sema: some expression reads tid */
  bool named_by_index;        /* sema: a property says T[i]@S */
  int index;                  /* position in spec->threads */
} ast_thread;

typedef enum ast_sys_item_kind { SYS_INSTANCE, SYS_INIT, SYS_INVARIANT } ast_sys_item_kind;

typedef struct ast_instance {
  const char *thread;  /* interned thread name */
  loc thread_at;       /* its span */
  ir_expr *count;      /* "[N]", or NULL for one instance */
  int64_t count_value; /* sema: number of instances */
  int thread_index;    /* sema: index in spec->threads, -1 if unresolved */
  int64_t first_tid;   /* sema: tid of its first instance */
} ast_instance;

typedef struct ast_sys_item {
  ast_sys_item_kind kind; /* which member is set */
  loc at;                 /* span of the item */
  ast_instance *instance; /* SYS_INSTANCE */
  ir_expr *expr;          /* SYS_INIT, SYS_INVARIANT */
} ast_sys_item;

typedef struct ast_system {
  const char *name;        /* interned */
  loc name_at;             /* span of the name */
  loc at;                  /* span of the whole system */
  VEC(ast_sys_item) items; /* in source order */
  uint32_t close_at;       /* offset of the closing brace */
} ast_system;

typedef enum ast_decl_kind { DECL_CONST, DECL_SHARED, DECL_THREAD, DECL_SYSTEM } ast_decl_kind;

typedef struct ast_decl {
  ast_decl_kind kind; /* which member is set */
  loc at;             /* span of the declaration */
  ast_const *konst;   /* DECL_CONST */
  ast_shared *shared; /* DECL_SHARED */
  ast_thread *thread; /* DECL_THREAD */
  ast_system *system; /* DECL_SYSTEM */
} ast_decl;

typedef struct ast_comment {
  loc at; /* span of the comment, delimiters included */
} ast_comment;

typedef struct ast_spec {
  arena *arena;                          /* owns everything below */
  diag_source *src;                      /* the text it was parsed from (owned by the spec) */
  VEC(ast_decl) decls;                   /* top-level declarations in source order */
  VEC(ast_comment) comments;             /* every comment, in order (for fmt) */
  VEC(ast_const *) consts;               /* sema: the consts, in order */
  VEC(ast_shared *) variables;           /* sema: the shared variables as declared (an array as one), in order */
  VEC(ast_shared *) shared;              /* sema: the cells (scalar variables and array elements), in order */
  VEC(ast_thread *) threads;             /* sema: the threads, in order */
  ast_system *system;                    /* sema: the system, or NULL */
  VEC(ast_instance *) instances;         /* sema: the instances composed (a default one per thread without a system) */
  VEC(ir_expr *) inits;                  /* sema: system init predicates */
  VEC(ir_expr *) properties;             /* sema: system invariants */
  int64_t instance_total;                /* sema: total number of instances (largest tid) */
  const struct sem_conj *initial;        /* semantics.h: sem_initial() */
  const struct sem_conj *idle;           /* semantics.h: sem_idle() */
  const struct sem_plans *initial_plans; /* semantics.h: sem_initial_plans() */
  const struct sem_checks *checks;       /* semantics.h: sem_system_checks() */
} ast_spec;

/* Looks a thread up by name (interned or not); NULL if absent. Borrowed. */
ast_thread *ast_find_thread(const ast_spec *spec, const char *name);
/* The const called name, or NULL. */
ast_const *ast_find_const(const ast_spec *spec, const char *name);
/* Looks a state up by name within a thread; NULL if absent. Borrowed. */
ast_state *ast_find_state(const ast_thread *thread, const char *name);

/* Appends an assignment as written: "x := e", "a[i] := *". */
void ast_print_assign(strbuf *out, const ast_assign *as);

/* Appends a location-free S-expression of the whole spec's syntax; two specs
 * have the same AST exactly when their dumps are equal. */
void ast_dump(strbuf *out, const ast_spec *spec);

/* ---------------------------------------------------------------- constructors
 * Used by the grammar actions; every result is arena-owned. */

ast_spec *ast_spec_new(diag_source *src);
void ast_add_const(ast_spec *s, loc at, const char *name, loc name_at, ir_expr *value);
void ast_add_shared(ast_spec *s, loc at, ast_type type, const char *name, loc name_at, ir_expr *size, ast_init init);
void ast_init_add(ast_spec *s, ast_init *init, ir_expr *value);
/* Binds the shared variable declared last to C global c_name (NULL: none). */
void ast_bind_shared(ast_spec *s, const char *c_name, loc at);
/* The C object a shared variable (or cell) stands for: its binding, its
 * name, or an element's path ("slots[2]"). */
const char *ast_c_name(const ast_shared *v);
ast_type ast_type_make(ast_type_kind kind, loc at, ir_expr *lo, ir_expr *hi);
ast_thread *ast_thread_new(ast_spec *s, const char *name, loc name_at);
void ast_add_thread(ast_spec *s, loc at, ast_thread *t, const char *impl, loc impl_at, uint32_t close_at);
void ast_thread_add_invariant(ast_spec *s, ast_thread *t, loc at, ir_expr *e);
ast_state_decl *ast_state_decl_new(ast_spec *s, const char *name, loc name_at);
void ast_state_decl_add(ast_spec *s, ast_state_decl *d, const char *name, loc name_at);
void ast_thread_add_states(ast_spec *s, ast_thread *t, loc at, bool initial, ast_state_decl *d, ir_expr *assertion);
ast_edge *ast_edge_new(ast_spec *s, ast_edge_kind kind);
void ast_edge_add_assign(ast_spec *s, ast_edge *e, ast_target target, ir_expr *value);
void ast_thread_add_edge(ast_spec *s, ast_thread *t, loc at, const char *from, loc from_at, const char *to, loc to_at,
                         const char *label, loc label_at, ast_edge *body);
ast_system *ast_system_new(ast_spec *s);
void ast_system_add_instance(ast_spec *s, ast_system *sys, loc at, const char *thread, loc thread_at, ir_expr *count);
void ast_system_add_expr(ast_spec *s, ast_system *sys, loc at, ast_sys_item_kind kind, ir_expr *e);
void ast_add_system(ast_spec *s, loc at, ast_system *sys, const char *name, loc name_at, uint32_t close_at);

/* True if s[0..n) is a keyword of the language. */
bool ast_is_keyword(const char *s, size_t n);

/* Calls visit on every top-level expression of the spec's syntax, in source
 * order (not on subexpressions). */
void ast_foreach_expr(const ast_spec *spec, void (*visit)(ir_expr *, void *), void *ctx);

#endif
