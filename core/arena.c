/* core/arena.c -- chunked bump allocator with an interning table. */
#include "arena.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK_MIN 16384
#define ALIGNMENT 16

typedef struct chunk {
  struct chunk *next; /* older chunk */
  size_t size;        /* usable bytes in data */
  size_t used;        /* bytes handed out */
  max_align_t data[]; /* the payload */
} chunk;

struct arena {
  chunk *head;           /* chunk being filled; older ones follow */
  const char **interned; /* open-addressing table of interned strings */
  size_t intern_cap;     /* slots in interned, a power of two */
  size_t intern_count;   /* occupied slots */
};

/* ---------------------------------------------------------------- heap */

void out_of_memory(size_t n) {
  fprintf(stderr, "athread: error: out of memory (allocating %zu bytes)\n", n);
  abort();
}

void *xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p) out_of_memory(n);
  return p;
}

void *xcalloc(size_t count, size_t size) {
  void *p = calloc(count ? count : 1, size ? size : 1);
  if (!p) out_of_memory(count * size);
  return p;
}

void *xrealloc(void *p, size_t n) {
  void *q = realloc(p, n ? n : 1);
  if (!q) out_of_memory(n);
  return q;
}

char *xstrdup(const char *s) {
  size_t n = strlen(s) + 1;
  return memcpy(xmalloc(n), s, n);
}

/* ---------------------------------------------------------------- arena */

arena *arena_new(void) { return xcalloc(1, sizeof(arena)); }

void arena_free(arena *a) {
  if (!a) return;
  for (chunk *c = a->head, *next; c; c = next) {
    next = c->next;
    free(c);
  }
  free(a->interned);
  free(a);
}

void *arena_alloc(arena *a, size_t n) {
  n = (n + ALIGNMENT - 1) & ~(size_t)(ALIGNMENT - 1);
  chunk *c = a->head;
  if (!c || c->size - c->used < n) {
    size_t size = n > CHUNK_MIN ? n : CHUNK_MIN;
    c = xmalloc(sizeof(chunk) + size);
    c->size = size;
    c->used = 0;
    c->next = a->head;
    a->head = c;
  }
  char *p = (char *)c->data + c->used;
  c->used += n;
  return memset(p, 0, n);
}

char *arena_strndup(arena *a, const char *s, size_t n) {
  char *p = arena_alloc(a, n + 1);
  memcpy(p, s, n);
  p[n] = '\0';
  return p;
}

char *arena_printf(arena *a, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *p = arena_alloc(a, (size_t)n + 1);
  va_start(ap, fmt);
  vsnprintf(p, (size_t)n + 1, fmt, ap);
  va_end(ap);
  return p;
}

/* ---------------------------------------------------------------- interning */

static uint64_t hash_bytes(const char *s, size_t n) {
  uint64_t h = 1469598103934665603ULL; /* FNV-1a */
  for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
  return h;
}

static size_t intern_slot(const char **table, size_t cap, const char *s, size_t n) {
  size_t i = hash_bytes(s, n) & (cap - 1);
  while (table[i] && !(strncmp(table[i], s, n) == 0 && table[i][n] == '\0')) i = (i + 1) & (cap - 1);
  return i;
}

static void intern_grow(arena *a) {
  size_t cap = a->intern_cap ? a->intern_cap * 2 : 256;
  const char **table = xcalloc(cap, sizeof *table);
  for (size_t i = 0; i < a->intern_cap; i++) {
    const char *s = a->interned[i];
    if (s) table[intern_slot(table, cap, s, strlen(s))] = s;
  }
  free(a->interned);
  a->interned = table;
  a->intern_cap = cap;
}

const char *arena_intern(arena *a, const char *s, size_t n) {
  if (2 * (a->intern_count + 1) > a->intern_cap) intern_grow(a);
  size_t i = intern_slot(a->interned, a->intern_cap, s, n);
  if (!a->interned[i]) {
    a->interned[i] = arena_strndup(a, s, n);
    a->intern_count++;
  }
  return a->interned[i];
}

const char *arena_intern_cstr(arena *a, const char *s) { return arena_intern(a, s, strlen(s)); }
