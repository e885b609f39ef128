/* tests/unit/main.c -- runs every unit test group; exit status = failures. */
#include "unit.h"

int main(void) {
  int failures = 0;
  failures += run_core_tests();
  failures += run_spec_tests();
  failures += run_conform_tests();
  failures += run_cfront_tests();
  failures += run_program_tests();
  failures += run_compose_tests();
  failures += run_races_tests();
  return failures;
}
