/* core/symtab.c -- pointer-keyed open-addressing map. */
#include "symtab.h"

#include <stdint.h>
#include <stdlib.h>

#include "arena.h"

static size_t slot_of(const symtab_slot *slots, size_t cap, const void *key) {
  uint64_t h = (uint64_t)(uintptr_t)key * 0x9E3779B97F4A7C15ULL;
  size_t i = (size_t)(h >> 32) & (cap - 1);
  while (slots[i].key && slots[i].key != key) i = (i + 1) & (cap - 1);
  return i;
}

static void grow(symtab *t) {
  size_t cap = t->cap ? t->cap * 2 : 16;
  symtab_slot *slots = xcalloc(cap, sizeof *slots);
  for (size_t i = 0; i < t->cap; i++)
    if (t->slots[i].key) slots[slot_of(slots, cap, t->slots[i].key)] = t->slots[i];
  free(t->slots);
  t->slots = slots;
  t->cap = cap;
}

int symtab_put(symtab *t, const void *key, int value) {
  if (2 * (t->count + 1) > t->cap) grow(t);
  size_t i = slot_of(t->slots, t->cap, key);
  if (t->slots[i].key) return t->slots[i].value;
  t->slots[i] = (symtab_slot){key, value};
  t->count++;
  return -1;
}

int symtab_get(const symtab *t, const void *key) {
  if (!t->cap) return -1;
  size_t i = slot_of(t->slots, t->cap, key);
  return t->slots[i].key ? t->slots[i].value : -1;
}

void symtab_free(symtab *t) {
  free(t->slots);
  t->slots = NULL;
  t->cap = t->count = 0;
}
