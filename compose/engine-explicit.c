/* compose/engine-explicit.c -- breadth-first search over packed states.
 *
 * The store keeps each state with its depth and nothing else (no parent
 * pointers); the search walks the frontier one level at a time. A
 * counterexample is rebuilt backwards, finding at each depth a stored state
 * with a successor equal to the next link, then replayed forwards from the
 * initial state so that the symmetry-reduced chain becomes a concrete trace
 * with real instance numbers. */
#include "engine-explicit.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../core/arena.h"
#include "../core/interrupt.h"
#include "../core/vec.h"
#include "store.h"

/* How often (in states expanded, and in successors generated) the clock,
 * the memory and the interrupt flag are looked at. Successors count too: one
 * state of a very wide system can have 10^5 successors, each slow to
 * canonicalize, and --timeout and Ctrl-C must still stop the search soon. */
#define CHECK_EVERY 1024
#define CHECK_EVERY_SUCCESSOR 64

/* Packed states of one BFS level, back to back (with slack for unpacking). */
typedef struct frontier {
  uint8_t *data;   /* count states of bytes each */
  size_t count;    /* states held */
  size_t capacity; /* states that fit */
} frontier;

typedef struct search {
  const mdl *m;              /* the model */
  const explicit_options *o; /* limits and progress */
  compose_result *r;         /* what we report */
  store st;                  /* visited states */
  frontier now, next;        /* the level being expanded, the one being found */
  uint32_t depth;            /* depth of the level being expanded */
  int64_t *cur;              /* the state being expanded */
  int64_t *canon;            /* scratch: a successor, canonicalized */
  uint8_t *packed;           /* scratch: a packed state */
  frontier batch;            /* packed successors of the state being expanded */
  VEC(uint64_t) hashes;      /* their hashes, prefetched */
  uint8_t *bad;              /* a state that goes wrong (packed), or NULL */
  uint32_t bad_depth;        /* its depth */
  bool stop;                 /* a limit or a violation ends the search */
  uint64_t expanded;         /* states whose successors were generated */
  double start;              /* clock reading */
  uint64_t memory_cap;       /* bytes */
  mdl_fault fault;           /* the first evaluation fault the model met */
} search;

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void give_up(search *s, const char *fmt, const char *detail) {
  if (s->stop) return;
  s->stop = true;
  s->r->verdict = VERDICT_UNKNOWN;
  snprintf(s->r->unknown_reason, sizeof s->r->unknown_reason, fmt, detail);
}

/* A limit on what the store holds: with unbounded data, the symbolic engine
 * may still answer (report.h's hint). */
static void run_out(search *s, const char *fmt, const char *detail) {
  if (s->stop) return; /* the first reason stands */
  give_up(s, fmt, detail);
  s->r->out_of_room = true;
}

/* 80% of MemAvailable, so that the search stops before the machine swaps. */
static uint64_t default_memory_cap(void) {
  FILE *f = fopen("/proc/meminfo", "r");
  uint64_t kib = 0;
  char line[128];
  while (f && fgets(line, sizeof line, f))
    if (sscanf(line, "MemAvailable: %" SCNu64 " kB", &kib) == 1) break;
  if (f) fclose(f);
  return kib ? kib * 1024 / 5 * 4 : (uint64_t)4 << 30;
}

static void frontier_push(frontier *f, const uint8_t *packed, size_t bytes) {
  if (f->count == f->capacity) {
    f->capacity = f->capacity ? 2 * f->capacity : 1024;
    f->data = xrealloc(f->data, f->capacity * bytes + STORE_SLACK);
  }
  memcpy(f->data + f->count++ * bytes, packed, bytes);
}

static size_t memory_in_use(const search *s) {
  return store_memory(&s->st) + (s->now.capacity + s->next.capacity) * s->st.layout.bytes;
}

/* ---------------------------------------------------------------- visiting */

/* Canonicalizes and packs a state into the batch, and prefetches its place
 * in the table: the lookups of a whole batch then overlap their misses. */
static void enqueue(search *s, const int64_t *state) {
  memcpy(s->canon, state, mdl_width(s->m) * sizeof *state);
  if (!s->st.layout.counter_form) mdl_canonicalize(s->m, s->canon); /* counts need no order */
  if (!store_pack(&s->st.layout, s->canon, s->packed)) {
    run_out(s, "the value of '%s' left the 32-bit window the explicit engine stores for unbounded ints",
            mdl_slot_at(s->m, (size_t)s->st.layout.overflow_slot)->name);
    return;
  }
  uint64_t h = store_hash(&s->st, s->packed);
  store_prefetch(&s->st, h);
  frontier_push(&s->batch, s->packed, s->st.layout.bytes);
  vec_push(NULL, &s->hashes, h);
}

/* Stores the batch's states found at depth; checks the new ones. */
static void visit_batch(search *s, uint32_t depth) {
  size_t bytes = s->st.layout.bytes;
  for (size_t i = 0; i < s->batch.count && !s->stop; i++) {
    const uint8_t *packed = s->batch.data + i * bytes;
    if (!store_add_hashed(&s->st, packed, s->hashes.items[i], depth)) continue;
    frontier_push(&s->next, packed, bytes);
    store_unpack(&s->st.layout, packed, s->canon);
    mdl_violation why;
    if (mdl_check(s->m, s->canon, &why, &s->fault)) continue;
    s->bad = xmalloc(bytes + STORE_SLACK);
    memcpy(s->bad, packed, bytes);
    s->bad_depth = depth;
    s->stop = true;
  }
  s->batch.count = 0;
  s->hashes.len = 0;
}

static void check_clock(search *s);

static void on_initial(void *ctx, const int64_t *state) {
  search *s = ctx;
  if (!s->stop) enqueue(s, state);
}

static void on_successor(void *ctx, const mdl_step *step, const int64_t *dst) {
  search *s = ctx;
  if (s->stop) return;
  if (s->o->observe) s->o->observe(s->o->observe_ctx, s->cur, step, dst);
  if (++s->r->transitions % CHECK_EVERY_SUCCESSOR == 0) check_clock(s);
  if (!s->stop) enqueue(s, dst);
}

/* ---------------------------------------------------------------- limits and progress */

static void report_progress(search *s, double t) {
  double rate = (double)s->st.count / (t - s->start > 1e-9 ? t - s->start : 1e-9);
  progress_phase(s->o->progress, "%zu states, %" PRIu64 " expanded, depth %" PRIu32 ", %.0f states/s, %.1f MiB",
                 s->st.count, s->expanded, s->depth, rate, (double)memory_in_use(s) / 1048576.0);
}

static void check_clock(search *s) {
  if (interrupt_requested()) give_up(s, "%s", INTERRUPT_REASON);
  double t = now();
  if (s->o->timeout > 0 && t - s->start >= s->o->timeout) give_up(s, "%s", "the time limit (--timeout) was reached");
  if (memory_in_use(s) >= s->memory_cap)
    run_out(s, "the memory limit was reached (%s)", s->o->max_memory ? "--max-memory" : "80% of the available memory");
  if (progress_due(s->o->progress)) report_progress(s, t);
}

static void check_limits(search *s) {
  if (s->fault == MDL_FAULT_OVERFLOW) give_up(s, "%s", "an integer expression overflowed 64 bits");
  if (s->o->max_states && s->st.count >= s->o->max_states)
    run_out(s, "%s", "the state limit (--max-states) was reached");
  if (s->expanded % CHECK_EVERY == 0) check_clock(s);
}

static void explore(search *s) {
  mdl_initial(s->m, on_initial, s, &s->fault);
  visit_batch(s, 0);
  while (!s->stop && s->next.count > 0) {
    frontier level = s->next;
    s->next = s->now;
    s->next.count = 0;
    s->now = level;
    for (size_t i = 0; i < s->now.count && !s->stop; i++) {
      store_unpack(&s->st.layout, s->now.data + i * s->st.layout.bytes, s->cur);
      if (s->o->observe) s->o->observe(s->o->observe_ctx, s->cur, NULL, NULL);
      mdl_next_all(s->m, s->cur, on_successor, s, &s->fault);
      visit_batch(s, s->depth + 1);
      s->expanded++;
      check_limits(s);
    }
    if (!s->stop || s->bad) s->depth++;
  }
  if (s->depth > 0 && !s->bad && s->next.count == 0) s->depth--; /* the last level had no new successors */
}

/* ---------------------------------------------------------------- counterexamples */

typedef struct finder {
  search *s;             /* the search */
  const uint8_t *target; /* packed canonical state to reach */
  bool found;            /* a successor matched */
  mdl_step step;         /* the step that reached it */
  int64_t *dst;          /* that successor, concrete (or NULL) */
} finder;

static void match_successor(void *ctx, const mdl_step *step, const int64_t *dst) {
  finder *f = ctx;
  search *s = f->s;
  if (f->found) return;
  memcpy(s->canon, dst, mdl_width(s->m) * sizeof *dst);
  if (!s->st.layout.counter_form) mdl_canonicalize(s->m, s->canon);
  if (!store_pack(&s->st.layout, s->canon, s->packed) || memcmp(s->packed, f->target, s->st.layout.bytes) != 0) return;
  f->found = true;
  f->step = *step;
  if (f->dst) memcpy(f->dst, dst, mdl_width(s->m) * sizeof *dst);
}

/* The chain of canonical packed states from an initial one to the bad one:
 * for each depth, a stored state of the depth before with the next link as
 * a successor. Returns an array of (depth + 1) packed states. */
static uint8_t *backward_chain(search *s) {
  size_t bytes = s->st.layout.bytes;
  uint8_t *chain = xmalloc((s->bad_depth + 1) * bytes + STORE_SLACK);
  memcpy(chain + s->bad_depth * bytes, s->bad, bytes);
  for (uint32_t d = s->bad_depth; d > 0; d--) {
    finder f = {.s = s, .target = chain + d * bytes};
    for (size_t i = 0; i < s->st.table_size && !f.found; i++) {
      uint32_t depth;
      const uint8_t *e = store_entry(&s->st, i, &depth);
      if (!e || depth != d - 1) continue;
      store_unpack(&s->st.layout, e, s->cur);
      mdl_next_all(s->m, s->cur, match_successor, &f, &s->fault);
      if (f.found) memcpy(chain + (d - 1) * bytes, e, bytes);
    }
  }
  return chain;
}

/* Replays the chain from its concrete initial state, choosing at each step
 * a successor whose canonical form is the next link. */
static void concrete_trace(search *s) {
  uint8_t *chain = backward_chain(s);
  size_t w = mdl_width(s->m), bytes = s->st.layout.bytes, steps = s->bad_depth;
  compose_result *r = s->r;
  r->trace_steps = steps;
  r->trace_states = xcalloc((steps + 1) * w, sizeof *r->trace_states);
  r->trace = xcalloc(steps + 1, sizeof *r->trace);
  store_unpack(&s->st.layout, chain, r->trace_states);
  for (size_t k = 0; k < steps; k++) {
    finder f = {.s = s, .target = chain + (k + 1) * bytes, .dst = r->trace_states + (k + 1) * w};
    mdl_next_all(s->m, r->trace_states + k * w, match_successor, &f, &s->fault);
    r->trace[k] = f.step;
  }
  mdl_check(s->m, r->trace_states + steps * w, &r->violation, &s->fault);
  free(chain);
}

/* ---------------------------------------------------------------- entry */

void explicit_run(const mdl *m, const explicit_options *o, compose_result *r) {
  memset(r, 0, sizeof *r);
  search s = {.m = m, .o = o, .r = r};
  size_t w = mdl_width(m);
  store_init(&s.st, m);
  s.cur = xcalloc(w + 1, sizeof *s.cur);
  s.canon = xcalloc(w + 1, sizeof *s.canon);
  s.packed = xcalloc(s.st.layout.bytes + STORE_SLACK, 1);
  s.memory_cap = o->max_memory ? o->max_memory : default_memory_cap();
  s.start = now();
  explore(&s);
  if (s.bad) {
    r->verdict = VERDICT_UNSAFE;
    concrete_trace(&s);
  } else if (!s.stop) {
    r->verdict = VERDICT_SAFE;
  }
  r->states = s.st.count;
  r->depth = s.bad ? s.bad_depth : s.depth;
  r->seconds = now() - s.start;
  r->state_bytes = s.st.layout.bytes;
  r->memory_bytes = memory_in_use(&s);
  store_free(&s.st);
  free(s.now.data);
  free(s.next.data);
  free(s.cur);
  free(s.canon);
  free(s.packed);
  free(s.bad);
  free(s.batch.data);
  vec_free(&s.hashes);
}
