/* races/races.h -- `athread races` as one call: which threads run (main's
 * thread creation and the spec's system), each thread's function lowered by
 * the C front end, layer 1 (a lockset analysis, lockset.h) over every
 * thread, main's accesses while its threads run, and the candidate races:
 * two accesses of one cell by different thread instances, one a write, not
 * both synchronised, with no lock held by both.
 *
 * The run never says "no data race" when it is not sure: an access it
 * cannot place, a thread it cannot lower, a lock whose discipline it cannot
 * check each give a reason, and the verdict is then unknown.
 *
 * Owns: the races_result (its arena and vectors); free with races_free.
 * Borrows the spec and the request. Input errors (C that clang rejects, a
 * program that starts no thread) are reported through the sink.
 */
#ifndef ATHREAD_RACES_H
#define ATHREAD_RACES_H

#include <stdbool.h>
#include <stdint.h>

#include "../cfront/cfront.h"
#include "../core/arena.h"
#include "../core/vec.h"
#include "../spec-lang/spec.h"

typedef enum races_verdict {
  RACES_FREE,   /* no data race: no candidate and every assumption checked */
  RACES_FOUND,  /* a data race (the search layer: a replayed trace) */
  RACES_UNKNOWN /* candidates, or a reason the analysis is not sound for this program */
} races_verdict;

typedef struct races_request {
  const char *const *files; /* the C files */
  size_t file_count;        /* how many */
  cfe_options cpp;          /* preprocessor flags and athread.h's directory */
  const char **function;    /* per thread of the spec: its C function, or NULL (with no spec: unused) */
  const spec_options *set;  /* --set for the drafted spec (with no spec), or the spec's (its --for-all re-run) */
  const char *for_all;      /* --for-all N: the proof layer for every N (the const that counts instances), or NULL */
} races_request;

/* One access of a candidate. */
typedef struct races_access {
  const char *thread; /* the function of the thread ("main" for main's code) */
  const char *file;   /* where ("" when unknown) */
  unsigned line, col; /* 1-based, 0 when unknown */
  bool write;         /* a write (else a read) */
  bool sync;          /* synchronised (atomic) */
  const char *locks;  /* the locks surely held, ", "-separated ("" for none) */
} races_access;

typedef enum races_cell_kind {
  RACES_CELL_LOCK,      /* a lock whose discipline holds: its accesses are the lock calls */
  RACES_CELL_FREE,      /* race-free (how says why: layer 1's reason, or the proof layer's) */
  RACES_CELL_CANDIDATE, /* two accesses that may race (layer 1 cannot tell, the search found no race) */
  RACES_CELL_RACE       /* a data race: the search found it and replayed its trace */
} races_cell_kind;

/* A cell's value after a step of a race's trace. */
typedef struct races_change {
  const char *cell; /* its C path */
  int64_t value;    /* its new value */
} races_change;

/* One step of a race's trace: a thread instance runs one atomic step (one
 * shared access, or an atomic section). */
typedef struct races_step {
  const char *thread;   /* its function */
  int instance;         /* which of its instances (1-based) */
  const char *file;     /* where ("" when unknown) */
  unsigned line, col;   /* 1-based, 0 when unknown */
  const char *text;     /* the source of the statement, on one line */
  const char *accesses; /* what it does to the cells: "reads count", "writes a, reads b", "" */
  bool starts;          /* the instance's first step */
  const char *inputs;   /* the nondeterministic values it takes: "k = 2" ("" for none) */
  VEC(races_change) changes; /* the cells it changes (arena) */
} races_step;

/* A cell some thread (or main while its threads run) accesses. */
typedef struct races_cell {
  const char *cell;     /* the C object: "count", "s.a", "arr[2]" */
  races_cell_kind kind; /* what layer 1 says */
  const char *how;      /* RACES_CELL_FREE: why no two accesses race */
  races_access first;   /* RACES_CELL_CANDIDATE: one access */
  races_access second;  /* and one that may run at the same time */
  size_t pairs;         /* RACES_CELL_CANDIDATE: how many such pairs of accesses */
  VEC(races_step) trace; /* RACES_CELL_RACE: the steps to the state where first and second are both enabled (arena) */
  int first_instance;   /* RACES_CELL_RACE: the instances (1-based) that make first */
  int second_instance;  /* and second */
} races_cell;

typedef struct races_thread {
  const char *function; /* its C function */
  int64_t instances;    /* how many run (INT64_MAX: a number not known) */
  bool lowered;         /* the front end lowered it */
  size_t accesses;      /* its accesses of shared cells */
} races_thread;

typedef struct races_result {
  arena *arena;              /* owns the strings below */
  races_verdict verdict;     /* the answer */
  VEC(races_thread) threads; /* the threads, in order of first start */
  VEC(races_cell) cells;     /* the cells accessed, in the spec's order */
  size_t candidates;         /* cells with RACES_CELL_CANDIDATE */
  VEC(const char *) reasons; /* why not sure besides the candidates (arena) */
  size_t main_accesses;      /* main's accesses while its threads run */
  ast_spec *drafted;         /* with no spec: athread skeleton's draft, which gave the cells (owned) */
  const char *search;        /* what the search layer did: "found ...", "searched ...", "not run: ..." (arena) */
  size_t searched;           /* the states it visited, over all its runs */
  size_t races;              /* cells with RACES_CELL_RACE */
  const char *proof;         /* what the proof layer did: "N of M candidate pairs proved ...", "not used: ...", or
                                NULL when no candidate was left for it (arena) */
  size_t proved;             /* cells the proof layer proved race-free */
} races_result;

/* Runs layer 1, then the search layer over its candidates, then with a
 * spec the proof layer (proof.h: athread check on spec and the files, and
 * the system explored) over those left; false after an input error reported
 * through sink (then out holds nothing to print). spec may be NULL: then the
 * cells and threads come from athread skeleton's draft of the C files
 * (out->drafted), and there is no proof layer. */
bool races_run(diag_sink *sink, ast_spec *spec, const races_request *rq, races_result *out);
void races_free(races_result *out);
/* "no data race", "data race", "unknown". */
const char *races_verdict_text(races_verdict v);

#endif
