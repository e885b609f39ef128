/* bluetooth.c -- the (fixed) Bluetooth driver of KISS (Qadeer, Wu, PLDI
 * 2004, Fig. 2) as verified in "Abstract Threads" (Lahiri, Malkis, Qadeer,
 * VMCAI 2010, Fig. 4).  The device extension's fields are globals here (the
 * C subset has no structs or pointers); each global is a shared variable of
 * bluetooth.athread.
 *
 *   athread conform bluetooth.athread bluetooth.c  -> Stopper and Worker conform
 *
 * Fixed IoIncrement: it increments pendingIO FIRST and only then tests
 * stoppingFlag; if the driver is stopping it gives the reference back and
 * fails.  PnpAdd works (and drops its reference) only when IoIncrement
 * succeeded, so every reference is dropped exactly once.
 *
 * The comments name the abstract edge that simulates each shared step; the
 * steps that touch no shared variable (locals, returns, local tests) are
 * matched by the abstract threads' idle steps.
 */
#include <athread.h>

bool stoppingFlag  = false;   /* set by PnpStop: no new I/O may start */
bool stoppingEvent = false;   /* KEVENT, signalled when pendingIO reaches 0 */
bool stopped       = false;   /* the driver has stopped */
int  pendingIO     = 1;       /* references; the initial 1 is the stopper's */

/* InterlockedDecrement(&pendingIO); the thread that drops the last
 * reference signals stoppingEvent. */
void IoDecrement(void) {
  int pending;
  atomic {                               /* one interlocked step: */
    pendingIO = pendingIO - 1;           /*   "IoDecrement: last" if pending == 0, */
    pending = pendingIO;                 /*   "IoDecrement" otherwise */
  }
  if (pending == 0)
    stoppingEvent = true;                /* "set stoppingEvent" (Signal -> ...) */
}

/* Fixed order: take the reference, then look at the flag. Returns 0 when
 * the caller may do I/O, -1 when the driver is stopping. */
int IoIncrement(void) {
  atomic {                               /* InterlockedIncrement(&pendingIO) */
    pendingIO = pendingIO + 1;           /* Start -> Entered */
  }
  if (stoppingFlag) {                    /* Entered -> Abort (flag set) or -> Work */
    IoDecrement();                       /* Abort -> Signal | Done */
    return -1;
  }
  return 0;
}

/* A worker thread doing one I/O (Worker in bluetooth.athread). */
void PnpAdd(void) {
  int status = IoIncrement();
  if (status == 0) {
    /* do work here */
    assert(!stopped);                    /* matched by Work's assertion !stopped */
    IoDecrement();                       /* Work -> Signal | Done */
  }
}

/* The stop routine (Stopper in bluetooth.athread). */
void PnpStop(void) {
  stoppingFlag = true;                   /* Start -> Flagged */
  IoDecrement();                         /* drop our own reference: Flagged -> Signal | Waiting */
  await(stoppingEvent);                  /* KeWaitForSingleObject: Waiting -> Woken */
  /* release allocated resources */
  stopped = true;                        /* Woken -> Stopped */
}
