/* athread/models/gcc.h -- GCC's atomic builtins on int objects: the legacy
 * __sync_* family and the __atomic_* family (memory orders are ignored:
 * every step is sequentially consistent). Each operation is one atomic step
 * on the int cell bound to the object.
 *
 * - __sync_fetch_and_add/sub(p, v): adds (subtracts) v, gives the value
 *   before; __sync_add/sub_and_fetch(p, v): gives the value after.
 * - __sync_bool_compare_and_swap(p, old, new): if *p == old, stores new and
 *   gives 1, else 0; __sync_val_compare_and_swap gives the value before.
 * - __sync_lock_test_and_set(p, v): stores v, gives the value before;
 *   __sync_lock_release(p): stores 0; __sync_synchronize(): nothing.
 * - __atomic_load_n(p, order), __atomic_store_n(p, v, order),
 *   __atomic_exchange_n(p, v, order), __atomic_fetch_add/sub(p, v, order),
 *   __atomic_add/sub_fetch(p, v, order),
 *   __atomic_compare_exchange_n(p, expected, desired, weak, success, failure):
 *   as atomic_compare_exchange_strong (weak nonzero: may fail spuriously);
 *   __atomic_thread_fence(order): nothing.
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

/* ---------------------------------------------------------------- __sync */

int athread_model___sync_fetch_and_add(int *p, int v) { return athread_fetch_add(p, v); }
int athread_model___sync_fetch_and_sub(int *p, int v) { return athread_fetch_add(p, -v); }
int athread_model___sync_add_and_fetch(int *p, int v) { return athread_add_fetch(p, v); }
int athread_model___sync_sub_and_fetch(int *p, int v) { return athread_add_fetch(p, -v); }
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
void athread_model___atomic_thread_fence(int order) {}

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

#endif
