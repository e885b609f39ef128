/* athread/models/windows.h -- Windows kernel (WDK) primitives: spin locks,
 * interlocked operations and events (see state.h for the cells).
 *
 * - KeAcquireSpinLock(l, &oldIrql): one atomic step that waits until the
 *   lock is free and takes it (the IRQL is not modelled: *oldIrql is left
 *   as it is); KeReleaseSpinLock(l, irql): one step that frees it. The
 *   ...AtDpcLevel forms are the same.
 * - InterlockedIncrement(p), InterlockedDecrement(p): one step, gives the
 *   value after; InterlockedExchange(p, v): gives the value before;
 *   InterlockedCompareExchange(p, exchange, comparand): stores exchange if
 *   *p == comparand, gives the value before; InterlockedExchangeAdd(p, v):
 *   gives the value before.
 * - KEVENT is a bool cell, signaled. KeSetEvent(e, increment, wait): sets it,
 *   gives the state before; KeClearEvent(e), KeResetEvent(e): clears it.
 *   KeWaitForSingleObject(e, reason, mode, alertable, timeout) waits until e
 *   is signaled (a notification event: it stays signaled; for a
 *   synchronization event, clear it after the wait) and gives
 *   STATUS_SUCCESS (0); with a timeout that is not NULL it may also give
 *   STATUS_TIMEOUT (0x102) without waiting.
 * - KeInitializeSpinLock, KeInitializeEvent: nothing (the spec gives the
 *   initial values).
 *
 * This header is not the WDK's: the checked code brings its own
 * declarations, and the types are recognised by their names (KSPIN_LOCK,
 * KEVENT) whatever their definition.
 */
#ifndef ATHREAD_MODELS_WINDOWS_H
#define ATHREAD_MODELS_WINDOWS_H

#include "state.h"

/* The WDK's types as far as the models need them. */
typedef long LONG;
typedef unsigned char KIRQL;
typedef unsigned long long KSPIN_LOCK;
typedef struct _KEVENT {
  int signaled;
} KEVENT;
typedef long long LARGE_INTEGER;

/* ---------------------------------------------------------------- spin locks */

void athread_model_KeAcquireSpinLock(KSPIN_LOCK *lock, KIRQL *old_irql) {
  __VERIFIER_atomic_begin();
  __VERIFIER_assume(!__athread_state(lock));
  __athread_set_state(lock, 1);
  __VERIFIER_atomic_end();
}

void athread_model_KeReleaseSpinLock(KSPIN_LOCK *lock, KIRQL new_irql) { __athread_set_state(lock, 0); }

void athread_model_KeAcquireSpinLockAtDpcLevel(KSPIN_LOCK *lock) {
  __VERIFIER_atomic_begin();
  __VERIFIER_assume(!__athread_state(lock));
  __athread_set_state(lock, 1);
  __VERIFIER_atomic_end();
}

void athread_model_KeReleaseSpinLockFromDpcLevel(KSPIN_LOCK *lock) { __athread_set_state(lock, 0); }

/* ---------------------------------------------------------------- interlocked operations */

LONG athread_model_InterlockedIncrement(volatile LONG *addend) {
  LONG now;
  __VERIFIER_atomic_begin();
  now = *addend + 1;
  *addend = now;
  __VERIFIER_atomic_end();
  return now;
}

LONG athread_model_InterlockedDecrement(volatile LONG *addend) {
  LONG now;
  __VERIFIER_atomic_begin();
  now = *addend - 1;
  *addend = now;
  __VERIFIER_atomic_end();
  return now;
}

LONG athread_model_InterlockedExchange(volatile LONG *target, LONG value) {
  LONG old;
  __VERIFIER_atomic_begin();
  old = *target;
  *target = value;
  __VERIFIER_atomic_end();
  return old;
}

LONG athread_model_InterlockedExchangeAdd(volatile LONG *addend, LONG value) {
  LONG old;
  __VERIFIER_atomic_begin();
  old = *addend;
  *addend = old + value;
  __VERIFIER_atomic_end();
  return old;
}

LONG athread_model_InterlockedCompareExchange(volatile LONG *destination, LONG exchange, LONG comparand) {
  LONG old;
  __VERIFIER_atomic_begin();
  old = *destination;
  if (old == comparand) *destination = exchange;
  __VERIFIER_atomic_end();
  return old;
}

/* ---------------------------------------------------------------- events */

LONG athread_model_KeSetEvent(KEVENT *event, LONG increment, unsigned char wait) {
  LONG old;
  __VERIFIER_atomic_begin();
  old = __athread_state(event);
  __athread_set_state(event, 1);
  __VERIFIER_atomic_end();
  return old;
}

void athread_model_KeClearEvent(KEVENT *event) { __athread_set_state(event, 0); }

LONG athread_model_KeResetEvent(KEVENT *event) {
  LONG old;
  __VERIFIER_atomic_begin();
  old = __athread_state(event);
  __athread_set_state(event, 0);
  __VERIFIER_atomic_end();
  return old;
}

LONG athread_model_KeWaitForSingleObject(void *object, int reason, int mode, unsigned char alertable,
                                         LARGE_INTEGER *timeout) {
  KEVENT *event = (KEVENT *)object;
  if (timeout != 0 && __VERIFIER_nondet_bool()) return 0x102; /* STATUS_TIMEOUT */
  __VERIFIER_assume(__athread_state(event));
  return 0;
}

#endif
