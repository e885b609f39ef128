/* Two adders each add 2 to a total three times under a mutex; main reads
 * the total under the mutex and asserts that it is even and at most 12.
 * There is no spec: `athread infer` drafts one from the code, and
 * `athread check` proves the draft (README.md, "No spec yet: let athread
 * draft one"). */
#include <assert.h>
#include <pthread.h>
#include <stddef.h>

pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
int total = 0;

static void *adder(void *arg) {
  (void)arg;
  for (int round = 0; round < 3; round++) {
    pthread_mutex_lock(&lock);
    total = total + 2;
    pthread_mutex_unlock(&lock);
  }
  return NULL;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, NULL, adder, NULL);
  pthread_create(&b, NULL, adder, NULL);
  pthread_mutex_lock(&lock);
  int seen = total;
  pthread_mutex_unlock(&lock);
  assert(seen % 2 == 0 && seen <= 12);
  return 0;
}
