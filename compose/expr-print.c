/* compose/expr-print.c -- the IR expression printer that athread murphi and
 * athread promela share (expr-print.h): the walk over the expression is
 * here, the target's spellings and its own constructs are in its syntax.
 */
#include "expr-print.h"

#include <inttypes.h>

#include "../spec-lang/semantics.h"

xp_printer xp_new(const xp_syntax *syntax, strbuf *out, const ast_spec *spec, arena *a, void *ctx) {
  size_t cells = spec->shared.len + 1;
  return (xp_printer){.syntax = syntax,
                      .out = out,
                      .spec = spec,
                      .konst = arena_alloc(a, (spec->consts.len + 1) * sizeof(const char *)),
                      .var = arena_alloc(a, cells * sizeof(const char *)),
                      .array = arena_alloc(a, cells * sizeof(const char *)),
                      .tid = "tid",
                      .ctx = ctx};
}

static void print_operand(xp_printer *x, const ir_expr *parent, const ir_expr *e, bool right) {
  const xp_syntax *s = x->syntax;
  bool parens = s->operand_parens ? s->operand_parens(x, parent, e, right) : !s->atom(x, e);
  if (parens) sbuf_putc(x->out, '(');
  xp_expr(x, e);
  if (parens) sbuf_putc(x->out, ')');
}

void xp_tight(xp_printer *x, const ir_expr *e) {
  bool parens = !x->syntax->atom(x, e);
  if (parens) sbuf_putc(x->out, '(');
  xp_expr(x, e);
  if (parens) sbuf_putc(x->out, ')');
}

/* Cell c, or its next value when primed: substituted (or, where the target
 * inlines them, computed), else the step's temporary. */
static void print_cell(xp_printer *x, int c, bool primed) {
  const bind *b = primed && x->binds ? &x->binds[c] : NULL;
  bool inline_value = b && (b->kind == BIND_SUBST || (x->syntax->inline_computed && b->expr));
  if (!primed) sbuf_puts(x->out, x->var[c]);
  else if (inline_value) xp_tight(x, b->expr);
  else sbuf_puts(x->out, x->syntax->temp(x, c));
}

/* A const by its name, or by its value where it has none (the exporter has
 * reported it). */
static void print_name(xp_printer *x, const ir_expr *e) {
  if (e->ref != REF_CONST) print_cell(x, e->index, e->primed);
  else if (x->konst[e->index]) sbuf_puts(x->out, x->konst[e->index]);
  else sbuf_printf(x->out, "%" PRId64, x->spec->consts.items[e->index]->value);
}

/* An element: its cell, or the array indexed (only unprimed elements have an
 * index that is not constant here: the plans fix the others). */
static void print_element(xp_printer *x, const ir_expr *e) {
  if (e->cell >= 0) {
    print_cell(x, e->cell, e->primed);
    return;
  }
  sbuf_printf(x->out, "%s[", x->array[e->index]);
  xp_expr(x, e->a);
  sbuf_putc(x->out, ']');
}

/* T[i]@S: the state of the instance whose tid the constant i picks. */
static void print_at(xp_printer *x, const ir_expr *e) {
  int64_t i = 1;
  sem_constant(x->spec, e->a, &i);
  x->syntax->in_state(x, e->index, plan_instance_of(x->spec, e->index)->first_tid + i - 1, e->state_index);
}

static void print_unary(xp_printer *x, const ir_expr *e) {
  sbuf_puts(x->out, x->syntax->op_text(e->op));
  xp_tight(x, e->a);
}

static void print_binary(xp_printer *x, const ir_expr *e) {
  if (e->op == OP_IMPLIES && x->syntax->implies_negates_left) {
    sbuf_putc(x->out, '!');
    xp_tight(x, e->a);
  } else {
    print_operand(x, e, e->a, false);
  }
  sbuf_printf(x->out, " %s ", x->syntax->op_text(e->op));
  print_operand(x, e, e->b, true);
}

static void print_ite(xp_printer *x, const ir_expr *e) {
  const char *const *ite = x->syntax->ite;
  sbuf_puts(x->out, ite[0]);
  xp_tight(x, e->a);
  sbuf_puts(x->out, ite[1]);
  xp_tight(x, e->b);
  sbuf_puts(x->out, ite[2]);
  xp_tight(x, e->c);
  sbuf_puts(x->out, ite[3]);
}

/* Both targets spell the booleans true and false. */
void xp_expr(xp_printer *x, const ir_expr *e) {
  if (e->kind == IR_QUANT) e = e->lowered;
  switch (e->kind) {
  case IR_BOOL: sbuf_puts(x->out, e->value ? "true" : "false"); break;
  case IR_INT: sbuf_printf(x->out, "%" PRId64, e->value); break;
  case IR_NAME: print_name(x, e); break;
  case IR_TID: sbuf_puts(x->out, x->tid); break;
  case IR_COUNT: x->syntax->count(x, e); break;
  case IR_AT: print_at(x, e); break;
  case IR_UNARY: print_unary(x, e); break;
  case IR_BINARY: print_binary(x, e); break;
  case IR_ITE: print_ite(x, e); break;
  case IR_INDEX: print_element(x, e); break;
  case IR_QUANT: break; /* replaced by its expansion above */
  }
}
