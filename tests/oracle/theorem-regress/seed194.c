#include <athread.h>

int n;
_Bool busy;

void driver_helper(void) {
  assert((n + 1) >= 3);
  __VERIFIER_atomic_begin();
  busy = !busy;
  __VERIFIER_atomic_end();
  busy = 1;
}

void worker(void) {
  __VERIFIER_atomic_begin();
  busy = (n + 3) <= 2;
  __VERIFIER_atomic_end();
  busy = 0;
}

void driver(void) {
  int x = 3;
  __VERIFIER_atomic_begin();
  n = n + 1;
  assert(((n != 3) && !busy) || (n == 3));
  n = 3;
  __VERIFIER_atomic_end();
  x = n;
  driver_helper();
}
