/* tests/unit/test-races.c -- the search layer of athread races through its
 * API (races/search.h): threads lowered from C snippets, a race found and
 * replayed, every way a tampered race fails its replay, the bound, and the
 * speculative loads that --atomicity access marks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../cfront/cfront.h"
#include "../../conformance/atomicity.h"
#include "../../races/lockset.h"
#include "../../races/search.h"
#include "../../spec-lang/spec.h"
#include "unit.h"

typedef struct lowered {
  diag_sink sink; /* messages go to /dev/null */
  ast_spec *spec; /* "shared int g, h; shared bool flag;" */
  cfe_unit *unit; /* the snippet */
  prog *p;        /* function fn, lowered and split */
} lowered;

static const char *spec_text = "shared int g; shared int h; shared bool flag;\n";

static lowered *lower(const char *code, const char *fn) {
  lowered *l = calloc(1, sizeof *l);
  l->sink.out = fopen("/dev/null", "w");
  l->spec = spec_parse_source(diag_source_from_string(&l->sink, "t.athread", spec_text, strlen(spec_text)));
  assert_true(l->spec && spec_check(l->spec, NULL));
  temp_c_file t;
  temp_c_write(&t, code);
  const char *files[] = {t.path};
  cfe_options o = {.include_dir = "include"};
  l->unit = cfe_parse(&l->sink, files, 1, &o);
  assert_non_null(l->unit);
  l->p = cfe_lower(l->unit, l->spec, fn, CFE_INTS_C);
  temp_c_remove(&t);
  assert_non_null(l->p);
  assert_true(atomicity_split(l->p, &l->sink));
  return l;
}

static void release(lowered *l) {
  prog_free(l->p);
  cfe_free(l->unit);
  spec_free(l->spec);
  fclose(l->sink.out);
  free(l);
}

static bool atomic_edge(void *ctx, int thread, int edge) {
  const rs_thread *threads = ctx;
  const prog *p = threads[thread].code;
  return p->locs.items[p->edges.items[edge].from].atomic;
}

static const int64_t zeros[3];
static const bool all_cells[3] = {true, true, true};

static rs_request request(rs_thread *threads, size_t n, size_t max_states) {
  return (rs_request){threads, n, 3, zeros, all_cells, atomic_edge, threads, max_states, -1, -1, 0};
}

static const char *counter = "int g;\nvoid *w(void *a) { g++; return 0; }\n";

static void two_instances_race_and_the_race_replays(void **state) {
  (void)state;
  lowered *l = lower(counter, "w");
  rs_thread t[] = {{l->p, 2, NULL}};
  rs_request rq = request(t, 1, 1000);
  rs_race race;
  size_t states = 0;
  assert_int_equal(rs_search(&rq, &race, &states), RS_FOUND);
  assert_int_equal(race.cell, 0);
  assert_true(race.first.write || race.second.write);
  assert_int_not_equal(race.first.move.instance, race.second.move.instance);
  char why[256] = "";
  assert_true(rs_replay(&rq, &race, NULL, NULL, why, sizeof why));
  int nth;
  assert_int_equal(rs_thread_of(&rq, 1, &nth), 0);
  assert_int_equal(nth, 1);
  assert_int_equal(rs_thread_of(&rq, 2, &nth), -1);
  rs_race_free(&race);
  release(l);
}

/* Replays race after tamper changed it; expects a failure whose reason holds text. */
static void assert_tampered(const char *text, void (*tamper)(rs_race *, const prog *)) {
  lowered *l = lower(counter, "w");
  rs_thread t[] = {{l->p, 2, NULL}};
  rs_request rq = request(t, 1, 1000);
  rs_race race;
  size_t states = 0;
  assert_int_equal(rs_search(&rq, &race, &states), RS_FOUND);
  tamper(&race, l->p);
  char why[256] = "";
  assert_false(rs_replay(&rq, &race, NULL, NULL, why, sizeof why));
  if (!strstr(why, text)) fail_msg("replay said '%s', wanted '%s'", why, text);
  rs_race_free(&race);
  release(l);
}

static void same_instance(rs_race *r, const prog *p) {
  (void)p;
  r->second.move.instance = r->first.move.instance;
  r->second.move = r->first.move;
  r->second.edge = r->first.edge;
  r->second.write = r->first.write;
}
static void no_instance(rs_race *r, const prog *p) { (void)p, r->first.move.instance = 7; }
static void wrong_edge(rs_race *r, const prog *p) { r->edges.items[r->first.move.first] = (int)p->edges.len; }
static void empty_move(rs_race *r, const prog *p) { (void)p, r->first.move.count = 0; }
static void wrong_kind(rs_race *r, const prog *p) {
  (void)p;
  rs_side *side = r->first.write ? &r->second : &r->first; /* a read made a write: one write stays */
  side->write = !side->write;
}
static void reads_only(rs_race *r, const prog *p) {
  (void)p;
  r->first.write = r->second.write = false;
}

static void tampered_races_do_not_replay(void **state) {
  (void)state;
  assert_tampered("no instance", no_instance);
  assert_tampered("does not leave", wrong_edge);
  assert_tampered("ends inside a step", empty_move);
  assert_tampered("access stated", wrong_kind);
  assert_tampered("no write", reads_only);
  assert_tampered("one instance", same_instance);
}

/* How the search of two instances of w in code ends within max_states (*states: the states seen). */
static rs_outcome search_two(const char *code, size_t max_states, size_t *states) {
  lowered *l = lower(code, "w");
  rs_thread t[] = {{l->p, 2, NULL}};
  rs_request rq = request(t, 1, max_states);
  rs_race race;
  rs_outcome o = rs_search(&rq, &race, states);
  rs_race_free(&race);
  release(l);
  return o;
}

static void reads_alone_never_race(void **state) {
  (void)state;
  size_t states = 0;
  assert_int_equal(search_two("int g;\nvoid *w(void *a) { int x = g; return 0; }\n", 1000, &states), RS_NONE);
  assert_true(states > 1);
}

static void the_state_bound_is_kept(void **state) {
  (void)state;
  size_t states = 0;
  const char *code = "int g, h;\nvoid *w(void *a) { int x = g; x = h; x = g; return 0; }\n";
  assert_int_equal(search_two(code, 3, &states), RS_LIMIT);
  assert_int_equal(states, 3);
}

/* A race that needs k == 2 is found with that value in the trace; one
 * that needs k == 7 is not (the search tries a few values only). */
static void nondeterministic_values_are_tried_and_replayed(void **state) {
  (void)state;
  const char *code = "extern int __VERIFIER_nondet_int(void);\nint g, h;\n"
                     "void *w(void *a) { int k = __VERIFIER_nondet_int(); if (k == 2) g = 1; if (k == 7) h = 1; "
                     "return 0; }\n";
  lowered *l = lower(code, "w");
  rs_thread t[] = {{l->p, 2, NULL}};
  bool only_h[3] = {false, true, false};
  rs_request rq = request(t, 1, 10000);
  rq.target = only_h;
  rs_race race;
  size_t states = 0;
  assert_int_equal(rs_search(&rq, &race, &states), RS_NONE);
  rs_race_free(&race);
  rq.target = all_cells;
  assert_int_equal(rs_search(&rq, &race, &states), RS_FOUND);
  bool two = false;
  vec_foreach(&race.values, i) two = two || race.values.items[i] == 2;
  assert_true(two);
  char why[256] = "";
  assert_true(rs_replay(&rq, &race, NULL, NULL, why, sizeof why));
  int64_t *k = NULL;
  vec_foreach(&race.values, i) if (race.values.items[i] == 2) k = &race.values.items[i];
  assert_non_null(k);
  *k = 12345; /* a value the search never tries */
  assert_false(rs_replay(&rq, &race, NULL, NULL, why, sizeof why));
  assert_non_null(strstr(why, "out of range"));
  *k = 0; /* a value it tries, whose run writes nothing */
  assert_false(rs_replay(&rq, &race, NULL, NULL, why, sizeof why));
  rs_race_free(&race);
  release(l);
}

/* The load of b in flag && b && c is speculative (C reads b only when flag
 * holds); flag's is not. */
static void loads_under_and_are_speculative(void **state) {
  (void)state;
  lowered *l = lower("int g, h; _Bool flag;\nvoid *w(void *a) { if (flag && g && h) g = 0; return 0; }\n", "w");
  int speculative = 0, sure = 0;
  vec_foreach(&l->p->edges, i) {
    const prog_edge *e = &l->p->edges.items[i];
    if (e->action != ACT_ASSIGN || l->p->vars.items[e->var].kind != VAR_LOAD) continue;
    if (e->speculative) speculative++;
    else sure++;
  }
  assert_true(speculative >= 1);
  assert_true(sure >= 1);
  release(l);
}

typedef struct seen_moves {
  size_t moves;
  size_t touches;
} seen_moves;

static void count_move(void *ctx, size_t move, const int64_t *before, const int64_t *after, const rs_touch *t,
                       size_t n) {
  (void)before, (void)after, (void)t, (void)move;
  seen_moves *s = ctx;
  s->moves++;
  s->touches += n;
}

static void observer_sees_each_move(void **state) {
  (void)state;
  lowered *l = lower("int g;\nvoid *w(void *a) { int x = g; g = x + 1; return 0; }\n", "w");
  rs_thread t[] = {{l->p, 2, NULL}};
  rs_request rq = request(t, 1, 1000);
  rs_race race;
  size_t states = 0;
  assert_int_equal(rs_search(&rq, &race, &states), RS_FOUND);
  seen_moves s = {0};
  char why[256] = "";
  assert_true(rs_replay(&rq, &race, count_move, &s, why, sizeof why));
  assert_int_equal(s.moves, race.schedule.len);
  rs_race_free(&race);
  release(l);
}

/* main's edges in the models of pthread_create and pthread_join (as races/hunt.c marks them). */
static uint8_t *roles_of(const lowered *l) {
  uint8_t *roles = calloc(l->p->edges.len + 1, 1);
  vec_foreach(&l->p->edges, i) {
    const prog_edge *e = &l->p->edges.items[i];
    const char *f = lk_function_of(l->p, l->unit, e->origin);
    bool leaves = l->p->locs.items[e->from].atomic && !l->p->locs.items[e->to].atomic;
    if (f && strcmp(f, "athread_model_pthread_create") == 0) roles[i] = RS_CREATE | (leaves ? RS_CREATED : 0);
    if (f && strcmp(f, "athread_model_pthread_join") == 0) roles[i] = RS_JOIN;
  }
  return roles;
}

/* main writes g between its creation of w and its join: a race with w's
 * write, found only once main has created w; a schedule where w moves
 * first does not replay. */
static void main_starts_the_others_by_its_creations(void **state) {
  (void)state;
  const char *code = "#include <pthread.h>\nint g;\nvoid *w(void *a) { g = 2; return 0; }\n"
                     "int main(void) { pthread_t t; pthread_create(&t, 0, w, 0); g = 1; pthread_join(t, 0); return 0; }\n";
  lowered *l = lower(code, "main");
  lowered *worker = lower(code, "w");
  uint8_t *roles = roles_of(l);
  rs_thread t[] = {{worker->p, 1, NULL}, {l->p, 1, roles}};
  rs_request rq = request(t, 2, 1000);
  rq.main_thread = 1;
  rq.creates = 1;
  rs_race race;
  size_t states = 0;
  assert_int_equal(rs_search(&rq, &race, &states), RS_FOUND);
  char why[256] = "";
  assert_true(rs_replay(&rq, &race, NULL, NULL, why, sizeof why));
  assert_true(race.schedule.len >= 2);
  rs_move first = race.schedule.items[0];
  race.schedule.items[0] = race.schedule.items[race.schedule.len - 1]; /* w's start before main's creation */
  race.schedule.items[race.schedule.len - 1] = first;
  assert_false(rs_replay(&rq, &race, NULL, NULL, why, sizeof why));
  rs_race_free(&race);
  rq.creates = 2; /* a creation main never runs: w never starts */
  assert_int_equal(rs_search(&rq, &race, &states), RS_NONE);
  rs_race_free(&race);
  free(roles);
  release(worker);
  release(l);
}

int run_races_tests(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(two_instances_race_and_the_race_replays),
      cmocka_unit_test(tampered_races_do_not_replay),
      cmocka_unit_test(reads_alone_never_race),
      cmocka_unit_test(the_state_bound_is_kept),
      cmocka_unit_test(nondeterministic_values_are_tried_and_replayed),
      cmocka_unit_test(loads_under_and_are_speculative),
      cmocka_unit_test(observer_sees_each_move),
      cmocka_unit_test(main_starts_the_others_by_its_creations),
  };
  return cmocka_run_group_tests_name("races", tests, NULL, NULL);
}
