/* conformance/atomicity.c -- --atomicity access: every access of a C
 * statement to shared memory is an atomic step of its own (atomicity.h).
 *
 * A statement (the edges that leave a boundary, through the non-boundary
 * locations they reach) with two or more accesses on some run is rewritten:
 * each of its reads but the last access becomes a load "t := g" into a
 * VAR_LOAD variable, a non-step edge of its own between two new boundaries
 * before the statement, and the statement reads t instead. The last access
 * stays in the statement's step: its write when it writes (every read is
 * loaded then), else its last reads in evaluation order (those that one run
 * reads at most once, like the cells of an element a[i]). A statement with
 * at most one access stays as it is.
 *
 * Why this is sound. At every boundary the instrumenter lets the
 * environment move (within what the candidates' assertions allow) and saves
 * u := g; a non-step edge gets no F update. So each loaded value is the
 * variable's value in an environment state of its own, and the write is
 * checked against the state just before it, as with the access being a step.
 * The loads do not update F: the abstract thread stays where it was (its
 * idle step), where a step of its own could also have taken an edge that
 * allows no change. F only grows by such edges, and a smaller F assumes
 * less of the environment and simulates less, so every violation of the
 * checked program with the larger F is one of the program with the smaller
 * F too: the check may report a violation more, never a conformance more.
 * Because the loads keep F, every order of them gives the same values, so
 * the check covers every order in which C may evaluate the operands. A
 * statement's assert is checked on the loaded values. */
#include "atomicity.h"

#include <stdlib.h>
#include <string.h>

#include "../core/symtab.h"

/* Visits of one access count before it gives up and counts two (which only
 * splits more, and splitting more is sound). */
#define COUNT_BUDGET 20000

typedef struct unit {
  int at;                     /* the boundary the statement leaves */
  VEC(int) edges;             /* its edges, in the order they run */
  VEC(const ir_expr *) reads; /* its reads of shared variables (distinct nodes), in evaluation order */
  symtab kept;                /* the c of element stores c := (s ? t : c): keeps c, reads nothing */
  int writes;                 /* its edges that write a shared variable */
  bool atomic;                /* it is an atomic section: one step whatever it accesses */
} unit;

static void unit_free(unit *u) {
  vec_free(&u->edges);
  vec_free(&u->reads);
  symtab_free(&u->kept);
}

/* ---------------------------------------------------------------- what a statement accesses */

static bool is_shared(const prog *p, const ir_expr *e) {
  return e && e->kind == IR_NAME && e->ref == REF_VAR && p->vars.items[e->index].kind == VAR_SHARED;
}

static bool is_temp(const prog *p, const ir_expr *e) {
  return e->kind == IR_NAME && e->ref == REF_VAR && p->vars.items[e->index].kind == VAR_TEMP;
}

static bool writes_shared(const prog *p, const prog_edge *e) {
  return (e->action == ACT_ASSIGN || e->action == ACT_HAVOC) && p->vars.items[e->var].kind == VAR_SHARED;
}

/* Does e read nothing but VAR_TEMP variables? */
static bool temps_only(const prog *p, const ir_expr *e) {
  if (!e) return true;
  if (e->kind == IR_NAME) return is_temp(p, e);
  return temps_only(p, e->a) && temps_only(p, e->b) && temps_only(p, e->c);
}

/* The c of an element store c := (s ? t : c) (cfront-lower.c, store_cells):
 * where s fails the cell keeps its value, which is no read of it. t is a
 * temporary, or under --int c a temporary converted to the cell's type. */
static const ir_expr *kept_cell(const prog *p, const prog_edge *e) {
  const ir_expr *x = e->expr;
  if (e->action != ACT_ASSIGN || x->kind != IR_ITE || !is_shared(p, x->c) || x->c->index != e->var) return NULL;
  return temps_only(p, x->b) && temps_only(p, x->a) ? x->c : NULL;
}

/* Appends e's reads not listed yet, in evaluation order (a shared node is visited once). */
static void list_reads(const prog *p, unit *u, symtab *listed, const ir_expr *e) {
  if (!e || symtab_put(listed, e, 1) >= 0) return;
  if (is_shared(p, e) && symtab_get(&u->kept, e) < 0) vec_push(NULL, &u->reads, e);
  list_reads(p, u, listed, e->a);
  list_reads(p, u, listed, e->b);
  list_reads(p, u, listed, e->c);
}

/* Does e read a shared variable other than a kept cell? */
static bool reads_shared(const prog *p, const unit *u, const ir_expr *e) {
  if (!e) return false;
  if (is_shared(p, e)) return symtab_get(&u->kept, e) < 0;
  return reads_shared(p, u, e->a) || reads_shared(p, u, e->b) || reads_shared(p, u, e->c);
}

/* The statement leaving boundary at: its edges, depth first (inside marks
 * the non-boundary locations seen). */
static void collect_edges(const prog *p, unit *u, bool *inside) {
  VEC(int) todo = {0};
  vec_push(NULL, &todo, u->at);
  while (todo.len > 0 && !u->atomic) {
    const prog_location *l = &p->locs.items[todo.items[--todo.len]];
    vec_foreach(&l->out, k) {
      int to = p->edges.items[l->out.items[k]].to;
      vec_push(NULL, &u->edges, l->out.items[k]);
      if (p->locs.items[to].boundary || inside[to]) continue;
      inside[to] = true;
      u->atomic = u->atomic || p->locs.items[to].atomic;
      vec_push(NULL, &todo, to);
    }
  }
  vec_free(&todo);
}

/* Lists the statement's reads and writes; false when it breaks the
 * contract (a write of two objects, or a read after its write). */
static bool collect_accesses(const prog *p, unit *u) {
  symtab listed = {0};
  int plain_writes = 0;
  bool ok = true;
  vec_foreach(&u->edges, i) {
    const prog_edge *e = &p->edges.items[u->edges.items[i]];
    const ir_expr *c = writes_shared(p, e) ? kept_cell(p, e) : NULL;
    if (c) symtab_put(&u->kept, c, 1);
    if (u->writes > 0 && reads_shared(p, u, e->expr)) ok = false;
    list_reads(p, u, &listed, e->expr);
    if (!writes_shared(p, e)) continue;
    u->writes++;
    plain_writes += !c;
  }
  symtab_free(&listed);
  return ok && (plain_writes == 0 || u->writes == 1);
}

/* ---------------------------------------------------------------- counting accesses on a run */

/* What is left to evaluate on a run: e, then next. */
typedef struct cont {
  const ir_expr *e;
  const struct cont *next;
} cont;

/* A read counted on the run (branch -1), or a condition decided (0: then, 1: else). */
typedef struct mark {
  const ir_expr *node;
  int branch;
} mark;

typedef struct counter {
  const prog *p;
  symtab counted;  /* the reads that count */
  symtab mentions; /* per node seen: 1 when it has a counted read below it, else 0 */
  VEC(mark) run;   /* the reads and conditions of the run so far */
  int budget;      /* visits left */
} counter;

static bool has_counted(counter *c, const ir_expr *e) {
  if (!e) return false;
  int m = symtab_get(&c->mentions, e);
  if (m >= 0) return m;
  bool yes = symtab_get(&c->counted, e) >= 0 || has_counted(c, e->a) || has_counted(c, e->b) || has_counted(c, e->c);
  symtab_put(&c->mentions, e, yes);
  return yes;
}

/* The mark of node on the run: its branch, -1 for a read, -2 when none. */
static int marked(const counter *c, const ir_expr *node) {
  vec_foreach(&c->run, i)
    if (c->run.items[i].node == node) return c->run.items[i].branch;
  return -2;
}

static int most(counter *c, const cont *k);

/* A shared node is one evaluation: a read counts once on a run, a condition decides the same way each time. */
static int most_read(counter *c, const cont *k) {
  if (marked(c, k->e) == -1) return most(c, k->next);
  vec_push(NULL, &c->run, ((mark){k->e, -1}));
  int n = 1 + most(c, k->next);
  c->run.len--;
  return n;
}

static int most_choice(counter *c, const cont *k) {
  const ir_expr *e = k->e;
  int decided = marked(c, e), best = 0;
  for (int branch = 0; branch < 2 && best < 2; branch++) {
    if (decided >= 0 && decided != branch) continue;
    cont rest = {branch ? e->c : e->b, k->next}, cond = {e->a, &rest};
    if (decided < 0) vec_push(NULL, &c->run, ((mark){e, branch}));
    int n = most(c, &cond);
    if (decided < 0) c->run.len--;
    best = n > best ? n : best;
  }
  return best;
}

/* The most counted reads that one run of k evaluates, 2 standing for "two or more". */
static int most(counter *c, const cont *k) {
  while (k && !has_counted(c, k->e)) k = k->next;
  if (!k) return 0;
  if (c->budget-- <= 0) return 2;
  const ir_expr *e = k->e;
  if (e->kind == IR_NAME) return most_read(c, k);
  if (e->kind == IR_ITE) return most_choice(c, k);
  cont b = {e->b, k->next}, a = {e->a, e->b ? &b : k->next};
  return most(c, &a);
}

/* Reads among reads[from..] that one run of the statement evaluates, 2 for two or more. */
static int accesses(const prog *p, const unit *u, size_t from) {
  counter c = {.p = p, .budget = COUNT_BUDGET};
  for (size_t i = from; i < u->reads.len; i++) symtab_put(&c.counted, u->reads.items[i], 1);
  cont *todo = xcalloc(u->edges.len + 1, sizeof *todo);
  for (size_t i = u->edges.len; i-- > 0;)
    todo[i] = (cont){p->edges.items[u->edges.items[i]].expr, i + 1 < u->edges.len ? &todo[i + 1] : NULL};
  int n = u->edges.len ? most(&c, &todo[0]) : 0;
  free(todo);
  symtab_free(&c.counted);
  symtab_free(&c.mentions);
  vec_free(&c.run);
  return n > 2 ? 2 : n;
}

/* Where the reads that stay in the step start: none when it writes, else
 * the longest tail of the reads that a run reads at most once. */
static size_t in_place(const prog *p, const unit *u) {
  if (u->writes > 0) return u->reads.len;
  size_t from = u->reads.len;
  while (from > 0 && accesses(p, u, from - 1) <= 1) from--;
  return from;
}

/* ---------------------------------------------------------------- rewriting */

typedef struct rewrite {
  prog *p;
  symtab loads;                 /* read node -> its VAR_LOAD variable */
  symtab done;                  /* node -> index into results */
  VEC(const ir_expr *) results; /* the nodes with the loads put in */
} rewrite;

static const ir_expr *substitute(rewrite *w, const ir_expr *e) {
  if (!e) return NULL;
  int v = symtab_get(&w->loads, e);
  if (v >= 0) return prog_var_ref(w->p, v, e->at);
  if (!e->a) return e;
  int k = symtab_get(&w->done, e);
  if (k >= 0) return w->results.items[k];
  const ir_expr *a = substitute(w, e->a), *b = substitute(w, e->b), *c = substitute(w, e->c);
  const ir_expr *r = e;
  if (a != e->a || b != e->b || c != e->c) {
    ir_expr *x = arena_alloc(w->p->arena, sizeof *x);
    *x = *e;
    x->a = (ir_expr *)a;
    x->b = (ir_expr *)b;
    x->c = (ir_expr *)c;
    r = x;
  }
  symtab_put(&w->done, e, (int)w->results.len);
  vec_push(NULL, &w->results, r);
  return r;
}

/* The bounds check's subscript with the loads put in its index and path. */
static int substitute_subscript(rewrite *w, int detail) {
  prog_subscript s = w->p->subscripts.items[detail];
  prog_path_part *parts = arena_alloc(w->p->arena, (s.array_len + 1) * sizeof *parts);
  for (size_t i = 0; i < s.array_len; i++) {
    parts[i] = s.array[i];
    parts[i].index = substitute(w, parts[i].index);
  }
  s.array = parts;
  s.index = substitute(w, s.index);
  vec_push(w->p->arena, &w->p->subscripts, s);
  return (int)w->p->subscripts.len - 1;
}

/* Does evaluating e always evaluate r (not only under &&, ||, ?:)? */
static bool always_reads(const ir_expr *e, const ir_expr *r) {
  if (!e) return false;
  if (e == r) return true;
  bool lazy = e->kind == IR_ITE ||
              (e->kind == IR_BINARY && (e->op == OP_AND || e->op == OP_OR || e->op == OP_IMPLIES));
  return always_reads(e->a, r) || (!lazy && (always_reads(e->b, r) || always_reads(e->c, r)));
}

/* Does every run of the statement leaving l (edges out, before the split)
 * read r? Followed along its edges while a location has one way out; where
 * it branches, every branch's first edge must read it. */
static bool surely_read(const prog *p, const int *out, size_t n, const ir_expr *r) {
  for (int hops = 0; n > 0 && hops < 64; hops++) {
    bool all = true;
    for (size_t k = 0; k < n; k++) all = all && always_reads(p->edges.items[out[k]].expr, r);
    if (all) return true;
    const prog_edge *e = &p->edges.items[out[0]];
    if (n > 1 || p->locs.items[e->to].boundary) return false;
    out = p->locs.items[e->to].out.items, n = p->locs.items[e->to].out.len;
  }
  return false;
}

/* The load "t := g" of read r at *at, to a new boundary; moves *at there. */
static void load(rewrite *w, const ir_expr *r, prog_origin o, bool speculative, int *at) {
  prog *p = w->p;
  const char *display = p->vars.items[r->index].display;
  int v = prog_add_var(p, VAR_LOAD, display, p->vars.items[r->index].type);
  p->vars.items[v].shared_index = r->index;
  symtab_put(&w->loads, r, v);
  int to = prog_add_loc(p, true);
  prog_edge e = {.from = *at,
                 .to = to,
                 .action = ACT_ASSIGN,
                 .var = v,
                 .expr = prog_var_ref(p, r->index, r->at),
                 .check = CHECK_CODE,
                 .step = -1,
                 .detail = -1,
                 .origin = {o.file, r->at},
                 .speculative = speculative};
  prog_add_edge(p, e);
  *at = to;
}

/* Loads reads[0..keep) before the statement and reads them from there on. */
static void split(prog *p, unit *u, size_t keep) {
  rewrite w = {.p = p};
  prog_location *start = &p->locs.items[u->at];
  VEC(int) out = {0};
  vec_foreach(&start->out, k) vec_push(NULL, &out, start->out.items[k]);
  start->out.len = 0;
  prog_origin o = p->edges.items[out.items[0]].origin;
  int at = u->at;
  for (size_t i = 0; i < keep; i++)
    load(&w, u->reads.items[i], o, !surely_read(p, out.items, out.len, u->reads.items[i]), &at);
  vec_foreach(&out, k) {
    p->edges.items[out.items[k]].from = at;
    vec_push(p->arena, &p->locs.items[at].out, out.items[k]);
  }
  vec_foreach(&u->edges, i) {
    prog_edge *e = &p->edges.items[u->edges.items[i]];
    e->expr = substitute(&w, e->expr);
    if (e->action == ACT_ASSERT && e->check == CHECK_INDEX) e->detail = substitute_subscript(&w, e->detail);
  }
  vec_free(&out);
  vec_free(&w.results);
  symtab_free(&w.loads);
  symtab_free(&w.done);
}

static void broken(const prog *p, const unit *u, diag_sink *sink) {
  const char *file;
  size_t line;
  prog_origin o = p->edges.items[u->edges.items[0]].origin;
  if (!prog_origin_line(p, o, &file, &line)) file = "?", line = 0;
  diag_error_at(
      sink, "athread",
      "internal error: --atomicity access cannot split the statement at %s:%zu (it writes two shared objects, "
      "or reads one after its write); use --atomicity statement",
      file, line);
}

/* The parts of a statement (prog_location.split) become steps of their own,
 * each then split at its accesses like any statement. */
static void split_parts(prog *p) {
  vec_foreach(&p->locs, l) {
    prog_location *x = &p->locs.items[l];
    if (!x->split || x->atomic) continue;
    x->boundary = true;
    vec_foreach(&x->out, k) p->edges.items[x->out.items[k]].starts_step = true;
  }
}

/* ---------------------------------------------------------------- local statements
 *
 * A statement that touches no shared memory is no step of its own: it joins
 * the step before it (the boundary it leaves is cleared). Sound by Lipton's
 * reduction: it commutes with every move of the other threads, so a run
 * where they move just before it has the same effect as one where they move
 * just after it. A statement with an assert of the code stays a step (its
 * failure may be excused between steps). The program's entry stays a boundary, and so does any boundary
 * whose clearing would close a cycle of non-boundary locations (a loop over
 * locals keeps one boundary: no step may run forever). */

/* Visits of the cycle search before it gives up and keeps the boundary. */
#define CYCLE_BUDGET 4096

static bool mentions_shared(const prog *p, const ir_expr *e) {
  if (!e) return false;
  if (e->kind == IR_NAME && e->ref == REF_VAR) return p->vars.items[e->index].kind == VAR_SHARED;
  return mentions_shared(p, e->a) || mentions_shared(p, e->b) || mentions_shared(p, e->c);
}

/* An assert of the code (not a check of undefined behaviour): between
 * steps a failing one is excused when the abstract thread goes wrong, which
 * joining it to the step before would take away. */
static bool code_assert(const prog_edge *e) {
  return e->action == ACT_ASSERT && e->check != CHECK_INDEX && e->check != CHECK_NULL && e->check != CHECK_ARITH;
}

/* Does the statement leaving boundary l touch no shared memory, and is it
 * no atomic section and no assert of the code? inside is all false, and
 * left so. */
static bool statement_is_local(const prog *p, int l, bool *inside) {
  unit u = {.at = l};
  collect_edges(p, &u, inside);
  bool local = !u.atomic;
  vec_foreach(&u.edges, i) {
    const prog_edge *e = &p->edges.items[u.edges.items[i]];
    local = local && !writes_shared(p, e) && !mentions_shared(p, e->expr) && !code_assert(e);
    inside[e->to] = false;
  }
  unit_free(&u);
  return local;
}

/* Would clearing boundary l let a run come back to l without passing a
 * boundary? (Also true past the budget.) seen is all false, and left so. */
static bool closes_cycle(const prog *p, int l, bool *seen) {
  VEC(int) todo = {0}, marked = {0};
  vec_push(NULL, &todo, l);
  bool cycle = false;
  while (todo.len > 0 && !cycle) {
    const prog_location *at = &p->locs.items[todo.items[--todo.len]];
    vec_foreach(&at->out, k) {
      int to = p->edges.items[at->out.items[k]].to;
      cycle = cycle || to == l || marked.len > CYCLE_BUDGET;
      if (p->locs.items[to].boundary || seen[to]) continue;
      seen[to] = true;
      vec_push(NULL, &marked, to);
      vec_push(NULL, &todo, to);
    }
  }
  vec_foreach(&marked, i) seen[marked.items[i]] = false;
  vec_free(&todo);
  vec_free(&marked);
  return cycle;
}

static void merge_local_statements(prog *p) {
  bool *scratch = xcalloc(p->locs.len + 1, sizeof *scratch);
  vec_foreach(&p->locs, l) {
    prog_location *x = &p->locs.items[l];
    if (!x->boundary || (int)l == p->entry || x->out.len == 0 || !statement_is_local(p, (int)l, scratch)) continue;
    x->boundary = false;
    if (closes_cycle(p, (int)l, scratch)) x->boundary = true;
  }
  free(scratch);
}

bool atomicity_split(prog *p, diag_sink *sink) {
  split_parts(p);
  size_t n = p->locs.len;
  bool *inside = xcalloc(n + 1, sizeof *inside);
  bool ok = true;
  for (size_t l = 0; l < n && ok; l++) {
    if (!p->locs.items[l].boundary || p->locs.items[l].out.len == 0) continue;
    unit u = {.at = (int)l};
    collect_edges(p, &u, inside);
    if (!u.atomic && !collect_accesses(p, &u)) {
      broken(p, &u, sink);
      ok = false;
    } else if (!u.atomic && accesses(p, &u, 0) + (u.writes > 0) > 1) {
      split(p, &u, in_place(p, &u));
    }
    unit_free(&u);
  }
  free(inside);
  if (ok) merge_local_statements(p);
  return ok;
}
