/* core/barrier.h -- a barrier for a few threads that each do a short phase
 * of work between two waits (the explicit engine's rounds).
 *
 * A thread that arrives early spins a while before it sleeps: on a virtual
 * machine, waking a thread that sleeps in the kernel takes tens of
 * microseconds (its virtual CPU halted and must be woken by the host), and
 * a search that waits thousands of times would lose a tenth of its time
 * there. A thread that waits longer than the spin sleeps on a condition
 * variable; with more threads than cores none spins, since a spinning
 * thread would hold the core that the last one needs to arrive.
 */
#ifndef ATHREAD_BARRIER_H
#define ATHREAD_BARRIER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

typedef struct barrier {
  atomic_uint arrived;    /* threads waiting in this generation */
  atomic_uint generation; /* passes so far */
  unsigned parties;       /* threads that wait each time */
  unsigned spins;         /* checks before sleeping (0: more threads than cores) */
  pthread_mutex_t lock;   /* guards the sleepers' wait */
  pthread_cond_t passed;  /* signalled when a generation passes */
} barrier;

/* A barrier for parties (>= 1) threads. */
void barrier_init(barrier *b, unsigned parties);
void barrier_destroy(barrier *b);
/* Waits until all parties have called it; true in exactly one of them (the
 * last to arrive), which may act alone before the next wait. */
bool barrier_wait(barrier *b);
/* barrier_wait, where the last to arrive first runs serial(ctx), before any
 * thread leaves: what it writes there, every thread reads after the wait. */
bool barrier_wait_then(barrier *b, void (*serial)(void *ctx), void *ctx);

#endif
