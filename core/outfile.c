/* core/outfile.c -- temporary file + rename. */
#include "outfile.h"

#include <errno.h>
#include <signal.h>
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

/* "-": standard output. */
static bool write_stdout(diag_sink *sink, const char *text, size_t len) {
  bool ok = fwrite(text, 1, len, stdout) == len && fflush(stdout) == 0;
  if (!ok) diag_error_at(sink, "-", "cannot write to standard output: %s", strerror(errno));
  return ok;
}

bool outfile_write(diag_sink *sink, const char *path, const char *text, size_t len) {
  if (strcmp(path, "-") == 0) return write_stdout(sink, text, len);
  size_t n = strlen(path);
  char *tmp = xmalloc(n + sizeof ".XXXXXX");
  memcpy(tmp, path, n);
  memcpy(tmp + n, ".XXXXXX", sizeof ".XXXXXX");
  /* SIGINT, SIGTERM and SIGHUP wait while the temporary file exists, so that
   * no signal (not even a second Ctrl-C, which kills) can leave it behind;
   * one that arrived meanwhile is delivered when the mask is restored. */
  sigset_t block, old;
  sigemptyset(&block);
  sigaddset(&block, SIGINT);
  sigaddset(&block, SIGTERM);
  sigaddset(&block, SIGHUP);
  pthread_sigmask(SIG_BLOCK, &block, &old);
  int fd = mkstemp(tmp);
  bool ok = fd >= 0;
  if (!ok) diag_error_at(sink, path, "cannot create output file: %s", strerror(errno));
  if (ok) {
    set_mode(fd, path);
    ok = write_all(fd, text, len) && fsync(fd) == 0;
    ok = close(fd) == 0 && ok;
    if (ok && rename(tmp, path) != 0) ok = false;
    if (!ok) {
      diag_error_at(sink, path, "cannot write output file: %s", strerror(errno));
      unlink(tmp);
    }
  }
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  free(tmp);
  return ok;
}
