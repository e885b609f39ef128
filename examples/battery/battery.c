/* battery.c -- the battery driver teardown of "Abstract Threads" (Lahiri,
 * Malkis, Qadeer, VMCAI 2010, Fig. 6): the unload routine and the queued
 * worker threads.  The device extension's fields are globals here (the C
 * subset has no structs or pointers); each global is a shared variable of
 * battery.athread, which gives the abstract threads (Fig. 7).
 *
 *   athread conform battery.athread battery.c  -> Unload and Worker conform
 *
 * The comments name the abstract edge that simulates each shared step;
 * steps that touch no shared variable (locals, returns, local tests) and
 * failed compare-exchange attempts are matched by the idle steps.  Each read
 * and each write of a global is one step (C's atomicity, athread's default),
 * so the interlocked operations must be atomic sections: a plain
 * InUseCount = InUseCount + 1 would lose Unload's decrement when it comes
 * between the read and the write.
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
  ReleaseInUse();                       /* Release -> Signal | Dequeue; Signal -> Dequeue */
  atomic {                              /* InterlockedDecrement(&NumQueuedWorkers) */
    NumQueuedWorkers = NumQueuedWorkers - 1;   /* Dequeue -> Done */
  }
}
