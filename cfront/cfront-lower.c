/* conformance/cfront-lower.c -- lowering one C function (calls inlined)
 * into a program of one-action edges whose boundary locations separate the
 * atomic steps of reference section 7:
 *   - a step leaves a boundary with a starts_step edge and runs through
 *     non-boundary locations to the next boundary;
 *   - checks (assert), declarations without initializer, parameter havocs
 *     and jumps are single non-step edges from boundary to boundary;
 *   - inside an atomic section every location is a non-boundary, so the
 *     whole section is one step, and marked atomic (atomicity.c splits the
 *     other steps at their shared accesses under --atomicity access).
 * A statement's nondet temporaries are havocked and its bounds checks made
 * (CHECK_INDEX assertions) before its action. Expressions are lowered by
 * cfront-expr.c, the objects they name by cfront-access.c. */
#include <stdlib.h>
#include <string.h>

#include "c-ast.h"

/* Limits that keep a run from exhausting the stack or the memory. */
#define MAX_NESTING IR_MAX_DEPTH
#define MAX_EDGES (1 << 17) /* far beyond what a solver proves; reached fast enough to report */

/* ---------------------------------------------------------------- locations and edges */

/* A location; inside an atomic section marked so (atomicity.c keeps such a step whole). */
static int new_loc(cfe_lowering *L, bool boundary) {
  int l = prog_add_loc(L->p, boundary);
  L->p->locs.items[l].atomic = L->atomic > 0;
  return l;
}

static int next_loc(cfe_lowering *L) { return new_loc(L, L->atomic == 0); }
static int mid_loc(cfe_lowering *L) { return new_loc(L, false); }

prog_origin cfe_origin(cfe_lowering *L, cfe_pos at) {
  if (at.file < 0 || !L->u->files.items[at.file].src) return (prog_origin){-1, at.at};
  int *m = &L->file_map[at.file];
  if (*m < 0) {
    vec_push(L->p->arena, &L->p->files, L->u->files.items[at.file].src);
    *m = (int)L->p->files.len - 1;
  }
  return (prog_origin){*m, at.at};
}

/* A step edge starts a step exactly when it leaves a boundary. */
static void add(cfe_lowering *L, prog_edge x, bool step, cfe_pos at) {
  if (L->too_big) return;
  x.starts_step = step && L->p->locs.items[x.from].boundary;
  x.origin = cfe_origin(L, at);
  prog_add_edge(L->p, x);
  if (L->p->edges.len < MAX_EDGES) return;
  L->too_big = true;
  cfe_error(L->u, at, "the program is too large once calls are inlined (the limit is %d edges)", MAX_EDGES);
}

static void edge(cfe_lowering *L, int from, int to, prog_action act, int var, const ir_expr *e, bool step, cfe_pos at) {
  prog_edge x = {
      .from = from, .to = to, .action = act, .var = var, .expr = e, .check = CHECK_CODE, .step = -1, .detail = -1};
  add(L, x, step, at);
}

static void jump(cfe_lowering *L, int from, int to, cfe_pos at) { edge(L, from, to, ACT_SKIP, -1, NULL, false, at); }

/* Forgets what the statement would do before its action (it has none). */
static void discard(cfe_lowering *L) {
  L->pending.temps.len = 0;
  L->pending.checks.len = 0;
}

/* Takes the statement's pending work so far, to be put back later with put_pending. */
static cfe_pending take_pending(cfe_lowering *L) {
  cfe_pending p = L->pending;
  memset(&L->pending, 0, sizeof L->pending);
  return p;
}

static void put_pending(cfe_lowering *L, cfe_pending p) {
  vec_free(&L->pending.temps);
  vec_free(&L->pending.checks);
  L->pending = p;
}

/* Havocs the nondet temporaries of the statement, then makes its checks
 * (indices within their arrays, operations defined); returns where its own action starts. Within a step they lead
 * through non-boundaries. */
static int flush_pending(cfe_lowering *L, int cur, bool step, cfe_pos at) {
  vec_foreach(&L->pending.temps, i) {
    int to = step ? mid_loc(L) : next_loc(L);
    edge(L, cur, to, ACT_HAVOC, L->pending.temps.items[i], NULL, step, at);
    cur = to;
  }
  vec_foreach(&L->pending.checks, i) {
    const cfe_check *c = &L->pending.checks.items[i];
    int to = step ? mid_loc(L) : next_loc(L);
    prog_edge x = {.from = cur,
                   .to = to,
                   .action = ACT_ASSERT,
                   .var = -1,
                   .expr = c->holds,
                   .check = c->check,
                   .step = -1,
                   .detail = c->detail};
    add(L, x, step, at);
    cur = to;
  }
  discard(L);
  return cur;
}

/* One step doing act (after the temporaries); returns the boundary after it. */
static int step(cfe_lowering *L, int cur, prog_action act, int var, const ir_expr *e, cfe_pos at) {
  cur = flush_pending(L, cur, true, at);
  int to = next_loc(L);
  edge(L, cur, to, act, var, e, true, at);
  return to;
}

/* A non-step edge (a check or a havoc of a fresh local). */
static int plain(cfe_lowering *L, int cur, prog_action act, int var, const ir_expr *e, cfe_pos at) {
  cur = flush_pending(L, cur, false, at);
  int to = next_loc(L);
  edge(L, cur, to, act, var, e, false, at);
  return to;
}

/* One step evaluating cond at cur, continuing at yes or no (no condition: true). */
static void branch(cfe_lowering *L, int cur, const cfe_expr *cond, int yes, int no, cfe_pos at) {
  if (!cond) {
    ir_expr *t = ir_bool(L->p->arena, at.at, true);
    t->type = TY_BOOL;
    edge(L, cur, yes, ACT_ASSUME, -1, t, true, at);
    return;
  }
  if (cond->kind == CE_STAR) {
    edge(L, cur, yes, ACT_SKIP, -1, NULL, true, cond->at);
    edge(L, cur, no, ACT_SKIP, -1, NULL, true, cond->at);
    return;
  }
  cur = cfe_sequence(L, cond, CFE_SEQ_VALUE, cur, &cond);
  ir_expr *c = cfe_lower_bool(L, cond);
  cur = flush_pending(L, cur, true, cond->at);
  edge(L, cur, yes, ACT_ASSUME, -1, c, true, cond->at);
  edge(L, cur, no, ACT_ASSUME, -1, cfe_not(L, c), true, cond->at);
}

/* ---------------------------------------------------------------- atomic sections */

static int atomic_enter(cfe_lowering *L, int cur, cfe_pos at) {
  if (L->atomic++ > 0) return cur;
  int m = mid_loc(L);
  edge(L, cur, m, ACT_SKIP, -1, NULL, true, at);
  return m;
}

static int atomic_leave(cfe_lowering *L, int cur, cfe_pos at) {
  if (--L->atomic > 0) return cur;
  int b = next_loc(L);
  jump(L, cur, b, at);
  return b;
}

static bool atomic_function(const cfe_func *f) { return strncmp(f->name, "__VERIFIER_atomic_", 18) == 0; }

/* ---------------------------------------------------------------- calls */

static int stmt(cfe_lowering *L, const cfe_stmt *s, int cur);
static void end_labels(cfe_lowering *L);

void cfe_bind(cfe_lowering *L, const char *name, int var) {
  cfe_binding b = {.name = name, .var = var};
  vec_push(NULL, &L->names, b);
}

/* The parameters of f, without the "void" of f(void). */
static size_t param_count(const cfe_func *f) {
  const cfe_decls *ps = &f->decl->params;
  if (ps->len == 1 && !ps->items[0]->name && ps->items[0]->type.kind == CT_VOID) return 0;
  return ps->len;
}

/* A struct or an array where only a scalar may be (role: "local 'x'"):
 * reports it; true when so. */
static bool aggregate(cfe_lowering *L, const cfe_type *t, cfe_pos at, const char *role) {
  if (t->kind != CT_STRUCT && t->kind != CT_ARRAY) return false;
  const char *what = t->kind == CT_STRUCT ? "struct" : "array";
  const char *hint = t->kind == CT_STRUCT ? "pass a pointer to the struct instead" : "arrays must be global variables bound to the spec";
  cfe_error(L->u, at, "unsupported %s type for %s (%s)", what, role, hint);
  return true;
}

/* Reports a parameter of f that is not a scalar or a pointer; true when it is one. */
static bool scalar_param(cfe_lowering *L, const cfe_decl *p) {
  const char *role = p->name ? arena_printf(L->p->arena, "parameter '%s'", p->name) : "a parameter";
  if (p->type.kind == CT_BAD) cfe_error(L->u, p->type.at, "%s", p->type.what);
  if (p->type.kind == CT_VOID) cfe_error(L->u, p->at, "a parameter cannot have type void");
  aggregate(L, &p->type, p->declarator->at, role);
  return p->type.kind == CT_INT || p->type.kind == CT_BOOL || p->type.kind == CT_POINTER;
}

/* Reports what keeps f from being inlined; true when it can be. */
static bool inlinable(cfe_lowering *L, const cfe_func *f, const cfe_expr *call) {
  vec_foreach(&L->calls, i) {
    if (L->calls.items[i] != f) continue;
    strbuf cycle = {0};
    for (size_t j = i; j < L->calls.len; j++) sbuf_printf(&cycle, "%s -> ", L->calls.items[j]->name);
    cfe_error(L->u, call->name_at, "unsupported recursion: %s%s", sbuf_str(&cycle), f->name);
    sbuf_free(&cycle);
    return false;
  }
  bool ok = true;
  if (f->decl->variadic) {
    cfe_error(L->u, call->name_at, "unsupported call to variadic function '%s'", f->name);
    ok = false;
  } else if (call->args.len != param_count(f)) {
    cfe_error(L->u, call->at, "'%s' takes %zu argument%s but %zu %s given", f->name, param_count(f),
              param_count(f) == 1 ? "" : "s", call->args.len, call->args.len == 1 ? "was" : "were");
    ok = false;
  }
  for (size_t i = 0; i < param_count(f); i++) ok = scalar_param(L, f->decl->params.items[i]) && ok;
  const cfe_type *result = &f->decl->type;
  if (result->kind == CT_BAD) cfe_error(L->u, result->at, "%s", result->what);
  bool whole = aggregate(L, result, f->name_at, arena_printf(L->p->arena, "the result of '%s'", f->name));
  return ok && result->kind != CT_BAD && !whole;
}

/* Assigns the arguments (evaluated in the caller's scope) to fresh
 * parameters, bound as the first names of the callee: one step. */
static int pass_arguments(cfe_lowering *L, const cfe_func *f, const cfe_expr *call, int cur) {
  size_t n = param_count(f);
  ir_expr **values = xcalloc(n + 1, sizeof *values);
  for (size_t i = 0; i < n; i++) {
    const cfe_type *t = &f->decl->params.items[i]->type;
    const cfe_expr *arg = call->args.items[i];
    values[i] = t->kind == CT_POINTER ? cfe_lower_pointer(L, arg, t->elem) : cfe_lower_value(L, arg);
  }
  if (n > 0) cur = flush_pending(L, cur, true, call->at);
  for (size_t i = 0; i < n; i++) {
    const cfe_decl *p = f->decl->params.items[i];
    int v = cfe_declare_local(L, p->name ? p->name : "param", &p->type);
    if (p->type.kind == CT_POINTER) cfe_pointer_local(L, v, p->type.elem, false, p->at);
    int to = i + 1 == n ? next_loc(L) : mid_loc(L);
    ir_expr *value = cfe_store_value(L, v, values[i], cfe_ctype(L, call->args.items[i]));
    edge(L, cur, to, ACT_ASSIGN, v, value, true, call->at);
    cur = to;
    if (p->name) cfe_bind(L, p->name, v);
  }
  free(values);
  return cur;
}

/* Inlines the call at cur with fresh copies of the callee's variables; *ret
 * gets the variable holding the result (-1 for none). Returns the location
 * after the callee's body. */
static int call(cfe_lowering *L, const cfe_expr *e, int cur, int *ret, bool want_value) {
  *ret = -1;
  if (!(e = cfe_thread_call(L, e))) return cur; /* a thread API's model takes the handle only */
  if (cfe_noop_call(L, e)) { /* no step: it touches no shared state; its arguments are not evaluated */
    if (want_value) cfe_error(L->u, e->at, "'%s' is taken to do nothing; its value cannot be used", e->name);
    return cur;
  }
  const cfe_func *f = cfe_callee(L, e);
  if (!f || !inlinable(L, f, e)) return cur;
  if (want_value && f->decl->type.kind == CT_POINTER) {
    cfe_error(L->u, e->at, "unsupported use of the pointer '%s' returns (pointers may not leave a function)", f->name);
    return cur;
  }
  cfe_frame frame = {.func = f, .ret_var = -1, .scope_base = L->names.len, .loop_base = L->loops.len};
  cur = pass_arguments(L, f, e, cur);
  cfe_frame *outer = L->frame;
  L->frame = &frame;
  if (f->decl->type.kind != CT_VOID)
    frame.ret_var = cfe_new_local(L, arena_printf(L->p->arena, "%s_result", f->name), &f->decl->type);
  frame.exit = next_loc(L);
  vec_push(NULL, &L->calls, f);
  cfe_switch *sw = L->innermost;
  L->innermost = NULL;
  cur = stmt(L, f->body, cur);
  L->innermost = sw;
  jump(L, cur, frame.exit, f->body->at);
  end_labels(L);
  L->calls.len--;
  L->names.len = frame.scope_base;
  L->frame = outer;
  *ret = frame.ret_var;
  if (want_value && *ret < 0) cfe_error(L->u, e->at, "'%s' returns void; its value cannot be used", e->name);
  return frame.exit;
}

static bool atomic_call(cfe_lowering *L, const cfe_expr *e) {
  cfe_entity *x = cfe_lookup(L->u, e->name);
  return x && x->kind == ENT_FUNC && atomic_function(L->u->funcs.items[x->index]);
}

static bool no_place(cfe_place pl) { return pl.var < 0 && !pl.cells; }

static int store(cfe_lowering *L, int cur, cfe_place pl, ir_expr *value, ir_ctype from, cfe_pos at);

/* "x = f(a)", "T x = f(a)", "f(a);": the call's steps, then one step
 * storing the result (all one step for a __VERIFIER_atomic_ function). The
 * target's indices are evaluated and checked in that last step. */
static int call_into(cfe_lowering *L, cfe_place pl, const cfe_expr *e, cfe_pos at, int cur) {
  bool atomic = atomic_call(L, e);
  cfe_pending target = take_pending(L);
  if (atomic) cur = atomic_enter(L, cur, e->at);
  int ret;
  cur = call(L, e, cur, &ret, !no_place(pl));
  put_pending(L, target);
  if (ret >= 0 && !no_place(pl))
    cur = store(L, cur, pl, prog_var_ref(L->p, ret, e->at.at), L->p->vars.items[ret].ctype, at);
  else discard(L);
  if (atomic) cur = atomic_leave(L, cur, e->at);
  return cur;
}

/* ---------------------------------------------------------------- expression statements */

/* "x = nondet()" havocs x directly when every value of the nondet fits x
 * (its C type, and its range when bounded). */
static bool direct_havoc(const cfe_lowering *L, int var, const cfe_expr *value) {
  if (value->kind != CE_CALL || value->args.len > 0) return false;
  cfe_builtin b = value->builtin;
  const prog_var *v = &L->p->vars.items[var];
  if (b == B_NONDET_BOOL) return v->type == TY_BOOL || cfe_is_bool_local(L, var);
  if (v->type == TY_BOOL || cfe_is_bool_local(L, var)) return b == B_NONDET;
  return b == B_NONDET && !v->bounded && cfe_ctype_fits(cfe_ctype(L, value), v->ctype);
}

/* var := value as an edge of the current step, to a new location (the boundary that ends it when last). */
static int set(cfe_lowering *L, int cur, int var, const ir_expr *value, bool last, cfe_pos at) {
  int to = last ? next_loc(L) : mid_loc(L);
  edge(L, cur, to, ACT_ASSIGN, var, value, true, at);
  return to;
}

/* The indices (their temporaries) have the values of combination j of c (row-major). */
static ir_expr *selects(cfe_lowering *L, const cfe_cells *c, ir_expr *const *index, size_t j, loc at) {
  ir_expr *all = NULL;
  for (size_t d = c->index.len; d-- > 0;) {
    size_t n = (size_t)c->length.items[d];
    ir_expr *eq = ir_binary(L->p->arena, at, OP_EQ, index[d], cfe_int_lit(L, at, (int64_t)(j % n)));
    eq->type = TY_BOOL;
    all = all ? ir_binary(L->p->arena, at, OP_AND, eq, all) : eq;
    all->type = TY_BOOL;
    j /= n;
  }
  return all;
}

/* A store into one of the cells c, as one step: the indices and the value
 * into temporaries, then cell := (the indices select it) ? value : cell for
 * each cell, so that the value is the one computed before any of them. */
static int store_cells(cfe_lowering *L, int cur, const cfe_cells *c, ir_expr *value, ir_ctype from, cfe_pos at,
                       bool last) {
  cur = flush_pending(L, cur, true, at);
  ir_expr **index = xcalloc(c->index.len + 1, sizeof *index);
  vec_foreach(&c->index, d) {
    int t = prog_add_var(L->p, VAR_TEMP, "index", TY_INT);
    cur = set(L, cur, t, c->index.items[d], false, at);
    index[d] = prog_var_ref(L->p, t, at.at);
  }
  if (c->vars.len == 0) { /* a pointer to a type no object has: its CHECK_NULL fails */
    free(index);
    int to = last ? next_loc(L) : mid_loc(L);
    edge(L, cur, to, ACT_SKIP, -1, NULL, true, at);
    return to;
  }
  ir_expr *v = cfe_store_value(L, c->vars.items[0], value, from);
  int t = prog_add_var(L->p, VAR_TEMP, "value", v->type);
  cur = set(L, cur, t, v, false, at);
  vec_foreach(&c->vars, j) {
    int cell = c->vars.items[j];
    ir_expr *stored = cfe_store_value(L, cell, prog_var_ref(L->p, t, at.at), L->p->vars.items[t].ctype); /* a bool local among bool cells */
    ir_expr *x = ir_ite(L->p->arena, at.at, selects(L, c, index, j, at.at), stored, prog_var_ref(L->p, cell, at.at));
    x->type = stored->type;
    cur = set(L, cur, cell, x, last && j + 1 == c->vars.len, at);
  }
  free(index);
  return cur;
}

int cfe_set_temp(cfe_lowering *L, int cur, int var, const ir_expr *value, cfe_pos at) {
  return set(L, flush_pending(L, cur, true, at), var, value, false, at);
}

int cfe_store_part(cfe_lowering *L, int cur, cfe_place pl, ir_expr *value, ir_ctype from, cfe_pos at, bool last) {
  if (pl.var < 0 && !pl.cells) { /* nothing to store (a struct without fields) */
    cur = flush_pending(L, cur, true, at);
    int to = last ? next_loc(L) : mid_loc(L);
    edge(L, cur, to, ACT_SKIP, -1, NULL, true, at);
    return to;
  }
  if (pl.var < 0) return store_cells(L, cur, pl.cells, value, from, at, last);
  cur = flush_pending(L, cur, true, at);
  return set(L, cur, pl.var, cfe_store_value(L, pl.var, value, from), last, at);
}

/* The step storing value into pl (after the statement's pending work); returns the boundary after it. */
static int store(cfe_lowering *L, int cur, cfe_place pl, ir_expr *value, ir_ctype from, cfe_pos at) {
  return cfe_store_part(L, cur, pl, value, from, at, true);
}

/* The step "place := value" of an assignment or initializer. */
static int assign_value(cfe_lowering *L, cfe_place pl, const cfe_expr *value, cfe_pos at, int cur) {
  if (cfe_user_call(value)) return call_into(L, pl, value, at, cur);
  if (pl.var >= 0 && direct_havoc(L, pl.var, value)) return step(L, cur, ACT_HAVOC, pl.var, NULL, at);
  const cfe_type *pointee = cfe_pointee(L, pl.var);
  ir_expr *v = pointee ? cfe_lower_pointer(L, value, pointee) : cfe_lower_value(L, value);
  if (!no_place(pl)) return store(L, cur, pl, v, cfe_ctype(L, value), at);
  discard(L);
  return cur;
}

/* p += k, p++ on a pointer p: reported; true when so. */
static bool pointer_step(cfe_lowering *L, cfe_place pl, const cfe_expr *e) {
  if (!cfe_pointee(L, pl.var)) return false;
  cfe_error(L->u, e->at, "unsupported pointer arithmetic (a pointer names one object: use '&a[i]' for an element)");
  discard(L);
  return true;
}

static int assignment(cfe_lowering *L, const cfe_expr *e, cfe_pos at, int cur) {
  if (e->op == CO_ASSIGN && e->a->ctype.kind == CT_STRUCT) return cfe_copy_struct(L, e->a, e->b, at, cur);
  cfe_place pl = cfe_lower_place(L, e->a);
  if (e->op == CO_ASSIGN) return assign_value(L, pl, e->b, at, cur);
  if (pointer_step(L, pl, e)) return cur;
  if (no_place(pl)) {
    cfe_lower_value(L, e->b);
    discard(L);
    return cur;
  }
  ir_ctype type;
  ir_expr *v = cfe_lower_compound(L, e->op, cfe_place_value(L, pl, e->a->at.at), cfe_ctype(L, e->a), e->b, e->at, &type);
  return store(L, cur, pl, v, type, at);
}

static int increment(cfe_lowering *L, const cfe_expr *e, cfe_pos at, int cur) {
  cfe_place pl = cfe_lower_place(L, e->a);
  if (no_place(pl) || pointer_step(L, pl, e)) {
    discard(L);
    return cur;
  }
  cfe_expr one = {.kind = CE_INT, .at = e->at, .value = 1, .depth = 1};
  ir_ctype type;
  ir_expr *v = cfe_lower_compound(L, e->delta > 0 ? CO_ADD : CO_SUB, cfe_place_value(L, pl, e->a->at.at),
                                  cfe_ctype(L, e->a), &one, e->at, &type);
  return store(L, cur, pl, v, type, at);
}

/* An assert's condition where its bounds checks hold: between steps the
 * environment moves after each check, and an index it moves out of its
 * array is caught by the check it meets in that run. */
static ir_expr *where_checked(cfe_lowering *L, ir_expr *c) {
  vec_foreach(&L->pending.checks, i) {
    c = ir_binary(L->p->arena, c->at, OP_IMPLIES, L->pending.checks.items[i].holds, c);
    c->type = TY_BOOL;
  }
  return c;
}

/* One argument of a builtin that takes a condition. */
static ir_expr *builtin_condition(cfe_lowering *L, const cfe_expr *e) {
  if (e->args.len == 1) return cfe_lower_bool(L, e->args.items[0]);
  cfe_error(L->u, e->at, "'%s' takes one argument", e->name);
  vec_foreach(&e->args, i) cfe_lower_value(L, e->args.items[i]);
  discard(L);
  return NULL;
}

/* __athread_set_state(p, v): one step storing v into the cell of *p. */
static int set_state(cfe_lowering *L, const cfe_expr *e, cfe_pos at, int cur) {
  cfe_expr deref;
  if (!cfe_state_object(L, e, 2, &deref)) return cur;
  cfe_place pl = cfe_lower_place(L, &deref);
  ir_expr *v = cfe_lower_value(L, e->args.items[1]);
  if (!no_place(pl)) return store(L, cur, pl, v, cfe_ctype(L, e->args.items[1]), at);
  discard(L);
  return cur;
}

static ir_expr *literal_false(cfe_lowering *L, cfe_pos at) {
  ir_expr *f = ir_bool(L->p->arena, at.at, false);
  f->type = TY_BOOL;
  return f;
}

/* abort(), exit(): the program ends here, so no run goes on from cur (a
 * step that cannot be taken); what follows is unreachable. */
static int stop(cfe_lowering *L, int cur, cfe_pos at) {
  step(L, cur, ACT_ASSUME, -1, literal_false(L, at), at);
  return next_loc(L);
}

/* The arguments of reach_error() and its kin say nothing: a call is an
 * assertion that fails (arguments are not evaluated). */
static int call_stmt(cfe_lowering *L, const cfe_expr *e, cfe_pos at, int cur) {
  cfe_builtin b = e->builtin;
  ir_expr *c;
  switch (b) {
  case B_ASSERT: c = builtin_condition(L, e); return c ? plain(L, cur, ACT_ASSERT, -1, where_checked(L, c), at) : cur;
  case B_ASSUME: c = builtin_condition(L, e); return c ? step(L, cur, ACT_ASSUME, -1, c, at) : cur;
  case B_ATOMIC_BEGIN:
  case B_ATOMIC_END:
    cfe_error(L->u, e->at,
              "'%s()' must be a statement of a block, with '__VERIFIER_atomic_%s()' later in the same block", e->name,
              b == B_ATOMIC_BEGIN ? "end" : "begin");
    return cur;
  case B_ERROR: return plain(L, cur, ACT_ASSERT, -1, literal_false(L, at), at);
  case B_STOP: discard(L); return stop(L, cur, at);
  case B_THREAD_EXIT: discard(L); jump(L, cur, L->thread_exit, at); return next_loc(L);
  case B_NONE: return call_into(L, (cfe_place){-1, NULL}, e, at, cur);
  case B_SET_STATE: return set_state(L, e, at, cur);
  default: cfe_lower_value(L, e); return step(L, cur, ACT_SKIP, -1, NULL, at);
  }
}

static int expr_stmt(cfe_lowering *L, const cfe_expr *e, cfe_pos at, int cur) {
  if (e->kind == CE_CAST && e->type.kind == CT_VOID && e->a->kind == CE_NAME) /* (void)arg; says it is unused */
    return step(L, cur, ACT_SKIP, -1, NULL, at);
  if (e->kind == CE_CAST && e->type.kind == CT_VOID) return expr_stmt(L, e->a, at, cur);
  if (e->kind == CE_BINARY && e->op == CO_COMMA) return expr_stmt(L, e->b, e->b->at, expr_stmt(L, e->a, e->a->at, cur));
  const cfe_expr *rest;
  cur = cfe_sequence(L, e, CFE_SEQ_STATEMENT, cur, &rest);
  if (rest != e) return expr_stmt(L, rest, at, cur);
  if (e->kind == CE_ASSIGN) return assignment(L, e, at, cur);
  if (e->kind == CE_INCDEC) return increment(L, e, at, cur);
  if (e->kind == CE_CALL) return call_stmt(L, e, at, cur);
  cfe_lower_value(L, e);
  return step(L, cur, ACT_SKIP, -1, NULL, at);
}

/* ---------------------------------------------------------------- declarations */

static bool local_ok(cfe_lowering *L, const cfe_decl *d) {
  if (d->storage == SC_STATIC) cfe_error(L->u, d->name_at, "unsupported static local variable '%s'", d->name);
  else if (d->storage == SC_EXTERN) cfe_error(L->u, d->name_at, "unsupported extern declaration inside a function");
  else if (d->type.kind == CT_BAD) cfe_error(L->u, d->type.at, "%s", d->type.what);
  else if (d->type.kind == CT_VOID) cfe_error(L->u, d->name_at, "variable '%s' has type void", d->name);
  else if (!aggregate(L, &d->type, d->declarator->at, arena_printf(L->p->arena, "local '%s'", d->name))) return true;
  return false;
}

/* An initializer that copies a whole struct ("struct S s = t;"), not a list. */
static bool struct_copy_init(const cfe_decl *d) {
  return d->init && d->type.kind == CT_STRUCT && d->init->ctype.kind == CT_STRUCT;
}

/* A local struct or array: its leaves start with any value (an initializer
 * list is not read), or with a copy of the struct that initializes it (its
 * name is in scope in its initializer, as in C). */
static int local_aggregate(cfe_lowering *L, const cfe_decl *d, int cur) {
  bool copy = struct_copy_init(d);
  if (d->init && !copy)
    cfe_error(L->u, d->init->at, "unsupported initializer list of local struct or array '%s' (assign its parts)", d->name);
  size_t first = L->p->vars.len;
  if (!cfe_local_aggregate(L, d)) return cur;
  for (size_t v = first; v < L->p->vars.len; v++) cur = plain(L, cur, ACT_HAVOC, (int)v, NULL, d->at);
  if (!copy) return cur;
  const cfe_expr *init;
  cur = cfe_sequence(L, d->init, CFE_SEQ_INIT, cur, &init);
  cfe_expr self = {.kind = CE_NAME, .at = d->name_at, .name = d->name, .depth = 1, .ctype = d->type};
  return cfe_copy_struct(L, &self, init, d->at, cur);
}

static int declaration(cfe_lowering *L, const cfe_decl *d, int cur) {
  if (d->is_function || d->storage == SC_TYPEDEF || !d->name) return cur;
  if (d->storage == SC_STATIC && !d->thread_local) {
    cfe_static_local(L, d); /* no step: its initializer is its initial value */
    return cur;
  }
  if (d->storage == SC_NONE && (d->type.kind == CT_STRUCT || d->type.kind == CT_ARRAY)) return local_aggregate(L, d, cur);
  bool ok = local_ok(L, d);
  int var = cfe_declare_local(L, d->name, &d->type);
  if (d->type.kind == CT_POINTER) ok = cfe_pointer_local(L, var, d->type.elem, false, d->declarator->at) && ok;
  const cfe_expr *init = d->type.kind == CT_BAD ? NULL : d->init; /* a refused type's initializer would be a follow-on error */
  if (init) cur = cfe_sequence(L, init, CFE_SEQ_INIT, cur, &init);
  if (!init) cur = plain(L, cur, ACT_HAVOC, var, NULL, d->at);
  else cur = assign_value(L, (cfe_place){ok ? var : -1, NULL}, init, d->at, cur);
  cfe_bind(L, d->name, var);
  if (d->type.kind == CT_BAD) L->names.items[L->names.len - 1].type = &d->type; /* its uses stay quiet (cfront-access.c) */
  return cur;
}

/* ---------------------------------------------------------------- control flow */

static int if_stmt(cfe_lowering *L, const cfe_stmt *s, int cur) {
  int yes = next_loc(L), no = next_loc(L);
  branch(L, cur, s->expr, yes, no, s->at);
  int then_end = stmt(L, s->body, yes);
  if (!s->els) {
    jump(L, then_end, no, s->at);
    return no;
  }
  int else_end = stmt(L, s->els, no);
  int join = next_loc(L);
  jump(L, then_end, join, s->at);
  jump(L, else_end, join, s->at);
  return join;
}

static int loop_body(cfe_lowering *L, const cfe_stmt *body, int cur, int brk, int cont) {
  cfe_jumps lp = {brk, cont};
  vec_push(NULL, &L->loops, lp);
  cur = stmt(L, body, cur);
  L->loops.len--;
  return cur;
}

static int while_stmt(cfe_lowering *L, const cfe_stmt *s, int head) {
  int yes = next_loc(L), no = next_loc(L);
  branch(L, head, s->expr, yes, no, s->at);
  jump(L, loop_body(L, s->body, yes, no, head), head, s->at);
  return no;
}

static int do_stmt(cfe_lowering *L, const cfe_stmt *s, int start) {
  int test = next_loc(L), no = next_loc(L);
  jump(L, loop_body(L, s->body, start, no, test), test, s->at);
  branch(L, test, s->expr, start, no, s->at);
  return no;
}

/* The span of the 'for' keyword (the condition of "for (;;)"). */
static cfe_pos keyword(cfe_pos at, uint32_t len) {
  if (at.macro) return at; /* a macro's use: no keyword to point at */
  return (cfe_pos){at.file, {at.at.start, at.at.start + len}, 0};
}

static int for_stmt(cfe_lowering *L, const cfe_stmt *s, int cur) {
  size_t scope = L->names.len;
  if (s->init) cur = stmt(L, s->init, cur);
  int head = cur, yes = next_loc(L), no = next_loc(L);
  branch(L, head, s->expr, yes, no, keyword(s->at, 3));
  int cont = s->step ? next_loc(L) : head;
  jump(L, loop_body(L, s->body, yes, no, cont), cont, s->at);
  if (s->step) jump(L, expr_stmt(L, s->step, s->step->at, cont), head, s->at);
  L->names.len = scope;
  return no;
}

/* break and continue: a jump; what follows is unreachable. */
static int loop_jump(cfe_lowering *L, const cfe_stmt *s, int cur) {
  const char *what = s->kind == CS_BREAK ? "break" : "continue";
  if (L->loops.len == L->frame->loop_base) {
    cfe_error(L->u, s->at, "'%s' outside a loop", what);
    return cur;
  }
  cfe_jumps *lp = &L->loops.items[L->loops.len - 1];
  jump(L, cur, s->kind == CS_BREAK ? lp->brk : lp->cont, s->at);
  return next_loc(L);
}

static int return_stmt(cfe_lowering *L, const cfe_stmt *s, int cur) {
  cfe_frame *fr = L->frame;
  bool is_void = fr->func->decl->type.kind == CT_VOID;
  if (!s->expr) {
    jump(L, cur, fr->exit, s->at);
    return next_loc(L);
  }
  if (is_void) cfe_error(L->u, s->at, "'%s' returns void; 'return' cannot have a value", fr->func->name);
  ir_expr *value = NULL;
  ir_ctype from = {0, false};
  const cfe_expr *result;
  cur = cfe_sequence(L, s->expr, CFE_SEQ_INIT, cur, &result);
  bool atomic = cfe_user_call(result) && atomic_call(L, result);
  if (atomic) cur = atomic_enter(L, cur, result->at);
  if (cfe_user_call(result)) {
    int ret;
    cur = call(L, result, cur, &ret, !fr->entry);
    value = ret >= 0 ? prog_var_ref(L->p, ret, result->at.at) : NULL;
    from = ret >= 0 ? L->p->vars.items[ret].ctype : from;
  } else if (!fr->entry) {
    value = cfe_lower_value(L, result);
    from = cfe_ctype(L, result);
  }
  if (fr->entry || fr->ret_var < 0 || !value) {
    discard(L); /* the checked function's result is ignored */
    edge(L, cur, fr->exit, ACT_SKIP, -1, NULL, true, s->at);
  } else {
    cur = flush_pending(L, cur, true, s->at);
    edge(L, cur, fr->exit, ACT_ASSIGN, fr->ret_var, cfe_store_value(L, fr->ret_var, value, from), true, s->at);
  }
  if (atomic) L->atomic--; /* the section ends where return goes */
  return next_loc(L);
}

/* ---------------------------------------------------------------- switch */

/* Where break goes inside a switch; continue still belongs to the enclosing loop. */
static void push_switch_jumps(cfe_lowering *L, int end) {
  bool in_loop = L->loops.len > L->frame->loop_base;
  cfe_jumps j = {end, in_loop ? L->loops.items[L->loops.len - 1].cont : -1};
  vec_push(NULL, &L->loops, j);
}

/* The step at head that goes to the case matching the value of s->expr, or
 * to the default (end without one): one edge per case, all alternatives of
 * the same step, so they see one state. */
static void dispatch_cases(cfe_lowering *L, const cfe_stmt *s, const cfe_expr *value, const cfe_switch *sw, int head,
                           int end) {
  ir_expr *v = cfe_lower_int(L, value);
  head = flush_pending(L, head, true, value->at);
  ir_expr *none = NULL;
  vec_foreach(&sw->cases, i) {
    const cfe_case *c = &sw->cases.items[i];
    ir_expr *eq = ir_binary(L->p->arena, c->at.at, OP_EQ, v, cfe_int_lit(L, c->at.at, c->value));
    eq->type = TY_BOOL;
    edge(L, head, c->loc, ACT_ASSUME, -1, eq, true, s->at);
    ir_expr *ne = cfe_not(L, eq);
    none = none ? ir_binary(L->p->arena, s->at.at, OP_AND, none, ne) : ne;
    none->type = TY_BOOL;
  }
  if (!none) none = cfe_not(L, literal_false(L, s->at));
  edge(L, head, sw->default_loc >= 0 ? sw->default_loc : end, ACT_ASSUME, -1, none, true, s->at);
}

static int switch_stmt(cfe_lowering *L, const cfe_stmt *s, int head) {
  const cfe_expr *value;
  head = cfe_sequence(L, s->expr, CFE_SEQ_VALUE, head, &value);
  cfe_switch sw = {.default_loc = -1, .atomic = L->atomic};
  cfe_switch *outer = L->innermost;
  L->innermost = &sw;
  int end = next_loc(L);
  push_switch_jumps(L, end);
  jump(L, stmt(L, s->body, next_loc(L)), end, s->at); /* code before the first case is never run */
  L->loops.len--;
  L->innermost = outer;
  dispatch_cases(L, s, value, &sw, head, end);
  vec_free(&sw.cases);
  return end;
}

/* A case or default label: its location, reached from the dispatch and by
 * falling through from cur. False after reporting why it cannot be. */
static bool case_label(cfe_lowering *L, const cfe_stmt *s, int *at) {
  const char *what = s->kind == CS_CASE ? "case" : "default";
  cfe_switch *sw = L->innermost;
  if (!sw) cfe_error(L->u, s->at, "'%s' label outside a switch", what);
  else if (sw->atomic != L->atomic) cfe_error(L->u, s->at, "a '%s' label inside an atomic section of its switch", what);
  else {
    *at = next_loc(L);
    return true;
  }
  return false;
}

static int case_stmt(cfe_lowering *L, const cfe_stmt *s, int cur) {
  int64_t value = 0;
  int start;
  bool ok = s->kind == CS_DEFAULT || cfe_const_eval(L->u, s->expr, &value);
  if (!ok || !case_label(L, s, &start)) return stmt(L, s->body, cur);
  cfe_switch *sw = L->innermost; /* clang has rejected duplicate cases and a second default */
  if (s->kind == CS_DEFAULT) sw->default_loc = start;
  else vec_push(NULL, &sw->cases, ((cfe_case){value, start, s->at}));
  jump(L, cur, start, s->at);
  return stmt(L, s->body, start);
}

/* ---------------------------------------------------------------- goto and labels */

/* The label called name in the current function, made at first sight. */
static cfe_label *label_named(cfe_lowering *L, const char *name) {
  vec_foreach(&L->frame->labels, i)
    if (L->frame->labels.items[i].name == name) return &L->frame->labels.items[i];
  cfe_label lb = {.name = name, .loc = next_loc(L), .atomic = L->atomic};
  vec_push(NULL, &L->frame->labels, lb);
  return &L->frame->labels.items[L->frame->labels.len - 1];
}

/* goto and its label must agree on the atomic section they are in: a jump
 * into or out of one would leave the section's step open or never begun. */
static bool same_section(cfe_lowering *L, const cfe_label *lb, cfe_pos at) {
  if (lb->atomic == L->atomic) return true;
  cfe_error(L->u, at, "a jump into or out of an atomic section (label '%s')", lb->name);
  return false;
}

static int goto_stmt(cfe_lowering *L, const cfe_stmt *s, int cur) {
  cfe_label *lb = label_named(L, s->label);
  if (same_section(L, lb, s->at)) jump(L, cur, lb->loc, s->at);
  return next_loc(L);
}

/* "ERROR:" is SV-COMP's error location: reaching it goes wrong. */
static int label_stmt(cfe_lowering *L, const cfe_stmt *s, int cur) {
  cfe_label *lb = label_named(L, s->label); /* clang has rejected a label defined twice */
  if (same_section(L, lb, s->at)) jump(L, cur, lb->loc, s->at);
  cur = lb->loc;
  if (strcmp(s->label, "ERROR") == 0) cur = plain(L, cur, ACT_ASSERT, -1, literal_false(L, s->at), s->at);
  return stmt(L, s->body, cur);
}

/* Forgets the labels of the function (clang has rejected a goto to a label it does not define). */
static void end_labels(cfe_lowering *L) { vec_free(&L->frame->labels); }

/* ---------------------------------------------------------------- blocks */

static cfe_builtin marker(const cfe_stmt *s) {
  if (s->kind != CS_EXPR || s->expr->kind != CE_CALL) return B_NONE;
  cfe_builtin b = s->expr->builtin;
  return b == B_ATOMIC_BEGIN || b == B_ATOMIC_END ? b : B_NONE;
}

/* The matching __VERIFIER_atomic_end of the begin at items[i], or to. */
static size_t matching_end(const cfe_stmts *v, size_t i, size_t to) {
  int depth = 0;
  for (size_t j = i; j < to; j++) {
    cfe_builtin b = marker(v->items[j]);
    if (b == B_ATOMIC_BEGIN) depth++;
    if (b == B_ATOMIC_END && --depth == 0) return j;
  }
  return to;
}

/* Whether the __VERIFIER_atomic_end() at items[i] is SV-COMP's early exit
 * from the one section open, begun in an enclosing block of this function:
 * `end(); return;` or `end(); return CONSTANT;`. The return then ends the
 * step where it goes, the function's exit, a step boundary (no section was
 * open when the function was entered); its value touches no shared memory,
 * so leaving the section before or after it is the same step. */
static bool end_by_return(cfe_lowering *L, const cfe_stmts *v, size_t i, size_t to) {
  if (marker(v->items[i]) != B_ATOMIC_END || i + 1 >= to || L->atomic != 1) return false;
  const cfe_stmt *r = v->items[i + 1];
  int64_t value;
  if (r->kind != CS_RETURN || (r->expr && !cfe_const_value(L->u, r->expr, &value))) return false;
  return L->p->locs.items[L->frame->exit].boundary;
}

/* items[from, to) of a block; __VERIFIER_atomic_begin() ... end() pairs
 * make what lies between them one step. */
static int items(cfe_lowering *L, const cfe_stmts *v, size_t from, size_t to, int cur) {
  for (size_t i = from; i < to; i++) {
    const cfe_stmt *s = v->items[i];
    cfe_builtin b = marker(s);
    if (b == B_NONE) {
      cur = stmt(L, s, cur);
      continue;
    }
    if (end_by_return(L, v, i, to)) continue; /* the return that follows ends the step */
    size_t end = b == B_ATOMIC_BEGIN ? matching_end(v, i, to) : to;
    if (end == to) {
      cfe_error(L->u, s->at,
                b == B_ATOMIC_BEGIN
                    ? "'__VERIFIER_atomic_begin()' without a matching '__VERIFIER_atomic_end()' in the same block"
                    : "'__VERIFIER_atomic_end()' without a '__VERIFIER_atomic_begin()' before it in the same block");
      continue;
    }
    if (s->expr->args.len > 0) cfe_error(L->u, s->at, "'__VERIFIER_atomic_begin' takes no arguments");
    cur = atomic_enter(L, cur, s->at);
    cur = items(L, v, i + 1, end, cur);
    cur = atomic_leave(L, cur, v->items[end]->at);
    i = end;
  }
  return cur;
}

static int block(cfe_lowering *L, const cfe_stmt *s, int cur) {
  size_t scope = L->names.len;
  cur = items(L, &s->items, 0, s->items.len, cur);
  L->names.len = scope;
  return cur;
}

static int dispatch(cfe_lowering *L, const cfe_stmt *s, int cur) {
  switch (s->kind) {
  case CS_EXPR: return expr_stmt(L, s->expr, s->at, cur);
  case CS_DECL:
    vec_foreach(&s->decls, i) cur = declaration(L, s->decls.items[i], cur);
    return cur;
  case CS_BLOCK: return block(L, s, cur);
  case CS_IF: return if_stmt(L, s, cur);
  case CS_WHILE: return while_stmt(L, s, cur);
  case CS_DO: return do_stmt(L, s, cur);
  case CS_FOR: return for_stmt(L, s, cur);
  case CS_BREAK:
  case CS_CONTINUE: return loop_jump(L, s, cur);
  case CS_RETURN: return return_stmt(L, s, cur);
  case CS_ATOMIC: cur = atomic_enter(L, cur, s->at); return atomic_leave(L, stmt(L, s->body, cur), s->at);
  case CS_EMPTY: return cur;
  case CS_SWITCH: return switch_stmt(L, s, cur);
  case CS_CASE:
  case CS_DEFAULT: return case_stmt(L, s, cur);
  case CS_GOTO: return goto_stmt(L, s, cur);
  case CS_LABEL: return label_stmt(L, s, cur);
  case CS_BAD: cfe_error(L->u, s->at, "%s", s->what); return cur;
  }
  return cur;
}

int cfe_lower_stmt(cfe_lowering *L, const cfe_stmt *s, int cur) { return stmt(L, s, cur); }

static int stmt(cfe_lowering *L, const cfe_stmt *s, int cur) {
  if (L->too_big) return cur;
  if (L->nesting >= MAX_NESTING) {
    cfe_error(L->u, s->at, "statements are nested more than %d levels deep here (counting inlined calls)", MAX_NESTING);
    L->too_big = true;
    return cur;
  }
  L->nesting++;
  cur = dispatch(L, s, cur);
  L->nesting--;
  return cur;
}

/* ---------------------------------------------------------------- the entry point */

static void add_shared(cfe_lowering *L) {
  vec_foreach(&L->spec->shared, i) {
    const ast_shared *sh = L->spec->shared.items[i];
    int v = prog_add_var(L->p, VAR_SHARED, sh->name, sh->type.kind == TYPE_BOOL ? TY_BOOL : TY_INT);
    prog_var *x = &L->p->vars.items[v];
    x->shared_index = (int)i;
    x->bounded = sh->type.kind == TYPE_RANGE;
    x->lo = sh->type.lo_value;
    x->hi = sh->type.hi_value;
  }
}

/* Entry parameters start with any value: non-step havocs (a struct's for each field). */
static int entry_params(cfe_lowering *L, const cfe_func *f, int cur) {
  if (f->decl->variadic) cfe_error(L->u, f->name_at, "unsupported variadic function '%s'", f->name);
  size_t first = L->p->vars.len;
  for (size_t i = 0; i < param_count(f); i++) {
    const cfe_decl *p = f->decl->params.items[i];
    if (p->name && p->type.kind == CT_STRUCT) {
      cur = local_aggregate(L, p, cur);
      continue;
    }
    scalar_param(L, p);
    int v = cfe_declare_local(L, p->name ? p->name : "param", &p->type);
    if (p->type.kind == CT_POINTER) cfe_pointer_local(L, v, p->type.elem, true, p->at);
    cur = plain(L, cur, ACT_HAVOC, v, NULL, p->at);
    if (p->name) cfe_bind(L, p->name, v);
  }
  for (size_t v = first; v < L->p->vars.len; v++) L->p->vars.items[v].parameter = true;
  return cur;
}

static const cfe_func *find_function(const cfe_unit *u, const char *name) {
  vec_foreach(&u->funcs, i)
    if (u->funcs.items[i]->body && strcmp(u->funcs.items[i]->name, name) == 0) return u->funcs.items[i];
  return NULL;
}

/* A thread-local global (_Thread_local, __thread) is the thread's own: a
 * local that starts with its C initializer (C's zero without one), set in a
 * first step; one of a type a local cannot hold is left to its first use.
 * With own_globals, so is a global no cell stands for whose initializer is
 * a constant (one that is not is left to its first use: an error there). */
static int thread_locals(cfe_lowering *L, int cur) {
  vec_foreach(&L->u->globals, g) {
    const cfe_decl *d = L->u->globals.items[g];
    int64_t k = 0;
    bool constant = !d->init || cfe_const_value(L->u, d->init, &k);
    bool owned = L->own_globals && !d->thread_local && constant && symtab_get(&L->cells, d->name) < 0;
    if (!(d->thread_local || owned) || (d->type.kind != CT_INT && d->type.kind != CT_BOOL)) continue;
    int v = cfe_new_local(L, d->name, &d->type);
    if (!constant) cur = step(L, cur, ACT_HAVOC, v, NULL, d->at);
    else cur = step(L, cur, ACT_ASSIGN, v, cfe_store_value(L, v, cfe_int_lit(L, d->at.at, k), (ir_ctype){0, false}), d->at);
    L->globals[g] = v;
  }
  return cur;
}

static void lower_entry(cfe_lowering *L, const cfe_func *f) {
  cfe_frame frame = {.func = f, .entry = true, .ret_var = -1};
  L->frame = &frame;
  L->p->entry = next_loc(L);
  frame.exit = next_loc(L);
  L->thread_exit = frame.exit;
  int cur = thread_locals(L, L->p->entry);
  cur = entry_params(L, f, cur);
  vec_push(NULL, &L->calls, f);
  bool atomic = atomic_function(f);
  if (atomic) cur = atomic_enter(L, cur, f->body_name_at);
  cur = stmt(L, f->body, cur);
  jump(L, cur, frame.exit, f->body->at); /* for an atomic function: the end of its one step */
  end_labels(L);
  if (atomic) L->atomic--;
  L->p->exit = frame.exit;
}

/* One lowering of f with the targets known so far (all of them when ptr->frozen); NULL after errors. */
static prog *lower_once(cfe_unit *u, const ast_spec *spec, const cfe_func *f, cfe_pointers *ptr, cfe_ints ints,
                        bool own_globals) {
  cfe_lowering L = {.u = u, .spec = spec, .p = prog_new(f->name), .ptr = ptr, .ints = ints, .own_globals = own_globals};
  ptr->pointee.len = ptr->unknown.len = ptr->types.len = ptr->ordinal.len = 0;
  ptr->declared = 0;
  L.file_map = xmalloc((u->files.len + 1) * sizeof *L.file_map);
  vec_foreach(&u->files, i) L.file_map[i] = -1;
  L.globals = xmalloc((u->globals.len + 1) * sizeof *L.globals);
  vec_foreach(&u->globals, i) L.globals[i] = -2;
  add_shared(&L);
  cfe_map_cells(&L);
  if (ptr->frozen) cfe_place_local_targets(&L);
  int before = u->errors;
  lower_entry(&L, f);
  cfe_unmap_cells(&L);
  vec_free(&L.names);
  vec_free(&L.loops);
  vec_free(&L.calls);
  vec_free(&L.pending.temps);
  vec_free(&L.pending.checks);
  free(L.file_map);
  free(L.globals);
  if (u->errors == before) return L.p;
  prog_free(L.p);
  return NULL;
}

static int by_type(const void *a, const void *b) {
  const cfe_target *x = a, *y = b;
  int c = strcmp(x->tkey, y->tkey);
  if (c) return c;
  return strcmp(x->key, y->key);
}

/* Sorts the targets by type, so that each type's are one range, and renumbers them. */
static void freeze(cfe_pointers *ptr) {
  if (ptr->targets.len > 1) qsort(ptr->targets.items, ptr->targets.len, sizeof *ptr->targets.items, by_type);
  symtab_free(&ptr->ids);
  vec_foreach(&ptr->targets, i) symtab_put(&ptr->ids, ptr->targets.items[i].key, (int)i);
  ptr->frozen = true;
}

static void free_pointers(cfe_pointers *ptr) {
  vec_free(&ptr->targets);
  vec_free(&ptr->pointee);
  vec_free(&ptr->unknown);
  vec_free(&ptr->types);
  vec_free(&ptr->ordinal);
  symtab_free(&ptr->ids);
  symtab_free(&ptr->unions);
  vec_free(&ptr->uses);
}

/* A first, silent pass finds the objects whose addresses the code takes
 * (and the members of unions it uses); when there are some objects (or
 * errors to report, or a union copied before its member was known), a
 * second pass lowers the function knowing them all. */
const char *cfe_ints_name(cfe_ints ints) { return ints == CFE_INTS_MATH ? "math" : "c"; }

static prog *lower(cfe_unit *u, const ast_spec *spec, const char *function, cfe_ints ints, bool own_globals) {
  const cfe_func *f = find_function(u, function);
  if (!f) {
    diag_error_at(u->sink, "athread", "no function '%s' with a body in the C files", function);
    return NULL;
  }
  cfe_pointers ptr = {0};
  diag_sink *spec_sink = spec->src->sink;
  diag_sink saved = *u->sink, spec_saved = *spec_sink;
  symtab printed = u->reported; /* the silent pass prints nothing, so it marks nothing as printed */
  int errors = u->errors;
  u->sink->out = spec_sink->out = NULL;
  u->reported = (symtab){0};
  prog *p = lower_once(u, spec, f, &ptr, ints, own_globals);
  bool failed = u->errors != errors || spec_sink->errors != spec_saved.errors;
  symtab_free(&u->reported);
  u->reported = printed;
  u->errors = errors;
  *spec_sink = spec_saved;
  *u->sink = saved;
  if (failed || ptr.targets.len > 0 || ptr.again) {
    prog_free(p);
    freeze(&ptr);
    p = lower_once(u, spec, f, &ptr, ints, own_globals);
  }
  free_pointers(&ptr);
  return p;
}

prog *cfe_lower(cfe_unit *u, const ast_spec *spec, const char *function, cfe_ints ints) {
  return lower(u, spec, function, ints, false);
}

prog *cfe_lower_owning(cfe_unit *u, const ast_spec *spec, const char *function, cfe_ints ints) {
  return lower(u, spec, function, ints, true);
}
