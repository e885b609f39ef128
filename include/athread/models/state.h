/* athread/models/state.h -- the builtins the models use to read and write
 * the state of a synchronization object through a pointer to it.
 *
 * athread keeps one cell of the spec for each synchronization object the
 * code uses: the shared variable bound to the object's C path (`shared bool
 * m_held binds m;`, `shared int free binds pool.sem;`). The C front end knows
 * these types by name, whatever their C definition (pthread_mutex_t is a
 * union in glibc, spinlock_t a struct in Linux, KSPIN_LOCK an integer in the
 * WDK): pthread_mutex_t, pthread_spinlock_t, spinlock_t, raw_spinlock_t,
 * struct mutex, mtx_t, KSPIN_LOCK, FAST_MUTEX, KMUTEX, KGUARDED_MUTEX,
 * CRITICAL_SECTION and KEVENT are bool cells (a lock: held; an event:
 * signaled); sem_t is an int cell (its count); pthread_cond_t and cnd_t have
 * no state (a wait may always wake up spuriously, so a signal changes
 * nothing a thread can rely on) and need no cell.
 *
 * __athread_state(p) is the value of the cell of the object p points to;
 * __athread_set_state(p, v) stores v into it (one step, or part of the
 * atomic section around it). p must point to an object (a NULL p is a
 * violation, like a NULL dereference).
 */
#ifndef ATHREAD_MODELS_STATE_H
#define ATHREAD_MODELS_STATE_H

#include <athread.h>

int __athread_state(const volatile void *object);
void __athread_set_state(volatile void *object, int value);

#endif
