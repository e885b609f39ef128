/* compose/forall-param.h -- the const N of --for-all in a spec: what depends
 * on it and whether the counter abstraction applies (engine-forall.h declares
 * forall_applicable). Borrows the spec. */
#ifndef ATHREAD_FORALL_PARAM_H
#define ATHREAD_FORALL_PARAM_H

#include <stdbool.h>

#include "../spec-lang/ast.h"

/* The index of const name, or -1. */
int fa_const_index(const ast_spec *spec, const char *name);
/* Per const (owned array): its value is computed from const param (directly
 * or through other consts) and not fixed by --set. */
bool *fa_dependent_consts(const ast_spec *spec, int param);
/* x reads const param, or (depends non-NULL) a const that depends on it. */
bool fa_mentions(int param, const bool *depends, const ir_expr *x);
/* A range type whose bounds read const param (or a const that depends on it). */
bool fa_range_depends(const ast_type *ty, int param, const bool *depends);
/* Some thread's edge, state assertion or invariant, or some shared range,
 * reads const param (or a const computed from it). */
bool fa_threads_read(const ast_spec *spec, int param, const bool *depends);
/* The instance count of in is exactly const param. */
bool fa_counts_exactly(const ast_instance *in, int param);

#endif
