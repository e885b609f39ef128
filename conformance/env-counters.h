/* conformance/env-counters.h -- the workspace of ENV_FROM_COUNTERS
 * (environment.h): a Z3 context, the invariants' rows it can use, and the
 * conditions decided so far (env_counters_allow). Borrows the environment,
 * which must outlive it (its spec and invariants); free with
 * env_counters_free.
 */
#ifndef ATHREAD_ENV_COUNTERS_H
#define ATHREAD_ENV_COUNTERS_H

#include "environment.h"

typedef struct env_counters env_counters;

/* The workspace for e (ENV_FROM_COUNTERS, its moves listed). */
env_counters *env_counters_new(const conform_env *e);
void env_counters_free(env_counters *c);

#endif
