#include <athread.h>
int x = 1;
void t(void) {
  __VERIFIER_atomic_begin();
    x = 3;
    assert(x == 1);
    x = 1;
  __VERIFIER_atomic_end();
}
