/* compose/forall-param.c -- N in a spec, for --for-all: which consts are
 * computed from it, which expressions read it, which instances it counts,
 * and whether the counter abstraction applies. */
#include "forall-param.h"

#include <stdlib.h>
#include <string.h>

#include "../core/arena.h"
#include "engine-forall.h"

typedef struct mention {
  int param;           /* const index of N */
  const bool *depends; /* per const, or NULL: only N itself counts */
  bool found;          /* some name reads N */
} mention;

static void mention_visit(const ir_expr *x, void *ctx) {
  mention *m = ctx;
  if (x->kind == IR_NAME && x->ref == REF_CONST && (x->index == m->param || (m->depends && m->depends[x->index])))
    m->found = true;
}

bool fa_mentions(int param, const bool *depends, const ir_expr *x) {
  mention m = {param, depends, false};
  if (x) ir_walk(x, mention_visit, &m);
  return m.found;
}

/* Per const: its value is computed from N (directly or through other consts)
 * and not fixed by --set. */
bool *fa_dependent_consts(const ast_spec *spec, int param) {
  bool *dep = xcalloc(spec->consts.len + 1, sizeof *dep);
  for (bool changed = true; changed;) {
    changed = false;
    vec_foreach(&spec->consts, i) {
      const ast_const *c = spec->consts.items[i];
      if (dep[i] || (int)i == param || c->overridden || !fa_mentions(param, dep, c->value_expr)) continue;
      dep[i] = changed = true;
    }
  }
  return dep;
}

int fa_const_index(const ast_spec *spec, const char *name) {
  const ast_const *c = ast_find_const(spec, name);
  return c ? c->index : -1;
}

bool fa_range_depends(const ast_type *ty, int param, const bool *depends) {
  return ty->kind == TYPE_RANGE && (fa_mentions(param, depends, ty->lo) || fa_mentions(param, depends, ty->hi));
}

/* Some expression of thread t reads const param (or a const computed from it). */
static bool thread_reads(const ast_thread *t, int param, const bool *depends) {
  bool any = false;
  vec_foreach(&t->items, i) {
    const ast_thread_item *it = &t->items.items[i];
    if (it->kind == ITEM_INVARIANT) any = any || fa_mentions(param, depends, it->invariant);
    else if (it->kind == ITEM_STATES) any = any || fa_mentions(param, depends, it->states->assertion);
    else {
      const ast_edge *ed = it->edge;
      any = any || fa_mentions(param, depends, ed->relation) || fa_mentions(param, depends, ed->guard);
      vec_foreach(&ed->assigns, k)
        any = any || fa_mentions(param, depends, ed->assigns.items[k].value) ||
              fa_mentions(param, depends, ed->assigns.items[k].index);
    }
  }
  return any;
}

bool fa_threads_read(const ast_spec *spec, int param, const bool *depends) {
  vec_foreach(&spec->threads, t)
    if (thread_reads(spec->threads.items[t], param, depends)) return true;
  vec_foreach(&spec->shared, i)
    if (fa_range_depends(&spec->shared.items[i]->type, param, depends)) return true;
  return false;
}

bool fa_counts_exactly(const ast_instance *in, int param) {
  return in->count && in->count->kind == IR_NAME && in->count->ref == REF_CONST && in->count->index == param;
}

typedef struct problems {
  const ast_spec *spec; /* for the sink */
  int param;            /* const index of N */
  const bool *depends;  /* per const */
  const bool *counted;  /* per thread */
  bool ok;              /* nothing reported */
} problems;

/* T[i]@S of a counted thread, T[N]@S, and division by an expression in N. */
static void problem_visit(const ir_expr *x, void *ctx) {
  problems *p = ctx;
  const char *n = p->spec->consts.items[p->param]->name;
  if (x->kind == IR_AT && p->counted[x->index]) {
    diag_error(p->spec->src, x->at,
               "--for-all %s needs a symmetric thread, but this names an instance of '%s' by index", n, x->text);
    p->ok = false;
  } else if (x->kind == IR_AT && fa_mentions(p->param, p->depends, x->a)) {
    diag_error(p->spec->src, x->at, "--for-all %s: an instance index cannot depend on %s", n, n);
    p->ok = false;
  } else if (x->kind == IR_BINARY && (x->op == OP_DIV || x->op == OP_MOD) && fa_mentions(p->param, p->depends, x->b)) {
    diag_error(p->spec->src, x->b->at, "--for-all %s: cannot divide by an expression in %s (it is symbolic)", n, n);
    p->ok = false;
  }
}

/* A quantifier in x (at any depth) whose range reads N: its expansion is
 * made for one value of N. */
static void quantifier_ranges(problems *p, const ir_expr *x) {
  if (!x) return;
  if (x->kind == IR_QUANT && (fa_mentions(p->param, p->depends, x->a) || fa_mentions(p->param, p->depends, x->b))) {
    const char *n = p->spec->consts.items[p->param]->name;
    diag_error(p->spec->src, x->at, "--for-all %s: the range of this quantifier depends on %s (it is symbolic)", n, n);
    p->ok = false;
    return;
  }
  quantifier_ranges(p, x->a);
  quantifier_ranges(p, x->b);
  quantifier_ranges(p, x->c);
}

static void problem_expr(ir_expr *x, void *ctx) {
  if (x) ir_walk(x, problem_visit, ctx);
  quantifier_ranges(ctx, x);
}

/* An array whose length depends on N has a number of shared values that the
 * counter system cannot fix. */
static void array_lengths(problems *p) {
  const char *n = p->spec->consts.items[p->param]->name;
  vec_foreach(&p->spec->variables, i) {
    const ast_shared *v = p->spec->variables.items[i];
    if (!v->size || !fa_mentions(p->param, p->depends, v->size)) continue;
    diag_error(p->spec->src, v->size->at,
               "--for-all %s: the length of array '%s' depends on %s, but the counter system needs a fixed set of "
               "shared values; check fixed values instead (--set %s=K)",
               n, v->name, n, n);
    p->ok = false;
  }
}

bool forall_applicable(const ast_spec *spec, const char *name) {
  diag_sink *sink = spec->src->sink;
  int param = fa_const_index(spec, name);
  if (param < 0) {
    diag_error_at(sink, spec->src->name,
                  "--for-all %s: the spec has no const named '%s' (write 'const %s = 2;' and %s[%s] in the system)",
                  name, name, name, "T", name);
    return false;
  }
  bool *depends = fa_dependent_consts(spec, param), *counted = xcalloc(spec->threads.len + 1, sizeof *counted);
  problems p = {spec, param, depends, counted, true};
  vec_foreach(&spec->instances, i) {
    const ast_instance *in = spec->instances.items[i];
    if (fa_counts_exactly(in, param)) counted[in->thread_index] = true;
    else if (fa_mentions(param, depends, in->count)) {
      diag_error(spec->src, in->count->at,
                 "--for-all %s: the instance count of '%s' depends on %s but is not %s itself", name, in->thread, name,
                 name);
      p.ok = false;
    }
  }
  bool any = false;
  vec_foreach(&spec->threads, t) {
    const ast_thread *th = spec->threads.items[t];
    any |= counted[t];
    if (counted[t] && th->uses_tid) {
      diag_error(spec->src, th->name_at,
                 "--for-all %s needs a symmetric thread, but '%s' (%s[%s] in the system) uses tid; per-instance data "
                 "(an array indexed by tid) has no counter form: check fixed values instead (--set %s=K)",
                 name, th->name, th->name, name, name);
      p.ok = false;
    }
  }
  if (!any && p.ok) {
    diag_error_at(sink, spec->src->name,
                  "--for-all %s: no thread of the system has %s instances (write T[%s] in the system)", name, name,
                  name);
    p.ok = false;
  }
  ast_foreach_expr(spec, problem_expr, &p);
  array_lengths(&p);
  free(depends);
  free(counted);
  return p.ok;
}

/* An initial value must not depend on N: the C program starts from fixed
 * values, which initial.c compares with the spec's at one N. */
static void initial_fixed_in_n(problems *p, const ir_expr *x, const char *what) {
  if (!x || !fa_mentions(p->param, p->depends, x)) return;
  const char *n = p->spec->consts.items[p->param]->name;
  diag_error(p->spec->src, x->at,
             "--for-all %s: this %s depends on %s, but the C program's initial values are fixed; check "
             "fixed values instead (--set %s=K)",
             n, what, n, n);
  p->ok = false;
}

bool forall_conform_applicable(const ast_spec *spec, const char *name) {
  int param = fa_const_index(spec, name);
  if (param < 0) return true; /* forall_applicable reports it */
  bool *depends = fa_dependent_consts(spec, param);
  problems p = {spec, param, depends, NULL, true};
  vec_foreach(&spec->threads, t) {
    const ast_thread *th = spec->threads.items[t];
    if (!th->uses_tid) continue;
    diag_error(spec->src, th->name_at,
               "--for-all %s: thread '%s' uses tid, and C(T, T#) is built at one value of %s, where the instances' "
               "tids are fixed; check fixed values instead (--set %s=K)",
               name, th->name, name, name);
    p.ok = false;
  }
  vec_foreach(&spec->variables, i) {
    const ast_shared *v = spec->variables.items[i];
    initial_fixed_in_n(&p, v->init, "initial value");
    vec_foreach(&v->init_list, k) initial_fixed_in_n(&p, v->init_list.items[k], "initial value");
  }
  vec_foreach(&spec->inits, i) initial_fixed_in_n(&p, spec->inits.items[i], "init predicate");
  free(depends);
  return p.ok;
}
