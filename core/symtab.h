/* core/symtab.h -- a hash map from interned names (compared by pointer) to
 * non-negative integers, for name resolution in the front ends.
 *
 * Owns its slot array (heap); free with symtab_free. Borrows the keys, which
 * must outlive the table (they are arena-interned strings).
 */
#ifndef ATHREAD_SYMTAB_H
#define ATHREAD_SYMTAB_H

#include <stddef.h>

typedef struct symtab_slot {
  const void *key; /* interned name, NULL for an empty slot */
  int value;       /* what it maps to */
} symtab_slot;

typedef struct symtab {
  symtab_slot *slots; /* open addressing, linear probing */
  size_t cap;         /* a power of two, or 0 */
  size_t count;       /* occupied slots */
} symtab;

/* Maps key to value unless key is present; returns the old value or -1. */
int symtab_put(symtab *t, const void *key, int value);
/* Returns the value of key, or -1. */
int symtab_get(const symtab *t, const void *key);
void symtab_free(symtab *t);

#endif
