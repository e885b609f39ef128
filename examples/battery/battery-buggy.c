/* battery-buggy.c -- a WRONG variant of the battery driver teardown of
 * battery.c: the worker leaves the queue (NumQueuedWorkers--) BEFORE it
 * drops its in-use reference.  Everything else is identical to battery.c.
 *
 *   athread conform battery.athread battery-buggy.c
 *       -> Worker (BatteryWorker) does NOT conform; Unload conforms
 *
 * The bug is a use after free of the device extension.  Take a worker that
 * starts after Unload has already dropped the last in-use reference and
 * unregistered the battery: it increments InUseCount, sees WantToRemove,
 * bails out and dequeues.  Unload, waiting only for NumQueuedWorkers == 0,
 * now frees the extension (Unloaded), and the worker then still decrements
 * InUseCount and writes ReadyToRemove in it.
 *
 * Conformance catches the bug locally, without the unload thread: before
 * the release, the abstract worker is in Release (after the battery read)
 * or in {Referenced, Release} (on the bail-out path); from there its only
 * shared steps are the InUseCount decrements, and the NumQueuedWorkers
 * decrement is allowed only from Dequeue.  The counterexample is "step not
 * simulated" at the line of NumQueuedWorkers--.
 */
#include <athread.h>

bool WantToRemove     = false;  /* unload has started: no new work */
int  InUseCount       = 1;      /* in-use references; the 1 is Unload's */
bool ReadyToRemove    = false;  /* KEVENT, signalled when InUseCount reaches 0 */
int  WorkerActive     = 0;      /* 1 while a worker reads the battery (int[0..1]) */
int  NumQueuedWorkers = 2;      /* work items queued and not finished (int[0..N]) */
bool Removed          = false;  /* battery unregistered: no more reads */
bool Unloaded         = false;  /* device extension freed */

/* InterlockedDecrement(&InUseCount); whoever drops the last reference
 * signals ReadyToRemove. */
void ReleaseInUse(void) {
  int count;
  atomic {
    InUseCount = InUseCount - 1;        /* "InUseCount--: last" if count == 0, */
    count = InUseCount;                 /* "InUseCount--" otherwise */
  }
  if (count == 0)
    ReadyToRemove = true;               /* "set ReadyToRemove" (Signal -> ...) */
}

/* The unload thread (Unload in battery.athread). */
void BatteryUnload(void) {
  WantToRemove = true;                  /* Start -> Removing */
  ReleaseInUse();                       /* drop our own reference: Removing -> Signal | Waiting */
  await(ReadyToRemove);                 /* KeWaitForSingleObject: Waiting -> Woken */
  Removed = true;                       /* unregister the battery: Woken -> Draining */
  await(NumQueuedWorkers == 0);         /* wait for the queue to drain: Draining -> Freeing */
  Unloaded = true;                      /* free the device extension: Freeing -> Done */
}

/* A queued worker thread (Worker in battery.athread). */
void BatteryWorker(void) {
  int old;
  atomic {                              /* InterlockedIncrement(&InUseCount) */
    InUseCount = InUseCount + 1;        /* Queued -> Referenced */
  }
  if (!WantToRemove) {                  /* Referenced -> Waiting (else -> Release) */
    do {                                /* InterlockedCompareExchange(&WorkerActive, 1, 0) */
      atomic {
        old = WorkerActive;
        if (old == 0)
          WorkerActive = 1;             /* Waiting -> Process; a failed attempt idles */
      }
    } while (old != 0);
    /* read the battery */
    assert(!Removed && !Unloaded);      /* matched by Process's assertion */
    WorkerActive = 0;                   /* Process -> Release */
  }
  /* THE BUG: dequeue first, release the reference afterwards. */
  atomic {                              /* InterlockedDecrement(&NumQueuedWorkers) */
    NumQueuedWorkers = NumQueuedWorkers - 1;   /* not simulated: only Dequeue may do this */
  }
  ReleaseInUse();                       /* may signal into a freed extension */
}
