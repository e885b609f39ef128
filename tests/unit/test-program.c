/* tests/unit/test-program.c -- cfront/program.h, the libclang reader behind
 * athread skeleton: snippets are written to a temporary .c file and read;
 * the globals' values, the accesses, the creation sites with their loops
 * and main's early writes are checked. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../cfront/program.h"
#include "../../cfront/skeleton.h"
#include "unit.h"

typedef struct read_result {
  cfp_program *p; /* NULL after errors */
  char *diags;    /* every message printed */
  size_t len;     /* its length */
} read_result;

static read_result read_code(const char *code) {
  read_result r = {0};
  FILE *mem = open_memstream(&r.diags, &r.len);
  diag_sink sink = {.out = mem};
  temp_c_file t;
  temp_c_write(&t, code);
  const char *files[] = {t.path};
  cfp_options o = {0};
  r.p = cfp_read(&sink, files, 1, &o);
  temp_c_remove(&t);
  fclose(mem);
  return r;
}

static void release(read_result *r) {
  cfp_free(r->p);
  free(r->diags);
}

static const cfp_global *global(const cfp_program *p, const char *name) {
  vec_foreach(&p->globals, i)
    if (strcmp(p->globals.items[i]->name, name) == 0) return p->globals.items[i];
  fail_msg("no global %s", name);
  return NULL;
}

static int64_t value_at(const cfp_global *g, const cfp_step *steps, size_t len) {
  cfp_value v = cfp_initial_value(g, cfp_leaf_of(g->type, steps, len));
  assert_int_equal(v.kind, CFP_KNOWN);
  return v.value;
}

/* ---------------------------------------------------------------- initializers */

static void designated_and_elided_initializers(void **state) {
  (void)state;
  read_result r = read_code("struct in { int a; unsigned char b; };\n"
                            "struct ext { int io; struct in in; int slots[3]; };\n"
                            "struct ext e = { .slots = {1, 2}, .io = 7 };\n"
                            "struct ext f = { 3, 4, 5, 6 };\n"
                            "struct in devs[2] = { [1].a = 9 };\n"
                            "char name[4] = \"ab\";\n"
                            "_Bool flag = 5;\n");
  assert_non_null(r.p);
  cfp_step io = {"io", 0}, slots[2] = {{"slots", 0}, {NULL, 1}}, in_b[2] = {{"in", 0}, {"b", 0}};
  assert_int_equal(value_at(global(r.p, "e"), &io, 1), 7);
  assert_int_equal(value_at(global(r.p, "e"), slots, 2), 2);
  assert_int_equal(value_at(global(r.p, "f"), in_b, 2), 5); /* braces elided: 3, {4, 5}, {6} */
  cfp_step dev1a[2] = {{NULL, 1}, {"a", 0}}, ch[1] = {{NULL, 1}}, ch3[1] = {{NULL, 3}};
  assert_int_equal(value_at(global(r.p, "devs"), dev1a, 2), 9);
  assert_int_equal(value_at(global(r.p, "name"), ch, 1), 'b');
  assert_int_equal(value_at(global(r.p, "name"), ch3, 1), 0);
  assert_int_equal(value_at(global(r.p, "flag"), NULL, 0), 1);
  release(&r);
}

static void types_are_classified_by_name(void **state) {
  (void)state;
  read_result r = read_code("#include <pthread.h>\n"
                            "pthread_mutex_t m; pthread_t t; float x; int *p; enum e { A } en;\n"
                            "unsigned long big = 18446744073709551615UL;\n");
  assert_non_null(r.p);
  assert_int_equal(global(r.p, "m")->type->kind, CFP_LOCK);
  assert_string_equal(global(r.p, "t")->type->why, "a thread handle");
  assert_string_equal(global(r.p, "x")->type->why, "floating point");
  assert_string_equal(global(r.p, "p")->type->why, "a pointer");
  assert_int_equal(global(r.p, "en")->type->kind, CFP_INT);
  const cfp_global *big = global(r.p, "big");
  assert_int_equal(cfp_initial_value(big, 0).kind, CFP_TOO_BIG);
  release(&r);
}

/* ---------------------------------------------------------------- accesses */

static const cfp_access *find_access(const cfp_accesses *v, const cfp_program *p, const char *name) {
  vec_foreach(v, i)
    if (strcmp(p->globals.items[v->items[i].global]->name, name) == 0) return &v->items[i];
  return NULL;
}

static void accesses_follow_calls_and_paths(void **state) {
  (void)state;
  read_result r = read_code("struct s { int f; int g; } s; int a[4]; int x, y, untouched;\n"
                            "#define INC(v) ((v)++)\n"
                            "static void helper(void) { y = 1; }\n"
                            "void worker(int i) { INC(s.f); a[i] = x; helper(); }\n");
  assert_non_null(r.p);
  cfp_accesses reach = {0};
  cfp_reach(r.p, "worker", &reach);
  const cfp_access *sf = find_access(&reach, r.p, "s"), *ai = find_access(&reach, r.p, "a");
  assert_non_null(sf);
  assert_true(sf->read && sf->write && sf->len == 1 && strcmp(sf->steps[0].field, "f") == 0);
  assert_true(ai->write && !ai->read && ai->len == 1 && ai->steps[0].index == CFP_ANY);
  assert_true(find_access(&reach, r.p, "x")->read);
  assert_true(find_access(&reach, r.p, "y")->write);
  assert_null(find_access(&reach, r.p, "untouched"));
  vec_free(&reach);
  release(&r);
}

/* ---------------------------------------------------------------- threads */

static void sites_with_loop_bounds(void **state) {
  (void)state;
  read_result r = read_code("#include <pthread.h>\n#define N 4\nenum { M = 2 };\n"
                            "void *w(void *a) { return a; }\n"
                            "int main(int argc, char **argv) {\n"
                            "  pthread_t t;\n"
                            "  for (int i = 0; i < N; i++) pthread_create(&t, 0, w, 0);\n"
                            "  for (int i = M; i > 0; i--) pthread_create(&t, 0, w, 0);\n"
                            "  for (int i = 1; i <= 3; i++) pthread_create(&t, 0, w, 0);\n"
                            "  for (int i = 0; i < argc; i++) pthread_create(&t, 0, w, 0);\n"
                            "  return 0;\n}\n");
  assert_non_null(r.p);
  assert_int_equal(r.p->sites.len, 4);
  const cfp_loop *l = &r.p->sites.items[0].loops.items[0];
  assert_true(l->constant && l->count == 4 && strcmp(l->name, "N") == 0);
  l = &r.p->sites.items[1].loops.items[0];
  assert_true(l->constant && l->count == 2 && strcmp(l->name, "M") == 0);
  l = &r.p->sites.items[2].loops.items[0];
  assert_true(l->constant && l->count == 3 && l->name == NULL);
  assert_false(r.p->sites.items[3].loops.items[0].constant);
  assert_string_equal(r.p->sites.items[0].function, "w");
  release(&r);
}

static void early_writes_stop_at_the_first_start(void **state) {
  (void)state;
  read_result r = read_code("#include <pthread.h>\n#include <stdlib.h>\n"
                            "int a, b, c, d; pthread_mutex_t m;\n"
                            "static void init(void) { c = rand(); }\n"
                            "void *w(void *x) { return x; }\n"
                            "int main(void) {\n  pthread_t t;\n  a = 5;\n  b = rand();\n  init();\n"
                            "  pthread_mutex_init(&m, 0);\n  pthread_create(&t, 0, w, 0);\n  d = 1;\n  return 0;\n}\n");
  assert_non_null(r.p);
  assert_string_equal(r.p->creator, "main");
  assert_int_equal(r.p->early.len, 3);
  const cfp_early *e = r.p->early.items;
  assert_string_equal(r.p->globals.items[e[0].where.global]->name, "a");
  assert_true(e[0].value.kind == CFP_KNOWN && e[0].value.value == 5);
  assert_string_equal(r.p->globals.items[e[1].where.global]->name, "b");
  assert_int_equal(e[1].value.kind, CFP_UNKNOWN);
  assert_string_equal(r.p->globals.items[e[2].where.global]->name, "c");
  release(&r);
}

static const char *late_name(const cfp_program *p, size_t i) {
  return p->globals.items[p->late.items[i].where.global]->name;
}

static void late_accesses_stop_at_the_last_join(void **state) {
  (void)state;
  read_result r = read_code("#include <pthread.h>\n"
                            "int a, b, c, d, e; pthread_mutex_t m;\n"
                            "static void touch(void) { c = 1; }\n"
                            "void *w(void *x) { return x; }\n"
                            "int main(void) {\n  pthread_t t[2];\n  a = 1;\n"
                            "  for (int i = 0; i < 2; i++) pthread_create(&t[i], 0, w, 0);\n"
                            "  pthread_mutex_lock(&m);\n  b = a;\n  pthread_mutex_unlock(&m);\n  touch();\n"
                            "  pthread_join(t[0], 0);\n  d = 2;\n  pthread_join(t[1], 0);\n  e = 3;\n  return 0;\n}\n");
  assert_non_null(r.p);
  /* the loop that starts the threads (its i, its &t[i] are locals), lock m, b = a, unlock m, c (touch),
     the first join, d = 2, the second join; not a = 1 before, not e = 3 after */
  size_t n = r.p->late.len;
  assert_true(n >= 5);
  bool seen_b = false, seen_c = false, seen_d = false;
  for (size_t i = 0; i < n; i++) {
    const char *g = late_name(r.p, i);
    assert_true(strcmp(g, "e") != 0);
    if (strcmp(g, "m") == 0) assert_int_not_equal(r.p->late.items[i].lock_op, 0);
    seen_b |= strcmp(g, "b") == 0 && r.p->late.items[i].where.write;
    seen_c |= strcmp(g, "c") == 0 && r.p->late.items[i].at.line == 12;
    seen_d |= strcmp(g, "d") == 0;
  }
  assert_true(seen_b && seen_c && seen_d);
  release(&r);
}

static void late_pointer_uses_are_marked(void **state) {
  (void)state;
  read_result r = read_code("#include <pthread.h>\n"
                            "int g; int *p = 0;\n"
                            "void *w(void *x) { return x; }\n"
                            "int main(void) {\n  pthread_t t;\n  pthread_create(&t, 0, w, 0);\n  *p = 1;\n"
                            "  pthread_join(t, 0);\n  return g;\n}\n");
  assert_non_null(r.p);
  bool unknown = false;
  vec_foreach(&r.p->late, i) unknown |= r.p->late.items[i].unknown && r.p->late.items[i].at.line == 7;
  assert_true(unknown);
  release(&r);
}

/* The C places conform points at: a slot's initializer expression (a
 * macro's use), a global's name and initializer, an early write's statement,
 * the call whose callee writes; extern declarations define nothing. */
static void places_of_initial_values(void **state) {
  (void)state;
  read_result r = read_code("#include <pthread.h>\n#define FIVE 5\n"
                            "extern int e;\nint x = FIVE, z;\nint a[2] = {1};\n"
                            "void set(void) { z = 2; }\nvoid *w(void *p) { return p; }\n"
                            "int main(void) {\n  pthread_t t;\n  x = 7;\n  set();\n"
                            "  pthread_create(&t, 0, w, 0);\n  return 0;\n}\n");
  assert_non_null(r.p);
  const cfp_global *x = global(r.p, "x"), *z = global(r.p, "z"), *a = global(r.p, "a"), *e = global(r.p, "e");
  const cfp_leaf_value *five = cfp_initializer_of(x, 0);
  assert_non_null(five);
  assert_true(five->at.line == 4 && five->at.col == 9 && five->at.end - five->at.start == 4);
  assert_true(x->name_at.line == 4 && x->name_at.col == 5 && x->name_at.end - x->name_at.start == 1);
  assert_true(x->defined && z->defined && a->defined && !e->defined);
  assert_null(z->init_at.file);
  assert_null(cfp_initializer_of(a, 1)); /* zero fill */
  assert_true(a->init_at.line == 5 && a->init_at.col == 12 && a->init_at.end - a->init_at.start == 3);
  assert_int_equal(r.p->early.len, 2);
  assert_true(r.p->early.items[0].at.line == 10 && r.p->early.items[0].at.col == 3);
  assert_int_equal(r.p->early.items[0].at.end - r.p->early.items[0].at.start, 5); /* x = 7 */
  assert_true(r.p->early.items[1].at.line == 11 && r.p->early.items[1].value.kind == CFP_UNKNOWN);
  release(&r);
}

static void clang_errors_are_reported(void **state) {
  (void)state;
  read_result r = read_code("int x = ;\n");
  assert_null(r.p);
  assert_non_null(strstr(r.diags, "t.c:1:9: error: expected expression"));
  release(&r);
}

/* The draft spec's names: paths of cells (an anonymous member, named by its
 * type's spelling, adds nothing), declarators around a name, identifiers made
 * from any text, and thread and system names. */
static void skeleton_names_from_c(void **state) {
  (void)state;
  arena *a = arena_new();
  const cfp_step steps[] = {{"slot", 0}, {NULL, 2}, {"struct (anonymous at q.c:3:5)", 0}, {"busy", 0}};
  assert_string_equal(skel_c_path(a, "q", steps, 4), "q.slot[2].busy");
  assert_string_equal(skel_flat_name(a, "q", steps, 4), "q_slot_2_busy");
  assert_string_equal(skel_declarator(a, "int (*)(void)", "f"), "int (*f)(void)");
  assert_string_equal(skel_declarator(a, "int *[4]", "p"), "int *p[4]");
  assert_string_equal(skel_declarator(a, "int [4]", "a"), "int a[4]");
  assert_string_equal(skel_declarator(a, "char *", "s"), "char *s");
  assert_string_equal(skel_declarator(a, "long", "n"), "long n");
  assert_string_equal(skel_identifier(a, "9 lives-left"), "_9_lives_left");
  assert_string_equal(skel_identifier(a, "_ok"), "_ok");
  assert_string_equal(skel_thread_name(a, "_worker"), "_Worker");
  assert_string_equal(skel_thread_name(a, "__"), "__");
  assert_string_equal(skel_system_name(a, "dir/1prog.c"), "System_1prog");
  assert_string_equal(skel_system_name(a, "dir/.c"), "__C");
  assert_string_equal(skel_system_name(a, "dir/"), "System");
  assert_string_equal(skel_system_name(a, "queue"), "Queue");
  assert_true(skel_is_keyword("forall") && !skel_is_keyword("Forall"));
  arena_free(a);
}

int run_program_tests(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(designated_and_elided_initializers),
      cmocka_unit_test(types_are_classified_by_name),
      cmocka_unit_test(accesses_follow_calls_and_paths),
      cmocka_unit_test(sites_with_loop_bounds),
      cmocka_unit_test(early_writes_stop_at_the_first_start),
      cmocka_unit_test(late_accesses_stop_at_the_last_join),
      cmocka_unit_test(late_pointer_uses_are_marked),
      cmocka_unit_test(places_of_initial_values),
      cmocka_unit_test(clang_errors_are_reported),
      cmocka_unit_test(skeleton_names_from_c),
  };
  return cmocka_run_group_tests_name("cfront-program", tests, NULL, NULL);
}
