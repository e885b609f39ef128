/* core/barrier.c -- a barrier that spins before it sleeps (see barrier.h). */
#include "barrier.h"

#include <unistd.h>

/* Spins before sleeping: a few hundred microseconds on a current core,
 * longer than a wake-up on a virtual machine, short next to a round of
 * work. */
#define SPINS 20000

static inline void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

void barrier_init(barrier *b, unsigned parties) {
  atomic_init(&b->arrived, 0);
  atomic_init(&b->generation, 0);
  b->parties = parties;
  b->spins = parties <= sysconf(_SC_NPROCESSORS_ONLN) ? SPINS : 0;
  pthread_mutex_init(&b->lock, NULL);
  pthread_cond_init(&b->passed, NULL);
}

void barrier_destroy(barrier *b) {
  pthread_mutex_destroy(&b->lock);
  pthread_cond_destroy(&b->passed);
}

/* The last to arrive starts the next generation; the lock orders it with
 * the sleepers' test, so none misses the broadcast. */
static void pass(barrier *b) {
  atomic_store(&b->arrived, 0);
  pthread_mutex_lock(&b->lock);
  atomic_fetch_add(&b->generation, 1);
  pthread_cond_broadcast(&b->passed);
  pthread_mutex_unlock(&b->lock);
}

bool barrier_wait(barrier *b) { return barrier_wait_then(b, NULL, NULL); }

bool barrier_wait_then(barrier *b, void (*serial)(void *ctx), void *ctx) {
  unsigned generation = atomic_load(&b->generation);
  if (atomic_fetch_add(&b->arrived, 1) + 1 == b->parties) {
    if (serial) serial(ctx);
    pass(b);
    return true;
  }
  for (unsigned i = 0; i < b->spins; i++) {
    if (atomic_load_explicit(&b->generation, memory_order_acquire) != generation) return false;
    cpu_relax();
  }
  pthread_mutex_lock(&b->lock);
  while (atomic_load(&b->generation) == generation) pthread_cond_wait(&b->passed, &b->lock);
  pthread_mutex_unlock(&b->lock);
  return false;
}
