#include <athread.h>
int x;
void t(void) {
  atomic {
    x = 3;
    assert(x == 1);
    x = 1;
  }
}
