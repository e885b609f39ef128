/* tests/unit/unit.h -- cmocka includes and the test groups of each file. */
#ifndef ATHREAD_UNIT_H
#define ATHREAD_UNIT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

int run_core_tests(void);
int run_spec_tests(void);
int run_conform_tests(void);
int run_cfront_tests(void);
int run_program_tests(void);

#endif
