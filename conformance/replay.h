/* conformance/replay.h -- re-checking a counterexample of C(T, T#) without
 * Z3: walking its edges from the entry with the values the engine reported,
 * each edge's action evaluated by prog_eval (the same arithmetic as the
 * code's C semantics, ir_c_arith), so that a trace that does not follow the
 * program is never reported as a violation.
 *
 * Borrows the program and the result.
 */
#ifndef ATHREAD_REPLAY_H
#define ATHREAD_REPLAY_H

#include <stdbool.h>
#include <stddef.h>

#include "prog.h"
#include "result.h"

/* True when r's trace starts at the entry, follows edges of ins, every
 * assignment gives its variable the value of its expression, every havoc
 * stays within the variable's bounds, every assume and every assertion but
 * the last holds, and the last edge is an assertion that fails. A value
 * that prog_eval cannot compute (beyond 64 bits) is not checked. On false,
 * why says where the trace left the program. */
bool replay_trace(const prog *ins, const conform_result *r, char *why, size_t size);

#endif
