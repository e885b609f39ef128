/* compose/model-compiled.c -- writes a product's successor function and
 * check as C, and compiles and loads them.
 *
 * Each function below writes the C of one piece of model-product.c's
 * interpreter, in its order: an expression as eval computes it, an edge as
 * take_edge takes it (a guard, then the assignments one inside the other,
 * each write undone after the successors it leads to), a relation as its
 * plans solve it, a state's checks as checks_hold tests them. The C reads
 * the state before the step as `cur`, the one being built as `nxt`, the
 * running instance's tid as `tid`, and records the first fault in *fault.
 */
#define _DEFAULT_SOURCE /* mkdtemp */
#include "model-compiled.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../core/arena.h"
#include "../spec-lang/semantics.h"
#include "ir-arith-text.h" /* core_ir_arith_h: the text of core/ir-arith.h */

extern char **environ;

/* ---------------------------------------------------------------- writing C */

typedef struct gen {
  const compiled_shape *sh;
  strbuf *out;
  int depth; /* nesting of the choices made so far: names their variables */
} gen;

static void put_literal(gen *g, int64_t v) {
  if (v == INT64_MIN) sbuf_puts(g->out, "(-INT64_MAX - 1)");
  else sbuf_printf(g->out, "INT64_C(%" PRId64 ")", v);
}

static void put_expr(gen *g, const ir_expr *e);

/* op on a and b (NULL: 0, for a unary operator) through ir_arith, whose
 * fault ar_ records (arith). */
static void put_arith(gen *g, ir_op op, const ir_expr *a, const ir_expr *b) {
  sbuf_printf(g->out, "ar_((ir_op)%d, ", (int)op);
  put_expr(g, a);
  sbuf_puts(g->out, ", ");
  if (b) put_expr(g, b);
  else sbuf_puts(g->out, "0");
  sbuf_puts(g->out, ", fault)");
}

/* The logical operators short-circuit, as in eval_binary. */
static void put_binary(gen *g, const ir_expr *e) {
  if (e->op != OP_AND && e->op != OP_OR && e->op != OP_IMPLIES) {
    put_arith(g, e->op, e->a, e->b);
    return;
  }
  sbuf_puts(g->out, e->op == OP_IMPLIES ? "((int64_t)(!(" : "((int64_t)((");
  put_expr(g, e->a);
  sbuf_puts(g->out, e->op == OP_AND ? ") && (" : ") || (");
  put_expr(g, e->b);
  sbuf_puts(g->out, ")))");
}

/* An element, as element() reads it: 0 outside its array. */
static void put_element(gen *g, const ir_expr *e) {
  const char *values = e->primed ? "nxt" : "cur";
  if (e->cell >= 0) {
    int64_t k = e->cell - e->index;
    if (k < 0 || k >= e->extent) put_literal(g, 0);
    else sbuf_printf(g->out, "%s[%d]", values, e->cell);
    return;
  }
  sbuf_printf(g->out, "el_(%s + %d, ", values, e->index);
  put_expr(g, e->a);
  sbuf_printf(g->out, ", %" PRId64 ")", (int64_t)e->extent);
}

static void put_count(gen *g, const ir_expr *e) {
  int first = g->sh->first[e->index];
  if (g->sh->counted[e->index]) {
    sbuf_printf(g->out, "cur[%d]", first + e->state_index);
    return;
  }
  const ast_instance *line = NULL;
  vec_foreach(&g->sh->spec->instances, i)
    if (g->sh->spec->instances.items[i]->thread_index == e->index) line = g->sh->spec->instances.items[i];
  sbuf_printf(g->out, "cnt_(cur + %d, %" PRId64 ", %d)", first, line ? line->count_value : 0, e->state_index);
}

static void put_expr(gen *g, const ir_expr *e) {
  switch (e->kind) {
  case IR_BOOL:
  case IR_INT: put_literal(g, e->value); return;
  case IR_NAME:
    if (e->ref == REF_CONST) put_literal(g, g->sh->spec->consts.items[e->index]->value);
    else sbuf_printf(g->out, "%s[%d]", e->primed ? "nxt" : "cur", e->index);
    return;
  case IR_TID: sbuf_puts(g->out, "tid"); return;
  case IR_COUNT: put_count(g, e); return;
  case IR_AT:
    sbuf_printf(g->out, "((int64_t)(cur[%d + (", g->sh->first[e->index]);
    put_expr(g, e->a);
    sbuf_printf(g->out, ") - 1] == %d))", e->state_index);
    return;
  case IR_UNARY: put_arith(g, e->op, e->a, NULL); return;
  case IR_BINARY: put_binary(g, e); return;
  case IR_ITE:
    sbuf_puts(g->out, "((");
    put_expr(g, e->a);
    sbuf_puts(g->out, ") ? (");
    put_expr(g, e->b);
    sbuf_puts(g->out, ") : (");
    put_expr(g, e->c);
    sbuf_puts(g->out, "))");
    return;
  case IR_INDEX: put_element(g, e); return;
  case IR_QUANT: put_expr(g, e->lowered); return;
  }
  put_literal(g, 0);
}

/* ---------------------------------------------------------------- successors */

/* " && (e)" after a condition (" && !(e)" with negation "!"), or nothing
 * for e NULL (true). */
static void put_and(gen *g, const char *negation, const ir_expr *e) {
  if (!e) return;
  sbuf_printf(g->out, " && %s(", negation);
  put_expr(g, e);
  sbuf_puts(g->out, ")");
}

/* The instance in slot s moves and the successor goes to fn, then the move
 * is undone (emit_successor). */
static void put_move(gen *g, const ast_edge *e, bool counted) {
  if (counted)
    sbuf_printf(g->out, "{ nxt[s]--; nxt[s + %d]++; fn(ctx, &step, nxt); nxt[s]++; nxt[s + %d]--; }\n",
                e->to_index - e->from_index, e->to_index - e->from_index);
  else
    sbuf_printf(g->out, "{ int64_t from_ = nxt[s]; nxt[s] = %d; fn(ctx, &step, nxt); nxt[s] = from_; }\n", e->to_index);
}

/* Each value of cell c%d (declared by the caller) in its domain, or the one
 * that x%d names: then what follows, and the cell's old value back. */
static void put_choice_open(gen *g, const ir_expr *value) {
  int d = g->depth;
  if (value) {
    sbuf_printf(g->out, "{ int64_t x%d = ", d);
    put_expr(g, value);
    sbuf_printf(g->out, "; if (in_(c%d, x%d)) { nxt[c%d] = x%d;\n", d, d, d, d);
  } else {
    sbuf_printf(g->out, "for (int64_t x%d = lo_[c%d];; x%d++) { nxt[c%d] = x%d;\n", d, d, d, d, d);
  }
  g->depth++;
}

static void put_choice_close(gen *g, bool value) {
  int d = --g->depth;
  if (value) sbuf_printf(g->out, "nxt[c%d] = cur[c%d]; } }\n", d, d);
  else sbuf_printf(g->out, "if (x%d == hi_[c%d]) break; } nxt[c%d] = cur[c%d];\n", d, d, d, d);
}

/* Assignment k on (assign_from): its cell, then its value or values. */
static void put_assigns(gen *g, const ast_edge *e, size_t k, bool counted) {
  if (k == e->assigns.len) {
    put_move(g, e, counted);
    return;
  }
  const ast_assign *as = &e->assigns.items[k];
  const ir_expr *t = as->target;
  int d = g->depth;
  bool dynamic = t->kind == IR_INDEX && t->cell < 0;
  if (dynamic) { /* target_cell: outside the array, no successor */
    sbuf_printf(g->out, "{ int64_t k%d = ", d);
    put_expr(g, t->a);
    sbuf_printf(g->out, "; if (k%d >= 0 && k%d < %" PRId64 ") { int c%d = %d + (int)k%d;\n", d, d, (int64_t)t->extent,
                d, t->index, d);
  } else {
    sbuf_printf(g->out, "{ const int c%d = %d;\n", d, as->var_index);
  }
  put_choice_open(g, as->value);
  put_assigns(g, e, k + 1, counted);
  put_choice_close(g, as->value != NULL);
  sbuf_puts(g->out, dynamic ? "} }\n" : "}\n");
}

/* Step i of plan k on (run_steps); after the last, the plan's rest and that
 * no earlier plan holds (seen_before). */
static void put_plan_steps(gen *g, const sem_plans *ps, size_t k, size_t i, const ast_edge *e, bool counted) {
  const sem_plan *pl = &ps->items[k];
  if (i == pl->step_count) {
    sbuf_puts(g->out, "if (1");
    put_and(g, "", pl->rest);
    for (size_t j = 0; j < k; j++) put_and(g, "!", ps->items[j].test);
    sbuf_puts(g->out, ") ");
    put_move(g, e, counted);
    return;
  }
  const sem_step *st = &pl->steps[i];
  sbuf_printf(g->out, "{ const int c%d = %d;\n", g->depth, st->var);
  put_choice_open(g, st->def);
  put_plan_steps(g, ps, k, i + 1, e, counted);
  put_choice_close(g, st->def != NULL);
  sbuf_puts(g->out, "}\n");
}

static void put_edge(gen *g, const ast_edge *e, int index, bool counted) {
  sbuf_printf(g->out, "step.edge = %d;\n", index);
  if (e->kind == EDGE_RELATION) {
    const sem_plans *ps = sem_edge_plans(e);
    for (size_t k = 0; k < ps->count; k++) {
      sbuf_puts(g->out, "if (1");
      put_and(g, "", ps->items[k].pre);
      sbuf_puts(g->out, ") {\n");
      put_plan_steps(g, ps, k, 0, e, counted);
      sbuf_puts(g->out, "}\n");
    }
    return;
  }
  sbuf_puts(g->out, "if (1");
  put_and(g, "", e->guard);
  sbuf_puts(g->out, ") {\n");
  put_assigns(g, e, 0, counted);
  sbuf_puts(g->out, "}\n");
}

/* The edges out of control state q, in order (take_edges_from). */
/* The C of thread t's edges from state q, in the spec's order: order lists
 * t's edges by source state, those from q from at[q] to at[q + 1]. */
static void put_edges_from(gen *g, const ast_thread *t, const size_t *order, const size_t *at, size_t q, bool counted) {
  for (size_t k = at[q]; k < at[q + 1]; k++) put_edge(g, t->edges.items[order[k]], (int)order[k], counted);
}

/* t's edges by source state (a counting sort, so that writing a thread of
 * many states takes time in proportion to its edges): fills order and at
 * as put_edges_from reads them. */
static void sort_edges(const ast_thread *t, size_t *order, size_t *at) {
  vec_foreach(&t->edges, k) at[t->edges.items[k]->from_index + 1]++;
  vec_foreach(&t->states, q) at[q + 1] += at[q];
  size_t *next = xmalloc((t->states.len + 1) * sizeof *next);
  memcpy(next, at, (t->states.len + 1) * sizeof *next);
  vec_foreach(&t->edges, k) order[next[t->edges.items[k]->from_index]++] = k;
  free(next);
}

static void put_line_steps(gen *g, const ast_instance *line) {
  const ast_thread *t = g->sh->spec->threads.items[line->thread_index];
  int first = g->sh->first[line->thread_index];
  size_t *order = xmalloc((t->edges.len + 1) * sizeof *order), *at = xcalloc(t->states.len + 1, sizeof *at);
  sort_edges(t, order, at);
  if (g->sh->counted[line->thread_index]) {
    vec_foreach(&t->states, q) {
      sbuf_printf(g->out, "if (cur[%d] != 0) { s = %d; step.slot = s; tid = 0;\n", first + (int)q, first + (int)q);
      put_edges_from(g, t, order, at, q, true);
      sbuf_puts(g->out, "}\n");
    }
  } else {
    sbuf_printf(g->out,
                "for (int i = 0; i < %" PRId64 "; i++) { s = %d + i; step.slot = s; tid = INT64_C(%" PRId64
                ") + i; switch (cur[s]) {\n",
                line->count_value, first, line->first_tid);
    vec_foreach(&t->states, q) {
      sbuf_printf(g->out, "case %zu: {\n", q);
      put_edges_from(g, t, order, at, q, false);
      sbuf_puts(g->out, "} break;\n");
    }
    sbuf_puts(g->out, "default: break; } }\n");
  }
  free(order);
  free(at);
}

static void put_checks(gen *g, const sem_checks *cs) {
  for (size_t i = 0; i < cs->len; i++) {
    sbuf_puts(g->out, "if (!(");
    put_expr(g, cs->items[i].holds);
    sbuf_puts(g->out, ")) return 0;\n");
  }
}

/* The checks of one system line's instances (thread_ok). */
static void put_line_checks(gen *g, const ast_instance *line) {
  const ast_thread *t = g->sh->spec->threads.items[line->thread_index];
  int first = g->sh->first[line->thread_index];
  bool counted = g->sh->counted[line->thread_index];
  if (!counted)
    sbuf_printf(g->out,
                "for (int i = 0; i < %" PRId64 "; i++) { tid = INT64_C(%" PRId64 ") + i; switch (cur[%d + i]) {\n",
                line->count_value, line->first_tid, first);
  vec_foreach(&t->states, q) {
    const sem_checks *cs = sem_state_checks(t->states.items[q]);
    if (cs->len == 0) continue;
    if (counted) sbuf_printf(g->out, "if (cur[%d] > 0) { tid = 0;\n", first + (int)q);
    else sbuf_printf(g->out, "case %zu: {\n", q);
    put_checks(g, cs);
    sbuf_puts(g->out, counted ? "}\n" : "} break;\n");
  }
  if (!counted) sbuf_puts(g->out, "default: break; } }\n");
}

/* ---------------------------------------------------------------- the whole */

static const char prelude[] = "struct mdl_step { int slot; int edge; };\n"
                              "typedef void (*next_fn_)(void *ctx, const struct mdl_step *step, const int64_t *dst);\n"
                              "static inline int64_t ar_(ir_op op, int64_t a, int64_t b, int *fault) {\n"
                              "  int64_t r = 0;\n"
                              "  if (ir_arith(op, a, b, &r) != IR_FAULT_NONE && *fault == 0) *fault = 1;\n"
                              "  return r;\n"
                              "}\n"
                              "static inline int64_t el_(const int64_t *base, int64_t k, int64_t extent) {\n"
                              "  return k < 0 || k >= extent ? 0 : base[k];\n"
                              "}\n"
                              "static inline int64_t cnt_(const int64_t *first, int64_t n, int64_t q) {\n"
                              "  int64_t c = 0;\n"
                              "  for (int64_t i = 0; i < n; i++) c += first[i] == q;\n"
                              "  return c;\n"
                              "}\n";

/* The slots' domains, as in_domain reads them. */
static void put_domains(gen *g) {
  const char *names[] = {"lo_", "hi_", "bd_"};
  for (int k = 0; k < 3; k++) {
    sbuf_printf(g->out, "static const int64_t %s[%zu] = {", names[k], g->sh->width + 1);
    for (size_t i = 0; i < g->sh->width; i++) {
      const mdl_slot *s = &g->sh->slots[i];
      if (k < 2) put_literal(g, k == 0 ? s->lo : s->hi);
      else sbuf_puts(g->out, s->bounded ? "1" : "0");
      sbuf_puts(g->out, ", ");
    }
    sbuf_puts(g->out, "0};\n");
  }
  sbuf_puts(g->out, "static inline int in_(int c, int64_t x) { return !bd_[c] || (x >= lo_[c] && x <= hi_[c]); }\n");
}

void compiled_source(const compiled_shape *sh, strbuf *out) {
  gen g = {sh, out, 0};
  sbuf_puts(out, "/* written by athread (compose/model-compiled.c) */\n");
  sbuf_putn(out, (const char *)core_ir_arith_h, core_ir_arith_h_len);
  sbuf_puts(out, prelude);
  put_domains(&g);
  sbuf_puts(out, "void athread_next_all(const int64_t *src, int64_t *dst, next_fn_ fn, void *ctx, int *fault) {\n"
                 "const int64_t *cur = src; int64_t *nxt = dst; struct mdl_step step; int s; int64_t tid;\n");
  vec_foreach(&sh->spec->instances, i) put_line_steps(&g, sh->spec->instances.items[i]);
  sbuf_puts(out, "(void)s; (void)tid; (void)step; (void)fault;\n}\n");
  sbuf_puts(out, "int athread_check(const int64_t *st, int *fault) {\n"
                 "const int64_t *cur = st, *nxt = st; int64_t tid = 0;\n");
  vec_foreach(&sh->spec->instances, i) put_line_checks(&g, sh->spec->instances.items[i]);
  sbuf_puts(out, "tid = 0;\n");
  put_checks(&g, sem_system_checks(sh->spec));
  sbuf_puts(out, "(void)nxt; (void)tid; (void)fault;\nreturn 1;\n}\n");
}

/* ---------------------------------------------------------------- compiling and loading */

typedef void (*next_all_fn)(const int64_t *src, int64_t *dst, mdl_next_fn fn, void *ctx, int *fault);
typedef int (*check_fn)(const int64_t *state, int *fault);

struct compiled_model {
  void *handle;         /* the loaded object */
  next_all_fn next_all; /* athread_next_all */
  check_fn check;       /* athread_check */
  size_t width;         /* slots in a state */
};

/* The most C a model is compiled from: the code is one function, and the
 * compiler's time grows with its square (gcc -O2: 0.3 s for 47 KiB, 2.1 s
 * for 145 KiB, minutes for a megabyte). A larger model stays interpreted. */
#define MAX_SOURCE_BYTES (64 * 1024)

struct compiled_job {
  char dir[4096];    /* a fresh directory: the source, the object, the compiler's own files */
  char object[4200]; /* dir/model.so */
  const char *cc;    /* the compiler's name */
  pid_t pid;         /* the compiler, leader of a process group of its own; 0 once it has exited */
  int status;        /* how it exited */
  size_t width;      /* slots in a state */
};

static bool write_file(const char *path, const strbuf *text) {
  FILE *f = fopen(path, "w");
  if (!f) return false;
  bool ok = fwrite(sbuf_str(text), 1, text->len, f) == text->len;
  return fclose(f) == 0 && ok;
}

/* environ with TMPDIR replaced by tmpdir ("TMPDIR=..."), so that the
 * compiler's temporary files go where compiled_cancel removes them. Free
 * the array only: its strings are borrowed. */
static char **environment_with(char *tmpdir) {
  size_t n = 0;
  while (environ[n]) n++;
  char **env = xcalloc(n + 2, sizeof *env);
  size_t k = 0;
  for (size_t i = 0; i < n; i++)
    if (strncmp(environ[i], "TMPDIR=", 7) != 0) env[k++] = environ[i];
  env[k] = tmpdir;
  return env;
}

/* Starts the compiler on source, its output thrown away, in a process group
 * of its own (which compiled_cancel stops whole, and which the terminal's
 * Ctrl-C does not reach: the search stops it). False when it did not start. */
static bool spawn_compiler(compiled_job *j, const char *source) {
  posix_spawn_file_actions_t io;
  posix_spawn_file_actions_init(&io);
  posix_spawn_file_actions_addopen(&io, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&io, 2, "/dev/null", O_WRONLY, 0);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attr, 0);
  char *argv[] = {(char *)j->cc, "-std=c11", "-O2", "-fPIC", "-shared", "-w", "-o", j->object, (char *)source, NULL};
  char tmpdir[4200];
  snprintf(tmpdir, sizeof tmpdir, "TMPDIR=%s", j->dir);
  char **env = environment_with(tmpdir);
  bool spawned = posix_spawnp(&j->pid, j->cc, &io, &attr, argv, env) == 0;
  free(env);
  posix_spawnattr_destroy(&attr);
  posix_spawn_file_actions_destroy(&io);
  return spawned;
}

/* Removes dir and the files in it. */
static void remove_dir(const char *dir) {
  DIR *d = opendir(dir);
  struct dirent *e;
  char path[8300];
  while (d && (e = readdir(d)))
    if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
      snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
      unlink(path);
    }
  if (d) closedir(d);
  rmdir(dir);
}

static compiled_model *load(const char *object, char *why, size_t why_size) {
  void *h = dlopen(object, RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    snprintf(why, why_size, "loading the compiled model failed: %s", dlerror());
    return NULL;
  }
  compiled_model *c = xcalloc(1, sizeof *c);
  c->handle = h;
  *(void **)&c->next_all = dlsym(h, "athread_next_all"); /* POSIX's way to take a function from dlsym */
  *(void **)&c->check = dlsym(h, "athread_check");
  if (c->next_all && c->check) return c;
  snprintf(why, why_size, "the compiled model lacks athread_next_all or athread_check");
  compiled_free(c);
  return NULL;
}

compiled_job *compiled_start(const compiled_shape *sh, char *why, size_t why_size) {
  const char *tmp = getenv("TMPDIR"), *cc = getenv("ATHREAD_CC");
  compiled_job *j = xcalloc(1, sizeof *j);
  j->cc = cc && *cc ? cc : "cc";
  j->width = sh->width;
  snprintf(j->dir, sizeof j->dir, "%s/athread-model-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (!mkdtemp(j->dir)) {
    snprintf(why, why_size, "no directory for the compiled model could be made in %s", tmp && *tmp ? tmp : "/tmp");
    free(j);
    return NULL;
  }
  char source[4200];
  snprintf(source, sizeof source, "%s/model.c", j->dir);
  snprintf(j->object, sizeof j->object, "%s/model.so", j->dir);
  strbuf text = {0};
  compiled_source(sh, &text);
  bool started = false;
  if (text.len > MAX_SOURCE_BYTES)
    snprintf(why, why_size, "the model's C (%zu KiB) is more than the %d KiB that athread compiles", text.len / 1024,
             MAX_SOURCE_BYTES / 1024);
  else if (!write_file(source, &text)) snprintf(why, why_size, "the model's C could not be written to %s", source);
  else if (!(started = spawn_compiler(j, source)))
    snprintf(why, why_size, "the C compiler '%s' did not compile the model", j->cc);
  sbuf_free(&text);
  if (started) return j;
  remove_dir(j->dir);
  free(j);
  return NULL;
}

bool compiled_done(compiled_job *j, bool wait) {
  if (j->pid == 0) return true;
  pid_t got;
  while ((got = waitpid(j->pid, &j->status, wait ? 0 : WNOHANG)) < 0 && errno == EINTR) {}
  if (got == 0) return false;
  if (got < 0) j->status = -1; /* lost (SIGCHLD ignored): a failure */
  j->pid = 0;
  return true;
}

compiled_model *compiled_finish(compiled_job *j, char *why, size_t why_size) {
  compiled_model *c = NULL;
  if (!WIFEXITED(j->status) || WEXITSTATUS(j->status) != 0)
    snprintf(why, why_size, "the C compiler '%s' did not compile the model", j->cc);
  else c = load(j->object, why, why_size);
  if (c) c->width = j->width;
  remove_dir(j->dir);
  free(j);
  return c;
}

void compiled_cancel(compiled_job *j) {
  if (!j) return;
  if (j->pid != 0) {
    kill(-j->pid, SIGKILL);
    compiled_done(j, true);
  }
  remove_dir(j->dir);
  free(j);
}

void compiled_free(compiled_model *c) {
  if (!c) return;
  dlclose(c->handle);
  free(c);
}

/* States this wide are copied on the stack, wider ones to the heap. */
#define STACK_WIDTH 64

void compiled_next_all(const compiled_model *c, const int64_t *src, mdl_next_fn fn, void *ctx, mdl_fault *fault) {
  int64_t local[STACK_WIDTH];
  int64_t *dst = c->width <= STACK_WIDTH ? local : xmalloc(c->width * sizeof *dst);
  memcpy(dst, src, c->width * sizeof *dst);
  int f = *fault != MDL_FAULT_NONE;
  c->next_all(src, dst, fn, ctx, &f);
  if (f && *fault == MDL_FAULT_NONE) *fault = MDL_FAULT_OVERFLOW;
  if (dst != local) free(dst);
}

bool compiled_check(const compiled_model *c, const int64_t *state, mdl_fault *fault) {
  int f = *fault != MDL_FAULT_NONE;
  bool holds = c->check(state, &f) != 0;
  if (f && *fault == MDL_FAULT_NONE) *fault = MDL_FAULT_OVERFLOW;
  return holds;
}
