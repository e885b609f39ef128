/* figure2.c -- the concrete program P of Section 2.1 of "Abstract Threads"
 * (Lahiri, Malkis, Qadeer, VMCAI 2010): two threads sharing one int g.
 *
 *   athread conform figure2.athread figure2.c      -> both threads conform
 *
 * thread_a conforms to A#: every value it writes to g is positive, because
 * x starts at 1 and only ever takes values of g (positive while A# is in X1,
 * whose assertion g > 0 the environment must respect) or grows by 1.  The
 * checker has to find the loop invariant x > 0 itself.  The paper's program
 * grows x without a bound, which its mathematical integers allow; a C int
 * would overflow after INT_MAX - 1 increments (undefined behaviour, which
 * athread reports), so this one stops growing at INT_MAX.
 *
 * thread_b's assertion can fail in a concurrent run (another thread may
 * overwrite g between B's write and its check), but B# is then in Y2, whose
 * assertion g > 0 is exactly the failing check: the failure is matched by
 * B# going wrong, and `athread compose figure2.athread` proves that no
 * thread of P# goes wrong from states with g > 0.
 */
#include <athread.h>
#include <limits.h>

/* `*` as a whole condition is athread syntax, not C: under athread
 * (__ATHREAD__ defined) ANY is the nondeterministic `*`; an ordinary C
 * compiler gets a call of nondet() instead, which means the same. */
#ifdef __ATHREAD__
#define ANY *
#else
#define ANY nondet()
#endif

int g = 1;                              /* shared int g, positive at the start (figure2.athread) */

void thread_a(void) {
  int x;
  x = 1;                                /* local step: A# idles in X1 */
  while (ANY) {
    if (ANY)
      x = g;                            /* reads g > 0 (X1's assertion) */
    else if (x < INT_MAX)
      x = x + 1;                        /* C's int stops at INT_MAX */
  }
  g = x;                                /* X1 -> X2 : g' > 0 */
}

void thread_b(void) {
  int v = nondet();
  assume(v > 0);                        /* some positive value */
  g = v;                                /* Y1 -> Y2 : g' > 0 */
  assert(g > 0);                        /* may fail under interference: matched by Y2 */
}
