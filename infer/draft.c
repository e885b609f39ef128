/* infer/draft.c -- see draft.h. The code's steps are executed symbolically:
 * from each state, every path to the next boundary, with the shared
 * variables standing for their values before the step and the locals for
 * what the state keeps of them. */
#include "draft.h"

#include <stdlib.h>
#include <string.h>

/* More states than this: the drafter keeps less of the locals (KEEPING). */
#define MAX_STATES 200
/* Paths of one step from one state, edges on one path, and edges taken by
 * all the paths of a step, at most. */
#define MAX_PATHS 512
#define MAX_PATH_EDGES 400
#define MAX_STEP_EDGES 50000
/* A label longer than this is cut (with "...") */
#define MAX_LABEL 48

/* What a state remembers of the locals: the values they read from shared
 * memory, their constants. While there are too many states, the drafter
 * forgets the constants, then the values read, then both. */
typedef struct keeping {
  bool reads, constants;
} keeping;

static const keeping KEEPING[] = {{true, true}, {true, false}, {false, true}, {false, false}};

typedef struct drafter {
  inf_draft *d;
  const prog *p;
  const ast_spec *spec;
  keeping keep;     /* what the states remember of the locals */
  arena *scratch;   /* the paths of the step being explored (their values live in d's arena) */
  size_t paths;     /* paths of the step being explored */
  size_t taken;     /* edges its paths took */
  const char *fail; /* why the draft failed, or NULL */
} drafter;

/* What a path knows while it runs: each variable's value (NULL: unknown),
 * what it assumed, and what it wrote. */
typedef struct path {
  const ir_expr **value; /* per prog variable */
  const ir_expr *guard;  /* conjunction of the assumptions over shared values, or NULL */
  bool *written;         /* per prog variable: a shared one the path wrote */
  prog_origin origin;    /* the statement that names it (the best that rank_of found first) */
  int rank;              /* origin's rank_of */
  size_t edges;          /* edges taken */
} path;

static const loc NOWHERE = {0};

/* ---------------------------------------------------------------- values */

/* Whether e is a constant: a bool, an int within 64 bits, or its negation
 * (literal() writes a negative int so). */
static bool is_literal(const ir_expr *e) {
  if (e && e->kind == IR_UNARY && e->op == OP_NEG) e = e->a;
  return e && (e->kind == IR_BOOL || (e->kind == IR_INT && !e->big));
}

/* The value of a constant (is_literal). */
static int64_t value_of(const ir_expr *e) { return e->kind == IR_UNARY ? -e->a->value : e->value; }

static ir_expr *literal(drafter *k, ir_type type, int64_t v) {
  arena *a = k->d->arena;
  if (type == TY_BOOL) {
    ir_expr *b = ir_bool(a, NOWHERE, v != 0);
    b->type = TY_BOOL;
    return b;
  }
  ir_expr *e = ir_int_magnitude(a, NOWHERE, v < 0 ? 0 - (uint64_t)v : (uint64_t)v);
  e->type = TY_INT;
  if (v >= 0) return e;
  ir_expr *neg = ir_unary(a, NOWHERE, OP_NEG, e);
  neg->type = TY_INT;
  return neg;
}

/* The spec has no wrap-around, bit operations or shifts: such an operation
 * on shared values is unknown. */
static bool spec_has_op(ir_op op) { return op < OP_WRAP; }

static bool names_nothing(const ir_expr *e) {
  if (!e) return true;
  if (e->kind == IR_NAME) return false;
  return names_nothing(e->a) && names_nothing(e->b) && names_nothing(e->c);
}

/* e with its names replaced by the path's values; NULL when some value it
 * needs is unknown. Constant parts are computed as the code does. */
static const ir_expr *evaluate(drafter *k, const path *w, const ir_expr *e);

static const ir_expr *fold(drafter *k, ir_expr *e) {
  if (!names_nothing(e)) return e;
  int64_t v = 0;
  return prog_eval(k->p, e, NULL, &v) ? literal(k, e->type, v) : NULL;
}

static const ir_expr *evaluate_ite(drafter *k, const path *w, const ir_expr *e) {
  const ir_expr *c = evaluate(k, w, e->a);
  if (is_literal(c)) return evaluate(k, w, value_of(c) ? e->b : e->c);
  const ir_expr *t = evaluate(k, w, e->b), *f = evaluate(k, w, e->c);
  if (!c || !t || !f) return NULL;
  ir_expr *r = ir_ite(k->d->arena, NOWHERE, (ir_expr *)c, (ir_expr *)t, (ir_expr *)f);
  r->type = e->type;
  return r;
}

/* && and || with one side known decide without the other. */
static const ir_expr *evaluate_logic(drafter *k, const ir_expr *e, const ir_expr *l, const ir_expr *r) {
  bool absorbing = e->op == OP_OR;
  if ((is_literal(l) && (value_of(l) != 0) == absorbing) || (is_literal(r) && (value_of(r) != 0) == absorbing))
    return literal(k, TY_BOOL, absorbing);
  if (is_literal(l)) return r;
  if (is_literal(r)) return l;
  return NULL;
}

static bool is_value(const ir_expr *e, int64_t v) { return e && e->kind == IR_INT && !e->big && e->value == v; }

/* c when e is C's int of a bool, c ? 1 : 0. */
static const ir_expr *bool_of(const ir_expr *e) {
  return e->kind == IR_ITE && is_value(e->b, 1) && is_value(e->c, 0) ? e->a : NULL;
}

static const ir_op negated_comparison[] = {
    [OP_LT] = OP_GE, [OP_LE] = OP_GT, [OP_GT] = OP_LE, [OP_GE] = OP_LT, [OP_EQ] = OP_NE, [OP_NE] = OP_EQ};

static const ir_expr *negation(arena *a, const ir_expr *c) {
  if (c->kind == IR_UNARY && c->op == OP_NOT) return c->a;
  ir_expr *x = c->kind == IR_BINARY && c->op >= OP_LT && c->op <= OP_NE && c->a->type == TY_INT
                   ? ir_binary(a, NOWHERE, negated_comparison[c->op], c->a, c->b)
                   : ir_unary(a, NOWHERE, OP_NOT, (ir_expr *)c);
  x->type = TY_BOOL;
  return x;
}

/* x written the way a person would: C's bool tests (c ? 1 : 0) != 0 as c,
 * x + 0 as x, !(a < b) as a >= b. */
static const ir_expr *simplified(drafter *k, ir_expr *x) {
  if (x->kind == IR_UNARY) return x->op == OP_NOT ? negation(k->d->arena, x->a) : x;
  if (x->kind != IR_BINARY) return x;
  const ir_expr *l = x->a, *r = x->b;
  if ((x->op == OP_NE || x->op == OP_EQ) && is_value(r, 0) && bool_of(l))
    return x->op == OP_NE ? bool_of(l) : negation(k->d->arena, bool_of(l));
  if ((x->op == OP_ADD && is_value(l, 0)) || (x->op == OP_MUL && is_value(l, 1))) return r;
  if ((x->op == OP_ADD || x->op == OP_SUB) && is_value(r, 0)) return l;
  if (x->op == OP_MUL && is_value(r, 1)) return l;
  return x;
}

static const ir_expr *evaluate_operator(drafter *k, const path *w, const ir_expr *e) {
  const ir_expr *l = evaluate(k, w, e->a), *r = e->kind == IR_BINARY ? evaluate(k, w, e->b) : NULL;
  if (e->kind == IR_BINARY && (e->op == OP_AND || e->op == OP_OR)) {
    const ir_expr *decided = evaluate_logic(k, e, l, r);
    if (decided || !l || !r) return decided;
  }
  if (!l || (e->kind == IR_BINARY && !r)) return NULL;
  bool constant = names_nothing(l) && (!r || names_nothing(r));
  if (!constant && !spec_has_op(e->op)) return NULL;
  if (!constant && (e->op == OP_DIV || e->op == OP_MOD) && (!is_literal(r) || value_of(r) == 0)) return NULL;
  ir_expr *x = e->kind == IR_UNARY ? ir_unary(k->d->arena, NOWHERE, e->op, (ir_expr *)l)
                                   : ir_binary(k->d->arena, NOWHERE, e->op, (ir_expr *)l, (ir_expr *)r);
  x->type = e->type;
  x->ity = e->ity;
  return constant ? fold(k, x) : simplified(k, x);
}

static const ir_expr *evaluate(drafter *k, const path *w, const ir_expr *e) {
  switch (e->kind) {
  case IR_BOOL:
  case IR_INT: return e;
  case IR_NAME: return e->ref == REF_VAR ? w->value[e->index] : NULL;
  case IR_UNARY:
  case IR_BINARY: return evaluate_operator(k, w, e);
  case IR_ITE: return evaluate_ite(k, w, e);
  default: return NULL;
  }
}

/* ---------------------------------------------------------------- states */

static const prog_var *var(const drafter *k, int v) { return &k->p->vars.items[v]; }

static bool is_local(const drafter *k, int v) { return var(k, v)->kind == VAR_LOCAL || var(k, v)->kind == VAR_LOAD; }

typedef struct mentions_written {
  const path *w;
  bool found;
} mentions_written;

static void look_for_written(const ir_expr *e, void *ctx) {
  mentions_written *m = ctx;
  if (e->kind == IR_NAME && m->w->written[e->index]) m->found = true;
}

/* What state remembers of local v at the end of path w (NULL: nothing). */
static const ir_expr *kept_value(const drafter *k, const path *w, int v) {
  const ir_expr *e = w->value[v];
  if (!e || !is_local(k, v)) return NULL;
  if (is_literal(e)) return k->keep.constants && var(k, v)->kind == VAR_LOCAL ? e : NULL;
  if (!k->keep.reads) return NULL;
  mentions_written m = {w, false};
  ir_walk(e, look_for_written, &m);
  return m.found ? NULL : e;
}

static const char *text_of(arena *a, const ir_expr *e) {
  if (!e) return NULL;
  strbuf b = {0};
  ir_print(&b, e);
  const char *t = arena_strndup(a, sbuf_str(&b), b.len);
  sbuf_free(&b);
  return t;
}

static bool same_kept(const char *a, const char *b) { return a == b || (a && b && strcmp(a, b) == 0); }

/* The state for boundary loc with what w's locals hold there; made when
 * new. -1 when there would be too many. */
static int state_at(drafter *k, int at_loc, const path *w) {
  size_t n = k->p->vars.len;
  const ir_expr **kept = arena_alloc(k->scratch, n * sizeof *kept + 1);
  const char **texts = arena_alloc(k->scratch, n * sizeof *texts + 1);
  for (size_t v = 0; v < n; v++) texts[v] = text_of(k->scratch, kept[v] = kept_value(k, w, (int)v));
  vec_foreach(&k->d->states, s) {
    inf_state *st = &k->d->states.items[s];
    bool same = st->loc == at_loc;
    for (size_t v = 0; v < n && same; v++) same = same_kept(st->kept_text[v], texts[v]);
    if (same) return (int)s;
  }
  if (k->d->states.len >= MAX_STATES) return -1;
  inf_state st = {.loc = at_loc, .merged_into = -1};
  st.kept = arena_alloc(k->d->arena, n * sizeof *st.kept + 1);
  st.kept_text = arena_alloc(k->d->arena, n * sizeof *st.kept_text + 1);
  for (size_t v = 0; v < n; v++) {
    st.kept[v] = kept[v];
    st.kept_text[v] = texts[v] ? arena_strndup(k->d->arena, texts[v], strlen(texts[v])) : NULL;
  }
  vec_push(k->d->arena, &k->d->states, st);
  return (int)k->d->states.len - 1;
}

/* A path that starts in state s: shared variables stand for themselves,
 * locals for what s keeps of them, everything else is unknown. */
static path path_from(drafter *k, int s) {
  size_t n = k->p->vars.len;
  path w = {.origin = {.file = -1}};
  w.value = arena_alloc(k->scratch, n * sizeof *w.value + 1);
  w.written = arena_alloc(k->scratch, n * sizeof *w.written + 1);
  const inf_state *st = &k->d->states.items[s];
  for (size_t v = 0; v < n; v++) {
    const prog_var *pv = var(k, (int)v);
    w.written[v] = false;
    w.value[v] = NULL;
    if (pv->kind == VAR_SHARED) {
      ir_expr *name = ir_name(k->d->arena, NOWHERE, k->spec->shared.items[pv->shared_index]->name, false);
      name->type = pv->type;
      name->ref = REF_VAR; /* the drafter's own: the shared variable v before the step */
      name->index = (int)v;
      w.value[v] = name;
    } else {
      w.value[v] = st->kept[v];
    }
  }
  return w;
}

static path path_copy(drafter *k, const path *w) {
  size_t n = k->p->vars.len;
  path c = *w;
  c.value = arena_alloc(k->scratch, n * sizeof *c.value + 1);
  c.written = arena_alloc(k->scratch, n * sizeof *c.written + 1);
  memcpy(c.value, w->value, n * sizeof *c.value);
  memcpy(c.written, w->written, n * sizeof *c.written);
  return c;
}

/* ---------------------------------------------------------------- edges */

static const char *label_of(drafter *k, prog_origin o) {
  if (o.file < 0) return NULL;
  strbuf text = {0};
  prog_origin_text(k->p, o, &text);
  for (size_t i = 0; i < text.len; i++)
    if (text.text[i] == '"' || text.text[i] == '\\') text.text[i] = '\'';
  if (text.len > MAX_LABEL) {
    text.len = MAX_LABEL - 3;
    sbuf_puts(&text, "...");
  }
  const char *label = text.len ? arena_strndup(k->d->arena, sbuf_str(&text), text.len) : NULL;
  sbuf_free(&text);
  return label;
}

/* The edge of a path from state s that reached boundary loc. */
static void finish_path(drafter *k, int s, int at_loc, const path *w) {
  int to = state_at(k, at_loc, w);
  if (to < 0) {
    k->fail = "too many states";
    return;
  }
  inf_edge e = {.from = s, .to = to, .guard = w->guard, .label = label_of(k, w->origin), .origin = w->origin};
  vec_foreach(&k->p->vars, v) {
    if (!w->written[v]) continue;
    const prog_var *pv = var(k, (int)v);
    inf_assign a = {pv->shared_index, w->value[v]};
    if (a.value && a.value->kind == IR_NAME && a.value->text == k->spec->shared.items[pv->shared_index]->name)
      continue; /* x := x */
    vec_push(k->d->arena, &e.writes, a);
  }
  vec_push(k->d->arena, &k->d->edges, e);
}

static void walk(drafter *k, int s, int at_loc, path *w, bool first);

/* Assumes c on the path; false when the path cannot go on. */
static bool assume(drafter *k, path *w, const ir_expr *c) {
  const ir_expr *v = evaluate(k, w, c);
  if (is_literal(v)) return value_of(v) != 0;
  if (!v) return true; /* on what the drafter forgot: both ways stay open */
  if (!w->guard) w->guard = v;
  else {
    ir_expr *both = ir_binary(k->d->arena, NOWHERE, OP_AND, (ir_expr *)w->guard, (ir_expr *)v);
    both->type = TY_BOOL;
    w->guard = both;
  }
  return true;
}

bool inf_in_models(const prog *p, prog_origin o) {
  const char *file;
  size_t line;
  return prog_origin_line(p, o, &file, &line) && strstr(file, "athread/models/") != NULL;
}

/* How well edge e names its step: a write to shared memory best (4 in the
 * user's code, 3 in the models, which name it by their function), then
 * the user's other code (2), the models' (1), no source (0). */
static int rank_of(const drafter *k, const prog_edge *e) {
  if (e->origin.file < 0) return 0;
  bool models = inf_in_models(k->p, e->origin);
  bool writes = (e->action == ACT_ASSIGN || e->action == ACT_HAVOC) && var(k, e->var)->kind == VAR_SHARED;
  return (writes ? 3 : 1) + !models;
}

/* Takes edge e of the code on a copy of w, then walks on. */
static void take(drafter *k, int s, const prog_edge *e, const path *w) {
  path next = path_copy(k, w);
  if (rank_of(k, e) > next.rank) {
    next.origin = e->origin;
    next.rank = rank_of(k, e);
  }
  if (e->action == ACT_ASSUME && !assume(k, &next, e->expr)) return;
  if (e->action == ACT_ASSIGN || e->action == ACT_HAVOC) {
    next.value[e->var] = e->action == ACT_ASSIGN ? evaluate(k, w, e->expr) : NULL;
    if (var(k, e->var)->kind == VAR_SHARED) next.written[e->var] = true;
  }
  walk(k, s, e->to, &next, false);
}

/* Follows every path from loc until a boundary. A code assertion is not
 * the draft's to decide: athread conform checks it. */
static void walk(drafter *k, int s, int at_loc, path *w, bool first) {
  if (k->fail) return;
  const prog_location *l = &k->p->locs.items[at_loc];
  if (!first && (l->boundary || at_loc == k->p->exit)) {
    if (++k->paths > MAX_PATHS) k->fail = "a step has too many paths";
    else finish_path(k, s, at_loc, w);
    return;
  }
  if (++w->edges > MAX_PATH_EDGES) {
    k->fail = "a step runs too long without reaching a boundary";
    return;
  }
  if (++k->taken > MAX_STEP_EDGES) {
    k->fail = "a step has too many paths";
    return;
  }
  vec_foreach(&l->out, i) take(k, s, &k->p->edges.items[l->out.items[i]], w);
}

/* ---------------------------------------------------------------- folding */

static int resolved(const inf_draft *d, int s) {
  while (d->states.items[s].merged_into >= 0) s = d->states.items[s].merged_into;
  return s;
}

static bool trivial(const inf_edge *e) { return !e->guard && e->writes.len == 0; }

/* The one state that every edge out of s leads to when none of them tests
 * or changes shared memory; -1 otherwise (also when s has no edge out). */
static int only_idle_target(const inf_draft *d, int s) {
  int target = -1;
  vec_foreach(&d->edges, i) {
    const inf_edge *e = &d->edges.items[i];
    if (e->dropped || resolved(d, e->from) != s) continue;
    int to = resolved(d, e->to);
    if (to == s && trivial(e)) continue; /* idle */
    if (!trivial(e) || (target >= 0 && to != target)) return -1;
    target = to;
  }
  return target;
}

/* A state whose edges out neither test nor change shared memory, and all
 * lead to one state, is that state's: the idle step simulates the move.
 * Returns whether some state was folded. */
static bool fold_trivial(inf_draft *d) {
  bool folded = false;
  for (bool changed = true; changed;) {
    changed = false;
    vec_foreach(&d->states, s) {
      if (d->states.items[s].merged_into >= 0) continue;
      int target = only_idle_target(d, (int)s);
      if (target < 0) continue;
      d->states.items[s].merged_into = target;
      changed = folded = true;
    }
  }
  vec_foreach(&d->edges, i) {
    d->edges.items[i].from = resolved(d, d->edges.items[i].from);
    d->edges.items[i].to = resolved(d, d->edges.items[i].to);
  }
  return folded;
}

/* ---------------------------------------------------------------- merging */

static bool same_text(const ir_expr *a, const ir_expr *b) {
  if (!a || !b) return a == b;
  strbuf x = {0}, y = {0};
  ir_print(&x, a);
  ir_print(&y, b);
  bool same = strcmp(sbuf_str(&x), sbuf_str(&y)) == 0;
  sbuf_free(&x);
  sbuf_free(&y);
  return same;
}

static bool same_writes(const inf_edge *a, const inf_edge *b) {
  if (a->writes.len != b->writes.len) return false;
  vec_foreach(&a->writes, i)
    if (a->writes.items[i].shared != b->writes.items[i].shared ||
        !same_text(a->writes.items[i].value, b->writes.items[i].value))
      return false;
  return true;
}

/* g || h, or NULL (true) when either is true or one is the other negated. */
static const ir_expr *either(arena *a, const ir_expr *g, const ir_expr *h) {
  if (!g || !h) return NULL;
  if (same_text(negation(a, g), h)) return NULL;
  if (same_text(g, h)) return g;
  ir_expr *e = ir_binary(a, NOWHERE, OP_OR, (ir_expr *)g, (ir_expr *)h);
  e->type = TY_BOOL;
  return e;
}

/* Edges between the same states with the same writes are one edge whose
 * guard is the disjunction of theirs (the two ways of a branch that
 * changes nothing: no guard at all). */
static void merge_parallel(inf_draft *d) {
  vec_foreach(&d->edges, i) {
    inf_edge *e = &d->edges.items[i];
    for (size_t j = i + 1; j < d->edges.len && !e->dropped; j++) {
      inf_edge *f = &d->edges.items[j];
      if (f->dropped || f->from != e->from || f->to != e->to || !same_writes(e, f)) continue;
      e->guard = either(d->arena, e->guard, f->guard);
      f->dropped = true;
    }
  }
}

/* ---------------------------------------------------------------- drafting */

static void name_states(inf_draft *d, const prog *p);

static bool explore(drafter *k) {
  for (size_t s = 0; s < k->d->states.len && !k->fail; s++) {
    k->scratch = arena_new();
    path w = path_from(k, (int)s);
    k->paths = k->taken = 0;
    if (k->d->states.items[s].loc != k->p->exit) walk(k, (int)s, k->d->states.items[s].loc, &w, true);
    arena_free(k->scratch);
  }
  return !k->fail;
}

static bool try_draft(drafter *k) {
  k->d->states.len = k->d->edges.len = 0;
  k->fail = NULL;
  k->scratch = arena_new();
  path none = {0};
  none.value = arena_alloc(k->scratch, k->p->vars.len * sizeof *none.value + 1);
  memset(none.value, 0, k->p->vars.len * sizeof *none.value);
  state_at(k, k->p->entry, &none);
  arena_free(k->scratch);
  return explore(k);
}

inf_draft *inf_draft_thread(const prog *p, const ast_spec *spec) {
  inf_draft *d = xcalloc(1, sizeof *d);
  d->arena = arena_new();
  drafter k = {.d = d, .p = p, .spec = spec};
  for (size_t i = 0; i < sizeof KEEPING / sizeof *KEEPING; i++) {
    k.keep = KEEPING[i];
    if (try_draft(&k) || strcmp(k.fail, "too many states") != 0) break;
  }
  if (k.fail) {
    d->why_not = k.fail;
    d->states.len = d->edges.len = 0;
    return d;
  }
  do merge_parallel(d); /* and again the edges that folding made parallel */
  while (fold_trivial(d));
  name_states(d, p);
  return d;
}

void inf_draft_free(inf_draft *d) {
  if (!d) return;
  arena_free(d->arena);
  free(d);
}

/* ---------------------------------------------------------------- names */

/* The line in the user's code of the first step from state s to another, or 0. */
static size_t line_of(const inf_draft *d, const prog *p, int s) {
  vec_foreach(&d->edges, i) {
    const inf_edge *e = &d->edges.items[i];
    const char *file;
    size_t line;
    if (!e->dropped && e->from == s && e->to != s && !inf_in_models(p, e->origin) &&
        prog_origin_line(p, e->origin, &file, &line))
      return line;
  }
  return 0;
}

/* Start, Done, L<line> of the first step out of the state, or S1, S2, ...
 * when that step is in the models; a suffix keeps them apart. */
static void name_states(inf_draft *d, const prog *p) {
  int first = resolved(d, 0);
  size_t unnamed = 0;
  vec_foreach(&d->states, s) {
    inf_state *st = &d->states.items[s];
    if (st->merged_into >= 0) continue;
    strbuf name = {0};
    size_t line = line_of(d, p, (int)s);
    if ((int)s == first) sbuf_puts(&name, "Start");
    else if (st->loc == p->exit) sbuf_puts(&name, "Done");
    else if (line) sbuf_printf(&name, "L%zu", line);
    else sbuf_printf(&name, "S%zu", ++unnamed);
    size_t base = name.len, taken = 1;
    for (size_t t = 0; t < s; t++)
      if (d->states.items[t].merged_into < 0 && d->states.items[t].name &&
          strncmp(d->states.items[t].name, sbuf_str(&name), base) == 0 &&
          (d->states.items[t].name[base] == '\0' || d->states.items[t].name[base] == '_'))
        taken++;
    if (taken > 1) sbuf_printf(&name, "_%zu", taken);
    st->name = arena_strndup(d->arena, sbuf_str(&name), name.len);
    sbuf_free(&name);
  }
}

/* ---------------------------------------------------------------- printing */

static void print_edge(const inf_draft *d, const ast_spec *spec, const inf_edge *e, strbuf *out) {
  sbuf_printf(out, "  %s -> %s", d->states.items[e->from].name, d->states.items[e->to].name);
  if (e->label) sbuf_printf(out, " \"%s\"", e->label);
  if (trivial(e)) {
    sbuf_puts(out, " : true;\n");
    return;
  }
  if (e->guard) {
    sbuf_puts(out, " when ");
    ir_print(out, e->guard);
  }
  vec_foreach(&e->writes, i) {
    const inf_assign *a = &e->writes.items[i];
    sbuf_printf(out, "%s%s := ", i ? ", " : " do ", spec->shared.items[a->shared]->name);
    if (a->value) ir_print(out, a->value);
    else sbuf_putc(out, '*');
  }
  sbuf_puts(out, ";\n");
}

void inf_draft_print(const inf_draft *d, const ast_spec *spec, strbuf *out) {
  int first = resolved(d, 0);
  sbuf_printf(out, "  init state %s;\n", d->states.items[first].name);
  const char *sep = "  state ";
  vec_foreach(&d->states, s) {
    if ((int)s == first || d->states.items[s].merged_into >= 0) continue;
    sbuf_printf(out, "%s%s", sep, d->states.items[s].name);
    sep = ", ";
  }
  if (*sep == ',') sbuf_puts(out, ";\n");
  vec_foreach(&d->edges, i) {
    const inf_edge *e = &d->edges.items[i];
    if (!e->dropped && (e->from != e->to || !trivial(e))) print_edge(d, spec, e, out); /* else the idle step */
  }
}
