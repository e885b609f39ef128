/* compose/forall-counters.h -- the counter abstraction behind --for-all, as
 * a symbolic system (compose/symbolic.h).
 *
 * A state is one Z3 constant per slot: the shared variables (Int or Bool),
 * the explicit instances' control states (Int), one counter per state of
 * every counted thread (Int >= 0, summing to N), and N itself (Int >= 1,
 * never changed). A counted step takes a state S with c_S > 0 and an edge
 * S -> S' of the thread: c_S--, c_S'++, the shared part as the edge's meaning
 * (sem_edge, through edge-smt.h). For threads that do not use tid and are not
 * named by index (forall_applicable) this is exact under interleaving
 * semantics, so a proof of this system is a proof for every N. N's value in
 * the spec is not used: every expression that mentions N (or a const defined
 * from it) is rewritten to read the symbolic N.
 *
 * Borrows the spec and the smt (both must outlive it); free with
 * fa_counters_free.
 */
#ifndef ATHREAD_FORALL_COUNTERS_H
#define ATHREAD_FORALL_COUNTERS_H

#include "../core/smt-print.h"
#include "../spec-lang/spec.h"
#include "engine-forall.h"
#include "symbolic.h"

typedef struct fa_counters fa_counters;

/* The counter system of spec with param as N (forall_applicable held). */
fa_counters *fa_counters_new(const ast_spec *spec, const char *param, smt *s);
void fa_counters_free(fa_counters *c);

/* The system; its control slots are the explicit instances. */
const sym_system *fa_system(const fa_counters *c);
/* N in state v. */
Z3_ast fa_param_of(const fa_counters *c, Z3_ast *v);
/* How each constant of fa_named_state's state prints in the spec's syntax
 * (smt_print_conjuncts): its name, an explicit instance as "Stopper[1]"
 * with its thread's states. Returns owned; free with fa_leaves_free. */
smt_leaf *fa_leaves(const fa_counters *c, const Z3_ast *named, size_t *count);
void fa_leaves_free(smt_leaf *leaves, size_t count);
/* A state of constants named by the slots alone ("pendingIO", "Stopper",
 * "count(Worker@Work)", "N"), for a readable certificate (owned array). */
Z3_ast *fa_named_state(const fa_counters *c);

/* Guesses affine invariants of the system (forall-hull.h) within the
 * deadline; while fa_use_hints is on, the system's domains include them. */
void fa_guess_hints(fa_counters *c, double deadline);
void fa_use_hints(fa_counters *c, bool on);
/* The hints found by fa_guess_hints as forall_invariants (owned by inv:
 * forall_invariants_free). */
void fa_export_hints(const fa_counters *c, forall_invariants *inv);

/* "Worker[N]" and "Stopper, Reader[2]": the counted instances and the
 * others (owned texts). */
void fa_describe(const fa_counters *c, char **counted, char **others);

#endif
