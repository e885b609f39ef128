/* core/vec.c -- growth policy of VEC(T). */
#include "vec.h"

#include <string.h>

void *vec_grow_(arena *a, void *items, size_t *cap, size_t need, size_t size) {
  size_t n = *cap ? *cap : 4;
  while (n < need) n *= 2;
  void *fresh;
  if (a) {
    fresh = arena_alloc(a, n * size);
    if (items) memcpy(fresh, items, *cap * size);
  } else {
    fresh = xrealloc(items, n * size);
  }
  *cap = n;
  return fresh;
}
