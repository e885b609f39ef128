/* spec-lang/ast.c -- AST constructors (called from grammar actions) and the
 * structural dump used to compare two parses. */
#include "ast.h"

#include <inttypes.h>
#include <string.h>

/* ---------------------------------------------------------------- constructors */

ast_spec *ast_spec_new(diag_source *src) {
  arena *a = arena_new();
  ast_spec *s = arena_alloc(a, sizeof *s);
  s->arena = a;
  s->src = src;
  return s;
}

static void add_decl(ast_spec *s, ast_decl d) { vec_push(s->arena, &s->decls, d); }

void ast_add_const(ast_spec *s, loc at, const char *name, loc name_at, ir_expr *value) {
  ast_const *c = arena_alloc(s->arena, sizeof *c);
  *c = (ast_const){.name = name, .name_at = name_at, .at = at, .value_expr = value, .index = -1};
  add_decl(s, (ast_decl){.kind = DECL_CONST, .at = at, .konst = c});
}

ast_type ast_type_make(ast_type_kind kind, loc at, ir_expr *lo, ir_expr *hi) {
  return (ast_type){.kind = kind, .at = at, .lo = lo, .hi = hi};
}

void ast_add_shared(ast_spec *s, loc at, ast_type type, const char *name, loc name_at, ir_expr *size, ast_init init) {
  ast_shared *v = arena_alloc(s->arena, sizeof *v);
  *v = (ast_shared){.name = name,
                    .name_at = name_at,
                    .at = at,
                    .type = type,
                    .size = size,
                    .init = init.value,
                    .init_list_at = init.list_at,
                    .index = -1,
                    .variable = -1};
  v->init_list.items = init.list.items;
  v->init_list.len = init.list.len;
  v->init_list.cap = init.list.cap;
  add_decl(s, (ast_decl){.kind = DECL_SHARED, .at = at, .shared = v});
}

void ast_init_add(ast_spec *s, ast_init *init, ir_expr *value) { vec_push(s->arena, &init->list, value); }

/* A C path with its indices written without leading zeros ("a[02]" is "a[2]"),
 * as the C front end names elements. */
static const char *canonical_path(ast_spec *s, const char *path) {
  strbuf b = {0};
  for (const char *p = path; *p; p++) {
    sbuf_putc(&b, *p);
    if (*p != '[') continue;
    while (p[1] == '0' && p[2] != ']') p++;
  }
  const char *out = arena_intern_cstr(s->arena, sbuf_str(&b));
  sbuf_free(&b);
  return out;
}

void ast_bind_shared(ast_spec *s, const char *c_name, loc at) {
  ast_shared *v = s->decls.items[s->decls.len - 1].shared;
  v->binds = c_name ? canonical_path(s, c_name) : NULL;
  v->binds_at = at;
}

const char *ast_c_name(const ast_shared *v) { return v->binds ? v->binds : v->name; }

ast_thread *ast_thread_new(ast_spec *s, const char *name, loc name_at) {
  ast_thread *t = arena_alloc(s->arena, sizeof *t);
  t->name = name;
  t->name_at = name_at;
  t->index = -1;
  return t;
}

void ast_add_thread(ast_spec *s, loc at, ast_thread *t, const char *impl, loc impl_at, uint32_t close_at) {
  t->at = at;
  t->impl = impl;
  t->impl_at = impl_at;
  t->close_at = close_at;
  add_decl(s, (ast_decl){.kind = DECL_THREAD, .at = at, .thread = t});
}

static void add_item(ast_spec *s, ast_thread *t, ast_thread_item item) { vec_push(s->arena, &t->items, item); }

void ast_thread_add_invariant(ast_spec *s, ast_thread *t, loc at, ir_expr *e) {
  add_item(s, t, (ast_thread_item){.kind = ITEM_INVARIANT, .at = at, .invariant = e});
}

ast_state_decl *ast_state_decl_new(ast_spec *s, const char *name, loc name_at) {
  ast_state_decl *d = arena_alloc(s->arena, sizeof *d);
  ast_state_decl_add(s, d, name, name_at);
  return d;
}

void ast_state_decl_add(ast_spec *s, ast_state_decl *d, const char *name, loc name_at) {
  ast_state *st = arena_alloc(s->arena, sizeof *st);
  *st = (ast_state){.name = name, .at = name_at, .index = -1};
  vec_push(s->arena, &d->states, st);
}

void ast_thread_add_states(ast_spec *s, ast_thread *t, loc at, bool initial, ast_state_decl *d, ir_expr *assertion) {
  d->initial = initial;
  d->assertion = assertion;
  vec_foreach(&d->states, i) {
    d->states.items[i]->initial = initial;
    d->states.items[i]->assertion = assertion;
  }
  add_item(s, t, (ast_thread_item){.kind = ITEM_STATES, .at = at, .states = d});
}

ast_edge *ast_edge_new(ast_spec *s, ast_edge_kind kind) {
  ast_edge *e = arena_alloc(s->arena, sizeof *e);
  e->kind = kind;
  e->from_index = e->to_index = e->index = -1;
  return e;
}

void ast_edge_add_assign(ast_spec *s, ast_edge *e, ast_target target, ir_expr *value) {
  ast_assign as = {.var = target.var,
                   .var_at = target.var_at,
                   .index = target.index,
                   .target_at = target.at,
                   .value = value,
                   .var_index = -1};
  vec_push(s->arena, &e->assigns, as);
  e->has_do = true;
}

void ast_thread_add_edge(ast_spec *s, ast_thread *t, loc at, const char *from, loc from_at, const char *to, loc to_at,
                         const char *label, loc label_at, ast_edge *body) {
  body->from = from;
  body->from_at = from_at;
  body->to = to;
  body->to_at = to_at;
  body->label = label;
  body->label_at = label_at;
  add_item(s, t, (ast_thread_item){.kind = ITEM_EDGE, .at = at, .edge = body});
}

ast_system *ast_system_new(ast_spec *s) { return arena_alloc(s->arena, sizeof(ast_system)); }

void ast_system_add_instance(ast_spec *s, ast_system *sys, loc at, const char *thread, loc thread_at, ir_expr *count) {
  ast_instance *in = arena_alloc(s->arena, sizeof *in);
  *in = (ast_instance){.thread = thread, .thread_at = thread_at, .count = count, .count_value = 1, .thread_index = -1};
  ast_sys_item item = {.kind = SYS_INSTANCE, .at = at, .instance = in};
  vec_push(s->arena, &sys->items, item);
}

void ast_system_add_expr(ast_spec *s, ast_system *sys, loc at, ast_sys_item_kind kind, ir_expr *e) {
  ast_sys_item item = {.kind = kind, .at = at, .expr = e};
  vec_push(s->arena, &sys->items, item);
}

void ast_add_system(ast_spec *s, loc at, ast_system *sys, const char *name, loc name_at, uint32_t close_at) {
  sys->name = name;
  sys->name_at = name_at;
  sys->at = at;
  sys->close_at = close_at;
  add_decl(s, (ast_decl){.kind = DECL_SYSTEM, .at = at, .system = sys});
}

static const char *const keywords[] = {
    "const", "shared", "thread", "system", "state", "init", "assert", "invariant", "implements", "when", "do",
    "true",  "false",  "int",    "bool",   "count", "tid",  "binds",  "forall",    "exists",     "in",
};

bool ast_is_keyword(const char *s, size_t n) {
  for (size_t i = 0; i < sizeof keywords / sizeof *keywords; i++)
    if (strlen(keywords[i]) == n && memcmp(keywords[i], s, n) == 0) return true;
  return false;
}

/* ---------------------------------------------------------------- traversal */

typedef void (*expr_visitor)(ir_expr *, void *);

static void visit_opt(ir_expr *e, expr_visitor visit, void *ctx) {
  if (e) visit(e, ctx);
}

static void foreach_thread_expr(const ast_thread *t, expr_visitor visit, void *ctx) {
  vec_foreach(&t->items, i) {
    const ast_thread_item *it = &t->items.items[i];
    if (it->kind == ITEM_INVARIANT) visit(it->invariant, ctx);
    if (it->kind == ITEM_STATES) visit_opt(it->states->assertion, visit, ctx);
    if (it->kind != ITEM_EDGE) continue;
    visit_opt(it->edge->relation, visit, ctx);
    visit_opt(it->edge->guard, visit, ctx);
    vec_foreach(&it->edge->assigns, k) {
      visit_opt(it->edge->assigns.items[k].index, visit, ctx);
      visit_opt(it->edge->assigns.items[k].value, visit, ctx);
    }
  }
}

void ast_foreach_expr(const ast_spec *spec, expr_visitor visit, void *ctx) {
  vec_foreach(&spec->decls, i) {
    const ast_decl *d = &spec->decls.items[i];
    if (d->kind == DECL_CONST) visit(d->konst->value_expr, ctx);
    if (d->kind == DECL_SHARED) {
      visit_opt(d->shared->type.lo, visit, ctx);
      visit_opt(d->shared->type.hi, visit, ctx);
      visit_opt(d->shared->size, visit, ctx);
      visit_opt(d->shared->init, visit, ctx);
      vec_foreach(&d->shared->init_list, k) visit(d->shared->init_list.items[k], ctx);
    }
    if (d->kind == DECL_THREAD) foreach_thread_expr(d->thread, visit, ctx);
    if (d->kind != DECL_SYSTEM) continue;
    vec_foreach(&d->system->items, k) {
      const ast_sys_item *it = &d->system->items.items[k];
      visit_opt(it->kind == SYS_INSTANCE ? it->instance->count : it->expr, visit, ctx);
    }
  }
}

/* ---------------------------------------------------------------- printing */

void ast_print_assign(strbuf *out, const ast_assign *as) {
  sbuf_puts(out, as->var);
  if (as->index) {
    sbuf_putc(out, '[');
    ir_print(out, as->index);
    sbuf_putc(out, ']');
  }
  sbuf_puts(out, " := ");
  if (as->value) ir_print(out, as->value);
  else sbuf_putc(out, '*');
}

/* ---------------------------------------------------------------- dump */

static void dump_opt(strbuf *out, const ir_expr *e) {
  sbuf_putc(out, ' ');
  if (e) ir_dump(out, e);
  else sbuf_puts(out, "_");
}

static void dump_type(strbuf *out, const ast_type *t) {
  if (t->kind == TYPE_BOOL) sbuf_puts(out, "bool");
  if (t->kind == TYPE_INT) sbuf_puts(out, "int");
  if (t->kind != TYPE_RANGE) return;
  sbuf_puts(out, "(range");
  dump_opt(out, t->lo);
  dump_opt(out, t->hi);
  sbuf_putc(out, ')');
}

static void dump_edge(strbuf *out, const ast_edge *e) {
  sbuf_printf(out, "(edge %s %s", e->from, e->to);
  if (e->label) sbuf_printf(out, " \"%s\"", e->label);
  if (e->kind == EDGE_RELATION) {
    sbuf_puts(out, " :");
    dump_opt(out, e->relation);
  } else {
    sbuf_puts(out, " when");
    dump_opt(out, e->guard);
    sbuf_printf(out, " do%s", e->has_do ? "" : "-none");
    vec_foreach(&e->assigns, i) {
      sbuf_printf(out, " (:= %s", e->assigns.items[i].var);
      if (e->assigns.items[i].index) dump_opt(out, e->assigns.items[i].index);
      dump_opt(out, e->assigns.items[i].value);
      sbuf_putc(out, ')');
    }
  }
  sbuf_puts(out, ")\n");
}

static void dump_thread(strbuf *out, const ast_thread *t) {
  sbuf_printf(out, "(thread %s %s\n", t->name, t->impl ? t->impl : "_");
  vec_foreach(&t->items, i) {
    const ast_thread_item *it = &t->items.items[i];
    if (it->kind == ITEM_INVARIANT) {
      sbuf_puts(out, " (invariant");
      dump_opt(out, it->invariant);
      sbuf_puts(out, ")\n");
    } else if (it->kind == ITEM_STATES) {
      sbuf_printf(out, " (%s", it->states->initial ? "init-states" : "states");
      vec_foreach(&it->states->states, k) sbuf_printf(out, " %s", it->states->states.items[k]->name);
      dump_opt(out, it->states->assertion);
      sbuf_puts(out, ")\n");
    } else {
      sbuf_putc(out, ' ');
      dump_edge(out, it->edge);
    }
  }
  sbuf_puts(out, ")\n");
}

static void dump_system(strbuf *out, const ast_system *sys) {
  static const char *const kinds[] = {[SYS_INSTANCE] = "instance", [SYS_INIT] = "init", [SYS_INVARIANT] = "invariant"};
  sbuf_printf(out, "(system %s\n", sys->name);
  vec_foreach(&sys->items, i) {
    const ast_sys_item *it = &sys->items.items[i];
    sbuf_printf(out, " (%s", kinds[it->kind]);
    if (it->kind == SYS_INSTANCE) {
      sbuf_printf(out, " %s", it->instance->thread);
      dump_opt(out, it->instance->count);
    } else {
      dump_opt(out, it->expr);
    }
    sbuf_puts(out, ")\n");
  }
  sbuf_puts(out, ")\n");
}

void ast_dump(strbuf *out, const ast_spec *spec) {
  vec_foreach(&spec->decls, i) {
    const ast_decl *d = &spec->decls.items[i];
    switch (d->kind) {
    case DECL_CONST:
      sbuf_printf(out, "(const %s", d->konst->name);
      dump_opt(out, d->konst->value_expr);
      sbuf_puts(out, ")\n");
      break;
    case DECL_SHARED:
      sbuf_printf(out, "(shared %s ", d->shared->name);
      dump_type(out, &d->shared->type);
      if (d->shared->size) {
        sbuf_puts(out, " (size");
        dump_opt(out, d->shared->size);
        sbuf_putc(out, ')');
      }
      dump_opt(out, d->shared->init);
      if (d->shared->init_list.len) sbuf_puts(out, " (list");
      vec_foreach(&d->shared->init_list, k) dump_opt(out, d->shared->init_list.items[k]);
      if (d->shared->init_list.len) sbuf_putc(out, ')');
      if (d->shared->binds) sbuf_printf(out, " (binds %s)", d->shared->binds);
      sbuf_puts(out, ")\n");
      break;
    case DECL_THREAD: dump_thread(out, d->thread); break;
    case DECL_SYSTEM: dump_system(out, d->system); break;
    }
  }
}

ast_thread *ast_find_thread(const ast_spec *spec, const char *name) {
  vec_foreach(&spec->threads, i)
    if (strcmp(spec->threads.items[i]->name, name) == 0) return spec->threads.items[i];
  return NULL;
}

ast_const *ast_find_const(const ast_spec *spec, const char *name) {
  vec_foreach(&spec->consts, i)
    if (strcmp(spec->consts.items[i]->name, name) == 0) return spec->consts.items[i];
  return NULL;
}

ast_state *ast_find_state(const ast_thread *thread, const char *name) {
  vec_foreach(&thread->states, i)
    if (strcmp(thread->states.items[i]->name, name) == 0) return thread->states.items[i];
  return NULL;
}
