/* athread/models/linux.h -- Linux kernel primitives: spin locks, mutexes and
 * atomic_t (see state.h for the lock cells).
 *
 * - spin_lock(l), spin_lock_irq(l), spin_lock_bh(l), mutex_lock(m): one
 *   atomic step that waits until the lock is free and takes it;
 *   spin_unlock(l) (and the _irq, _bh forms), mutex_unlock(m): one step
 *   that frees it; spin_trylock(l), mutex_trylock(m): take a free lock and
 *   give 1, or give 0.
 * - atomic_t is `struct { int counter; }`: bind its counter (`shared int refs
 *   binds obj.refs.counter;`). atomic_read, atomic_set, atomic_inc,
 *   atomic_dec, atomic_add(i, v), atomic_sub(i, v), atomic_inc_return,
 *   atomic_dec_return, atomic_dec_and_test (1 when the count reaches 0),
 *   atomic_inc_and_test: one step each.
 * - spin_lock_init, mutex_init: nothing (the spec gives the initial values).
 *
 * These headers are not the kernel's: the checked code brings its own
 * declarations, and the types are recognised by their names (spinlock_t,
 * struct mutex) and, for atomic_t, by its fields.
 */
#ifndef ATHREAD_MODELS_LINUX_H
#define ATHREAD_MODELS_LINUX_H

#include "state.h"

/* The kernel's types as far as the models need them (spinlock_t and struct
 * mutex are locks whatever their fields). */
typedef struct spinlock {
  int locked;
} spinlock_t;

struct mutex {
  int locked;
};

typedef struct {
  int counter;
} atomic_t;

/* ---------------------------------------------------------------- locks */

void athread_model_spin_lock(spinlock_t *lock) {
  __VERIFIER_atomic_begin();
  __VERIFIER_assume(!__athread_state(lock));
  __athread_set_state(lock, 1);
  __VERIFIER_atomic_end();
}

void athread_model_spin_unlock(spinlock_t *lock) { __athread_set_state(lock, 0); }
void athread_model_spin_lock_irq(spinlock_t *lock) { athread_model_spin_lock(lock); }
void athread_model_spin_unlock_irq(spinlock_t *lock) { athread_model_spin_unlock(lock); }
void athread_model_spin_lock_bh(spinlock_t *lock) { athread_model_spin_lock(lock); }
void athread_model_spin_unlock_bh(spinlock_t *lock) { athread_model_spin_unlock(lock); }

int athread_model_spin_trylock(spinlock_t *lock) {
  int taken;
  __VERIFIER_atomic_begin();
  taken = !__athread_state(lock);
  __athread_set_state(lock, 1);
  __VERIFIER_atomic_end();
  return taken;
}

void athread_model_mutex_lock(struct mutex *lock) {
  __VERIFIER_atomic_begin();
  __VERIFIER_assume(!__athread_state(lock));
  __athread_set_state(lock, 1);
  __VERIFIER_atomic_end();
}

void athread_model_mutex_unlock(struct mutex *lock) { __athread_set_state(lock, 0); }

int athread_model_mutex_trylock(struct mutex *lock) {
  int taken;
  __VERIFIER_atomic_begin();
  taken = !__athread_state(lock);
  __athread_set_state(lock, 1);
  __VERIFIER_atomic_end();
  return taken;
}

/* ---------------------------------------------------------------- atomic_t */

int athread_model_atomic_read(atomic_t *v) { return v->counter; }
void athread_model_atomic_set(atomic_t *v, int i) { v->counter = i; }
void athread_model_atomic_inc(atomic_t *v) { v->counter++; }
void athread_model_atomic_dec(atomic_t *v) { v->counter--; }
void athread_model_atomic_add(int i, atomic_t *v) { v->counter += i; }
void athread_model_atomic_sub(int i, atomic_t *v) { v->counter -= i; }

int athread_model_atomic_inc_return(atomic_t *v) {
  int now;
  __VERIFIER_atomic_begin();
  now = v->counter + 1;
  v->counter = now;
  __VERIFIER_atomic_end();
  return now;
}

int athread_model_atomic_dec_return(atomic_t *v) {
  int now;
  __VERIFIER_atomic_begin();
  now = v->counter - 1;
  v->counter = now;
  __VERIFIER_atomic_end();
  return now;
}

int athread_model_atomic_dec_and_test(atomic_t *v) {
  int zero;
  __VERIFIER_atomic_begin();
  v->counter--;
  zero = v->counter == 0;
  __VERIFIER_atomic_end();
  return zero;
}

int athread_model_atomic_inc_and_test(atomic_t *v) {
  int zero;
  __VERIFIER_atomic_begin();
  v->counter++;
  zero = v->counter == 0;
  __VERIFIER_atomic_end();
  return zero;
}

#endif
