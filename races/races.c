/* races/races.c -- the races pipeline up to layer 1 (races.h). */
#include "races.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../cfront/program.h"
#include "../cfront/skeleton.h"
#include "../conformance/atomicity.h"
#include "hunt.h"
#include "lockset.h"
#include "proof.h"

#define UNBOUNDED INT64_MAX
/* The states one search of layer 2 may visit. */
#define SEARCH_STATES 200000

/* A thread function with what the run knows of it. */
typedef struct rc_thread {
  const char *function; /* its C function */
  int64_t instances;    /* how many run */
  bool unsure;          /* some of its starts may not run (cfp_site.sure) */
  prog *code;           /* lowered, or NULL */
  lk_thread lk;         /* layer 1's result when lowered */
} rc_thread;

/* One access of a cell, by a thread or by main. */
typedef struct rc_access {
  int thread;           /* index in run.threads, or -1 for main */
  const lk_access *lk;  /* a thread's access, else NULL */
  const cfp_late *late; /* main's access, else NULL */
  bool write, sync;     /* as in lk_access */
  size_t held;          /* main's access: offset of its lockset in run.main_held */
} rc_access;

typedef VEC(rc_access) rc_accesses;

/* A candidate: two accesses of a cell that layer 1 cannot tell apart from a race. */
typedef struct rc_pair {
  size_t cell;           /* its index in races_result.cells */
  const rc_access *a, *b; /* the accesses (in run.by_cell) */
} rc_pair;

typedef struct run {
  diag_sink *sink;         /* the run's */
  ast_spec *spec;          /* the cells */
  const races_request *rq; /* the files */
  cfp_program *program;    /* libclang's reading (threads started, main's accesses) */
  cfe_unit *unit;          /* the front end's */
  VEC(rc_thread) threads;  /* the thread functions */
  const char **paths;      /* per cell: its C path (arena) */
  bool *is_lock;           /* per cell: a lock whose discipline holds */
  VEC(int) locks;          /* the cells with is_lock, in order */
  rc_accesses *by_cell;    /* per cell: its accesses */
  VEC(rc_pair) pairs;      /* the candidates, cell by cell */
  VEC(uint64_t) main_held; /* the locksets of main's accesses, words each */
  size_t words;            /* words per lockset (a bit per cell) */
  size_t main_count;       /* main's accesses while its threads run */
  size_t layer1_only;      /* reasons that concern layer 1 alone (a lock's discipline, the lockset's size): the
                              search does not rely on what they doubt */
  races_result *out;       /* the result */
  diag_sink lower;         /* the front end's sink: its messages say why a thread is not lowered */
  FILE *lower_out;         /* lower's output, into lower_text */
  char *lower_text;        /* what the front end said so far (open_memstream) */
  size_t lower_len;        /* its length */
} run;

static void reason(run *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void layer1_reason(run *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void add_reason(run *r, const char *fmt, va_list ap) {
  char text[1024];
  vsnprintf(text, sizeof text, fmt, ap);
  const char *kept = arena_strndup(r->out->arena, text, strlen(text));
  vec_push(NULL, &r->out->reasons, kept);
}

static void reason(run *r, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  add_reason(r, fmt, ap);
  va_end(ap);
}

/* A reason that layer 1 cannot decide, about nothing the search relies on. */
static void layer1_reason(run *r, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  add_reason(r, fmt, ap);
  va_end(ap);
  r->layer1_only++;
}

/* ---------------------------------------------------------------- threads */

static int64_t add_counts(int64_t a, int64_t b) { return a > UNBOUNDED - b ? UNBOUNDED : a + b; }

/* The threads site starts: once per iteration of each loop around it. */
static int64_t site_count(const cfp_site *s) {
  int64_t k = 1;
  vec_foreach(&s->loops, l) {
    const cfp_loop *loop = &s->loops.items[l];
    if (!loop->constant || k > UNBOUNDED / loop->count) return UNBOUNDED;
    k *= loop->count;
  }
  return k;
}

static rc_thread *thread_of(run *r, const char *function) {
  vec_foreach(&r->threads, i)
    if (strcmp(r->threads.items[i].function, function) == 0) return &r->threads.items[i];
  rc_thread t = {.function = function};
  vec_push(NULL, &r->threads, t);
  return &r->threads.items[r->threads.len - 1];
}

/* The instances the spec's system runs of spec thread t (0 for -1). */
static int64_t spec_instances(const run *r, int t) {
  int64_t n = 0;
  vec_foreach(&r->spec->instances, k)
    if (r->spec->instances.items[k]->thread_index == t) n = add_counts(n, r->spec->instances.items[k]->count_value);
  return n;
}

/* The threads main starts (counted over its sites) and the spec's (the
 * larger number of each: the analysis holds for more instances). */
static void find_threads(run *r) {
  vec_foreach(&r->program->sites, i) {
    const cfp_site *s = &r->program->sites.items[i];
    if (strcmp(s->creator, "main") != 0)
      reason(r,
             "%s starts a thread at %s:%u: threads started outside main are not analysed (what the starting code "
             "accesses meanwhile)",
             s->creator, s->file, s->line);
    if (!s->function) {
      reason(r, "the thread started at %s:%u runs a function athread cannot name", s->file, s->line);
      continue;
    }
    rc_thread *t = thread_of(r, s->function);
    t->instances = add_counts(t->instances, site_count(s));
    t->unsure = t->unsure || !s->sure;
  }
  const char *unknown = cfp_unknown_callee(r->program, "main");
  if (unknown && r->program->sites.len)
    reason(r, "main calls %s%s: what it does (start threads, access shared objects) is not known", unknown,
           strchr(unknown, ' ') ? "" : ", which no file given defines");
  const cfp_function *m = cfp_function_named(r->program, "main");
  if (m && m->jumps && r->program->sites.len)
    reason(r, "main has a goto: the order of its statements and its threads' starts and joins is not analysed");
  vec_foreach(&r->spec->threads, i) {
    const char *f = r->out->drafted ? r->spec->threads.items[i]->impl : r->rq->function[i];
    if (!f) {
      reason(r, "thread %s of the specification has no implementation", r->spec->threads.items[i]->name);
      continue;
    }
    int64_t n = spec_instances(r, (int)i);
    rc_thread *t = thread_of(r, f);
    if (n > t->instances) t->instances = n;
  }
}

/* The first line the front end said from offset from on (its first error
 * with its location), or "" (arena). */
static const char *lower_message(run *r, size_t from) {
  fflush(r->lower_out);
  const char *text = from < r->lower_len ? r->lower_text + from : "";
  const char *nl = strchr(text, '\n');
  return arena_strndup(r->out->arena, text, nl ? (size_t)(nl - text) : strlen(text));
}

/* Lowers each thread; a thread that cannot be lowered is a reason. */
static void lower_threads(run *r) {
  vec_foreach(&r->threads, i) {
    rc_thread *t = &r->threads.items[i];
    if (!cfe_has_function(r->unit, t->function)) {
      reason(r, "thread %s: no function '%s' in the C files given", t->function, t->function);
      continue;
    }
    fflush(r->lower_out);
    size_t from = r->lower_len;
    t->code = cfe_lower(r->unit, r->spec, t->function, CFE_INTS_C);
    if (t->code && !atomicity_split(t->code, &r->lower)) prog_free(t->code), t->code = NULL;
    if (!t->code) reason(r, "thread %s: the C front end cannot lower it: %s", t->function, lower_message(r, from));
  }
}

/* Runs layer 1 over each lowered thread. */
static void analyse_threads(run *r, const lk_constants *consts) {
  vec_foreach(&r->threads, i) {
    rc_thread *t = &r->threads.items[i];
    if (t->code && !lk_analyse(t->code, r->unit, r->spec->shared.len, consts, &t->lk))
      layer1_reason(r, "thread %s: too big for the lockset analysis", t->function);
  }
}

/* ---------------------------------------------------------------- cells */

/* The C path of cell i: its binding, or its name; an element: its array's
 * path with the index. */
static const char *cell_path(run *r, size_t i) {
  const ast_shared *c = r->spec->shared.items[i];
  const ast_shared *whole = c->array ? c->array : c;
  const char *base = whole->binds ? whole->binds : whole->name;
  if (!c->array) return arena_strndup(r->out->arena, base, strlen(base));
  return arena_printf(r->out->arena, "%s[%lld]", base, (long long)c->element);
}

/* The C path of a part of a global, "[*]" for an index not known. */
static const char *access_path(run *r, const cfp_access *a) {
  strbuf b = {0};
  sbuf_puts(&b, r->program->globals.items[a->global]->name);
  for (size_t i = 0; i < a->len; i++) {
    if (!a->steps[i].field && a->steps[i].index == CFP_ANY) sbuf_puts(&b, "[*]");
    else if (!a->steps[i].field) sbuf_printf(&b, "[%lld]", (long long)a->steps[i].index);
    else if (!cfp_is_anonymous(a->steps[i].field)) sbuf_printf(&b, ".%s", a->steps[i].field);
  }
  const char *path = arena_printf(r->out->arena, "%s", sbuf_str(&b));
  sbuf_free(&b);
  return path;
}

/* True when the access path a (with "[*]" for any index) and the cell path c
 * overlap: one is the other or a part of it. */
static bool overlaps(const char *a, const char *c) {
  while (*a && *c) {
    if (strncmp(a, "[*]", 3) == 0 && *c == '[') {
      a += 3;
      c = strchr(c, ']');
      if (!c) return false;
      c++;
      continue;
    }
    if (*a != *c) return false;
    a++, c++;
  }
  return (!*a && (!*c || *c == '.' || *c == '[')) || (!*c && (*a == '.' || *a == '['));
}

/* ---------------------------------------------------------------- what the front end kept */

/* Every part of a global that libclang sees thread t's code (and its
 * callees') access must be named by its lowered program, else the front end
 * dropped an access (a thread's return value, say) and layer 1 would miss
 * it: a reason. A global no cell overlaps is one the front end gives no
 * cell (a condition variable, a thread-local): it rejects the others. */
static void check_kept(run *r, const rc_thread *t) {
  cfp_accesses reached = {0};
  cfp_reach(r->program, t->function, &reached);
  vec_foreach(&reached, i) {
    const char *path = access_path(r, &reached.items[i]);
    bool cell = false, kept = false;
    vec_foreach(&r->spec->shared, c)
      if (overlaps(path, r->paths[c])) cell = true, kept |= lk_touches(&t->lk, (int)c);
    if (cell && !kept) {
      reason(r,
             "thread %s: its C code accesses %s, which its lowered program never does: the accesses the front end "
             "drops are not analysed",
             t->function, path);
      break;
    }
  }
  vec_free(&reached);
}

/* ---------------------------------------------------------------- accesses */

static void add_access(run *r, int cell, rc_access a) {
  if (cell < 0 || (size_t)cell >= r->spec->shared.len) return;
  vec_push(NULL, &r->by_cell[cell], a);
}

static void collect_threads(run *r) {
  vec_foreach(&r->threads, i) {
    const rc_thread *t = &r->threads.items[i];
    if (!t->code) continue;
    check_kept(r, t);
    vec_foreach(&t->lk.accesses, k) {
      const lk_access *a = &t->lk.accesses.items[k];
      add_access(r, a->cell, (rc_access){(int)i, a, NULL, a->write, a->sync, 0});
    }
  }
}

static bool bit(const uint64_t *s, int i) { return s[i / 64] >> (i % 64) & 1; }

/* The bool cell whose C path is path, or -1. */
static int bool_cell(const run *r, const char *path) {
  vec_foreach(&r->spec->shared, c)
    if (r->spec->shared.items[c]->type.kind == TYPE_BOOL && strcmp(r->paths[c], path) == 0) return (int)c;
  return -1;
}

/* main's access l with the locks it holds (main's lock and unlock calls at
 * the top level of its body, in order; a lock taken before the first start
 * is not counted). */
static void add_main_access(run *r, const cfp_late *l, const char *path, const uint64_t *held) {
  size_t at = r->main_held.len;
  for (size_t w = 0; w < r->words; w++) vec_push(NULL, &r->main_held, held[w]);
  vec_foreach(&r->spec->shared, c)
    if (overlaps(path, r->paths[c])) {
      if (l->where.read) add_access(r, (int)c, (rc_access){-1, NULL, l, false, false, at});
      if (l->where.write) add_access(r, (int)c, (rc_access){-1, NULL, l, true, false, at});
    }
}

/* What a statement of main that runs while no thread runs does to the locks
 * main holds (held): its lock call takes one, its unlock call drops one, and
 * anything else that may unlock (a call of a function with a body, another
 * lock call, a call on a lock that is not one cell) drops them all. */
static void ordered_locks(run *r, const cfp_late *l, uint64_t *held) {
  int lock = l->forget ? -1 : bool_cell(r, access_path(r, &l->where));
  if (lock < 0) { /* forget, or a lock that is not one cell (&locks[i]): any may be unlocked */
    memset(held, 0, r->words * sizeof *held);
    return;
  }
  if (l->lock_op > 0) held[lock / 64] |= (uint64_t)1 << (lock % 64);
  else held[lock / 64] &= ~((uint64_t)1 << (lock % 64));
}

/* main's accesses while its threads run: plain (main's code is not
 * lowered), with the locks its top-level lock calls hold (from its first
 * statement on: a lock taken before the first start counts). An unlock of a
 * lock main does not hold while threads run is a plain write, which breaks
 * the lock. */
static void collect_main(run *r) {
  uint64_t *held = xcalloc(r->words, sizeof *held);
  vec_foreach(&r->program->late, i) {
    const cfp_late *l = &r->program->late.items[i];
    if (l->ordered) {
      ordered_locks(r, l, held);
      continue;
    }
    if (l->unknown) {
      reason(r,
             "main goes through a pointer at %s:%u while its threads run (a call or an access, maybe in a function it "
             "calls): what it accesses is not known",
             l->at.file, l->at.line);
      continue;
    }
    const char *path = access_path(r, &l->where);
    int lock = l->lock_op ? bool_cell(r, path) : -1;
    if (lock >= 0 && l->lock_op > 0) {
      held[lock / 64] |= (uint64_t)1 << (lock % 64);
      continue;
    }
    if (lock >= 0 && l->lock_op < 0 && bit(held, lock)) {
      held[lock / 64] &= ~((uint64_t)1 << (lock % 64));
      continue;
    }
    add_main_access(r, l, path, held);
    r->main_count++;
  }
  free(held);
}

/* ---------------------------------------------------------------- cells that never change */

/* A constant of the spec: a literal, or a negated one. */
static bool literal(const ir_expr *e, int64_t *out) {
  if (!e) return false;
  if (e->kind == IR_UNARY && e->op == OP_NEG && literal(e->a, out) && *out != INT64_MIN) return *out = -*out, true;
  if (e->kind == IR_BOOL || (e->kind == IR_INT && !e->big)) return *out = e->value, true;
  return false;
}

/* The drafted spec's initial value of each cell, where it is one value:
 * the declaration's, or the system's init predicate "cell == value". */
static void initial_values(run *r, bool *known, int64_t *value) {
  vec_foreach(&r->spec->shared, c) {
    const ast_shared *s = r->spec->shared.items[c], *whole = s->array ? s->array : s;
    const ir_expr *init = whole->init;
    if (s->array && whole->init_list.len > (size_t)s->element) init = whole->init_list.items[s->element];
    known[c] = literal(init, &value[c]);
  }
  VEC(const ir_expr *) todo = {0};
  vec_foreach(&r->spec->inits, i) vec_push(NULL, &todo, r->spec->inits.items[i]);
  while (todo.len) {
    const ir_expr *e = todo.items[--todo.len];
    int64_t v;
    if (e->kind == IR_BINARY && e->op == OP_AND) {
      vec_push(NULL, &todo, e->a);
      vec_push(NULL, &todo, e->b);
    } else if (e->kind == IR_BINARY && e->op == OP_EQ && e->a->kind == IR_NAME && e->a->ref == REF_SHARED &&
               literal(e->b, &v) && e->a->index >= 0 && (size_t)e->a->index < r->spec->shared.len) {
      known[e->a->index] = true, value[e->a->index] = v;
    }
  }
  vec_free(&todo);
}

/* Marks the cells some thread or main (while its threads run) may write. */
static void written_cells(run *r, bool *written) {
  vec_foreach(&r->threads, i) {
    const prog *p = r->threads.items[i].code;
    vec_foreach(&p->edges, k) {
      const prog_edge *e = &p->edges.items[k];
      if ((e->action == ACT_ASSIGN || e->action == ACT_HAVOC) && p->vars.items[e->var].kind == VAR_SHARED)
        written[p->vars.items[e->var].shared_index] = true;
    }
  }
  vec_foreach(&r->program->late, i) {
    const cfp_late *l = &r->program->late.items[i];
    if (!l->where.write || l->ordered) continue;
    const char *path = access_path(r, &l->where);
    vec_foreach(&r->spec->shared, c) written[c] |= overlaps(path, r->paths[c]);
  }
}

/* The cells that never change while the threads run, with their values:
 * with a drafted spec, whose initial values are the C program's when the
 * first thread starts (the initializers and main's constant writes before;
 * a write it cannot place leaves the cell without one), a cell no thread
 * writes and main does not write while they run keeps that value. Only when
 * nothing is in doubt: no reason so far (every thread lowered, main starts
 * them all), main starts threads once (no writes between two rounds), and
 * main and its callees never go through a pointer (a write the walker
 * cannot place). */
static void find_constants(run *r, bool *known, int64_t *value) {
  const cfp_function *m = cfp_function_named(r->program, "main");
  cfp_accesses reach = {0};
  bool pointer = m && cfp_reach(r->program, "main", &reach);
  vec_free(&reach);
  if (!r->out->drafted || r->out->reasons.len || !m || m->restarts || pointer) return;
  bool *written = xcalloc(r->spec->shared.len + 1, sizeof *written);
  initial_values(r, known, value);
  written_cells(r, written);
  vec_foreach(&r->spec->shared, c) known[c] &= !written[c];
  free(written);
}

/* ---------------------------------------------------------------- locks */

static const char *origin_text(run *r, const prog *p, prog_origin o) {
  const char *file = "";
  size_t line = 0;
  if (!prog_origin_line(p, o, &file, &line)) return "(unknown place)";
  return arena_printf(r->out->arena, "%s:%zu:%zu", file, line, prog_origin_column(p, o));
}

/* A bool cell is a lock when some thread acquires it and every change of
 * it is an acquire or a release by a thread that holds it; a cell acquired
 * somewhere whose discipline breaks is a reason. */
static void find_locks(run *r) {
  size_t n = r->spec->shared.len;
  bool *acquired = xcalloc(n + 1, sizeof *acquired);
  const char **broken = xcalloc(n + 1, sizeof *broken);
  vec_foreach(&r->threads, i) {
    const rc_thread *t = &r->threads.items[i];
    if (!t->code) continue;
    vec_foreach(&t->lk.lock_writes, k) {
      const lk_lock_write *w = &t->lk.lock_writes.items[k];
      if (w->kind == LK_ACQUIRE) acquired[w->cell] = true;
      if (w->kind == LK_BROKEN && !broken[w->cell]) broken[w->cell] = origin_text(r, t->code, w->at);
    }
  }
  for (size_t c = 0; c < n; c++)
    vec_foreach(&r->by_cell[c], k)
      if (r->by_cell[c].items[k].thread < 0 && r->by_cell[c].items[k].write && !broken[c]) {
        const cfp_span *at = &r->by_cell[c].items[k].late->at;
        broken[c] = arena_printf(r->out->arena, "%s:%u:%u (main, while its threads run)", at->file, at->line, at->col);
      }
  for (size_t c = 0; c < n; c++) {
    r->is_lock[c] = acquired[c] && !broken[c];
    if (r->is_lock[c]) vec_push(NULL, &r->locks, (int)c);
    if (acquired[c] && broken[c])
      layer1_reason(r,
             "lock %s: its discipline is not kept: %s changes it other than by an acquire or a release of a "
             "thread that holds it",
             r->paths[c], broken[c]);
  }
  free(acquired);
  free(broken);
}

/* ---------------------------------------------------------------- candidates */

static bool holds(const run *r, const rc_access *a, int lock) {
  if (a->thread < 0) return bit(&r->main_held.items[a->held], lock);
  return lk_holds(&r->threads.items[a->thread].lk, a->lk, lock);
}

/* Two accesses may run at the same time: by different threads, or by a
 * function that runs as two instances or more (each access of it then is
 * concurrent with itself too). */
static bool concurrent(const run *r, const rc_access *a, const rc_access *b) {
  if (a->thread != b->thread) return true;
  return a->thread >= 0 && r->threads.items[a->thread].instances >= 2;
}

/* A lock both hold, or -1. */
static int common_lock(const run *r, const rc_access *a, const rc_access *b) {
  vec_foreach(&r->locks, k)
    if (holds(r, a, r->locks.items[k]) && holds(r, b, r->locks.items[k])) return r->locks.items[k];
  return -1;
}

/* What the pairs of accesses of one cell show. */
typedef struct tally {
  size_t concurrent; /* pairs of concurrent accesses */
  size_t writing;    /* of them, with a write */
  size_t atomic;     /* of those, both synchronised */
  size_t locked;     /* of the others, with a common lock */
  int lock;          /* the common lock of every locked pair, or -1 (none, or not the same) */
  size_t races;      /* the rest: candidates */
} tally;

static void count_pair(const run *r, const rc_access *a, const rc_access *b, tally *t) {
  t->concurrent++;
  if (!a->write && !b->write) return;
  t->writing++;
  if (a->sync && b->sync) {
    t->atomic++;
    return;
  }
  int lock = common_lock(r, a, b);
  if (lock < 0) {
    t->races++;
    return;
  }
  t->lock = t->locked++ == 0 || t->lock == lock ? lock : -1;
}

static const char *locks_text(run *r, const rc_access *a) {
  strbuf b = {0};
  vec_foreach(&r->locks, k)
    if (holds(r, a, r->locks.items[k])) sbuf_printf(&b, "%s%s", b.len ? ", " : "", r->paths[r->locks.items[k]]);
  const char *text = arena_printf(r->out->arena, "%s", sbuf_str(&b));
  sbuf_free(&b);
  return text;
}

static races_access describe(run *r, const rc_access *a) {
  races_access d = {.write = a->write, .sync = a->sync, .file = "", .locks = locks_text(r, a)};
  if (a->thread < 0) {
    d.thread = "main";
    d.file = arena_strndup(r->out->arena, a->late->at.file, strlen(a->late->at.file));
    d.line = a->late->at.line, d.col = a->late->at.col;
    return d;
  }
  const rc_thread *t = &r->threads.items[a->thread];
  d.thread = arena_strndup(r->out->arena, t->function, strlen(t->function));
  size_t line = 0;
  const char *file = "";
  if (prog_origin_line(t->code, a->lk->at, &file, &line)) {
    d.file = arena_strndup(r->out->arena, file, strlen(file));
    d.line = (unsigned)line;
    d.col = (unsigned)prog_origin_column(t->code, a->lk->at);
  }
  return d;
}

/* Why a cell without candidates is race-free. */
static const char *how(run *r, const tally *t) {
  if (!t->concurrent) return "no two thread instances access it";
  if (!t->writing) return "only read while threads run";
  if (t->atomic == t->writing) return "every conflicting pair of accesses is atomic";
  if (!t->atomic && t->lock >= 0)
    return arena_printf(r->out->arena, "lock %s is held at every conflicting pair of accesses", r->paths[t->lock]);
  return "every conflicting pair of accesses is atomic or holds a common lock";
}

static void judge_cell(run *r, size_t c) {
  const rc_accesses *v = &r->by_cell[c];
  races_cell cell = {.cell = r->paths[c], .kind = RACES_CELL_FREE};
  tally t = {.lock = -1};
  for (size_t i = 0; i < v->len; i++)
    for (size_t j = i; j < v->len; j++) {
      if (!concurrent(r, &v->items[i], &v->items[j])) continue;
      size_t before = t.races;
      count_pair(r, &v->items[i], &v->items[j], &t);
      if (t.races > before) vec_push(NULL, &r->pairs, ((rc_pair){r->out->cells.len, &v->items[i], &v->items[j]}));
      if (t.races > before && before == 0)
        cell.first = describe(r, &v->items[i]), cell.second = describe(r, &v->items[j]);
    }
  if (t.races) cell.kind = RACES_CELL_CANDIDATE, cell.pairs = t.races, r->out->candidates++;
  else if (r->is_lock[c]) cell.kind = RACES_CELL_LOCK;
  else cell.how = how(r, &t);
  vec_push(NULL, &r->out->cells, cell);
}

/* A lock's own accesses are judged too: the models' are atomic, but a lock
 * a program makes itself (an atomic section that takes it, a plain store
 * that releases it) races on its own cell. */
static void judge_cells(run *r) {
  vec_foreach(&r->spec->shared, c)
    if (r->by_cell[c].len || r->is_lock[c]) judge_cell(r, c);
}

/* ---------------------------------------------------------------- the search layer */

/* Calls that start or join threads: the models of pthread_join and
 * pthread_create in a thread let it go on as if the other thread may still
 * run or had not started, behaviours C does not have. (abort and exit
 * need nothing: a run never takes their step, which C may always delay;
 * pthread_exit ends its thread.) For main (*main true), creating and
 * joining threads are allowed: the search runs main's creations and joins. */
static bool is_thread_call(const char *name, void *main) {
  static const char *const names[] = {"pthread_create", "pthread_join", "pthread_detach",
                                      "pthread_cancel", "thrd_create", "thrd_join", "thrd_exit", "thrd_detach",
                                      "CreateThread", "PsCreateSystemThread", "WaitForSingleObject",
                                      "WaitForMultipleObjects", "ExitThread", "kthread_run", "kthread_create",
                                      "kthread_stop"};
  if (*(const bool *)main && (strcmp(name, "pthread_create") == 0 || strcmp(name, "pthread_join") == 0)) return false;
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    if (strcmp(name, names[i]) == 0) return true;
  return false;
}

/* A thread call (is_thread_call) that function makes, or one it calls, or NULL. */
static const char *thread_call(const cfp_program *p, const char *function, bool main) {
  return cfp_reached_call(p, function, is_thread_call, &main);
}

static void mark_vars(const ir_expr *e, bool *vars) {
  if (!e) return;
  if (e->kind == IR_NAME && e->ref == REF_VAR && e->index >= 0) vars[e->index] = true;
  mark_vars(e->a, vars);
  mark_vars(e->b, vars);
  mark_vars(e->c, vars);
}

/* Does the prog read a parameter of its entry (the thread's argument,
 * whose value the search does not know)? */
static bool reads_argument(const prog *p) {
  bool *read = xcalloc(p->vars.len + 1, sizeof *read), reads = false;
  vec_foreach(&p->edges, k) mark_vars(p->edges.items[k].expr, read);
  vec_foreach(&p->vars, v) reads = reads || (p->vars.items[v].parameter && read[v]);
  free(read);
  return reads;
}

/* A cell some edge of p names whose initial value is not known, or NULL. */
static const char *unknown_cell(run *r, const prog *p, const bool *known) {
  bool *named = xcalloc(p->vars.len + 1, sizeof *named);
  vec_foreach(&p->edges, k) {
    const prog_edge *e = &p->edges.items[k];
    if (e->action == ACT_ASSIGN || e->action == ACT_HAVOC) named[e->var] = true;
    mark_vars(e->expr, named);
  }
  const char *unknown = NULL;
  vec_foreach(&p->vars, v) {
    const prog_var *x = &p->vars.items[v];
    if (!unknown && named[v] && x->kind == VAR_SHARED && !known[x->shared_index]) unknown = r->paths[x->shared_index];
  }
  free(named);
  return unknown;
}

/* The global (or static local, "f.x") whose part path is, and the steps
 * from it (arena); NULL when path names none. */
static const cfp_global *global_of(run *r, const char *path, cfp_step **steps, size_t *n) {
  vec_foreach(&r->program->statics, i)
    if (strcmp(r->program->statics.items[i]->name, path) == 0) return *n = 0, r->program->statics.items[i];
  size_t len = strcspn(path, ".[");
  const cfp_global *g = NULL;
  vec_foreach(&r->program->globals, i) {
    const char *name = r->program->globals.items[i]->name;
    if (strlen(name) == len && strncmp(name, path, len) == 0) g = r->program->globals.items[i];
  }
  *steps = arena_alloc(r->out->arena, (strlen(path) + 1) * sizeof **steps);
  *n = 0;
  for (const char *at = path + len; g && *at;) {
    size_t k = strcspn(at + 1, ".[]");
    if (*at == '.') (*steps)[(*n)++] = (cfp_step){arena_strndup(r->out->arena, at + 1, k), 0};
    else (*steps)[(*n)++] = (cfp_step){NULL, strtoll(at + 1, NULL, 10)};
    at += 1 + k + (*at == '[');
  }
  return g;
}

/* Each cell's value when main starts (C's initializers; a lock is free):
 * known[c] when the files give it. */
static void c_initial_values(run *r, bool *known, int64_t *value) {
  vec_foreach(&r->spec->shared, c) {
    cfp_step *steps = NULL;
    size_t n = 0;
    const cfp_global *g = global_of(r, r->paths[c], &steps, &n);
    const cfp_type *t = g ? g->type : NULL;
    for (size_t i = 0; t && i < n; i++) {
      if (steps[i].field) {
        const cfp_type *f = NULL;
        vec_foreach(&t->fields, k) if (strcmp(t->fields.items[k].name, steps[i].field) == 0) f = t->fields.items[k].type;
        t = f;
      } else {
        t = t->kind == CFP_ARRAY ? t->elem : NULL;
      }
    }
    cfp_value v = {CFP_UNKNOWN, 0};
    if (t && t->kind == CFP_LOCK) v = (cfp_value){CFP_KNOWN, 0};
    else if (t && g->defined) v = cfp_initial_value(g, cfp_leaf_of(g->type, steps, n));
    known[c] = v.kind == CFP_KNOWN;
    value[c] = t && t->kind == CFP_BOOL ? v.value != 0 : v.value;
  }
}

/* main lowered to run in the search, or NULL when it cannot run there as
 * C does: from its entry, with the cells at C's initial values (cinit), it
 * must not read its parameters, end the program or call other thread
 * functions. */
static prog *main_for_search(run *r, const bool *known) {
  if (thread_call(r->program, "main", true) || !cfe_has_function(r->unit, "main")) return NULL;
  prog *m = cfe_lower_owning(r->unit, r->spec, "main", CFE_INTS_C);
  if (m && !atomicity_split(m, &r->lower)) prog_free(m), m = NULL;
  if (m && (reads_argument(m) || unknown_cell(r, m, known))) prog_free(m), m = NULL;
  return m;
}

/* Why the search cannot run the threads as C does, or NULL. Without main
 * it starts them all at once from the cells' initial values (when the first
 * thread starts), so main must change nothing while they run and surely
 * start each thread (no if or early return around it). With main they
 * start when main has run all the creations counted (a run that skips one
 * never starts them). Either way the counts must be known, and the threads
 * must not start, join or end threads. */
static const char *search_blocker(run *r, const bool *known, const prog *main_code) {
  if (!r->out->drafted && r->program->sites.len)
    return "a specification is given and main starts threads (with a spec, the search runs the spec's system when "
           "main starts none)";
  if (r->out->reasons.len > r->layer1_only) return "the program is not one the search models (the reasons below)";
  vec_foreach(&r->program->late, i) {
    const cfp_late *l = &r->program->late.items[i];
    if (!main_code && (l->lock_op || l->forget || (!l->ordered && l->where.write)))
      return arena_printf(r->out->arena,
                          "main changes %s at %s:%u while its threads may run, or takes a lock, and main "
                          "cannot run in the search",
                          access_path(r, &l->where), l->at.file, l->at.line);
  }
  vec_foreach(&r->threads, i) {
    const rc_thread *t = &r->threads.items[i];
    const char *call = thread_call(r->program, t->function, false);
    if (t->instances == UNBOUNDED || (t->unsure && !main_code))
      return arena_printf(r->out->arena, "main may not start every instance of %s it is counted for", t->function);
    if (call) return arena_printf(r->out->arena, "thread %s calls %s", t->function, call);
    if (reads_argument(t->code)) return arena_printf(r->out->arena, "thread %s reads its argument", t->function);
    const char *unknown = unknown_cell(r, t->code, known);
    if (unknown) return arena_printf(r->out->arena, "%s has no known value when the threads start", unknown);
  }
  return NULL;
}

/* The thread creations main runs (every site is main's, each sure, with a known count). */
static int64_t creations(const run *r) {
  int64_t n = 0;
  vec_foreach(&r->program->sites, i) n = add_counts(n, site_count(&r->program->sites.items[i]));
  return n;
}

/* Layer 2 over the candidates (hunt.h), when search_blocker allows it. */
static void search_candidates(run *r) {
  size_t n = r->spec->shared.len;
  bool *known = xcalloc(n + 1, sizeof *known);
  int64_t *value = xcalloc(n + 1, sizeof *value);
  int *result_cell = xcalloc(n + 1, sizeof *result_cell);
  c_initial_values(r, known, value);
  prog *main_code = r->out->drafted && r->out->reasons.len == r->layer1_only ? main_for_search(r, known) : NULL;
  if (!main_code) initial_values(r, known, value); /* the threads start at the values when the first one starts */
  const char *blocker = search_blocker(r, known, main_code);
  if (blocker) r->out->search = arena_printf(r->out->arena, "not run: %s", blocker);
  size_t k = 0;
  for (size_t c = 0; c < n; c++) result_cell[c] = r->by_cell[c].len || r->is_lock[c] ? (int)k++ : -1;
  hunt_thread *threads = xcalloc(r->threads.len + 1, sizeof *threads);
  vec_foreach(&r->threads, i) {
    const rc_thread *t = &r->threads.items[i];
    threads[i] = (hunt_thread){t->function, t->code, t->instances};
  }
  hunt_request rq = {r->unit,    threads,       r->threads.len, n,           r->paths, value, result_cell,
                     SEARCH_STATES, main_code, creations(r)};
  if (!blocker) hunt_run(&rq, r->out);
  if (!blocker && !r->out->drafted)
    r->out->search = arena_printf(r->out->arena, "%s (the threads as the spec's system runs them, from its initial "
                                  "values)", r->out->search);
  prog_free(main_code);
  free(threads);
  free(result_cell);
  free(value);
  free(known);
}

/* ---------------------------------------------------------------- the proof layer */

/* The spec thread function implements (its instances into *count), or -1
 * when it implements none or several. */
static int spec_thread_of(const run *r, const char *function, int64_t *count) {
  int found = -1;
  vec_foreach(&r->spec->threads, i) {
    if (!r->rq->function[i] || strcmp(r->rq->function[i], function) != 0) continue;
    if (found >= 0) return -1;
    found = (int)i;
  }
  *count = spec_instances(r, found);
  return found;
}

/* With --for-all N, a system line of spec thread t runs N instances: the
 * proof is for every number of them (athread check proves that N applies). */
static bool counted_by_for_all(const run *r, int t) {
  vec_foreach(&r->spec->instances, k) {
    const ast_instance *in = r->spec->instances.items[k];
    if (in->thread_index == t && r->rq->for_all && in->count && in->count->kind == IR_NAME &&
        strcmp(in->count->text, r->rq->for_all) == 0)
      return true;
  }
  return false;
}

/* The proof layer's premise (proof.h): the C program runs the spec's
 * threads and nothing else changes a cell. Why not, or NULL. */
static const char *proof_blocker(run *r) {
  if (r->out->drafted) return "no specification: the proof needs the abstract threads (athread races SPEC FILES)";
  vec_foreach(&r->threads, i) {
    const rc_thread *t = &r->threads.items[i];
    int64_t count = 0;
    if (!t->code) return arena_printf(r->out->arena, "thread %s is not lowered", t->function);
    int s = spec_thread_of(r, t->function, &count);
    if (s < 0)
      return arena_printf(r->out->arena, "thread %s implements no thread of the specification, or several",
                          t->function);
    if (t->instances > count && !counted_by_for_all(r, s))
      return arena_printf(r->out->arena, "main may run %s more often than the system's %lld instance%s%s",
                          t->function, (long long)count, count == 1 ? "" : "s",
                          r->rq->for_all ? "" : " (--for-all N proves the pairs for every number of instances)");
  }
  vec_foreach(&r->spec->shared, c)
    vec_foreach(&r->by_cell[c], k)
      if (r->by_cell[c].items[k].thread < 0 && r->by_cell[c].items[k].write)
        return arena_printf(r->out->arena, "main writes %s while its threads run: no abstract thread says what it does",
                            r->paths[c]);
  return NULL;
}

static proof_access proof_access_of(const run *r, const rc_access *x) {
  const prog *code = r->threads.items[x->thread].code;
  return (proof_access){x->thread, code->edges.items[x->lk->edge].from};
}

/* The candidates left (neither access main's: main has no abstract thread). */
static size_t proof_pairs(const run *r, proof_pair *out) {
  size_t n = 0;
  vec_foreach(&r->pairs, k) {
    const rc_pair *c = &r->pairs.items[k];
    if (r->out->cells.items[c->cell].kind != RACES_CELL_CANDIDATE || c->a->thread < 0 || c->b->thread < 0) continue;
    out[n++] = (proof_pair){proof_access_of(r, c->a), proof_access_of(r, c->b), false};
  }
  return n;
}

/* Cells whose every candidate pair the layer proved become race-free; how
 * names the proof (basis: what it rests on besides athread check). */
static void mark_proved(run *r, const proof_pair *proved, const char *basis) {
  bool *open = xcalloc(r->out->cells.len + 1, sizeof *open);
  size_t n = 0;
  vec_foreach(&r->pairs, k) {
    const rc_pair *c = &r->pairs.items[k];
    if (r->out->cells.items[c->cell].kind != RACES_CELL_CANDIDATE) continue;
    if (c->a->thread < 0 || c->b->thread < 0 || !proved[n++].proved) open[c->cell] = true;
  }
  vec_foreach(&r->out->cells, i) {
    races_cell *cell = &r->out->cells.items[i];
    if (cell->kind != RACES_CELL_CANDIDATE || open[i]) continue;
    cell->kind = RACES_CELL_FREE;
    cell->how = arena_printf(r->out->arena,
                             "proved by the abstract threads: its %zu candidate pair%s of accesses never run at once "
                             "(athread check: every thread conforms and the system is safe; %s)",
                             cell->pairs, cell->pairs == 1 ? "" : "s", basis);
    r->out->candidates--, r->out->proved++;
  }
  free(open);
}

/* Layer 3 over the candidates the search left (proof.h). */
static void prove_candidates(run *r) {
  if (!r->out->candidates) return;
  const char *blocker = proof_blocker(r);
  if (blocker) {
    r->out->proof = arena_printf(r->out->arena, "not used: %s", blocker);
    return;
  }
  proof_thread *threads = xcalloc(r->threads.len + 1, sizeof *threads);
  vec_foreach(&r->threads, i) {
    int64_t count;
    threads[i] = (proof_thread){r->threads.items[i].code, spec_thread_of(r, r->threads.items[i].function, &count)};
  }
  proof_pair *pairs = xcalloc(r->pairs.len + 1, sizeof *pairs);
  proof_request rq = {r->spec, r->rq, threads, r->threads.len, pairs, proof_pairs(r, pairs), r->rq->for_all, NULL};
  r->out->proof = proof_run(&rq, r->out->arena);
  mark_proved(r, pairs, rq.basis);
  free(pairs);
  free(threads);
}

/* ---------------------------------------------------------------- entry */

static void report_threads(run *r) {
  vec_foreach(&r->threads, i) {
    const rc_thread *t = &r->threads.items[i];
    const char *f = arena_strndup(r->out->arena, t->function, strlen(t->function));
    races_thread d = {f, t->instances, t->code != NULL, t->code ? t->lk.accesses.len : 0};
    vec_push(NULL, &r->out->threads, d);
  }
}

static void analyse(run *r) {
  size_t n = r->spec->shared.len;
  r->paths = arena_alloc(r->out->arena, (n + 1) * sizeof *r->paths);
  for (size_t c = 0; c < n; c++) r->paths[c] = cell_path(r, c);
  r->is_lock = xcalloc(n + 1, sizeof *r->is_lock);
  r->words = n / 64 + 1;
  r->by_cell = xcalloc(n + 1, sizeof *r->by_cell);
  find_threads(r);
  if (!r->threads.len) reason(r, "no thread to analyse");
  lower_threads(r);
  bool *known = xcalloc(n + 1, sizeof *known);
  int64_t *value = xcalloc(n + 1, sizeof *value);
  find_constants(r, known, value);
  lk_constants consts = {known, value};
  analyse_threads(r, &consts);
  free(known);
  free(value);
  collect_threads(r);
  collect_main(r);
  find_locks(r);
  judge_cells(r);
  if (r->out->candidates) search_candidates(r);
  prove_candidates(r);
  report_threads(r);
  r->out->main_accesses = r->main_count;
  r->out->verdict = r->out->races                                   ? RACES_FOUND
                    : r->out->candidates || r->out->reasons.len ? RACES_UNKNOWN
                                                                  : RACES_FREE;
}

static void run_free(run *r) {
  vec_foreach(&r->threads, i) {
    lk_free(&r->threads.items[i].lk);
    prog_free(r->threads.items[i].code);
  }
  vec_free(&r->threads);
  vec_free(&r->main_held);
  vec_free(&r->locks);
  vec_free(&r->pairs);
  for (size_t c = 0; r->by_cell && c < r->spec->shared.len; c++) vec_free(&r->by_cell[c]);
  free(r->by_cell);
  free(r->is_lock);
  cfe_free(r->unit);
  cfp_free(r->program);
  if (r->lower_out) fclose(r->lower_out);
  free(r->lower_text);
}

/* Parses the files for the front end, its messages into r->lower (a thread
 * it cannot lower is a reason, not an input error); when it cannot read
 * them, again with sink, which reports why. */
static bool parse_for_lowering(run *r, diag_sink *sink) {
  r->lower_out = open_memstream(&r->lower_text, &r->lower_len);
  r->lower = (diag_sink){.out = r->lower_out};
  r->unit = cfe_parse(&r->lower, r->rq->files, r->rq->file_count, &r->rq->cpp);
  if (r->unit) return true;
  cfe_unit *again = cfe_parse(sink, r->rq->files, r->rq->file_count, &r->rq->cpp);
  if (again) diag_error_at(sink, "athread", "the C front end cannot read the files: %s", lower_message(r, 0));
  cfe_free(again);
  return false;
}

/* libclang's reading of the files; on an error the front end parses them
 * again to report it (with the source line and a caret). */
static cfp_program *read_program(diag_sink *sink, const races_request *rq) {
  diag_sink quiet = {0};
  cfp_options o = {rq->cpp.cpp_flags, rq->cpp.cpp_flag_count, rq->cpp.include_dir};
  cfp_program *p = cfp_read(&quiet, rq->files, rq->file_count, &o);
  if (p) return p;
  cfe_unit *u = cfe_parse(sink, rq->files, rq->file_count, &rq->cpp);
  if (u) diag_error_at(sink, "athread", "%s", quiet.first_error);
  cfe_free(u);
  return NULL;
}

/* athread skeleton's draft of the program, with main's globals too (main
 * runs in the search), parsed and checked; NULL after reporting why (it
 * starts no thread). */
static ast_spec *draft(diag_sink *sink, const cfp_program *p, const races_request *rq) {
  strbuf text = {0};
  ast_spec *spec = NULL;
  if (skel_write_with_main(sink, p, rq->files, rq->file_count, true, &text)) {
    diag_source *src = diag_source_from_string(sink, "(the drafted spec)", sbuf_str(&text), text.len);
    int before = sink->errors;
    spec = src ? spec_parse_source(src) : NULL;
    spec_options none = {0};
    if (spec && (sink->errors > before || !spec_check(spec, rq->set ? rq->set : &none))) spec_free(spec), spec = NULL;
  }
  sbuf_free(&text);
  return spec;
}

bool races_run(diag_sink *sink, ast_spec *spec, const races_request *rq, races_result *out) {
  memset(out, 0, sizeof *out);
  out->arena = arena_new();
  run r = {.sink = sink, .spec = spec, .rq = rq, .out = out};
  r.program = read_program(sink, rq);
  if (r.program && !spec) r.spec = out->drafted = draft(sink, r.program, rq);
  bool ok = r.program && r.spec && parse_for_lowering(&r, sink);
  if (ok) analyse(&r);
  run_free(&r);
  return ok;
}

void races_free(races_result *out) {
  vec_free(&out->threads);
  vec_free(&out->cells);
  vec_free(&out->reasons);
  spec_free(out->drafted);
  arena_free(out->arena);
}

const char *races_verdict_text(races_verdict v) {
  return v == RACES_FREE ? "no data race" : v == RACES_FOUND ? "data race" : "unknown";
}
