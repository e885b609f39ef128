/* core/vec.h -- typed growable arrays.
 *
 * VEC(T) is a struct {items, len, cap}. vec_push grows it in an arena (the
 * vector then lives and dies with the arena) or, with a NULL arena, on the heap
 * (the owner calls vec_free). Pointers into items are invalidated by a push.
 */
#ifndef ATHREAD_VEC_H
#define ATHREAD_VEC_H

#include <stddef.h>

#include "arena.h"

#define VEC(T)  \
  struct {      \
    T *items;   \
    size_t len; \
    size_t cap; \
  }

/* Returns storage for at least need items of size bytes, keeping the old ones. */
void *vec_grow_(arena *a, void *items, size_t *cap, size_t need, size_t size);

#define vec_push(A, v, x)                                                                                           \
  do {                                                                                                              \
    if ((v)->len == (v)->cap) (v)->items = vec_grow_((A), (v)->items, &(v)->cap, (v)->len + 1, sizeof *(v)->items); \
    (v)->items[(v)->len++] = (x);                                                                                   \
  } while (0)

/* Frees a heap vector (one grown with a NULL arena) and empties it. */
#define vec_free(v)          \
  do {                       \
    free((v)->items);        \
    (v)->items = NULL;       \
    (v)->len = (v)->cap = 0; \
  } while (0)

#define vec_foreach(v, i) for (size_t i = 0; i < (v)->len; i++)

#endif
