/* dispatch-threads.c with the usual bug: the routine counts the request
 * after it has let go of the device, so two routines may update `sent` at
 * once. `athread races` finds the race and prints a trace to it (README.md,
 * "Finding data races"). */
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#define DISPATCHERS 2 /* dispatch routines running at once */

bool busy = false; /* a dispatch routine owns the device */
int sent;          /* requests sent to the hardware */
pthread_mutex_t device = PTHREAD_MUTEX_INITIALIZER;

static void *dispatch(void *arg) {
  (void)arg;
  pthread_mutex_lock(&device);
  busy = true;
  busy = false;
  pthread_mutex_unlock(&device);
  sent = sent + 1; /* the bug: outside the lock */
  return NULL;
}

int main(void) {
  pthread_t t[DISPATCHERS];
  sent = 0;
  for (int i = 0; i < DISPATCHERS; i++) pthread_create(&t[i], NULL, dispatch, NULL);
  for (int i = 0; i < DISPATCHERS; i++) pthread_join(t[i], NULL);
  return 0;
}
