/* bluetooth.c -- the (fixed) Bluetooth driver of KISS (Qadeer, Wu, PLDI
 * 2004, Fig. 2) as verified in "Abstract Threads" (Lahiri, Malkis, Qadeer,
 * VMCAI 2010, Fig. 4).  The driver's shared state is its device extension,
 * one global struct here (the C subset has no pointers, so the routines name
 * the global rather than the DeviceObject's extension); each field stands
 * for a shared variable of bluetooth.athread ('binds ext.PendingIo' ...).
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
 * matched by the abstract threads' idle steps.  Each read and each write of
 * the extension is one step (C's atomicity, athread's default), so the
 * interlocked increment and decrement must be atomic sections (the real
 * driver's InterlockedIncrement/InterlockedDecrement): a plain
 * PendingIo = PendingIo + 1 would lose the stopper's decrement when it
 * comes between the read and the write.
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

/* Fixed order: take the reference, then look at the flag. Returns 0 when
 * the caller may do I/O, -1 when the driver is stopping. */
int IoIncrement(void) {
  atomic {                                   /* InterlockedIncrement(&ext.PendingIo) */
    ext.PendingIo = ext.PendingIo + 1;       /* Start -> Entered */
  }
  if (ext.StoppingFlag) {                    /* Entered -> Abort (flag set) or -> Work */
    IoDecrement();                           /* Abort -> Signal | Done */
    return -1;
  }
  return 0;
}

/* A worker thread doing one I/O (Worker in bluetooth.athread). */
void PnpAdd(void) {
  int status = IoIncrement();
  if (status == 0) {
    /* do work here */
    assert(!ext.Stopped);                    /* matched by Work's assertion !stopped */
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
