#include <athread.h>

_Bool lock;
int n;

void driver_helper(void) {
  n = n;
}

void t_helper(void) {
  n = 1;
  assert(!(n < 1));
  __VERIFIER_atomic_begin();
  n = 2;
  assert(!lock && (n == 1));
  __VERIFIER_atomic_end();
  await(!lock);
}

void driver(void) {
  await(((n * n) < 3) || ((1 - n) == n));
  __VERIFIER_atomic_begin();
  await(lock);
  n = n - 1;
  n = n + 1;
  __VERIFIER_atomic_end();
  n = n + 1;
  await(lock);
  atomic {
    n = n + 1;
    assert(1);
    assert(!(1 <= 3));
    n = 1;
  }
  while (*) {
  }
  driver_helper();
}

void t(void) {
  int y = 0;
  int x = n;
  t_helper();
  if (!lock && (n >= 0)) {
  }
}
