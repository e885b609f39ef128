/* core/interrupt.h -- Ctrl-C (SIGINT) and SIGTERM as a request to stop.
 *
 * Owns the one flag the signal handler sets. The engines poll
 * interrupt_requested() where they check their time limit and stop with
 * verdict unknown, reason INTERRUPT_REASON; the Z3 watchdog (core/smt.c)
 * polls it too and interrupts Z3. The handler runs once: it restores the
 * default action, so a second signal ends the process at once.
 */
#ifndef ATHREAD_INTERRUPT_H
#define ATHREAD_INTERRUPT_H

#include <stdbool.h>

/* The reason an interrupted run reports with verdict unknown. */
#define INTERRUPT_REASON "interrupted"

/* Installs the handler for SIGINT and SIGTERM (call before a long run). */
void interrupt_install(void);
/* True once SIGINT or SIGTERM arrived after interrupt_install. */
bool interrupt_requested(void);

#endif
