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
int run_compose_tests(void);
int run_races_tests(void);

struct ast_spec;
struct spec_options;
/* Parses and checks a spec's text (named t.athread) with opts (may be NULL);
 * NULL on any error, with the error count in *errors (may be NULL). Errors
 * go to /dev/null. Returns owned: free with unit_spec_free. */
struct ast_spec *unit_spec_load(const char *text, struct spec_options *opts, int *errors);
void unit_spec_free(struct ast_spec *spec);

/* A C snippet in a file of its own, for the front end's tests. */
typedef struct temp_c_file {
  char dir[32];  /* the temporary folder */
  char path[64]; /* dir/t.c */
} temp_c_file;

/* Writes code to a new t.c in a new temporary folder (t owns both). */
void temp_c_write(temp_c_file *t, const char *code);

/* Removes t's file and folder. */
void temp_c_remove(temp_c_file *t);

#endif
