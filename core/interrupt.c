/* core/interrupt.c -- the SIGINT/SIGTERM flag. */
#include "interrupt.h"

#include <signal.h>
#include <string.h>

/* File-scope, against the rule of no hidden globals: a signal handler gets
 * no context pointer, so the flag it sets must live here. Nothing else is
 * kept; everything the engines do about it goes through their own structs. */
static volatile sig_atomic_t requested;

static void on_signal(int sig) {
  (void)sig;
  requested = 1;
}

void interrupt_install(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESETHAND | SA_RESTART; /* one request; a second signal kills */
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
}

bool interrupt_requested(void) { return requested != 0; }
