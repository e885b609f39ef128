/* spec-lang/sema.c -- checking declarations, threads and the system
 * (reference sections 3, 4 and 6) and building the derived tables. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "sema.h"
#include "semantics.h"

/* ---------------------------------------------------------------- consts and shared */

static bool declare_global(sema *s, const char *name, loc at, int code) {
  int old = symtab_put(&s->globals, name, code);
  if (old < 0) return true;
  diag_error(s->src, at, "'%s' is already declared", name);
  ast_spec *spec = s->spec;
  loc prev = old % 2 == 0 ? spec->consts.items[old / 2]->name_at : spec->variables.items[old / 2]->name_at;
  diag_note(s->src, prev, "'%s' was declared here", name);
  return false;
}

/* Registers every const and shared variable first, so that a use before the
 * definition is reported as such rather than as an unknown name. */
static void declare_globals(sema *s) {
  ast_spec *spec = s->spec;
  vec_foreach(&spec->decls, i) {
    ast_decl *d = &spec->decls.items[i];
    if (d->kind == DECL_CONST) {
      d->konst->index = (int)spec->consts.len;
      vec_push(spec->arena, &spec->consts, d->konst);
      declare_global(s, d->konst->name, d->konst->name_at, SEMA_CONST_CODE(d->konst->index));
    } else if (d->kind == DECL_SHARED) {
      d->shared->variable = (int)spec->variables.len;
      vec_push(spec->arena, &spec->variables, d->shared);
      declare_global(s, d->shared->name, d->shared->name_at, SEMA_SHARED_CODE(d->shared->variable));
    }
  }
}

/* The last --set of a name wins; every --set of it counts as used. */
static spec_override *take_override(const spec_options *opts, const char *name) {
  spec_override *last = NULL;
  for (size_t i = 0; opts && i < opts->override_count; i++) {
    if (strcmp(opts->overrides[i].name, name) != 0) continue;
    opts->overrides[i].used = true;
    last = &opts->overrides[i];
  }
  return last;
}

static void check_const(sema *s, ast_const *c) {
  c->failed = !sema_const_int(s, "a const definition", c->value_expr, &c->value);
  spec_override *o = take_override(s->opts, c->name);
  if (o) {
    c->value = o->value;
    c->overridden = true;
    c->failed = false;
  }
  s->consts_ready = c->index + 1;
}

static void check_range(sema *s, ast_type *t) {
  bool ok = sema_const_int(s, "a range bound", t->lo, &t->lo_value);
  ok &= sema_const_int(s, "a range bound", t->hi, &t->hi_value);
  if (ok && t->lo_value > t->hi_value) {
    diag_error(s->src, t->at, "empty range: %" PRId64 " is greater than %" PRId64, t->lo_value, t->hi_value);
    sema_note_overrides(s, t->lo);
    sema_note_overrides(s, t->hi);
  }
}

static void check_initial_value(sema *s, const ast_shared *v, ir_expr *init) {
  int64_t value;
  expr_rules r = {.where = "an initial value", .constant = true};
  ir_type want = v->type.kind == TYPE_BOOL ? TY_BOOL : TY_INT;
  if (!sema_expr_typed(s, &r, init, want) || !sema_eval(s, init, &value)) return;
  if (v->type.kind != TYPE_RANGE || (value >= v->type.lo_value && value <= v->type.hi_value)) return;
  diag_error(s->src, init->at, "initial value %" PRId64 " of '%s' is outside its range %" PRId64 "..%" PRId64, value,
             v->name, v->type.lo_value, v->type.hi_value);
  sema_note_overrides(s, v->type.lo);
  sema_note_overrides(s, v->type.hi);
}

/* The most cells (scalars and array elements) a spec may have. */
#define MAX_CELLS (1 << 16) /* far beyond what a composition explores; each cell costs a name and a slot */

/* An array's length: a constant from 1 to what the cells have left. */
static bool check_size(sema *s, ast_shared *v) {
  int64_t n;
  if (!sema_const_int(s, "an array length", v->size, &n)) return false;
  int64_t room = MAX_CELLS - (int64_t)s->spec->shared.len;
  if (n >= 1 && n <= room) {
    v->length = n;
    return true;
  }
  if (n < 1)
    diag_error(s->src, v->size->at, "array '%s' must have at least 1 element, but its length is %" PRId64, v->name, n);
  else
    diag_error(s->src, v->size->at,
               "array '%s' has %" PRId64 " elements; a spec may have at most %d shared values in all", v->name, n,
               MAX_CELLS);
  sema_note_overrides(s, v->size);
  return false;
}

/* A list of initial values gives each element of an array one. */
static bool check_init_list(sema *s, const ast_shared *v) {
  if (v->init_list.len == 0) return true;
  if (!v->size) {
    diag_error(s->src, v->init_list_at, "'%s' is not an array; give it one initial value ('= 0')", v->name);
    return false;
  }
  vec_foreach(&v->init_list, i) check_initial_value(s, v, v->init_list.items[i]);
  if ((int64_t)v->init_list.len == v->length || v->length == 0) return true;
  diag_error(s->src, v->init_list_at,
             "array '%s' has %" PRId64
             " elements but %zu initial values; give one per element, or one value for all ('= 0')",
             v->name, v->length, v->init_list.len);
  sema_note_overrides(s, v->size);
  return false;
}

/* Each C object stands for one cell: v's C path is not an earlier cell's
 * (two variables of one name are reported as such). */
static void check_binding(sema *s, const ast_shared *v) {
  int old = symtab_put(&s->c_names, ast_c_name(v), v->index);
  if (old < 0) return;
  const ast_shared *w = s->spec->shared.items[old];
  const ast_shared *vd = v->array ? v->array : v, *wd = w->array ? w->array : w;
  if (!vd->binds && !wd->binds) return; /* the same name twice: reported */
  bool global = !strpbrk(ast_c_name(v), ".[");
  diag_error(s->src, vd->binds ? vd->binds_at : vd->name_at,
             "C %s '%s' already stands for shared variable '%s'; bind '%s' to another %s", global ? "global" : "object",
             ast_c_name(v), w->name, v->name, global ? "global" : "one");
  diag_note(s->src, wd->binds ? wd->binds_at : wd->name_at, "'%s' stands for '%s' here", w->name, ast_c_name(w));
}

/* The cell of element k of array v. */
static ast_shared *element(sema *s, const ast_shared *v, int64_t k) {
  arena *a = s->spec->arena;
  ast_shared *c = arena_alloc(a, sizeof *c);
  *c = *v;
  c->name = arena_intern_cstr(a, arena_printf(a, "%s[%" PRId64 "]", v->name, k));
  c->size = NULL;
  c->init = v->init_list.len ? v->init_list.items[k] : v->init;
  memset(&c->init_list, 0, sizeof c->init_list);
  if (v->binds) c->binds = arena_intern_cstr(a, arena_printf(a, "%s[%" PRId64 "]", v->binds, k));
  c->length = 0;
  c->variable = -1;
  c->array = v;
  c->element = k;
  return c;
}

/* Gives v its cells: itself for a scalar, one per element for an array. */
static void add_cells(sema *s, ast_shared *v) {
  ast_spec *spec = s->spec;
  v->index = (int)spec->shared.len;
  if (!v->size) {
    vec_push(spec->arena, &spec->shared, v);
    check_binding(s, v);
    return;
  }
  for (int64_t k = 0; k < v->length; k++) {
    ast_shared *c = element(s, v, k);
    c->index = (int)spec->shared.len;
    vec_push(spec->arena, &spec->shared, c);
    check_binding(s, c);
  }
}

static void check_shared(sema *s, ast_shared *v) {
  if (v->type.kind == TYPE_RANGE) check_range(s, &v->type);
  if (v->size) check_size(s, v);
  if (v->init) check_initial_value(s, v, v->init);
  check_init_list(s, v);
  add_cells(s, v);
}

/* ---------------------------------------------------------------- threads: states */

static void collect_states(sema *s, ast_thread *t, symtab *names) {
  vec_foreach(&t->items, i) {
    if (t->items.items[i].kind != ITEM_STATES) continue;
    ast_state_decl *d = t->items.items[i].states;
    vec_foreach(&d->states, k) {
      ast_state *st = d->states.items[k];
      int old = symtab_put(names, st->name, (int)t->states.len);
      if (old >= 0) {
        diag_error(s->src, st->at, "state '%s' is already declared in thread '%s'", st->name, t->name);
        diag_note(s->src, t->states.items[old]->at, "'%s' was declared here", st->name);
        continue;
      }
      st->index = (int)t->states.len;
      vec_push(s->spec->arena, &t->states, st);
    }
  }
}

static expr_rules thread_rules(ast_thread *t, const char *where, bool primes) {
  return (expr_rules){.where = where, .primes = primes, .tid = true, .thread = t};
}

static void check_state_items(sema *s, ast_thread *t) {
  bool has_init = false;
  vec_foreach(&t->items, i) {
    ast_thread_item *it = &t->items.items[i];
    if (it->kind == ITEM_INVARIANT) {
      expr_rules r = thread_rules(t, "a thread invariant", false);
      sema_expr_typed(s, &r, it->invariant, TY_BOOL);
      vec_push(s->spec->arena, &t->invariants, it->invariant);
    } else if (it->kind == ITEM_STATES) {
      has_init |= it->states->initial;
      expr_rules r = thread_rules(t, "a state assertion", false);
      if (it->states->assertion) sema_expr_typed(s, &r, it->states->assertion, TY_BOOL);
    }
  }
  if (!has_init) diag_error(s->src, t->name_at, "thread '%s' has no init state; mark one with 'init state'", t->name);
}

/* ---------------------------------------------------------------- threads: edges */

static int resolve_state(sema *s, ast_thread *t, const symtab *names, const char *name, loc at) {
  int i = symtab_get(names, name);
  if (i >= 0) return i;
  char hint[96];
  sema_hint_state(hint, t, name);
  diag_error(s->src, at, "unknown state '%s' in thread '%s'%s", name, t->name, hint);
  return i;
}

/* The target of as as a checked primed expression (x' or a'[e]); sets
 * var_index. NULL after an error. */
static const ir_expr *assign_target(sema *s, ast_thread *t, ast_assign *as) {
  int code = symtab_get(&s->globals, as->var);
  if (code < 0 || code % 2 == 0) {
    if (code < 0) diag_error(s->src, as->var_at, "unknown shared variable '%s'", as->var);
    else diag_error(s->src, as->var_at, "cannot assign to const '%s'", as->var);
    return NULL;
  }
  const ast_shared *v = s->spec->variables.items[code / 2];
  loc at = as->target_at;
  if (!as->index) {
    if (v->size)
      diag_error(s->src, as->var_at, "'%s' is an array; assign one element, as in %s[0] := ...", as->var, as->var);
    ir_expr *x = ir_name(s->spec->arena, at, as->var, true);
    expr_rules r = thread_rules(t, "an assignment", true);
    if (v->size || sema_expr(s, &r, x) == TY_NONE) return NULL;
    as->var_index = x->index;
    return x;
  }
  ir_expr *x = ir_index(s->spec->arena, at, as->var, as->var_at, true, as->index);
  expr_rules r = thread_rules(t, "an assignment", false);
  if ((x->type = sema_index(s, &r, x, true)) == TY_NONE) return NULL;
  as->var_index = x->cell >= 0 ? x->cell : x->index;
  return x;
}

/* Two assignments to one variable, or to one element by constant indices
 * (an element and its whole array are reported as the array). */
static bool same_target(const ast_assign *a, const ast_assign *b) {
  if (a->var != b->var) return false;
  if (!a->index && !b->index) return true;
  if (!a->target || !b->target || a->target->kind != IR_INDEX || b->target->kind != IR_INDEX) return false;
  return a->target->cell >= 0 && a->target->cell == b->target->cell;
}

/* Two assignments of one edge to the same variable, or to the same element
 * by constant indices, are an error. */
static void check_twice(sema *s, const ast_edge *e, size_t k) {
  const ast_assign *as = &e->assigns.items[k];
  for (size_t j = 0; j < k; j++) {
    const ast_assign *bs = &e->assigns.items[j];
    if (!same_target(as, bs)) continue;
    bool element = as->target && as->target->kind == IR_INDEX;
    diag_error(s->src, as->target_at, "'%s' is assigned twice in one edge",
               element ? s->spec->shared.items[as->target->cell]->name : as->var);
    diag_note(s->src, bs->target_at, "first assigned here");
  }
}

static void check_assign(sema *s, ast_thread *t, ast_edge *e, size_t k) {
  ast_assign *as = &e->assigns.items[k];
  as->target = assign_target(s, t, as);
  check_twice(s, e, k);
  if (!as->value) return;
  expr_rules r = thread_rules(t, "an assigned value", false);
  ir_type got = sema_expr(s, &r, as->value);
  if (!as->target || got == TY_NONE) return;
  ir_type want = as->target->type;
  if (got != want)
    diag_error(s->src, as->value->at, "cannot assign %s %s value to %s variable '%s'", got == TY_INT ? "an" : "a",
               sema_type_name(got), sema_type_name(want), as->var);
}

/* True when cond is present, checked, constant and false. */
static bool constantly_false(sema *s, const ir_expr *cond) {
  int64_t v;
  return cond && cond->type == TY_BOOL && sema_is_constant(cond) && sema_eval(s, cond, &v) && !v;
}

static void check_edge(sema *s, ast_thread *t, const symtab *names, ast_edge *e) {
  e->from_index = resolve_state(s, t, names, e->from, e->from_at);
  e->to_index = resolve_state(s, t, names, e->to, e->to_at);
  if (e->kind == EDGE_RELATION) {
    expr_rules r = thread_rules(t, "a relation", true);
    sema_expr_typed(s, &r, e->relation, TY_BOOL);
  } else if (e->guard) {
    expr_rules r = thread_rules(t, "a guard", false);
    sema_expr_typed(s, &r, e->guard, TY_BOOL);
  }
  vec_foreach(&e->assigns, k) check_assign(s, t, e, k);
  const ir_expr *cond = e->kind == EDGE_RELATION ? e->relation : e->guard;
  if (s->opts && s->opts->warnings && constantly_false(s, cond))
    diag_warning(s->src, cond->at, "false-guard", "this edge can never be taken: its %s is always false",
                 e->kind == EDGE_RELATION ? "relation" : "guard");
}

/* Returns the edges grouped by source state: out[first[i]..first[i+1]) leave
 * state i. Both arrays are owned by the caller (free()). */
static int *edges_by_source(const ast_thread *t, int **first_out) {
  size_t n = t->states.len;
  int *first = xcalloc(n + 2, sizeof *first);
  int *out = xmalloc((t->edges.len + 1) * sizeof *out);
  vec_foreach(&t->edges, k)
    if (t->edges.items[k]->from_index >= 0) first[t->edges.items[k]->from_index + 2]++;
  for (size_t i = 2; i < n + 2; i++) first[i] += first[i - 1];
  vec_foreach(&t->edges, k)
    if (t->edges.items[k]->from_index >= 0) out[first[t->edges.items[k]->from_index + 1]++] = (int)k;
  *first_out = first;
  return out;
}

/* Warns about states that no path of edges leads to from an init state. */
static void warn_unreachable(sema *s, ast_thread *t) {
  size_t n = t->states.len;
  bool *seen = xcalloc(n, sizeof *seen);
  int *work = xmalloc(n * sizeof *work);
  int *first;
  int *out = edges_by_source(t, &first);
  size_t top = 0;
  vec_foreach(&t->states, i)
    if (t->states.items[i]->initial) seen[i] = true, work[top++] = (int)i;
  while (top > 0) {
    int from = work[--top];
    for (int k = first[from]; k < first[from + 1]; k++) {
      ast_edge *e = t->edges.items[out[k]];
      const ir_expr *cond = e->kind == EDGE_RELATION ? e->relation : e->guard;
      if (e->to_index < 0 || seen[e->to_index] || constantly_false(s, cond)) continue;
      seen[e->to_index] = true;
      work[top++] = e->to_index;
    }
  }
  vec_foreach(&t->states, i)
    if (!seen[i])
      diag_warning(s->src, t->states.items[i]->at, "unreachable-state", "state '%s' cannot be reached from an init state of thread '%s'",
                   t->states.items[i]->name, t->name);
  free(seen);
  free(work);
  free(first);
  free(out);
}

static void check_thread(sema *s, ast_thread *t) {
  t->index = (int)s->spec->threads.len;
  vec_push(s->spec->arena, &s->spec->threads, t);
  int old = symtab_put(&s->threads, t->name, t->index);
  if (old >= 0) {
    diag_error(s->src, t->name_at, "thread '%s' is already declared", t->name);
    diag_note(s->src, s->spec->threads.items[old]->name_at, "'%s' was declared here", t->name);
  }
  symtab names = {0};
  int errors_before = s->src->sink->errors;
  collect_states(s, t, &names);
  check_state_items(s, t);
  vec_foreach(&t->items, i) {
    if (t->items.items[i].kind != ITEM_EDGE) continue;
    ast_edge *e = t->items.items[i].edge;
    e->index = (int)t->edges.len;
    vec_push(s->spec->arena, &t->edges, e);
    check_edge(s, t, &names, e);
  }
  bool clean = s->src->sink->errors == errors_before;
  if (s->opts && s->opts->warnings && clean && t->states.len > 0) warn_unreachable(s, t);
  symtab_free(&names);
}

/* ---------------------------------------------------------------- the system */

/* The first item of the system that lists thread: where a second listing
 * points (the first may have been refused, so it need not be an instance). */
static const ast_instance *first_listing(const ast_system *sys, const char *thread) {
  vec_foreach(&sys->items, i) {
    const ast_sys_item *it = &sys->items.items[i];
    if (it->kind == SYS_INSTANCE && strcmp(it->instance->thread, thread) == 0) return it->instance;
  }
  return NULL;
}

static void add_instance(sema *s, ast_instance *in) {
  ast_spec *spec = s->spec;
  in->thread_index = symtab_get(&s->threads, in->thread);
  if (in->thread_index < 0) {
    char hint[96];
    sema_hint_thread(hint, spec, in->thread);
    diag_error(s->src, in->thread_at, "unknown thread '%s'%s", in->thread, hint);
    return;
  }
  int old = symtab_get(&s->instances, in->thread);
  if (old >= 0) {
    diag_error(s->src, in->thread_at, "thread '%s' is listed twice in system '%s'; write %s[N] for several instances",
               in->thread, spec->system->name, in->thread);
    diag_note(s->src, first_listing(spec->system, in->thread)->thread_at, "first listed here");
    return;
  }
  bool valid = !in->count || sema_const_int(s, "an instance count", in->count, &in->count_value);
  if (valid && in->count_value < 1) {
    diag_error(s->src, in->count->at, "the instance count of '%s' must be at least 1, but it is %" PRId64, in->thread,
               in->count_value);
    sema_note_overrides(s, in->count);
    valid = false;
  }
  if (!valid) {
    symtab_put(&s->instances, in->thread, SEMA_INVALID_INSTANCE);
    return;
  }
  in->first_tid = spec->instance_total + 1;
  if (__builtin_add_overflow(spec->instance_total, in->count_value, &spec->instance_total) ||
      spec->instance_total > INT32_MAX) {
    diag_error(s->src, in->count->at, "too many instances (the limit is %d in all)", INT32_MAX);
    return;
  }
  symtab_put(&s->instances, in->thread, (int)spec->instances.len);
  vec_push(spec->arena, &spec->instances, in);
}

static void check_system_exprs(sema *s, ast_system *sys) {
  vec_foreach(&sys->items, i) {
    ast_sys_item *it = &sys->items.items[i];
    if (it->kind == SYS_INIT) {
      expr_rules r = {.where = "a system init predicate", .static_index = true};
      sema_expr_typed(s, &r, it->expr, TY_BOOL);
      vec_push(s->spec->arena, &s->spec->inits, it->expr);
    } else if (it->kind == SYS_INVARIANT) {
      expr_rules r = {.where = "a system invariant", .count = true};
      sema_expr_typed(s, &r, it->expr, TY_BOOL);
      vec_push(s->spec->arena, &s->spec->properties, it->expr);
    }
  }
}

static void warn_unused_threads(sema *s, ast_system *sys) {
  vec_foreach(&s->spec->threads, i) {
    ast_thread *t = s->spec->threads.items[i];
    if (symtab_get(&s->instances, t->name) < 0)
      diag_warning(s->src, t->name_at, "unused-thread", "thread '%s' is not part of system '%s'", t->name, sys->name);
  }
}

static void check_system(sema *s, ast_system *sys) {
  if (s->spec->system != sys) {
    diag_error(s->src, sys->name_at, "a spec has at most one system, but '%s' is a second one", sys->name);
    diag_note(s->src, s->spec->system->name_at, "the first system is '%s'", s->spec->system->name);
    return;
  }
  vec_foreach(&sys->items, i)
    if (sys->items.items[i].kind == SYS_INSTANCE) add_instance(s, sys->items.items[i].instance);
  bool lists_instances = false;
  vec_foreach(&sys->items, i) lists_instances |= sys->items.items[i].kind == SYS_INSTANCE;
  if (!lists_instances)
    diag_error(s->src, sys->name_at, "system '%s' has no instances; list threads like 'T;' or 'T[N];'", sys->name);
  check_system_exprs(s, sys);
  if (s->opts && s->opts->warnings && s->src->sink->errors == 0) warn_unused_threads(s, sys);
}

/* Without a system, the system is one instance of every thread. */
static void default_instances(sema *s) {
  ast_spec *spec = s->spec;
  vec_foreach(&spec->threads, i) {
    ast_thread *t = spec->threads.items[i];
    ast_instance *in = arena_alloc(spec->arena, sizeof *in);
    *in = (ast_instance){.thread = t->name,
                         .thread_at = t->name_at,
                         .count_value = 1,
                         .thread_index = t->index,
                         .first_tid = (int64_t)i + 1};
    vec_push(spec->arena, &spec->instances, in);
  }
  spec->instance_total = (int64_t)spec->threads.len;
}

/* ---------------------------------------------------------------- driver */

static void report_unused_overrides(sema *s) {
  for (size_t i = 0; s->opts && i < s->opts->override_count; i++) {
    spec_override *o = &s->opts->overrides[i];
    if (o->used) continue;
    char hint[96];
    sema_hint_const(hint, s->spec, o->name);
    diag_error_at(s->src->sink, "athread", "--set %s=%" PRId64 ": %s declares no const '%s'%s", o->name, o->value,
                  s->src->name, o->name, hint);
  }
}

bool spec_check(ast_spec *spec, const spec_options *opts) {
  sema s = {.spec = spec, .src = spec->src, .opts = opts};
  int before = spec->src->sink->errors;
  declare_globals(&s);
  vec_foreach(&spec->decls, i) {
    ast_decl *d = &spec->decls.items[i];
    if (d->kind == DECL_CONST) check_const(&s, d->konst);
    else if (d->kind == DECL_SHARED) check_shared(&s, d->shared);
  }
  report_unused_overrides(&s);
  vec_foreach(&spec->decls, i)
    if (spec->decls.items[i].kind == DECL_SYSTEM && !spec->system) spec->system = spec->decls.items[i].system;
  vec_foreach(&spec->decls, i)
    if (spec->decls.items[i].kind == DECL_THREAD) check_thread(&s, spec->decls.items[i].thread);
  vec_foreach(&spec->decls, i)
    if (spec->decls.items[i].kind == DECL_SYSTEM) check_system(&s, spec->decls.items[i].system);
  if (!spec->system) default_instances(&s);
  symtab_free(&s.globals);
  symtab_free(&s.threads);
  symtab_free(&s.instances);
  symtab_free(&s.c_names);
  if (spec->src->sink->errors != before) return false;
  return sem_build(spec);
}
