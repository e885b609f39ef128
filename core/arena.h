/* core/arena.h -- bump allocation and string interning for front-end data.
 *
 * Owns: every block handed out by arena_alloc and every interned string.
 * One arena per parsed file: the AST, its strings and the IR built from it are
 * freed together by arena_free. Nothing allocated here is freed individually.
 * xmalloc/xcalloc/xrealloc abort with a message on out-of-memory, so callers
 * never check for NULL.
 */
#ifndef ATHREAD_ARENA_H
#define ATHREAD_ARENA_H

#include <stddef.h>

typedef struct arena arena;

/* Returns owned, free with arena_free. */
arena *arena_new(void);
/* Frees every block and string of the arena, then the arena itself. NULL is fine. */
void arena_free(arena *a);

/* Returns zeroed, arena-owned memory of n bytes, aligned for any scalar type. */
void *arena_alloc(arena *a, size_t n);
/* Returns an arena-owned copy of the n bytes at s, NUL-terminated. */
char *arena_strndup(arena *a, const char *s, size_t n);
/* Returns the arena's unique copy of s[0..n): equal strings give equal pointers. */
const char *arena_intern(arena *a, const char *s, size_t n);
/* Same for a NUL-terminated string. */
const char *arena_intern_cstr(arena *a, const char *s);
/* Returns an arena-owned string formatted like printf. */
char *arena_printf(arena *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Heap allocation that never returns NULL: it prints a message and aborts. */
/* Prints that n bytes could not be had, and aborts: what xmalloc does when
 * malloc fails, for allocators of their own (compose/store.c's mapped tables). */
void out_of_memory(size_t n) __attribute__((noreturn));
void *xmalloc(size_t n);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);

#endif
