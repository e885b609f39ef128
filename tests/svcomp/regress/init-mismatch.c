// init-mismatch.c -- athread's own regression task (see ../LICENSE.md):
// the global g starts at 5 and nothing changes it, so the thread's check
// g == 0 fails. Its spec says g starts at 0: a spec whose initial values
// differ from the C program's must be refused, or the program must come
// out unsafe. Expected verdict: false.
#include <assert.h>
#include <pthread.h>

int g = 5;

void *check(void *arg) {
  assert(g == 0);
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, check, 0);
  pthread_join(t, 0);
  return 0;
}
