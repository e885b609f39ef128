/* spec-lang/properties.h -- the properties a spec states, each with a stable
 * ID (as CBMC's --show-properties): "system.invariant.K" for the K-th system
 * invariant, "T.invariant.K" for thread T's K-th invariant clause and
 * "T.assert.K" for its K-th state assertion (a declaration "state A, B
 * assert e" states one). "system" is a keyword, so no thread shares it.
 *
 * Borrows the checked spec; the expressions passed on are the spec's.
 */
#ifndef ATHREAD_PROPERTIES_H
#define ATHREAD_PROPERTIES_H

#include <stdbool.h>

#include "../core/strbuf.h"
#include "ast.h"

typedef enum spec_property_kind { PROPERTY_SYSTEM_INVARIANT, PROPERTY_THREAD_INVARIANT, PROPERTY_ASSERTION } spec_property_kind;

typedef struct spec_property {
  const char *id;           /* "Worker.assert.1" (valid during the callback) */
  spec_property_kind kind;  /* what states it */
  const ir_expr *expr;      /* the formula, as written */
  const ast_thread *thread; /* the thread it belongs to; NULL for a system invariant */
} spec_property;

typedef void (*spec_property_fn)(void *ctx, const spec_property *p);

/* Calls fn on every property of spec: the system invariants, then each
 * thread's invariants and assertions, in source order. */
void spec_properties_each(const ast_spec *spec, spec_property_fn fn, void *ctx);
/* Appends the ID of the property whose formula is e (an assertion or an
 * invariant of spec, by identity) to out; false when e is none. */
bool spec_property_id(const ast_spec *spec, const ir_expr *e, strbuf *out);
/* Keeps, of the checks the spec's properties give (sem_state_checks,
 * sem_system_checks, so every engine and export), those of the properties
 * ids names, with the index checks inside them; the checks of the edges
 * (indices, conflicting writes) stay. An ID that names no property is
 * reported to sink (with the nearest ID) and the result is false. */
bool spec_select_properties(ast_spec *spec, const char *const *ids, size_t n, diag_sink *sink);
/* "assertion", "thread invariant" or "system invariant". */
const char *spec_property_kind_name(spec_property_kind k);

#endif
