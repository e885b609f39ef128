/* core/progress.c -- rate-limited progress lines. */
#include "progress.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define DEFAULT_INTERVAL 2.0
/* A timer repeats a line no more often than this even at interval 0 (the
 * watchdog wakes every 20 ms: a test's interval 0 must not flood). */
#define BEAT_FLOOR 0.5

static double clock_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double interval_from_env(void) {
  const char *text = getenv("ATHREAD_PROGRESS_INTERVAL");
  char *end;
  double x = text && *text ? strtod(text, &end) : -1;
  return x >= 0 && text && *end == '\0' ? x : DEFAULT_INTERVAL;
}

void progress_init(progress *p, FILE *out, const char *command) {
  memset(p, 0, sizeof *p);
  p->out = out;
  p->interval = interval_from_env();
  p->start = clock_now();
  p->last = p->start;
  snprintf(p->command, sizeof p->command, "%s", command);
  snprintf(p->head, sizeof p->head, "%s", command);
  pthread_mutex_init(&p->lock, NULL);
}

void progress_free(progress *p) { pthread_mutex_destroy(&p->lock); }

bool progress_on(const progress *p) { return p && p->out; }

/* (with the lock held) */
static bool due(const progress *p, double t) { return t - p->last >= p->interval; }

bool progress_due(progress *p) {
  if (!progress_on(p)) return false;
  pthread_mutex_lock(&p->lock);
  bool yes = due(p, clock_now());
  pthread_mutex_unlock(&p->lock);
  return yes;
}

void progress_context(progress *p, const char *fmt, ...) {
  if (!progress_on(p)) return;
  char context[80] = "";
  va_list ap;
  va_start(ap, fmt);
  if (fmt) vsnprintf(context, sizeof context, fmt, ap);
  va_end(ap);
  pthread_mutex_lock(&p->lock);
  snprintf(p->head, sizeof p->head, "%s%s%s", p->command, fmt ? ": " : "", context);
  p->phase[0] = '\0'; /* the last context's phase is over */
  pthread_mutex_unlock(&p->lock);
}

/* (with the lock held) One line, flushed: stderr may be a pipe. */
static void line(progress *p, const char *text, bool timed, double t) {
  if (timed) fprintf(p->out, "%s: %s (%.1f s)\n", p->head, text, t - p->start);
  else fprintf(p->out, "%s: %s\n", p->head, text);
  fflush(p->out);
  p->last = t;
}

void progress_say(progress *p, const char *fmt, ...) {
  if (!progress_on(p)) return;
  char text[200];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(text, sizeof text, fmt, ap);
  va_end(ap);
  pthread_mutex_lock(&p->lock);
  line(p, text, false, clock_now());
  pthread_mutex_unlock(&p->lock);
}

void progress_phase(progress *p, const char *fmt, ...) {
  if (!progress_on(p)) return;
  va_list ap;
  va_start(ap, fmt);
  pthread_mutex_lock(&p->lock);
  vsnprintf(p->phase, sizeof p->phase, fmt, ap);
  double t = clock_now();
  if (due(p, t)) line(p, p->phase, true, t);
  pthread_mutex_unlock(&p->lock);
  va_end(ap);
}

void progress_beat(progress *p) {
  if (!progress_on(p)) return;
  pthread_mutex_lock(&p->lock);
  double t = clock_now();
  if (p->phase[0] && due(p, t) && t - p->last >= BEAT_FLOOR) line(p, p->phase, true, t);
  pthread_mutex_unlock(&p->lock);
}
