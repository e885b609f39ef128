/* compose/store.h -- a set of packed state vectors for the explicit engine.
 *
 * States are bit-packed by the slots' domains and kept in insertion order
 * (which is breadth-first order for the engine), with an open-addressing
 * table of 32-bit indices over them. Owns its memory; free with store_free.
 */
#ifndef ATHREAD_STORE_H
#define ATHREAD_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model.h"

typedef struct store_layout {
  size_t width;      /* slots */
  uint8_t *bits;     /* per slot: bits it takes */
  int64_t *offset;   /* per slot: value stored is value - offset */
  size_t bytes;      /* bytes of a packed state */
  int overflow_slot; /* set by store_pack: a slot whose value did not fit, or -1 */
} store_layout;

typedef struct store {
  store_layout layout; /* how states are packed */
  uint8_t *states;     /* count packed states, in insertion order */
  size_t count;        /* states stored */
  size_t capacity;     /* states the array holds */
  uint32_t *table;     /* index + 1 of a state, 0 for empty */
  size_t table_size;   /* a power of two */
} store;

/* Bytes a buffer for a packed state needs beyond layout.bytes. */
#define STORE_SLACK 8

/* Unbounded ints take this many bits (two's complement window). */
#define STORE_UNBOUNDED_BITS 32

void store_init(store *s, const mdl *m);
void store_free(store *s);
/* Packs state into buf (layout.bytes + STORE_SLACK); false when a value does not fit. */
bool store_pack(store_layout *l, const int64_t *state, uint8_t *buf);
void store_unpack(const store_layout *l, const uint8_t *buf, int64_t *state);
/* Adds a packed state unless present; returns its index and sets *added. */
size_t store_add(store *s, const uint8_t *packed, bool *added);
/* Finds a packed state; returns its index or SIZE_MAX. */
size_t store_find(const store *s, const uint8_t *packed);
const uint8_t *store_get(const store *s, size_t index);
/* Bytes held by the store. */
size_t store_memory(const store *s);

#endif
