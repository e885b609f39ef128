/* tests/unit/test-conform.c -- the instrumenter and both engines on concrete
 * programs built by hand (independent of the C front end): the paper's
 * section 2.1 thread A and its x := -1 variant; and atomicity_split's
 * rewriting of such programs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../conformance/atomicity.h"
#include "../../conformance/conform.h"
#include "../../conformance/encode.h"
#include "../../conformance/env-closure.h"
#include "../../conformance/instrument.h"
#include "../../conformance/lemmas.h"
#include "../../conformance/replay.h"
#include "../../conformance/trace.h"
#include "../../conformance/witness.h"
#include "../../core/smt.h"
#include "../../spec-lang/spec.h"
#include "unit.h"

/* The paper's environment: these tests are about the instrumentation itself. */
static const conform_env havoc_env = {.source = ENV_FROM_HAVOC};

static const char *const figure2 = "shared int g;\n"
                                   "thread A { init state X1 assert g > 0; state X2; X1 -> X2 : g' > 0; }\n";

static ast_spec *load_spec(const char *text) {
  diag_sink *sink = calloc(1, sizeof *sink);
  sink->out = stderr;
  ast_spec *spec = spec_parse_source(diag_source_from_string(sink, "t.athread", text, strlen(text)));
  assert_int_equal(sink->errors, 0);
  assert_true(spec_check(spec, &(spec_options){0}));
  return spec;
}

static void free_spec(ast_spec *spec) {
  diag_sink *sink = spec->src->sink;
  spec_free(spec);
  free(sink);
}

static int step(prog *p, int from, int to, prog_action a, int var, const ir_expr *e) {
  prog_edge ed = {.from = from,
                  .to = to,
                  .action = a,
                  .var = var,
                  .expr = e,
                  .starts_step = true,
                  .step = -1,
                  .detail = -1,
                  .origin = {-1, {0, 0}}};
  return prog_add_edge(p, ed);
}

static ir_expr *num(prog *p, const char *text) {
  ir_expr *e = ir_int(p->arena, (loc){0, 0}, text);
  e->type = TY_INT;
  return e;
}

static ir_expr *plus(prog *p, ir_expr *a, ir_expr *b) {
  ir_expr *e = ir_binary(p->arena, (loc){0, 0}, OP_ADD, a, b);
  e->type = TY_INT;
  return e;
}

/* thread_a: x := first; while (*) { if (*) x := g; else x := x + 1; } g := x; */
static prog *thread_a(const char *first) {
  prog *p = prog_new("thread_a");
  int g = prog_add_var(p, VAR_SHARED, "g", TY_INT), x = prog_add_var(p, VAR_LOCAL, "x", TY_INT);
  p->vars.items[g].shared_index = 0;
  int l0 = prog_add_loc(p, true), head = prog_add_loc(p, true), body = prog_add_loc(p, true),
      last = prog_add_loc(p, true);
  int then = prog_add_loc(p, true), other = prog_add_loc(p, true), exit = prog_add_loc(p, true);
  p->entry = l0;
  p->exit = exit;
  step(p, l0, head, ACT_ASSIGN, x, num(p, first));
  step(p, head, body, ACT_SKIP, -1, NULL);
  step(p, head, last, ACT_SKIP, -1, NULL);
  step(p, body, then, ACT_SKIP, -1, NULL);
  step(p, body, other, ACT_SKIP, -1, NULL);
  step(p, then, head, ACT_ASSIGN, x, prog_var_ref(p, g, (loc){0, 0}));
  step(p, other, head, ACT_ASSIGN, x, plus(p, prog_var_ref(p, x, (loc){0, 0}), num(p, "1")));
  step(p, last, exit, ACT_ASSIGN, g, prog_var_ref(p, x, (loc){0, 0}));
  return p;
}

static conform_verdict check(const char *first, conform_engine engine, unsigned bound, size_t *trace_steps) {
  ast_spec *spec = load_spec(figure2);
  prog *code = thread_a(first);
  prog *ins = ins_build(code, spec, spec->threads.items[0], &havoc_env, false);
  conform_result r;
  conform_check(ins, &(conform_options){.engine = engine, .bound = bound}, &r);
  if (trace_steps && r.verdict == CONFORM_VIOLATED) {
    trace t;
    trace_build(ins, &r, &havoc_env, spec->threads.items[0], &t);
    *trace_steps = t.steps.len;
    assert_int_equal(t.failure, CHECK_SIMULATED);
    trace_free(&t);
  }
  conform_verdict v = r.verdict;
  conform_result_free(&r);
  prog_free(ins);
  prog_free(code);
  free_spec(spec);
  return v;
}

static void thread_a_conforms(void **state) {
  (void)state;
  assert_int_equal(check("1", CONFORM_CHC, 0, NULL), CONFORM_HOLDS);
}

static void minus_one_does_not_conform(void **state) {
  (void)state;
  size_t steps = 0;
  assert_int_equal(check("-1", CONFORM_CHC, 0, &steps), CONFORM_VIOLATED);
  /* x := -1, leave the loop, g := x: the last step is not simulated. */
  assert_int_equal(steps, 3);
}

/* A counterexample replays; one whose values or path are changed does not. */
static void counterexamples_are_replayed(void **state) {
  (void)state;
  ast_spec *spec = load_spec(figure2);
  prog *code = thread_a("-1");
  prog *ins = ins_build(code, spec, spec->threads.items[0], &havoc_env, false);
  conform_result r;
  conform_check(ins, &(conform_options){.engine = CONFORM_BMC, .bound = 20}, &r);
  assert_int_equal(r.verdict, CONFORM_VIOLATED);
  char why[200];
  assert_true(replay_trace(ins, &r, why, sizeof why));
  size_t w = ins->vars.len, assign = r.trace_len;
  for (size_t i = 0; i < r.trace_len; i++)
    if (ins->edges.items[r.trace_edges[i]].action == ACT_ASSIGN) assign = i;
  assert_true(assign < r.trace_len);
  int v = ins->edges.items[r.trace_edges[assign]].var;
  r.trace_values[(assign + 1) * w + (size_t)v] += 1; /* the assignment's value changed */
  assert_false(replay_trace(ins, &r, why, sizeof why));
  assert_non_null(strstr(why, "does not do what the program says"));
  r.trace_values[(assign + 1) * w + (size_t)v] -= 1;
  r.trace_edges[0] = r.trace_edges[r.trace_len - 1]; /* a path that does not start at the entry */
  assert_false(replay_trace(ins, &r, why, sizeof why));
  assert_non_null(strstr(why, "does not continue the path"));
  r.trace_len = 0;
  assert_false(replay_trace(ins, &r, why, sizeof why));
  conform_result_free(&r);
  prog_free(ins);
  prog_free(code);
  free_spec(spec);
}

/* A lock taken by two instances, and its environment under ENV_SYSTEM. */
static ast_spec *lock_of_two(conform_env *e) {
  ast_spec *spec = load_spec("shared bool m = false;\n"
                             "thread T { init state I; state L; I -> L : !m && m'; L -> I : m && !m'; }\n"
                             "system S { T[2]; }\n");
  env_build(spec, ENV_SYSTEM, &(explicit_options){0}, e);
  return spec;
}

/* The environment of a lock: while one instance holds it (state L), the
 * other cannot take it, and the reachable rows say the lock is held there. */
static void environment_from_the_reachable_states(void **state) {
  (void)state;
  conform_env e;
  ast_spec *spec = lock_of_two(&e);
  assert_int_equal(e.source, ENV_FROM_REACHABLE);
  assert_int_equal(e.states, 3);
  assert_int_equal(e.move_count, 4); /* two edges of each of two instances */
  /* moves 2 and 3: T[2] takes I -> L and L -> I */
  assert_false(env_allows(&e, 1, 1, 2)); /* T[1] in L: T[2] cannot take the lock */
  assert_true(env_allows(&e, 1, 0, 2));
  assert_false(env_allows(&e, 1, 0, 0)); /* its own moves are not the environment's */
  size_t n;
  const int64_t *rows = env_values(&e, 1, 1, &n);
  assert_int_equal(n, 1);
  assert_int_equal(rows[2], 1); /* m is held */
  strbuf b = {0};
  env_describe_move(&e, 2, &b);
  assert_string_equal(sbuf_str(&b), "another T takes I -> L");
  sbuf_free(&b);
  assert_string_equal(env_source_name(e.source), "reachable");
  env_free(&e);
  free_spec(spec);
}

/* The closure of the moves for the lock of two instances: holding it, T[1]
 * sees m stay true; without it, T[2] may take it (one move, the witness). */
static void environment_closure_of_the_moves(void **state) {
  (void)state;
  conform_env e;
  ast_spec *spec = lock_of_two(&e);
  assert_non_null(e.graph);
  size_t n;
  const int64_t *rows = env_closure(&e, 1, 1, &n); /* T[1] in L */
  assert_int_equal(n, 1);
  assert_int_equal(rows[2], 1);
  assert_int_equal(rows[3], 1);
  rows = env_closure(&e, 1, 0, &n); /* T[1] in I, m false or true (T[2] holds it) */
  assert_int_equal(n, 4);
  env_path path;
  assert_true(env_graph_witness(e.graph, 1, 0, (int64_t[]){0}, (int64_t[]){1}, &path));
  assert_int_equal(path.count, 1);
  assert_int_equal(path.moves[0], 2); /* T[2] takes I -> L */
  assert_int_equal(path.after[0], 1);
  env_path_free(&path);
  assert_true(env_graph_witness(e.graph, 1, 0, (int64_t[]){0}, (int64_t[]){0}, &path));
  assert_int_equal(path.count, 0); /* no move */
  env_path_free(&path);
  assert_false(env_graph_witness(e.graph, 1, 1, (int64_t[]){1}, (int64_t[]){0}, &path));
  env_free(&e);
  free_spec(spec);
}

/* The graph's limits: past ENV_GRAPH_MAX_STATES states, a step to a state
 * never recorded, or a closure past ENV_CLOSURE_MAX_ROWS rows: no closure. */
static void environment_closure_limits(void **state) {
  (void)state;
  env_graph *g = env_graph_new(1, 2);
  for (int64_t s = 0; s <= ENV_GRAPH_MAX_STATES; s++) env_graph_state(g, (int64_t[]){s, 0, 0});
  assert_false(env_graph_close(g));
  env_graph_free(g);
  g = env_graph_new(1, 2);
  env_graph_state(g, (int64_t[]){0, 0, 0});
  env_graph_step(g, 2, 0, (int64_t[]){1, 0, 0});
  assert_false(env_graph_close(g));
  env_graph_free(g);
  g = env_graph_new(1, 2); /* a chain of 4096 values, each reaching all later ones */
  for (int64_t s = 0; s < ENV_GRAPH_MAX_STATES; s++) {
    env_graph_state(g, (int64_t[]){s, 0, 0});
    if (s + 1 < ENV_GRAPH_MAX_STATES) env_graph_step(g, 2, 0, (int64_t[]){s + 1, 0, 0});
  }
  assert_false(env_graph_close(g));
  size_t n;
  assert_null(env_graph_closure(g, 1, 0, &n));
  env_path path;
  assert_false(env_graph_witness(g, 1, 0, (int64_t[]){0}, (int64_t[]){1}, &path));
  env_graph_free(g);
  int64_t rows[] = {3, 1, 2, 1, 3, 1};
  assert_int_equal(env_rows_dedupe(rows, 3, 2), 2);
  assert_int_equal(rows[0], 2);
}

/* A system the explicit engine cannot explore: any edge of another
 * instance, at any time, and the reason in the text. */
static void environment_from_the_edges(void **state) {
  (void)state;
  ast_spec *spec = load_spec("shared int g;\nthread T { init state I; I -> I : g' > g; }\nsystem S { T[2]; }\n");
  conform_env e;
  env_build(spec, ENV_SYSTEM, &(explicit_options){0}, &e);
  assert_int_equal(e.source, ENV_FROM_EDGES);
  assert_true(env_allows(&e, 1, 0, 1));
  assert_false(env_allows(&e, 2, 0, 1));
  size_t n;
  assert_null(env_values(&e, 1, 0, &n));
  assert_non_null(strstr(e.text, "the explicit engine cannot run"));
  env_free(&e);
  env_build(spec, ENV_HAVOC, &(explicit_options){0}, &e);
  assert_int_equal(e.move_count, 0);
  assert_string_equal(env_source_name(e.source), "havoc");
  env_free(&e);
  free_spec(spec);
}

/* The environment of a lock for every N: the counter system's invariant
 * count(L) == m keeps another instance from releasing while this one holds
 * the lock, and says the lock is held while it does. */
static void environment_from_the_counters(void **state) {
  (void)state;
  ast_spec *spec = load_spec("const N = 2;\nshared bool m = false;\n"
                             "thread T { init state I; state L; I -> L : !m && m'; L -> I : m && !m'; }\n"
                             "system S { T[N]; }\n");
  forall_result fr;
  forall_run(spec, &(forall_options){.param = "N"}, &fr);
  assert_int_equal(fr.verdict, VERDICT_SAFE);
  assert_true(fr.invariants.row_count >= 1);
  conform_env e;
  env_build_for_all(spec, &fr.invariants, &e);
  assert_int_equal(e.source, ENV_FROM_COUNTERS);
  assert_true(env_allows(&e, 1, 1, 1)); /* a counted thread's move is another instance's, whatever its tid */
  const ast_thread *t = spec->threads.items[0];
  assert_null(env_counters_allow(&e, t, 1, 3)); /* in L: no other instance is in L to release */
  const ir_expr *take = env_counters_allow(&e, t, 1, 2);
  assert_int_equal(take->kind, IR_NAME);                            /* in L, another may take only where m holds */
  assert_ptr_equal(env_counters_allow(&e, t, 1, 2), take);          /* (decided once) */
  assert_int_equal(env_counters_allow(&e, t, 0, 2)->kind, IR_BOOL); /* in I: at any value of m */
  assert_int_equal(env_counters_allow(&e, t, 1, SIZE_MAX)->kind, IR_NAME); /* in L, m holds */
  assert_string_equal(env_source_name(e.source), "counters");
  env_free(&e);
  forall_result_free(&fr);
  free_spec(spec);
}

static void bmc_finds_the_bug_and_bounds_the_proof(void **state) {
  (void)state;
  assert_int_equal(check("-1", CONFORM_BMC, 10, NULL), CONFORM_VIOLATED);
  assert_int_equal(check("1", CONFORM_BMC, 10, NULL), CONFORM_UNKNOWN);
}

static void auto_picks_chc_for_loops(void **state) {
  (void)state;
  assert_int_equal(check("1", CONFORM_AUTO, 0, NULL), CONFORM_HOLDS);
}

/* The thread: one atomic step x := 3; assert(x == 1); x := 1, whose
 * inner locations are not boundaries; the abstract state asserts x == 1. */
static prog *assert_inside_step(void) {
  prog *p = prog_new("t");
  int x = prog_add_var(p, VAR_SHARED, "x", TY_INT);
  p->vars.items[x].shared_index = 0;
  int start = prog_add_loc(p, true), set = prog_add_loc(p, false), check = prog_add_loc(p, false);
  int reset = prog_add_loc(p, false), exit = prog_add_loc(p, true);
  p->entry = start;
  p->exit = exit;
  step(p, start, set, ACT_SKIP, -1, NULL);
  p->edges.items[step(p, set, check, ACT_ASSIGN, x, num(p, "3"))].starts_step = false;
  ir_expr *is_one = ir_binary(p->arena, (loc){0, 0}, OP_EQ, prog_var_ref(p, x, (loc){0, 0}), num(p, "1"));
  is_one->type = TY_BOOL;
  p->edges.items[step(p, check, reset, ACT_ASSERT, -1, is_one)].starts_step = false;
  p->edges.items[step(p, reset, exit, ACT_ASSIGN, x, num(p, "1"))].starts_step = false;
  return p;
}

/* Whether an expression of ins reads some candidate F_q. */
typedef struct candidate_read {
  const prog *ins;
  bool found;
} candidate_read;

static void reads_candidate(const ir_expr *e, void *ctx) {
  candidate_read *c = ctx;
  if (e->kind == IR_NAME && e->ref == REF_VAR && c->ins->vars.items[e->index].kind == VAR_CAND) c->found = true;
}

/* Issue 23: inside a step no candidate's assertion excuses a failing assert;
 * no code edge but an assert between steps reads F at all. */
static void assert_inside_a_step_is_not_excused(void **state) {
  (void)state;
  ast_spec *spec = load_spec("shared int[0..3] x = 1;\nthread T { init state S0 assert x == 1; }\n");
  prog *code = assert_inside_step();
  prog *ins = ins_build(code, spec, spec->threads.items[0], &havoc_env, false);
  int in_step = 0;
  vec_foreach(&ins->edges, k) {
    const prog_edge *ed = &ins->edges.items[k];
    if (ed->role != ROLE_CODE || !ed->expr) continue;
    candidate_read c = {ins, false};
    ir_walk(ed->expr, reads_candidate, &c);
    assert_true(!c.found || (ed->action == ACT_ASSERT && ed->check == CHECK_CODE));
    in_step += ed->action == ACT_ASSERT && ed->check == CHECK_CODE_IN_STEP;
  }
  assert_int_equal(in_step, 1);
  conform_result r;
  conform_check(ins, &(conform_options){.engine = CONFORM_BMC, .bound = 10}, &r);
  assert_int_equal(r.verdict, CONFORM_VIOLATED);
  trace t;
  trace_build(ins, &r, &havoc_env, spec->threads.items[0], &t);
  assert_int_equal(t.failure, CHECK_CODE_IN_STEP);
  assert_int_equal(t.steps.len, 1);
  trace_free(&t);
  conform_result_free(&r);
  prog_free(ins);
  prog_free(code);
  free_spec(spec);
}

/* ---------------------------------------------------------------- atomicity_split */

/* One step x := g + h (two reads), through an interior location marked atomic when atomic is set. */
static prog *two_reads(bool atomic) {
  prog *p = prog_new("t");
  int g = prog_add_var(p, VAR_SHARED, "g", TY_INT), h = prog_add_var(p, VAR_SHARED, "h", TY_INT);
  int x = prog_add_var(p, VAR_LOCAL, "x", TY_INT);
  p->vars.items[g].shared_index = 0;
  p->vars.items[h].shared_index = 1;
  int start = prog_add_loc(p, true), mid = prog_add_loc(p, false), exit = prog_add_loc(p, true);
  p->locs.items[mid].atomic = atomic;
  p->entry = start;
  p->exit = exit;
  step(p, start, mid, ACT_SKIP, -1, NULL);
  ir_expr *sum = plus(p, prog_var_ref(p, g, (loc){0, 0}), prog_var_ref(p, h, (loc){0, 0}));
  p->edges.items[step(p, mid, exit, ACT_ASSIGN, x, sum)].starts_step = false;
  return p;
}

/* The first read becomes a load between two boundaries before the step,
 * which then reads the load and the second read in place. */
static void split_loads_all_reads_but_the_last(void **state) {
  (void)state;
  prog *p = two_reads(false);
  diag_sink sink = {.out = stderr};
  assert_true(atomicity_split(p, &sink));
  assert_int_equal(p->edges.len, 3);
  const prog_edge *load = &p->edges.items[2];
  assert_int_equal(load->from, p->entry);
  assert_false(load->starts_step);
  assert_int_equal(p->vars.items[load->var].kind, VAR_LOAD);
  assert_int_equal(load->expr->index, 0); /* g */
  assert_true(p->locs.items[load->to].boundary);
  assert_int_equal(p->edges.items[0].from, load->to);
  assert_true(p->edges.items[0].starts_step);
  const ir_expr *sum = p->edges.items[1].expr;
  assert_int_equal(sum->a->index, load->var);
  assert_int_equal(sum->b->index, 1); /* h, read in the step */
  prog_free(p);
}

/* An atomic section stays one step, whatever it reads. */
static void split_keeps_atomic_sections(void **state) {
  (void)state;
  prog *p = two_reads(true);
  diag_sink sink = {.out = stderr};
  assert_true(atomicity_split(p, &sink));
  assert_int_equal(p->edges.len, 2);
  assert_int_equal(p->locs.len, 3);
  prog_free(p);
}

/* A step that writes two shared variables breaks the pass's contract: an error, not a wrong split. */
static void split_refuses_two_writes(void **state) {
  (void)state;
  prog *p = two_reads(false);
  p->edges.items[1].var = 1; /* x := g + h becomes h := g + h ... */
  p->edges.items[0].action = ACT_ASSIGN;
  p->edges.items[0].var = 0; /* ... after g := 1 */
  p->edges.items[0].expr = num(p, "1");
  diag_sink sink = {0}; /* quiet: only counts */
  assert_false(atomicity_split(p, &sink));
  assert_int_equal(sink.errors, 1);
  prog_free(p);
}

/* --witness's YAML: strings double-quoted with the escapes YAML needs (C0,
 * C1 and the line separators YAML would fold), other UTF-8 as it is, keys
 * that are no identifiers quoted, empty containers in flow style. */
static void witness_yaml_quotes_and_nests(void **state) {
  (void)state;
  json_t *doc = json_pack("[{s:s, s:i, s:[], s:{s:b, s:[s, i]}}]", "a", "q\"b\\s\x01\n\xc2\x85 \xe2\x80\xa8 \xc3\xa9",
                          "k: x", 3, "e", "o", "n", 1, "l", "x", -2);
  char *text = witness_yaml(doc);
  assert_string_equal(text, "- a: \"q\\\"b\\\\s\\x01\\x0a\\x85 \\u2028 \xc3\xa9\"\n"
                            "  \"k: x\": 3\n"
                            "  e: []\n"
                            "  o:\n"
                            "    n: true\n"
                            "    l:\n"
                            "      - \"x\"\n"
                            "      - -2\n");
  free(text);
  json_decref(doc);
}

/* ---------------------------------------------------------------- lemmas */

static ir_expr *boolean(prog *p, ir_op op, ir_expr *a, ir_expr *b) {
  ir_expr *e = b ? ir_binary(p->arena, (loc){0, 0}, op, a, b) : ir_unary(p->arena, (loc){0, 0}, op, a);
  e->type = TY_BOOL;
  return e;
}

/* Two candidates A and B (VAR_CAND) that a loop swaps, with x 0 under A and
 * 1 under B: F_A := true; F_B := false; x := 0; while (*) { either
 * assume(F_A); F_A, F_B, x := false, true, 1 or assume(F_B); F_B, F_A, x :=
 * false, true, 0 }; assert(!F_B || x == 1). At the loop head neither !F[A]
 * nor !F[B] holds, nor any bound of x but 0 <= x <= 1: only the guarded
 * templates say which x goes with which state. */
static prog *swapping_states(int *v) {
  prog *p = prog_new("swap");
  int a = v[0] = prog_add_var(p, VAR_CAND, "F_A", TY_BOOL), b = v[1] = prog_add_var(p, VAR_CAND, "F_B", TY_BOOL);
  int x = v[2] = prog_add_var(p, VAR_LOCAL, "x", TY_INT);
  int l[11];
  for (int i = 0; i < 11; i++) l[i] = prog_add_loc(p, true);
  p->entry = l[0];
  p->exit = l[10];
  step(p, l[0], l[1], ACT_ASSIGN, a, ir_bool(p->arena, (loc){0, 0}, true));
  step(p, l[1], l[2], ACT_ASSIGN, b, ir_bool(p->arena, (loc){0, 0}, false));
  step(p, l[2], l[3], ACT_ASSIGN, x, num(p, "0"));
  const int from[2] = {a, b}, to[2] = {b, a};
  const char *value[2] = {"1", "0"};
  for (int i = 0; i < 2; i++) {
    int at = l[4 + 3 * i];
    step(p, l[3], at, ACT_ASSUME, -1, prog_var_ref(p, from[i], (loc){0, 0}));
    step(p, at, at + 1, ACT_ASSIGN, from[i], ir_bool(p->arena, (loc){0, 0}, false));
    step(p, at + 1, at + 2, ACT_ASSIGN, to[i], ir_bool(p->arena, (loc){0, 0}, true));
    step(p, at + 2, l[3], ACT_ASSIGN, x, num(p, value[i]));
  }
  ir_expr *one = ir_binary(p->arena, (loc){0, 0}, OP_EQ, prog_var_ref(p, x, (loc){0, 0}), num(p, "1"));
  one->type = TY_BOOL;
  ir_expr *not_b = boolean(p, OP_NOT, prog_var_ref(p, b, (loc){0, 0}), NULL);
  step(p, l[3], l[10], ACT_ASSERT, -1, boolean(p, OP_OR, not_b, one));
  return p;
}

/* Whether the lemmas of cut k imply t (over the constants x, one per variable). */
static bool lemmas_imply(enc *e, const Z3_ast *inv, int k, const Z3_ast *x, Z3_ast t) {
  Z3_context c = smt_z3(e->s);
  Z3_ast args[3];
  unsigned n = enc_live_args(e, k, x, args);
  assert_int_equal(n, 3);
  Z3_ast at = smt_keep(e->s, Z3_substitute_vars(c, inv[k], n, args));
  Z3_solver sv = smt_solver(e->s, 0, false);
  Z3_solver_assert(c, sv, smt_and(e->s, 2, (Z3_ast[]){at, smt_not(e->s, t)}));
  bool implied = Z3_solver_check(c, sv) == Z3_L_FALSE;
  Z3_solver_dec_ref(c, sv);
  return implied;
}

static void lemmas_find_guarded_invariants(void **state) {
  (void)state;
  int v[3];
  prog *p = swapping_states(v);
  smt *s = smt_new();
  enc *e = enc_new(s, p, false);
  lemmas *guess = lemmas_new(e, 0);
  Z3_ast *first = lemmas_find(guess), *second = lemmas_find_guarded(guess);
  assert_non_null(first);
  assert_non_null(second);
  int head = e->cut_of[3];
  assert_true(head >= 0);
  Z3_ast x[3] = {enc_var(e, v[0], NULL), enc_var(e, v[1], NULL), enc_var(e, v[2], NULL)};
  Z3_ast is1 = smt_eq(s, x[2], smt_int(s, 1)), is0 = smt_eq(s, x[2], smt_int(s, 0));
  /* the first search: bounds only */
  assert_true(lemmas_imply(e, first, head, x, smt_le(s, x[2], smt_int(s, 1))));
  assert_false(lemmas_imply(e, first, head, x, smt_implies(s, x[1], is1)));
  /* found: F[B] => x == 1 and F[A] => x == 0 (the proof needs the first) */
  assert_true(lemmas_imply(e, second, head, x, smt_implies(s, x[1], is1)));
  assert_true(lemmas_imply(e, second, head, x, smt_implies(s, x[0], is0)));
  /* dropped: the wrong guarded candidates, and the unguarded ones */
  assert_false(lemmas_imply(e, second, head, x, smt_implies(s, x[1], is0)));
  assert_false(lemmas_imply(e, second, head, x, smt_not(s, x[1])));
  assert_false(lemmas_imply(e, second, head, x, is1));
  assert_null(lemmas_find_guarded(guess)); /* once */
  free(first);
  free(second);
  lemmas_free(guess);
  enc_free(e);
  smt_free(s);
  prog_free(p);
}

int run_conform_tests(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(thread_a_conforms),
      cmocka_unit_test(witness_yaml_quotes_and_nests),
      cmocka_unit_test(minus_one_does_not_conform),
      cmocka_unit_test(counterexamples_are_replayed),
      cmocka_unit_test(environment_from_the_reachable_states),
      cmocka_unit_test(environment_closure_of_the_moves),
      cmocka_unit_test(environment_closure_limits),
      cmocka_unit_test(environment_from_the_edges),
      cmocka_unit_test(environment_from_the_counters),
      cmocka_unit_test(bmc_finds_the_bug_and_bounds_the_proof),
      cmocka_unit_test(auto_picks_chc_for_loops),
      cmocka_unit_test(assert_inside_a_step_is_not_excused),
      cmocka_unit_test(split_loads_all_reads_but_the_last),
      cmocka_unit_test(split_keeps_atomic_sections),
      cmocka_unit_test(split_refuses_two_writes),
      cmocka_unit_test(lemmas_find_guarded_invariants),
  };
  int failures = cmocka_run_group_tests_name("conform", tests, NULL, NULL);
  smt_shutdown();
  return failures;
}
