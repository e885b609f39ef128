/* tests/unit/temp-c-file.c -- the temporary .c files that the C front end's
 * tests give to libclang (which reads files, not strings). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unit.h"

void temp_c_write(temp_c_file *t, const char *code) {
  strcpy(t->dir, "/tmp/athread-unit-XXXXXX");
  assert_non_null(mkdtemp(t->dir));
  snprintf(t->path, sizeof t->path, "%s/t.c", t->dir);
  FILE *f = fopen(t->path, "w");
  assert_non_null(f);
  fputs(code, f);
  fclose(f);
}

void temp_c_remove(temp_c_file *t) {
  unlink(t->path);
  rmdir(t->dir);
}
