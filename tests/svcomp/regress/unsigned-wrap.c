// unsigned-wrap.c -- athread's own regression task (see ../LICENSE.md):
// a thread computes 0 - 1 in unsigned arithmetic, which wraps around to
// UINT_MAX, so its check v < 10 fails. Read as a mathematical integer, v
// would be -1 and the check would pass. Expected verdict: false.
#include <assert.h>
#include <pthread.h>

int done = 0;

void *wrap(void *arg) {
  unsigned v = 0;
  v = v - 1;
  assert(v < 10);
  done = 1;
  return 0;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, wrap, 0);
  pthread_join(t, 0);
  return 0;
}
