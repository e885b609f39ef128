/* races/lockset.h -- layer 1 of athread races over one lowered thread: the
 * thread's accesses of shared cells, each with the locks the thread surely
 * holds there, and how it writes each bool cell (acquire, release, or a
 * write that breaks a lock's discipline).
 *
 * The analysis is a forward must analysis over the prog's CFG (lockset.c):
 * the bool cells the thread holds (intersection at joins), the bool cells
 * known false since the step began (an atomic step that assumes !v and then
 * sets v acquires v), and the constants of its locals (the front end passes
 * a lock as a pointer, an integer naming the cell) and of the cells that
 * never change (lk_constants). A location keeps up to 8 states apart (the
 * paths after a trylock); unreachable code is top.
 *
 * Owns: the lk_thread's vectors (heap); free with lk_free. Borrows the prog
 * and the unit (for the functions the edges come from).
 */
#ifndef ATHREAD_RACES_LOCKSET_H
#define ATHREAD_RACES_LOCKSET_H

#include <stdbool.h>
#include <stdint.h>

#include "../cfront/cfront.h"
#include "../conformance/prog.h"
#include "../core/vec.h"

typedef struct lk_access {
  int cell;       /* index in spec->shared */
  bool write;     /* a write (else a read) */
  bool sync;      /* synchronised: in an atomic section or a model of a synchronisation primitive */
  prog_origin at; /* where in the user's code (an access inside a model: the model's call) */
  int edge;       /* the prog's edge that makes it */
  size_t held;    /* offset in lk_thread.held of its lockset (words bits, one per cell) */
} lk_access;

typedef enum lk_write_kind {
  LK_ACQUIRE, /* in one atomic step: v was false, becomes true */
  LK_RELEASE, /* v := false while the thread surely holds v */
  LK_BROKEN   /* any other change of a bool cell */
} lk_write_kind;

typedef struct lk_lock_write {
  int cell;           /* the bool cell written */
  lk_write_kind kind; /* how */
  prog_origin at;     /* where in the user's code */
} lk_lock_write;

typedef struct lk_thread {
  VEC(lk_access) accesses;        /* every access of a shared cell on a reachable edge */
  VEC(lk_lock_write) lock_writes; /* every write of a bool shared cell that changes it */
  VEC(uint64_t) held;             /* the locksets, words per access */
  size_t words;                   /* words per lockset */
  uint64_t *touched;              /* the cells some edge names, reachable or not (words; heap) */
} lk_thread;

/* The value of each cell while the threads run, when it never changes
 * (races.c says when): known[c], value[c]. */
typedef struct lk_constants {
  const bool *known;    /* per cell, or NULL: none known */
  const int64_t *value; /* per cell, when known */
} lk_constants;

/* Analyses p, whose shared variables index cells 0 .. cells-1; a read of a
 * cell that consts knows is that constant. False when the program is too big
 * to analyse (out then holds nothing). */
bool lk_analyse(const prog *p, const cfe_unit *u, size_t cells, const lk_constants *consts, lk_thread *out);
void lk_free(lk_thread *t);
/* The C function an origin of p is in (calls are inlined: a callee's, a
 * model's), or NULL when it has none. */
const char *lk_function_of(const prog *p, const cfe_unit *u, prog_origin o);
/* Is the origin in a model of include/athread/models/ (athread_model_*)? */
bool lk_in_model(const prog *p, const cfe_unit *u, prog_origin o);
/* Is the access that edge of p makes synchronised: at an atomic location, or
 * in a model of a synchronisation primitive (a function athread_model_*)? */
bool lk_edge_sync(const prog *p, const cfe_unit *u, int edge);
/* Where edge is in the user's code: its origin, or for an edge of a model
 * (inlined) the nearest edge before it that is not in a model. */
prog_origin lk_user_origin(const prog *p, const cfe_unit *u, int edge);
/* True when some edge of the program names cell (lk_thread.touched). */
bool lk_touches(const lk_thread *t, int cell);
/* True when bit cell is set in the lockset of a. */
bool lk_holds(const lk_thread *t, const lk_access *a, int cell);

#endif
