/* core/linediff.c -- lines, an edit script ('=' kept, '-' removed, '+'
 * added, in order) and its hunks. */
#include "linediff.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "vec.h"

#define CONTEXT 3

typedef struct line {
  const char *text;
  size_t len; /* with its newline, if it has one */
} line;

typedef VEC(line) lines;
typedef VEC(char) edits;

static lines split_lines(const char *text, size_t len) {
  lines out = {0};
  for (size_t at = 0; at < len;) {
    const char *nl = memchr(text + at, '\n', len - at);
    size_t n = nl ? (size_t)(nl - (text + at)) + 1 : len - at;
    vec_push(NULL, &out, ((line){text + at, n}));
    at += n;
  }
  return out;
}

static bool same(const line *a, const line *b) { return a->len == b->len && memcmp(a->text, b->text, a->len) == 0; }

/* The edit script of a[0, n) to b[0, m) by a longest common subsequence
 * (lcs[i][j]: its length for a[i..] and b[j..]). */
static void lcs_script(const line *a, size_t n, const line *b, size_t m, edits *ops) {
  uint32_t *lcs = xcalloc((n + 1) * (m + 1), sizeof *lcs);
#define LCS(i, j) lcs[(i) * (m + 1) + (j)]
  for (size_t i = n; i-- > 0;)
    for (size_t j = m; j-- > 0;)
      LCS(i, j) =
          same(&a[i], &b[j]) ? LCS(i + 1, j + 1) + 1 : (LCS(i + 1, j) > LCS(i, j + 1) ? LCS(i + 1, j) : LCS(i, j + 1));
  size_t i = 0, j = 0;
  while (i < n || j < m) {
    char op = i < n && j < m && same(&a[i], &b[j])                  ? '='
              : i < n && (j == m || LCS(i + 1, j) >= LCS(i, j + 1)) ? '-'
                                                                    : '+';
    vec_push(NULL, ops, op);
    i += op != '+', j += op != '-';
  }
#undef LCS
  free(lcs);
}

static void push_run(edits *ops, char op, size_t count) {
  for (size_t k = 0; k < count; k++) vec_push(NULL, ops, op);
}

/* The whole edit script: common ends, then the middle. */
static void script(const lines *a, const lines *b, edits *ops) {
  size_t pre = 0, suf = 0;
  while (pre < a->len && pre < b->len && same(&a->items[pre], &b->items[pre])) pre++;
  while (suf < a->len - pre && suf < b->len - pre && same(&a->items[a->len - 1 - suf], &b->items[b->len - 1 - suf]))
    suf++;
  size_t n = a->len - pre - suf, m = b->len - pre - suf;
  push_run(ops, '=', pre);
  if ((n + 1) * (m + 1) <= LINEDIFF_MAX_CELLS) {
    lcs_script(a->items + pre, n, b->items + pre, m, ops);
  } else {
    push_run(ops, '-', n);
    push_run(ops, '+', m);
  }
  push_run(ops, '=', suf);
}

static void put_line(strbuf *out, char mark, const line *l) {
  sbuf_putc(out, mark);
  sbuf_putn(out, l->text, l->len);
  if (l->len == 0 || l->text[l->len - 1] != '\n') sbuf_puts(out, "\n\\ No newline at end of file\n");
}

/* "-3,2" as diff -u writes it: an empty range names the line before it. */
static void put_range(strbuf *out, char sign, size_t first, size_t count) {
  sbuf_printf(out, "%c%zu", sign, count ? first + 1 : first);
  if (count != 1) sbuf_printf(out, ",%zu", count);
}

typedef struct differ {
  const lines *a, *b;
  const char *ops;
  size_t n;
} differ;

/* The end of the hunk whose first change is at ops[k]: changes whose gap
 * of kept lines is at most twice the context share it. */
static size_t hunk_end(const differ *d, size_t k) {
  size_t last = k;
  for (size_t i = k; i < d->n && i <= last + 2 * CONTEXT + 1; i++)
    if (d->ops[i] != '=') last = i;
  return last + 1 + CONTEXT < d->n ? last + 1 + CONTEXT : d->n;
}

/* Prints the hunk ops[from, to), which starts at lines ai of a and bi of b. */
static void put_hunk(strbuf *out, const differ *d, size_t from, size_t to, size_t ai, size_t bi) {
  size_t an = 0, bn = 0;
  for (size_t i = from; i < to; i++) an += d->ops[i] != '+', bn += d->ops[i] != '-';
  sbuf_puts(out, "@@ ");
  put_range(out, '-', ai, an);
  sbuf_putc(out, ' ');
  put_range(out, '+', bi, bn);
  sbuf_puts(out, " @@\n");
  for (size_t i = from; i < to; i++) {
    char op = d->ops[i];
    put_line(out, op == '=' ? ' ' : op, op == '+' ? &d->b->items[bi++] : &d->a->items[ai++]);
    if (op == '=') bi++;
  }
}

void linediff_unified(strbuf *out, const char *old, size_t old_len, const char *old_name, const char *new,
                      size_t new_len, const char *new_name) {
  lines a = split_lines(old, old_len), b = split_lines(new, new_len);
  edits ops = {0};
  script(&a, &b, &ops);
  differ d = {&a, &b, ops.items, ops.len};
  size_t ai = 0, bi = 0, done = 0;
  for (size_t k = 0; k < d.n; k++) {
    if (d.ops[k] == '=') continue;
    if (ai == 0 && bi == 0) sbuf_printf(out, "--- %s\n+++ %s\n", old_name, new_name);
    size_t from = k >= done + CONTEXT ? k - CONTEXT : done, to = hunk_end(&d, k);
    for (size_t i = done; i < from; i++) ai += d.ops[i] != '+', bi += d.ops[i] != '-';
    put_hunk(out, &d, from, to, ai, bi);
    for (size_t i = from; i < to; i++) ai += d.ops[i] != '+', bi += d.ops[i] != '-';
    done = k = to;
  }
  vec_free(&ops);
  vec_free(&a);
  vec_free(&b);
}
