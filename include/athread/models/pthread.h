/* athread/models/pthread.h -- POSIX threads: mutexes, spin locks, condition
 * variables, semaphores (see state.h for the cells they act on), and threads.
 *
 * - pthread_mutex_lock(m), pthread_spin_lock(s): one atomic step that waits
 *   until the lock is free and takes it (held := true).
 * - pthread_mutex_unlock(m), pthread_spin_unlock(s): one step, held := false.
 *   Unlocking a lock that is not held is not checked.
 * - pthread_mutex_trylock(m), pthread_spin_trylock(s): one step; takes a free
 *   lock and gives 0, or leaves a held lock and gives EBUSY.
 * - pthread_cond_wait(c, m): unlocks m (one step), then locks m again (the
 *   step of pthread_mutex_lock). In between the thread waits for a signal or
 *   wakes up spuriously; since a spurious wake-up is always possible, the
 *   wait adds no behaviour, and pthread_cond_signal/broadcast change nothing
 *   (no cell). pthread_cond_timedwait is the same.
 * - sem_wait(s): one atomic step that waits until the count is positive and
 *   decrements it; sem_trywait(s) gives -1 instead of waiting; sem_post(s)
 *   increments it.
 * - pthread_mutex_init/destroy, pthread_spin_init/destroy,
 *   pthread_cond_init/destroy, sem_init/destroy do nothing: the spec gives
 *   the initial values.
 *
 * The results are 0 (success) unless said otherwise; a call whose result the
 * code stores is `r = pthread_mutex_trylock(&m);` (calls are statements).
 */
#ifndef ATHREAD_MODELS_PTHREAD_H
#define ATHREAD_MODELS_PTHREAD_H

#include <errno.h>
#include <pthread.h>
#include <semaphore.h>

#include "state.h"

/* ---------------------------------------------------------------- locks */

int athread_model_pthread_mutex_lock(pthread_mutex_t *mutex) {
  __VERIFIER_atomic_begin();
  __VERIFIER_assume(!__athread_state(mutex));
  __athread_set_state(mutex, 1);
  __VERIFIER_atomic_end();
  return 0;
}

int athread_model_pthread_mutex_unlock(pthread_mutex_t *mutex) {
  __athread_set_state(mutex, 0);
  return 0;
}

int athread_model_pthread_mutex_trylock(pthread_mutex_t *mutex) {
  int result;
  __VERIFIER_atomic_begin();
  if (__athread_state(mutex)) {
    result = EBUSY;
  } else {
    __athread_set_state(mutex, 1);
    result = 0;
  }
  __VERIFIER_atomic_end();
  return result;
}

int athread_model_pthread_spin_lock(pthread_spinlock_t *lock) {
  __VERIFIER_atomic_begin();
  __VERIFIER_assume(!__athread_state(lock));
  __athread_set_state(lock, 1);
  __VERIFIER_atomic_end();
  return 0;
}

int athread_model_pthread_spin_unlock(pthread_spinlock_t *lock) {
  __athread_set_state(lock, 0);
  return 0;
}

int athread_model_pthread_spin_trylock(pthread_spinlock_t *lock) {
  int result;
  __VERIFIER_atomic_begin();
  if (__athread_state(lock)) {
    result = EBUSY;
  } else {
    __athread_set_state(lock, 1);
    result = 0;
  }
  __VERIFIER_atomic_end();
  return result;
}

/* ---------------------------------------------------------------- condition variables */

int athread_model_pthread_cond_wait(pthread_cond_t *cond, pthread_mutex_t *mutex) {
  athread_model_pthread_mutex_unlock(mutex);
  /* waits for pthread_cond_signal, or wakes up spuriously */
  athread_model_pthread_mutex_lock(mutex);
  return 0;
}

int athread_model_pthread_cond_timedwait(pthread_cond_t *cond, pthread_mutex_t *mutex,
                                         const struct timespec *abstime) {
  athread_model_pthread_mutex_unlock(mutex);
  athread_model_pthread_mutex_lock(mutex);
  return 0;
}

int athread_model_pthread_cond_signal(pthread_cond_t *cond) { return 0; }

int athread_model_pthread_cond_broadcast(pthread_cond_t *cond) { return 0; }

/* ---------------------------------------------------------------- semaphores */

int athread_model_sem_wait(sem_t *sem) {
  __VERIFIER_atomic_begin();
  __VERIFIER_assume(__athread_state(sem) > 0);
  __athread_set_state(sem, __athread_state(sem) - 1);
  __VERIFIER_atomic_end();
  return 0;
}

int athread_model_sem_trywait(sem_t *sem) {
  int result;
  __VERIFIER_atomic_begin();
  if (__athread_state(sem) > 0) {
    __athread_set_state(sem, __athread_state(sem) - 1);
    result = 0;
  } else {
    result = -1;
  }
  __VERIFIER_atomic_end();
  return result;
}

int athread_model_sem_post(sem_t *sem) {
  __VERIFIER_atomic_begin();
  __athread_set_state(sem, __athread_state(sem) + 1);
  __VERIFIER_atomic_end();
  return 0;
}

/* ---------------------------------------------------------------- threads */

/* pthread_create(&t, attr, f, arg), in a checked function (a main that
 * starts the threads): one step that changes no shared variable. The
 * spec's instance of the new thread exists from the start, so letting it
 * run before the C creation only adds behaviours. The step gives the
 * handle t any value (a handle is opaque) and gives 0 or an error number
 * (creation may fail). The front end passes only &t to the model: attr, f
 * and arg go to the new thread and are not evaluated (they must be
 * constants, variables or their addresses: cfront/cfront-models.c), and a
 * global handle that no shared variable of the spec stands for is neither
 * written nor read (NULL, or 0, in its place: no code of a checked thread
 * can read it).
 *
 * pthread_join(t, NULL), pthread_detach(t): one step that reads t and
 * changes nothing, and gives 0 or an error number. After a join the C thread
 * has ended; ignoring that only adds behaviours. A result pointer other
 * than NULL is refused (the thread's result is not modelled). pthread_attr_init and the other pthread_attr_ calls do
 * nothing (cfront/cfront-models.c). */

int athread_model_pthread_create(pthread_t *thread) {
  int result;
  __VERIFIER_atomic_begin();
  if (thread) *thread = __VERIFIER_nondet_ulong(); /* NULL: a handle no checked code reads */
  result = __VERIFIER_nondet_int();
  __VERIFIER_assume(result >= 0);
  __VERIFIER_atomic_end();
  return result;
}

int athread_model_pthread_join(pthread_t thread) {
  int result;
  __VERIFIER_atomic_begin();
  result = __VERIFIER_nondet_int(); /* 0, or one of the positive error numbers */
  __VERIFIER_assume(result >= 0);
  __VERIFIER_atomic_end();
  return result;
}

int athread_model_pthread_detach(pthread_t thread) {
  int result;
  __VERIFIER_atomic_begin();
  result = __VERIFIER_nondet_int();
  __VERIFIER_assume(result >= 0);
  __VERIFIER_atomic_end();
  return result;
}

#endif
