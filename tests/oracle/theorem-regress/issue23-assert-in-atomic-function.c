#include <athread.h>
int x = 1;
void __VERIFIER_atomic_f(void) {
    x = 3;
    assert(x == 1);
    x = 1;
}
void t(void) { __VERIFIER_atomic_f(); }
