/* core/suggest.h -- "did you mean" for misspelt names. Borrows everything. */
#ifndef ATHREAD_SUGGEST_H
#define ATHREAD_SUGGEST_H

#include <stddef.h>

/* Returns the candidate closest to typo (edit distance, case-insensitive
 * letters count half) if it is close enough to be a likely typo, else NULL. */
const char *suggest_name(const char *typo, const char *const *candidates, size_t count);

#endif
