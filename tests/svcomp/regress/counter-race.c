// counter-race.c -- athread's own regression task (see ../LICENSE.md):
// two threads run counter++ on a shared counter. counter++ is a load and a
// store, so one update can be lost and main can find counter == 1 after
// joining both threads. Expected verdict: false (unreach-call).
#include <assert.h>
#include <pthread.h>

int counter = 0;

void *increment(void *arg) {
  counter++;
  return 0;
}

int main(void) {
  pthread_t t1, t2;
  pthread_create(&t1, 0, increment, 0);
  pthread_create(&t2, 0, increment, 0);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  assert(counter == 2);
  return 0;
}
