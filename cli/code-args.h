/* cli/code-args.h -- the C side of a command line, shared by conform, check
 * and review: --thread THREAD=FUNCTION bindings, the -I/-D/-U flags for the
 * preprocessor, where athread.h is installed, and which C function
 * implements each thread of a spec.
 *
 * A cli_code_args owns its flags' text and borrows the bindings' (argv's);
 * free with cli_code_args_free. cli_include_dir returns an owned string.
 */
#ifndef ATHREAD_CLI_CODE_ARGS_H
#define ATHREAD_CLI_CODE_ARGS_H

#include <stdbool.h>

#include "../core/diag.h"
#include "../core/vec.h"
#include "../conformance/atomicity.h"
#include "../spec-lang/ast.h"

typedef struct cli_binding {
  const char *thread;   /* the thread's name as given */
  const char *function; /* its C function */
} cli_binding;

typedef struct cli_code_args {
  VEC(cli_binding) bindings; /* --thread T=func, in the order given */
  VEC(const char *) cpp;     /* "-I...", "-D...", "-U..." for the preprocessor (owned) */
} cli_code_args;

/* Takes --thread's "THREAD=FUNCTION" (arg is split in place); false when it
 * is not of that form. */
bool cli_take_binding(cli_code_args *c, char *arg);
/* Takes -I, -D or -U (flag) with its value. */
void cli_take_cpp_flag(cli_code_args *c, char flag, const char *value);
/* The directory of athread.h: $ATHREAD_INCLUDE, else the include/ beside
 * the binary's (a build tree or an installed prefix), else the prefix built
 * in. Returns owned. */
const char *cli_include_dir(void);
/* Whether path names a spec (ends in .athread) rather than C code. */
bool cli_is_spec_path(const char *path);
/* --atomicity's value: "statement" or "access"; false for anything else. */
bool cli_atomicity_of(const char *name, conform_atomicity *out);
/* Sets function[i] for each thread i of spec: its --thread binding, else its
 * 'implements' clause, else NULL. False after reporting a binding that names
 * no thread of spec (spec_path names it). */
bool cli_resolve_bindings(diag_sink *sink, const cli_code_args *c, const char *spec_path, const ast_spec *spec,
                          const char **function);
void cli_code_args_free(cli_code_args *c);

#endif
