/* spec-lang/properties.c -- the properties of a spec and their IDs. */
#include "properties.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/suggest.h"
#include "semantics.h"

static void visit(spec_property_fn fn, void *ctx, const char *owner, const char *what, size_t k,
                  spec_property_kind kind, const ir_expr *e, const ast_thread *t) {
  char id[300];
  snprintf(id, sizeof id, "%.200s.%s.%zu", owner, what, k);
  fn(ctx, &(spec_property){.id = id, .kind = kind, .expr = e, .thread = t});
}

/* The distinct assertions of t's states, in order: the states of one
 * declaration share theirs. */
static void thread_assertions(const ast_thread *t, spec_property_fn fn, void *ctx) {
  const ir_expr *last = NULL;
  size_t k = 0;
  vec_foreach(&t->states, i) {
    const ir_expr *a = t->states.items[i]->assertion;
    if (a && a != last) visit(fn, ctx, t->name, "assert", ++k, PROPERTY_ASSERTION, a, t);
    if (a) last = a;
  }
}

void spec_properties_each(const ast_spec *spec, spec_property_fn fn, void *ctx) {
  vec_foreach(&spec->properties, i)
    visit(fn, ctx, "system", "invariant", i + 1, PROPERTY_SYSTEM_INVARIANT, spec->properties.items[i], NULL);
  vec_foreach(&spec->threads, i) {
    const ast_thread *t = spec->threads.items[i];
    vec_foreach(&t->invariants, j)
      visit(fn, ctx, t->name, "invariant", j + 1, PROPERTY_THREAD_INVARIANT, t->invariants.items[j], t);
    thread_assertions(t, fn, ctx);
  }
}

typedef struct id_search {
  const ir_expr *e; /* the formula sought */
  strbuf *out;      /* where its ID goes */
  bool found;       /* it was met */
} id_search;

static void match(void *ctx, const spec_property *p) {
  id_search *s = ctx;
  if (p->expr != s->e || s->found) return;
  sbuf_puts(s->out, p->id);
  s->found = true;
}

bool spec_property_id(const ast_spec *spec, const ir_expr *e, strbuf *out) {
  id_search s = {.e = e, .out = out};
  spec_properties_each(spec, match, &s);
  return s.found;
}

/* ---------------------------------------------------------------- --property */

typedef struct property_list {
  VEC(char *) ids;            /* every ID, owned */
  VEC(const ir_expr *) exprs; /* their formulas */
  VEC(bool) kept;             /* selected */
} property_list;

static void collect(void *ctx, const spec_property *p) {
  property_list *l = ctx;
  vec_push(NULL, &l->ids, xstrdup(p->id));
  vec_push(NULL, &l->exprs, p->expr);
  vec_push(NULL, &l->kept, false);
}

static bool kept(const property_list *l, const ir_expr *e) {
  vec_foreach(&l->exprs, i)
    if (l->exprs.items[i] == e) return l->kept.items[i];
  return true; /* not a property: an edge's own check */
}

static bool drops(const property_list *l, const sem_check *c) {
  if (c->kind == SEM_BOUNDS) return c->within && !kept(l, c->within);
  return c->kind != SEM_CONFLICT && !kept(l, c->what);
}

/* checks without those of the properties not kept, in the spec's arena. */
static const sem_checks *filtered(arena *a, const property_list *l, const sem_checks *checks) {
  if (!checks) return NULL;
  sem_checks *out = arena_alloc(a, sizeof *out);
  sem_check *items = arena_alloc(a, (checks->len + 1) * sizeof *items);
  size_t n = 0;
  for (size_t i = 0; i < checks->len; i++)
    if (!drops(l, &checks->items[i])) items[n++] = checks->items[i];
  *out = (sem_checks){.items = items, .len = n};
  return out;
}

/* Marks id kept; false (reported) when no property has it. */
static bool select_one(property_list *l, const char *id, diag_sink *sink) {
  vec_foreach(&l->ids, i)
    if (strcmp(l->ids.items[i], id) == 0) return l->kept.items[i] = true;
  const char *near = suggest_name(id, (const char **)l->ids.items, l->ids.len);
  diag_error_at(sink, "athread", "--property %s: the spec states no such property%s%s%s (compose --show-properties lists them)",
                id, near ? "; did you mean '" : "", near ? near : "", near ? "'?" : "");
  return false;
}

bool spec_select_properties(ast_spec *spec, const char *const *ids, size_t n, diag_sink *sink) {
  if (n == 0) return true; /* no selection: every property */
  property_list l = {0};
  spec_properties_each(spec, collect, &l);
  bool ok = true;
  for (size_t i = 0; i < n; i++) ok &= select_one(&l, ids[i], sink);
  vec_foreach(&spec->threads, t)
    vec_foreach(&spec->threads.items[t]->states, s) {
      ast_state *st = spec->threads.items[t]->states.items[s];
      st->checks = filtered(spec->arena, &l, st->checks);
    }
  spec->checks = filtered(spec->arena, &l, spec->checks);
  vec_foreach(&l.ids, i) free(l.ids.items[i]);
  vec_free(&l.ids);
  vec_free(&l.exprs);
  vec_free(&l.kept);
  return ok;
}

const char *spec_property_kind_name(spec_property_kind k) {
  static const char *const names[] = {[PROPERTY_SYSTEM_INVARIANT] = "system invariant",
                                      [PROPERTY_THREAD_INVARIANT] = "thread invariant",
                                      [PROPERTY_ASSERTION] = "assertion"};
  return names[k];
}
