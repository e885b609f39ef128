/* tests/unit/test-spec.c -- the spec front end through its API: printing of
 * expressions, constant evaluation, overrides, and the tables sema derives. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../spec-lang/fmt.h"
#include "../../spec-lang/semantics.h"
#include "../../spec-lang/spec.h"
#include "unit.h"

/* The assertion of thread T's only state, printed back. */
static char *printed_assertion(const char *expr) {
  char text[512];
  snprintf(text, sizeof text,
           "shared int a; shared int b; shared bool p; shared bool q;\n"
           "thread T { init state S assert %s; }\n",
           expr);
  ast_spec *spec = unit_spec_load(text, NULL, NULL);
  if (!spec) return strdup("(does not check)");
  strbuf out = {0};
  ir_print(&out, spec->threads.items[0]->states.items[0]->assertion);
  unit_spec_free(spec);
  return sbuf_take(&out);
}

static void expressions_print_with_fewest_parentheses(void **state) {
  (void)state;
  static const char *const cases[][2] = {
      {"(a + b) * 2 == 4", "(a + b) * 2 == 4"},
      {"a + (b * 2) == 4", "a + b * 2 == 4"},
      {"a - (b - 1) > 0", "a - (b - 1) > 0"},
      {"(a - b) - 1 > 0", "a - b - 1 > 0"},
      {"p ==> (q ==> p)", "p ==> q ==> p"},
      {"(p ==> q) ==> p", "(p ==> q) ==> p"},
      {"!(p && q) || (p && q)", "!(p && q) || p && q"},
      {"(p <==> q) <==> p", "p <==> q <==> p"},
      {"p <==> (q <==> p)", "p <==> (q <==> p)"},
      {"-(-a) == a % 3", "-(-a) == a % 3"},
      {"!(!p)", "!!p"},
      {"(p ? a : b) == (q ? 1 : (p ? 2 : 3))", "(p ? a : b) == (q ? 1 : p ? 2 : 3)"},
      {"(p ? q : p) ? p : q", "(p ? q : p) ? p : q"},
      {"(p == q) == p", "p == q == p"},
      {"0x1F + a / 2 < 3", "0x1F + a / 2 < 3"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    char *got = printed_assertion(cases[i][0]);
    assert_string_equal(got, cases[i][1]);
    free(got);
  }
}

static int64_t const_value(const char *defs, const char *name, spec_options *opts) {
  ast_spec *spec = unit_spec_load(defs, opts, NULL);
  assert_non_null(spec);
  int64_t v = INT64_MIN;
  vec_foreach(&spec->consts, i)
    if (strcmp(spec->consts.items[i]->name, name) == 0) v = spec->consts.items[i]->value;
  unit_spec_free(spec);
  return v;
}

static void constants_truncate_like_c_and_follow_overrides(void **state) {
  (void)state;
  assert_int_equal(const_value("const X = -7 / 2;", "X", NULL), -3);
  assert_int_equal(const_value("const X = -7 % 2;", "X", NULL), -1);
  assert_int_equal(const_value("const X = 0x10 * 2 + (1 < 2 ? 5 : 6);", "X", NULL), 37);
  spec_override o = {.name = "N", .value = 8};
  spec_options opts = {.overrides = &o, .override_count = 1};
  assert_int_equal(const_value("const N = 3; const M = N + 1;", "M", &opts), 9);
  assert_true(o.used);
}

static void unknown_override_is_an_error(void **state) {
  (void)state;
  spec_override o = {.name = "Q", .value = 1};
  spec_options opts = {.overrides = &o, .override_count = 1};
  int errors = 0;
  assert_null(unit_spec_load("const N = 3;", &opts, &errors));
  assert_int_equal(errors, 1);
}

static void instances_get_tids_in_system_order(void **state) {
  (void)state;
  ast_spec *spec = unit_spec_load("const N = 2;\nshared bool f;\n"
                                  "thread Unload { init state U; U -> U : f' == (tid == 1); }\n"
                                  "thread Worker { init state W, X; }\n"
                                  "system S { Unload; Worker[N]; invariant !Worker[2]@X || count(Worker@W) >= 0; }\n",
                                  NULL, NULL);
  assert_non_null(spec);
  assert_int_equal(spec->instances.len, 2);
  assert_int_equal(spec->instances.items[0]->first_tid, 1);
  assert_int_equal(spec->instances.items[1]->first_tid, 2);
  assert_int_equal(spec->instances.items[1]->count_value, 2);
  assert_int_equal(spec->instance_total, 3);
  assert_true(spec->threads.items[0]->uses_tid);
  assert_false(spec->threads.items[1]->uses_tid);
  assert_true(spec->threads.items[1]->named_by_index);
  assert_int_equal(spec->properties.len, 1);
  unit_spec_free(spec);
}

static void no_system_means_one_instance_per_thread(void **state) {
  (void)state;
  ast_spec *spec = unit_spec_load("thread A { init state S; }\nthread B { init state S; }\n", NULL, NULL);
  assert_non_null(spec);
  assert_null(spec->system);
  assert_int_equal(spec->instances.len, 2);
  assert_int_equal(spec->instances.items[1]->first_tid, 2);
  unit_spec_free(spec);
}

static void names_resolve_to_indices(void **state) {
  (void)state;
  ast_spec *spec =
      unit_spec_load("const K = 2;\nshared int[0..K] x;\nshared bool b = true;\n"
                     "thread T { init state S; state R assert b; S -> R \"go\" when x < K do x := x + 1, b := *; }\n",
                     NULL, NULL);
  assert_non_null(spec);
  ast_edge *e = spec->threads.items[0]->edges.items[0];
  assert_int_equal(e->from_index, 0);
  assert_int_equal(e->to_index, 1);
  assert_string_equal(e->label, "go");
  assert_int_equal(e->guard->a->ref, REF_SHARED);
  assert_int_equal(e->guard->a->index, 0);
  assert_int_equal(e->guard->b->ref, REF_CONST);
  assert_int_equal(e->assigns.items[1].var_index, 1);
  assert_null(e->assigns.items[1].value);
  assert_int_equal(spec->shared.items[0]->type.hi_value, 2);
  unit_spec_free(spec);
}

/* The conjuncts of c, printed and joined by " ; ". */
static char *printed_conj(const sem_conj *c) {
  strbuf out = {0};
  for (size_t k = 0; k < c->len; k++) {
    if (k) sbuf_puts(&out, " ; ");
    ir_print(&out, c->items[k]);
  }
  return sbuf_take(&out);
}

static void check_conj(const sem_conj *c, const char *expected) {
  char *text = printed_conj(c);
  assert_string_equal(text, expected);
  free(text);
}

static void edges_mean_their_relation_with_the_frame_rule(void **state) {
  (void)state;
  ast_spec *spec = unit_spec_load("shared int[0..3] x = 1; shared bool b; shared int y;\n"
                                  "thread T { init state S; state R;\n"
                                  "  S -> R when x < 3 do x := x + 1, b := *;\n"
                                  "  R -> S : y' == y + x && b';\n"
                                  "  R -> R when true; }\n"
                                  "system Sys { T; init y > 0; }\n",
                                  NULL, NULL);
  assert_non_null(spec);
  const ast_thread *t = spec->threads.items[0];
  check_conj(sem_edge(t->edges.items[0]), "x < 3 ; x' == x + 1 ; y' == y");
  check_conj(sem_edge(t->edges.items[1]), "y' == y + x && b' ; x' == x");
  check_conj(sem_edge(t->edges.items[2]), "true ; x' == x ; b' == b ; y' == y");
  check_conj(sem_idle(spec), "x' == x ; b' == b ; y' == y");
  check_conj(sem_initial(spec), "x == 1 ; y > 0");
  assert_null(sem_edge_plans(t->edges.items[0]));
  const sem_plans *ps = sem_edge_plans(t->edges.items[1]);
  assert_int_equal(ps->count, 1);
  assert_int_equal(ps->undetermined, -1);
  assert_int_equal(ps->items[0].step_count, 2);
  assert_int_equal(ps->items[0].steps[0].var, 1); /* b, in variable order: the conjunct b' says b' is true */
  assert_true(ps->items[0].steps[0].def->kind == IR_BOOL && ps->items[0].steps[0].def->value == 1);
  assert_ptr_equal(ps->items[0].steps[0].from, ps->items[0].test->b);
  assert_int_equal(ps->items[0].steps[1].var, 2); /* then y from y' == y + x */
  assert_ptr_equal(ps->items[0].steps[1].from, ps->items[0].test->a);
  const sem_plans *init = sem_initial_plans(spec);
  assert_int_equal(init->undetermined, 2); /* y: unbounded, and y > 0 does not fix it */
  assert_ptr_equal(init->undetermined_at, spec->inits.items[0]);
  unit_spec_free(spec);
}

/* e printed, or "(none)" for NULL. */
static char *printed(const ir_expr *e) {
  strbuf out = {0};
  if (e) ir_print(&out, e);
  else sbuf_puts(&out, "(none)");
  return sbuf_take(&out);
}

static void check_expr(const ir_expr *e, const char *expected) {
  char *text = printed(e);
  assert_string_equal(text, expected);
  free(text);
}

/* Plans fix from the pre-state first, then from what is fixed, and enumerate
 * first the variables that no conjunct could define; what remains to test
 * after the steps is the conjuncts that gave no step its value. */
static void plans_compute_before_they_enumerate(void **state) {
  (void)state;
  ast_spec *spec = unit_spec_load("shared int[0..3] x; shared int[0..3] y; shared bool b;\n"
                                  "thread T { init state S;\n"
                                  "  S -> S : x' == y' + 1 && !b' && y' <= 2;\n"
                                  "  S -> S : x' == y' || x' == 1; }\n",
                                  NULL, NULL);
  assert_non_null(spec);
  const ast_thread *t = spec->threads.items[0];
  const sem_plan *p = &sem_edge_plans(t->edges.items[0])->items[0];
  assert_int_equal(p->step_count, 3);
  assert_int_equal(p->steps[0].var, 2); /* b from the pre-state: !b' gives false */
  assert_true(p->steps[0].def->kind == IR_BOOL && p->steps[0].def->value == 0);
  assert_int_equal(p->steps[1].var, 1); /* y: nothing could define it, so it is enumerated */
  assert_null(p->steps[1].def);
  assert_null(p->steps[1].from);
  assert_int_equal(p->steps[2].var, 0); /* x from y' */
  check_expr(p->pre, "(none)");
  check_expr(p->rest, "y' <= 2");
  const sem_plans *two = sem_edge_plans(t->edges.items[1]);
  assert_int_equal(two->count, 2);
  assert_int_equal(two->items[0].steps[0].var, 0); /* x' == y': each could define the other; x is enumerated */
  assert_null(two->items[0].steps[0].def);
  assert_int_equal(two->items[0].steps[1].var, 1); /* and y computed from it */
  assert_non_null(two->items[0].steps[1].def);
  assert_int_equal(two->items[1].steps[0].var, 0); /* x' == 1 from the pre-state, then y' any value */
  assert_null(two->items[1].steps[1].def);
  check_expr(two->items[0].rest, "(none)"); /* each disjunct is its definition */
  check_expr(two->items[1].rest, "(none)");
  unit_spec_free(spec);
}

/* Arrays are cells; a write by an index that is not constant keeps every
 * other element (the per-element frame rule) and is planned per element. */
static void elements_are_cells_with_their_own_frame(void **state) {
  (void)state;
  ast_spec *spec = unit_spec_load("shared int[0..2] i; shared int a[2] = {1, 2};\n"
                                  "thread T { init state S;\n"
                                  "  S -> S : a'[i] == 7;\n"
                                  "  S -> S do a[i] := 1, a[1] := *; }\n",
                                  NULL, NULL);
  assert_non_null(spec);
  assert_int_equal(spec->variables.len, 2);
  assert_int_equal(spec->shared.len, 3);
  assert_string_equal(spec->shared.items[2]->name, "a[1]");
  assert_ptr_equal(spec->shared.items[2]->array, spec->variables.items[1]);
  const ast_thread *t = spec->threads.items[0];
  check_conj(sem_edge(t->edges.items[0]), "a'[i] == 7 ; i' == i ; i == 0 || a'[0] == a[0] ; i == 1 || a'[1] == a[1]");
  check_conj(sem_edge(t->edges.items[1]), "a'[i] == 1 ; i' == i ; i == 0 || a'[0] == a[0]");
  check_conj(sem_initial(spec), "a[0] == 1 ; a[1] == 2");
  const sem_plans *ps = sem_edge_plans(t->edges.items[0]);
  assert_int_equal(ps->count, 2); /* i == 0 and i == 1; i == 2 is outside the array */
  strbuf test = {0};
  ir_print(&test, ps->items[1].test);
  assert_string_equal(sbuf_str(&test), "i == 1 && a'[1] == 7");
  sbuf_free(&test);
  assert_int_equal(ps->items[1].step_count, 1);
  assert_int_equal(ps->items[1].steps[0].var, 2);
  assert_int_equal(ps->items[1].case_number, 2);
  assert_non_null(sem_edge_plans(t->edges.items[1])); /* a command with a dynamic target is planned too */
  unit_spec_free(spec);
}

/* Going wrong: the assertion after its indices, then each edge's indices
 * where they are evaluated, and two writes that may meet. */
static void checks_guard_indices_where_they_are_read(void **state) {
  (void)state;
  ast_spec *spec = unit_spec_load("shared int[0..3] i; shared int[0..3] j; shared bool a[3];\n"
                                  "thread T { init state S assert a[i];\n"
                                  "  S -> S when i < 3 && a[i] do a[i] := false, a[j] := true; }\n",
                                  NULL, NULL);
  assert_non_null(spec);
  const sem_checks *cs = sem_state_checks(spec->threads.items[0]->states.items[0]);
  const char *expected[] = {
      "0 <= i && i < 3",                   /* the assertion's index */
      "a[i]",                              /* the assertion */
      "i < 3 ==> 0 <= i && i < 3",         /* the guard's index, where i < 3 */
      "i < 3 && a[i] ==> 0 <= i && i < 3", /* a[i] := ..., where the guard holds */
      "i < 3 && a[i] ==> 0 <= j && j < 3", /* a[j] := ... */
      "i < 3 && a[i] ==> i != j",          /* the two writes differ */
  };
  assert_int_equal(cs->len, 6);
  for (size_t k = 0; k < cs->len; k++) {
    strbuf b = {0};
    ir_print(&b, cs->items[k].holds);
    assert_string_equal(sbuf_str(&b), expected[k]);
    sbuf_free(&b);
  }
  assert_int_equal(cs->items[1].kind, SEM_ASSERTION);
  assert_int_equal(cs->items[5].kind, SEM_CONFLICT);
  assert_ptr_equal(cs->items[4].edge, spec->threads.items[0]->edges.items[0]);
  unit_spec_free(spec);
}

/* forall/exists expand in order, as a balanced tree; a bound variable
 * indexes like a constant. */
static void quantifiers_expand_in_order(void **state) {
  (void)state;
  ast_spec *spec =
      unit_spec_load("shared bool f[3];\n"
                     "thread T { init state S assert forall k in 0..2: f[k] || exists m in k..2: !f[m]; }\n",
                     NULL, NULL);
  assert_non_null(spec);
  const ir_expr *q = spec->threads.items[0]->states.items[0]->assertion;
  assert_int_equal(q->kind, IR_QUANT);
  strbuf b = {0};
  ir_print(&b, q->lowered);
  assert_string_equal(sbuf_str(&b),
                      "(f[0] || (!f[0] || (!f[1] || !f[2]))) && ((f[1] || (!f[1] || !f[2])) && (f[2] || !f[2]))");
  sbuf_free(&b);
  assert_int_equal(q->lowered->b->b->a->cell, 2); /* f[2] by its cell (the instances are a balanced tree) */
  assert_int_equal(sem_state_checks(spec->threads.items[0]->states.items[0])->len, 1); /* no index to check */
  unit_spec_free(spec);
}

static void syntax_errors_are_all_reported(void **state) {
  (void)state;
  int errors = 0;
  assert_null(
      unit_spec_load("shared int g\nthread A {\n  init state X assert g > 0\n  X -> X : ;\n}\n", NULL, &errors));
  assert_int_equal(errors, 3);
}

/* Labels end up in XML (the diagrams): UTF-8 text without control characters. */
static void labels_are_xml_text(void **state) {
  (void)state;
  const char *good[] = {"\"a\tb\"", "\"\xc3\xa9t\xc3\xa9\"", "\"\xf0\x9f\x99\x82\""};
  const char *bad[] = {"\"a\x01\"", "\"\x7f\"", "\"\xc3\"", "\"\xed\xa0\x80\"", "\"\xef\xbf\xbe\"", "\"\xc0\xaf\""};
  char text[128];
  for (size_t i = 0; i < sizeof good / sizeof *good + sizeof bad / sizeof *bad; i++) {
    bool ok = i < sizeof good / sizeof *good;
    snprintf(text, sizeof text, "shared int g;\nthread A { init state X; X -> X %s : g' == g; }\n",
             ok ? good[i] : bad[i - sizeof good / sizeof *good]);
    int errors = 0;
    ast_spec *spec = unit_spec_load(text, NULL, &errors);
    assert_int_equal(errors, ok ? 0 : 1);
    if (spec) unit_spec_free(spec);
  }
}

int run_spec_tests(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(expressions_print_with_fewest_parentheses),
      cmocka_unit_test(constants_truncate_like_c_and_follow_overrides),
      cmocka_unit_test(unknown_override_is_an_error),
      cmocka_unit_test(instances_get_tids_in_system_order),
      cmocka_unit_test(no_system_means_one_instance_per_thread),
      cmocka_unit_test(names_resolve_to_indices),
      cmocka_unit_test(edges_mean_their_relation_with_the_frame_rule),
      cmocka_unit_test(plans_compute_before_they_enumerate),
      cmocka_unit_test(elements_are_cells_with_their_own_frame),
      cmocka_unit_test(checks_guard_indices_where_they_are_read),
      cmocka_unit_test(quantifiers_expand_in_order),
      cmocka_unit_test(syntax_errors_are_all_reported),
      cmocka_unit_test(labels_are_xml_text),
  };
  return cmocka_run_group_tests_name("spec", tests, NULL, NULL);
}
