/* assert.h -- athread's own <assert.h>. The C front end puts this directory
 * first on the include path, so `#include <assert.h>` in checked code gives
 * assert(e) its verification meaning (a check, not a step; docs/language.md,
 * section 10) instead of the C library's macro. Without __ATHREAD__ (an
 * ordinary compiler that was given -I for this directory) it defers to the
 * C library's header.
 */
#ifdef __ATHREAD__
#ifndef ATHREAD_ASSERT_H
#define ATHREAD_ASSERT_H
void assert(int condition);
#endif
#else
#include_next <assert.h>
#endif
