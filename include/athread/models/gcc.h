/* athread/models/gcc.h -- GCC's atomic builtins on int objects: the legacy
 * __sync_* family and the __atomic_* family. Each operation is one atomic
 * step on the int cell bound to the object; memory is sequentially
 * consistent, so the memory-order arguments (__ATOMIC_RELAXED ...
 * __ATOMIC_SEQ_CST) are evaluated and ignored: a program that is correct
 * only under sequential consistency conforms here even if it relies on a
 * weaker order being stronger. An operand object of another type than int
 * (long, unsigned, char, a pointer) is an error at the call.
 *
 * - __sync_fetch_and_OP(p, v) for OP add, sub, and, or, xor, nand: does
 *   *p = *p OP v (nand: ~(*p & v)), gives the value before;
 *   __sync_OP_and_fetch(p, v): gives the value after.
 * - __sync_bool_compare_and_swap(p, old, new): if *p == old, stores new and
 *   gives 1, else 0; __sync_val_compare_and_swap gives the value before.
 * - __sync_lock_test_and_set(p, v): stores v, gives the value before;
 *   __sync_lock_release(p): stores 0; __sync_synchronize(): nothing.
 * - __atomic_load_n(p, order), __atomic_store_n(p, v, order),
 *   __atomic_exchange_n(p, v, order), __atomic_fetch_OP(p, v, order) and
 *   __atomic_OP_fetch(p, v, order) for the same OPs,
 *   __atomic_compare_exchange_n(p, expected, desired, weak, success, failure):
 *   as atomic_compare_exchange_strong (weak nonzero: may fail spuriously);
 *   __atomic_thread_fence(order), __atomic_signal_fence(order): nothing.
 * - The generic forms take pointers to the values: __atomic_load(p, ret,
 *   order) (*ret = the value), __atomic_store(p, val, order),
 *   __atomic_exchange(p, val, ret, order), __atomic_compare_exchange(p,
 *   expected, desired, weak, success, failure); only the access to *p is
 *   atomic, the reads of *val and *desired and the write of *ret are steps
 *   of their own.
 * - __atomic_test_and_set(p, order) on a bool object: sets it, gives the
 *   value before; __atomic_clear(p, order): clears it.
 *
 * clang keeps most __atomic_* calls as AtomicExpr nodes, not calls; the C
 * front end reads them as calls of these models (cfront/translate-expr.c).
 */
#ifndef ATHREAD_MODELS_GCC_H
#define ATHREAD_MODELS_GCC_H

#include "state.h"

/* *p += v in one step; gives the value before. */
static int athread_fetch_add(int *p, int v) {
  int old;
  __VERIFIER_atomic_begin();
  old = *p;
  *p = old + v;
  __VERIFIER_atomic_end();
  return old;
}

/* *p += v in one step; gives the value after. */
static int athread_add_fetch(int *p, int v) {
  int now;
  __VERIFIER_atomic_begin();
  now = *p + v;
  *p = now;
  __VERIFIER_atomic_end();
  return now;
}

/* *p := v in one step; gives the value before. */
static int athread_exchange(int *p, int v) {
  int old;
  __VERIFIER_atomic_begin();
  old = *p;
  *p = v;
  __VERIFIER_atomic_end();
  return old;
}

/* The bitwise read-modify-writes: *p = *p OP v in one step; each gives the
 * value before (the value after is old OP v). */
static int athread_fetch_and(int *p, int v) {
  int old;
  __VERIFIER_atomic_begin();
  old = *p;
  *p = old & v;
  __VERIFIER_atomic_end();
  return old;
}

static int athread_fetch_or(int *p, int v) {
  int old;
  __VERIFIER_atomic_begin();
  old = *p;
  *p = old | v;
  __VERIFIER_atomic_end();
  return old;
}

static int athread_fetch_xor(int *p, int v) {
  int old;
  __VERIFIER_atomic_begin();
  old = *p;
  *p = old ^ v;
  __VERIFIER_atomic_end();
  return old;
}

static int athread_fetch_nand(int *p, int v) {
  int old;
  __VERIFIER_atomic_begin();
  old = *p;
  *p = ~(old & v);
  __VERIFIER_atomic_end();
  return old;
}

/* ---------------------------------------------------------------- __sync */

int athread_model___sync_fetch_and_add(int *p, int v) { return athread_fetch_add(p, v); }
int athread_model___sync_fetch_and_sub(int *p, int v) { return athread_fetch_add(p, -v); }
int athread_model___sync_add_and_fetch(int *p, int v) { return athread_add_fetch(p, v); }
int athread_model___sync_sub_and_fetch(int *p, int v) { return athread_add_fetch(p, -v); }
int athread_model___sync_fetch_and_and(int *p, int v) { return athread_fetch_and(p, v); }
int athread_model___sync_fetch_and_or(int *p, int v) { return athread_fetch_or(p, v); }
int athread_model___sync_fetch_and_xor(int *p, int v) { return athread_fetch_xor(p, v); }
int athread_model___sync_fetch_and_nand(int *p, int v) { return athread_fetch_nand(p, v); }
int athread_model___sync_and_and_fetch(int *p, int v) { return athread_fetch_and(p, v) & v; }
int athread_model___sync_or_and_fetch(int *p, int v) { return athread_fetch_or(p, v) | v; }
int athread_model___sync_xor_and_fetch(int *p, int v) { return athread_fetch_xor(p, v) ^ v; }
int athread_model___sync_nand_and_fetch(int *p, int v) { return ~(athread_fetch_nand(p, v) & v); }
int athread_model___sync_lock_test_and_set(int *p, int v) { return athread_exchange(p, v); }
void athread_model___sync_lock_release(int *p) { *p = 0; }
void athread_model___sync_synchronize(void) {}

int athread_model___sync_bool_compare_and_swap(int *p, int old, int new_value) {
  int done;
  __VERIFIER_atomic_begin();
  done = *p == old;
  if (done) *p = new_value;
  __VERIFIER_atomic_end();
  return done;
}

int athread_model___sync_val_compare_and_swap(int *p, int old, int new_value) {
  int before;
  __VERIFIER_atomic_begin();
  before = *p;
  if (before == old) *p = new_value;
  __VERIFIER_atomic_end();
  return before;
}

/* ---------------------------------------------------------------- __atomic */

int athread_model___atomic_load_n(int *p, int order) { return *p; }
void athread_model___atomic_store_n(int *p, int v, int order) { *p = v; }
int athread_model___atomic_exchange_n(int *p, int v, int order) { return athread_exchange(p, v); }
int athread_model___atomic_fetch_add(int *p, int v, int order) { return athread_fetch_add(p, v); }
int athread_model___atomic_fetch_sub(int *p, int v, int order) { return athread_fetch_add(p, -v); }
int athread_model___atomic_add_fetch(int *p, int v, int order) { return athread_add_fetch(p, v); }
int athread_model___atomic_sub_fetch(int *p, int v, int order) { return athread_add_fetch(p, -v); }
int athread_model___atomic_fetch_and(int *p, int v, int order) { return athread_fetch_and(p, v); }
int athread_model___atomic_fetch_or(int *p, int v, int order) { return athread_fetch_or(p, v); }
int athread_model___atomic_fetch_xor(int *p, int v, int order) { return athread_fetch_xor(p, v); }
int athread_model___atomic_fetch_nand(int *p, int v, int order) { return athread_fetch_nand(p, v); }
int athread_model___atomic_and_fetch(int *p, int v, int order) { return athread_fetch_and(p, v) & v; }
int athread_model___atomic_or_fetch(int *p, int v, int order) { return athread_fetch_or(p, v) | v; }
int athread_model___atomic_xor_fetch(int *p, int v, int order) { return athread_fetch_xor(p, v) ^ v; }
int athread_model___atomic_nand_fetch(int *p, int v, int order) { return ~(athread_fetch_nand(p, v) & v); }
void athread_model___atomic_thread_fence(int order) {}
void athread_model___atomic_signal_fence(int order) {}

bool athread_model___atomic_test_and_set(bool *p, int order) {
  bool old;
  __VERIFIER_atomic_begin();
  old = *p;
  *p = true;
  __VERIFIER_atomic_end();
  return old;
}

void athread_model___atomic_clear(bool *p, int order) { *p = false; }

int athread_model___atomic_compare_exchange_n(int *p, int *expected, int desired, int weak, int success,
                                              int failure) {
  int done;
  __VERIFIER_atomic_begin();
  if (*p == *expected && (!weak || __VERIFIER_nondet_bool())) {
    *p = desired;
    done = 1;
  } else {
    *expected = *p;
    done = 0;
  }
  __VERIFIER_atomic_end();
  return done;
}

/* The generic forms: the values through pointers, read and written in steps of their own. */

void athread_model___atomic_load(int *p, int *ret, int order) {
  int v = *p;
  *ret = v;
}

void athread_model___atomic_store(int *p, int *val, int order) {
  int v = *val;
  *p = v;
}

void athread_model___atomic_exchange(int *p, int *val, int *ret, int order) {
  int v = *val;
  int old = athread_exchange(p, v);
  *ret = old;
}

int athread_model___atomic_compare_exchange(int *p, int *expected, int *desired, int weak, int success,
                                            int failure) {
  int v = *desired;
  return athread_model___atomic_compare_exchange_n(p, expected, v, weak, success, failure);
}

#endif
