/* compose/engine-explicit.c -- breadth-first search over packed states, on
 * one thread or several.
 *
 * The visited set is split into one store per worker by the states' hashes,
 * so no table is shared and each grows on its own (Stern and Dill's parallel
 * Murphi, inside one process). A level is expanded in rounds: the workers
 * claim the round's states in small chunks, each first from the new states
 * it sent itself, then from the others' (so none waits long for another),
 * and send every successor to the outbox of the store it belongs to; after
 * a barrier, each worker adds the outboxes addressed to its store, marking
 * the new states, and goes on to the next round's states without waiting
 * for the others (its successors go to a second set of outboxes, rounds
 * alternating between the two), so that a worker slower to add takes fewer
 * of the next round's states. Only the level's end waits for every
 * worker's adding. A worker's next level is the new states it sent, in the
 * order it sent them, whichever store holds them: siblings stay together,
 * and the worker that expands them meets their common successors (a
 * diamond a.b = b.a) in its table of recent ones, as one thread does. Which
 * worker expanded a state, and in what order states are added, changes
 * with the timing; what a level holds does not, and a level in which a
 * state goes wrong is finished before the search stops. So the verdict, the
 * counts and the counterexample (the least bad state of the level, reached
 * through the least predecessors) are the same for every number of workers
 * and every timing. With --max-states, which must store exactly that many,
 * and in a small search, each worker expands the states it sent alone and
 * the outboxes are added in worker order, so the states kept and the
 * memory figures are also the same for every timing. The store keeps each state with its depth and nothing else (no
 * parent pointers): a counterexample is rebuilt backwards, then replayed
 * forwards from the initial state to find the step between each two states. */
#include "engine-explicit.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../core/arena.h"
#include "../core/barrier.h"
#include "../core/interrupt.h"
#include "../core/vec.h"
#include "store.h"

/* How often (in successors generated) a worker looks at the clock and the
 * interrupt flag: one state of a very wide system can have 10^5 successors,
 * each slow to evaluate, and --timeout and Ctrl-C must still stop the
 * search soon. Memory and progress are looked at after every round. */
#define CHECK_EVERY_SUCCESSOR 64

/* A round is this many states of each store's level, and ends for a
 * worker after this many successors: outboxes stay small, and the barriers
 * cost little next to the work between them (with the compiled model a
 * state takes about 0.4 us: rounds of 1,024 states left two threads
 * waiting, and took 1.06-1.14x the time of these on Bluetooth N=8 and
 * battery N=7). */
#define ROUND_STATES 4096
/* The workers claim a round's states in chunks of this many, each from the
 * states it sent first, then, without --max-states, from the others': the
 * one whose states have more successors does fewer of them, and none waits
 * long at the round's end. */
#define CLAIM_STATES 32
/* From this many stored states on (and without --max-states) a worker also
 * claims the states the others sent. Before, each expands its own alone: a
 * small search then fills the same outboxes on every run, so its memory
 * figures, printed under --no-timing too, do not change. */
#define CLAIM_OTHERS_FROM 4096
/* A level of fewer states than this per worker is expanded by one thread
 * alone, without the barriers of a round: a deep and narrow search (a chain
 * of 100,000 levels) would otherwise spend its time waking threads. */
#define NARROW_LEVEL 64
#define ROUND_SUCCESSORS 65536

/* The workers remember the successors they sent lately (store_recent) from
 * this many states on: the table costs more than it saves in a small search. */
#define RECENT_FROM 4096

/* From this many stored states on, the model's successors and checks are
 * compiled to C (mdl_compile) while the search goes on: the compiler takes
 * about a tenth of a second of another core, and the search switches to
 * the compiled model between two rounds once it is ready. A search that
 * ends first never waits for it. ATHREAD_COMPILE=always compiles before
 * the search, and waits; =never never compiles. */
#define COMPILE_FROM 20000

/* How far ahead of an insertion its table entry is prefetched. */
#define PREFETCH_AHEAD 8

/* Workers at most (the default is the cores). */
#define MAX_WORKERS 64

/* Bytes that the cores move between them as one (two 64-byte lines: the
 * adjacent-line prefetcher pairs them). What a worker writes on every step
 * sits on lines of its own: a line that another core reads meanwhile would
 * go back and forth between the two (false sharing). */
#define CACHE_LINE 128

/* Packed states back to back (with slack for unpacking). */
typedef struct frontier {
  uint8_t *data;   /* count states of bytes each */
  size_t count;    /* states held */
  size_t capacity; /* states that fit */
} frontier;

/* Successors addressed to one store, with their hashes, and which of them
 * the store did not hold (its owner says so when it adds them). */
typedef struct outbox {
  frontier states;      /* packed */
  VEC(uint64_t) hashes; /* one per state */
  VEC(uint8_t) fresh;   /* one per state: 1 when it was new */
} outbox;

typedef struct search search;

typedef struct worker {
  search *s;                            /* the search */
  size_t id;                            /* its store is s->shards[id] */
  pthread_t thread;                     /* its thread (worker 0 runs on the caller's) */
  int64_t *cur;                         /* the state being expanded */
  int64_t *unpacked;                    /* scratch: a state unpacked */
  uint8_t *packed;                      /* scratch: a packed state */
  outbox *out[2];                       /* per round parity, per store: the successors found */
  VEC(uint8_t) sent[2];                 /* per round parity: the store of each successor sent, in order */
  unsigned parity;                      /* the round being expanded fills out[parity] */
  store_recent recent;                  /* the successors it sent lately (once the search is large) */
  frontier now, next;                   /* the new states it sent: of the level expanded, and of the next one */
  uint8_t *bad;                         /* the least state of its store that goes wrong at this level */
  _Alignas(CACHE_LINE) size_t from, to; /* what it claimed and has not expanded: indexes into held's level */
  struct worker *held;                  /* whose sent states those are */
  bool has_bad;                         /* bad holds one */
  mdl_fault fault;                      /* the first evaluation fault it met */
  uint64_t transitions, expanded;
  _Alignas(CACHE_LINE) atomic_size_t unclaimed; /* its now: the first state none has claimed */
  size_t round_end;                             /* this round's states of now end here */
} worker;

/* A store per worker, on lines of its own: its owner writes the count on
 * every insertion. */
typedef struct shard {
  _Alignas(CACHE_LINE) store st;
} shard;

struct search {
  const mdl *m;              /* the model */
  const explicit_options *o; /* limits and progress */
  compose_result *r;         /* what we report */
  size_t workers;            /* how many */
  shard *shards;             /* per worker: the states whose hash says so */
  store_layout layout;       /* how every shard packs (all alike): read by every worker, written by none */
  worker *w;                 /* the workers */
  bool narrow;               /* the level is worker 0's alone */
  unsigned parity;           /* the round being expanded: its outboxes (0 in a level's first round) */
  bool level_ends;           /* this round is the level's last (or the search stops) */
  bool claim_others;         /* a worker may claim the other stores' states */
  size_t compile_from;       /* stored states from which the model is compiled; SIZE_MAX: never */
  bool compile_waits;        /* the search waits for the compiler (ATHREAD_COMPILE=always) */
  bool compile_over;         /* the model runs compiled, or stays interpreted */
  uint32_t depth;            /* depth of the level being expanded */
  uint32_t insert_depth;     /* depth of the states being added (the next level's) */
  uint32_t deepest;          /* the deepest level that has states */
  barrier phases;            /* between the phases of a round */
  pthread_mutex_t lock;      /* guards the unknown reason */
  atomic_bool stop;          /* a limit ends the search */
  bool insert_serially;      /* this round may reach --max-states: one worker adds, exactly up to it */
  bool finished;             /* set at the end of the last round */
  uint8_t *bad;              /* the state that goes wrong (packed), or NULL */
  uint32_t bad_depth;        /* its depth */
  double start;              /* clock reading */
  uint64_t memory_cap;       /* bytes */
};

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static bool stopping(search *s) { return atomic_load_explicit(&s->stop, memory_order_relaxed); }

/* Ends the search with verdict unknown; the first reason stands. out_of_room:
 * a limit on what the store holds (with unbounded data, the symbolic engine
 * may still answer: report.h's hint). */
static void give_up(search *s, bool out_of_room, const char *fmt, const char *detail) {
  pthread_mutex_lock(&s->lock);
  if (!stopping(s)) {
    s->r->verdict = VERDICT_UNKNOWN;
    s->r->out_of_room = out_of_room;
    snprintf(s->r->unknown_reason, sizeof s->r->unknown_reason, fmt, detail);
    atomic_store(&s->stop, true);
  }
  pthread_mutex_unlock(&s->lock);
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

/* The workers asked for, else ATHREAD_THREADS when it is a number from 1
 * to MAX_WORKERS, else one per core (at most MAX_WORKERS). */
static size_t default_workers(unsigned asked) {
  const char *env = getenv("ATHREAD_THREADS");
  char *end = NULL;
  long n = asked ? (long)asked : env ? strtol(env, &end, 10) : 0;
  if (!asked && (!env || *end || n < 1 || n > MAX_WORKERS)) n = sysconf(_SC_NPROCESSORS_ONLN);
  return n < 1 ? 1 : n > MAX_WORKERS ? MAX_WORKERS : (size_t)n;
}

static void frontier_push(frontier *f, const uint8_t *packed, size_t bytes) {
  if (f->count == f->capacity) {
    f->capacity = f->capacity ? 2 * f->capacity : 16;
    f->data = xrealloc(f->data, f->capacity * bytes + STORE_SLACK);
  }
  memcpy(f->data + f->count++ * bytes, packed, bytes);
}

static size_t bytes_of(const search *s) { return s->layout.bytes; }

/* COMPILE_FROM, unless ATHREAD_COMPILE says "always" (0, and the search
 * waits for the compiler) or "never". */
static void plan_compiling(search *s) {
  const char *env = getenv("ATHREAD_COMPILE");
  s->compile_waits = env && strcmp(env, "always") == 0;
  s->compile_from = s->compile_waits ? 0 : env && strcmp(env, "never") == 0 ? SIZE_MAX : COMPILE_FROM;
}

static size_t stored(const search *s) {
  size_t n = 0;
  for (size_t v = 0; v < s->workers; v++) n += s->shards[v].st.count;
  return n;
}

static size_t memory_in_use(const search *s) {
  size_t n = 0, bytes = bytes_of(s);
  for (size_t v = 0; v < s->workers; v++) {
    const worker *w = &s->w[v];
    n +=
        store_memory(&s->shards[v].st) + store_recent_memory(&w->recent) + (w->now.capacity + w->next.capacity) * bytes;
    for (size_t p = 0; p < 2; p++) {
      n += w->sent[p].cap;
      for (size_t k = 0; k < s->workers; k++) n += w->out[p][k].states.capacity * (bytes + sizeof(uint64_t) + 1);
    }
  }
  return n;
}

/* The shard of a hash: its high half (the tables index by the low bits). */
static size_t shard_of(const search *s, uint64_t hash) { return (size_t)((hash >> 32) % s->workers); }

/* ---------------------------------------------------------------- expanding */

/* Packs a state and puts it in the outbox of its store. */
static void send(worker *w, const int64_t *state) {
  search *s = w->s;
  const store_layout *l = &s->layout;
  int bad = 0;
  if (!store_pack(l, state, w->packed, &bad)) {
    const mdl_slot *slot = mdl_slot_at(s->m, (size_t)bad);
    if (slot->kind == SLOT_COUNT) /* the model moves instances between counts: only a bug breaks their sum */
      give_up(s, false, "internal error: the counts from '%s' on do not add up to the instances", slot->name);
    else
      give_up(s, true, "the value of '%s' left the 32-bit window the explicit engine stores for unbounded ints",
              slot->name);
    return;
  }
  uint64_t h = store_hash(l, w->packed);
  if (w->recent.entries && store_recent_seen(&w->recent, w->packed, h)) return;
  size_t v = shard_of(s, h);
  outbox *o = &w->out[w->parity][v];
  frontier_push(&o->states, w->packed, l->bytes);
  vec_push(NULL, &o->hashes, h);
  vec_push(NULL, &o->fresh, 0);
  vec_push(NULL, &w->sent[w->parity], (uint8_t)v);
}

static void look_at_clock(search *s) {
  if (interrupt_requested()) give_up(s, false, "%s", INTERRUPT_REASON);
  if (s->o->timeout > 0 && now() - s->start >= s->o->timeout)
    give_up(s, false, "%s", "the time limit (--timeout) was reached");
}

static void on_initial(void *ctx, const int64_t *state) { send(ctx, state); }

static void on_successor(void *ctx, const mdl_step *step, const int64_t *dst) {
  worker *w = ctx;
  search *s = w->s;
  if (stopping(s)) return;
  if (s->o->observe) s->o->observe(s->o->observe_ctx, w->cur, step, dst);
  if (++w->transitions % CHECK_EVERY_SUCCESSOR == 0) look_at_clock(s);
  send(w, dst);
}

/* Claims for w a chunk of the round's states of owner's level; false when
 * none is left. */
static bool claim_from(worker *w, worker *owner) {
  if (atomic_load_explicit(&owner->unclaimed, memory_order_relaxed) >= owner->round_end) return false;
  size_t from = atomic_fetch_add_explicit(&owner->unclaimed, CLAIM_STATES, memory_order_relaxed);
  if (from >= owner->round_end) return false;
  w->held = owner;
  w->from = from;
  w->to = from + CLAIM_STATES < owner->round_end ? from + CLAIM_STATES : owner->round_end;
  return true;
}

/* Whether w has states of this round to expand: a chunk it holds, or one
 * claimed from the states it sent, or from another's. With --max-states or
 * in a small search a worker expands the states it sent alone (but in a
 * narrow level, worker 0 all of them, in worker order), so that every
 * outbox holds the same successors in the same order, whatever the timing. */
static bool claim(worker *w) {
  search *s = w->s;
  if (w->from < w->to) return true;
  bool others = s->claim_others || s->narrow;
  for (size_t k = 0; k < (others ? s->workers : 1); k++)
    if (claim_from(w, &s->w[(w->id + k) % s->workers])) return true;
  return false;
}

static void expand_round(worker *w) {
  search *s = w->s;
  uint64_t first = w->transitions;
  while (w->transitions - first < ROUND_SUCCESSORS && claim(w)) {
    if (stopping(s)) return;
    store_unpack(&s->layout, w->held->now.data + w->from++ * bytes_of(s), w->cur);
    if (s->o->observe) s->o->observe(s->o->observe_ctx, w->cur, NULL, NULL);
    mdl_next_all(s->m, w->cur, on_successor, w, &w->fault);
    w->expanded++;
  }
}

/* ---------------------------------------------------------------- adding */

static void keep_least_bad(worker *owner, const uint8_t *packed, size_t bytes) {
  if (owner->has_bad && memcmp(packed, owner->bad, bytes) >= 0) return;
  memcpy(owner->bad, packed, bytes);
  owner->has_bad = true;
}

/* Adds one state to store v unless present; checks it when new. x lends its
 * scratch. True when it was new. */
static bool add(search *s, worker *x, size_t v, const uint8_t *packed, uint64_t hash) {
  size_t bytes = bytes_of(s);
  if (!store_add_hashed(&s->shards[v].st, packed, hash, s->insert_depth)) return false;
  store_unpack(&s->layout, packed, x->unpacked);
  mdl_violation why;
  if (!mdl_check(s->m, x->unpacked, &why, &x->fault)) keep_least_bad(&s->w[v], packed, bytes);
  return true;
}

/* Adds the outboxes of round parity p addressed to store v, in worker
 * order, and marks the new states; at most room new states (then the state
 * limit ends the search). Returns the states added. */
static size_t add_inbox(search *s, worker *x, unsigned p, size_t v, size_t room) {
  size_t added = 0, bytes = bytes_of(s);
  for (size_t k = 0; k < s->workers; k++) {
    outbox *o = &s->w[k].out[p][v];
    for (size_t i = 0; i < o->states.count && added < room; i++) {
      if (i + PREFETCH_AHEAD < o->states.count) store_prefetch(&s->shards[v].st, o->hashes.items[i + PREFETCH_AHEAD]);
      if (!add(s, x, v, o->states.data + i * bytes, o->hashes.items[i])) continue;
      o->fresh.items[i] = 1;
      added++;
    }
  }
  if (added == room) give_up(s, true, "%s", "the state limit (--max-states) was reached");
  return added;
}

/* When this round's successors could reach --max-states, one worker adds
 * them all, so that the search stores exactly that many. */
static void plan_adding(search *s) {
  size_t pending = 0;
  for (size_t k = 0; k < s->workers; k++)
    for (size_t v = 0; v < s->workers; v++) pending += s->w[k].out[s->parity][v].states.count;
  s->insert_serially = s->o->max_states && stored(s) + pending >= s->o->max_states;
}

static void add_all(search *s, worker *x, unsigned p) {
  size_t total = stored(s), room = s->o->max_states > total ? s->o->max_states - total : 0;
  for (size_t v = 0; v < s->workers && room > 0; v++) room -= add_inbox(s, x, p, v, room);
}

/* Moves the new states that w sent in a round of parity p to its next
 * level, in the order it sent them (whichever store they went to: siblings
 * stay together, and whoever expands them meets their common successors
 * in its table of recent ones), and empties those outboxes. Only once
 * every store has added them. */
static void drain(search *s, worker *w, unsigned p) {
  size_t at[MAX_WORKERS] = {0}, bytes = bytes_of(s);
  vec_foreach(&w->sent[p], i) {
    outbox *o = &w->out[p][w->sent[p].items[i]];
    size_t k = at[w->sent[p].items[i]]++;
    if (o->fresh.items[k]) frontier_push(&w->next, o->states.data + k * bytes, bytes);
  }
  w->sent[p].len = 0;
  for (size_t v = 0; v < s->workers; v++) {
    outbox *o = &w->out[p][v];
    o->states.count = o->hashes.len = o->fresh.len = 0;
  }
}

/* Every worker's outboxes of both parities, drained (one thread, while the
 * others wait). */
static void drain_all(search *s) {
  for (size_t k = 0; k < s->workers; k++)
    for (unsigned p = 0; p < 2; p++) drain(s, &s->w[k], p ^ s->parity ^ 1);
}

/* w's part of adding the round it expanded: its store's inbox, or, when
 * the round could reach --max-states, worker 0 all of them. */
static void add_round(search *s, worker *w) {
  if (!s->insert_serially) add_inbox(s, w, w->parity, w->id, SIZE_MAX);
  else if (w->id == 0) add_all(s, w, w->parity);
}

/* ---------------------------------------------------------------- rounds */

static void report_progress(search *s) {
  double t = now(), rate = (double)stored(s) / (t - s->start > 1e-9 ? t - s->start : 1e-9);
  uint64_t expanded = 0;
  for (size_t v = 0; v < s->workers; v++) expanded += s->w[v].expanded;
  progress_phase(s->o->progress, "%zu states, %" PRIu64 " expanded, depth %" PRIu32 ", %.0f states/s, %.1f MiB",
                 stored(s), expanded, s->depth, rate, (double)memory_in_use(s) / 1048576.0);
}

static void look_at_limits(search *s) {
  for (size_t v = 0; v < s->workers; v++)
    if (s->w[v].fault == MDL_FAULT_OVERFLOW) give_up(s, false, "%s", "an integer expression overflowed 64 bits");
  look_at_clock(s);
  if (memory_in_use(s) >= s->memory_cap)
    give_up(s, true, "the memory limit was reached (%s)",
            s->o->max_memory ? "--max-memory" : "80% of the available memory");
  if (progress_due(s->o->progress)) report_progress(s);
}

/* The least state that goes wrong at the level just added, or NULL. */
static const uint8_t *least_bad(const search *s) {
  const uint8_t *least = NULL;
  for (size_t v = 0; v < s->workers; v++)
    if (s->w[v].has_bad && (!least || memcmp(s->w[v].bad, least, bytes_of(s)) < 0)) least = s->w[v].bad;
  return least;
}

/* The first state of w's store's level that no worker holds (claims that
 * failed went past the round's end). */
static size_t first_unclaimed(const worker *w) {
  size_t at = atomic_load(&w->unclaimed);
  return at < w->round_end ? at : w->round_end;
}

/* The next round's states of each store's level follow what was claimed of
 * it (a worker that stopped at ROUND_SUCCESSORS claimed less). */
static void plan_claims(search *s) {
  for (size_t v = 0; v < s->workers; v++) {
    worker *w = &s->w[v];
    size_t at = first_unclaimed(w);
    atomic_store(&w->unclaimed, at);
    w->round_end = w->now.count - at > ROUND_STATES ? at + ROUND_STATES : w->now.count;
  }
}

/* Starts compiling the model once the search is large (compile_from), and
 * then looks whether it is ready; between rounds, while no worker explores
 * the model. A model that stays interpreted says why in the result. */
static void compile_when_large(search *s) {
  if (s->compile_over || stored(s) < s->compile_from) return;
  mdl_compiling at = mdl_compile(s->m, s->compile_waits, s->r->compile_failure, sizeof s->r->compile_failure);
  s->r->compiled = at == MDL_COMPILED;
  s->compile_over = at != MDL_COMPILING;
}

/* Makes the states just added the level to expand; false when there are none. */
static bool next_level(search *s) {
  size_t total = 0;
  for (size_t v = 0; v < s->workers; v++) {
    worker *w = &s->w[v];
    frontier added = w->next;
    w->next = w->now;
    w->next.count = 0;
    w->now = added;
    w->from = w->to = 0;
    atomic_store(&w->unclaimed, 0);
    w->round_end = 0;
    total += added.count;
  }
  s->narrow = total < NARROW_LEVEL * s->workers;
  s->claim_others = !s->o->max_states && stored(s) >= CLAIM_OTHERS_FROM;
  s->parity = 0;
  plan_claims(s);
  if (total == 0) return false;
  if (stored(s) >= RECENT_FROM && !s->w[0].recent.entries)
    for (size_t v = 0; v < s->workers; v++) store_recent_init(&s->w[v].recent, &s->layout);
  s->depth = s->deepest = s->insert_depth;
  s->insert_depth = s->depth + 1;
  return true;
}

static bool level_done(const search *s) {
  for (size_t v = 0; v < s->workers; v++)
    if (s->w[v].from < s->w[v].to || first_unclaimed(&s->w[v]) < s->w[v].now.count) return false;
  return true;
}

/* Between a round's expansion and its adding, in one worker while the
 * others wait: the limits, the compiler, the plan for adding, and what
 * comes next: the level's end (when all its states are expanded, or the
 * search stops), else the next round, in the other outboxes. */
static void between_rounds(void *ctx) {
  search *s = ctx;
  look_at_limits(s);
  compile_when_large(s);
  plan_adding(s);
  s->level_ends = stopping(s) || level_done(s);
  if (s->level_ends) return;
  s->parity ^= 1;
  plan_claims(s);
}

/* After the level's last round is added, in one worker: the end of the
 * search (a state of the level goes wrong, or a limit, or nothing new), or
 * the next level. */
static void end_level(search *s) {
  drain_all(s);
  const uint8_t *bad = least_bad(s);
  if (bad) {
    s->bad = xmalloc(bytes_of(s) + STORE_SLACK);
    memcpy(s->bad, bad, bytes_of(s));
    s->bad_depth = s->insert_depth;
    s->finished = true;
  } else if (stopping(s) || !next_level(s)) {
    s->finished = true;
  }
}

/* The last worker to arrive runs serial(s) before any leaves (on one
 * thread, it just runs). */
static void between_phases(search *s, void (*serial)(void *ctx)) {
  if (s->workers == 1) serial(s);
  else barrier_wait_then(&s->phases, serial, s);
}

/* A round of a narrow level, by the one thread that runs while the others
 * wait at a barrier: worker 0 claims every worker's states, in worker
 * order, and every store's outboxes are added in store order (the order the
 * workers would add them in). */
static void solo_round(search *s) {
  worker *w = &s->w[0];
  w->parity = s->parity;
  expand_round(w);
  between_rounds(s);
  if (s->insert_serially) add_all(s, w, w->parity);
  else
    for (size_t v = 0; v < s->workers; v++) add_inbox(s, w, w->parity, v, SIZE_MAX);
  drain(s, w, w->parity);
  if (s->level_ends) end_level(s);
}

/* The level's end, in the last worker to finish adding; then, while the
 * levels are narrow, their rounds by that worker alone. */
static void at_level_end(void *ctx) {
  search *s = ctx;
  end_level(s);
  while (!s->finished && s->workers > 1 && s->narrow) solo_round(s);
}

static void *work(void *arg) {
  worker *w = arg;
  search *s = w->s;
  while (!s->finished) {
    w->parity = s->parity;
    expand_round(w);
    between_phases(s, between_rounds);
    add_round(s, w);
    drain(s, w, w->parity ^ 1);
    if (s->level_ends) between_phases(s, at_level_end);
  }
  return NULL;
}

static void start_workers(search *s) {
  for (size_t v = 1; v < s->workers; v++)
    if (pthread_create(&s->w[v].thread, NULL, work, &s->w[v]) != 0) {
      fprintf(stderr, "athread: cannot start a search thread\n");
      abort();
    }
}

static void explore(search *s) {
  mdl_initial(s->m, on_initial, &s->w[0], &s->w[0].fault);
  start_workers(s);
  work(&s->w[0]);
  for (size_t v = 1; v < s->workers; v++) pthread_join(s->w[v].thread, NULL);
}

/* ---------------------------------------------------------------- counterexamples */

typedef struct finder {
  search *s;             /* the search */
  const uint8_t *target; /* packed state to reach */
  bool found;            /* a successor matched */
  mdl_step step;         /* the step that reached it */
  int64_t *dst;          /* that successor (or NULL) */
} finder;

static void match_successor(void *ctx, const mdl_step *step, const int64_t *dst) {
  finder *f = ctx;
  worker *w = &f->s->w[0];
  const store_layout *l = &f->s->layout;
  int bad = 0;
  if (f->found) return;
  if (!store_pack(l, dst, w->packed, &bad) || memcmp(w->packed, f->target, l->bytes) != 0) return;
  f->found = true;
  f->step = *step;
  if (f->dst) memcpy(f->dst, dst, mdl_width(f->s->m) * sizeof *dst);
}

/* True when packed (a stored state) has target as a successor. */
static bool leads_to(search *s, const uint8_t *packed, const uint8_t *target) {
  finder f = {.s = s, .target = target};
  store_unpack(&s->layout, packed, s->w[0].cur);
  mdl_next_all(s->m, s->w[0].cur, match_successor, &f, &s->w[0].fault);
  return f.found;
}

/* Copies into out the least stored state of depth d with target as a successor. */
static void least_predecessor(search *s, uint32_t d, const uint8_t *target, uint8_t *out) {
  bool found = false;
  size_t bytes = bytes_of(s);
  for (size_t v = 0; v < s->workers; v++)
    for (size_t i = 0; i < s->shards[v].st.table_size; i++) {
      uint32_t depth;
      const uint8_t *e = store_entry(&s->shards[v].st, i, &depth);
      if (!e || depth != d || (found && memcmp(e, out, bytes) >= 0) || !leads_to(s, e, target)) continue;
      memcpy(out, e, bytes);
      found = true;
    }
}

/* The chain of packed states from an initial one to the bad one.
 * Returns an array of (depth + 1) packed states. */
static uint8_t *backward_chain(search *s) {
  size_t bytes = bytes_of(s);
  uint8_t *chain = xmalloc((s->bad_depth + 1) * bytes + STORE_SLACK);
  memcpy(chain + s->bad_depth * bytes, s->bad, bytes);
  for (uint32_t d = s->bad_depth; d > 0; d--) least_predecessor(s, d - 1, chain + d * bytes, chain + (d - 1) * bytes);
  return chain;
}

/* Replays the chain from its initial state, choosing at each step a
 * successor that packs as the next link. */
static void replay_chain(search *s) {
  uint8_t *chain = backward_chain(s);
  size_t w = mdl_width(s->m), bytes = bytes_of(s), steps = s->bad_depth;
  compose_result *r = s->r;
  r->trace_steps = steps;
  r->trace_states = xcalloc((steps + 1) * w, sizeof *r->trace_states);
  r->trace = xcalloc(steps + 1, sizeof *r->trace);
  store_unpack(&s->layout, chain, r->trace_states);
  for (size_t k = 0; k < steps; k++) {
    finder f = {.s = s, .target = chain + (k + 1) * bytes, .dst = r->trace_states + (k + 1) * w};
    mdl_next_all(s->m, r->trace_states + k * w, match_successor, &f, &s->w[0].fault);
    r->trace[k] = f.step;
  }
  mdl_check(s->m, r->trace_states + steps * w, &r->violation, &s->w[0].fault);
  free(chain);
}

/* ---------------------------------------------------------------- entry */

/* A zeroed array, each entry starting a cache line (CACHE_LINE divides the size). */
/* Zeroed room for count things of size bytes, on cache lines of its own:
 * what one worker writes on every step must not share a line with what
 * another writes (small allocations lie side by side). */
static void *per_worker(size_t count, size_t size) {
  size_t bytes = (count * size + CACHE_LINE - 1) / CACHE_LINE * CACHE_LINE;
  void *p = aligned_alloc(CACHE_LINE, bytes);
  if (!p) {
    fprintf(stderr, "athread: out of memory\n");
    abort();
  }
  return memset(p, 0, bytes);
}

static void search_init(search *s, const mdl *m, const explicit_options *o, compose_result *r) {
  *s = (search){.m = m, .o = o, .r = r, .workers = default_workers(o->threads)};
  size_t width = mdl_width(m);
  s->shards = per_worker(s->workers, sizeof *s->shards);
  s->w = per_worker(s->workers, sizeof *s->w);
  store_layout_init(&s->layout, m);
  for (size_t v = 0; v < s->workers; v++) {
    store_init(&s->shards[v].st, &s->layout);
    worker *w = &s->w[v];
    *w = (worker){.s = s, .id = v};
    for (size_t p = 0; p < 2; p++) w->out[p] = per_worker(s->workers, sizeof *w->out[p]);
    w->cur = per_worker(width + 1, sizeof *w->cur);
    w->unpacked = per_worker(width + 1, sizeof *w->unpacked);
    w->packed = per_worker(s->layout.bytes + STORE_SLACK, 1);
    w->bad = per_worker(s->layout.bytes + STORE_SLACK, 1);
    atomic_init(&w->unclaimed, 0);
  }
  barrier_init(&s->phases, (unsigned)s->workers);
  pthread_mutex_init(&s->lock, NULL);
  atomic_init(&s->stop, false);
  s->memory_cap = o->max_memory ? o->max_memory : default_memory_cap();
  plan_compiling(s);
}

static void search_free(search *s) {
  for (size_t v = 0; v < s->workers; v++) {
    worker *w = &s->w[v];
    for (size_t p = 0; p < 2; p++) {
      vec_free(&w->sent[p]);
      for (size_t k = 0; k < s->workers; k++) {
        free(w->out[p][k].states.data);
        vec_free(&w->out[p][k].hashes);
        vec_free(&w->out[p][k].fresh);
      }
    }
    void *owned[] = {w->out[0], w->out[1], w->now.data, w->next.data, w->cur, w->unpacked, w->packed, w->bad};
    for (size_t i = 0; i < sizeof owned / sizeof *owned; i++) free(owned[i]);
    store_free(&s->shards[v].st);
    store_recent_free(&w->recent);
  }
  store_layout_free(&s->layout);
  barrier_destroy(&s->phases);
  pthread_mutex_destroy(&s->lock);
  free(s->shards);
  free(s->w);
  free(s->bad);
}

/* Counts and the end of the run into r. */
static void conclude(search *s) {
  compose_result *r = s->r;
  for (size_t v = 0; v < s->workers; v++) r->transitions += s->w[v].transitions;
  if (s->bad) {
    r->verdict = VERDICT_UNSAFE; /* even when a limit came while its level was being finished */
    r->out_of_room = false;
    replay_chain(s);
  } else if (!stopping(s)) {
    r->verdict = VERDICT_SAFE;
  }
  r->states = stored(s);
  r->depth = s->bad ? s->bad_depth : s->deepest;
  r->seconds = now() - s->start;
  r->state_bytes = bytes_of(s);
  r->memory_bytes = memory_in_use(s);
  r->workers = s->workers;
}

void explicit_run(const mdl *m, const explicit_options *o, compose_result *r) {
  memset(r, 0, sizeof *r);
  search s;
  search_init(&s, m, o, r);
  s.start = now();
  explore(&s);
  conclude(&s);
  search_free(&s);
}
