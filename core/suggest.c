/* core/suggest.c -- Levenshtein distance with a cap. */
#include "suggest.h"

#include <ctype.h>
#include <string.h>

#define MAX_NAME 64

/* Edit distance in half-steps: a change of letter case costs 1, others 2. */
static size_t distance(const char *a, const char *b) {
  size_t n = strlen(a), m = strlen(b);
  if (n > MAX_NAME || m > MAX_NAME) return (size_t)-1;
  size_t row[MAX_NAME + 1];
  for (size_t j = 0; j <= m; j++) row[j] = 2 * j;
  for (size_t i = 1; i <= n; i++) {
    size_t diag = row[0];
    row[0] = 2 * i;
    for (size_t j = 1; j <= m; j++) {
      size_t up = row[j];
      size_t sub = a[i - 1] == b[j - 1]                                                   ? 0
                   : tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 1]) ? 1
                                                                                          : 2;
      size_t best = diag + sub;
      if (up + 2 < best) best = up + 2;
      if (row[j - 1] + 2 < best) best = row[j - 1] + 2;
      row[j] = best;
      diag = up;
    }
  }
  return row[m];
}

const char *suggest_name(const char *typo, const char *const *candidates, size_t count) {
  size_t len = strlen(typo);
  size_t limit = len <= 3 ? 2 : len <= 8 ? 4 : 6; /* one, two or three edits */
  const char *best = NULL;
  size_t best_distance = limit + 1;
  for (size_t i = 0; i < count; i++) {
    size_t d = distance(typo, candidates[i]);
    if (d < best_distance) {
      best = candidates[i];
      best_distance = d;
    }
  }
  return best;
}
