/* compose/store.h -- a set of packed state vectors for the explicit engine.
 *
 * States are bit-packed by the slots' domains (the counts of a thread's
 * counted instances in the fewer bits of two forms: store_group) and stored inline in an
 * open-addressing table together with their breadth-first depth, so a lookup
 * touches one cache line and a state costs its packed size plus 4 bytes,
 * over the load factor. Owns its table; free with store_free. Borrows its
 * layout (every store of a search packs alike).
 */
#ifndef ATHREAD_STORE_H
#define ATHREAD_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model.h"

/* The count slots of one thread (SLOT_COUNT, one per control state, in
 * order; they sum to its instances), stored in the fewer bits of two forms:
 * every count but the last (the rest), or each instance's control state in
 * order (one value per instance: fewer bits when the instances are few). */
typedef struct store_group {
  size_t first;     /* its first slot */
  size_t instances; /* what the counts sum to */
  size_t states;    /* its slots: one per control state */
  size_t pos;       /* its first bit in the packed state */
  bool as_counts;   /* stored as counts, else as the instances' control states */
  uint8_t bits;     /* bits of one count, or of one control state */
  uint64_t mask;    /* the values of those bits */
} store_group;

/* What is packed, in order: one slot's value, or one group's counts. */
typedef struct store_field {
  size_t slot;              /* the slot (a group's first) */
  size_t pos;               /* its first bit in the packed state */
  int64_t offset;           /* a slot: the value stored is value - offset */
  uint8_t bits;             /* a slot: the bits it takes */
  uint64_t mask;            /* a slot: the values of those bits */
  const store_group *group; /* the group, or NULL for a slot */
} store_field;

typedef struct store_layout {
  store_field *fields; /* packed in this order */
  size_t field_count;  /* how many */
  store_group *groups; /* the threads' count slots */
  size_t group_count;  /* how many */
  store_field *slots;  /* the fields that are one slot, in order (packed apart from the groups) */
  size_t slot_count;   /* how many */
  size_t bytes;        /* bytes of a packed state */
  uint64_t tail;       /* the bits of its last bytes % 8 bytes (its partial word) */
  bool one_word;       /* the fields fit in 64 bits */
} store_layout;

typedef struct store {
  const store_layout *layout; /* how states are packed (borrowed) */
  uint8_t *table;             /* entries: a packed state, then its BFS depth + 1 (0: empty) */
  size_t entry_bytes;         /* layout->bytes + 4 */
  size_t table_size;          /* entries, a power of two */
  size_t count;               /* states stored */
} store;

/* Bytes a buffer for a packed state needs beyond layout.bytes. */
#define STORE_SLACK 8

/* Unbounded ints take this many bits (two's complement window). */
#define STORE_UNBOUNDED_BITS 32

/* An empty store of states packed by layout (it must outlive the store). */
void store_init(store *s, const store_layout *layout);
void store_free(store *s);
/* The layout of m's states, as a store packs them; free with store_layout_free. */
void store_layout_init(store_layout *l, const mdl *m);
void store_layout_free(store_layout *l);
/* Packs state into buf (layout.bytes + STORE_SLACK); false when a value does
 * not fit, or counts do not sum to their instances (*bad_slot: where). */
bool store_pack(const store_layout *l, const int64_t *state, uint8_t *buf, int *bad_slot);
void store_unpack(const store_layout *l, const uint8_t *buf, int64_t *state);
/* The hash of a packed state (what store_add_hashed wants). */
uint64_t store_hash(const store_layout *l, const uint8_t *packed);
/* Asks the CPU to fetch the table entry a hash points at. */
void store_prefetch(const store *s, uint64_t hash);
/* Adds a packed state found at depth unless present; true if it was new. */
bool store_add(store *s, const uint8_t *packed, uint32_t depth);
bool store_add_hashed(store *s, const uint8_t *packed, uint64_t hash, uint32_t depth);
/* The depth of a stored state, or UINT32_MAX when absent. */
uint32_t store_depth_of(const store *s, const uint8_t *packed);
/* Entry i of the table (0 <= i < table_size): its packed state and depth, or
 * NULL when the entry is empty. For scanning all states of one depth. */
const uint8_t *store_entry(const store *s, size_t i, uint32_t *depth);
/* Bytes held by the store. */
size_t store_memory(const store *s);

/* The states one worker sent lately, in a small direct-mapped table that
 * stays in the cache: a successor found there was sent before, so it is
 * stored already or on its way (a diamond a.b = b.a meets its twin a few
 * states later), and need not travel to the store's big table again. */
typedef struct store_recent {
  const store_layout *layout; /* how its states are packed (borrowed) */
  uint8_t *entries;           /* each: a 4-byte tag (0: empty), then a packed state */
  size_t entry_bytes;         /* 4 + layout->bytes */
} store_recent;

void store_recent_init(store_recent *r, const store_layout *layout);
void store_recent_free(store_recent *r);
/* Bytes held by its table (0 before init, or after free). */
size_t store_recent_memory(const store_recent *r);
/* True when packed (hash: store_hash's) is held; else it takes the place of
 * what its entry held, and the answer is false. */
bool store_recent_seen(store_recent *r, const uint8_t *packed, uint64_t hash);

#endif
