/* bluetooth-buggy.c -- the ORIGINAL Bluetooth driver of KISS (Qadeer, Wu,
 * PLDI 2004, Fig. 2), with the race KISS found: IoIncrement tests
 * stoppingFlag BEFORE it increments pendingIO, in two separate steps.
 * Everything else is identical to bluetooth.c.
 *
 *   athread conform bluetooth.athread bluetooth-buggy.c
 *       -> Worker (PnpAdd) does NOT conform; Stopper (PnpStop) conforms
 *   athread conform bluetooth-buggy.athread bluetooth-buggy.c
 *       -> both conform, and `athread compose bluetooth-buggy.athread` is unsafe
 *
 * Why the worker does not conform to the correct abstract Worker: the flag
 * test is a read (an idle step in Start), and the increment is matched by
 * Start -> Entered, so the candidate set is {Entered}.  The abstract worker
 * may enter Work only by a flag test made AFTER its increment, with the flag
 * false; the buggy code makes none.  Entered asserts nothing, and the other
 * threads may stop the driver (PnpStop raises the flag, the last reference
 * is dropped, stopped becomes true) before the worker reaches "do work
 * here", so the concrete assert(!stopped) fails with no candidate going
 * wrong:
 *   reason: the assertion fails and no candidate state in {Entered} goes
 *   wrong
 * Without the assertion the worker does not conform either: the statements
 * after the increment touch no shared memory, so they are part of its step
 * (--atomicity access), no flag test comes between the increment and the
 * IoDecrement, and that decrement is not simulated from {Entered}.  (Under
 * the paper's --atomicity statement --env havoc the local steps let the
 * abstract worker "see" a raised flag, Entered -> Abort, and the decrement
 * was simulated by Abort -> Signal | Done.)
 */
#include <athread.h>

/* The device extension: the state every dispatch routine shares. */
typedef struct _DEVICE_EXTENSION {
  int  PendingIo;                            /* references; the initial 1 is the stopper's */
  bool StoppingFlag;                         /* set by PnpStop: no new I/O may start */
  bool StoppingEvent;                        /* KEVENT, signalled when PendingIo reaches 0 */
  bool Stopped;                              /* the driver has stopped */
} DEVICE_EXTENSION;

DEVICE_EXTENSION ext = {.PendingIo = 1, .StoppingFlag = false, .StoppingEvent = false, .Stopped = false};

/* InterlockedDecrement(&ext.PendingIo); the thread that drops the last
 * reference signals StoppingEvent. */
void IoDecrement(void) {
  int pending;
  atomic {                                   /* one interlocked step: */
    ext.PendingIo = ext.PendingIo - 1;       /*   "IoDecrement: last" if pending == 0, */
    pending = ext.PendingIo;                 /*   "IoDecrement" otherwise */
  }
  if (pending == 0)
    ext.StoppingEvent = true;                /* "set stoppingEvent" (Signal -> ...) */
}

/* THE BUG: test the flag, then take the reference. Between the two steps
 * PnpStop can raise the flag, drop the last reference and mark the driver
 * stopped; the worker then increments and works on a stopped driver. */
int IoIncrement(void) {
  if (ext.StoppingFlag)                      /* a read: idle step in Start */
    return -1;
  atomic {                                   /* InterlockedIncrement(&ext.PendingIo) */
    ext.PendingIo = ext.PendingIo + 1;       /* Start -> Entered; no flag test follows */
  }
  return 0;
}

/* A worker thread doing one I/O (Worker in bluetooth.athread). */
void PnpAdd(void) {
  int status = IoIncrement();
  if (status == 0) {
    /* do work here */
    assert(!ext.Stopped);                    /* fails: the candidates are {Entered}, not Work */
    IoDecrement();                           /* Work -> Signal | Done */
  }
}

/* The stop routine (Stopper in bluetooth.athread). */
void PnpStop(void) {
  ext.StoppingFlag = true;                   /* Start -> Flagged */
  IoDecrement();                             /* drop our own reference: Flagged -> Signal | Waiting */
  await(ext.StoppingEvent);                  /* KeWaitForSingleObject: Waiting -> Woken */
  /* release allocated resources */
  ext.Stopped = true;                        /* Woken -> Stopped */
}
