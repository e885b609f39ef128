/* bench/ceiling/bluetooth-counted.c -- the abstract Bluetooth system
 * (examples/bluetooth/bluetooth.athread, N workers counted), searched
 * breadth-first by a program written by hand for it alone: what a compiled
 * successor function could reach on this machine, the bound for issue 19's
 * "n = 100 under 10 s". Not athread's code, and no part of it: the bench
 * runs it beside `athread compose` (bench/ceiling/run), and their state and
 * transition counts must agree (a second, independent count of the counted
 * view).
 *
 * A state is one word: stoppingFlag, stoppingEvent, stopped (a bit each),
 * pendingIO (7 bits), the stopper's control state (3 bits), then how many
 * workers are in Start, Entered, Work, Abort and Signal (7 bits each; the
 * rest are Done). The visited set is an open-addressing table of words
 * with their depth beside; successors are hashed and prefetched in batches
 * of 64 before they are inserted, as athread's outboxes are. One thread.
 *
 * usage: bluetooth-counted N   (N <= 120)
 * prints: "S states, T transitions, depth D, X s" or the first bad state.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { FLAG = 0, EVENT = 1, STOPPED = 2, PENDING = 3, STOPPER = 10, COUNTS = 13, COUNT_BITS = 7 };
enum { START, ENTERED, WORK, ABORT, SIGNAL, DONE };                            /* a worker's states */
enum { S_START, S_FLAGGED, S_SIGNAL, S_WAITING, S_WOKEN, S_STOPPED };          /* the stopper's */

static int64_t workers;

static uint64_t field(uint64_t s, unsigned pos, unsigned bits) { return s >> pos & ((1ull << bits) - 1); }

static uint64_t with(uint64_t s, unsigned pos, unsigned bits, uint64_t v) {
  return (s & ~(((1ull << bits) - 1) << pos)) | v << pos;
}

static unsigned count_at(int q) { return COUNTS + COUNT_BITS * (unsigned)q; }

/* Moves one worker from state from to state to (Done is the rest). */
static uint64_t move(uint64_t s, int from, int to) {
  if (from != DONE) s -= 1ull << count_at(from);
  if (to != DONE) s += 1ull << count_at(to);
  return s;
}

static void counts(uint64_t s, int64_t *c) {
  c[DONE] = workers;
  for (int q = START; q < DONE; q++) c[DONE] -= c[q] = (int64_t)field(s, count_at(q), COUNT_BITS);
}

/* ---------------------------------------------------------------- the visited set */

static uint64_t *keys;    /* state + 1; 0: empty */
static uint32_t *depths;  /* beside each key */
static uint64_t slots = 1024, stored;

static uint64_t hash(uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ULL;
  return h ^ (h >> 33);
}

static void grow(void) {
  uint64_t *old_keys = keys, old_slots = slots;
  uint32_t *old_depths = depths;
  slots *= 2;
  keys = calloc(slots, sizeof *keys);
  depths = calloc(slots, sizeof *depths);
  for (uint64_t i = 0; i < old_slots; i++) {
    if (!old_keys[i]) continue;
    uint64_t j = hash(old_keys[i]) & (slots - 1);
    while (keys[j]) j = (j + 1) & (slots - 1);
    keys[j] = old_keys[i];
    depths[j] = old_depths[i];
  }
  free(old_keys);
  free(old_depths);
}

/* ---------------------------------------------------------------- the search */

static uint64_t *level, *next;
static size_t level_count, next_count, capacity = 1024;
static uint32_t depth;
static long transitions;
static uint64_t bad;     /* a state that goes wrong + 1, or 0 */
static uint64_t batch[64], batch_hash[64];
static int batched;

/* The assertions of the states some instance is in, and the invariant. */
static int holds(uint64_t s) {
  int64_t c[6], pending = (int64_t)field(s, PENDING, 7);
  uint64_t stopper = field(s, STOPPER, 3), stopped = field(s, STOPPED, 1);
  counts(s, c);
  if (stopper == S_FLAGGED && pending < 1) return 0;
  if (c[START] && pending > workers) return 0;
  if (c[WORK] && (stopped || pending < 1)) return 0;
  if (c[ABORT] && pending < 1) return 0;
  return c[WORK] == 0 || !stopped;
}

static void insert(uint64_t s, uint64_t h) {
  uint64_t j = h & (slots - 1);
  while (keys[j]) {
    if (keys[j] == s + 1) return;
    j = (j + 1) & (slots - 1);
  }
  keys[j] = s + 1;
  depths[j] = depth + 1;
  if (next_count == capacity) {
    capacity *= 2;
    next = realloc(next, capacity * sizeof *next);
    level = realloc(level, capacity * sizeof *level);
  }
  next[next_count++] = s;
  if (!holds(s) && !bad) bad = s + 1;
  if (16 * ++stored > 13 * slots) grow();
}

static void flush(void) {
  for (int i = 0; i < batched; i++) insert(batch[i], batch_hash[i]);
  batched = 0;
}

static void successor(uint64_t s) {
  transitions++;
  uint64_t h = hash(s + 1);
  __builtin_prefetch(&keys[h & (slots - 1)]);
  batch[batched] = s;
  batch_hash[batched++] = h;
  if (batched == 64) flush();
}

/* A pendingIO decrement: to Signal when it reaches 0, else to Done (a worker), or Signal / Waiting (the stopper). */
static void expand_stopper(uint64_t s, int64_t pending) {
  switch (field(s, STOPPER, 3)) {
  case S_START: successor(with(with(s, FLAG, 1, 1), STOPPER, 3, S_FLAGGED)); break;
  case S_FLAGGED:
    if (pending >= 1)
      successor(with(with(s, PENDING, 7, (uint64_t)pending - 1), STOPPER, 3, pending == 1 ? S_SIGNAL : S_WAITING));
    break;
  case S_SIGNAL: successor(with(with(s, EVENT, 1, 1), STOPPER, 3, S_WAITING)); break;
  case S_WAITING:
    if (field(s, EVENT, 1)) successor(with(s, STOPPER, 3, S_WOKEN));
    break;
  case S_WOKEN: successor(with(with(s, STOPPED, 1, 1), STOPPER, 3, S_STOPPED)); break;
  }
}

static void expand(uint64_t s) {
  int64_t c[6], pending = (int64_t)field(s, PENDING, 7);
  counts(s, c);
  expand_stopper(s, pending);
  if (c[START] && pending + 1 <= workers + 1) successor(with(move(s, START, ENTERED), PENDING, 7, (uint64_t)pending + 1));
  if (c[ENTERED]) successor(move(s, ENTERED, field(s, FLAG, 1) ? ABORT : WORK));
  for (int q = WORK; q <= ABORT; q++)
    if (c[q] && pending >= 1)
      successor(with(move(s, q, pending == 1 ? SIGNAL : DONE), PENDING, 7, (uint64_t)pending - 1));
  if (c[SIGNAL]) successor(with(move(s, SIGNAL, DONE), EVENT, 1, 1));
}

int main(int argc, char **argv) {
  workers = argc == 2 ? atoll(argv[1]) : 0;
  if (workers < 1 || workers > 120) {
    fprintf(stderr, "usage: bluetooth-counted N   (1 <= N <= 120)\n");
    return 2;
  }
  keys = calloc(slots, sizeof *keys);
  depths = calloc(slots, sizeof *depths);
  level = malloc(capacity * sizeof *level);
  next = malloc(capacity * sizeof *next);
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  depth = UINT32_MAX; /* the initial state's depth + 1 is 0 */
  insert(with(0, PENDING, 7, 1) | (uint64_t)workers << count_at(START), 0);
  for (depth = 0; next_count && !bad; depth++) {
    uint64_t *t = level;
    level = next;
    next = t;
    level_count = next_count;
    next_count = 0;
    for (size_t i = 0; i < level_count; i++) expand(level[i]);
    flush();
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
  if (bad) printf("bad state %#llx\n", (unsigned long long)(bad - 1));
  printf("%llu states, %ld transitions, depth %u, %.3f s\n", (unsigned long long)stored, transitions, depth - 1, seconds);
  return bad ? 1 : 0;
}
