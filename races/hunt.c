/* races/hunt.c -- the search layer over layer 1's candidates (hunt.h). */
#include "hunt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lockset.h"
#include "search.h"

/* Instances of one function the search runs: two are enough for a race
 * between two instances of it, and each more multiplies the states. */
#define INSTANCE_CAP 2
/* Context switches of the first, depth-first search: main's creations, one
 * thread up to its access, another up to its own. */
#define CONTEXT_BOUND 2

typedef struct hunt {
  const hunt_request *rq;
  races_result *out;
  rs_thread *threads; /* the search's threads (main last, when it runs) */
  const char **names; /* their functions */
  uint8_t *roles;     /* main's edges' roles */
  rs_request search;  /* the request, its target changing between runs */
  bool *target;       /* per cell: a candidate not yet decided */
} hunt;

static bool edge_sync(void *ctx, int thread, int edge) {
  const hunt *h = ctx;
  return lk_edge_sync(h->threads[thread].code, h->rq->unit, edge);
}

/* ---------------------------------------------------------------- the trace */

static races_cell *cell_of(hunt *h, int cell) { return &h->out->cells.items[h->rq->result_cell[cell]]; }

/* Where edge is in the user's code: file, line, column and text. */
static void place(hunt *h, const prog *p, int edge, const char **file, unsigned *line, unsigned *col,
                  const char **text) {
  prog_origin o = lk_user_origin(p, h->rq->unit, edge);
  const char *f = "";
  size_t n = 0;
  *file = "", *line = *col = 0;
  if (prog_origin_line(p, o, &f, &n))
    *file = arena_strndup(h->out->arena, f, strlen(f)), *line = (unsigned)n, *col = (unsigned)prog_origin_column(p, o);
  if (!text) return;
  strbuf b = {0};
  prog_origin_text(p, o, &b);
  *text = arena_strndup(h->out->arena, sbuf_str(&b), b.len);
  sbuf_free(&b);
}

/* The move's edge to show: its first one with a place in the user's code. */
static int shown_edge(const prog *p, const rs_race *race, rs_move m) {
  for (size_t i = 0; i < m.count; i++) {
    int e = race->edges.items[m.first + i];
    if (p->edges.items[e].origin.file >= 0) return e;
  }
  return race->edges.items[m.first];
}

typedef struct trace_ctx {
  hunt *h;
  races_cell *cell;
  const rs_race *race;
} trace_ctx;

/* "reads count, writes m": each cell once per kind, in order. */
static const char *touches_text(hunt *h, const rs_touch *touches, size_t n) {
  strbuf b = {0};
  for (size_t i = 0; i < n; i++) {
    bool again = false;
    for (size_t j = 0; j < i && !again; j++) again = touches[j].cell == touches[i].cell && touches[j].write == touches[i].write;
    if (!again) sbuf_printf(&b, "%s%s %s", b.len ? ", " : "", touches[i].write ? "writes" : "reads", h->rq->paths[touches[i].cell]);
  }
  const char *text = arena_strndup(h->out->arena, sbuf_str(&b), b.len);
  sbuf_free(&b);
  return text;
}

/* "k = 2, n = 0": the values the move's havocs give (parameters excepted: they are never read). */
static const char *inputs_text(hunt *h, const prog *p, const rs_race *race, rs_move m) {
  strbuf b = {0};
  for (size_t i = 0; i < m.count; i++) {
    const prog_edge *e = &p->edges.items[race->edges.items[m.first + i]];
    if (e->action != ACT_HAVOC || p->vars.items[e->var].parameter || lk_in_model(p, h->rq->unit, e->origin)) continue;
    sbuf_printf(&b, "%s%s = %lld", b.len ? ", " : "", p->vars.items[e->var].display,
                (long long)race->values.items[m.first + i]);
  }
  const char *text = arena_strndup(h->out->arena, sbuf_str(&b), b.len);
  sbuf_free(&b);
  return text;
}

static void observe(void *ctx, size_t move, const int64_t *before, const int64_t *after, const rs_touch *touches,
                    size_t n) {
  trace_ctx *t = ctx;
  const rs_move *m = &t->race->schedule.items[move];
  int nth;
  int thread = rs_thread_of(&t->h->search, m->instance, &nth);
  const prog *p = t->h->threads[thread].code;
  races_step s = {.thread = t->h->names[thread], .instance = nth + 1};
  s.starts = p->edges.items[t->race->edges.items[m->first]].from == p->entry;
  s.accesses = touches_text(t->h, touches, n);
  s.inputs = inputs_text(t->h, p, t->race, *m);
  place(t->h, p, shown_edge(p, t->race, *m), &s.file, &s.line, &s.col, &s.text);
  for (size_t c = 0; c < t->h->rq->cells; c++)
    if (before[c] != after[c]) vec_push(t->h->out->arena, &s.changes, ((races_change){t->h->rq->paths[c], after[c]}));
  vec_push(t->h->out->arena, &t->cell->trace, s);
}

static races_access side_access(hunt *h, const rs_side *side, int *instance) {
  int nth;
  int thread = rs_thread_of(&h->search, side->move.instance, &nth);
  races_access a = {.thread = h->names[thread], .write = side->write, .sync = side->sync, .locks = ""};
  place(h, h->threads[thread].code, side->edge, &a.file, &a.line, &a.col, NULL);
  *instance = nth + 1;
  return a;
}

/* The cell's verdict from a race that replays; false (the cell unchanged)
 * when it does not. */
static bool take_race(hunt *h, const rs_race *race, char *why, size_t size) {
  races_cell *cell = cell_of(h, race->cell);
  trace_ctx t = {h, cell, race};
  cell->trace.len = 0;
  if (!rs_replay(&h->search, race, observe, &t, why, size)) return false;
  cell->kind = RACES_CELL_RACE;
  cell->first = side_access(h, &race->first, &cell->first_instance);
  cell->second = side_access(h, &race->second, &cell->second_instance);
  h->out->candidates--;
  h->out->races++;
  return true;
}

/* ---------------------------------------------------------------- runs */

static bool any_target(const hunt *h) {
  for (size_t c = 0; c < h->rq->cells; c++)
    if (h->target[c]) return true;
  return false;
}

/* Searches until no candidate is left or a search finds none. */
static void hunt_all(hunt *h) {
  char why[256] = "";
  rs_outcome last = RS_NONE;
  while (any_target(h)) {
    rs_race race;
    size_t states = 0;
    h->search.context_bound = CONTEXT_BOUND; /* deep races in few states first */
    last = rs_search(&h->search, &race, &states);
    h->out->searched += states;
    if (last != RS_FOUND) {
      rs_race_free(&race);
      h->search.context_bound = -1; /* then every run, breadth first */
      last = rs_search(&h->search, &race, &states);
      h->out->searched += states;
    }
    bool taken = last == RS_FOUND && take_race(h, &race, why, sizeof why);
    if (last == RS_FOUND) h->target[race.cell] = false;
    rs_race_free(&race);
    if (last == RS_FOUND && !taken) {
      h->out->search = arena_printf(h->out->arena, "internal error: a race found does not replay (%s)", why);
      return;
    }
    if (last != RS_FOUND) break;
  }
  const char *end = !any_target(h)  ? "every candidate searched"
                    : last == RS_NONE ? "no race on the other candidates within the bounds (which proves nothing)"
                                      : "stopped at the bound of states";
  h->out->search = arena_printf(h->out->arena, "%zu race%s found and replayed, %zu states; %s", h->out->races,
                                h->out->races == 1 ? "" : "s", h->out->searched, end);
}

/* The role of each edge of main: in the model of pthread_create or pthread_join. */
static uint8_t *main_roles(const hunt_request *rq) {
  const prog *p = rq->main_code;
  uint8_t *roles = xcalloc(p->edges.len + 1, sizeof *roles);
  vec_foreach(&p->edges, i) {
    const prog_edge *e = &p->edges.items[i];
    const char *f = lk_function_of(p, rq->unit, e->origin);
    bool leaves_atomic = p->locs.items[e->from].atomic && !p->locs.items[e->to].atomic;
    if (f && strcmp(f, "athread_model_pthread_create") == 0) roles[i] = RS_CREATE | (leaves_atomic ? RS_CREATED : 0);
    if (f && strcmp(f, "athread_model_pthread_join") == 0) roles[i] = RS_JOIN;
  }
  return roles;
}

void hunt_run(const hunt_request *rq, races_result *out) {
  hunt h = {.rq = rq, .out = out};
  size_t n = rq->thread_count + (rq->main_code != NULL);
  h.threads = xcalloc(n + 1, sizeof *h.threads);
  h.names = xcalloc(n + 1, sizeof *h.names);
  for (size_t t = 0; t < rq->thread_count; t++) {
    int64_t k = rq->threads[t].instances;
    h.threads[t] = (rs_thread){rq->threads[t].code, (int)(k < INSTANCE_CAP ? k : INSTANCE_CAP), NULL};
    h.names[t] = arena_strndup(out->arena, rq->threads[t].function, strlen(rq->threads[t].function));
  }
  if (rq->main_code) {
    h.roles = main_roles(rq);
    h.threads[rq->thread_count] = (rs_thread){rq->main_code, 1, h.roles};
    h.names[rq->thread_count] = "main";
  }
  h.target = xcalloc(rq->cells + 1, sizeof *h.target);
  for (size_t c = 0; c < rq->cells; c++)
    h.target[c] = rq->result_cell[c] >= 0 && out->cells.items[rq->result_cell[c]].kind == RACES_CELL_CANDIDATE;
  h.search = (rs_request){h.threads, n,          rq->cells,  rq->initial, h.target, edge_sync, &h, rq->max_states, -1,
                          rq->main_code ? (int)rq->thread_count : -1, rq->creates};
  hunt_all(&h);
  free(h.target);
  free(h.threads);
  free(h.names);
  free(h.roles);
}
