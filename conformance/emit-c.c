/* conformance/emit-c.c -- printing C(T, T#) as C: one label per location,
 * one goto per edge, a nondeterministic switch where a location branches. */
#include "emit-c.h"

#include <stdlib.h>

typedef struct emitter {
  const prog *p;
  strbuf out;
  int *in_degree; /* per location: edges that enter it */
} emitter;

/* ---------------------------------------------------------------- expressions */

static void expr(emitter *em, const ir_expr *e);

/* The C type an operation on C's integers works in. */
static const char *c_type(ir_ctype t) { return t.bits ? ir_ctype_name(t) : "long long"; }

static void binary(emitter *em, const ir_expr *e) {
  strbuf *o = &em->out;
  sbuf_putc(o, '(');
  if (e->op == OP_IMPLIES || e->op == OP_IFF) {
    sbuf_puts(o, "!");
    expr(em, e->a);
    sbuf_puts(o, e->op == OP_IMPLIES ? " || " : " == !");
    expr(em, e->b);
  } else {
    expr(em, e->a);
    sbuf_printf(o, " %s ", ir_op_text(e->op));
    expr(em, e->b);
  }
  sbuf_putc(o, ')');
}

static void expr(emitter *em, const ir_expr *e) {
  strbuf *o = &em->out;
  switch (e->kind) {
  case IR_BOOL: sbuf_puts(o, e->value ? "1" : "0"); break;
  case IR_INT:
    if (e->big) sbuf_puts(o, e->text);
    else sbuf_printf(o, "%lldLL", (long long)e->value);
    break;
  case IR_NAME: sbuf_puts(o, e->ref == REF_VAR ? em->p->vars.items[e->index].name : e->text); break;
  case IR_UNARY:
    if (e->op == OP_WRAP || e->op == OP_BITNOT) sbuf_printf(o, "(long long)(%s)(%s", c_type(e->ity), e->op == OP_WRAP ? "" : "~");
    else sbuf_puts(o, e->op == OP_NOT ? "!(" : "-(");
    expr(em, e->a);
    sbuf_putc(o, ')');
    break;
  case IR_BINARY:
    if (e->op >= OP_BITAND) sbuf_printf(o, "(long long)(%s)", c_type(e->ity));
    binary(em, e);
    break;
  case IR_ITE:
    sbuf_puts(o, "(");
    expr(em, e->a);
    sbuf_puts(o, " ? ");
    expr(em, e->b);
    sbuf_puts(o, " : ");
    expr(em, e->c);
    sbuf_puts(o, ")");
    break;
  default: sbuf_puts(o, "0 /* unsupported */"); break;
  }
}

/* ---------------------------------------------------------------- statements */

static const char *check_comment(prog_check k) {
  switch (k) {
  case CHECK_CODE: return "the code's assertion, or some candidate goes wrong";
  case CHECK_CODE_IN_STEP: return "the code's assertion inside a step (no candidate excuses it)";
  case CHECK_SIMULATED: return "some abstract state simulates the step (F nonempty)";
  case CHECK_RANGE: return "the step keeps a bounded variable in its range";
  case CHECK_EXIT: return "F nonempty at thread exit";
  case CHECK_INDEX: return "the code's index lies within its array";
  case CHECK_NULL: return "the pointer the code dereferences names an object";
  case CHECK_ARITH: return "the code's operation on C integers is defined (no overflow, division by zero, bad shift)";
  case CHECK_EDGE_UNUSED: return "a coverage probe: this edge of T# simulates no step";
  case CHECK_STATE_UNUSED: return "a state probe: this state of T# is no candidate here";
  }
  return "";
}

static void origin_comment(emitter *em, const prog_edge *ed) {
  const char *file;
  size_t line;
  if (ed->role != ROLE_CODE || !prog_origin_line(em->p, ed->origin, &file, &line)) return;
  sbuf_printf(&em->out, "  /* %s:%zu: ", file, line);
  strbuf text = {0};
  prog_origin_text(em->p, ed->origin, &text);
  for (const char *c = sbuf_str(&text); *c; c++) /* keep the comment closed */
    if (!(c[0] == '*' && c[1] == '/')) sbuf_putc(&em->out, *c);
  sbuf_free(&text);
  sbuf_puts(&em->out, " */\n");
}

static void havoc(emitter *em, const prog_var *v) {
  strbuf *o = &em->out;
  sbuf_printf(o, "  %s = %s();\n", v->name,
              v->type == TY_BOOL ? "__VERIFIER_nondet_bool" : "__VERIFIER_nondet_longlong");
  if (v->bounded)
    sbuf_printf(o, "  __VERIFIER_assume(%lldLL <= %s && %s <= %lldLL);\n", (long long)v->lo, v->name, v->name,
                (long long)v->hi);
  if (v->ctype.bits > 1 && v->ctype.bits < 64)
    sbuf_printf(o, "  __VERIFIER_assume(%s == (%s)%s);\n", v->name, ir_ctype_name(v->ctype), v->name);
}

static void action(emitter *em, const prog_edge *ed) {
  strbuf *o = &em->out;
  origin_comment(em, ed);
  switch (ed->action) {
  case ACT_SKIP: break;
  case ACT_ASSIGN:
    sbuf_printf(o, "  %s = ", em->p->vars.items[ed->var].name);
    expr(em, ed->expr);
    sbuf_puts(o, ";\n");
    break;
  case ACT_HAVOC: havoc(em, &em->p->vars.items[ed->var]); break;
  case ACT_ASSUME:
    sbuf_puts(o, "  __VERIFIER_assume(");
    expr(em, ed->expr);
    sbuf_puts(o, ");\n");
    break;
  case ACT_ASSERT:
    sbuf_printf(o, "  /* check: %s */\n  if (!", check_comment(ed->check));
    expr(em, ed->expr);
    sbuf_puts(o, ") reach_error();\n");
    break;
  }
  sbuf_printf(o, "  goto L%d;\n", ed->to);
}

static void location(emitter *em, int l) {
  const prog_location *loc_ = &em->p->locs.items[l];
  strbuf *o = &em->out;
  if (em->in_degree[l] > 0) sbuf_printf(o, "L%d:;\n", l);
  if (loc_->out.len == 0) {
    sbuf_puts(o, "  return 0;\n");
    return;
  }
  if (loc_->out.len == 1) {
    action(em, &em->p->edges.items[loc_->out.items[0]]);
    return;
  }
  sbuf_puts(o, "  switch (__VERIFIER_nondet_int()) {\n");
  vec_foreach(&loc_->out, k) {
    if (k + 1 < loc_->out.len) sbuf_printf(o, "  case %zu:\n", k);
    else sbuf_puts(o, "  default:\n");
    action(em, &em->p->edges.items[loc_->out.items[k]]);
  }
  sbuf_puts(o, "  }\n");
}

static void declarations(emitter *em) {
  vec_foreach(&em->p->vars, v) {
    const prog_var *pv = &em->p->vars.items[v];
    sbuf_printf(&em->out, "  %s %s;\n", pv->type == TY_BOOL ? "_Bool" : "long long", pv->name);
  }
}

char *emit_c_program(const prog *ins, const ast_spec *spec, const ast_thread *thread) {
  emitter em = {.p = ins};
  em.in_degree = xcalloc(ins->locs.len + 1, sizeof *em.in_degree);
  vec_foreach(&ins->edges, k) em.in_degree[ins->edges.items[k].to]++;
  strbuf *o = &em.out;
  sbuf_printf(o, "/* C(T, T#) for thread %s of %s, implemented by %s: generated by athread.\n", thread->name,
              spec->src->name, ins->function);
  sbuf_puts(o, " * reach_error() is unreachable exactly when the code conforms to the abstract\n"
               " * thread (athread reads integers as mathematical; here they are long long). */\n"
               "extern int __VERIFIER_nondet_int(void);\n"
               "extern long long __VERIFIER_nondet_longlong(void);\n"
               "extern _Bool __VERIFIER_nondet_bool(void);\n"
               "extern void __VERIFIER_assume(int condition);\n"
               "extern void abort(void);\n"
               "void reach_error(void) { abort(); }\n\n"
               "int main(void) {\n");
  declarations(&em);
  sbuf_printf(o, "  goto L%d;\n", ins->entry);
  em.in_degree[ins->entry]++;
  vec_foreach(&ins->locs, l) location(&em, (int)l);
  sbuf_puts(o, "}\n");
  free(em.in_degree);
  return sbuf_take(o);
}
