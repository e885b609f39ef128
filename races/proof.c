/* races/proof.c -- layer 3: candidates proved absent by the abstract
 * threads (proof.h). */
#include "proof.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../conformance/check.h"
#include "../conformance/coverage.h"
#include "../core/smt.h"

typedef VEC(int) int_list;

typedef enum probe_status {
  PROBE_OPEN,    /* not known yet */
  PROBE_HOLDS,   /* proved: never in that state there */
  PROBE_POSSIBLE /* a run of C(T, T#) has it, or the layer gave up on it */
} probe_status;

/* One thread's probes, sorted (by location, state, values) and unique. */
typedef struct probe_set {
  VEC(ins_state_probe) probes;
  probe_status *status; /* per probe */
  bool *asked;          /* per probe: in the next round */
  int_list *starts;     /* per code location: the boundaries whose step may reach it (computed when asked) */
  bool *started;        /* per code location: starts computed; starts empty then means not known */
  int_list *into;       /* per code location: the edges into it (built when first needed) */
} probe_set;

/* Two different instances of the system at once: one of thread ta in
 * state qa, one of thread tb in qb, with these shared values (explored),
 * or where this condition on them holds (the counter abstraction's). */
typedef struct together {
  const int64_t *shared;
  const ir_expr *when;
  int ta, qa, tb, qb;
} together;

typedef struct proof {
  proof_request *rq;
  ast_spec *spec;
  size_t shared;       /* the spec's shared variables: a row's first values */
  size_t width;        /* a row: the shared values, then each instance's state */
  VEC(int64_t) rows;   /* the system's reachable states */
  VEC(together) pairs; /* the states two instances occupy together, sorted and unique */
  bool too_many;       /* more than PROOF_MAX_STATES */
  int *thread_of;      /* per instance (tid - 1): its spec thread */
  uint64_t states;     /* the system's reachable states */
  double deadline;     /* for the check and the probes */
  check_result check;  /* athread check's run */
  probe_set *sets;     /* per proof thread */
} proof;

/* ---------------------------------------------------------------- the system */

/* Each state the search expands becomes a row. */
static void observe(void *ctx, const int64_t *src, const mdl_step *step, const int64_t *dst) {
  (void)dst;
  proof *p = ctx;
  if (step || p->too_many) return;
  if (p->rows.len / p->width >= PROOF_MAX_STATES) {
    p->too_many = true;
    return;
  }
  for (size_t k = 0; k < p->width; k++) vec_push(NULL, &p->rows, src[k]);
}

static void map_instances(proof *p) {
  p->thread_of = xcalloc((size_t)p->spec->instance_total + 1, sizeof *p->thread_of);
  vec_foreach(&p->spec->instances, k) {
    const ast_instance *in = p->spec->instances.items[k];
    for (int64_t i = 0; i < in->count_value; i++) p->thread_of[in->first_tid - 1 + i] = in->thread_index;
  }
}

/* Explores the system (the explicit engine, no symmetry: each instance's
 * state apart); NULL when every reachable state is a row, else why not. */
static const char *explore(proof *p, arena *a) {
  map_instances(p);
  p->shared = p->spec->shared.len;
  p->width = p->shared + (size_t)p->spec->instance_total;
  char why[240] = "";
  explicit_options l = {.max_states = ENV_MAX_STATES, .observe = observe, .observe_ctx = p, .threads = 1};
  l.timeout = p->deadline - smt_now() > 0.01 ? p->deadline - smt_now() : 0.01;
  if (!compose_explore(p->spec, &l, &p->states, why, sizeof why))
    return arena_printf(a, "the system's reachable states are not known: %s", why);
  if (p->too_many)
    return arena_printf(a, "the system has %" PRIu64 " reachable states, more than the %u the layer probes", p->states,
                        PROOF_MAX_STATES);
  return NULL;
}

/* ---------------------------------------------------------------- the theorem */

/* athread check on the spec and the C files (the checks' own messages are
 * not the user's: the spec's source speaks into a quiet sink meanwhile);
 * NULL when it says safe, else why not. */
static const char *theorem(proof *p, arena *a) {
  const races_request *rr = p->rq->rq;
  check_request rq = {.conform = {.files = rr->files,
                                  .file_count = rr->file_count,
                                  .cpp = rr->cpp,
                                  .ints = CFE_INTS_C,
                                  .function = rr->function,
                                  .timeout = PROOF_SECONDS / 2,
                                  .atomicity = ATOMICITY_ACCESS,
                                  .env = ENV_SYSTEM,
                                  .env_max_states = ENV_MAX_STATES},
                      .for_all = p->rq->for_all,
                      .spec_options = rr->set};
  diag_sink quiet = {0}, *user = p->spec->src->sink;
  p->spec->src->sink = &quiet;
  bool ran = check_run(&quiet, p->spec, &rq, &p->check);
  p->spec->src->sink = user;
  if (!ran) return arena_printf(a, "athread check cannot run: %s", quiet.first_error);
  if (p->check.verdict == CHECK_SAFE) return NULL;
  char *above = strstr(p->check.reason, " (its counterexample is above)");
  if (above) *above = '\0'; /* (athread check prints it; races does not) */
  return arena_printf(a, "athread check on the spec and the files says %s: %s", check_verdict_text(p->check.verdict),
                      p->check.reason);
}

/* ---------------------------------------------------------------- where steps start */

/* Per location of code, the edges into it. */
static int_list *edges_into(const prog *code) {
  int_list *into = xcalloc(code->locs.len + 1, sizeof *into);
  vec_foreach(&code->edges, k) vec_push(NULL, &into[code->edges.items[k].to], (int)k);
  return into;
}

/* Adds to out the boundaries from which a step may reach l: back from l
 * over locations inside steps, on a stack of its own (a step may pass many
 * locations). False when a path back ends at a location no step starts
 * from. */
static bool walk_back(const prog *code, const int_list *into, int l, int_list *out) {
  bool *seen = xcalloc(code->locs.len + 1, sizeof *seen), ok = true;
  int_list stack = {0};
  vec_push(NULL, &stack, l);
  seen[l] = true;
  while (ok && stack.len) {
    int at = stack.items[--stack.len];
    if (code->locs.items[at].boundary) {
      vec_push(NULL, out, at);
      continue;
    }
    ok = into[at].len > 0;
    vec_foreach(&into[at], k) {
      int from = code->edges.items[into[at].items[k]].from;
      if (seen[from]) continue;
      seen[from] = true;
      vec_push(NULL, &stack, from);
    }
  }
  vec_free(&stack);
  free(seen);
  return ok;
}

/* The boundaries whose step may reach location l of thread i (empty: not known). */
static const int_list *starts(proof *p, size_t i, int l) {
  probe_set *s = &p->sets[i];
  const prog *code = p->rq->threads[i].code;
  if (s->started[l]) return &s->starts[l];
  s->started[l] = true;
  if (!s->into) s->into = edges_into(code);
  if (!walk_back(code, s->into, l, &s->starts[l])) s->starts[l].len = 0;
  return &s->starts[l];
}

/* ---------------------------------------------------------------- the probes */

static size_t probe_width; /* the values a probe compares (qsort's comparator has no context) */

/* Shared values, NULL (any) first, then conditions (by address: each is
 * made once). */
static int compare_values(const int64_t *a, const ir_expr *x, const int64_t *b, const ir_expr *y) {
  if (!a || !b) {
    if (a || b) return (a != NULL) - (b != NULL);
    return x == y ? 0 : (uintptr_t)x < (uintptr_t)y ? -1 : 1;
  }
  return memcmp(a, b, probe_width * sizeof *a);
}

static int compare_probes(const void *x, const void *y) {
  const ins_state_probe *a = x, *b = y;
  if (a->location != b->location) return a->location < b->location ? -1 : 1;
  if (a->state != b->state) return a->state < b->state ? -1 : 1;
  return compare_values(a->shared, a->when, b->shared, b->when);
}

static int compare_together(const void *x, const void *y) {
  const together *a = x, *b = y;
  int d[4] = {a->ta - b->ta, a->qa - b->qa, a->tb - b->tb, a->qb - b->qb};
  for (int k = 0; k < 4; k++)
    if (d[k]) return d[k] < 0 ? -1 : 1;
  return compare_values(a->shared, a->when, b->shared, b->when);
}

/* Sorts n items of size bytes by cmp and drops repeats; returns how many are left. */
static size_t sorted_unique(void *items, size_t n, size_t size, int (*cmp)(const void *, const void *)) {
  if (!n) return 0;
  qsort(items, n, size, cmp);
  char *at = items;
  size_t kept = 1;
  for (size_t k = 1; k < n; k++)
    if (cmp(at + (kept - 1) * size, at + k * size) != 0) memmove(at + kept++ * size, at + k * size, size);
  return kept;
}

static void unique_pairs(proof *p) {
  p->pairs.len = sorted_unique(p->pairs.items, p->pairs.len, sizeof *p->pairs.items, compare_together);
}

/* ---------------------------------------------------------------- the states together */

/* From the explored rows: every two different instances of each row; NULL,
 * or why not (too many). */
static const char *rows_together(proof *p, arena *a) {
  int64_t n = p->spec->instance_total;
  for (size_t r = 0; r < p->rows.len; r += p->width) {
    const int64_t *row = p->rows.items + r, *at = row + p->shared;
    for (int64_t i = 0; i < n; i++)
      for (int64_t j = 0; j < n; j++)
        if (i != j)
          vec_push(NULL, &p->pairs, ((together){row, NULL, p->thread_of[i], (int)at[i], p->thread_of[j], (int)at[j]}));
    if (p->pairs.len > PROOF_MAX_TOGETHER) unique_pairs(p);
    if (p->pairs.len > PROOF_MAX_TOGETHER)
      return arena_printf(a, "the system's states give more than %u pairs of instances' states", PROOF_MAX_TOGETHER);
  }
  unique_pairs(p);
  return NULL;
}

/* For every N: the states of threads ta and tb that two instances may
 * occupy together, each with the condition on the shared values (the
 * counter abstraction's invariants; an explicit instance of tb, each one). */
static void counted_together(proof *p, int ta, int tb) {
  const conform_env *e = &p->check.conform.env;
  const ast_thread *x = p->spec->threads.items[ta], *y = p->spec->threads.items[tb];
  vec_foreach(&x->states, qa)
    vec_foreach(&y->states, qb)
      vec_foreach(&p->spec->instances, k) {
        const ast_instance *in = p->spec->instances.items[k];
        int64_t count = in->thread_index != tb ? 0 : e->invariants->counted[tb] ? 1 : in->count_value;
        for (int64_t i = 0; i < count; i++) {
          const ir_expr *when = env_counters_together(e, ta, (int)qa, tb, (int)qb, in->first_tid + i);
          if (when) vec_push(NULL, &p->pairs, ((together){NULL, when, ta, (int)qa, tb, (int)qb}));
        }
      }
}

static void pairs_for_all(proof *p) {
  for (size_t k = 0; k < p->rq->pair_count; k++) {
    const proof_pair *pr = &p->rq->pairs[k];
    counted_together(p, p->rq->threads[pr->a.thread].spec_thread, p->rq->threads[pr->b.thread].spec_thread);
  }
  unique_pairs(p);
}

/* Calls fn for each together entry of pr's threads (a's first) until fn
 * says false; returns false then. */
typedef bool (*side_fn)(proof *p, const proof_pair *pr, const together *t, int64_t qx, int64_t qy);

static bool each_together(proof *p, const proof_pair *pr, side_fn fn) {
  int ta = p->rq->threads[pr->a.thread].spec_thread, tb = p->rq->threads[pr->b.thread].spec_thread;
  vec_foreach(&p->pairs, k) {
    const together *t = &p->pairs.items[k];
    if (t->ta == ta && t->tb == tb && !fn(p, pr, t, t->qa, t->qb)) return false;
  }
  return true;
}

/* Adds the probes of one side: the state at each boundary before x's access. */
static void add_side(proof *p, const proof_access *x, const together *t, int64_t q) {
  const int_list *b = starts(p, (size_t)x->thread, x->location);
  probe_set *s = &p->sets[x->thread];
  vec_foreach(b, k) vec_push(NULL, &s->probes, ((ins_state_probe){b->items[k], (int)q, t->shared, t->when}));
}

static bool add_row(proof *p, const proof_pair *pr, const together *row, int64_t qa, int64_t qb) {
  add_side(p, &pr->a, row, qa);
  add_side(p, &pr->b, row, qb);
  return true;
}

/* The probes sorted and unique, with their status and asked flags. */
static void sort_unique(probe_set *s) {
  size_t n = s->probes.len = sorted_unique(s->probes.items, s->probes.len, sizeof *s->probes.items, compare_probes);
  s->status = xcalloc(n + 1, sizeof *s->status);
  s->asked = xcalloc(n + 1, sizeof *s->asked);
}

/* ---------------------------------------------------------------- rounds */

/* The index of probe (location, q, row's values) in s, or -1. */
static long find_probe(const probe_set *s, int location, int64_t q, const together *t) {
  ins_state_probe key = {location, (int)q, t->shared, t->when};
  const ins_state_probe *hit =
      s->probes.len ? bsearch(&key, s->probes.items, s->probes.len, sizeof key, compare_probes) : NULL;
  return hit ? (long)(hit - s->probes.items) : -1;
}

/* One side of a row (x's instance in state q, the shared values of row):
 * PROBE_HOLDS when it is proved impossible at every boundary before x's
 * access, PROBE_POSSIBLE when some is possible (or not known), else open. */
static probe_status side_status(proof *p, const proof_access *x, const together *row, int64_t q) {
  const int_list *b = starts(p, (size_t)x->thread, x->location);
  const probe_set *s = &p->sets[x->thread];
  probe_status st = b->len ? PROBE_HOLDS : PROBE_POSSIBLE;
  vec_foreach(b, k) {
    long at = find_probe(s, b->items[k], q, row);
    probe_status here = at >= 0 ? s->status[at] : PROBE_POSSIBLE;
    if (here == PROBE_POSSIBLE) return PROBE_POSSIBLE;
    if (here == PROBE_OPEN) st = PROBE_OPEN;
  }
  return st;
}

/* The row may still be proved (some side is not possible). */
static bool open_row(proof *p, const proof_pair *pr, const together *row, int64_t qa, int64_t qb) {
  return side_status(p, &pr->a, row, qa) != PROBE_POSSIBLE || side_status(p, &pr->b, row, qb) != PROBE_POSSIBLE;
}

/* Asks the open probes of one side. */
static void ask_side(proof *p, const proof_access *x, const together *row, int64_t q) {
  const int_list *b = starts(p, (size_t)x->thread, x->location);
  probe_set *s = &p->sets[x->thread];
  vec_foreach(b, k) {
    long at = find_probe(s, b->items[k], q, row);
    if (at >= 0 && s->status[at] == PROBE_OPEN) s->asked[at] = true;
  }
}

/* Asks the probes a row not proved yet needs. */
static bool ask_row(proof *p, const proof_pair *pr, const together *row, int64_t qa, int64_t qb) {
  probe_status sa = side_status(p, &pr->a, row, qa), sb = side_status(p, &pr->b, row, qb);
  if (sa == PROBE_HOLDS || sb == PROBE_HOLDS) return true;
  if (sa == PROBE_OPEN) ask_side(p, &pr->a, row, qa);
  if (sb == PROBE_OPEN) ask_side(p, &pr->b, row, qb);
  return true;
}

/* A row with one side possible and the other open decides the pair's fate
 * in one round (the other side holds, or the pair is never proved): asks
 * that side alone and stops; true when there is none. */
static bool ask_deciding_row(proof *p, const proof_pair *pr, const together *row, int64_t qa, int64_t qb) {
  probe_status sa = side_status(p, &pr->a, row, qa), sb = side_status(p, &pr->b, row, qb);
  if (sa == PROBE_POSSIBLE && sb == PROBE_OPEN) ask_side(p, &pr->b, row, qb);
  else if (sb == PROBE_POSSIBLE && sa == PROBE_OPEN) ask_side(p, &pr->a, row, qa);
  else return true;
  return false;
}

/* The probes pair k needs next: a deciding row's, else every open row's
 * (one round may prove them all). */
static void ask_pair(proof *p, const proof_pair *pr) {
  if (each_together(p, pr, open_row) && each_together(p, pr, ask_deciding_row)) each_together(p, pr, ask_row);
}

/* One check of thread i's asked probes: they hold, or the ones a
 * counterexample shows are possible; on no answer all are taken as
 * possible. False when it gave up. */
static bool round_of(proof *p, size_t i) {
  probe_set *s = &p->sets[i];
  const proof_thread *t = &p->rq->threads[i];
  size_t n = s->probes.len;
  bool *left = xcalloc(n + 1, sizeof *left), *passed = xcalloc(n + 1, sizeof *passed);
  memcpy(left, s->asked, n * sizeof *left);
  cov_input in = {t->code, p->spec, p->spec->threads.items[t->spec_thread], &p->check.conform.env,
                  p->check.conform.unchecked.len == 0};
  conform_options o = {.deadline = p->deadline, .unseen = true};
  int outcome = cov_state_round(&in, &o, s->probes.items, n, left, passed);
  for (size_t k = 0; k < n; k++) {
    if (s->asked[k]) s->status[k] = outcome == 1 ? PROBE_HOLDS : outcome == 0 && left[k] ? PROBE_OPEN : PROBE_POSSIBLE;
    if (passed[k]) s->status[k] = PROBE_POSSIBLE;
  }
  free(left);
  free(passed);
  return outcome >= 0;
}

/* Rounds until no pair needs a probe that is open: each round proves every
 * probe asked of a thread or shows one possible. Returns how many threads'
 * rounds gave up (time, no answer). */
static size_t rounds(proof *p) {
  size_t gave_up = 0;
  for (bool asked = true; asked && !smt_deadline_passed(p->deadline);) {
    asked = false;
    for (size_t i = 0; i < p->rq->thread_count; i++)
      memset(p->sets[i].asked, 0, p->sets[i].probes.len * sizeof *p->sets[i].asked);
    for (size_t k = 0; k < p->rq->pair_count; k++) ask_pair(p, &p->rq->pairs[k]);
    for (size_t i = 0; i < p->rq->thread_count; i++) {
      bool some = false;
      for (size_t k = 0; k < p->sets[i].probes.len; k++) some = some || p->sets[i].asked[k];
      if (some) asked = true, gave_up += !round_of(p, i);
    }
  }
  return gave_up + (smt_deadline_passed(p->deadline) ? 1 : 0);
}

/* ---------------------------------------------------------------- judging */

static bool row_proved(proof *p, const proof_pair *pr, const together *row, int64_t qa, int64_t qb) {
  return side_status(p, &pr->a, row, qa) == PROBE_HOLDS || side_status(p, &pr->b, row, qb) == PROBE_HOLDS;
}

/* What a proved pair rests on, besides athread check. */
static const char *basis(const proof *p, arena *a) {
  if (p->rq->for_all)
    return arena_printf(a,
                        "for every %s, the counter abstraction's invariants allow no two instances where the "
                        "accesses are",
                        p->rq->for_all);
  return arena_printf(
      a, "in none of the explicit product's %" PRIu64 " reachable states can two instances be where the accesses are",
      p->states);
}

static const char *conclude(proof *p, arena *a, size_t stopped) {
  size_t n = 0;
  for (size_t k = 0; k < p->rq->pair_count; k++) {
    proof_pair *pr = &p->rq->pairs[k];
    n += pr->proved = each_together(p, pr, row_proved);
  }
  return arena_printf(a, "%zu of %zu candidate pair%s proved never enabled at once (athread check: %s; %s)%s", n,
                      p->rq->pair_count, p->rq->pair_count == 1 ? "" : "s", p->check.reason,
                      p->rq->for_all
                          ? "the states two instances may occupy together, for every N, probed"
                          : arena_printf(a, "all %" PRIu64 " reachable states of the system probed", p->states),
                      stopped ? "; the probes stopped early (time, or an engine without an answer), so more pairs "
                                "may be provable"
                              : "");
}

/* ---------------------------------------------------------------- entry */

static void sets_new(proof *p) {
  p->sets = xcalloc(p->rq->thread_count + 1, sizeof *p->sets);
  for (size_t i = 0; i < p->rq->thread_count; i++) {
    size_t n = p->rq->threads[i].code->locs.len + 1;
    p->sets[i].starts = xcalloc(n, sizeof *p->sets[i].starts);
    p->sets[i].started = xcalloc(n, sizeof *p->sets[i].started);
  }
}

static void proof_free(proof *p) {
  for (size_t i = 0; i < p->rq->thread_count; i++) {
    probe_set *s = &p->sets[i];
    for (size_t l = 0; l < p->rq->threads[i].code->locs.len; l++) {
      vec_free(&s->starts[l]);
      if (s->into) vec_free(&s->into[l]);
    }
    free(s->into);
    free(s->starts);
    free(s->started);
    free(s->status);
    free(s->asked);
    vec_free(&s->probes);
  }
  free(p->sets);
  free(p->thread_of);
  vec_free(&p->rows);
  vec_free(&p->pairs);
  check_run_free(&p->check);
}

/* The states two instances occupy together: for every N, or from the
 * explored system; NULL, or why not. */
static const char *states_together(proof *p, arena *a) {
  probe_width = p->spec->shared.len;
  if (p->rq->for_all) {
    pairs_for_all(p);
    return NULL;
  }
  const char *why = explore(p, a);
  return why ? why : rows_together(p, a);
}

const char *proof_run(proof_request *rq, arena *a) {
  proof p = {.rq = rq, .spec = rq->spec, .deadline = smt_now() + PROOF_SECONDS};
  sets_new(&p);
  const char *why = theorem(&p, a);
  if (!why) why = states_together(&p, a);
  size_t stopped = 0;
  if (!why) {
    for (size_t k = 0; k < rq->pair_count; k++) each_together(&p, &rq->pairs[k], add_row);
    for (size_t i = 0; i < rq->thread_count; i++) sort_unique(&p.sets[i]);
    stopped = rounds(&p);
  }
  const char *text = why ? arena_printf(a, "not used: %s", why) : conclude(&p, a, stopped);
  rq->basis = basis(&p, a);
  proof_free(&p);
  return text;
}
