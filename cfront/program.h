/* cfront/program.h -- a multithreaded C program as libclang reads it: the
 * globals with their types and initial values, the functions with the
 * globals each one reads and writes, the thread creation sites with the
 * loops around them, what the creating function writes before its
 * first thread starts, and what it accesses while its threads run.
 *
 * Owns: cfp_program and everything it points to (one arena); free with
 * cfp_free. Borrows: the diagnostics sink and the options. No libclang type
 * appears here: the reader (program.c, types.c, init.c, walk.c) keeps them.
 */
#ifndef ATHREAD_CFRONT_PROGRAM_H
#define ATHREAD_CFRONT_PROGRAM_H

#include <stdbool.h>
#include <stdint.h>

#include "../core/arena.h"
#include "../core/diag.h"
#include "../core/vec.h"

/* ---------------------------------------------------------------- types */

typedef enum cfp_type_kind {
  CFP_BOOL,   /* _Bool */
  CFP_INT,    /* an integer type or an enum */
  CFP_LOCK,   /* pthread_mutex_t, spinlock_t, ...: modelled as "held" */
  CFP_STRUCT, /* a struct: its fields */
  CFP_ARRAY,  /* an array of known length */
  CFP_OTHER   /* anything a spec cannot hold: see why */
} cfp_type_kind;

typedef struct cfp_type cfp_type;

typedef struct cfp_field {
  const char *name; /* an anonymous struct or union member: its type's spelling (cfp_is_anonymous) */
  cfp_type *type;   /* its type */
} cfp_field;

struct cfp_type {
  cfp_type_kind kind;    /* what it is */
  const char *spelling;  /* as C spells it: "unsigned char", "struct ext", "pthread_mutex_t" */
  const char *why;       /* CFP_OTHER: "floating point", "pointer", "union", ... */
  uint64_t leaves;       /* scalar slots, in initializer order (saturates at CFP_MANY) */
  VEC(cfp_field) fields; /* CFP_STRUCT */
  cfp_type *elem;        /* CFP_ARRAY: the element type */
  int64_t length;        /* CFP_ARRAY: the number of elements */
};

#define CFP_MANY ((uint64_t)1 << 40)

/* ---------------------------------------------------------------- paths and accesses */

#define CFP_ANY (-1) /* an index that is not a constant */

/* One step from an object to a part of it: .field or [index]. C names the
 * members of an anonymous member as the enclosing struct's (s.b for the b of
 * struct { struct { int b; }; } s); the step into the anonymous member is
 * still there, so that each step names one field. */
typedef struct cfp_step {
  const char *field; /* the field's name, or NULL for an index */
  int64_t index;     /* the index, or CFP_ANY */
} cfp_step;

/* A part of a global that code reads or writes: the global, then steps
 * (none: the whole global). */
typedef struct cfp_access {
  int global;      /* index into cfp_program.globals */
  cfp_step *steps; /* arena-owned */
  size_t len;      /* steps */
  bool read;       /* the code reads it */
  bool write;      /* the code writes it (or takes its address) */
} cfp_access;

typedef VEC(cfp_access) cfp_accesses;

/* ---------------------------------------------------------------- places */

/* A span of a C file as clang shows it (a macro's use, not its definition). */
typedef struct cfp_span {
  const char *file;    /* the file as given to clang, or "" when unknown */
  unsigned line, col;  /* 1-based, of the first byte (0 when unknown) */
  uint32_t start, end; /* byte offsets in the file, [start, end) */
} cfp_span;

/* ---------------------------------------------------------------- values */

typedef enum cfp_value_kind {
  CFP_KNOWN,   /* value holds it */
  CFP_UNKNOWN, /* not a constant, or an initializer athread does not read */
  CFP_TOO_BIG  /* an unsigned constant above INT64_MAX */
} cfp_value_kind;

typedef struct cfp_value {
  cfp_value_kind kind; /* which */
  int64_t value;       /* CFP_KNOWN */
} cfp_value;

/* The initial value of one scalar slot (leaf) of a global. */
typedef struct cfp_leaf_value {
  uint64_t leaf;   /* slot number, in initializer order */
  cfp_value value; /* what the initializer gives it */
  cfp_span at;     /* the expression (or string literal) that gives it */
} cfp_leaf_value;

/* ---------------------------------------------------------------- globals and functions */

typedef struct cfp_global {
  const char *name;           /* its C name */
  cfp_type *type;             /* its type */
  const char *file;           /* where it is defined (or declared) */
  unsigned line;              /* and the line */
  cfp_span name_at;           /* its name in that declaration */
  cfp_span init_at;           /* its initializer, when it has one (else file is NULL) */
  bool thread_local;          /* _Thread_local or __thread: not shared */
  bool defined;               /* a declaration that is not extern (or has an initializer) defines it here */
  bool init_unknown;          /* its initializer was not read (every slot unknown) */
  VEC(cfp_leaf_value) values; /* the slots the initializer sets, by leaf; the others are 0 */
} cfp_global;

typedef struct cfp_function {
  const char *name;          /* its C name (interned) */
  cfp_accesses accesses;     /* the globals its body reads and writes */
  VEC(const char *) callees; /* the functions it calls by name, in order */
  bool through_pointer;      /* it calls a function or reads or writes memory through a pointer */
  bool calls_pointer;        /* it calls a function through a pointer */
  bool jumps;                /* it has a goto */
  bool restarts;             /* it starts threads again after it has joined all it started */
} cfp_function;

/* ---------------------------------------------------------------- thread creation */

/* A loop around a creation site. */
typedef struct cfp_loop {
  bool constant;    /* the number of iterations is known */
  int64_t count;    /* that number (>= 1) */
  const char *name; /* the macro or enum constant spelling the bound, when it is the count */
  const char *file; /* where the loop is */
  unsigned line;    /* and its line */
} cfp_loop;

typedef struct cfp_site {
  const char *api;       /* "pthread_create", "CreateThread", ... */
  const char *function;  /* the thread function, NULL when the argument is not a function's name */
  const char *creator;   /* the function that contains the call */
  const char *file;      /* where the call is */
  unsigned line;         /* and its line */
  VEC(cfp_loop) loops;   /* the loops around it, outermost first */
  cfp_accesses argument; /* globals the thread gets through its argument (&x) */
  bool sure;             /* the call runs whenever its function does (once per iteration of its for loops): it is
                            under no if, switch, ?:, && or ||, while or do loop, and after no return statement
                            that is not under one (a conditional return is taken not to run) */
} cfp_site;

/* A write of the creating function before its first thread starts. */
typedef struct cfp_early {
  cfp_access where; /* what it writes */
  cfp_value value;  /* CFP_KNOWN: "where = constant"; else any other write */
  cfp_span at;      /* the statement that writes (for a call's writes: the call's statement) */
} cfp_early;

/* An access of the creating function that may run while its threads run:
 * in a statement after its first start and before it has joined as many
 * threads as it started (walk.c says how they are counted). Also, in order
 * among them, what its statements that run while no thread runs do to its
 * locks (ordered). */
typedef struct cfp_late {
  cfp_access where; /* what it reads or writes */
  cfp_span at;      /* the statement (for a call's accesses: the call's statement) */
  int lock_op;      /* +1: the statement is pthread_mutex_lock(&where) (or spin), -1: unlock; 0: a plain access */
  bool unknown;     /* instead of where: a call or an access through a pointer, whose accesses are not known */
  bool ordered;     /* the statement runs while no thread runs: only lock_op or forget counts */
  bool forget;      /* ordered: the statement may release any lock (a call of a function with a body, a lock
                       call other than a lone pthread_mutex_lock(&m)) */
} cfp_late;

typedef struct cfp_program {
  arena *arena;                  /* owns everything below */
  VEC(cfp_global *) globals;     /* file-scope variables that code refers to, in order */
  VEC(cfp_global *) statics;     /* static locals, named by their C path "FUNCTION.NAME" (athread conform binds them
                                    so); never in the functions' accesses */
  VEC(cfp_function *) functions; /* every function with a body */
  VEC(cfp_site) sites;           /* thread creation calls, in source order */
  const char *creator;           /* the function whose writes are in early (main if it starts threads) */
  VEC(cfp_early) early;          /* its writes before the first start, in order */
  VEC(cfp_late) late;            /* its accesses that may run while its threads run, in order */
  VEC(const char *) declared;    /* functions called without a body in their file whose declaration is in the
                                    user's files (not a system header), interned; those no file defines have
                                    unknown effects */
  bool truncated;                /* an expression nested too deeply was not read */
} cfp_program;

typedef struct cfp_options {
  const char *const *clang_args; /* -I, -D, -U flags for the parse (borrowed) */
  size_t clang_arg_count;        /* entries in clang_args */
  const char *include_dir;       /* athread's include/ (for athread.h), or NULL */
} cfp_options;

/* Parses each file with libclang and reads the program. Clang's errors are
 * reported to sink as "file:line:col: error: ..."; then NULL. Returns owned,
 * free with cfp_free. */
cfp_program *cfp_read(diag_sink *sink, const char *const *files, size_t file_count, const cfp_options *opts);
void cfp_free(cfp_program *p);

/* True when field is the name of an anonymous member ("struct (anonymous at
 * f.c:3:17)"): it is left out of C paths and spec names. */
bool cfp_is_anonymous(const char *field);
/* The function called name, or NULL. */
const cfp_function *cfp_function_named(const cfp_program *p, const char *name);
/* Appends to out (a heap vector) the accesses of function name and of every
 * function it calls, transitively; the steps stay arena-owned. Returns true
 * when one of those functions goes through a pointer (calls a function or
 * accesses memory: those accesses are not in out). */
bool cfp_reach(const cfp_program *p, const char *name, cfp_accesses *out);
/* A function that function name (or a function it calls, transitively,
 * each visited once) calls and match accepts, or NULL. */
const char *cfp_reached_call(const cfp_program *p, const char *name, bool (*match)(const char *callee, void *ctx),
                             void *ctx);
/* A function that function name calls (itself or transitively) that is
 * declared in the user's files but defined in none of them (not one known
 * without a body: pthread_*, sem_*, __VERIFIER_*, the front end's builtins
 * such as abort and __assert_fail, which a preprocessed .i file declares
 * in its own text), or "a function through a pointer", or NULL: what it
 * does is not known. */
const char *cfp_unknown_callee(const cfp_program *p, const char *name);
/* The slot number of the scalar at steps (every index constant) in t, or
 * CFP_MANY when the steps do not name a scalar. */
uint64_t cfp_leaf_of(const cfp_type *t, const cfp_step *steps, size_t len);
/* The initial value of slot leaf of g (C's zero when the initializer does not set it). */
cfp_value cfp_initial_value(const cfp_global *g, uint64_t leaf);
/* The entry of g's initializer for slot leaf (its value and the expression
 * that gives it), or NULL when the initializer does not set it or is not
 * read (see init_unknown). Arena-owned. */
const cfp_leaf_value *cfp_initializer_of(const cfp_global *g, uint64_t leaf);

#endif
