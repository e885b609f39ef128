/* compose/engine-explicit.c -- breadth-first search over packed states.
 *
 * States are stored in BFS order without parent pointers (memory per state is
 * the packed vector plus a 4-byte table slot); a counterexample is rebuilt
 * backwards level by level, then replayed forwards from the initial state to
 * turn the symmetry-reduced chain into a concrete trace with real instance
 * numbers. */
#include "engine-explicit.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../core/arena.h"
#include "../core/vec.h"
#include "store.h"

/* The table holds 32-bit indices. */
#define HARD_STATE_LIMIT 4000000000ULL
/* How often (in states expanded) the clock and memory are looked at. */
#define CHECK_EVERY 1024

typedef struct search {
  const mdl *m;               /* the model */
  const explicit_options *o;  /* limits and progress */
  explicit_result *r;         /* what we report */
  store st;                   /* visited states */
  VEC(size_t) levels;         /* index of the first state of each BFS level */
  int64_t *cur;               /* the state being expanded */
  int64_t *canon;             /* scratch: a successor, canonicalized */
  uint8_t *packed;            /* scratch: a packed state */
  size_t bad;                 /* index of a state that goes wrong, or SIZE_MAX */
  bool stop;                  /* a limit or a violation ends the search */
  double start, last_report;  /* clock readings */
  uint64_t memory_cap;        /* bytes */
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

/* ---------------------------------------------------------------- visiting */

/* Stores a canonical state; checks it when it is new. */
static void visit(search *s, const int64_t *canon) {
  if (!store_pack(&s->st.layout, canon, s->packed)) {
    give_up(s, "the value of '%s' left the 32-bit window the explicit engine stores for unbounded ints",
            mdl_slot_at(s->m, (size_t)s->st.layout.overflow_slot)->name);
    return;
  }
  bool added;
  size_t index = store_add(&s->st, s->packed, &added);
  if (!added) return;
  mdl_violation why;
  if (!mdl_check(s->m, canon, &why)) {
    s->bad = index;
    s->stop = true;
  }
}

static void on_initial(void *ctx, const int64_t *state) {
  search *s = ctx;
  if (s->stop) return;
  memcpy(s->canon, state, mdl_width(s->m) * sizeof *state);
  mdl_canonicalize(s->m, s->canon);
  visit(s, s->canon);
}

static void on_successor(void *ctx, const mdl_step *step, const int64_t *dst) {
  (void)step;
  search *s = ctx;
  if (s->stop) return;
  s->r->transitions++;
  memcpy(s->canon, dst, mdl_width(s->m) * sizeof *dst);
  mdl_canonicalize(s->m, s->canon);
  visit(s, s->canon);
}

/* ---------------------------------------------------------------- limits and progress */

static void report_progress(search *s, double t, size_t expanded) {
  double rate = (double)s->st.count / (t - s->start > 1e-9 ? t - s->start : 1e-9);
  fprintf(s->o->progress, "compose: %zu states, %zu expanded, depth %zu, %.0f states/s, %.1f MiB\n", s->st.count, expanded,
          s->levels.len, rate, (double)store_memory(&s->st) / 1048576.0);
  fflush(s->o->progress);
  s->last_report = t;
}

static void check_limits(search *s, size_t expanded) {
  if (mdl_fault_seen(s->m) == MDL_FAULT_OVERFLOW) give_up(s, "%s", "an integer expression overflowed 64 bits");
  if (s->o->max_states && s->st.count >= s->o->max_states) give_up(s, "%s", "the state limit (--max-states) was reached");
  if (s->st.count >= HARD_STATE_LIMIT) give_up(s, "%s", "the explicit engine stores at most 4 billion states");
  if (expanded % CHECK_EVERY != 0) return;
  double t = now();
  if (s->o->timeout > 0 && t - s->start >= s->o->timeout) give_up(s, "%s", "the time limit (--timeout) was reached");
  if (store_memory(&s->st) >= s->memory_cap) give_up(s, "%s", "the memory limit was reached");
  if (s->o->progress && t - s->last_report >= 2.0) report_progress(s, t, expanded);
}

static void explore(search *s) {
  mdl_initial(s->m, on_initial, s);
  size_t level_end = s->st.count;
  vec_push(NULL, &s->levels, (size_t)0);
  for (size_t i = 0; i < s->st.count && !s->stop; i++) {
    if (i == level_end) {
      vec_push(NULL, &s->levels, i);
      level_end = s->st.count;
    }
    store_unpack(&s->st.layout, store_get(&s->st, i), s->cur);
    mdl_next_all(s->m, s->cur, on_successor, s);
    check_limits(s, i + 1);
  }
  if (s->bad != SIZE_MAX && s->bad >= level_end) vec_push(NULL, &s->levels, level_end); /* the bad state opened a level */
}

/* ---------------------------------------------------------------- counterexamples */

typedef struct finder {
  search *s;              /* the search */
  const uint8_t *target;  /* packed canonical state to reach */
  bool found;             /* a successor matched */
  mdl_step step;          /* the step that reached it */
  int64_t *dst;           /* that successor, concrete */
} finder;

static void match_successor(void *ctx, const mdl_step *step, const int64_t *dst) {
  finder *f = ctx;
  search *s = f->s;
  if (f->found) return;
  memcpy(s->canon, dst, mdl_width(s->m) * sizeof *dst);
  mdl_canonicalize(s->m, s->canon);
  if (!store_pack(&s->st.layout, s->canon, s->packed) || memcmp(s->packed, f->target, s->st.layout.bytes) != 0) return;
  f->found = true;
  f->step = *step;
  if (f->dst) memcpy(f->dst, dst, mdl_width(s->m) * sizeof *dst);
}

static size_t level_of(const search *s, size_t index) {
  size_t lvl = 0;
  while (lvl + 1 < s->levels.len && s->levels.items[lvl + 1] <= index) lvl++;
  return lvl;
}

/* The chain of stored (canonical) states from an initial one to s->bad. */
static size_t *backward_chain(search *s, size_t *length) {
  size_t depth = level_of(s, s->bad);
  size_t *chain = xmalloc((depth + 1) * sizeof *chain);
  chain[depth] = s->bad;
  for (size_t lvl = depth; lvl > 0; lvl--) {
    finder f = {.s = s, .target = store_get(&s->st, chain[lvl])};
    for (size_t j = s->levels.items[lvl - 1]; j < s->levels.items[lvl] && !f.found; j++) {
      store_unpack(&s->st.layout, store_get(&s->st, j), s->cur);
      mdl_next_all(s->m, s->cur, match_successor, &f);
      if (f.found) chain[lvl - 1] = j;
    }
  }
  *length = depth;
  return chain;
}

/* Replays the chain from its concrete initial state, choosing at each step
 * a successor whose canonical form is the next link. */
static void concrete_trace(search *s) {
  size_t steps;
  size_t *chain = backward_chain(s, &steps);
  size_t w = mdl_width(s->m);
  explicit_result *r = s->r;
  r->trace_steps = steps;
  r->trace_states = xcalloc((steps + 1) * w, sizeof *r->trace_states);
  r->trace = xcalloc(steps + 1, sizeof *r->trace);
  store_unpack(&s->st.layout, store_get(&s->st, chain[0]), r->trace_states);
  for (size_t k = 0; k < steps; k++) {
    finder f = {.s = s, .target = store_get(&s->st, chain[k + 1]), .dst = r->trace_states + (k + 1) * w};
    mdl_next_all(s->m, r->trace_states + k * w, match_successor, &f);
    r->trace[k] = f.step;
  }
  mdl_check(s->m, r->trace_states + steps * w, &r->violation);
  free(chain);
}

/* ---------------------------------------------------------------- entry */

void explicit_run(const mdl *m, const explicit_options *o, explicit_result *r) {
  memset(r, 0, sizeof *r);
  search s = {.m = m, .o = o, .r = r, .bad = SIZE_MAX};
  size_t w = mdl_width(m);
  store_init(&s.st, m);
  s.cur = xcalloc(w + 1, sizeof *s.cur);
  s.canon = xcalloc(w + 1, sizeof *s.canon);
  s.packed = xcalloc(s.st.layout.bytes + STORE_SLACK, 1);
  s.memory_cap = o->max_memory ? o->max_memory : default_memory_cap();
  s.start = s.last_report = now();
  explore(&s);
  if (s.bad != SIZE_MAX) {
    r->verdict = VERDICT_UNSAFE;
    concrete_trace(&s);
  } else if (!s.stop) {
    r->verdict = VERDICT_SAFE;
  }
  r->states = s.st.count;
  r->depth = s.levels.len ? (unsigned)s.levels.len - 1 : 0;
  r->seconds = now() - s.start;
  r->state_bytes = s.st.layout.bytes;
  r->memory_bytes = store_memory(&s.st);
  store_free(&s.st);
  vec_free(&s.levels);
  free(s.cur);
  free(s.canon);
  free(s.packed);
}

void explicit_result_free(explicit_result *r) {
  free(r->trace_states);
  free(r->trace);
  r->trace_states = NULL;
  r->trace = NULL;
}
