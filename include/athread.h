/* athread.h -- verification builtins for C code checked by `athread conform`
 * (docs/language.md, section 10).
 *
 * athread's C front end preprocesses user code with this directory first on
 * the include path and defines __ATHREAD__; it gives these names their
 * verification meaning. Compiled by an ordinary C compiler (no __ATHREAD__),
 * the same code still builds: the builtins become plain declarations that a
 * test harness can define, and `atomic { ... }` becomes an ordinary block.
 */
#ifndef ATHREAD_BUILTINS_H
#define ATHREAD_BUILTINS_H

#include <stdbool.h>

/* assume(e): executions where e is false are not considered. */
void assume(int condition);
void __VERIFIER_assume(int condition);
/* await(e): blocks until e holds; for one step the same as assume(e). */
void await(int condition);

/* Nondeterministic values of each scalar type. */
int nondet(void);
int __VERIFIER_nondet_int(void);
unsigned __VERIFIER_nondet_uint(void);
long __VERIFIER_nondet_long(void);
unsigned long __VERIFIER_nondet_ulong(void);
short __VERIFIER_nondet_short(void);
char __VERIFIER_nondet_char(void);
_Bool __VERIFIER_nondet_bool(void);

/* An atomic section: everything between the two calls is one step. Functions
 * whose names start with __VERIFIER_atomic_ are atomic as a whole. */
void __VERIFIER_atomic_begin(void);
void __VERIFIER_atomic_end(void);

/* atomic { ... }: the block is one step. The macro is empty: athread's
 * front end sees its use right before the block; an ordinary compiler sees
 * a block. */
#define atomic

/* assert(e): a check, not a step. Under athread it is a builtin (the
 * C library's macro would hide it); elsewhere it is the C library's. */
#ifdef __ATHREAD__
void assert(int condition);
#else
#include <assert.h>
#endif

#endif
