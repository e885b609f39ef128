/* The tutorial's driver as an ordinary pthread program: main starts the
 * dispatch routines, and a mutex makes "take the device" one step.
 * `athread skeleton` drafts a spec from it (README.md, "Starting from the
 * code: athread skeleton"). */
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
  sent = sent + 1;
  busy = false;
  pthread_mutex_unlock(&device);
  return NULL;
}

int main(void) {
  pthread_t t[DISPATCHERS];
  sent = 0;
  for (int i = 0; i < DISPATCHERS; i++) pthread_create(&t[i], NULL, dispatch, NULL);
  for (int i = 0; i < DISPATCHERS; i++) pthread_join(t[i], NULL);
  return 0;
}
