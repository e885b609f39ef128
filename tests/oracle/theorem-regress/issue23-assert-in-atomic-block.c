#include <athread.h>
int x = 1;
void t(void) {
  atomic {
    x = 3;
    assert(x == 1);
    x = 1;
  }
}
