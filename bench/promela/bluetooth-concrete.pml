/* bluetooth-concrete.pml -- the CONCRETE Bluetooth driver of
 * examples/bluetooth/bluetooth.c (and, with -DBUGGY, bluetooth-buggy.c),
 * hand-translated to Promela step for step, for bench/headline: SPIN on the
 * concrete program, against athread's modular route.
 *
 *   spin -DN=3 -a bluetooth-concrete.pml            the fixed driver, 3 workers
 *   spin -DN=3 -DBUGGY -a bluetooth-concrete.pml    the KISS race (unsafe for N >= 1)
 *   gcc -O2 -DSAFETY -o pan pan.c && ./pan -E       "errors: 0" means safe
 *
 * One process per C thread: PnpStop once, PnpAdd N times; IoIncrement and
 * IoDecrement are inlined as athread inlines them. Atomic steps follow
 * shared/spec/athread-language.md section 7: one Promela statement per C
 * step (expression statement, declaration with initializer, branch condition,
 * atomic { } section, await), with two merges of purely local steps:
 *   - `return e` of the inlined IoIncrement and the caller's declaration
 *     `int status = IoIncrement();` are one local step `status = e`;
 *   - the C assert(p) is a check, not a step: it is evaluated inside the
 *     atomic of the step that follows it (nothing in between can block).
 * The locals are the C's: status, and pending of IoDecrement (one per frame;
 * Promela keeps its last value after the call, as a stack slot would).
 *
 * Property: the C assert(!stopped), and the system invariant of
 * bluetooth.athread, count(Worker@Work) == 0 || !stopped. Work is the code
 * between the worker's successful IoIncrement and the IoDecrement after its
 * work; mon_work is a ghost counter of the workers in that region (a function
 * of the program counters, so it adds no states). It is checked when a worker
 * enters the region and when the stopper sets `stopped`, the only two steps
 * that can falsify the invariant.
 */
#ifndef N
#define N 2 /* number of worker (PnpAdd) threads */
#endif

bool stoppingFlag  = false;   /* set by PnpStop: no new I/O may start */
bool stoppingEvent = false;   /* KEVENT, signalled when pendingIO reaches 0 */
bool stopped       = false;   /* the driver has stopped */
int  pendingIO     = 1;       /* references; the initial 1 is the stopper's */
byte mon_work      = 0;       /* monitor ghost: workers in the Work region */

/* IoDecrement(): atomic { pendingIO = pendingIO - 1; pending = pendingIO; }
 * then if (pending == 0) stoppingEvent = true;  PRE is empty, or `stmt;`
 * run inside the atomic step (the caller's assert and the monitor's
 * bookkeeping). A cpp macro, not an inline, because PRE is a piece of a
 * statement list. */
#define IoDecrement(PRE)                                    \
  atomic { PRE pendingIO = pendingIO - 1; pending = pendingIO }; \
  if                                                        \
  :: pending == 0 -> stoppingEvent = true                   \
  :: else                                                   \
  fi

/* The stop routine (Stopper in bluetooth.athread). */
active proctype PnpStop() {
  int pending;                              /* IoDecrement's local */
  stoppingFlag = true;
  IoDecrement();
  stoppingEvent;                            /* await(stoppingEvent) */
  atomic { stopped = true; assert(mon_work == 0) }  /* system invariant */
}

/* A worker thread doing one I/O (Worker in bluetooth.athread). */
active [N] proctype PnpAdd() {
  int status;
  int pending;                              /* IoDecrement's local */
#ifndef BUGGY
  /* IoIncrement, fixed order: take the reference, then test the flag. */
  atomic { pendingIO = pendingIO + 1 };
  if
  :: stoppingFlag ->
     IoDecrement();
     status = -1                            /* return -1 into status */
  :: atomic { !stoppingFlag -> mon_work++; assert(!stopped) };  /* enters Work */
     status = 0                             /* return 0 into status */
  fi;
#else
  /* IoIncrement, the original order (THE BUG): test, then take the reference. */
  if
  :: stoppingFlag -> status = -1            /* return -1 into status */
  :: else ->
     atomic { pendingIO = pendingIO + 1; mon_work++; assert(!stopped) };  /* enters Work */
     status = 0                             /* return 0 into status */
  fi;
#endif
  if
  :: status == 0 ->
     /* do work here; assert(!stopped) is checked with the next step */
     IoDecrement(assert(!stopped); mon_work--;)
  :: else
  fi
}
