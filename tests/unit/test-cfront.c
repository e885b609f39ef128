/* tests/unit/test-cfront.c -- the C front end through its API: snippets
 * are written to a temporary .c file, read with libclang and lowered, and
 * the resulting program's steps, boundaries and messages are checked; the
 * syntax tree itself for the types and conversions the translator records. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../cfront/c-ast.h"
#include "../../cfront/cfront.h"
#include "../../spec-lang/spec.h"
#include "unit.h"

typedef struct lowered {
  diag_sink sink; /* messages go to diags */
  FILE *mem;      /* the memory stream behind the sink */
  char *diags;    /* every message printed */
  size_t diags_len;
  ast_spec *spec; /* the checked spec */
  cfe_unit *unit; /* NULL after parse errors */
  prog *p;        /* NULL after errors */
  int errors;     /* errors reported */
} lowered;

static const char *default_spec = "shared int g; shared bool flag; shared int[0..3] r;\n";

/* Parses and lowers function fn of code against spec (default_spec if NULL)
 * with the integers ints. */
static lowered *lower_with(const char *spec, const char *code, const char *fn, cfe_ints ints) {
  lowered *l = calloc(1, sizeof *l);
  l->mem = open_memstream(&l->diags, &l->diags_len);
  l->sink.out = l->mem;
  spec = spec ? spec : default_spec;
  l->spec = spec_parse_source(diag_source_from_string(&l->sink, "t.athread", spec, strlen(spec)));
  assert_true(l->sink.errors == 0 && spec_check(l->spec, NULL));
  temp_c_file t;
  temp_c_write(&t, code);
  const char *files[] = {t.path};
  cfe_options o = {.include_dir = "include"};
  l->unit = cfe_parse(&l->sink, files, 1, &o);
  if (l->unit) l->p = cfe_lower(l->unit, l->spec, fn, ints);
  temp_c_remove(&t);
  fflush(l->mem);
  l->errors = l->sink.errors;
  return l;
}

/* The tests of steps, accesses and messages use mathematical integers: C's
 * add the checks that the c_integers_ tests look at. */
static lowered *lower_code(const char *spec, const char *code, const char *fn) {
  return lower_with(spec, code, fn, CFE_INTS_MATH);
}

static void release(lowered *l) {
  prog_free(l->p);
  cfe_free(l->unit);
  spec_free(l->spec);
  fclose(l->mem);
  free(l->diags);
  free(l);
}

static int count_steps(const prog *p) {
  int n = 0;
  vec_foreach(&p->edges, i) n += p->edges.items[i].starts_step;
  return n;
}

static int count_action(const prog *p, prog_action a) {
  int n = 0;
  vec_foreach(&p->edges, i) n += p->edges.items[i].action == a;
  return n;
}

/* The invariants every concrete program keeps: a step edge leaves a
 * boundary, every other edge out of a boundary goes to a boundary, entry and
 * exit are boundaries, and every IR node is typed. */
static void assert_well_formed(const prog *p) {
  assert_true(p->locs.items[p->entry].boundary);
  assert_true(p->locs.items[p->exit].boundary);
  vec_foreach(&p->edges, i) {
    const prog_edge *e = &p->edges.items[i];
    bool from_boundary = p->locs.items[e->from].boundary;
    if (e->starts_step) assert_true(from_boundary);
    if (from_boundary && !e->starts_step) assert_true(p->locs.items[e->to].boundary);
    if (e->expr) assert_true(e->expr->type == TY_INT || e->expr->type == TY_BOOL);
    if (e->action == ACT_ASSUME || e->action == ACT_ASSERT) assert_int_equal(e->expr->type, TY_BOOL);
  }
}

static lowered *lower_ok(const char *code) {
  lowered *l = lower_code(NULL, code, "f");
  if (!l->p) fprintf(stderr, "%.*s", (int)l->diags_len, l->diags);
  assert_non_null(l->p);
  assert_well_formed(l->p);
  return l;
}

static void assert_message(const char *code, const char *message) {
  lowered *l = lower_code(NULL, code, "f");
  assert_null(l->p);
  if (!strstr(l->diags, message)) fprintf(stderr, "expected \"%s\" in:\n%s", message, l->diags);
  assert_non_null(strstr(l->diags, message));
  release(l);
}

/* ---------------------------------------------------------------- steps */

static void statements_are_steps_and_checks_are_not(void **state) {
  (void)state;
  lowered *l = lower_ok("#include <athread.h>\n#include <assert.h>\n"
                        "int g;\nvoid f(void) { g = 1; g++; int x; int y = 2; assert(g > 0); ; }\n");
  assert_int_equal(count_steps(l->p), 3);
  assert_int_equal(count_action(l->p, ACT_HAVOC), 1);
  assert_int_equal(count_action(l->p, ACT_ASSERT), 1);
  vec_foreach(&l->p->edges, i) {
    const prog_edge *e = &l->p->edges.items[i];
    assert_int_equal(e->starts_step, e->action == ACT_ASSIGN);
  }
  release(l);
}

static void conditions_are_one_step_with_two_outcomes(void **state) {
  (void)state;
  lowered *l = lower_ok("int g;\nvoid f(void) { if (g > 0) g = 1; else g = 2; while (*) g--; }\n");
  assert_int_equal(count_steps(l->p), 2 + 2 + 2 + 1);
  assert_int_equal(count_action(l->p, ACT_ASSUME), 2);
  const prog_location *first = &l->p->locs.items[l->p->edges.items[0].from];
  assert_int_equal(first->out.len, 2);
  release(l);
}

static void for_without_condition_still_steps(void **state) {
  (void)state;
  lowered *l = lower_ok("int g;\nvoid f(void) { for (;;) { if (g) break; } }\n");
  assert_int_equal(count_steps(l->p), 1 + 2);
  release(l);
}

static void atomic_sections_are_one_step(void **state) {
  (void)state;
  static const char *const cases[] = {
      "#include <athread.h>\nint g;\nvoid f(void) { atomic { g = 1; if (g > 0) g = 2; while (g < 5) g++; } }\n",
      "#include <athread.h>\nint g;\nvoid f(void) { __VERIFIER_atomic_begin(); g = 1; g++; __VERIFIER_atomic_end(); "
      "}\n",
      "int g;\nvoid __VERIFIER_atomic_two(int a) { g = a; g++; }\nvoid f(void) { __VERIFIER_atomic_two(3); }\n",
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    lowered *l = lower_ok(cases[i]);
    assert_int_equal(count_steps(l->p), 1);
    release(l);
  }
}

static void calls_are_inlined_with_fresh_copies(void **state) {
  (void)state;
  lowered *l = lower_ok("int g;\nint add(int a, int b) { int t = a + b; return t; }\n"
                        "void none(void) { }\n"
                        "void f(void) { g = add(1, 2); int x = add(g, 1); none(); }\n");
  /* per call: arguments, t = ..., return, then the assignment of the result */
  assert_int_equal(count_steps(l->p), 4 + 4);
  int copies = 0;
  vec_foreach(&l->p->vars, i) copies += strcmp(l->p->vars.items[i].display, "a") == 0;
  assert_int_equal(copies, 2);
  release(l);
}

static void nondet_values_use_temporaries_within_the_step(void **state) {
  (void)state;
  lowered *l = lower_ok("#include <athread.h>\nint g;\nvoid f(void) { g = nondet() + 1; g = nondet(); "
                        "bool b = __VERIFIER_nondet_bool(); int y = __VERIFIER_nondet_bool(); }\n");
  assert_int_equal(count_steps(l->p), 4);
  assert_int_equal(count_action(l->p, ACT_HAVOC), 4); /* temp, g, b, temp of y */
  release(l);
}

static void bounded_shared_int_havoc_goes_through_a_temporary(void **state) {
  (void)state;
  lowered *l = lower_ok("#include <athread.h>\nint r;\nvoid f(void) { r = nondet(); }\n");
  assert_int_equal(count_action(l->p, ACT_HAVOC), 1);
  assert_int_equal(count_action(l->p, ACT_ASSIGN), 1);
  release(l);
}

static void entry_parameters_start_anywhere(void **state) {
  (void)state;
  lowered *l = lower_ok("#include <stdbool.h>\nint g;\nvoid f(int n, bool b) { g = n; }\n");
  const prog *p = l->p;
  assert_int_equal(p->locs.items[p->entry].out.len, 1);
  const prog_edge *e = &p->edges.items[p->locs.items[p->entry].out.items[0]];
  assert_int_equal(e->action, ACT_HAVOC);
  assert_false(e->starts_step);
  assert_int_equal(count_action(p, ACT_HAVOC), 2);
  vec_foreach(&p->vars, i)
    if (strcmp(p->vars.items[i].name, "b") == 0) assert_true(p->vars.items[i].bounded && p->vars.items[i].hi == 1);
  release(l);
}

static void shared_variables_come_first_in_spec_order(void **state) {
  (void)state;
  lowered *l = lower_ok("void f(void) { }\n");
  const prog *p = l->p;
  assert_true(p->vars.len >= 3);
  assert_string_equal(p->vars.items[0].name, "g");
  assert_int_equal(p->vars.items[1].type, TY_BOOL);
  assert_true(p->vars.items[2].bounded && p->vars.items[2].lo == 0 && p->vars.items[2].hi == 3);
  for (int i = 0; i < 3; i++) assert_int_equal(p->vars.items[i].shared_index, i);
  assert_int_equal(count_steps(p), 0);
  release(l);
}

/* ---------------------------------------------------------------- fields and elements */

static const char *array_spec = "shared int a[3]; shared int x binds s.in.x; shared bool b binds s.b;\n";

static lowered *lower_array_ok(const char *code) {
  lowered *l = lower_code(array_spec, code, "f");
  if (!l->p) fprintf(stderr, "%.*s", (int)l->diags_len, l->diags);
  assert_non_null(l->p);
  assert_well_formed(l->p);
  return l;
}

static int count_check(const prog *p, prog_check kind) {
  int n = 0;
  vec_foreach(&p->edges, i) n += p->edges.items[i].action == ACT_ASSERT && p->edges.items[i].check == kind;
  return n;
}

static void fields_and_constant_elements_are_their_cells(void **state) {
  (void)state;
  lowered *l = lower_array_ok("struct { _Bool b; struct { int x; } in; } s;\nint a[3];\n"
                              "enum { TWO = 2 };\nvoid f(void) { s.in.x = a[TWO] + a[0]; s.b = !s.b; a[1]++; }\n");
  assert_int_equal(count_steps(l->p), 3);
  assert_int_equal(count_action(l->p, ACT_ASSIGN), 3);
  assert_int_equal(count_check(l->p, CHECK_INDEX), 0);
  assert_int_equal(l->p->edges.items[0].var, 3); /* x: the cell after a[0..2] */
  strbuf out = {0};
  ir_print(&out, l->p->edges.items[0].expr);
  assert_string_equal(sbuf_str(&out), "a_2 + a_0");
  sbuf_free(&out);
  release(l);
}

/* a[i] = v: one step that checks i, saves i and v, then stores into each cell where i selects it. */
static void element_writes_are_one_step(void **state) {
  (void)state;
  lowered *l = lower_array_ok("struct { _Bool b; struct { int x; } in; } s;\nint a[3];\n"
                              "void f(int i) { a[i] = a[0] + 1; }\n");
  assert_int_equal(count_steps(l->p), 1);
  assert_int_equal(count_check(l->p, CHECK_INDEX), 1);
  assert_int_equal(count_action(l->p, ACT_ASSIGN), 2 + 3);
  assert_int_equal(l->p->subscripts.len, 1);
  assert_int_equal(l->p->subscripts.items[0].length, 3);
  assert_string_equal(l->p->subscripts.items[0].array[0].text, "a");
  vec_foreach(&l->p->edges, i)
    if (l->p->edges.items[i].var >= 0 && l->p->vars.items[l->p->edges.items[i].var].kind == VAR_TEMP)
      assert_false(l->p->edges.items[i].starts_step); /* the check starts the step */
  release(l);
}

/* Reads are ?: trees over the cells; an index under && is checked only where the left side holds. */
static void element_reads_are_checked_where_evaluated(void **state) {
  (void)state;
  lowered *l = lower_array_ok("struct { _Bool b; struct { int x; } in; } s;\nint a[3];\n"
                              "void f(int i) { if (i < 3 && a[i] > 0) s.in.x = 1; }\n");
  assert_int_equal(count_check(l->p, CHECK_INDEX), 1);
  strbuf out = {0};
  vec_foreach(&l->p->edges, i)
    if (l->p->edges.items[i].check == CHECK_INDEX && l->p->edges.items[i].action == ACT_ASSERT)
      ir_print(&out, l->p->edges.items[i].expr);
  assert_string_equal(sbuf_str(&out), "i < 3 ==> 0 <= i && i < 3");
  out.len = 0;
  vec_foreach(&l->p->edges, i)
    if (l->p->edges.items[i].action == ACT_ASSUME) {
      ir_print(&out, l->p->edges.items[i].expr);
      break;
    }
  assert_string_equal(sbuf_str(&out), "i < 3 && (i < 1 ? a_0 : i < 2 ? a_1 : a_2) > 0");
  sbuf_free(&out);
  release(l);
}

static void unbound_objects_are_named(void **state) {
  (void)state;
  static const char *const cases[][2] = {
      {"struct { int x, y; } s;\nvoid f(void) { s.y = 1; }\n",
       "C object 's.y' is not a shared variable of the spec; declare one: 'shared int y binds s.y;'"},
      {"int a[4];\nvoid f(int i) { a[i] = 1; }\n",
       "C array 'a' is only partly bound to the spec: its element 'a[3]' is not a shared variable"},
      {"int a[3];\nvoid f(void) { a[3] = 1; }\n", "index 3 is outside the array 'a' (its elements are a[0..2])"},
      {"struct { int x; int *p; } s;\nvoid f(void) { s.p = 0; }\n", "unsupported pointer 's.p' in a global"},
      {"union u { int x; } s;\nvoid f(void) { s.x = 1; }\n",
       "the spec binds the union 's' through two members, 's.in.x' and 's.b'"},
      {"struct p { int x; };\nstruct p mk(void) { struct p r; r.x = 1; return r; }\nvoid f(void) { struct p v; v = "
       "mk(); }\n",
       "unsupported struct value returned by 'mk'"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    lowered *l = lower_code(array_spec, cases[i][0], "f");
    assert_null(l->p);
    if (!strstr(l->diags, cases[i][1])) fprintf(stderr, "expected \"%s\" in:\n%s", cases[i][1], l->diags);
    assert_non_null(strstr(l->diags, cases[i][1]));
    release(l);
  }
}

/* The printed value assigned by the only assignment of the program. */
static char *assigned(const char *code) {
  lowered *l = lower_ok(code);
  strbuf out = {0};
  vec_foreach(&l->p->edges, i)
    if (l->p->edges.items[i].action == ACT_ASSIGN) ir_print(&out, l->p->edges.items[i].expr);
  release(l);
  return sbuf_take(&out);
}

static void bool_and_int_convert_like_c(void **state) {
  (void)state;
  static const char *const cases[][2] = {
      {"#include <stdbool.h>\nint g;\nvoid f(void) { bool b; b = g; }\n", "g != 0 ? 1 : 0"},
      {"int g; _Bool flag;\nvoid f(void) { flag = g; }\n", "g != 0"},
      {"int g; _Bool flag;\nvoid f(void) { g = flag + 1; }\n", "(flag ? 1 : 0) + 1"},
      {"int g; _Bool flag;\nvoid f(void) { g = (g < 3) == flag; }\n", "(g < 3 ? 1 : 0) == (flag ? 1 : 0) ? 1 : 0"},
      {"enum e { A, B = 5, C };\nint g;\nvoid f(void) { g = C - 'a' + 010 + 0x10; }\n", "6 - 97 + 8 + 16"},
      {"int g;\nvoid f(void) { g = -g / 2 % -3; }\n", "-g / 2 % -3"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    char *got = assigned(cases[i][0]);
    assert_string_equal(got, cases[i][1]);
    free(got);
  }
}

/* ---------------------------------------------------------------- errors */

static void unsupported_constructs_are_named(void **state) {
  (void)state;
  static const char *const cases[][2] = {
      {"int g;\nvoid f(void) { g = g & 1; }\n", "unsupported bitwise operator '&'"},
      {"int g;\nvoid f(void) { int **p; }\n", "unsupported pointer to a pointer"},
      {"int g;\nvoid f(void) { int a[3] = {0}; }\n", "unsupported initializer list of local struct or array 'a'"},
      {"int g;\nvoid f(void) { g = g / g; }\n", "unsupported: division by a non-constant"},
      {"int g;\nvoid f(void) { int i = 0; g = i + i++; }\n", "unsequenced side effects on 'i'"},
      {"int g;\nint h(int n) { return h(n); }\nvoid f(void) { g = h(1); }\n", "unsupported recursion: h -> h"},
      {"int x;\nvoid f(void) { x = 1; }\n", "global 'x' is not a shared variable of the spec"},
      {"_Bool g;\nvoid f(void) { g = 1; }\n", "global 'g' is bool in the C code but int in the spec"},
      {"#include <stdlib.h>\nint g;\nvoid f(void) { g = abs(g); }\n", "call to 'abs', which has no body and no model"},
      {"void f(void) { static int s; }\n", "static local 's' is one object for every call and every thread, so it must "
                                           "be a shared variable of the spec; declare one: 'shared int s binds f.s;'"},
      {"#include <athread.h>\nint g;\nvoid f(void) { atomic { goto end; } end: ; }\n",
       "a jump into or out of an atomic section (label 'end')"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) assert_message(cases[i][0], cases[i][1]);
}

/* ---------------------------------------------------------------- pointers and models */

static int count_checks(const prog *p, prog_check k) {
  int n = 0;
  vec_foreach(&p->edges, i) n += p->edges.items[i].action == ACT_ASSERT && p->edges.items[i].check == k;
  return n;
}

/* The assignments to variable v. */
static int step_writes(const prog *p, int v) {
  int n = 0;
  vec_foreach(&p->edges, i) n += p->edges.items[i].action == ACT_ASSIGN && p->edges.items[i].var == v;
  return n;
}

static void pointer_parameters_name_what_the_caller_passes(void **state) {
  (void)state;
  lowered *l = lower_ok("int g;\nvoid inc(int *p) { *p = *p + 1; }\nvoid f(void) { inc(&g); }\n");
  assert_int_equal(count_checks(l->p, CHECK_NULL), 2); /* the read and the target */
  assert_int_equal(step_writes(l->p, 0), 1);           /* g, the one int object whose address is taken */
  release(l);
}

static void a_write_through_a_pointer_stores_into_each_object_it_may_name(void **state) {
  (void)state;
  lowered *l = lower_ok(
      "#include <athread.h>\nint g;\nint r;\nvoid f(void) {\n  int *p = &g;\n  if (nondet()) p = &r;\n  *p = 1;\n}\n");
  assert_int_equal(step_writes(l->p, 0), 1); /* g */
  assert_int_equal(step_writes(l->p, 2), 1); /* r */
  assert_int_equal(count_checks(l->p, CHECK_NULL), 1);
  release(l);
}

static void fields_through_pointers_are_cells(void **state) {
  (void)state;
  lowered *l =
      lower_code("shared int pending binds ext.n;\n",
                 "struct dev { int n; int unused; };\nstruct dev ext;\n"
                 "void take(struct dev *d) { d->n = d->n + 1; }\nvoid f(void) { take(&ext); (*&ext).n = 0; }\n",
                 "f");
  if (!l->p) fprintf(stderr, "%.*s", (int)l->diags_len, l->diags);
  assert_non_null(l->p);
  assert_int_equal(step_writes(l->p, 0), 2);
  release(l);
}

static void pointer_errors_are_named(void **state) {
  (void)state;
  static const char *const cases[][2] = {
      {"int g;\nvoid f(void) { int *p = &g; p = p + 1; }\n", "unsupported pointer arithmetic"},
      {"int g;\nvoid f(void) { int *p = &g; p++; }\n", "unsupported pointer arithmetic"},
      {"int g;\nvoid f(void) { int *p = &g; g = p < &g; }\n", "unsupported ordering of pointers"},
      {"int g;\nvoid f(void) { int *p = &g; g = (long)p; }\n", "unsupported cast of a pointer to an integer"},
      {"int g;\n_Bool flag;\nvoid f(void) { int *p = (int *)&flag; }\n",
       "unsupported cast between unrelated pointer types"},
      {"int g;\n_Bool flag;\nvoid f(void) { int *p = &flag; }\n",
       "unsupported conversion between unrelated pointer types ('bool *' to 'int *')"},
      {"int g;\nint *q;\nvoid f(void) { q = 0; }\n", "unsupported global pointer 'q'"},
      {"int g;\nint *h(void) { return &g; }\nvoid f(void) { int *p; p = h(); }\n",
       "unsupported use of the pointer 'h' returns"},
      {"int g;\nvoid f(int *arg) { g = *arg; }\n", "a pointer parameter of the checked function"},
      {"int g;\nint a[2];\nvoid f(void) { int *p = a; }\n", "unsupported use of array 'a' as a pointer"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) assert_message(cases[i][0], cases[i][1]);
}

static void library_functions_without_effect_are_no_steps(void **state) {
  (void)state;
  lowered *l = lower_ok("#include <stdio.h>\nint g;\nvoid f(void) { printf(\"%d\", g); g = 1; }\n");
  assert_int_equal(count_steps(l->p), 1);
  release(l);
}

static void a_function_without_body_or_model_is_named_once(void **state) {
  (void)state;
  lowered *l = lower_code(NULL, "int g;\nvoid ext(void);\nvoid f(void) { ext(); ext(); }\n", "f");
  assert_null(l->p);
  assert_int_equal(l->errors, 1);
  assert_non_null(strstr(l->diags, "call to 'ext', which has no body and no model"));
  release(l);
}

/* clang's own errors, every one at its place with a caret. */
static void syntax_errors_are_all_reported(void **state) {
  (void)state;
  lowered *l = lower_code(NULL, "void f(void) {\n  int x = 1\n  x = 2;\n  x = ;\n  if (x > ) x = 2;\n}\n", "f");
  assert_null(l->unit);
  assert_int_equal(l->errors, 3);
  assert_non_null(strstr(l->diags, "t.c:2:12: error: expected ';' at end of declaration\n  int x = 1\n           ^"));
  assert_non_null(strstr(l->diags, "t.c:4:7: error: expected expression"));
  release(l);
}

static void deep_nesting_is_an_error(void **state) {
  (void)state;
  strbuf code = {0};
  sbuf_puts(&code, "int g;\nvoid f(void) { g = ");
  for (int i = 0; i < 1100; i++) sbuf_puts(&code, "- "); /* clang refuses 256 nested parentheses itself */
  sbuf_puts(&code, "g");
  sbuf_puts(&code, "; }\n");
  assert_message(sbuf_str(&code), "levels deep; the limit is");
  sbuf_free(&code);
}

/* A case label deeper than the lowering's limit is refused where the label is evaluated. */
static void deep_constant_expressions_are_an_error(void **state) {
  (void)state;
  strbuf code = {0};
  sbuf_puts(&code, "int g;\nvoid f(void) { switch (g) { case 0");
  for (int i = 0; i < 1001; i++) sbuf_puts(&code, "+0");
  sbuf_puts(&code, ": g = 1; } }\n");
  assert_message(sbuf_str(&code), "t.c:2:34: error: this expression is nested 1002 levels deep; the limit is 1000");
  sbuf_free(&code);
}

static void preprocessor_errors_pass_through(void **state) {
  (void)state;
  lowered *l = lower_code(NULL, "#include \"no-such-header.h\"\nvoid f(void) { }\n", "f");
  assert_null(l->unit);
  assert_non_null(strstr(l->diags, "no-such-header.h"));
  release(l);
}

/* An error clang finds in a system header (a user's macro breaks it) is
 * printed at the header's own file, line and column. */
static void errors_in_system_headers_name_the_header(void **state) {
  (void)state;
  lowered *l = lower_code(NULL, "#define size_t 1\n#include <stdlib.h>\nvoid f(void) { }\n", "f");
  assert_null(l->unit);
  assert_non_null(strstr(l->diags, "stddef_size_t.h:18:23: error: expected identifier or '('\n"));
  assert_non_null(strstr(l->diags, "stdlib.h:"));
  release(l);
}

static void character_escapes_out_of_range_are_errors(void **state) {
  (void)state;
  assert_message("int g;\nvoid f(void) { g = '\\xfffffffffffffffffffff'; }\n", "hex escape sequence out of range");
  assert_message("int g;\nvoid f(void) { g = '\\777'; }\n", "octal escape sequence out of range");
  lowered *l = lower_code(NULL, "int g;\nvoid f(void) { g = '\\xff'; g = L'\\x1234'; }\n", "f");
  assert_non_null(l->p);
  release(l);
}

/* cfe_parse_text: the text goes to clang as an unsaved file and is located
 * in itself; a NUL byte is refused before clang sees it. */
static void text_parses_through_unsaved_files(void **state) {
  (void)state;
  char *diags = NULL;
  size_t len = 0;
  FILE *mem = open_memstream(&diags, &len);
  diag_sink sink = {.out = mem};
  const char *plain = "int g;\nvoid f(void) {\n  g = 1 +;\n}\n";
  assert_null(cfe_parse_text(&sink, "plain.c", plain, strlen(plain)));
  const char *marked = "# 1 \"<sys>\" 1 3 4\ntypedef int sys_t;\n# 2 \"m.i\" 2\nsys_t g;\nvoid f(void) { g = 2; }\n";
  cfe_unit *u = cfe_parse_text(&sink, "m.i", marked, strlen(marked));
  assert_non_null(u);
  assert_true(cfe_has_function(u, "f"));
  cfe_free(u);
  assert_null(cfe_parse_text(&sink, "nul.i", "int g;\0", 7));
  fclose(mem);
  assert_non_null(strstr(diags, "plain.c:3:10: error: expected expression"));
  assert_non_null(strstr(diags, "nul.i:1:7: error: NUL byte in input"));
  assert_int_equal(sink.errors, 2);
  free(diags);
}

/* The first statement of f's body in text (cfe_parse_text). */
static const cfe_stmt *first_statement(cfe_unit **u, const char *text) {
  diag_sink sink = {.out = stderr};
  *u = cfe_parse_text(&sink, "t.c", text, strlen(text));
  assert_non_null(*u);
  vec_foreach(&(*u)->funcs, i)
    if (strcmp((*u)->funcs.items[i]->name, "f") == 0) return (*u)->funcs.items[i]->body->items.items[0];
  fail();
  return NULL;
}

/* Every integer type carries clang's width and signedness; C's implicit
 * conversions are CE_CAST nodes marked implicit. */
static void conversions_and_widths_follow_clang(void **state) {
  (void)state;
  cfe_unit *u;
  const cfe_stmt *s = first_statement(&u, "unsigned short s; long g;\nvoid f(void) { g = s + 1; }\n");
  const cfe_expr *e = s->expr;
  assert_int_equal(e->kind, CE_ASSIGN);
  assert_int_equal(e->a->ctype.bits, 64);
  assert_false(e->a->ctype.is_unsigned);
  const cfe_expr *widen = e->b; /* int -> long */
  assert_int_equal(widen->kind, CE_CAST);
  assert_true(widen->implicit);
  assert_int_equal(widen->type.bits, 64);
  const cfe_expr *sum = widen->a;
  assert_int_equal(sum->kind, CE_BINARY);
  assert_int_equal(sum->ctype.bits, 32);
  assert_int_equal(sum->a->kind, CE_CAST); /* the promotion of s */
  assert_true(sum->a->implicit);
  assert_int_equal(sum->a->a->kind, CE_NAME);
  assert_int_equal(sum->a->a->ctype.bits, 16);
  assert_true(sum->a->a->ctype.is_unsigned);
  assert_int_equal(sum->b->kind, CE_INT);
  cfe_free(u);
  s = first_statement(&u, "void *p; _Bool b;\nvoid f(void) { b = 2; }\n");
  assert_int_equal(s->expr->b->kind, CE_CAST);
  assert_int_equal(s->expr->b->type.kind, CT_BOOL);
  const cfe_decl *p = u->globals.items[0];
  assert_int_equal(p->type.kind, CT_POINTER);
  assert_int_equal(p->type.elem->kind, CT_VOID);
  cfe_free(u);
}

/* glibc's assert (a statement expression calling __assert_fail) is an
 * assertion like athread's: never dropped. */
static void the_c_library_assert_is_an_assertion(void **state) {
  (void)state;
  lowered *l = lower_code(NULL,
                          "#include </usr/include/assert.h> /* glibc's, not athread's */\nint g;\n"
                          "void f(void) { g = 1; assert(g == 1); }\n",
                          "f");
  if (!l->p) fprintf(stderr, "%.*s", (int)l->diags_len, l->diags);
  assert_non_null(l->p);
  assert_int_equal(count_action(l->p, ACT_ASSERT), 1);
  assert_int_equal(count_steps(l->p), 1);
  release(l);
}

/* A thread function takes and returns void *: an unused pointer parameter
 * and a null result are fine; the result of the checked function is ignored. */
static void thread_functions_may_take_void_pointers(void **state) {
  (void)state;
  static const char *const cases[] = {
      "#include <stddef.h>\nint g;\nvoid *f(void *arg) { g = 1; return NULL; }\n",
      "int g;\nvoid *f(void *arg) { g = 1; return 0; }\n",
      "int g;\nvoid *f(void *arg) { g = 1; return (void *)0; }\n",
      "int g;\nint *h(void) { return 0; }\nvoid f(void) { g = 1; h(); }\n",
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    lowered *l = lower_ok(cases[i]);
    assert_int_equal(count_steps(l->p), 2); /* g = 1, and the return */
    release(l);
  }
}

/* Code from a macro's body is located at the macro's use, with a note naming
 * the macro; an error in a function inlined twice is reported once. */
static void macro_code_is_located_at_its_use(void **state) {
  (void)state;
  lowered *l = lower_code(NULL,
                          "int g;\n#define FLIP(x) x = x ^ 1\nvoid h(void) { g = g | 2; }\n"
                          "void f(void) { FLIP(g); h(); h(); }\n",
                          "f");
  assert_null(l->p);
  assert_non_null(
      strstr(l->diags,
             "t.c:4:16: error: unsupported bitwise operator '^' with --int math (bitwise operators need C's integers: "
             "--int c)\n"
             "void f(void) { FLIP(g); h(); h(); }\n"
             "               ^~~~~~~\n"));
  assert_non_null(strstr(l->diags, "t.c:2:9: note: in expansion of macro 'FLIP'\n#define FLIP(x) x = x ^ 1\n"));
  assert_int_equal(l->errors, 2);
  release(l);
}

/* atomic { ... } (athread.h's empty macro before a block) and if (*). */
static void athread_forms_survive_clang(void **state) {
  (void)state;
  lowered *l = lower_ok("#include <athread.h>\nint g;\nvoid f(void) { atomic { g = 1; g = 2; } if (*) g = 3; }\n");
  assert_int_equal(count_steps(l->p), 1 + 2 + 1);
  assert_int_equal(count_action(l->p, ACT_ASSUME), 0);
  release(l);
}

/* ---------------------------------------------------------------- C's integers */

/* The value the last ACT_ASSIGN edge to a local named name assigns, printed. */
static void assigned_to(const prog *p, const char *name, strbuf *out) {
  const ir_expr *last = NULL;
  vec_foreach(&p->edges, i) {
    const prog_edge *e = &p->edges.items[i];
    if (e->action == ACT_ASSIGN && strcmp(p->vars.items[e->var].display, name) == 0) last = e->expr;
  }
  if (last) ir_print(out, last);
}

/* The CHECK_ARITH assertions, printed "fault: holds; ". */
static void arith_checks(const prog *p, strbuf *out) {
  static const char *const names[] = {"overflow", "division", "shift", "negative shift"};
  vec_foreach(&p->edges, i) {
    const prog_edge *e = &p->edges.items[i];
    if (e->action != ACT_ASSERT || e->check != CHECK_ARITH) continue;
    sbuf_printf(out, "%s: ", names[p->operations.items[e->detail].fault]);
    ir_print(out, e->expr);
    sbuf_puts(out, "; ");
  }
}

static void expect_lowering(cfe_ints ints, const char *body, const char *var, const char *value, const char *checks) {
  char code[512];
  snprintf(code, sizeof code, "#include <athread.h>\nint g;\nvoid f(int x, unsigned u, unsigned char c) { %s }\n",
           body);
  lowered *l = lower_with(NULL, code, "f", ints);
  if (!l->p) fprintf(stderr, "%.*s", (int)l->diags_len, l->diags);
  assert_non_null(l->p);
  assert_well_formed(l->p);
  strbuf out = {0}, made = {0};
  assigned_to(l->p, var, &out);
  assert_string_equal(sbuf_str(&out), value);
  arith_checks(l->p, &made);
  assert_string_equal(sbuf_str(&made), checks);
  sbuf_free(&out);
  sbuf_free(&made);
  release(l);
}

/* Unsigned arithmetic wraps, narrowing conversions wrap, signed arithmetic
 * is checked; --int math keeps mathematical integers. */
static void c_integers_wrap_or_are_checked(void **state) {
  (void)state;
  expect_lowering(CFE_INTS_C, "unsigned v = 0; v = v - 1;", "v", "(unsigned int)(v - 1)", "");
  expect_lowering(CFE_INTS_MATH, "unsigned v = 0; v = v - 1;", "v", "v - 1", "");
  expect_lowering(CFE_INTS_C, "int y = x + 1;", "y", "x + 1",
                  "overflow: -2147483648 <= x + 1 && x + 1 <= 2147483647; ");
  expect_lowering(CFE_INTS_MATH, "int y = x + 1;", "y", "x + 1", "");
  expect_lowering(CFE_INTS_C, "c = c + 1;", "c", "(unsigned char)(c + 1)",
                  "overflow: -2147483648 <= c + 1 && c + 1 <= 2147483647; ");
  expect_lowering(CFE_INTS_C, "int y = u;", "y", "(int)u", "");
  expect_lowering(CFE_INTS_C, "int y = -x;", "y", "-x", "overflow: -2147483648 <= -x && -x <= 2147483647; ");
  expect_lowering(CFE_INTS_C, "int y = u < -1;", "y", "u < 4294967295 ? 1 : 0", "");
  expect_lowering(CFE_INTS_C, "long y = x;", "y", "x", "");
}

/* Division checks its divisor and INT_MIN / -1; shifts their amount and a signed left operand. */
static void c_integers_divide_and_shift_checked(void **state) {
  (void)state;
  expect_lowering(CFE_INTS_C, "int y = g / x;", "y", "g / x",
                  "division: x != 0; overflow: !(g == -2147483648 && x == -1); ");
  expect_lowering(CFE_INTS_C, "int y = g % 4;", "y", "g % 4", "");
  expect_lowering(CFE_INTS_C, "unsigned y = u / u;", "y", "u / u", "division: u != 0; ");
  expect_lowering(CFE_INTS_C, "int y = x & 3;", "y", "x & 3", "");
  expect_lowering(CFE_INTS_C, "unsigned y = ~u ^ u | 1;", "y", "~u ^ u | 1", "");
  expect_lowering(CFE_INTS_C, "unsigned y = u >> x;", "y", "u >> x", "shift: 0 <= x && x < 32; ");
  expect_lowering(CFE_INTS_C, "int y = x << 2;", "y", "x << 2",
                  "negative shift: 0 <= x; overflow: !(0 <= x) || x <= 536870911; ");
  expect_lowering(CFE_INTS_C, "c <<= 1;", "c", "(unsigned char)(c << 1)",
                  "negative shift: 0 <= c; overflow: !(0 <= c) || c <= 1073741823; ");
}

/* Bitwise operators need widths: refused under --int math; non-constant divisors too. */
static void math_integers_refuse_bitwise_operators(void **state) {
  (void)state;
  lowered *l = lower_with(NULL, "int g;\nvoid f(int x) { g = x & 1; g = g / x; }\n", "f", CFE_INTS_MATH);
  assert_null(l->p);
  assert_non_null(strstr(l->diags, "unsupported bitwise operator '&' with --int math"));
  assert_non_null(strstr(l->diags, "unsupported: division by a non-constant"));
  release(l);
}

int run_cfront_tests(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(statements_are_steps_and_checks_are_not),
      cmocka_unit_test(conditions_are_one_step_with_two_outcomes),
      cmocka_unit_test(for_without_condition_still_steps),
      cmocka_unit_test(atomic_sections_are_one_step),
      cmocka_unit_test(calls_are_inlined_with_fresh_copies),
      cmocka_unit_test(nondet_values_use_temporaries_within_the_step),
      cmocka_unit_test(bounded_shared_int_havoc_goes_through_a_temporary),
      cmocka_unit_test(entry_parameters_start_anywhere),
      cmocka_unit_test(shared_variables_come_first_in_spec_order),
      cmocka_unit_test(bool_and_int_convert_like_c),
      cmocka_unit_test(fields_and_constant_elements_are_their_cells),
      cmocka_unit_test(element_writes_are_one_step),
      cmocka_unit_test(element_reads_are_checked_where_evaluated),
      cmocka_unit_test(unbound_objects_are_named),
      cmocka_unit_test(unsupported_constructs_are_named),
      cmocka_unit_test(pointer_parameters_name_what_the_caller_passes),
      cmocka_unit_test(a_write_through_a_pointer_stores_into_each_object_it_may_name),
      cmocka_unit_test(fields_through_pointers_are_cells),
      cmocka_unit_test(pointer_errors_are_named),
      cmocka_unit_test(library_functions_without_effect_are_no_steps),
      cmocka_unit_test(a_function_without_body_or_model_is_named_once),
      cmocka_unit_test(syntax_errors_are_all_reported),
      cmocka_unit_test(deep_nesting_is_an_error),
      cmocka_unit_test(deep_constant_expressions_are_an_error),
      cmocka_unit_test(preprocessor_errors_pass_through),
      cmocka_unit_test(errors_in_system_headers_name_the_header),
      cmocka_unit_test(character_escapes_out_of_range_are_errors),
      cmocka_unit_test(text_parses_through_unsaved_files),
      cmocka_unit_test(conversions_and_widths_follow_clang),
      cmocka_unit_test(the_c_library_assert_is_an_assertion),
      cmocka_unit_test(thread_functions_may_take_void_pointers),
      cmocka_unit_test(macro_code_is_located_at_its_use),
      cmocka_unit_test(athread_forms_survive_clang),
      cmocka_unit_test(c_integers_wrap_or_are_checked),
      cmocka_unit_test(c_integers_divide_and_shift_checked),
      cmocka_unit_test(math_integers_refuse_bitwise_operators),
  };
  return cmocka_run_group_tests_name("cfront", tests, NULL, NULL);
}
