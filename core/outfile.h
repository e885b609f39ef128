/* core/outfile.h -- writing output files atomically.
 *
 * The text goes to a temporary file beside the target, which is renamed over
 * the target only when everything was written; on any failure the temporary
 * file is removed and the target is untouched. SIGINT, SIGTERM and SIGHUP
 * are held back while the temporary file exists, so none can leave it
 * behind. Borrows everything.
 */
#ifndef ATHREAD_OUTFILE_H
#define ATHREAD_OUTFILE_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"

/* Writes len bytes of text to path ("-": standard output); reports
 * failures to sink. */
bool outfile_write(diag_sink *sink, const char *path, const char *text, size_t len);

#endif
