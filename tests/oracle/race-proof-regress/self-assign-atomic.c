#include <athread.h>
bool busy = false;
void d(void) {
  atomic { busy = busy; }
}
void w(void) {
  busy = 1;
}
