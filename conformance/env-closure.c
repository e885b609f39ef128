/* conformance/env-closure.c -- the closure of the other instances' moves
 * over the graph of the reachable states (env-closure.h). */
#include "env-closure.h"

#include <stdlib.h>
#include <string.h>

#include "../core/arena.h"
#include "../core/vec.h"

typedef VEC(int64_t) row_vec;

struct env_graph {
  size_t shared, width;  /* shared values per state; values per state (shared + instances) */
  size_t instances;      /* instances, tid 1 .. instances */
  bool given_up;         /* more than ENV_GRAPH_MAX_STATES states */
  VEC(int64_t) states;   /* width values per state, in the order recorded */
  VEC(int64_t) recorded; /* per step: src, mover, move, then dst's width values */
  size_t count;          /* states, after env_graph_close */
  size_t *first_step;    /* per state (and one past the last): its first step */
  size_t *dst;           /* per step: the state it reaches */
  int64_t *rows;         /* the closure's rows (tid, state, g, g'), sorted */
  size_t row_count;
};

/* ---------------------------------------------------------------- rows */

static size_t g_width; /* qsort's comparator has no context: the columns compared while sorting */

static int compare_rows(const void *a, const void *b) {
  const int64_t *x = a, *y = b;
  for (size_t k = 0; k < g_width; k++)
    if (x[k] != y[k]) return x[k] < y[k] ? -1 : 1;
  return 0;
}

size_t env_rows_dedupe(int64_t *rows, size_t count, size_t width) {
  size_t kept = 0;
  g_width = width;
  qsort(rows, count, width * sizeof *rows, compare_rows);
  for (size_t i = 0; i < count; i++)
    if (kept == 0 || compare_rows(rows + (kept - 1) * width, rows + i * width) != 0)
      memmove(rows + kept++ * width, rows + i * width, width * sizeof *rows);
  return kept;
}

/* The first of count rows (width values, sorted by their first key columns)
 * that is not less than key, by its first key columns. */
static size_t lower_bound(const int64_t *rows, size_t count, size_t width, const int64_t *key, size_t columns) {
  size_t lo = 0, hi = count;
  g_width = columns;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (compare_rows(rows + mid * width, key) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/* ---------------------------------------------------------------- recording */

env_graph *env_graph_new(size_t shared, size_t instances) {
  env_graph *g = xcalloc(1, sizeof *g);
  g->shared = shared;
  g->instances = instances;
  g->width = shared + instances;
  g->given_up = g->width == 0; /* no system: nothing moves */
  return g;
}

void env_graph_state(env_graph *g, const int64_t *state) {
  if (g->given_up) return;
  if (g->states.len / g->width >= ENV_GRAPH_MAX_STATES) {
    g->given_up = true;
    vec_free(&g->states);
    vec_free(&g->recorded);
    return;
  }
  for (size_t k = 0; k < g->width; k++) vec_push(NULL, &g->states, state[k]);
}

void env_graph_step(env_graph *g, int64_t mover, size_t m, const int64_t *dst) {
  if (g->given_up) return;
  vec_push(NULL, &g->recorded, (int64_t)(g->states.len / g->width - 1));
  vec_push(NULL, &g->recorded, mover);
  vec_push(NULL, &g->recorded, (int64_t)m);
  for (size_t k = 0; k < g->width; k++) vec_push(NULL, &g->recorded, dst[k]);
}

/* ---------------------------------------------------------------- the closure */

static size_t step_width(const env_graph *g) { return g->width + 3; }
static size_t step_count(const env_graph *g) { return g->recorded.len / step_width(g); }
static const int64_t *step_at(const env_graph *g, size_t i) { return g->recorded.items + i * step_width(g); }
static const int64_t *state_at(const env_graph *g, size_t s) { return g->states.items + s * g->width; }

/* Each step's destination as a state index (the states sorted with their
 * index as a last column, then searched); false when one was never
 * recorded (the search stopped early). */
static bool resolve_steps(env_graph *g) {
  size_t w = g->width + 1, steps = step_count(g);
  int64_t *sorted = xcalloc(g->count * w + 1, sizeof *sorted);
  for (size_t s = 0; s < g->count; s++) {
    memcpy(sorted + s * w, state_at(g, s), g->width * sizeof *sorted);
    sorted[s * w + g->width] = (int64_t)s;
  }
  env_rows_dedupe(sorted, g->count, w);
  g->dst = xcalloc(steps + 1, sizeof *g->dst);
  g->first_step = xcalloc(g->count + 1, sizeof *g->first_step);
  bool all = true;
  for (size_t i = 0; i < steps && all; i++) {
    const int64_t *dst = step_at(g, i) + 3;
    size_t at = lower_bound(sorted, g->count, w, dst, g->width);
    g_width = g->width;
    all = at < g->count && compare_rows(sorted + at * w, dst) == 0;
    if (all) g->dst[i] = (size_t)sorted[at * w + g->width];
    g->first_step[step_at(g, i)[0] + 1] = i + 1;
  }
  for (size_t s = 1; s <= g->count; s++)
    if (g->first_step[s] < g->first_step[s - 1]) g->first_step[s] = g->first_step[s - 1];
  free(sorted);
  return all;
}

/* The distinct shared values (sorted, *count of them) and each state's index among them. */
static int64_t *distinct_values(const env_graph *g, size_t *count, size_t *id) {
  int64_t *values = xcalloc(g->count * g->shared + 1, sizeof *values);
  for (size_t s = 0; s < g->count; s++) memcpy(values + s * g->shared, state_at(g, s), g->shared * sizeof *values);
  *count = g->shared ? env_rows_dedupe(values, g->count, g->shared) : 1;
  for (size_t s = 0; s < g->count; s++)
    id[s] = g->shared ? lower_bound(values, *count, g->shared, state_at(g, s), g->shared) : 0;
  return values;
}

/* reach[s]: the values (bits over their ids) that the moves of instances
 * other than tid reach from s; iterated to the fixed point, last states
 * first (a breadth-first search records successors mostly after). */
static void reach_without(const env_graph *g, int64_t tid, const size_t *id, size_t words, uint64_t *reach) {
  memset(reach, 0, g->count * words * sizeof *reach);
  for (size_t s = 0; s < g->count; s++) reach[s * words + id[s] / 64] |= (uint64_t)1 << (id[s] % 64);
  for (bool grew = true; grew;) {
    grew = false;
    for (size_t s = g->count; s-- > 0;)
      for (size_t i = g->first_step[s]; i < g->first_step[s + 1]; i++) {
        if (step_at(g, i)[1] == tid) continue;
        const uint64_t *from = reach + g->dst[i] * words;
        uint64_t *into = reach + s * words;
        for (size_t k = 0; k < words; k++) {
          grew = grew || (from[k] & ~into[k]) != 0;
          into[k] |= from[k];
        }
      }
  }
}

/* Appends the rows (tid, state, g, g') of instance tid; false past the limit. */
static bool add_rows(env_graph *g, int64_t tid, const int64_t *values, size_t words, const uint64_t *reach,
                     row_vec *rows) {
  size_t w = 2 + 2 * g->shared;
  for (size_t s = 0; s < g->count; s++)
    for (size_t v = 0; v < words * 64; v++) {
      if (!(reach[s * words + v / 64] >> (v % 64) & 1u)) continue;
      if (rows->len / w >= ENV_CLOSURE_MAX_ROWS) return false;
      vec_push(NULL, rows, tid);
      vec_push(NULL, rows, state_at(g, s)[g->shared + (size_t)tid - 1]);
      for (size_t k = 0; k < g->shared; k++) vec_push(NULL, rows, state_at(g, s)[k]);
      for (size_t k = 0; k < g->shared; k++) vec_push(NULL, rows, values[v * g->shared + k]);
    }
  return true;
}

bool env_graph_close(env_graph *g) {
  if (g->given_up) return false;
  g->count = g->states.len / g->width;
  if (!resolve_steps(g)) return false;
  size_t *id = xcalloc(g->count + 1, sizeof *id), distinct;
  int64_t *values = distinct_values(g, &distinct, id);
  size_t words = (distinct + 63) / 64;
  uint64_t *reach = xcalloc(g->count * words + 1, sizeof *reach);
  row_vec rows = {0};
  bool fits = true;
  for (int64_t tid = 1; tid <= (int64_t)g->instances && fits; tid++) {
    reach_without(g, tid, id, words, reach);
    fits = add_rows(g, tid, values, words, reach, &rows);
  }
  if (fits) {
    g->row_count = env_rows_dedupe(rows.items, rows.len / (2 + 2 * g->shared), 2 + 2 * g->shared);
    g->rows = rows.items;
  } else {
    vec_free(&rows);
  }
  free(reach);
  free(values);
  free(id);
  return fits;
}

const int64_t *env_graph_closure(const env_graph *g, int64_t tid, int state, size_t *count) {
  size_t w = 2 + 2 * g->shared;
  const int64_t key[2] = {tid, state};
  *count = 0;
  if (!g->rows) return NULL;
  size_t lo = lower_bound(g->rows, g->row_count, w, key, 2), end = lo;
  while (end < g->row_count && g->rows[end * w] == tid && g->rows[end * w + 1] == state) end++;
  *count = end - lo;
  return *count ? g->rows + lo * w : NULL;
}

/* ---------------------------------------------------------------- witnesses */

static bool has_values(const env_graph *g, size_t s, const int64_t *values) {
  return memcmp(state_at(g, s), values, g->shared * sizeof *values) == 0;
}

/* The path to s, by the steps that reached each state (via, SIZE_MAX at a start). */
static void path_to(const env_graph *g, size_t s, const size_t *via, env_path *out) {
  size_t n = 0;
  for (size_t t = s; via[t] != SIZE_MAX; t = (size_t)step_at(g, via[t])[0]) n++;
  out->count = n;
  out->moves = xcalloc(n + 1, sizeof *out->moves);
  out->after = xcalloc(n * g->shared + 1, sizeof *out->after);
  for (size_t t = s; n-- > 0; t = (size_t)step_at(g, via[t])[0]) {
    out->moves[n] = (size_t)step_at(g, via[t])[2];
    memcpy(out->after + n * g->shared, state_at(g, t), g->shared * sizeof *out->after);
  }
}

bool env_graph_witness(const env_graph *g, int64_t tid, int state, const int64_t *from, const int64_t *to,
                       env_path *out) {
  memset(out, 0, sizeof *out);
  if (!g->rows) return false;
  size_t *via = xcalloc(g->count + 1, sizeof *via), *queue = xcalloc(g->count + 1, sizeof *queue), n = 0;
  bool *seen = xcalloc(g->count + 1, sizeof *seen);
  for (size_t s = 0; s < g->count; s++)
    if (state_at(g, s)[g->shared + (size_t)tid - 1] == state && has_values(g, s, from))
      queue[n++] = s, seen[s] = true, via[s] = SIZE_MAX;
  bool found = false;
  for (size_t head = 0; head < n && !found; head++) {
    size_t s = queue[head];
    if ((found = has_values(g, s, to))) path_to(g, s, via, out);
    for (size_t i = g->first_step[s]; i < g->first_step[s + 1] && !found; i++)
      if (step_at(g, i)[1] != tid && !seen[g->dst[i]])
        queue[n++] = g->dst[i], seen[g->dst[i]] = true, via[g->dst[i]] = i;
  }
  free(seen);
  free(queue);
  free(via);
  return found;
}

void env_path_free(env_path *p) {
  free(p->moves);
  free(p->after);
  memset(p, 0, sizeof *p);
}

void env_graph_free(env_graph *g) {
  if (!g) return;
  vec_free(&g->states);
  vec_free(&g->recorded);
  free(g->first_step);
  free(g->dst);
  free(g->rows);
  free(g);
}
