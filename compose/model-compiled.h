/* compose/model-compiled.h -- a product's successors and checks as C: the
 * same plans as the interpreter of model-product.c, written out once per
 * model, compiled by the system's C compiler and loaded, so that a large
 * search spends its time in the model rather than in walking expressions.
 *
 * The generated code computes with core/ir-arith.h's ir_arith, whose text
 * the build embeds: the arithmetic has one definition. It emits the same
 * successors in the same order as the interpreter, and its check gives the
 * same answer (the interpreter then says why a state goes wrong). The
 * oracles compare the two (tests/cli.sh, ATHREAD_COMPILE).
 */
#ifndef ATHREAD_MODEL_COMPILED_H
#define ATHREAD_MODEL_COMPILED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../core/strbuf.h"
#include "../spec-lang/ast.h"
#include "model.h"

/* What the generator reads of a product (or of its counted view). */
typedef struct compiled_shape {
  const ast_spec *spec;  /* the threads, the system lines, the checks */
  const mdl_slot *slots; /* the state's slots: their domains */
  size_t width;          /* how many */
  const int *first;      /* per thread: its first instance's slot, or its first count's */
  const bool *counted;   /* per thread: its instances are counted */
} compiled_shape;

typedef struct compiled_model compiled_model;
typedef struct compiled_job compiled_job;

/* Appends the C of the shape's successor function and check. */
void compiled_source(const compiled_shape *sh, strbuf *out);
/* Writes the shape's C in a fresh directory under TMPDIR and starts the
 * compiler on it (ATHREAD_CC, else cc), which runs while the caller goes on;
 * NULL with the reason in why when that fails. End the job with
 * compiled_finish once compiled_done, or with compiled_cancel. */
compiled_job *compiled_start(const compiled_shape *sh, char *why, size_t why_size);
/* Whether the compiler has exited; with wait, once it has. */
bool compiled_done(compiled_job *j, bool wait);
/* Loads what the compiler wrote (after compiled_done), removes its files
 * and frees j; NULL with the reason in why when compiling or loading failed.
 * Free the model with compiled_free. */
compiled_model *compiled_finish(compiled_job *j, char *why, size_t why_size);
/* Stops the compiler (with the processes it started), removes its files and
 * frees j; nothing for NULL. */
void compiled_cancel(compiled_job *j);
void compiled_free(compiled_model *c);
/* mdl_next_all's contract, for the model the shape is of. */
void compiled_next_all(const compiled_model *c, const int64_t *src, mdl_next_fn fn, void *ctx, mdl_fault *fault);
/* Whether no check fails in state (faults as mdl_check records them). */
bool compiled_check(const compiled_model *c, const int64_t *state, mdl_fault *fault);

#endif
