/* conformance/trace.c -- from a path through C(T, T#) to the concrete steps. */
#include "trace.h"

#include <stdlib.h>
#include <string.h>

#include "env-closure.h"

typedef struct builder {
  const prog *ins;
  const conform_env *env;     /* the environment's moves (a closure's come from its graph) */
  const ast_thread *thread;   /* T# */
  const conform_result *r;
  trace *t;
  size_t width;     /* variables */
  trace_step *open; /* the step being read, or NULL between steps */
  VEC(trace_read) loaded; /* the loads of the statement not begun yet */
  VEC(trace_move) moved;  /* the environment's moves before the step not begun yet */
} builder;

static int64_t *copy_values(const builder *b, size_t after_edges) {
  int64_t *v = xcalloc(b->width + 1, sizeof *v);
  memcpy(v, b->r->trace_values + after_edges * b->width, b->width * sizeof *v);
  return v;
}

/* Does ed end a step (the F update follows it)? */
static bool ends_step(const prog *ins, const prog_edge *ed) {
  const prog_location *to = &ins->locs.items[ed->to];
  return to->out.len > 0 && ins->edges.items[to->out.items[0]].role == ROLE_UPDATE;
}

/* 1 or 0 when ed is one of the two branches of a condition step (which it
 * ends, after the condition's nondet havocs and bounds checks), else -1. */
static int branch_of(const prog *ins, const prog_edge *ed, int index) {
  const prog_location *from = &ins->locs.items[ed->from];
  if (from->out.len != 2 || (ed->action != ACT_ASSUME && ed->action != ACT_SKIP) || !ends_step(ins, ed)) return -1;
  return from->out.items[0] == index;
}

static trace_step *open_step(builder *b, const prog_edge *ed, size_t i) {
  trace_step s = {.origin = ed->origin, .env = copy_values(b, i), .branch = -1, .branch_at = {.file = -1}};
  s.reads.items = b->loaded.items; /* the statement's loads are its reads */
  s.reads.len = b->loaded.len;
  s.reads.cap = b->loaded.cap;
  memset(&b->loaded, 0, sizeof b->loaded);
  s.moves.items = b->moved.items; /* the moves since the last step came before this one */
  s.moves.len = b->moved.len;
  s.moves.cap = b->moved.cap;
  memset(&b->moved, 0, sizeof b->moved);
  vec_push(NULL, &b->t->steps, s);
  b->open = &b->t->steps.items[b->t->steps.len - 1];
  return b->open;
}

static void fail(builder *b, const prog_edge *ed, size_t i) {
  b->t->failure = ed->check;
  b->t->failing_edge = b->r->trace_edges[i];
  b->t->range_var = ed->check == CHECK_RANGE ? ed->detail : -1;
  b->t->subscript = ed->check == CHECK_INDEX || ed->check == CHECK_NULL ? ed->detail : -1;
  b->t->operation = ed->check == CHECK_ARITH ? ed->detail : -1;
  b->t->at_failure = copy_values(b, i);
  if (b->open && !b->open->after) b->open->after = copy_values(b, i);
}

/* A load "t := g" of an access before its statement (atomicity.c)? */
static bool is_load(const prog *ins, const prog_edge *ed) {
  return ed->action == ACT_ASSIGN && ins->vars.items[ed->var].kind == VAR_LOAD;
}

static void read_code_edge(builder *b, const prog_edge *ed, size_t i, bool last) {
  if (is_load(b->ins, ed)) {
    trace_read r = {ed->var, b->r->trace_values[(i + 1) * b->width + (size_t)ed->var]};
    vec_push(NULL, &b->loaded, r);
    return;
  }
  if (!b->open && (ed->starts_step || (last && ed->action == ACT_ASSERT))) {
    open_step(b, ed, i);
    b->t->failing_is_check = !ed->starts_step;
  }
  b->loaded.len = 0; /* the loads belonged to a check that passed */
  int branch = b->open ? branch_of(b->ins, ed, b->r->trace_edges[i]) : -1;
  if (branch >= 0) {
    b->open->branch = branch;
    b->open->branch_at = ed->origin;
  }
  if (last) fail(b, ed, i);
}

static void read_update_edge(builder *b, const prog_edge *ed, size_t i, bool last) {
  if (last) {
    fail(b, ed, i);
    return;
  }
  if (ed->action != ACT_SKIP || !b->open) return;
  b->open->after = copy_values(b, i + 1);
  b->open->simulated = true;
  b->open = NULL;
}

/* The values of the variables of kind (VAR_SHARED or VAR_OLD) in v, one per
 * shared variable (owned). */
static int64_t *shared_values(const builder *b, prog_var_kind kind, const int64_t *v) {
  int64_t *out = xcalloc(b->ins->vars.len + 1, sizeof *out);
  vec_foreach(&b->ins->vars, k)
    if (b->ins->vars.items[k].kind == kind) out[b->ins->vars.items[k].shared_index] = v[k];
  return out;
}

/* A path of moves from the closure's graph for the values after the
 * closure's edge, v: from u to g with this instance (its tid, or any of T's
 * instances) in one of the states of F. */
static bool closure_witness(const builder *b, const int64_t *v, env_path *path) {
  int64_t *from = shared_values(b, VAR_OLD, v), *to = shared_values(b, VAR_SHARED, v), tid = 0;
  vec_foreach(&b->ins->vars, k)
    if (b->ins->vars.items[k].kind == VAR_TID) tid = v[k];
  bool found = false;
  vec_foreach(&b->env->spec->instances, n) {
    const ast_instance *in = b->env->spec->instances.items[n];
    for (int64_t t = in->first_tid; in->thread_index == b->thread->index && t < in->first_tid + in->count_value; t++)
      vec_foreach(&b->ins->vars, k) {
        const prog_var *c = &b->ins->vars.items[k];
        if (!found && (!tid || t == tid) && c->kind == VAR_CAND && v[k])
          found = env_graph_witness(b->env->graph, t, c->state_index, from, to, path);
      }
  }
  free(from);
  free(to);
  return found;
}

/* The closure's edge: its moves, each with the values after it. */
static void read_closure(builder *b, size_t i) {
  int64_t *v = copy_values(b, i + 1);
  env_path path;
  if (closure_witness(b, v, &path))
    for (size_t j = 0; j < path.count; j++) {
      trace_move m = {(int)path.moves[j], copy_values(b, i + 1)};
      vec_foreach(&b->ins->vars, k)
        if (b->ins->vars.items[k].kind == VAR_SHARED)
          m.after[k] = path.after[j * b->env->spec->shared.len + (size_t)b->ins->vars.items[k].shared_index];
      vec_push(NULL, &b->moved, m);
    }
  env_path_free(&path);
  free(v);
}

/* The last edge of a move (its relation, detail the move) records it. */
static void read_env_edge(builder *b, const prog_edge *ed, size_t i) {
  b->open = NULL;
  if (ed->detail == ENV_CLOSURE_EDGE) return read_closure(b, i);
  if (ed->detail < 0) return;
  trace_move m = {ed->detail, copy_values(b, i + 1)};
  vec_push(NULL, &b->moved, m);
}

static void free_moves(void *moves, size_t len) {
  trace_move *m = moves;
  for (size_t i = 0; i < len; i++) free(m[i].after);
}

void trace_build(const prog *ins, const conform_result *r, const conform_env *env, const ast_thread *thread,
                 trace *t) {
  memset(t, 0, sizeof *t);
  builder b = {.ins = ins, .env = env, .thread = thread, .r = r, .t = t, .width = ins->vars.len};
  t->range_var = t->subscript = t->operation = t->failing_edge = -1;
  for (size_t i = 0; i < r->trace_len; i++) {
    const prog_edge *ed = &ins->edges.items[r->trace_edges[i]];
    bool last = i + 1 == r->trace_len;
    switch (ed->role) {
    case ROLE_INIT:
      free(t->start);
      t->start = copy_values(&b, i + 1);
      break;
    case ROLE_ENV: read_env_edge(&b, ed, i); break;
    case ROLE_CODE: read_code_edge(&b, ed, i, last); break;
    case ROLE_UPDATE: read_update_edge(&b, ed, i, last); break;
    case ROLE_EXIT:
      if (last) fail(&b, ed, i);
      break;
    case ROLE_SAVE: break;
    }
  }
  if (!t->start) t->start = copy_values(&b, 0);
  vec_free(&b.loaded);
  free_moves(b.moved.items, b.moved.len);
  vec_free(&b.moved);
}

void trace_free(trace *t) {
  vec_foreach(&t->steps, i) {
    free(t->steps.items[i].env);
    free(t->steps.items[i].after);
    vec_free(&t->steps.items[i].reads);
    free_moves(t->steps.items[i].moves.items, t->steps.items[i].moves.len);
    vec_free(&t->steps.items[i].moves);
  }
  vec_free(&t->steps);
  free(t->at_failure);
  free(t->start);
}
