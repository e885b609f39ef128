/* spec-lang/sema-expr.c -- name resolution, typing and constant evaluation of
 * expressions (reference section 5). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/suggest.h"

#include "sema.h"

const char *sema_type_name(ir_type t) { return t == TY_BOOL ? "bool" : t == TY_INT ? "int" : "?"; }

/* ---------------------------------------------------------------- names */

static ir_type primed_error(sema *s, const expr_rules *r, const ir_expr *e) {
  if (r->in_index)
    diag_error(s->src, e->at,
               "primed variable '%s'' cannot appear in an array index: indices are evaluated in the state before the "
               "step",
               e->text);
  else
    diag_error(s->src, e->at,
               "primed variable '%s'' cannot appear in %s; primes belong in the relation of an edge (after ':')",
               e->text, r->where);
  return TY_NONE;
}

static ir_type check_global(sema *s, const expr_rules *r, ir_expr *e, int code) {
  bool is_const = code % 2 == 0;
  int index = code / 2;
  if (is_const) {
    if (e->primed) {
      diag_error(s->src, e->at, "'%s' is a const; only shared variables can be primed", e->text);
      return TY_NONE;
    }
    if (index >= s->consts_ready) {
      size_t line, col;
      diag_line_col(s->src, s->spec->consts.items[index]->name_at.start, &line, &col);
      diag_error(s->src, e->at, "const '%s' is used before its definition (on line %zu)", e->text, line);
      return TY_NONE;
    }
    e->ref = REF_CONST;
    e->index = index;
    return TY_INT;
  }
  if (r->constant) {
    diag_error(s->src, e->at, "shared variable '%s' cannot appear in %s, which must be constant", e->text, r->where);
    return TY_NONE;
  }
  if (e->primed && !r->primes) return primed_error(s, r, e);
  ast_shared *v = s->spec->variables.items[index];
  if (v->size) {
    diag_error(s->src, e->at, "'%s' is an array; name one element, as in %s%s[0]", e->text, e->text,
               e->primed ? "'" : "");
    return TY_NONE;
  }
  e->ref = REF_SHARED;
  e->index = v->index;
  return v->type.kind == TYPE_BOOL ? TY_BOOL : TY_INT;
}

/* The closest const or shared variable name (only shared ones if primed). */
static const char *similar_global(const sema *s, const char *name, bool shared_only) {
  const ast_spec *spec = s->spec;
  size_t n = spec->variables.len + (shared_only ? 0 : spec->consts.len);
  const char **names = xmalloc((n ? n : 1) * sizeof *names);
  size_t k = 0;
  vec_foreach(&spec->variables, i) names[k++] = spec->variables.items[i]->name;
  for (size_t i = 0; !shared_only && i < spec->consts.len; i++) names[k++] = spec->consts.items[i]->name;
  const char *best = suggest_name(name, names, n);
  free(names);
  return best;
}

static void format_hint(char hint[96], const char *similar) {
  hint[0] = '\0';
  if (similar) snprintf(hint, 96, "; did you mean '%s'?", similar);
}

void sema_hint_state(char hint[96], const ast_thread *t, const char *name) {
  const char **names = xmalloc((t->states.len + 1) * sizeof *names);
  vec_foreach(&t->states, i) names[i] = t->states.items[i]->name;
  format_hint(hint, suggest_name(name, names, t->states.len));
  free(names);
}

void sema_hint_thread(char hint[96], const ast_spec *spec, const char *name) {
  const char **names = xmalloc((spec->threads.len + 1) * sizeof *names);
  vec_foreach(&spec->threads, i) names[i] = spec->threads.items[i]->name;
  format_hint(hint, suggest_name(name, names, spec->threads.len));
  free(names);
}

void sema_hint_const(char hint[96], const ast_spec *spec, const char *name) {
  const char **names = xmalloc((spec->consts.len + 1) * sizeof *names);
  vec_foreach(&spec->consts, i) names[i] = spec->consts.items[i]->name;
  format_hint(hint, suggest_name(name, names, spec->consts.len));
  free(names);
}

/* The innermost quantifier that binds name, or NULL. */
static const ir_expr *binder_of(const sema *s, const char *name) {
  for (size_t i = s->binders.len; i-- > 0;)
    if (s->binders.items[i]->text == name) return s->binders.items[i];
  return NULL;
}

static ir_type check_bound(sema *s, ir_expr *e, const ir_expr *q) {
  if (e->primed) {
    diag_error(s->src, e->at, "'%s' is a quantified variable; only shared variables can be primed", e->text);
    return TY_NONE;
  }
  e->ref = REF_BOUND;
  e->index = q->index;
  return TY_INT;
}

static ir_type check_name(sema *s, const expr_rules *r, ir_expr *e) {
  const ir_expr *q = binder_of(s, e->text);
  if (q) return check_bound(s, e, q);
  int code = symtab_get(&s->globals, e->text);
  if (code >= 0) return check_global(s, r, e, code);
  char hint[96];
  format_hint(hint, similar_global(s, e->text, e->primed));
  if (e->primed) diag_error(s->src, e->at, "unknown shared variable '%s' (primed as %s')%s", e->text, e->text, hint);
  else if (symtab_get(&s->threads, e->text) >= 0)
    diag_error(s->src, e->at, "'%s' is a thread, not a value; did you mean count(%s@STATE)?", e->text, e->text);
  else diag_error(s->src, e->at, "unknown name '%s'%s", e->text, hint);
  return TY_NONE;
}

static ir_type check_tid(sema *s, const expr_rules *r, ir_expr *e) {
  if (!r->tid || r->constant) {
    diag_error(s->src, e->at, "'tid' cannot appear in %s; it names the running instance inside a thread", r->where);
    return TY_NONE;
  }
  r->thread->uses_tid = true;
  return TY_INT;
}

/* ---------------------------------------------------------------- count and @ */

/* Resolves T and S of count(T@S) / T[i]@S; returns the instance or NULL. */
static ast_instance *resolve_instance_state(sema *s, const expr_rules *r, ir_expr *e) {
  const char *form = e->kind == IR_COUNT ? "'count'" : "'T[i]@S'";
  if (!r->count) {
    if (s->spec->system)
      diag_error(s->src, e->at, "%s can appear only in a system invariant, not in %s", form, r->where);
    else diag_error(s->src, e->at, "%s outside a system: it can appear only in a system invariant", form);
    return NULL;
  }
  int t = symtab_get(&s->threads, e->text);
  char hint[96];
  if (t < 0) {
    sema_hint_thread(hint, s->spec, e->text);
    diag_error(s->src, e->name_at, "unknown thread '%s'%s", e->text, hint);
    return NULL;
  }
  int in = symtab_get(&s->instances, e->text);
  if (in == SEMA_INVALID_INSTANCE) return NULL; /* its count was reported */
  if (in < 0) {
    diag_error(s->src, e->name_at, "thread '%s' has no instances in system '%s'", e->text, s->spec->system->name);
    return NULL;
  }
  ast_thread *thread = s->spec->threads.items[t];
  ast_state *st = ast_find_state(thread, e->state_name);
  if (!st) {
    sema_hint_state(hint, thread, e->state_name);
    diag_error(s->src, e->state_at, "thread '%s' has no state '%s'%s", e->text, e->state_name, hint);
    return NULL;
  }
  e->index = t;
  e->state_index = st->index;
  return s->spec->instances.items[in];
}

static bool is_literal_or_const(const sema *s, const ir_expr *e) {
  return e->kind == IR_INT || (e->kind == IR_NAME && !e->primed && !binder_of(s, e->text));
}

static ir_type check_at(sema *s, const expr_rules *r, ir_expr *e) {
  ast_instance *in = resolve_instance_state(s, r, e);
  if (!in) return TY_NONE;
  if (!is_literal_or_const(s, e->a)) {
    diag_error(s->src, e->a->at, "the instance index must be an integer literal or a const");
    return TY_NONE;
  }
  int64_t i;
  if (!sema_const_int(s, "an instance index", e->a, &i)) return TY_NONE;
  if (i < 1 || i > in->count_value) {
    diag_error(s->src, e->a->at,
               "instance index %" PRId64 " is out of range: system '%s' has %" PRId64
               " instance%s of '%s', numbered from 1",
               i, s->spec->system->name, in->count_value, in->count_value == 1 ? "" : "s", e->text);
    sema_note_overrides(s, e->a);
    return TY_NONE;
  }
  s->spec->threads.items[e->index]->named_by_index = true;
  return TY_BOOL;
}

/* ---------------------------------------------------------------- array elements */

/* The array that e (an IR_INDEX) names, or NULL after reporting why not. */
static const ast_shared *resolve_array(sema *s, const expr_rules *r, const ir_expr *e) {
  int code = binder_of(s, e->text) ? -1 : symtab_get(&s->globals, e->text);
  const ast_shared *v = code >= 0 && code % 2 == 1 ? s->spec->variables.items[code / 2] : NULL;
  if (!v) {
    if (code >= 0 || binder_of(s, e->text)) diag_error(s->src, e->name_at, "'%s' is not an array", e->text);
    else diag_error(s->src, e->name_at, "unknown array '%s'", e->text);
    return NULL;
  }
  if (!v->size) {
    diag_error(s->src, e->name_at, "'%s' is not an array; it is %s variable", e->text,
               v->type.kind == TYPE_BOOL ? "a bool" : "an int");
    return NULL;
  }
  if (r->constant) {
    diag_error(s->src, e->at, "shared variable '%s' cannot appear in %s, which must be constant", e->text, r->where);
    return NULL;
  }
  if (e->primed && !r->primes) {
    primed_error(s, r, e);
    return NULL;
  }
  return v;
}

/* The cell of element index of array v: the cell, IR_CELL_OUT_OF_RANGE, or
 * IR_CELL_DYNAMIC when the index is not known yet. */
static int element_cell(sema *s, const ast_shared *v, const ir_expr *index) {
  int64_t k;
  if (!sema_is_static(index) || (!sema_is_constant(index) && !s->bound) || !sema_eval(s, index, &k))
    return IR_CELL_DYNAMIC;
  return k >= 0 && k < v->length ? v->index + (int)k : IR_CELL_OUT_OF_RANGE;
}

ir_type sema_index(sema *s, const expr_rules *r, ir_expr *e, bool primed_ok) {
  expr_rules inner = *r;
  inner.primes = false;
  inner.in_index = true;
  inner.where = "an array index";
  ir_type t = sema_expr(s, &inner, e->a);
  if (t != TY_NONE && t != TY_INT) {
    diag_error(s->src, e->a->at, "an array index must be int, but this is %s", sema_type_name(t));
    t = TY_NONE;
  }
  expr_rules outer = *r;
  outer.primes = primed_ok;
  const ast_shared *v = resolve_array(s, &outer, e);
  if (!v || t == TY_NONE) return TY_NONE;
  if (r->static_index && !sema_is_static(e->a)) {
    diag_error(s->src, e->a->at, "an index in %s must be a constant or a quantified variable (forall i in ...)",
               r->where);
    return TY_NONE;
  }
  e->ref = REF_SHARED;
  e->index = v->index;
  e->extent = v->length;
  e->cell = v->length > 0 ? element_cell(s, v, e->a) : IR_CELL_DYNAMIC;
  return v->type.kind == TYPE_BOOL ? TY_BOOL : TY_INT;
}

/* ---------------------------------------------------------------- quantifiers */

/* The most nodes that the expansions of one quantifier may make. */
#define MAX_EXPANSION (1u << 20)

static ir_expr *expand(sema *s, const ir_expr *e);

/* The literal that quantified variable e stands for. */
static ir_expr *bound_value(sema *s, const ir_expr *e) {
  int64_t v = s->bound[e->index];
  ir_expr *lit = ir_int(s->spec->arena, e->at, "0");
  lit->text = arena_printf(s->spec->arena, "%" PRId64, v);
  lit->value = v;
  lit->type = TY_INT;
  return lit;
}

/* items[lo..hi) joined by op as a balanced tree, so that a long expansion
 * stays shallow (every walk over the IR recurses); && and || are
 * associative, also in how they guard evaluation. */
static ir_expr *join_balanced(sema *s, ir_op op, ir_expr **items, size_t lo, size_t hi, loc at) {
  if (hi - lo == 1) return items[lo];
  size_t mid = lo + (hi - lo) / 2;
  ir_expr *e = ir_binary(s->spec->arena, at, op, join_balanced(s, op, items, lo, mid, at),
                         join_balanced(s, op, items, mid, hi, at));
  e->type = TY_BOOL;
  return e;
}

/* The instances of q's body for every value of its variable, joined by q's
 * operator in order (true for an empty forall, false for an empty exists);
 * NULL after an error. */
static ir_expr *instances(sema *s, const ir_expr *q) {
  int64_t lo, hi;
  if (!sema_eval(s, q->a, &lo) || !sema_eval(s, q->b, &hi)) return NULL;
  VEC(ir_expr *) parts = {0};
  for (int64_t v = lo; v <= hi && s->expanded <= MAX_EXPANSION; v++) {
    s->bound[q->index] = v;
    ir_expr *one = expand(s, q->c);
    if (!one) break;
    vec_push(NULL, &parts, one);
    if (v == hi) break;
  }
  ir_expr *all = parts.len ? join_balanced(s, q->op, parts.items, 0, parts.len, q->at) : NULL;
  bool complete = s->expanded <= MAX_EXPANSION && (lo > hi || (int64_t)parts.len == hi - lo + 1);
  vec_free(&parts);
  if (!complete) return NULL;
  if (!all) all = ir_bool(s->spec->arena, q->at, q->op == OP_AND);
  all->type = TY_BOOL;
  return all;
}

/* A copy of e with every quantifier replaced by its instances and every
 * quantified variable by its value; NULL after an error. */
static ir_expr *expand(sema *s, const ir_expr *e) {
  if (!e) return NULL;
  if (++s->expanded > MAX_EXPANSION) return NULL;
  if (e->kind == IR_NAME && e->ref == REF_BOUND) return bound_value(s, e);
  if (e->kind == IR_QUANT) return instances(s, e);
  ir_expr *copy = arena_alloc(s->spec->arena, sizeof *copy);
  *copy = *e;
  if (e->a && !(copy->a = expand(s, e->a))) return NULL;
  if (e->b && !(copy->b = expand(s, e->b))) return NULL;
  if (e->c && !(copy->c = expand(s, e->c))) return NULL;
  uint32_t depth = 0;
  const ir_expr *kids[] = {copy->a, copy->b, copy->c};
  for (int i = 0; i < 3; i++)
    if (kids[i] && kids[i]->depth > depth) depth = kids[i]->depth;
  copy->depth = depth + 1;
  if (e->kind == IR_INDEX && e->extent > 0)
    copy->cell = element_cell(s, s->spec->shared.items[e->index]->array, copy->a);
  return copy;
}

/* Declares q's variable for its body; false (reported) when the name is taken. */
static bool bind_variable(sema *s, ir_expr *q) {
  const char *taken = binder_of(s, q->text) ? "a quantified variable" : NULL;
  int code = symtab_get(&s->globals, q->text);
  if (code >= 0) taken = code % 2 == 0 ? "a const" : "a shared variable";
  if (taken) {
    diag_error(s->src, q->name_at, "'%s' is already %s; give the quantified variable another name", q->text, taken);
    return false;
  }
  q->index = s->binder_count++;
  vec_push(NULL, &s->binders, q);
  return true;
}

/* The outermost quantifier gets its expansion once its body is checked. */
static void lower(sema *s, ir_expr *q) {
  int64_t *bound = xcalloc((size_t)s->binder_count + 1, sizeof *bound);
  s->bound = bound;
  s->expanded = 0;
  q->lowered = instances(s, q); /* NULL only past the limit: the range is checked and constant */
  if (s->expanded > MAX_EXPANSION)
    diag_error(s->src, q->at, "this quantifier expands to more than %u terms; use smaller ranges", MAX_EXPANSION);
  else if (q->lowered && q->lowered->depth > IR_MAX_DEPTH)
    diag_error(s->src, q->at, "this quantifier expands to an expression nested %u levels deep; the limit is %d",
               q->lowered->depth, IR_MAX_DEPTH);
  s->bound = NULL;
  free(bound);
}

static ir_type check_quant(sema *s, const expr_rules *r, ir_expr *q) {
  expr_rules range = *r;
  range.where = "a quantifier's range";
  range.constant = true;
  bool lo = sema_expr_typed(s, &range, q->a, TY_INT); /* both bounds are checked, whatever the first gives */
  bool ok = sema_expr_typed(s, &range, q->b, TY_INT) && lo;
  if (!bind_variable(s, q)) return TY_NONE;
  ok &= sema_expr_typed(s, r, q->c, TY_BOOL);
  s->binders.len--;
  if (s->binders.len == 0) vec_free(&s->binders);
  if (ok && s->binders.len == 0 && s->src->sink->errors == 0) lower(s, q);
  return ok ? TY_BOOL : TY_NONE;
}

/* ---------------------------------------------------------------- operators */

/* Reports that operand x of the operator has the wrong type. */
static ir_type operand_error(sema *s, const ir_expr *op, const ir_expr *x, ir_type got, ir_type want) {
  const char *name = op->kind == IR_ITE ? "?:" : ir_op_text(op->op);
  bool unary = op->kind == IR_UNARY;
  diag_error(s->src, x->at, "operator '%s' needs %s%s %s, but this is %s", name, unary ? "a " : "",
             sema_type_name(want), unary ? "operand" : "operands", sema_type_name(got));
  return TY_NONE;
}

static bool want(sema *s, const ir_expr *op, const ir_expr *x, ir_type got, ir_type wanted) {
  if (got == wanted) return true;
  if (got != TY_NONE) operand_error(s, op, x, got, wanted);
  return false;
}

static ir_type check_divisor(sema *s, const ir_expr *e) {
  int64_t d = 0;
  if (!sema_is_constant(e->b)) {
    diag_error(s->src, e->b->at, "the divisor of '%s' must be a constant (literals and consts only)",
               ir_op_text(e->op));
    return TY_NONE;
  }
  if (!sema_eval(s, e->b, &d)) return TY_NONE;
  if (d == 0) {
    diag_error(s->src, e->b->at, "the divisor of '%s' is zero", ir_op_text(e->op));
    sema_note_overrides(s, e->b);
    return TY_NONE;
  }
  return TY_INT;
}

/* Both operands of e must have type wanted; reports each that does not. */
static bool want_both(sema *s, const ir_expr *e, ir_type l, ir_type rt, ir_type wanted) {
  bool left = want(s, e, e->a, l, wanted);
  bool right = want(s, e, e->b, rt, wanted);
  return left && right;
}

static ir_type check_binary(sema *s, const expr_rules *r, ir_expr *e) {
  ir_type l = sema_expr(s, r, e->a), rt = sema_expr(s, r, e->b);
  switch (e->op) {
  case OP_MUL:
  case OP_DIV:
  case OP_MOD:
  case OP_ADD:
  case OP_SUB: {
    if (!want_both(s, e, l, rt, TY_INT)) return TY_NONE;
    return e->op == OP_DIV || e->op == OP_MOD ? check_divisor(s, e) : TY_INT;
  }
  case OP_LT:
  case OP_LE:
  case OP_GT:
  case OP_GE: return want_both(s, e, l, rt, TY_INT) ? TY_BOOL : TY_NONE;
  case OP_EQ:
  case OP_NE:
    if (l == TY_NONE || rt == TY_NONE) return TY_NONE;
    if (l != rt) {
      diag_error(s->src, e->at, "'%s' compares %s with %s; there is no conversion between bool and int",
                 ir_op_text(e->op), sema_type_name(l), sema_type_name(rt));
      return TY_NONE;
    }
    return TY_BOOL;
  default: return want_both(s, e, l, rt, TY_BOOL) ? TY_BOOL : TY_NONE;
  }
}

static ir_type check_ite(sema *s, const expr_rules *r, ir_expr *e) {
  ir_type c = sema_expr(s, r, e->a), t = sema_expr(s, r, e->b), f = sema_expr(s, r, e->c);
  bool ok = want(s, e, e->a, c, TY_BOOL);
  if (t == TY_NONE || f == TY_NONE) return TY_NONE;
  if (t != f) {
    diag_error(s->src, e->at, "the branches of '?:' have different types (%s and %s)", sema_type_name(t),
               sema_type_name(f));
    return TY_NONE;
  }
  return ok ? t : TY_NONE;
}

static ir_type check_unary(sema *s, const expr_rules *r, ir_expr *e) {
  ir_type t = sema_expr(s, r, e->a);
  ir_type wanted = e->op == OP_NOT ? TY_BOOL : TY_INT;
  return want(s, e, e->a, t, wanted) ? wanted : TY_NONE;
}

ir_type sema_expr(sema *s, const expr_rules *r, ir_expr *e) {
  ir_type t = TY_NONE;
  switch (e->kind) {
  case IR_BOOL: t = TY_BOOL; break;
  case IR_INT: t = TY_INT; break;
  case IR_NAME: t = check_name(s, r, e); break;
  case IR_TID: t = check_tid(s, r, e); break;
  case IR_COUNT: t = resolve_instance_state(s, r, e) ? TY_INT : TY_NONE; break;
  case IR_AT: t = check_at(s, r, e); break;
  case IR_UNARY: t = check_unary(s, r, e); break;
  case IR_BINARY: t = check_binary(s, r, e); break;
  case IR_ITE: t = check_ite(s, r, e); break;
  case IR_INDEX: t = sema_index(s, r, e, r->primes); break;
  case IR_QUANT: t = check_quant(s, r, e); break;
  }
  e->type = t;
  return t;
}

bool sema_expr_typed(sema *s, const expr_rules *r, ir_expr *e, ir_type wanted) {
  ir_type t = sema_expr(s, r, e);
  if (t == wanted) return true;
  if (t != TY_NONE)
    diag_error(s->src, e->at, "%s must be %s, but this is %s", r->where, sema_type_name(wanted), sema_type_name(t));
  return false;
}

/* ---------------------------------------------------------------- constants */

/* True when e reads no state; with bound, quantified variables count as constants. */
static bool reads_no_state(const ir_expr *e, bool bound) {
  if (!e) return true;
  switch (e->kind) {
  case IR_NAME: return e->ref == REF_CONST || (bound && e->ref == REF_BOUND);
  case IR_TID:
  case IR_COUNT:
  case IR_AT:
  case IR_INDEX: return false;
  default: return reads_no_state(e->a, bound) && reads_no_state(e->b, bound) && reads_no_state(e->c, bound);
  }
}

bool sema_is_constant(const ir_expr *e) { return reads_no_state(e, false); }

bool sema_is_static(const ir_expr *e) { return reads_no_state(e, true); }

static bool overflow(sema *s, const ir_expr *e) {
  diag_error(s->src, e->at, "this constant does not fit in 64 bits (constants are computed in 64-bit arithmetic)");
  return false;
}

/* A zero divisor is reported by check_divisor. */
static bool eval_arith(sema *s, const ir_expr *e, int64_t a, int64_t b, int64_t *out) {
  ir_fault f = ir_arith(e->op, a, b, out);
  return f == IR_FAULT_OVERFLOW ? overflow(s, e) : f == IR_FAULT_NONE;
}

bool sema_eval(sema *s, const ir_expr *e, int64_t *out) {
  int64_t a = 0, b = 0;
  switch (e->kind) {
  case IR_BOOL: *out = e->value; return true;
  case IR_INT: *out = e->value; return e->big ? overflow(s, e) : true;
  case IR_NAME:
    if (e->ref == REF_BOUND) return s->bound ? (*out = s->bound[e->index], true) : false;
    *out = s->spec->consts.items[e->index]->value;
    return !s->spec->consts.items[e->index]->failed;
  case IR_UNARY: return sema_eval(s, e->a, &a) && eval_arith(s, e, a, 0, out);
  case IR_BINARY: return sema_eval(s, e->a, &a) && sema_eval(s, e->b, &b) && eval_arith(s, e, a, b, out);
  case IR_ITE: return sema_eval(s, e->a, &a) && sema_eval(s, a ? e->b : e->c, out);
  default: return false;
  }
}

static void note_override(const ir_expr *e, void *ctx) {
  sema *s = ctx;
  if (e->kind != IR_NAME || e->ref != REF_CONST) return;
  const ast_const *c = s->spec->consts.items[e->index];
  if (c->overridden)
    diag_note(s->src, c->name_at, "'%s' is %" PRId64 " because of --set %s=%" PRId64, c->name, c->value, c->name,
              c->value);
}

void sema_note_overrides(sema *s, const ir_expr *e) { ir_walk(e, note_override, s); }

bool sema_const_int(sema *s, const char *where, ir_expr *e, int64_t *out) {
  expr_rules r = {.where = where, .constant = true};
  return sema_expr_typed(s, &r, e, TY_INT) && sema_eval(s, e, out);
}
