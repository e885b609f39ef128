/* compose/store.c -- bit packing and the open-addressing state table. */
#include "store.h"

#include <stdlib.h>
#include <string.h>

#include "../core/arena.h"

/* ---------------------------------------------------------------- packing */

static uint8_t bits_for(uint64_t span) {
  uint8_t b = 0;
  while (b < 64 && (span >> b) != 0) b++;
  return b;
}

static void layout_init(store_layout *l, const mdl *m) {
  l->width = mdl_width(m);
  l->bits = xcalloc(l->width + 1, 1);
  l->offset = xcalloc(l->width + 1, sizeof *l->offset);
  size_t total = 0;
  for (size_t i = 0; i < l->width; i++) {
    const mdl_slot *s = mdl_slot_at(m, i);
    l->offset[i] = s->bounded ? s->lo : -((int64_t)1 << (STORE_UNBOUNDED_BITS - 1));
    l->bits[i] = s->bounded ? bits_for((uint64_t)s->hi - (uint64_t)s->lo) : STORE_UNBOUNDED_BITS;
    total += l->bits[i];
  }
  l->bytes = (total + 7) / 8;
  if (l->bytes == 0) l->bytes = 1;
  l->overflow_slot = -1;
}

/* Slots up to this wide are moved with one unaligned 64-bit access. */
#define FAST_BITS 56

/* ORs the low n bits of v in at bit position pos (the buffer starts zeroed
 * and has STORE_SLACK bytes beyond the state). */
static void put_bits(uint8_t *buf, size_t pos, uint64_t v, unsigned n) {
  if (n <= FAST_BITS) {
    uint64_t w;
    memcpy(&w, buf + (pos >> 3), 8);
    w |= v << (pos & 7);
    memcpy(buf + (pos >> 3), &w, 8);
    return;
  }
  for (unsigned i = 0; i < n; i++, pos++)
    if ((v >> i) & 1) buf[pos >> 3] |= (uint8_t)(1u << (pos & 7));
}

static uint64_t get_bits(const uint8_t *buf, size_t pos, unsigned n) {
  if (n <= FAST_BITS) {
    uint64_t w;
    memcpy(&w, buf + (pos >> 3), 8);
    return (w >> (pos & 7)) & (((uint64_t)1 << n) - 1);
  }
  uint64_t v = 0;
  for (unsigned i = 0; i < n; i++, pos++) v |= (uint64_t)((buf[pos >> 3] >> (pos & 7)) & 1) << i;
  return v;
}

bool store_pack(store_layout *l, const int64_t *state, uint8_t *buf) {
  memset(buf, 0, l->bytes + STORE_SLACK);
  size_t pos = 0;
  for (size_t i = 0; i < l->width; i++) {
    uint64_t v = (uint64_t)state[i] - (uint64_t)l->offset[i];
    if (l->bits[i] < 64 && (v >> l->bits[i]) != 0) {
      l->overflow_slot = (int)i;
      return false;
    }
    put_bits(buf, pos, v, l->bits[i]);
    pos += l->bits[i];
  }
  return true;
}

void store_unpack(const store_layout *l, const uint8_t *buf, int64_t *state) {
  size_t pos = 0;
  for (size_t i = 0; i < l->width; i++) {
    state[i] = (int64_t)(get_bits(buf, pos, l->bits[i]) + (uint64_t)l->offset[i]);
    pos += l->bits[i];
  }
}

/* ---------------------------------------------------------------- the table */

static uint64_t hash_packed(const uint8_t *p, size_t n) {
  uint64_t h = 0x9E3779B97F4A7C15ULL ^ n;
  while (n >= 8) {
    uint64_t w;
    memcpy(&w, p, 8);
    h = (h ^ w) * 0xff51afd7ed558ccdULL;
    h ^= h >> 32;
    p += 8;
    n -= 8;
  }
  uint64_t w = 0;
  memcpy(&w, p, n);
  h ^= w; /* murmur3's finalizer: every input bit reaches the low bits used as the index */
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ULL;
  return h ^ (h >> 33);
}

void store_init(store *s, const mdl *m) {
  memset(s, 0, sizeof *s);
  layout_init(&s->layout, m);
  s->capacity = 1024;
  s->states = xmalloc(s->capacity * s->layout.bytes + STORE_SLACK);
  s->table_size = 2048;
  s->table = xcalloc(s->table_size, sizeof *s->table);
}

void store_free(store *s) {
  free(s->layout.bits);
  free(s->layout.offset);
  free(s->states);
  free(s->table);
  memset(s, 0, sizeof *s);
}

const uint8_t *store_get(const store *s, size_t index) { return s->states + index * s->layout.bytes; }

static size_t probe(const store *s, const uint8_t *packed, size_t *slot) {
  size_t mask = s->table_size - 1;
  size_t i = hash_packed(packed, s->layout.bytes) & mask;
  for (; s->table[i]; i = (i + 1) & mask)
    if (memcmp(store_get(s, s->table[i] - 1), packed, s->layout.bytes) == 0) break;
  *slot = i;
  return s->table[i] ? s->table[i] - 1 : SIZE_MAX;
}

size_t store_find(const store *s, const uint8_t *packed) {
  size_t slot;
  return probe(s, packed, &slot);
}

static void grow_table(store *s) {
  free(s->table);
  s->table_size *= 2;
  s->table = xcalloc(s->table_size, sizeof *s->table);
  for (size_t k = 0; k < s->count; k++) {
    size_t slot;
    probe(s, store_get(s, k), &slot);
    s->table[slot] = (uint32_t)(k + 1);
  }
}

size_t store_add(store *s, const uint8_t *packed, bool *added) {
  size_t slot;
  size_t found = probe(s, packed, &slot);
  *added = found == SIZE_MAX;
  if (!*added) return found;
  if (s->count == s->capacity) {
    s->capacity *= 2;
    s->states = xrealloc(s->states, s->capacity * s->layout.bytes + STORE_SLACK);
  }
  memcpy(s->states + s->count * s->layout.bytes, packed, s->layout.bytes);
  s->table[slot] = (uint32_t)(s->count + 1);
  size_t index = s->count++;
  if (4 * s->count > 3 * s->table_size) grow_table(s); /* load stays below 3/4 */
  return index;
}

size_t store_memory(const store *s) { return s->capacity * s->layout.bytes + s->table_size * sizeof *s->table; }
