/* figure2-bad.c -- a variant of the program P of Section 2.1 of "Abstract
 * Threads" (Lahiri, Malkis, Qadeer, VMCAI 2010) in which thread A starts
 * with x = -1 instead of x = 1.
 *
 *   athread conform figure2.athread figure2-bad.c  -> thread A does NOT conform
 *
 * When the loop runs zero times (or only increments x once), thread A
 * writes g = -1 (or 0).  A#'s only edge X1 -> X2 demands g' > 0 and X2 has
 * no edge, so that write is a step that A# cannot simulate: the
 * counterexample is "step 2 is not simulated: no edge of A from {X1, X2}"
 * at the line `g = x;` (step 1 is `x = -1` with the loop's first test,
 * which touch no shared memory and so are one step; X2 is a candidate
 * because that local step, which leaves a positive g unchanged, also
 * satisfies X1 -> X2's g' > 0).
 * thread_b is unchanged and still conforms.
 */
#include <athread.h>
#include <limits.h>

#ifdef __ATHREAD__
#define ANY *                           /* athread's nondeterministic condition */
#else
#define ANY nondet()                    /* the same for an ordinary C compiler */
#endif

int g = 1;                              /* shared int g, positive at the start (figure2.athread) */

void thread_a(void) {
  int x;
  x = -1;                               /* the bug: not positive */
  while (ANY) {
    if (ANY)
      x = g;
    else if (x < INT_MAX)
      x = x + 1;                        /* C's int stops at INT_MAX */
  }
  g = x;                                /* may write g <= 0: not simulated by X1 -> X2 */
}

void thread_b(void) {
  int v = nondet();
  assume(v > 0);
  g = v;                                /* Y1 -> Y2 : g' > 0 */
  assert(g > 0);
}
