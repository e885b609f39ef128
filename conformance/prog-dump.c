/* conformance/prog-dump.c -- a plain-text listing of a program, for tests
 * and debugging. */
#include "prog.h"

static const char *const action_names[] = {
    [ACT_SKIP] = "skip",     [ACT_ASSIGN] = "assign", [ACT_HAVOC] = "havoc",
    [ACT_ASSUME] = "assume", [ACT_ASSERT] = "assert",
};

static void dump_var(const prog_var *v, strbuf *out) {
  static const char *const kinds[] = {[VAR_SHARED] = "shared", [VAR_LOCAL] = "local", [VAR_OLD] = "old",
                                      [VAR_CAND] = "cand",     [VAR_TID] = "tid",     [VAR_TEMP] = "temp",
                                      [VAR_LOAD] = "load"};
  sbuf_printf(out, "var %s %s %s", kinds[v->kind], v->type == TY_BOOL ? "bool" : "int", v->name);
  if (v->bounded) sbuf_printf(out, " [%lld..%lld]", (long long)v->lo, (long long)v->hi);
  sbuf_putc(out, '\n');
}

/* One line per edge: "L0 -> L1 step assign x := e  @ file:line: text". */
static void dump_edge(const prog *p, const prog_edge *e, strbuf *out) {
  sbuf_printf(out, "L%d -> L%d %s%s", e->from, e->to, e->starts_step ? "step " : "", action_names[e->action]);
  if (e->var >= 0) sbuf_printf(out, " %s", p->vars.items[e->var].name);
  if (e->action == ACT_ASSIGN) sbuf_puts(out, " :=");
  if (e->expr) {
    sbuf_putc(out, ' ');
    ir_print(out, e->expr);
  }
  const char *file;
  size_t line;
  if (prog_origin_line(p, e->origin, &file, &line)) {
    sbuf_printf(out, "  @ %s:%zu: ", file, line);
    prog_origin_text(p, e->origin, out);
  }
  sbuf_putc(out, '\n');
}

void prog_dump(const prog *p, strbuf *out) {
  sbuf_printf(out, "program %s: entry L%d, exit L%d\n", p->function, p->entry, p->exit);
  vec_foreach(&p->vars, i) dump_var(&p->vars.items[i], out);
  vec_foreach(&p->locs, i) {
    sbuf_printf(out, "L%zu%s\n", i, p->locs.items[i].boundary ? " boundary" : "");
    vec_foreach(&p->locs.items[i].out, j) {
      sbuf_puts(out, "  ");
      dump_edge(p, &p->edges.items[p->locs.items[i].out.items[j]], out);
    }
  }
}
