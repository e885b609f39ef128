#include <athread.h>

int counter = 0;
int arrived = 0;

void t(void) {
  counter++;
  atomic {
    arrived = arrived + 1;
  }
  atomic {
    await(arrived == 2);
    arrived = 2;
  }
  assert(counter == 2);
}
