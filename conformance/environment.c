/* conformance/environment.c -- the moves of the other instances, and when
 * each may happen (environment.h). */
#include "environment.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../compose/run.h"
#include "../core/strbuf.h"
#include "env-closure.h"
#include "env-counters.h"

/* The table of allowed moves grows with instances^2 * states * edges; past
 * this many bits the moves are taken from the edges alone. */
#define MAX_ALLOWED_BITS ((size_t)1 << 26)
/* The most rows (tid, state, shared values) of the reachable states kept. */
#define MAX_VALUE_ROWS ((size_t)1 << 16)

/* Every move of every instance, in tid order, edges in their order. */
static void list_moves(conform_env *e) {
  const ast_spec *spec = e->spec;
  size_t count = 0;
  vec_foreach(&spec->instances, k)
    count += (size_t)spec->instances.items[k]->count_value *
             spec->threads.items[spec->instances.items[k]->thread_index]->edges.len;
  e->moves = xcalloc(count + 1, sizeof *e->moves);
  vec_foreach(&spec->instances, k) {
    const ast_instance *in = spec->instances.items[k];
    const ast_thread *t = spec->threads.items[in->thread_index];
    for (int64_t n = 0; n < in->count_value; n++) {
      const char *name = in->count_value == 1 ? t->name : arena_printf(e->arena, "%s[%" PRId64 "]", t->name, n + 1);
      vec_foreach(&t->edges, d)
        e->moves[e->move_count++] = (env_move){in->first_tid + n, name, t, (int)d, in->count_value > 1 && !t->uses_tid};
    }
  }
}

static void set_stride(conform_env *e) {
  vec_foreach(&e->spec->threads, i)
    if (e->spec->threads.items[i]->states.len > e->state_stride)
      e->state_stride = e->spec->threads.items[i]->states.len;
}

static size_t bit_of(const conform_env *e, int64_t tid, int state, size_t m) {
  return ((size_t)(tid - 1) * e->state_stride + (size_t)state) * e->move_count + m;
}

/* ---------------------------------------------------------------- from the reachable states */

typedef struct observer {
  conform_env *e;
  size_t first_instance; /* the slot of tid 1 */
  size_t *first_move;    /* per tid - 1: its first move */
  VEC(int64_t) rows;     /* rows (tid, state, shared values), with repeats until sorted */
  bool too_many;         /* more distinct rows than MAX_VALUE_ROWS: none are kept */
} observer;

static size_t row_width(const conform_env *e) { return e->spec->shared.len + 2; }

/* Sorts the rows and drops repeats. */
static void dedupe_rows(observer *o) {
  size_t w = row_width(o->e);
  o->rows.len = env_rows_dedupe(o->rows.items, o->rows.len / w, w) * w;
}

/* A state the search expands: one row per instance. */
static void record_values(observer *o, const int64_t *state) {
  conform_env *e = o->e;
  size_t shared = e->spec->shared.len;
  for (int64_t tid = 1; tid <= e->spec->instance_total && !o->too_many; tid++) {
    vec_push(NULL, &o->rows, tid);
    vec_push(NULL, &o->rows, state[o->first_instance + (size_t)tid - 1]);
    for (size_t k = 0; k < shared; k++) vec_push(NULL, &o->rows, state[k]);
  }
  if (o->too_many || o->rows.len / row_width(e) < 2 * MAX_VALUE_ROWS) return;
  dedupe_rows(o);
  if (o->rows.len / row_width(e) > MAX_VALUE_ROWS) o->too_many = true, o->rows.len = 0;
}

/* The step (j, edge) leaves src: every other instance's state there allows it. */
static void observe(void *ctx, const int64_t *src, const mdl_step *step, const int64_t *dst) {
  observer *o = ctx;
  conform_env *e = o->e;
  if (!step) {
    env_graph_state(e->graph, src);
    return record_values(o, src);
  }
  int64_t mover = (int64_t)((size_t)step->slot - o->first_instance) + 1;
  size_t m = o->first_move[mover - 1] + (size_t)step->edge;
  env_graph_step(e->graph, mover, m, dst);
  for (int64_t tid = 1; tid <= e->spec->instance_total; tid++) {
    if (tid == mover) continue;
    size_t b = bit_of(e, tid, (int)src[o->first_instance + (size_t)tid - 1], m);
    e->allowed[b / 8] |= (uint8_t)(1u << (b % 8));
  }
}

static bool from_reachable(conform_env *e, ast_spec *spec, const explicit_options *limits) {
  size_t bits = (size_t)spec->instance_total * e->state_stride * e->move_count;
  if (spec->instance_total > 0 && bits / (size_t)spec->instance_total / e->state_stride != e->move_count)
    bits = SIZE_MAX;
  if (bits > MAX_ALLOWED_BITS) {
    snprintf(e->why, sizeof e->why, "the system has too many instances and edges to tabulate");
    return false;
  }
  e->allowed = xcalloc(bits / 8 + 1, 1);
  observer o = {.e = e, .first_instance = spec->shared.len};
  o.first_move = xcalloc((size_t)spec->instance_total + 1, sizeof *o.first_move);
  for (size_t m = e->move_count; m-- > 0;) o.first_move[e->moves[m].tid - 1] = m;
  e->graph = env_graph_new(spec->shared.len, (size_t)spec->instance_total);
  explicit_options l = *limits;
  l.observe = observe;
  l.observe_ctx = &o;
  l.threads = 1; /* the observer builds one graph and one table */
  bool complete = compose_explore(spec, &l, &e->states, e->why, sizeof e->why);
  free(o.first_move);
  if (!complete || !env_graph_close(e->graph)) {
    env_graph_free(e->graph);
    e->graph = NULL;
  }
  if (complete && !o.too_many) dedupe_rows(&o);
  if (complete && !o.too_many && o.rows.len / row_width(e) <= MAX_VALUE_ROWS) {
    e->values = o.rows.items;
    e->value_count = o.rows.len / row_width(e);
  } else {
    vec_free(&o.rows);
  }
  return complete;
}

/* ---------------------------------------------------------------- entry */

void env_build(ast_spec *spec, env_kind kind, const explicit_options *limits, conform_env *out) {
  memset(out, 0, sizeof *out);
  out->spec = spec;
  out->arena = arena_new();
  if (kind == ENV_HAVOC) {
    out->source = ENV_FROM_HAVOC;
    snprintf(out->text, sizeof out->text,
             "between two steps the other threads may set the shared variables to any "
             "values (--env havoc)");
    return;
  }
  list_moves(out);
  set_stride(out);
  out->source = from_reachable(out, spec, limits) ? ENV_FROM_REACHABLE : ENV_FROM_EDGES;
  if (out->source == ENV_FROM_REACHABLE)
    snprintf(out->text, sizeof out->text,
             "between two steps the other threads take edges of the spec, each where the abstract system can take "
             "it (all %" PRIu64 " reachable states explored: the abstract system is safe)",
             out->states);
  else
    snprintf(out->text, sizeof out->text,
             "between two steps the other threads take any edges of the spec, in any state (%s)", out->why);
  if (out->source == ENV_FROM_EDGES) {
    free(out->allowed);
    out->allowed = NULL;
  }
}

void env_build_for_all(ast_spec *spec, const forall_invariants *inv, conform_env *out) {
  memset(out, 0, sizeof *out);
  out->spec = spec;
  out->arena = arena_new();
  out->source = ENV_FROM_COUNTERS;
  out->invariants = inv;
  list_moves(out);
  out->counters = env_counters_new(out);
  for (size_t m = 0; m < out->move_count; m++)
    out->moves[m].grouped = out->moves[m].grouped || inv->counted[out->moves[m].thread->index];
  snprintf(out->text, sizeof out->text,
           "between two steps the other threads take edges of the spec, each where the %zu affine invariant%s of "
           "the counter abstraction allow%s it (they hold for every %s)",
           inv->row_count, inv->row_count == 1 ? "" : "s", inv->row_count == 1 ? "s" : "", inv->param);
}

/* Under ENV_FROM_COUNTERS a counted thread's move is another instance's,
 * whatever tid it was listed with: the counters say whether there is one. */
bool env_allows(const conform_env *e, int64_t tid, int state, size_t m) {
  if (e->source == ENV_FROM_COUNTERS && e->invariants->counted[e->moves[m].thread->index]) return true;
  if (e->moves[m].tid == tid) return false;
  if (e->source != ENV_FROM_REACHABLE) return true;
  size_t b = bit_of(e, tid, state, m);
  return (e->allowed[b / 8] >> (b % 8)) & 1u;
}

void env_describe_move(const conform_env *e, size_t m, strbuf *out) {
  const env_move *mv = &e->moves[m];
  const ast_edge *d = mv->thread->edges.items[mv->edge];
  if (mv->grouped) sbuf_printf(out, "another %s", mv->thread->name);
  else sbuf_puts(out, mv->instance);
  sbuf_printf(out, " takes %s -> %s", d->from, d->to);
  if (d->label) sbuf_printf(out, " \"%s\"", d->label);
}

const int64_t *env_values(const conform_env *e, int64_t tid, int state, size_t *count) {
  *count = 0;
  if (!e->values) return NULL;
  size_t w = row_width(e), lo = 0, hi = e->value_count;
  while (lo < hi) { /* the first row at or after (tid, state) */
    size_t mid = (lo + hi) / 2;
    const int64_t *r = e->values + mid * w;
    if (r[0] < tid || (r[0] == tid && r[1] < state)) lo = mid + 1;
    else hi = mid;
  }
  size_t end = lo;
  while (end < e->value_count && e->values[end * w] == tid && e->values[end * w + 1] == state) end++;
  *count = end - lo;
  return e->values + lo * w;
}

const int64_t *env_closure(const conform_env *e, int64_t tid, int state, size_t *count) {
  *count = 0;
  return e->graph ? env_graph_closure(e->graph, tid, state, count) : NULL;
}

const char *env_source_name(env_source s) {
  static const char *const names[] = {"havoc", "reachable", "edges", "counters"};
  return names[s];
}

void env_free(conform_env *e) {
  env_counters_free(e->counters);
  env_graph_free(e->graph);
  free(e->moves);
  free(e->allowed);
  free(e->values);
  arena_free(e->arena);
  memset(e, 0, sizeof *e);
}
