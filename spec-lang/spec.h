/* spec-lang/spec.h -- loading a .athread specification: parse, then check.
 *
 * Owns: the ast_spec returned by spec_load/spec_parse_source (its arena holds
 * the whole AST; it also owns its diag_source); free with spec_free.
 * Borrows: the diagnostics sink, which receives every error and warning.
 */
#ifndef ATHREAD_SPEC_H
#define ATHREAD_SPEC_H

#include <stdbool.h>
#include <stdint.h>

#include "ast.h"

/* A --set NAME=VALUE override from the command line. */
typedef struct spec_override {
  const char *name; /* const to override */
  int64_t value;    /* its new value */
  bool used;        /* set by sema when the const exists */
} spec_override;

typedef struct spec_options {
  spec_override *overrides; /* borrowed array, may be NULL */
  size_t override_count;    /* entries in overrides */
  bool warnings;            /* report warnings (unreachable states, dead edges) */
} spec_options;

/* Parses src (taking ownership of it). Returns the spec even when there were
 * syntax errors (check sink->errors); the caller frees it with spec_free. */
ast_spec *spec_parse_source(diag_source *src);

/* Name resolution, type checking and the derived tables (reference sections
 * 2-6). Reports through the spec's sink; returns true when there was no error. */
bool spec_check(ast_spec *spec, const spec_options *opts);

/* Reads, parses and checks path. Returns NULL after reporting any error.
 * Returns owned, free with spec_free. */
ast_spec *spec_load(diag_sink *sink, const char *path, const spec_options *opts);

/* The text spec was parsed from, parsed and checked again under opts (other
 * --set values), reporting through the same sink. NULL after reporting any
 * error. Returns owned, free with spec_free. */
ast_spec *spec_reload(const ast_spec *spec, const spec_options *opts);

/* Frees the spec, its arena and its source. NULL is fine. */
void spec_free(ast_spec *spec);

#endif
