/* core/outfile.c -- temporary file + rename. */
#include "outfile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "arena.h"

static bool write_all(int fd, const char *text, size_t len) {
  while (len > 0) {
    ssize_t n = write(fd, text, len);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    text += n;
    len -= (size_t)n;
  }
  return true;
}

/* The target keeps its mode; a new file gets the usual 0666 less the umask. */
static void set_mode(int fd, const char *path) {
  struct stat st;
  if (stat(path, &st) == 0) {
    fchmod(fd, st.st_mode & 07777);
    return;
  }
  mode_t mask = umask(0);
  umask(mask);
  fchmod(fd, 0666 & ~mask);
}

bool outfile_write(diag_sink *sink, const char *path, const char *text, size_t len) {
  size_t n = strlen(path);
  char *tmp = xmalloc(n + sizeof ".XXXXXX");
  memcpy(tmp, path, n);
  memcpy(tmp + n, ".XXXXXX", sizeof ".XXXXXX");
  int fd = mkstemp(tmp);
  if (fd < 0) {
    diag_error_at(sink, path, "cannot create output file: %s", strerror(errno));
    free(tmp);
    return false;
  }
  set_mode(fd, path);
  bool ok = write_all(fd, text, len) && fsync(fd) == 0;
  ok = close(fd) == 0 && ok;
  if (ok && rename(tmp, path) != 0) ok = false;
  if (!ok) {
    diag_error_at(sink, path, "cannot write output file: %s", strerror(errno));
    unlink(tmp);
  }
  free(tmp);
  return ok;
}
