/* spec-lang/sema.h -- checking context shared by the two halves of sema
 * (declarations in sema.c, expressions in sema-expr.c). Private to spec-lang/.
 *
 * Borrows the spec and options for one spec_check call; owns the symbol
 * tables (freed by sema_fini).
 */
#ifndef ATHREAD_SEMA_H
#define ATHREAD_SEMA_H

#include "../core/symtab.h"
#include "spec.h"

typedef struct sema {
  ast_spec *spec;           /* being checked */
  const diag_source *src;   /* its text, for messages */
  const spec_options *opts; /* borrowed */
  symtab globals;           /* const and shared names -> sema_global_code */
  symtab threads;           /* thread name -> index in spec->threads */
  symtab instances;         /* thread name -> index in spec->instances, or SEMA_INVALID_INSTANCE */
  symtab c_names;           /* C object path (interned) -> the cell that stands for it */
  int consts_ready;         /* consts [0, consts_ready) have their values */
  VEC(ir_expr *) binders;   /* the quantifiers whose bodies enclose the expression being checked, outermost first */
  int binder_count;         /* quantifiers numbered so far (binder numbers) */
  int64_t *bound;           /* while expanding: the value of each binder number in scope */
  size_t expanded;          /* while expanding: nodes made so far */
} sema;

/* Marks a thread listed in the system with an invalid instance count. */
#define SEMA_INVALID_INSTANCE 0x7fffffff

/* The rules that hold where an expression stands. */
typedef struct expr_rules {
  const char *where;  /* "a guard", "a range bound", ... for messages */
  bool constant;      /* only literals and consts */
  bool primes;        /* x' allowed (relations) */
  bool tid;           /* tid allowed (inside a thread) */
  bool count;         /* count(T@S) and T[i]@S allowed (system invariants) */
  bool static_index;  /* array indices must be constants or quantified variables (system init predicates) */
  bool in_index;      /* the expression is an array index */
  ast_thread *thread; /* the thread the expression belongs to, or NULL */
} expr_rules;

/* Code stored in sema.globals: consts are 2i, shared variables 2i+1 (i their
 * position in spec->variables). */
#define SEMA_CONST_CODE(i) (2 * (i))
#define SEMA_SHARED_CODE(i) (2 * (i) + 1)

/* Resolves and types e in place; reports errors. Returns e's type, or TY_NONE
 * after an error inside it. */
ir_type sema_expr(sema *s, const expr_rules *r, ir_expr *e);
/* Resolves and types the array element e (IR_INDEX); primes_ok says whether
 * e itself may be primed (its index never may). Returns the element type. */
ir_type sema_index(sema *s, const expr_rules *r, ir_expr *e, bool primes_ok);
/* sema_expr, then a report unless the type is want. Returns true if it is. */
bool sema_expr_typed(sema *s, const expr_rules *r, ir_expr *e, ir_type want);
/* True when e (already checked) reads no shared state, tid or instance state. */
bool sema_is_constant(const ir_expr *e);
/* Like sema_is_constant, but quantified variables count as constants. */
bool sema_is_static(const ir_expr *e);
/* Evaluates a checked constant expression (quantified variables read
 * s->bound); reports overflow and returns false. */
bool sema_eval(sema *s, const ir_expr *e, int64_t *out);
/* Checks e as a constant int expression and evaluates it. */
bool sema_const_int(sema *s, const char *where, ir_expr *e, int64_t *out);

const char *sema_type_name(ir_type t);
/* Writes "; did you mean 'X'?" into hint (or "") for the state, thread or const
 * name closest to name. */
void sema_hint_state(char hint[96], const ast_thread *t, const char *name);
void sema_hint_thread(char hint[96], const ast_spec *spec, const char *name);
void sema_hint_const(char hint[96], const ast_spec *spec, const char *name);
/* Adds a note for every const in e whose value came from --set. */
void sema_note_overrides(sema *s, const ir_expr *e);

#endif
