/* core/progress.h -- the progress lines of a long run on stderr: every
 * engine (explicit, symbolic, --for-all, conform's) says what it is doing
 * through one reporter, at most once per interval, "compose: WHAT (T s)".
 *
 * Owns its mutex (progress_free) and the texts it copies; borrows out. A
 * NULL reporter, or one with out NULL, is off: every call does nothing. The
 * engines and the Z3 watchdog (core/smt.c, from its own thread) may call it
 * at once, so each call takes the lock. The interval is 2 s, or the seconds
 * in ATHREAD_PROGRESS_INTERVAL (for tests: 0 prints every phase).
 */
#ifndef ATHREAD_PROGRESS_H
#define ATHREAD_PROGRESS_H

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>

typedef struct progress {
  FILE *out;            /* where lines go; NULL: off */
  double interval;      /* seconds between two lines */
  double start;         /* the clock when the run started (smt_now's) */
  double last;          /* the clock at the last line */
  char head[128];       /* "compose", "conform: thread Worker (2/3)": command, ": ", a context of 80 */
  char command[24];     /* "compose": the head without a context */
  char phase[200];      /* what is going on now, or "" */
  pthread_mutex_t lock; /* the watchdog beats from its own thread */
} progress;

/* Starts the clock; command heads every line ("compose"). out NULL: off. */
void progress_init(progress *p, FILE *out, const char *command);
void progress_free(progress *p);
/* Whether p reports at all (callers skip work that only a line needs). */
bool progress_on(const progress *p);
/* Whether a line of progress_phase would print now (an interval passed). */
bool progress_due(progress *p);
/* Heads later lines with "COMMAND: CONTEXT" (fmt NULL: "COMMAND" again). */
void progress_context(progress *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Prints "HEAD: TEXT" now: an event (a thread starts or ends). */
void progress_say(progress *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Sets what is going on; prints "HEAD: WHAT (T s)" when due (T: the run's time). */
void progress_phase(progress *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Prints the phase again when due: for a timer while one long call runs. */
void progress_beat(progress *p);

#endif
