/* compose/store.c -- bit packing and the open-addressing state table. */
#define _DEFAULT_SOURCE /* madvise */
#include "store.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "../core/arena.h"

/* ---------------------------------------------------------------- packing */

static uint8_t bits_for(uint64_t span) {
  uint8_t b = 0;
  while (b < 64 && (span >> b) != 0) b++;
  return b;
}

/* The values of n bits: bits set, but for n = 64 (a shift by 64 is undefined). */
static uint64_t mask_of(unsigned n) { return n >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << n) - 1; }

/* Where a field of bits bits goes when total bits precede it: a field of
 * none (one value) goes to bit 0, where writing and reading nothing is
 * defined (a shift by 64 is not, at the end of a full word). */
static size_t at_bit(size_t total, size_t bits) { return bits ? total : 0; }

/* Group g in one form: as counts, or as its instances' control states. */
static store_group in_form(store_group g, bool as_counts) {
  g.as_counts = as_counts;
  g.bits = as_counts ? bits_for(g.instances) : bits_for(g.states - 1);
  g.mask = mask_of(g.bits);
  return g;
}

/* The run of count slots of one thread that starts at slot first, in the
 * form of fewer bits. */
static store_group count_run(const mdl *m, size_t first) {
  const mdl_slot *s = mdl_slot_at(m, first);
  size_t states = 1;
  while (first + states < mdl_width(m) && mdl_slot_at(m, first + states)->kind == SLOT_COUNT &&
         mdl_slot_at(m, first + states)->state != 0)
    states++;
  store_group g = {.first = first, .instances = (size_t)s->hi, .states = states};
  return in_form(g, (states - 1) * bits_for(g.instances) <= g.instances * bits_for(states - 1));
}

static size_t group_bits(const store_group *g) { return (g->as_counts ? g->states - 1 : g->instances) * g->bits; }

static size_t field_bits(const store_field *f) { return f->group ? group_bits(f->group) : f->bits; }

/* Counts pack and unpack without a loop over the instances: a group of the
 * instances' states takes the form of counts when the state keeps its bytes. */
static void prefer_counts(store_layout *l, size_t total) {
  for (store_group *g = l->groups; g < l->groups + l->group_count; g++) {
    if (g->as_counts) continue;
    store_group counts = in_form(*g, true);
    size_t with_counts = total - group_bits(g) + group_bits(&counts);
    if ((with_counts + 7) / 8 > (total + 7) / 8) continue;
    *g = counts;
    total = with_counts;
  }
}

/* Each field's first bit, in order; the one-slot fields copied to l->slots. */
static size_t place_fields(store_layout *l) {
  size_t total = 0;
  for (store_field *f = l->fields; f < l->fields + l->field_count; f++) {
    f->pos = at_bit(total, field_bits(f));
    total += field_bits(f);
    if (f->group) l->groups[f->group - l->groups].pos = f->pos;
    else l->slots[l->slot_count++] = *f;
  }
  return total;
}

void store_layout_init(store_layout *l, const mdl *m) {
  memset(l, 0, sizeof *l);
  size_t width = mdl_width(m), total = 0;
  l->fields = xcalloc(width + 1, sizeof *l->fields);
  l->groups = xcalloc(width + 1, sizeof *l->groups);
  l->slots = xcalloc(width + 1, sizeof *l->slots);
  for (size_t i = 0; i < width; i++) {
    const mdl_slot *s = mdl_slot_at(m, i);
    store_field *f = &l->fields[l->field_count++];
    f->slot = i;
    if (s->kind == SLOT_COUNT && s->state == 0) {
      store_group *g = &l->groups[l->group_count++];
      *g = count_run(m, i);
      f->group = g;
      i += g->states - 1;
    } else {
      f->offset = s->bounded ? s->lo : -((int64_t)1 << (STORE_UNBOUNDED_BITS - 1));
      f->bits = s->bounded ? bits_for((uint64_t)s->hi - (uint64_t)s->lo) : STORE_UNBOUNDED_BITS;
      f->mask = mask_of(f->bits);
    }
    total += field_bits(f);
  }
  prefer_counts(l, total);
  total = place_fields(l);
  l->one_word = total <= 64;
  l->bytes = (total + 7) / 8;
  if (l->bytes == 0) l->bytes = 1;
  l->tail = mask_of(8 * (unsigned)(l->bytes % 8));
}

/* Bit i of a packed state is bit i % 8 of its byte i / 8: the fields one
 * after the other, lowest bit first. Each field's place is fixed by the
 * layout, so packing and unpacking go to it directly. When the whole state
 * fits in 64 bits (the common case), it is built and taken apart in one
 * word; else each field is read and or-ed into the buffer with an unaligned
 * 8-byte access at its first byte (fields of more than 32 bits in two
 * halves, so that they fit in the 57 bits such an access always holds).
 * The functions below are written once for both: `one` is a constant at
 * every call, so each use compiles to one of them. */

/* Where a state is packed: one word, or a buffer. */
typedef struct bits {
  uint8_t *buf;  /* the buffer (!one) */
  uint64_t word; /* the word (one) */
} bits;

/* Or-s v (< 2^57) into buf at bit pos. */
static inline void or_at(uint8_t *buf, size_t pos, uint64_t v) {
  uint64_t w;
  memcpy(&w, buf + pos / 8, 8); /* may reach into the slack after the state */
  w |= v << (pos % 8);
  memcpy(buf + pos / 8, &w, 8);
}

/* The bits of buf from pos, as many as mask (< 2^57) has. */
static inline uint64_t read_at(const uint8_t *buf, size_t pos, uint64_t mask) {
  uint64_t w;
  memcpy(&w, buf + pos / 8, 8); /* may read into the slack after the state */
  return (w >> (pos % 8)) & mask;
}

/* Writes v (it fits in n bits) at bit pos. */
static inline __attribute__((always_inline)) void put_bits(bits *b, bool one, size_t pos, uint64_t v, unsigned n) {
  if (one) {
    b->word |= v << pos;
  } else if (n <= 32) {
    or_at(b->buf, pos, v);
  } else {
    or_at(b->buf, pos, v & 0xffffffffu);
    or_at(b->buf, pos + 32, v >> 32);
  }
}

/* The n bits (mask: their values) at bit pos. */
static inline __attribute__((always_inline)) uint64_t get_bits(const bits *b, bool one, size_t pos, uint64_t mask,
                                                               unsigned n) {
  if (one) return (b->word >> pos) & mask;
  if (n <= 32) return read_at(b->buf, pos, mask);
  return read_at(b->buf, pos, 0xffffffffu) | read_at(b->buf, pos + 32, mask >> 32) << 32;
}

/* Whether a group's counts are a spread of its instances: none < 0, and
 * their sum is the instances. */
static bool spread(const store_group *g, const int64_t *count) {
  int64_t rest = (int64_t)g->instances;
  for (size_t q = 0; q < g->states; q++) {
    if (count[q] < 0 || count[q] > rest) return false;
    rest -= count[q];
  }
  return rest == 0;
}

/* A group's fields, written one after the other from bit `at`: into the
 * word, or into the buffer through an accumulator of at most 57 bits. Or-ing
 * each field straight into the buffer would load the 8 bytes the field
 * before stored, and a load that overlaps a store in flight waits for it. */
typedef struct run {
  bits *b;       /* where */
  size_t at;     /* the bit the accumulator starts at */
  uint64_t acc;  /* fields not yet in the buffer (!one) */
  unsigned used; /* bits in acc, or written so far (one) */
} run;

static inline __attribute__((always_inline)) void run_put(run *r, bool one, uint64_t v, unsigned n) {
  if (one) {
    put_bits(r->b, true, r->at + r->used, v, n);
  } else {
    if (r->used + n > 57) {
      or_at(r->b->buf, r->at, r->acc);
      r->at += r->used;
      r->acc = r->used = 0;
    }
    r->acc |= v << r->used;
  }
  r->used += n;
}

static inline __attribute__((always_inline)) void run_end(const run *r, bool one) {
  if (!one) or_at(r->b->buf, r->at, r->acc);
}

/* Writes a group's counts but the last (the rest); false when they are not
 * a spread (a count too wide for its bits is in *over). */
static inline __attribute__((always_inline)) bool pack_counts(const store_group *g, const int64_t *count, bits *b,
                                                              bool one, uint64_t *over) {
  int64_t rest = (int64_t)g->instances;
  run r = {b, g->pos, 0, 0};
  for (size_t q = 0; q + 1 < g->states; q++) {
    *over |= (uint64_t)count[q] & ~g->mask;
    rest -= count[q];
    run_put(&r, one, (uint64_t)count[q] & g->mask, g->bits);
  }
  run_end(&r, one);
  return rest >= 0 && count[g->states - 1] == rest;
}

/* Writes a group as its instances' control states in order; false when
 * its counts are not a spread. */
static inline __attribute__((always_inline)) bool pack_states(const store_group *g, const int64_t *count, bits *b,
                                                              bool one) {
  if (!spread(g, count)) return false;
  run r = {b, g->pos, 0, 0};
  for (size_t q = 0; q < g->states; q++)
    for (int64_t k = 0; k < count[q]; k++) run_put(&r, one, q, g->bits);
  run_end(&r, one);
  return true;
}

/* The first field in packing order that does not fit (a slot) or is no
 * spread (a group): its slot, or the group's first. */
static int first_bad(const store_layout *l, const int64_t *state) {
  for (const store_field *f = l->fields; f < l->fields + l->field_count; f++)
    if (f->group ? !spread(f->group, state + f->group->first)
                 : (((uint64_t)state[f->slot] - (uint64_t)f->offset) & ~f->mask) != 0)
      return (int)f->slot;
  return -1;
}

/* The slots first, without a branch (a value too wide only sets bits of
 * over), then the groups; a state that does not fit is dropped, so what its
 * bad values wrote does not matter. */
static inline __attribute__((always_inline)) bool pack_all(const store_layout *l, const int64_t *state, bits *b,
                                                           bool one, int *bad_slot) {
  uint64_t over = 0;
  bool ok = true;
  for (const store_field *f = l->slots; f < l->slots + l->slot_count; f++) {
    uint64_t v = (uint64_t)state[f->slot] - (uint64_t)f->offset;
    over |= v & ~f->mask;
    put_bits(b, one, f->pos, v, f->bits);
  }
  for (const store_group *g = l->groups; g < l->groups + l->group_count; g++)
    ok &= g->as_counts ? pack_counts(g, state + g->first, b, one, &over) : pack_states(g, state + g->first, b, one);
  if (ok && over == 0) return true;
  *bad_slot = first_bad(l, state);
  return false;
}

bool store_pack(const store_layout *l, const int64_t *state, uint8_t *buf, int *bad_slot) {
  bits b = {buf, 0};
  if (l->one_word) {
    if (!pack_all(l, state, &b, true, bad_slot)) return false;
    memcpy(buf, &b.word, 8); /* its padding bits zero; bytes past the state land in the slack */
    return true;
  }
  memset(buf, 0, l->bytes + 7); /* what the 8-byte accesses of the last bytes reach */
  return pack_all(l, state, &b, false, bad_slot);
}

/* Reads group g into state's counts. */
static inline __attribute__((always_inline)) void unpack_group(const store_group *g, const bits *b, bool one,
                                                               int64_t *state) {
  int64_t *count = state + g->first, rest = (int64_t)g->instances;
  size_t pos = g->pos;
  if (!g->as_counts) {
    memset(count, 0, g->states * sizeof *count);
    for (size_t k = 0; k < g->instances; k++, pos += g->bits) count[get_bits(b, one, pos, g->mask, g->bits)]++;
    return;
  }
  for (size_t q = 0; q + 1 < g->states; q++, pos += g->bits)
    rest -= count[q] = (int64_t)get_bits(b, one, pos, g->mask, g->bits);
  count[g->states - 1] = rest;
}

static inline __attribute__((always_inline)) void unpack_all(const store_layout *l, const bits *b, bool one,
                                                             int64_t *state) {
  for (const store_field *f = l->slots; f < l->slots + l->slot_count; f++)
    state[f->slot] = (int64_t)(get_bits(b, one, f->pos, f->mask, f->bits) + (uint64_t)f->offset);
  for (const store_group *g = l->groups; g < l->groups + l->group_count; g++) unpack_group(g, b, one, state);
}

void store_unpack(const store_layout *l, const uint8_t *buf, int64_t *state) {
  bits b = {(uint8_t *)buf, 0};
  if (!l->one_word) {
    unpack_all(l, &b, false, state);
    return;
  }
  memcpy(&b.word, buf, 8); /* may read into the slack after the state */
  unpack_all(l, &b, true, state);
}

/* ---------------------------------------------------------------- the table */

/* The 8 bytes at p (every buffer of packed states has STORE_SLACK after
 * it, and a table entry has its tag and the next entry). */
static inline uint64_t word_at(const uint8_t *p) {
  uint64_t w;
  memcpy(&w, p, 8);
  return w;
}

/* A packed state of n bytes is its whole words, then (when 8 does not
 * divide n) a partial one: the word at its end masked by tail. */
static uint64_t hash_packed(const uint8_t *p, size_t n, uint64_t tail) {
  uint64_t h = 0x9E3779B97F4A7C15ULL ^ n;
  size_t at = 0;
  for (; n - at >= 8; at += 8) {
    h = (h ^ word_at(p + at)) * 0xff51afd7ed558ccdULL;
    h ^= h >> 32;
  }
  if (at < n)
    h ^= word_at(p + at) & tail; /* murmur3's finalizer: every input bit reaches the low bits used as the index */
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ULL;
  return h ^ (h >> 33);
}

/* Tables from this size on are mapped, in huge pages when the system has
 * them (fewer TLB misses on the random accesses that dominate the search). */
#define MAPPED_TABLE (2u << 20)

static size_t mapped_bytes(size_t bytes) { return (bytes + MAPPED_TABLE - 1) / MAPPED_TABLE * MAPPED_TABLE; }

/* A zeroed table. A large one is mapped, not allocated and cleared: the
 * kernel gives zeroed pages, as they are first touched (by the inserts, on
 * the thread that owns the store), so the table is written once, not twice. */
static uint8_t *table_alloc(size_t bytes) {
  if (bytes < MAPPED_TABLE) return xcalloc(bytes, 1);
  void *p = mmap(NULL, mapped_bytes(bytes), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) out_of_memory(mapped_bytes(bytes));
  madvise(p, mapped_bytes(bytes), MADV_HUGEPAGE);
  return p;
}

/* Frees a table of bytes that table_alloc gave. */
static void table_free(uint8_t *table, size_t bytes) {
  if (bytes < MAPPED_TABLE) free(table);
  else munmap(table, mapped_bytes(bytes));
}

static size_t table_bytes(const store *s) { return s->table_size * s->entry_bytes + STORE_SLACK; }

/* The table grows when it is this full (numerator over 16). */
#define MAX_LOAD_16THS 13

void store_init(store *s, const store_layout *layout) {
  memset(s, 0, sizeof *s);
  s->layout = layout;
  s->entry_bytes = s->layout->bytes + 4;
  s->table_size = 1024;
  s->table = table_alloc(table_bytes(s));
}

void store_layout_free(store_layout *l) {
  free(l->fields);
  free(l->groups);
  free(l->slots);
}

void store_free(store *s) {
  table_free(s->table, table_bytes(s));
  memset(s, 0, sizeof *s);
}

static uint32_t entry_tag(const uint8_t *entry, size_t bytes) {
  uint32_t tag;
  memcpy(&tag, entry + bytes, 4);
  return tag;
}

uint64_t store_hash(const store_layout *l, const uint8_t *packed) { return hash_packed(packed, l->bytes, l->tail); }

void store_prefetch(const store *s, uint64_t hash) {
  __builtin_prefetch(s->table + (hash & (s->table_size - 1)) * s->entry_bytes);
}

/* Word by word, without a call: states are a few words. */
static bool same_packed(const uint8_t *a, const uint8_t *b, size_t n, uint64_t tail) {
  size_t at = 0;
  for (; n - at >= 8; at += 8)
    if (word_at(a + at) != word_at(b + at)) return false;
  return at == n || ((word_at(a + at) ^ word_at(b + at)) & tail) == 0;
}

/* The entry holding packed, or the empty entry where it belongs. */
static uint8_t *probe_hashed(const store *s, const uint8_t *packed, uint64_t hash) {
  size_t mask = s->table_size - 1, bytes = s->layout->bytes;
  for (size_t i = hash & mask;; i = (i + 1) & mask) {
    uint8_t *e = s->table + i * s->entry_bytes;
    if (entry_tag(e, bytes) == 0 || same_packed(e, packed, bytes, s->layout->tail)) return e;
  }
}

static uint8_t *probe(const store *s, const uint8_t *packed) {
  return probe_hashed(s, packed, store_hash(s->layout, packed));
}

static void grow(store *s) {
  uint8_t *old = s->table;
  size_t old_size = s->table_size;
  s->table_size *= 2;
  s->table = table_alloc(table_bytes(s));
  for (size_t i = 0; i < old_size; i++) {
    const uint8_t *e = old + i * s->entry_bytes;
    if (entry_tag(e, s->layout->bytes)) memcpy(probe(s, e), e, s->entry_bytes);
  }
  table_free(old, old_size * s->entry_bytes + STORE_SLACK);
}

bool store_add(store *s, const uint8_t *packed, uint32_t depth) {
  return store_add_hashed(s, packed, store_hash(s->layout, packed), depth);
}

bool store_add_hashed(store *s, const uint8_t *packed, uint64_t hash, uint32_t depth) {
  uint8_t *e = probe_hashed(s, packed, hash);
  if (entry_tag(e, s->layout->bytes)) return false;
  uint32_t tag = depth + 1;
  memcpy(e, packed, s->layout->bytes);
  memcpy(e + s->layout->bytes, &tag, 4);
  if (16 * ++s->count > MAX_LOAD_16THS * s->table_size) grow(s);
  return true;
}

uint32_t store_depth_of(const store *s, const uint8_t *packed) {
  return entry_tag(probe(s, packed), s->layout->bytes) - 1; /* empty: 0 - 1 = UINT32_MAX */
}

const uint8_t *store_entry(const store *s, size_t i, uint32_t *depth) {
  const uint8_t *e = s->table + i * s->entry_bytes;
  *depth = entry_tag(e, s->layout->bytes) - 1;
  return *depth == UINT32_MAX ? NULL : e;
}

size_t store_memory(const store *s) { return s->table_size * s->entry_bytes; }

/* ---------------------------------------------------------------- recent states */

/* Entries of a recent-state table: 16,384 of a few bytes each sit in a
 * core's L2 cache. */
#define RECENT_ENTRIES ((size_t)1 << 14)

void store_recent_init(store_recent *r, const store_layout *layout) {
  r->layout = layout;
  r->entry_bytes = 4 + layout->bytes;
  r->entries = xcalloc(RECENT_ENTRIES * r->entry_bytes + STORE_SLACK, 1);
}

void store_recent_free(store_recent *r) {
  free(r->entries);
  r->entries = NULL;
}

size_t store_recent_memory(const store_recent *r) { return r->entries ? RECENT_ENTRIES * r->entry_bytes : 0; }

/* Indexed by bits above those of the big table's index and below the
 * shard's, so that a worker's recent states spread over all entries. */
bool store_recent_seen(store_recent *r, const uint8_t *packed, uint64_t hash) {
  uint8_t *e = r->entries + ((hash >> 16) & (RECENT_ENTRIES - 1)) * r->entry_bytes;
  uint32_t tag = (uint32_t)hash | 1, held;
  memcpy(&held, e, 4);
  const store_layout *l = r->layout;
  if (held == tag && same_packed(e + 4, packed, l->bytes, l->tail)) return true;
  memcpy(e, &tag, 4);
  memcpy(e + 4, packed, l->bytes);
  return false;
}
