/* infer/draft.h -- an abstract thread drafted from a thread's concrete
 * program (cfront's lowering), the first step of athread infer.
 *
 * A state stands for a step boundary of the code together with what the
 * locals hold there: a constant (a loop counter), or a value read from
 * shared memory, kept as the expression it was read as, as if no other
 * thread changed those variables since (conform checks whether the code
 * keeps to that; a value whose variables the thread itself wrote since is
 * forgotten). With too many states, the values read are forgotten too
 * (then they are '*'), and then the constants. Each path of a step
 * becomes an edge: its guard is what the path assumes about the shared
 * variables, its assignments what it writes to them, `*` where the value
 * depends on a forgotten local. Edges that neither test nor change shared
 * memory are folded into their target (the idle step simulates them).
 *
 * The draft is a candidate, not a proof: athread conform checks it against
 * the code. Owns: its arena; free with inf_draft_free. Borrows the prog
 * and the spec (the draft's names are the spec's shared variables).
 */
#ifndef ATHREAD_INFER_DRAFT_H
#define ATHREAD_INFER_DRAFT_H

#include <stdbool.h>

#include "../conformance/prog.h"
#include "../core/strbuf.h"
#include "../spec-lang/ast.h"

typedef struct inf_assign {
  int shared;           /* the cell written: index in spec->shared */
  const ir_expr *value; /* over the shared variables before the step; NULL for '*' */
} inf_assign;

typedef struct inf_edge {
  int from, to;           /* state indices */
  const char *label;      /* the step's C statement, or NULL */
  prog_origin origin;     /* where that statement is */
  const ir_expr *guard;   /* what the path assumes, or NULL for true */
  VEC(inf_assign) writes; /* in cell order */
  bool dropped;           /* merged into an earlier edge */
} inf_edge;

typedef struct inf_state {
  const char *name;       /* unique within the draft */
  int loc;                /* the boundary of the code it stands for */
  const ir_expr **kept;   /* per variable of the prog: the value a local holds here (over the shared
                           variables as they are now), or NULL */
  const char **kept_text; /* the same, printed (the state's identity) */
  int merged_into;        /* folded into that state, or -1 */
} inf_state;

typedef struct inf_draft {
  arena *arena;          /* owns everything below */
  VEC(inf_state) states; /* states[0] is the initial one */
  VEC(inf_edge) edges;   /* in the order found */
  const char *why_not;   /* set when no draft was made: the reason */
} inf_draft;

/* Drafts the abstract thread of p's code over spec's shared variables.
 * When the code is beyond the drafter (arrays, too many states or paths),
 * why_not says why and the draft has no states. Returns owned, free with
 * inf_draft_free. */
inf_draft *inf_draft_thread(const prog *p, const ast_spec *spec);
void inf_draft_free(inf_draft *d);

/* Whether o lies in athread's models of the C library (the bodies of
 * pthread_mutex_lock and the like): a call there names a step better. */
bool inf_in_models(const prog *p, prog_origin o);

/* Appends the thread's body (states and edges, two-space indented lines)
 * in the spec language. */
void inf_draft_print(const inf_draft *d, const ast_spec *spec, strbuf *out);

#endif
