#include <athread.h>

int cnt = 1;
int g = 1;

void t_helper(void) {
  g = 1;
  if ((2 * g) > g) {
  }
}

void t(void) {
  int i0 = 0;
  t_helper();
  while (i0 < 3) {
    assert((g + g) <= 3);
    assert(cnt != 0);
    i0 = i0 + 1;
  }
}

void reader(void) {
  int x = 1;
  x = nondet();
  assume(x >= 1 && x <= 2);
  assert(g == 1);
  assert(((cnt * g) == 1) && (g < 2));
  await(((x * x) != 0) || (g > 1));
  if ((cnt * x) == 2) {
    atomic {
      g = g - 1;
      assert((((cnt != 0) && (g == 1)) && ((cnt != 0) && (g <= 1))) && (g == 1));
      assert(!((g + g) >= g));
      cnt = 1;
    }
  }
}
