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
#include "result.h"

/* Compiles the system: slots for the shared variables (in declaration order)
 * then one per instance (in tid order); every edge compiled into a plan that
 * computes deterministic updates and enumerates finite choices; with
 * symmetry, one group per symmetric thread with several instances. Reports
 * what cannot be explored state by state (a choice over an unbounded int, an
 * integer literal beyond 64 bits) through the spec's sink and returns NULL. */
mdl *product_build(const ast_spec *spec, bool symmetry);

/* The counted view of m, a product built with symmetry, for the explicit
 * engine: the same system with the instances of each symmetry group stored
 * as one count per control state (a state is the shared values and the
 * counts) and one step per (control state that counts some, edge), so that
 * a state costs the same for any number of instances. Its steps name the
 * count an instance leaves (mdl_step.slot); it declares no groups (no
 * sorting is needed) and has no symbolic face. NULL when m has no groups.
 * Borrows m, which must outlive it; free with mdl_free. */
mdl *product_counted(const mdl *m);

/* Rewrites r, the unsafe result of a search over view (product_counted),
 * into the terms of the product it views: a trace of real instances (of
 * each counted step, the least numbered instance in the count it leaves)
 * and its violation. The trace is checked step by step on the product;
 * when it does not replay (an internal error), r becomes unknown with the
 * reason. Other verdicts are left alone. */
void product_uncount(const mdl *view, compose_result *r);

/* The same model for checking states and steps only (mdl_check,
 * mdl_initial_holds, mdl_step_holds, descriptions): nothing is compiled for
 * enumeration, so any spec is accepted; mdl_initial and mdl_next_all must not
 * be called on it. Returns owned, free with mdl_free. */
mdl *product_build_checker(const ast_spec *spec);

/* The provider's symbolic face (model-product-smt.c): m is a product of
 * spec. Engines call mdl_symbolic_new. */
mdl_symbolic *product_symbolic(const mdl *m, const ast_spec *spec, smt *s);

#endif
