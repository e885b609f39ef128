/* athread/models/stdatomic.h -- C11 atomic operations on atomic integers
 * (atomic_int, atomic_long, ...: athread's <stdatomic.h> makes them their
 * integer types). Each operation is one atomic step on the int cell bound to
 * the object (`shared int hits binds hits;` for `atomic_int hits;`); the
 * _explicit forms take a memory order, which athread ignores (every step is
 * sequentially consistent).
 *
 * - atomic_load(p): the value; atomic_store(p, v): stores v.
 * - atomic_fetch_add(p, v), atomic_fetch_sub(p, v): adds (subtracts) v and
 *   gives the value before.
 * - atomic_exchange(p, v): stores v and gives the value before.
 * - atomic_compare_exchange_strong(p, expected, desired): if *p equals
 *   *expected, stores desired and gives 1; else copies *p into *expected and
 *   gives 0. The _weak form may also fail spuriously (give 0, copying *p,
 *   although they were equal).
 * - atomic_thread_fence, atomic_signal_fence: nothing.
 *
 * atomic_bool and atomic_flag are not modelled (their objects are bools).
 */
#ifndef ATHREAD_MODELS_STDATOMIC_H
#define ATHREAD_MODELS_STDATOMIC_H

#include <stdatomic.h>

#include "state.h"

int athread_model_atomic_load(atomic_int *object) { return *object; }

int athread_model_atomic_load_explicit(atomic_int *object, memory_order order) { return *object; }

void athread_model_atomic_store(atomic_int *object, int desired) { *object = desired; }

void athread_model_atomic_store_explicit(atomic_int *object, int desired, memory_order order) { *object = desired; }

int athread_model_atomic_fetch_add(atomic_int *object, int operand) {
  int old;
  __VERIFIER_atomic_begin();
  old = *object;
  *object = old + operand;
  __VERIFIER_atomic_end();
  return old;
}

int athread_model_atomic_fetch_add_explicit(atomic_int *object, int operand, memory_order order) {
  return athread_model_atomic_fetch_add(object, operand);
}

int athread_model_atomic_fetch_sub(atomic_int *object, int operand) {
  int old;
  __VERIFIER_atomic_begin();
  old = *object;
  *object = old - operand;
  __VERIFIER_atomic_end();
  return old;
}

int athread_model_atomic_fetch_sub_explicit(atomic_int *object, int operand, memory_order order) {
  return athread_model_atomic_fetch_sub(object, operand);
}

int athread_model_atomic_exchange(atomic_int *object, int desired) {
  int old;
  __VERIFIER_atomic_begin();
  old = *object;
  *object = desired;
  __VERIFIER_atomic_end();
  return old;
}

int athread_model_atomic_exchange_explicit(atomic_int *object, int desired, memory_order order) {
  return athread_model_atomic_exchange(object, desired);
}

int athread_model_atomic_compare_exchange_strong(atomic_int *object, int *expected, int desired) {
  int done;
  __VERIFIER_atomic_begin();
  if (*object == *expected) {
    *object = desired;
    done = 1;
  } else {
    *expected = *object;
    done = 0;
  }
  __VERIFIER_atomic_end();
  return done;
}

int athread_model_atomic_compare_exchange_weak(atomic_int *object, int *expected, int desired) {
  int done;
  __VERIFIER_atomic_begin();
  if (*object == *expected && __VERIFIER_nondet_bool()) {
    *object = desired;
    done = 1;
  } else {
    *expected = *object;
    done = 0;
  }
  __VERIFIER_atomic_end();
  return done;
}

void athread_model_atomic_thread_fence(memory_order order) {}

void athread_model_atomic_signal_fence(memory_order order) {}

#endif
