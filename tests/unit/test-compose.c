/* tests/unit/test-compose.c -- the explicit engine's state store: a large
 * symmetry group packs in counter form (one count per control state), so
 * that states equal up to a permutation of the group pack alike, distinct
 * ones differently, and unpacking gives the canonical (sorted) state. */
#include <stdlib.h>
#include <string.h>

#include "../../compose/model-product.h"
#include "../../compose/store.h"
#include "../../spec-lang/spec.h"
#include "unit.h"

/* Five interchangeable instances over three control states, and a flag. */
static const char *const five_workers = "shared bool f;\n"
                                        "thread W { init state A; state B; state C;\n"
                                        "  A -> B : f' == !f;  B -> C : true;  C -> A : true; }\n"
                                        "system S { W[5]; }\n";

enum { WIDTH = 6, STATES = 3, GROUP = 5 };

/* The i-th of the 2 * 3^5 states: the flag, then each instance's state. */
static void nth_state(int i, int64_t *state) {
  state[0] = i % 2;
  i /= 2;
  for (int k = 1; k < WIDTH; k++, i /= STATES) state[k] = i % STATES;
}

/* The group's control states, as a count per state: the canonical identity. */
static int class_of(const int64_t *state) {
  int counts[STATES] = {0};
  for (int k = 1; k < WIDTH; k++) counts[state[k]]++;
  return (int)state[0] + 2 * (counts[0] + (GROUP + 1) * counts[1]);
}

static void counter_form_packs_classes(void **unused) {
  (void)unused;
  ast_spec *spec = unit_spec_load(five_workers, NULL, NULL);
  assert_non_null(spec);
  mdl *m = product_build(spec, true);
  store st;
  store_init(&st, m);
  assert_true(st.layout.counter_form);
  assert_int_equal(st.layout.bytes, 1); /* 1 + 2 counts of 3 bits, against 1 + 5 * 2 bits */
  enum { ALL = 2 * 243 };
  uint8_t(*packed)[1 + STORE_SLACK] = calloc(ALL, sizeof *packed);
  int64_t state[WIDTH], back[WIDTH];
  for (int i = 0; i < ALL; i++) {
    nth_state(i, state);
    assert_true(store_pack(&st.layout, state, packed[i]));
    store_unpack(&st.layout, packed[i], back);
    mdl_canonicalize(m, state);
    assert_memory_equal(back, state, sizeof state);
  }
  for (int i = 0; i < ALL; i++)
    for (int j = 0; j < ALL; j++) {
      int64_t a[WIDTH], b[WIDTH];
      nth_state(i, a);
      nth_state(j, b);
      assert_int_equal(memcmp(packed[i], packed[j], 1) == 0, class_of(a) == class_of(b));
    }
  free(packed);
  store_free(&st);
  mdl_free(m);
  unit_spec_free(spec);
}

static void without_symmetry_every_slot_packs(void **unused) {
  (void)unused;
  ast_spec *spec = unit_spec_load(five_workers, NULL, NULL);
  assert_non_null(spec);
  mdl *m = product_build(spec, false);
  store st;
  store_init(&st, m);
  assert_false(st.layout.counter_form && st.layout.group_count);
  assert_int_equal(st.layout.bytes, 2); /* 1 + 5 * 2 bits */
  int64_t state[WIDTH] = {1, 2, 0, 1, 2, 0}, back[WIDTH];
  uint8_t buf[2 + STORE_SLACK];
  assert_true(store_pack(&st.layout, state, buf));
  store_unpack(&st.layout, buf, back);
  assert_memory_equal(back, state, sizeof state); /* the order is kept */
  store_free(&st);
  mdl_free(m);
  unit_spec_free(spec);
}

int run_compose_tests(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(counter_form_packs_classes),
      cmocka_unit_test(without_symmetry_every_slot_packs),
  };
  return cmocka_run_group_tests_name("compose", tests, NULL, NULL);
}
