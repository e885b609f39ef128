/* conformance/instrument.h -- the sequential conformance program C(T, T#).
 *
 * Builds, from a concrete thread (a prog from the C front end) and its
 * abstract thread, the program of reference section 8 (paper section 3.1):
 * a Boolean candidate map F over T#'s states, the environment before every
 * step (environment.h: any number of other instances' moves from a state
 * the spec's initial predicates allow, or the paper's havoc), the
 * candidates' assertions assumed, u := g
 * before each step, the range checks, the F update and its nonempty check
 * after each step, and the check at exit. Returns owned, free with prog_free;
 * the result borrows the concrete program's expressions and files, so free it
 * first. Its size is linear in the code and quadratic in T#'s states.
 */
#ifndef ATHREAD_INSTRUMENT_H
#define ATHREAD_INSTRUMENT_H

#include "../spec-lang/ast.h"
#include "environment.h"
#include "prog.h"

/* initial_checked: the C program's initial shared state is known to be one
 * of the spec's (initial.h), so C(T, T#) may start from the spec's initial
 * states (a move environment needs that; otherwise it starts anywhere). */
prog *ins_build(const prog *code, const ast_spec *spec, const ast_thread *thread, const conform_env *env,
                bool initial_checked);

/* A state probe: that T# is never in state q while the code is at a
 * location (with the shared variables at given values). */
typedef struct ins_state_probe {
  int location;          /* a boundary of the code: probed after the environment's moves, before its step */
  int state;             /* q */
  const int64_t *shared; /* the values of the spec's shared variables, or NULL: any values */
  const ir_expr *when;   /* or a condition on them (a spec expression), or NULL: any values */
} ins_state_probe;

/* The probes C(T, T#) asserts besides its own checks. */
typedef struct ins_probes {
  const bool *edges;             /* per edge k of T#, or NULL: after every step, assert (CHECK_EDGE_UNUSED, detail
                                    k) that k does not simulate it, !(F_from && its relation over (u, g)) */
  const ins_state_probe *states; /* state probes, or NULL: assert (CHECK_STATE_UNUSED, detail k) for each k with
                                    asked[k] !(F_q && g == shared && when) */
  const bool *asked;             /* per state probe */
  size_t state_count;            /* state probes */
} ins_probes;

/* C(T, T#) with probes. On a thread that conforms, the probes are the only
 * assertions that can fail; none changes what the program can reach. */
prog *ins_build_probed(const prog *code, const ast_spec *spec, const ast_thread *thread, const conform_env *env,
                       bool initial_checked, const ins_probes *probes);

#endif
