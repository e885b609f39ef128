/* compose/model-product.h -- the product of a spec's abstract threads as a
 * model behind the next-state interface (compose/model.h).
 *
 * Borrows the checked spec, which must outlive the model; owns everything
 * else (free with mdl_free).
 */
#ifndef ATHREAD_MODEL_PRODUCT_H
#define ATHREAD_MODEL_PRODUCT_H

#include "../spec-lang/spec.h"
#include "model.h"

/* Compiles the system: slots for the shared variables (in declaration order)
 * then one per instance (in tid order); every edge compiled into a plan that
 * computes deterministic updates and enumerates finite choices; with
 * symmetry, one group per symmetric thread with several instances. Reports
 * what cannot be explored state by state (a choice over an unbounded int, an
 * integer literal beyond 64 bits) through the spec's sink and returns NULL. */
mdl *product_build(const ast_spec *spec, bool symmetry);

/* The same model for checking states and steps only (mdl_check,
 * mdl_initial_holds, mdl_step_holds, descriptions): nothing is compiled for
 * enumeration, so any spec is accepted; mdl_initial and mdl_next_all must not
 * be called on it. Returns owned, free with mdl_free. */
mdl *product_build_checker(const ast_spec *spec);

/* The provider's symbolic face (model-product-smt.c): m is a product of
 * spec. Engines call mdl_symbolic_new. */
mdl_symbolic *product_symbolic(const mdl *m, const ast_spec *spec, smt *s);

#endif
