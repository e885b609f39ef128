/* conformance/initial.c -- the C initial values of the spec's cells (from
 * cfront/'s reader: initializers, C's zero, the creator's early writes)
 * checked against the spec's initial values, ranges and init predicates. */
#include "initial.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/strbuf.h"
#include "../core/symtab.h"
#include "../spec-lang/semantics.h"

/* Where a cell's C value comes from. */
typedef enum origin {
  FROM_INIT,  /* its initializer's expression */
  FROM_ZERO,  /* the global has no initializer */
  FROM_FILL,  /* the initializer does not set it */
  FROM_LOCK,  /* a lock object: it starts free */
  FROM_EARLY, /* the creator writes it before the first start */
} origin;

/* What C says about one cell. */
typedef struct cval {
  bool object;              /* its C path names a scalar of a global that the files define or declare */
  bool used;                /* the checked threads' code reads or writes it */
  bool known;               /* object: its initial value is known */
  int64_t value;            /* known: the value */
  origin from;              /* object: where the value (or the unknown one) comes from */
  cfp_span at;              /* and the C place */
  const char *why;          /* !known: why, for the note (heap; NULL when known) */
  const cfp_global *global; /* object: its global */
  const char *path;         /* its C path */
} cval;

typedef struct checker {
  diag_sink *sink;            /* borrowed */
  const ast_spec *spec;       /* borrowed */
  const cfp_program *p;       /* borrowed */
  cval *cells;                /* per cell of spec->shared */
  bool *read_by_init;         /* per cell: some init predicate reads it */
  symtab globals;             /* a global's interned name -> its index in p->globals */
  symtab statics;             /* a static local's interned path ("f.n") -> its index in p->statics */
  cfp_accesses before;        /* when main calls the creator: what main writes, in an order not followed */
  bool creator_checked;       /* a checked thread runs the creator's code: its writes are steps, not initial values */
  VEC(cfp_step) steps;        /* scratch: the steps of the cell being resolved */
  VEC(diag_source *) sources; /* the C files loaded for messages */
  init_notes *notes;          /* borrowed */
  bool ok;                    /* no disagreement reported */
} checker;

/* ---------------------------------------------------------------- C places and messages */

static diag_source *source_of(checker *k, const char *file) {
  vec_foreach(&k->sources, i)
    if (strcmp(k->sources.items[i]->name, file) == 0) return k->sources.items[i];
  diag_sink quiet = {0};
  diag_source *src = diag_source_load(&quiet, file);
  if (!src) return NULL;
  src->sink = k->sink;
  vec_push(NULL, &k->sources, src);
  return src;
}

/* "file:line:col: KIND: message" with a caret at a C place. */
static void c_message(checker *k, bool error, const cfp_span *at, const char *text) {
  diag_source *src = at->file && *at->file ? source_of(k, at->file) : NULL;
  if (src && at->end <= src->len) {
    loc l = {at->start, at->end > at->start ? at->end : at->start};
    if (error) diag_error(src, l, "%s", text);
    else diag_note(src, l, "%s", text);
  } else {
    char where[512];
    snprintf(where, sizeof where, "%s:%u:%u", at->file ? at->file : "", at->line, at->col);
    diag_error_at(k->sink, where, "%s%s", error ? "" : "note: ", text);
  }
}

static char *place_text(const cfp_span *at) {
  strbuf b = {0};
  sbuf_printf(&b, "%s:%u", at->file ? at->file : "?", at->line);
  return sbuf_take(&b);
}

static void add_note(checker *k, strbuf *b) { vec_push(NULL, k->notes, sbuf_take(b)); }

static void value_text(const ast_shared *sh, int64_t v, strbuf *out) {
  if (sh->type.kind == TYPE_BOOL) sbuf_puts(out, v ? "true" : "false");
  else sbuf_printf(out, "%" PRId64, v);
}

/* What C does to the cell: "the C initializer gives x the value 5". */
static void origin_text(const checker *k, const ast_shared *sh, const cval *c, strbuf *out) {
  switch (c->from) {
  case FROM_INIT: sbuf_printf(out, "the C initializer gives %s the value ", c->path); break;
  case FROM_ZERO: sbuf_printf(out, "'%s' has no C initializer, so %s starts at ", c->global->name, c->path); break;
  case FROM_FILL:
    sbuf_printf(out, "the C initializer of '%s' does not set %s, so it starts at ", c->global->name, c->path);
    break;
  case FROM_EARLY: sbuf_printf(out, "%s sets %s to ", k->p->creator, c->path); break;
  case FROM_LOCK: sbuf_printf(out, "a C lock starts free, so %s starts at ", c->path); break;
  }
  value_text(sh, c->value, out);
  if (c->from == FROM_EARLY) sbuf_puts(out, " before the first thread starts");
}

/* ---------------------------------------------------------------- C paths */

/* What parse_path returns for static local k: STATIC_BASE + k. */
#define STATIC_BASE (1 << 28)

/* Splits path ("ext.q[2]", "f.n.q[2]") into its global or static local
 * (returned; -1 when the program has none of that name) and k->steps. */
static int parse_path(checker *k, const char *path) {
  k->steps.len = 0;
  size_t n = strcspn(path, ".[");
  int g = symtab_get(&k->globals, arena_intern(k->p->arena, path, n));
  if (g < 0 && path[n] == '.') { /* a static local: "FUNCTION.NAME" */
    n += 1 + strcspn(path + n + 1, ".[");
    g = symtab_get(&k->statics, arena_intern(k->p->arena, path, n));
    g = g >= 0 ? STATIC_BASE + g : -1;
  }
  for (const char *s = path + n; g >= 0 && *s;) {
    cfp_step step = {NULL, 0};
    if (*s == '.') {
      n = strcspn(s + 1, ".[");
      step.field = arena_intern(k->p->arena, s + 1, n);
      s += n + 1;
    } else {
      char *end;
      step.index = strtoll(s + 1, &end, 10);
      s = *end == ']' ? end + 1 : end;
    }
    vec_push(NULL, &k->steps, step);
  }
  return g;
}

/* The type at steps from t, or NULL when they do not name a part of it. */
static const cfp_type *type_at(const cfp_type *t, const cfp_step *steps, size_t len) {
  for (size_t i = 0; t && i < len; i++) {
    if (t->kind == CFP_ARRAY && !steps[i].field) {
      t = steps[i].index >= 0 && steps[i].index < t->length ? t->elem : NULL;
      continue;
    }
    const cfp_type *next = NULL;
    vec_foreach(&t->fields, f)
      if (t->kind == CFP_STRUCT && steps[i].field && strcmp(t->fields.items[f].name, steps[i].field) == 0)
        next = t->fields.items[f].type;
    t = next;
  }
  return t;
}

/* True when access a (an index CFP_ANY standing for every one) covers the steps of the cell. */
static bool covers(const cfp_access *a, const cfp_step *steps, size_t len) {
  if (a->len > len) return false;
  for (size_t i = 0; i < a->len; i++) {
    const cfp_step *s = &a->steps[i], *t = &steps[i];
    if (s->field || t->field) {
      if (s->field != t->field) return false;
    } else if (s->index != CFP_ANY && s->index != t->index) {
      return false;
    }
  }
  return true;
}

/* Marks the cells that a concrete program's code reads or writes. */
typedef struct user {
  checker *k;       /* whose cells */
  const prog *code; /* the program */
} user;

static void use_var(const user *u, int v) {
  if (v >= 0 && u->code->vars.items[v].kind == VAR_SHARED) u->k->cells[u->code->vars.items[v].shared_index].used = true;
}

static void use_expr(const ir_expr *e, void *ctx) {
  if (e->kind == IR_NAME && e->ref == REF_VAR) use_var(ctx, e->index);
}

static void mark_used(checker *k, const prog *code) {
  user u = {k, code};
  vec_foreach(&code->edges, i) {
    const prog_edge *e = &code->edges.items[i];
    if (e->action == ACT_ASSIGN || e->action == ACT_HAVOC) use_var(&u, e->var);
    if (e->expr) ir_walk(e->expr, use_expr, &u);
  }
}

/* ---------------------------------------------------------------- C values */

static void unknown(cval *c, origin from, cfp_span at, char *why) {
  free((void *)c->why);
  c->known = false;
  c->from = from;
  c->at = at;
  c->why = why;
}

static void known(cval *c, origin from, cfp_span at, int64_t v) {
  unknown(c, from, at, NULL);
  c->known = true;
  c->value = v;
}

static char *reason(const char *fmt, const cfp_span *at) {
  char *place = place_text(at);
  strbuf b = {0};
  sbuf_printf(&b, fmt, place);
  free(place);
  return sbuf_take(&b);
}

/* The value g's initializer (or C's zero) gives slot leaf. */
static void initializer_value(cval *c, const cfp_global *g, uint64_t leaf) {
  if (!g->defined) return unknown(c, FROM_ZERO, g->name_at, xstrdup("it is declared 'extern' and defined elsewhere"));
  if (g->init_unknown)
    return unknown(c, FROM_INIT, g->init_at, reason("athread cannot read its C initializer at %s", &g->init_at));
  const cfp_leaf_value *lv = cfp_initializer_of(g, leaf);
  if (!lv) return g->init_at.file ? known(c, FROM_FILL, g->init_at, 0) : known(c, FROM_ZERO, g->name_at, 0);
  if (lv->value.kind == CFP_KNOWN) return known(c, FROM_INIT, lv->at, lv->value.value);
  const char *fmt = lv->value.kind == CFP_TOO_BIG ? "its C initializer at %s does not fit in 64 bits"
                                                  : "its C initializer at %s is not a constant";
  unknown(c, FROM_INIT, lv->at, reason(fmt, &lv->at));
}

/* main's writes when another function starts the threads: some may come
 * before the start, so each makes the value unknown. */
static void main_writes(const checker *k, cval *c, int g) {
  vec_foreach(&k->before, i) {
    const cfp_access *a = &k->before.items[i];
    if (a->global != g || !a->write || !covers(a, k->steps.items, k->steps.len)) continue;
    strbuf b = {0};
    sbuf_printf(&b, "main writes it, and the threads start in %s, which main calls: the order is not followed",
                k->p->creator);
    return unknown(c, FROM_EARLY, c->global->name_at, sbuf_take(&b));
  }
}

/* Then the creator's writes before the first start, in order. */
static void early_values(const checker *k, cval *c, int g, bool is_bool) {
  main_writes(k, c, g);
  vec_foreach(&k->p->early, i) {
    const cfp_early *e = &k->p->early.items[i];
    if (e->where.global != g || !covers(&e->where, k->steps.items, k->steps.len)) continue;
    if (e->value.kind == CFP_KNOWN && e->where.len == k->steps.len) {
      known(c, FROM_EARLY, e->at, is_bool ? e->value.value != 0 : e->value.value);
      continue;
    }
    char *place = place_text(&e->at);
    strbuf b = {0};
    sbuf_printf(&b, "%s writes a value athread does not know at %s", k->p->creator, place);
    free(place);
    unknown(c, FROM_EARLY, e->at, sbuf_take(&b));
  }
}

static void resolve_cell(checker *k, size_t i) {
  const ast_shared *sh = k->spec->shared.items[i];
  cval *c = &k->cells[i];
  c->path = ast_c_name(sh);
  int g = parse_path(k, c->path);
  if (g < 0) return;
  const cfp_global *global = g >= STATIC_BASE ? k->p->statics.items[g - STATIC_BASE] : k->p->globals.items[g];
  const cfp_type *t = type_at(global->type, k->steps.items, k->steps.len);
  if (global->thread_local) return;
  c->object = true;
  c->global = global;
  if (t && t->kind == CFP_LOCK) return known(c, FROM_LOCK, global->name_at, 0); /* C's zero, the static
    initializers and the init functions all give a free lock */
  if (!t || (t->kind != CFP_INT && t->kind != CFP_BOOL))
    return unknown(c, FROM_ZERO, global->name_at, xstrdup("athread does not read the initial state of its C type"));
  initializer_value(c, global, cfp_leaf_of(global->type, k->steps.items, k->steps.len));
  if (g < STATIC_BASE && !k->creator_checked) /* no other function writes a static local */
    early_values(k, c, g, t->kind == CFP_BOOL);
}

/* ---------------------------------------------------------------- the cells' constraints */

static bool constrained(const checker *k, size_t i) {
  const ast_shared *sh = k->spec->shared.items[i];
  return sh->init || sh->type.kind == TYPE_RANGE || k->read_by_init[i];
}

/* "ORIGIN, but the spec ..." at the C place, then a note at the spec's. */
static void disagree(checker *k, size_t i, const char *spec_side, loc spec_at, const char *spec_note) {
  const ast_shared *sh = k->spec->shared.items[i];
  strbuf b = {0};
  origin_text(k, sh, &k->cells[i], &b);
  sbuf_printf(&b, ", but %s", spec_side);
  c_message(k, true, &k->cells[i].at, sbuf_str(&b));
  diag_note(k->spec->src, spec_at, "%s", spec_note);
  sbuf_free(&b);
  k->ok = false;
}

static void check_cell(checker *k, size_t i) {
  const ast_shared *sh = k->spec->shared.items[i];
  const cval *c = &k->cells[i];
  if (!c->used || !constrained(k, i)) return;
  strbuf b = {0};
  if (!c->known) {
    sbuf_printf(&b, "the initial value of %s is not checked (%s)", sh->name, c->why);
    return add_note(k, &b);
  }
  int64_t w;
  if (sh->init && sem_constant(k->spec, sh->init, &w) && w != c->value) {
    sbuf_puts(&b, "the spec starts it at ");
    value_text(sh, w, &b);
    disagree(k, i, sbuf_str(&b), sh->init->at, "the spec's initial value is here");
  } else if (sh->type.kind == TYPE_RANGE && (c->value < sh->type.lo_value || c->value > sh->type.hi_value)) {
    sbuf_printf(&b, "the spec's range for it is %" PRId64 "..%" PRId64, sh->type.lo_value, sh->type.hi_value);
    disagree(k, i, sbuf_str(&b), sh->type.at, "the spec's range is here");
  }
  sbuf_free(&b);
}

/* ---------------------------------------------------------------- init predicates */

/* The conjuncts of e: && chains and forall expansions split. */
static void conjuncts(const ir_expr *e, ir_expr_list *out) {
  if (e->kind == IR_QUANT && e->op == OP_AND) return conjuncts(e->lowered, out);
  if (e->kind == IR_BINARY && e->op == OP_AND) {
    conjuncts(e->a, out);
    return conjuncts(e->b, out);
  }
  vec_push(NULL, out, e);
}

typedef struct reads {
  const ast_spec *spec; /* its cells */
  VEC(int) cells;       /* the cells read, in order of first reading (heap) */
  bool *seen;           /* per cell (heap) */
} reads;

static void add_read(reads *r, int cell) {
  if (r->seen[cell]) return;
  r->seen[cell] = true;
  vec_push(NULL, &r->cells, cell);
}

static void note_read(const ir_expr *e, void *ctx) {
  reads *r = ctx;
  if (e->kind == IR_NAME && e->ref == REF_SHARED) add_read(r, e->index);
  if (e->kind != IR_INDEX) return;
  if (e->cell >= 0) return add_read(r, e->cell);
  for (int64_t j = 0; j < e->extent; j++) add_read(r, e->index + (int)j); /* any element */
}

static void clear_reads(reads *r) {
  vec_foreach(&r->cells, j) r->seen[r->cells.items[j]] = false;
  r->cells.len = 0;
}

/* e's value over the cells' C values; false when it cannot be computed. */
static bool eval(const checker *k, const ir_expr *e, int64_t *out) {
  int64_t a = 0, b = 0;
  switch (e->kind) {
  case IR_NAME:
    if (e->ref != REF_SHARED) return sem_constant(k->spec, e, out);
    *out = k->cells[e->index].value;
    return true;
  case IR_INDEX:
    if (e->cell >= 0) a = e->cell - e->index;
    else if (!eval(k, e->a, &a) || a < 0 || a >= e->extent) return false;
    *out = k->cells[e->index + a].value;
    return true;
  case IR_UNARY: return eval(k, e->a, &a) && ir_arith(e->op, a, 0, out) == IR_FAULT_NONE;
  case IR_ITE: return eval(k, e->a, &a) && eval(k, a ? e->b : e->c, out);
  case IR_QUANT: return eval(k, e->lowered, out);
  case IR_BINARY: break;
  default: return sem_constant(k->spec, e, out);
  }
  if (!eval(k, e->a, &a)) return false;
  if ((e->op == OP_AND && !a) || (e->op == OP_OR && a) || (e->op == OP_IMPLIES && !a))
    return *out = e->op == OP_IMPLIES || e->op == OP_OR, true;
  return eval(k, e->b, &b) && ir_arith(e->op, a, b, out) == IR_FAULT_NONE;
}

/* The spec's init predicate P (a conjunct) is false on the C values. */
static void predicate_fails(checker *k, const ir_expr *pred, const reads *r) {
  strbuf b = {0};
  vec_foreach(&r->cells, j) {
    const ast_shared *sh = k->spec->shared.items[r->cells.items[j]];
    sbuf_printf(&b, "%s%s = ", j ? ", " : "", sh->name);
    value_text(sh, k->cells[r->cells.items[j]].value, &b);
  }
  diag_error(k->spec->src, pred->at, "the C program's initial state does not satisfy the spec's init predicate: %s",
             sbuf_str(&b));
  vec_foreach(&r->cells, j) {
    if (j == 8) break; /* enough to see where the values come from */
    b.len = 0;
    origin_text(k, k->spec->shared.items[r->cells.items[j]], &k->cells[r->cells.items[j]], &b);
    c_message(k, false, &k->cells[r->cells.items[j]].at, sbuf_str(&b));
  }
  sbuf_free(&b);
  k->ok = false;
}

/* Why pred cannot be evaluated (heap; "" when a cell's note says it), or
 * NULL when every cell it reads has a known C value. */
static char *unevaluable(const checker *k, const reads *r) {
  vec_foreach(&r->cells, j) {
    const cval *c = &k->cells[r->cells.items[j]];
    if (c->used && !c->known) return xstrdup("");
  }
  vec_foreach(&r->cells, j) {
    const cval *c = &k->cells[r->cells.items[j]];
    if (c->object && c->known) continue;
    strbuf b = {0};
    const char *name = k->spec->shared.items[r->cells.items[j]]->name;
    if (!c->object) sbuf_printf(&b, "'%s' is not a C global's scalar", name);
    else sbuf_printf(&b, "the C initial value of '%s' is not known: %s", name, c->why);
    return sbuf_take(&b);
  }
  return NULL;
}

static void check_predicate(checker *k, const ir_expr *pred, reads *r) {
  clear_reads(r);
  ir_walk(pred, note_read, r);
  bool any_used = false;
  vec_foreach(&r->cells, j) any_used |= k->cells[r->cells.items[j]].used;
  if (!any_used) return;
  char *why = unevaluable(k, r);
  int64_t v = 1;
  if (!why && !eval(k, pred, &v)) why = xstrdup("evaluating it overflows");
  if (why && *why) {
    strbuf text = {0}, b = {0};
    ir_print(&text, pred);
    size_t line, col;
    diag_line_col(k->spec->src, pred->at.start, &line, &col);
    sbuf_printf(&b, "the spec's init predicate '%s' (%s:%zu) is not checked on the C initial values (%s)",
                sbuf_str(&text), k->spec->src->name, line, why);
    sbuf_free(&text);
    add_note(k, &b);
  } else if (!why && !v) {
    predicate_fails(k, pred, r);
  }
  free(why);
}

static void check_predicates(checker *k) {
  ir_expr_list all = {0};
  vec_foreach(&k->spec->inits, i) conjuncts(k->spec->inits.items[i], &all);
  reads r = {k->spec, {0}, xcalloc(k->spec->shared.len + 1, sizeof(bool))};
  vec_foreach(&all, i) check_predicate(k, all.items[i], &r);
  vec_free(&r.cells);
  free(r.seen);
  vec_free(&all);
}

static void mark_init_reads(checker *k) {
  reads r = {k->spec, {0}, k->read_by_init};
  vec_foreach(&k->spec->inits, i) ir_walk(k->spec->inits.items[i], note_read, &r);
  vec_free(&r.cells);
}

/* ---------------------------------------------------------------- entry */

/* Does function from call function to, directly or through others (or is it to)? */
static bool calls(const cfp_program *p, const char *from, const char *to) {
  const cfp_function *start = cfp_function_named(p, from);
  if (!start) return strcmp(from, to) == 0;
  VEC(const char *) todo = {0};
  symtab seen = {0}; /* the names of p (interned in its arena) */
  vec_push(NULL, &todo, start->name);
  bool found = false;
  while (todo.len && !found) {
    const char *f = todo.items[--todo.len];
    found = strcmp(f, to) == 0;
    const cfp_function *fn = symtab_put(&seen, f, 1) < 0 ? cfp_function_named(p, f) : NULL;
    if (fn) vec_foreach(&fn->callees, i) vec_push(NULL, &todo, fn->callees.items[i]);
  }
  vec_free(&todo);
  symtab_free(&seen);
  return found;
}

/* Does a checked thread run the creator (or main, which calls it)? Then the
 * program starts with that thread, from the initializers: what it writes
 * before the first start are its steps, checked against its abstract thread. */
static bool creator_checked(const cfp_program *p, const prog *const *codes, size_t count) {
  for (size_t i = 0; p->creator && i < count; i++)
    if (calls(p, codes[i]->function, p->creator) || calls(p, codes[i]->function, "main")) return true;
  return false;
}

static void checker_init(checker *k, const prog *const *codes, size_t count) {
  size_t n = k->spec->shared.len + 1;
  k->cells = xcalloc(n, sizeof *k->cells);
  k->read_by_init = xcalloc(n, sizeof *k->read_by_init);
  vec_foreach(&k->p->globals, g) symtab_put(&k->globals, k->p->globals.items[g]->name, (int)g);
  vec_foreach(&k->p->statics, g) symtab_put(&k->statics, k->p->statics.items[g]->name, (int)g);
  for (size_t i = 0; i < count; i++) mark_used(k, codes[i]);
  k->creator_checked = creator_checked(k->p, codes, count);
  if (k->p->creator && strcmp(k->p->creator, "main") != 0) cfp_reach(k->p, "main", &k->before);
}

static void checker_free(checker *k) {
  vec_foreach(&k->spec->shared, i) free((void *)k->cells[i].why);
  free(k->cells);
  free(k->read_by_init);
  symtab_free(&k->globals);
  symtab_free(&k->statics);
  vec_free(&k->before);
  vec_free(&k->steps);
  vec_foreach(&k->sources, i) diag_source_free(k->sources.items[i]);
  vec_free(&k->sources);
}

bool init_check(diag_sink *sink, const ast_spec *spec, const cfp_program *p, const prog *const *codes, size_t count,
                init_notes *notes) {
  checker k = {.sink = sink, .spec = spec, .p = p, .notes = notes, .ok = true};
  checker_init(&k, codes, count);
  mark_init_reads(&k);
  vec_foreach(&spec->shared, i) resolve_cell(&k, i);
  vec_foreach(&spec->shared, i) check_cell(&k, i);
  check_predicates(&k);
  checker_free(&k);
  return k.ok;
}

bool init_constrains(const ast_spec *spec) {
  bool any = spec->inits.len > 0;
  vec_foreach(&spec->shared, i) any |= spec->shared.items[i]->init || spec->shared.items[i]->type.kind == TYPE_RANGE;
  return any;
}

void init_unreadable(const ast_spec *spec, const char *why, init_notes *notes) {
  if (!init_constrains(spec)) return;
  strbuf b = {0};
  sbuf_printf(&b, "the initial values of the shared variables are not checked (clang cannot read the C files: %s)",
              why);
  vec_push(NULL, notes, sbuf_take(&b));
}
