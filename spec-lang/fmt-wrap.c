/* spec-lang/fmt-wrap.c -- greedy line breaking of one item, level by level
 * (clauses first, then the operators outside brackets, then those inside). */
#include "fmt-wrap.h"

#include <stdbool.h>
#include <stdlib.h>

#include "../core/vec.h"

typedef struct wrapper {
  const char *text;
  const fmt_break *breaks;
  size_t count;
  size_t col;         /* where the item starts */
  int max_level;      /* the deepest level of breaks */
  VEC(size_t) chosen; /* indices into breaks, in text order */
} wrapper;

size_t fmt_display_width(const char *text, size_t len) {
  size_t n = 0;
  for (size_t i = 0; i < len; i++) n += ((unsigned char)text[i] & 0xC0) != 0x80;
  return n;
}

/* The column of the line that starts after a break of this level. */
static size_t continuation(const wrapper *w, int level) { return w->col + 4 + 2 * (size_t)(level > 1 ? level - 1 : 0); }

static bool fits(const wrapper *w, size_t from, size_t to, size_t col) {
  return col + fmt_display_width(w->text + from, to - from) <= FMT_WIDTH;
}

/* The first break at index k or after of this level inside (from, to), or count. */
static size_t next_break(const wrapper *w, size_t k, size_t from, size_t to, int level) {
  for (; k < w->count; k++) {
    const fmt_break *b = &w->breaks[k];
    if (b->at >= to) return w->count;
    if (b->at > from && b->level == level) return k;
  }
  return w->count;
}

/* Breaks the piece [from, to), which starts at column col, at the places of
 * this level (as late as fits), then its pieces still too wide deeper. */
static void split(wrapper *w, size_t from, size_t to, size_t col, int level) {
  if (level > w->max_level || fits(w, from, to, col)) return;
  size_t k = 0, last = w->count;
  for (;;) {
    size_t next = next_break(w, k, from, to, level);
    size_t at = next < w->count ? w->breaks[next].at : to;
    bool fit = fits(w, from, at, col);
    if (fit && next == w->count) break; /* the rest fits */
    if (fit) {
      last = next, k = next + 1;
      continue;
    }
    size_t cut = last < w->count ? last : next; /* nothing fits: the shortest overflow */
    if (cut == w->count) break;
    split(w, from, w->breaks[cut].at, col, level + 1);
    vec_push(NULL, &w->chosen, cut);
    from = w->breaks[cut].at + 1, col = continuation(w, w->breaks[cut].level);
    last = w->count, k = cut + 1;
  }
  split(w, from, to, col, level + 1);
}

void fmt_wrap(strbuf *out, const char *text, size_t len, size_t col, const fmt_break *breaks, size_t count) {
  wrapper w = {.text = text, .breaks = breaks, .count = count, .col = col, .max_level = -1};
  for (size_t i = 0; i < count; i++)
    if (breaks[i].level > w.max_level) w.max_level = breaks[i].level;
  split(&w, 0, len, col, 0);
  size_t copied = 0;
  vec_foreach(&w.chosen, i) {
    const fmt_break *b = &breaks[w.chosen.items[i]];
    sbuf_putn(out, text + copied, b->at - copied);
    sbuf_printf(out, "\n%*s", (int)continuation(&w, b->level), "");
    copied = b->at + 1;
  }
  sbuf_putn(out, text + copied, len - copied);
  vec_free(&w.chosen);
}
