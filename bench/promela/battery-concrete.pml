/* battery-concrete.pml -- the CONCRETE battery driver teardown of
 * examples/battery/battery.c (and, with -DBUGGY, battery-buggy.c),
 * hand-translated to Promela step for step, for bench/headline: SPIN on the
 * concrete program, against athread's modular route.
 *
 *   spin -DN=3 -a battery-concrete.pml             the fixed driver, 3 workers
 *   spin -DN=3 -DBUGGY -a battery-concrete.pml     dequeue before release (unsafe)
 *   gcc -O2 -DSAFETY -o pan pan.c && ./pan -E      "errors: 0" means safe
 *
 * One process per C thread: BatteryUnload once, BatteryWorker N times;
 * ReleaseInUse is inlined as athread inlines it. The C initialises
 * NumQueuedWorkers to 2 (its N); here it is N. Atomic steps follow
 * shared/spec/athread-language.md section 7: one Promela statement per C
 * step (expression statement, branch or loop condition, atomic { } section,
 * await), except that the C assert(p) is a check, not a step: it is
 * evaluated inside the atomic of the step that follows it. The locals are
 * the C's: old, and count of ReleaseInUse (one per frame).
 *
 * Properties: the C assert(!Removed && !Unloaded), and the two system
 * invariants of battery.athread, with ghost counters (functions of the
 * program counters and locals, so they add no states):
 *   count(Worker@Process) <= 1      mon_process counts the workers between a
 *                                   successful compare-exchange and the
 *                                   release of WorkerActive; checked on entry;
 *   !Unloaded || count(Worker@Done) == N
 *                                   mon_done counts the workers that finished
 *                                   (made their last step); checked when
 *                                   Unloaded is set, as mon_done never drops.
 */
#ifndef N
#define N 2 /* number of queued worker threads */
#endif

bool WantToRemove     = false;  /* unload has started: no new work */
int  InUseCount       = 1;      /* in-use references; the 1 is Unload's */
bool ReadyToRemove    = false;  /* KEVENT, signalled when InUseCount reaches 0 */
int  WorkerActive     = 0;      /* 1 while a worker reads the battery */
int  NumQueuedWorkers = N;      /* work items queued and not finished */
bool Removed          = false;  /* battery unregistered: no more reads */
bool Unloaded         = false;  /* device extension freed */
byte mon_process      = 0;      /* monitor ghost: workers in Process */
byte mon_done         = 0;      /* monitor ghost: workers that finished */

/* ReleaseInUse(): atomic { InUseCount = InUseCount - 1; count = InUseCount; }
 * then if (count == 0) ReadyToRemove = true;  LAST is empty, or `; stmt`
 * run inside the call's final step when the call is the last thing its
 * thread does (the monitor's bookkeeping). A cpp macro, not an inline,
 * because LAST is a piece of a statement list. */
#define ReleaseInUse(LAST)                                              \
  atomic { InUseCount = InUseCount - 1; count = InUseCount };          \
  if                                                                    \
  :: count == 0 -> atomic { ReadyToRemove = true LAST }                 \
  :: atomic { count != 0 LAST }                                         \
  fi

/* The unload thread (Unload in battery.athread). */
active proctype BatteryUnload() {
  int count;                                /* ReleaseInUse's local */
  WantToRemove = true;
  ReleaseInUse();
  ReadyToRemove;                            /* await(ReadyToRemove) */
  Removed = true;
  NumQueuedWorkers == 0;                    /* await(NumQueuedWorkers == 0) */
  atomic { Unloaded = true; assert(mon_done == N) }  /* system invariant */
}

/* A queued worker thread (Worker in battery.athread). */
active [N] proctype BatteryWorker() {
  int old;
  int count;                                /* ReleaseInUse's local */
  atomic { InUseCount = InUseCount + 1 };
  if
  :: !WantToRemove ->
     do                                     /* do { ... } while (old != 0); */
     :: atomic {                            /* InterlockedCompareExchange */
          old = WorkerActive;
          if
          :: old == 0 -> WorkerActive = 1;
             mon_process++; assert(mon_process <= 1)   /* enters Process */
          :: else
          fi
        };
        if                                  /* the loop condition: a step */
        :: old != 0
        :: else -> break
        fi
     od;
     /* read the battery; assert(!Removed && !Unloaded) is checked with the next step */
     atomic { assert(!Removed && !Unloaded); WorkerActive = 0; mon_process-- }
  :: else
  fi;
#ifndef BUGGY
  ReleaseInUse();
  atomic { NumQueuedWorkers = NumQueuedWorkers - 1; mon_done++ }
#else
  /* THE BUG: dequeue first, release the reference afterwards. */
  atomic { NumQueuedWorkers = NumQueuedWorkers - 1 };
  ReleaseInUse(; mon_done++)
#endif
}
