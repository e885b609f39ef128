/* spec-lang/plans.c -- how to compute the solutions of a relation or of the
 * initial state: the plans of semantics.h. */
#include <stdlib.h>
#include <string.h>

#include "../core/strbuf.h"
#include "../core/vec.h"
#include "semantics-impl.h"

/* What counts as an unknown while planning: primed cells (relations) or
 * plain cells (initial states) in the set. */
typedef struct unknowns {
  bool primed;                         /* the role of an unknown's occurrences */
  bool *is_unknown;                    /* per cell */
  bool *fixed;                         /* per cell: fixed by an earlier plan step */
  const ir_expr *true_lit, *false_lit; /* what a conjunct x or !x gives a bool x */
  int low;                             /* per plan: every cell below is known or fixed */
  bool *defining;                      /* per conjunct of the disjunct planned: it gave a step its value */
} unknowns;

static bool is_unknown_ref(const unknowns *u, const ir_expr *e) {
  int c = sem_cell_of(e, u->primed);
  return c >= 0 && u->is_unknown[c];
}

/* An element of the unknowns' role whose cell is not known before it is read. */
static bool is_unknown_element(const unknowns *u, const ir_expr *e) {
  return e->kind == IR_INDEX && e->primed == u->primed && e->cell < 0;
}

static bool is_unknown_var(const unknowns *u, const ir_expr *e, int var) {
  return is_unknown_ref(u, e) && sem_cell_of(e, u->primed) == var;
}

/* True when e reads no unknown that is not fixed yet (with pre_only: no
 * unknown at all). */
static bool computable(const unknowns *u, const ir_expr *e, bool pre_only) {
  if (!e) return true;
  if (is_unknown_ref(u, e)) return !pre_only && u->fixed[sem_cell_of(e, u->primed)];
  if (is_unknown_element(u, e)) return false;
  return computable(u, e->a, pre_only) && computable(u, e->b, pre_only) && computable(u, e->c, pre_only);
}

/* The value conjunct c gives unknown var when it has the shape x == e or
 * e == x (also with <==>), or x or !x for a bool; NULL otherwise. */
static const ir_expr *defined_by(const unknowns *u, const ir_expr *c, int var) {
  if (is_unknown_var(u, c, var)) return u->true_lit;
  if (c->kind == IR_UNARY && c->op == OP_NOT && is_unknown_var(u, c->a, var)) return u->false_lit;
  if (c->kind != IR_BINARY || (c->op != OP_EQ && c->op != OP_IFF)) return NULL;
  if (is_unknown_var(u, c->a, var)) return c->b;
  if (is_unknown_var(u, c->b, var)) return c->a;
  return NULL;
}

typedef VEC(sem_step) step_vec;

/* A conjunct that may define an unknown (defined_by's shapes). */
typedef struct definer {
  int var;  /* the unknown */
  size_t k; /* the conjunct */
} definer;

/* The definers, and how many of them the pre-state pass is done with:
 * those are fixed or need an unknown, for good. */
typedef struct definers {
  VEC(definer) all;
  size_t pre_done;
} definers;

static void add_definer(const unknowns *u, const ir_expr *side, size_t k, definers *out) {
  if (is_unknown_ref(u, side)) vec_push(NULL, &out->all, ((definer){sem_cell_of(side, u->primed), k}));
}

static int by_var_then_conjunct(const void *a, const void *b) {
  const definer *x = a, *y = b;
  if (x->var != y->var) return x->var < y->var ? -1 : 1;
  return (x->k > y->k) - (x->k < y->k);
}

/* Every (unknown, conjunct) pair where the conjunct may define the unknown,
 * by unknown then conjunct: planning visits these, not every cell (a spec
 * may have a million). */
static void find_definers(const unknowns *u, const ir_expr *const *conj, size_t n, definers *out) {
  for (size_t k = 0; k < n; k++) {
    const ir_expr *c = conj[k];
    add_definer(u, c, k, out);
    if (c->kind == IR_UNARY && c->op == OP_NOT) add_definer(u, c->a, k, out);
    if (c->kind != IR_BINARY || (c->op != OP_EQ && c->op != OP_IFF)) continue;
    add_definer(u, c->a, k, out);
    add_definer(u, c->b, k, out); /* x == x twice: the second is met fixed */
  }
  if (out->all.len > 1) qsort(out->all.items, out->all.len, sizeof *out->all.items, by_var_then_conjunct);
}

/* Fixes the first unfixed unknown that some conjunct defines by a value
 * computable now (pre_only: from the pre-state alone); false when none. */
static bool add_definition(unknowns *u, const ir_expr *const *conj, definers *ds, bool pre_only, step_vec *steps) {
  for (size_t i = pre_only ? ds->pre_done : 0; i < ds->all.len; i++) {
    definer d = ds->all.items[i];
    if (pre_only) ds->pre_done = i + 1;
    if (u->fixed[d.var]) continue;
    const ir_expr *def = defined_by(u, conj[d.k], d.var);
    if (!def || !computable(u, def, pre_only)) continue;
    u->fixed[d.var] = true;
    u->defining[d.k] = true;
    vec_push(NULL, steps, ((sem_step){d.var, def, conj[d.k]}));
    return true;
  }
  return false;
}

static bool mentions(const unknowns *u, const ir_expr *e, int var) {
  if (!e) return false;
  if (is_unknown_var(u, e, var) || is_unknown_element(u, e)) return true;
  return mentions(u, e->a, var) || mentions(u, e->b, var) || mentions(u, e->c, var);
}

/* True when some conjunct could define var once other unknowns are fixed. */
static bool definable(const unknowns *u, const ir_expr *const *conj, size_t n, int var) {
  for (size_t k = 0; k < n; k++) {
    const ir_expr *def = defined_by(u, conj[k], var);
    if (def && !mentions(u, def, var)) return true;
  }
  return false;
}

/* The bounded unknown to enumerate: the first that nothing could define,
 * else the first; -1 when every bounded unknown is fixed. */
static int to_enumerate(const ast_spec *spec, unknowns *u, const ir_expr *const *conj, size_t n) {
  int first = -1, cells = (int)spec->shared.len;
  while (u->low < cells && (!u->is_unknown[u->low] || u->fixed[u->low])) u->low++;
  for (int var = u->low; var < cells; var++) {
    if (!u->is_unknown[var] || u->fixed[var] || spec->shared.items[var]->type.kind == TYPE_INT) continue;
    if (!definable(u, conj, n, var)) return var;
    if (first < 0) first = var;
  }
  return first;
}

/* Adds one step: a definition from the pre-state if any, else one computable
 * now, else the enumeration of a bounded unknown. Returns the unbounded
 * unknown that can be none of them, -1 if a step was added, or -2 when
 * everything is fixed. */
static int add_step(const ast_spec *spec, unknowns *u, const ir_expr *const *conj, size_t n, definers *ds,
                    step_vec *steps) {
  if (add_definition(u, conj, ds, true, steps) || add_definition(u, conj, ds, false, steps)) return -1;
  int var = to_enumerate(spec, u, conj, n);
  if (var >= 0) {
    u->fixed[var] = true;
    vec_push(NULL, steps, ((sem_step){var, NULL, NULL}));
    return -1;
  }
  for (var = u->low; var < (int)spec->shared.len; var++)
    if (u->is_unknown[var] && !u->fixed[var]) return var;
  return -2;
}

/* Plans one disjunct; returns -1, or the unknown it cannot determine. */
static int plan_disjunct(const ast_spec *spec, unknowns *u, const ir_expr *disjunct, sem_plan *out) {
  ir_expr_list conj = {0};
  ir_flatten(disjunct, OP_AND, &conj);
  memset(u->fixed, 0, spec->shared.len * sizeof *u->fixed);
  u->low = 0;
  definers ds = {0};
  find_definers(u, conj.items, conj.len, &ds);
  u->defining = xcalloc(conj.len + 1, sizeof *u->defining);
  step_vec steps = {0};
  int r;
  while ((r = add_step(spec, u, conj.items, conj.len, &ds, &steps)) == -1) {}
  vec_free(&ds.all);
  sem_step *copy = arena_alloc(spec->arena, (steps.len + 1) * sizeof *copy);
  if (steps.len) memcpy(copy, steps.items, steps.len * sizeof *steps.items);
  out->pre = out->rest = NULL;
  vec_foreach(&conj, k) {
    if (conj.len > 1 && computable(u, conj.items[k], true)) out->pre = sem_join(spec, OP_AND, out->pre, conj.items[k]);
    else if (!u->defining[k]) out->rest = sem_join(spec, OP_AND, out->rest, conj.items[k]); /* a step makes it true */
  }
  free(u->defining);
  u->defining = NULL;
  out->test = disjunct;
  out->step_count = steps.len;
  out->steps = copy;
  vec_free(&steps);
  vec_free(&conj);
  return r >= 0 ? r : -1;
}

/* ---------------------------------------------------------------- cases of dynamic writes */

/* One index expression that primed elements of a relation use: every plan
 * fixes its value to one k, where those elements stand for cells. */
typedef struct choice {
  const ir_expr *index; /* its first occurrence */
  char *text;           /* its dump (heap), to find the others */
  int64_t limit;        /* the largest array it indexes: k ranges over 0 .. limit - 1 */
  int64_t k;            /* the value of the case being planned */
} choice;

/* The choices of a relation's dynamic writes. */
typedef struct cases {
  VEC(choice) choices; /* one per distinct index (heap) */
  int *of_write;       /* per dynamic write: its choice (heap) */
  const sem_writes *w; /* the writes */
} cases;

static char *dump_of(const ir_expr *e) {
  strbuf b = {0};
  ir_dump(&b, e);
  return sbuf_take(&b);
}

static int find_choice(const cases *cs, const char *text) {
  vec_foreach(&cs->choices, i)
    if (strcmp(cs->choices.items[i].text, text) == 0) return (int)i;
  return -1;
}

/* One choice per distinct index of w's dynamic writes. */
static void cases_init(cases *cs, const sem_writes *w) {
  *cs = (cases){.w = w, .of_write = xcalloc(w->dynamic.len + 1, sizeof *cs->of_write)};
  vec_foreach(&w->dynamic, i) {
    const ir_expr *x = w->dynamic.items[i];
    char *text = dump_of(x->a);
    int c = find_choice(cs, text);
    if (c < 0) {
      c = (int)cs->choices.len;
      vec_push(NULL, &cs->choices, ((choice){x->a, text, 0, 0}));
    } else {
      free(text);
    }
    if (x->extent > cs->choices.items[c].limit) cs->choices.items[c].limit = x->extent;
    cs->of_write[i] = c;
  }
}

static void cases_free(cases *cs) {
  vec_foreach(&cs->choices, i) free(cs->choices.items[i].text);
  vec_free(&cs->choices);
  free(cs->of_write);
}

/* The number of cases, or 0 when over SEM_MAX_CASES. */
static size_t case_count(const cases *cs) {
  size_t n = 1;
  vec_foreach(&cs->choices, i) {
    n *= (size_t)cs->choices.items[i].limit;
    if (n > SEM_MAX_CASES) return 0;
  }
  return n;
}

/* Moves to the next combination of values; false after the last. */
static bool next_case(cases *cs) {
  vec_foreach(&cs->choices, i) {
    if (++cs->choices.items[i].k < cs->choices.items[i].limit) return true;
    cs->choices.items[i].k = 0;
  }
  return false;
}

/* The value of dynamic write x (a node of w) in this case. */
static int64_t value_of(const cases *cs, const ir_expr *x) {
  vec_foreach(&cs->w->dynamic, i)
    if (cs->w->dynamic.items[i] == x) return cs->choices.items[cs->of_write[i]].k;
  return 0;
}

/* Marks the cells that the dynamic writes name in this case unknown; false
 * when a value is outside its array (a state that goes wrong before the
 * relation is evaluated). */
static bool case_cells(const cases *cs, bool *is_unknown) {
  vec_foreach(&cs->w->dynamic, i) {
    const ir_expr *x = cs->w->dynamic.items[i];
    int64_t k = cs->choices.items[cs->of_write[i]].k;
    if (k >= x->extent) return false;
    is_unknown[x->index + k] = true;
  }
  return true;
}

/* e with each dynamic write replaced by the cell of its value in this case. */
static const ir_expr *substitute(const ast_spec *spec, const cases *cs, const ir_expr *e) {
  if (!e) return NULL;
  if (e->kind == IR_INDEX && e->primed && e->cell == IR_CELL_DYNAMIC)
    return sem_cell_ref(spec, e->index + (int)value_of(cs, e), true, e->at);
  return sem_rebuild(spec, e, substitute(spec, cs, e->a), substitute(spec, cs, e->b), substitute(spec, cs, e->c));
}

/* index == k for every choice, then disjunct d for those values. */
static const ir_expr *case_of(const ast_spec *spec, const cases *cs, const ir_expr *d) {
  const ir_expr *all = NULL;
  vec_foreach(&cs->choices, i) {
    const choice *c = &cs->choices.items[i];
    all = sem_join(spec, OP_AND, all, sem_binary(spec, OP_EQ, c->index, sem_int(spec, c->k, c->index->at)));
  }
  return sem_join(spec, OP_AND, all, substitute(spec, cs, d));
}

/* ---------------------------------------------------------------- plans */

typedef struct planner {
  const ast_spec *spec; /* the spec */
  int disjunct;         /* the top-level disjunct being planned, from 1 */
  int case_number;      /* its case, from 1, or 0 */
  unknowns u;           /* reused per plan */
  VEC(sem_plan) plans;  /* made so far (heap) */
  int bad;              /* an unbounded unknown left open, or -1 */
  const ir_expr *bad_at;
} planner;

/* Plans formula f, the case of disjunct d. */
static void plan(planner *pl, const ir_expr *f, const ir_expr *d) {
  sem_plan p;
  int bad = plan_disjunct(pl->spec, &pl->u, f, &p);
  p.disjunct = pl->disjunct;
  p.case_number = pl->case_number;
  vec_push(NULL, &pl->plans, p);
  if (bad >= 0 && pl->bad < 0) pl->bad = bad, pl->bad_at = d;
}

static void planner_init(planner *pl, const ast_spec *spec, bool primed) {
  *pl = (planner){.spec = spec, .bad = -1};
  pl->u.primed = primed;
  pl->u.is_unknown = xcalloc(spec->shared.len + 1, sizeof *pl->u.is_unknown);
  pl->u.fixed = xcalloc(spec->shared.len + 1, sizeof *pl->u.fixed);
  pl->u.true_lit = sem_bool(spec, true);
  pl->u.false_lit = sem_bool(spec, false);
}

static const sem_plans *planner_finish(planner *pl, const ir_expr *f, bool too_many) {
  const ast_spec *spec = pl->spec;
  sem_plans *out = arena_alloc(spec->arena, sizeof *out);
  sem_plan *items = arena_alloc(spec->arena, (pl->plans.len + 1) * sizeof *items);
  if (pl->plans.len) memcpy(items, pl->plans.items, pl->plans.len * sizeof *items);
  *out = (sem_plans){.items = items,
                     .count = pl->plans.len,
                     .undetermined = pl->bad,
                     .undetermined_at = pl->bad_at,
                     .too_many = too_many,
                     .formula = f};
  if (too_many) out->count = 0;
  free(pl->u.is_unknown);
  free(pl->u.fixed);
  vec_free(&pl->plans);
  return out;
}

/* Plans every case of disjunct d (stopping at an open unbounded unknown):
 * the cells that the relation's writes may change are its unknowns. */
static void plan_cases(planner *pl, cases *cs, const ir_expr *d) {
  pl->disjunct++;
  pl->case_number = 0;
  do {
    memcpy(pl->u.is_unknown, cs->w->cells, pl->spec->shared.len * sizeof *cs->w->cells);
    if (!case_cells(cs, pl->u.is_unknown)) continue;
    if (cs->choices.len) pl->case_number++;
    plan(pl, cs->choices.len ? case_of(pl->spec, cs, d) : d, d);
  } while (pl->bad < 0 && next_case(cs));
}

const sem_plans *sem_plan_relation(const ast_spec *spec, const ir_expr *r, const sem_writes *w) {
  planner pl;
  planner_init(&pl, spec, true);
  cases cs;
  cases_init(&cs, w);
  bool too_many = case_count(&cs) == 0;
  ir_expr_list disj = {0};
  ir_flatten(r, OP_OR, &disj);
  for (size_t i = 0; i < disj.len && pl.bad < 0 && !too_many; i++) plan_cases(&pl, &cs, disj.items[i]);
  cases_free(&cs);
  vec_free(&disj);
  return planner_finish(&pl, r, too_many);
}

/* The init predicates joined by && (true when there are none). */
static const ir_expr *init_formula(const ast_spec *spec) {
  ir_expr *f = NULL;
  vec_foreach(&spec->inits, i) {
    ir_expr *e = (ir_expr *)sem_lower(spec, spec->inits.items[i]);
    f = f ? ir_binary(spec->arena, e->at, OP_AND, f, e) : e;
    f->type = TY_BOOL;
  }
  return f ? f : sem_bool(spec, true);
}

const sem_plans *sem_plan_initial(const ast_spec *spec) {
  planner pl;
  planner_init(&pl, spec, false);
  const ir_expr *f = init_formula(spec);
  ir_expr_list disj = {0};
  ir_flatten(f, OP_OR, &disj);
  for (size_t i = 0; i < disj.len && pl.bad < 0; i++) {
    vec_foreach(&spec->shared, c) pl.u.is_unknown[c] = !spec->shared.items[c]->init;
    pl.disjunct = (int)i + 1;
    plan(&pl, disj.items[i], disj.items[i]);
  }
  vec_free(&disj);
  return planner_finish(&pl, f, false);
}
