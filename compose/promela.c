/* compose/promela.c -- the Promela exporter (athread promela).
 *
 * The model: each shared variable is a global of the smallest Promela type
 * that holds its range; pc[tid] is the state of instance tid (an mtype named
 * after the state); each thread is a proctype with parameter tid whose
 * do-loop has one option per edge (per top-level disjunct of a relation),
 * a d_step when the step is deterministic and an atomic sequence when it
 * chooses values. Every step ends with check(), the inline that asserts every
 * state assertion, thread invariant and system invariant; init chooses an
 * initial state, calls check() and starts one process per instance.
 *
 * A relational edge follows the semantic layer's plans (sem_edge_plans): per
 * top-level disjunct, its primed variables are computed where a conjunct
 * x' == e gives their value, and otherwise chosen from their type (select)
 * and filtered by the disjunct: a choice that fails it
 * ends the atomic step without changing anything (a stutter step, which adds
 * no state). Unbounded ints have no finite type to choose from, so they must
 * be computed.
 */
#include "promela.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../core/arena.h"
#include "../core/symtab.h"
#include "../core/vec.h"
#include "../spec-lang/semantics.h"
#include "promela-header.h"
#include "export-text.h"
#include "expr-print.h"
#include "step-plan.h"

/* SPIN runs at most 255 processes: init and one per instance. */
#define MAX_INSTANCES 254

typedef struct pml {
  const ast_spec *spec;                  /* borrowed */
  const diag_source *src;                /* spec->src, for messages */
  strbuf *out;                           /* the model being written */
  arena *arena;                          /* owns names and plans */
  symtab taken;                          /* every Promela name in use (interned in arena) */
  bool ok;                               /* nothing reported */
  planner plan;                          /* the steps of every thread (step-plan.h) */
  const char **temp;                     /* per cell: its temporary, NULL when no step needs it */
  const char **proc;                     /* per thread: its proctype */
  const char ***state;                   /* per thread, per state: its constant */
  bool use_mtype;                        /* states are mtype symbols (else #defines) */
  const char *pc;                        /* the array of instance states */
  const char *check;                     /* the inline that asserts every property */
  xp_printer x;                          /* prints expressions: tid reads as an instance number or the parameter */
} pml;

static inline const ast_shared *pml_shared_var(const pml *p, int i) { return p->spec->shared.items[i]; }

static inline bool fits32(int64_t v) { return v >= INT32_MIN && v <= INT32_MAX; }

/* The numbers of e beyond Promela's int (the instance index of T[i]@S is
 * used by the exporter, not by SPIN). */
static void pml_check_numbers(pml *p, const ir_expr *e) { plan_check_numbers(&p->plan, e, "Promela's 32-bit int"); }

/* Reports the numbers of thread t that need more than 32 bits (the
 * planner's check_thread). */
static void check_thread_numbers(void *ctx, const ast_thread *t) {
  pml *p = ctx;
  vec_foreach(&t->invariants, i) pml_check_numbers(p, t->invariants.items[i]);
  const ir_expr *last = NULL;
  vec_foreach(&t->states, i) {
    if (t->states.items[i]->assertion != last) pml_check_numbers(p, t->states.items[i]->assertion);
    last = t->states.items[i]->assertion;
  }
  vec_foreach(&t->edges, i) {
    const ast_edge *e = t->edges.items[i];
    pml_check_numbers(p, e->kind == EDGE_RELATION ? e->relation : e->guard);
    vec_foreach(&e->assigns, k) pml_check_numbers(p, e->assigns.items[k].value);
  }
}

/* ---------------------------------------------------------------- names */

/* Promela and C keywords, macros that gcc predefines, and names that pan.c
 * defines as macros or uses for its own state: a global of that name would
 * not compile, so it is renamed. */
/* clang-format off */
static const char *const reserved[] = {
  /* Promela */
  "active", "assert", "atomic", "bit", "bool", "break", "byte", "chan", "d_step", "D_proctype", "do", "else",
  "empty", "enabled", "eval", "false", "fi", "full", "get_priority", "goto", "hidden", "if", "init", "inline",
  "int", "len", "local", "mtype", "nempty", "never", "nfull", "notrace", "np_", "od", "of", "pc_value", "pid",
  "printf", "printm", "priority", "proctype", "provided", "run", "select", "set_priority", "short", "show", "skip",
  "timeout", "trace", "true", "typedef", "unless", "unsigned", "xr", "xs", "c_code", "c_decl", "c_expr", "c_state",
  "c_track", "ltl", "for", "in", "last", "always", "eventually", "until", "weak", "strong", "release",
  "stronguntil", "weakuntil", "implies", "equivalent", "STDIN", "U", "V", "W", "X",
  /* C */
  "auto", "case", "char", "const", "continue", "default", "double", "enum", "extern", "float", "long", "register",
  "restrict", "return", "signed", "sizeof", "static", "struct", "switch", "union", "void", "volatile", "while",
  "main", "now", "linux", "unix", "errno", "stdin", "stdout", "stderr", "NULL", "EOF",
  /* pan.c macros and state */
  "ALPHA_F", "ASYNC", "Addproc", "Air0", "Air1", "Air2", "BACKWARD_MOVES", "BAD", "BFS_GEN", "BYTESIZE", "CHUNK",
  "DELTA", "FORWARD_MOVES", "FREQ", "GLOBAL", "GN_FRAMES", "G_int", "G_long", "HASH", "HAS_CODE", "HAS_TRACK",
  "INLINE_REV", "INRANGE", "IfNotBlocked", "LN_FRAMES", "LOCAL", "MAXPROC", "MAXQ", "MERGED", "Max", "NOT_AGAIN",
  "NQS", "NTRANS", "Offsetof", "PAN_H", "PROG_LAB", "PW", "P__Q", "PanSource", "Pclaim", "Pinit", "QUERY",
  "QUERY_F", "QUIT", "Q_EMPT_F", "Q_EMPT_T", "Q_FULL_F", "Q_FULL_T", "SYNC", "SpinVersion", "StackSize",
  "TIMEOUT_F", "TRANSITIONS", "TRY_AGAIN", "TWIDTH", "T_FREE", "T_ID", "T_ROW", "T_ROW_MASK", "T_ROW_SIZE",
  "T_STAT", "TargetQ_Full", "TargetQ_NotFull", "UnBlock", "WS", "bfs_do_store", "cas", "enter_critical", "final",
  "get16bits", "get_permuted", "getframe", "grab_state", "iam_alive", "leave_critical", "max", "maxseq0",
  "maxseq1", "minseq0", "minseq1", "mix", "onstack_now", "onstack_put", "onstack_zap", "pptr", "pthread_equal",
  "q_sz", "qptr", "rand", "rot", "uchar", "uint", "ulong", "ushort", "wasnew", "trpt", "depth", "this",
};
/* clang-format on */

static void reserve_all(pml *p) {
  for (size_t i = 0; i < sizeof reserved / sizeof *reserved; i++)
    symtab_put(&p->taken, arena_intern_cstr(p->arena, reserved[i]), 1);
}

/* Returns base, or base_1, base_2, ... : the first that no other name of the
 * model uses; marks it as used. Names with a leading '_' (Promela's own) get
 * a 'v' in front. Arena-owned. */
static const char *fresh_name(pml *p, const char *base) {
  const char *b = base[0] == '_' ? arena_printf(p->arena, "v%s", base) : base;
  for (int k = 0;; k++) {
    const char *name = arena_intern_cstr(p->arena, k == 0 ? b : arena_printf(p->arena, "%s_%d", b, k));
    if (symtab_put(&p->taken, name, 1) < 0) return name;
  }
}

/* One mtype symbol per distinct state name, shared by the threads that use
 * it; with more than an mtype holds, one #define per thread and state. */
static void name_states(pml *p) {
  const ast_spec *spec = p->spec;
  symtab by_name = {0};
  VEC(const char *) symbols = {0};
  vec_foreach(&spec->threads, t)
    vec_foreach(&spec->threads.items[t]->states, s) {
      const char *name = spec->threads.items[t]->states.items[s]->name;
      if (symtab_put(&by_name, name, (int)symbols.len) < 0) vec_push(NULL, &symbols, name);
    }
  p->use_mtype = symbols.len > 0 && symbols.len <= 255;
  const char **mtype_name = xcalloc(symbols.len + 1, sizeof *mtype_name);
  for (size_t i = 0; p->use_mtype && i < symbols.len; i++) mtype_name[i] = fresh_name(p, symbols.items[i]);
  vec_foreach(&spec->threads, t) {
    const ast_thread *th = spec->threads.items[t];
    p->state[t] = arena_alloc(p->arena, (th->states.len + 1) * sizeof **p->state);
    vec_foreach(&th->states, s) {
      const char *name = th->states.items[s]->name;
      p->state[t][s] = p->use_mtype ? mtype_name[symtab_get(&by_name, name)]
                                    : fresh_name(p, arena_printf(p->arena, "%s_%s", th->name, name));
    }
  }
  free(mtype_name);
  vec_free(&symbols);
  symtab_free(&by_name);
}

/* A scalar is a global of its own; an array one global array, whose cells
 * are its elements NAME[k]. */
static void name_variable(pml *p, const ast_shared *v) {
  ex_name_cells(p->arena, v, fresh_name(p, v->name), p->x.var, p->x.array);
}

static void name_everything(pml *p) {
  const ast_spec *spec = p->spec;
  reserve_all(p);
  vec_foreach(&spec->consts, i)
    if (fits32(spec->consts.items[i]->value)) p->x.konst[i] = fresh_name(p, spec->consts.items[i]->name);
  vec_foreach(&spec->variables, i) name_variable(p, spec->variables.items[i]);
  vec_foreach(&spec->threads, i) p->proc[i] = fresh_name(p, spec->threads.items[i]->name);
  name_states(p);
  p->pc = fresh_name(p, "pc");
  p->check = fresh_name(p, "check");
}

/* The name of cell v's temporary: x_next for x, a_2_next for a[2]. */
static const char *temp_name(pml *p, int v) {
  const ast_shared *c = pml_shared_var(p, v);
  if (!p->x.array[v]) return arena_printf(p->arena, "%s_next", p->x.var[v]);
  return arena_printf(p->arena, "%s_%" PRId64 "_next", p->x.array[v], c->element);
}

/* Names the temporaries that the planned steps use. */
static void name_temps(pml *p) {
  vec_foreach(&p->spec->shared, v)
    vec_foreach(&p->spec->threads, t)
      if (p->plan.temps_of[t][v] && !p->temp[v]) p->temp[v] = fresh_name(p, temp_name(p, (int)v));
}

/* ---------------------------------------------------------------- output helpers */

static void indent(pml *p, int n) {
  for (int i = 0; i < n; i++) sbuf_putc(p->out, ' ');
}

/* Its comments, and its header (promela-header.h: compose/promela-header.txt). */
static const ex_style promela_style = {"/* ", " */", EX_BLOCK_COMMENT, compose_promela_header_txt,
                                       sizeof compose_promela_header_txt};

/* ---------------------------------------------------------------- expressions */

/* C's binding strength, low to high; Promela follows C. */
enum { PR_OR = 1, PR_AND, PR_EQ, PR_REL, PR_ADD, PR_MUL, PR_UNARY, PR_ATOM };

static int prec(const pml *p, const ir_expr *e) {
  if (e->kind == IR_QUANT) e = e->lowered;
  switch (e->kind) {
  case IR_UNARY: return PR_UNARY;
  case IR_BINARY:
    switch (e->op) {
    case OP_OR:
    case OP_IMPLIES: return PR_OR;
    case OP_AND: return PR_AND;
    case OP_EQ:
    case OP_NE:
    case OP_IFF: return PR_EQ;
    case OP_LT:
    case OP_LE:
    case OP_GT:
    case OP_GE: return PR_REL;
    case OP_ADD:
    case OP_SUB: return PR_ADD;
    default: return PR_MUL;
    }
  case IR_AT: return PR_EQ;
  case IR_COUNT: return plan_instance_of(p->spec, e->index)->count_value > 1 ? PR_ADD : PR_EQ;
  default: return PR_ATOM; /* ?: and substituted primes bring their own parentheses */
  }
}

/* Parentheses where C needs them, and also around a comparison inside a
 * comparison and around && inside || (as gcc -Wparentheses asks). */
static bool needs_parens(const pml *p, int parent, const ir_expr *child, bool right) {
  int c = prec(p, child);
  if (c >= PR_UNARY) return false;
  if (c < parent) return true;
  if ((parent == PR_EQ || parent == PR_REL) && c <= PR_REL) return true;
  if (parent == PR_OR && c == PR_AND) return true;
  return c == parent && right && parent >= PR_ADD;
}

static void emit_expr(pml *p, const ir_expr *e) { xp_expr(&p->x, e); }

/* e as an operand of an operator of binding strength parent. */
static void emit_operand(pml *p, int parent, const ir_expr *e, bool right) {
  bool parens = needs_parens(p, parent, e, right);
  if (parens) sbuf_putc(p->out, '(');
  emit_expr(p, e);
  if (parens) sbuf_putc(p->out, ')');
}

/* e alone needs no parentheses when it is an atom (so no "--1" or "!!b",
 * which Promela reads as decrement and as a channel send). */
static bool is_atom(const xp_printer *x, const ir_expr *e) { return prec(x->ctx, e) == PR_ATOM; }

static bool operand_parens(const xp_printer *x, const ir_expr *parent, const ir_expr *child, bool right) {
  return needs_parens(x->ctx, prec(x->ctx, parent), child, right);
}

static void emit_in_state(pml *p, int64_t tid, int thread, int state) {
  sbuf_printf(p->out, "%s[%" PRId64 "] == %s", p->pc, tid, p->state[thread][state]);
}

static void print_in_state(xp_printer *x, int thread, int64_t tid, int state) {
  emit_in_state(x->ctx, tid, thread, state);
}

/* count(T@S): the sum over the instances of T of (pc[tid] == S). */
static void print_count(xp_printer *x, const ir_expr *e) {
  pml *p = x->ctx;
  const ast_instance *in = plan_instance_of(p->spec, e->index);
  for (int64_t k = 0; k < in->count_value; k++) {
    if (k > 0) sbuf_puts(p->out, " + ");
    if (in->count_value > 1) sbuf_putc(p->out, '(');
    emit_in_state(p, in->first_tid + k, e->index, e->state_index);
    if (in->count_value > 1) sbuf_putc(p->out, ')');
  }
}

/* A primed cell's temporary (BIND_TEMP: planned). */
static const char *print_temp(xp_printer *x, int cell) {
  const pml *p = x->ctx;
  return p->temp[cell] ? p->temp[cell] : "?";
}

static const char *op_text(ir_op op) {
  switch (op) {
  case OP_IMPLIES: return "||";
  case OP_IFF: return "==";
  default: return ir_op_text(op);
  }
}

static const xp_syntax promela_syntax = {
    .op_text = op_text,
    .implies_negates_left = true,
    .ite = {"(", " -> ", " : ", ")"},
    .atom = is_atom,
    .operand_parens = operand_parens,
    .count = print_count,
    .in_state = print_in_state,
    .temp = print_temp,
};

/* ---------------------------------------------------------------- declarations */

static void emit_consts(pml *p) {
  const ast_spec *spec = p->spec;
  if (spec->consts.len == 0) return;
  sbuf_line(p->out, 0, "\n/* consts */");
  vec_foreach(&spec->consts, i) {
    const ast_const *c = spec->consts.items[i];
    const char *fmt = c->value < 0 ? "#define %s (%" PRId64 ")" : "#define %s %" PRId64;
    if (p->x.konst[i]) sbuf_printf(p->out, fmt, p->x.konst[i], c->value);
    else sbuf_printf(p->out, "/* const %s = %" PRId64 " needs more than 32 bits */", c->name, c->value);
    if (c->overridden) sbuf_printf(p->out, " /* --set %s=%" PRId64 " */", c->name, c->value);
    sbuf_putc(p->out, '\n');
  }
}

static const char *promela_type(const ast_type *t) {
  if (t->kind == TYPE_BOOL) return "bool";
  if (t->kind == TYPE_INT) return "int";
  if (t->lo_value >= 0 && t->hi_value <= 255) return "byte";
  if (t->lo_value >= INT16_MIN && t->hi_value <= INT16_MAX) return "short";
  return "int";
}

static bool start_value(const pml *p, int c, int64_t *value, bool *from_init) {
  return plan_start_value(p->spec, c, value, from_init);
}

static bool element_start(const pml *p, int c, int64_t *value) {
  bool from_init;
  return start_value(p, c, value, &from_init);
}

/* Reports what Promela cannot hold of cell c: its range, or its start. */
static void check_start(pml *p, int c) {
  const ast_shared *v = pml_shared_var(p, c);
  int64_t value = 0;
  bool from_init, known = start_value(p, c, &value, &from_init);
  if (v->type.kind == TYPE_RANGE && (!fits32(v->type.lo_value) || !fits32(v->type.hi_value))) {
    diag_error(p->src, v->type.at, "cannot export to Promela: the range of '%s' does not fit in Promela's 32-bit int",
               v->name);
    p->ok = false;
  } else if (v->type.kind == TYPE_INT && !known) {
    diag_error(
        p->src, v->name_at,
        "cannot export to Promela: unbounded int '%s' has no initial value to start from; give it an initializer or "
        "a system init predicate '%s == CONST'",
        v->name, v->name);
    p->ok = false;
  } else if (known && !fits32(value)) {
    diag_error(p->src, v->init ? v->init->at : v->name_at,
               "cannot export to Promela: the initial value %" PRId64 " of '%s' does not fit in Promela's 32-bit int",
               value, v->name);
    p->ok = false;
  }
}

/* Writes "TYPE name = VALUE;" or "TYPE name;" and a comment on the type. */
static void emit_shared(pml *p, int i) {
  const ast_shared *v = pml_shared_var(p, i);
  check_start(p, i);
  int64_t value = 0;
  bool from_init, has_value = start_value(p, i, &value, &from_init) && !from_init;
  sbuf_printf(p->out, "%s %s", promela_type(&v->type), p->x.var[i]);
  if (v->type.kind == TYPE_BOOL && has_value) sbuf_printf(p->out, " = %s", value ? "true" : "false");
  else if (has_value || from_init) sbuf_printf(p->out, " = %" PRId64, value);
  sbuf_puts(p->out, ";");
  if (v->type.kind == TYPE_RANGE)
    sbuf_printf(p->out, " /* int[%" PRId64 "..%" PRId64 "]%s */", v->type.lo_value, v->type.hi_value,
                has_value ? "" : ", chosen by init");
  else if (v->type.kind == TYPE_BOOL && !has_value) sbuf_puts(p->out, " /* chosen by init */");
  else if (from_init) sbuf_puts(p->out, " /* unbounded int, fixed by the system init predicates */");
  else if (v->type.kind == TYPE_INT) sbuf_puts(p->out, " /* unbounded int */");
  if (strcmp(p->x.var[i], v->name) != 0) sbuf_printf(p->out, " /* '%s' in the spec */", v->name);
  sbuf_putc(p->out, '\n');
}

/* Writes "TYPE name[N] = VALUE;" (or without a value: init sets or chooses
 * the elements) and a comment on the type; every element is checked as a
 * scalar would be. */
static void emit_array(pml *p, const ast_shared *v) {
  for (int64_t k = 0; k < v->length; k++) check_start(p, v->index + (int)k);
  int64_t value = 0;
  bool same = plan_common_value(p->spec, v, &value);
  sbuf_printf(p->out, "%s %s[%" PRId64 "]", promela_type(&v->type), p->x.array[v->index], v->length);
  if (same && v->type.kind == TYPE_BOOL) sbuf_printf(p->out, " = %s", value ? "true" : "false");
  else if (same) sbuf_printf(p->out, " = %" PRId64, value);
  sbuf_puts(p->out, ";");
  if (v->type.kind == TYPE_RANGE)
    sbuf_printf(p->out, " /* int[%" PRId64 "..%" PRId64 "] */", v->type.lo_value, v->type.hi_value);
  if (!same) sbuf_puts(p->out, " /* set or chosen by init */");
  if (strcmp(p->x.array[v->index], v->name) != 0) sbuf_printf(p->out, " /* '%s' in the spec */", v->name);
  sbuf_putc(p->out, '\n');
}

static void emit_states(pml *p) {
  const ast_spec *spec = p->spec;
  if (p->use_mtype) {
    sbuf_line(p->out, 0, "\n/* the states of the threads, named as in the spec */");
    sbuf_puts(p->out, "mtype = {");
    symtab seen = {0};
    size_t col = 9;
    vec_foreach(&spec->threads, t)
      vec_foreach(&spec->threads.items[t]->states, s) {
        const char *name = p->state[t][s];
        if (symtab_put(&seen, name, 1) >= 0) continue;
        if (seen.count > 1) sbuf_putc(p->out, ',');
        if (col + strlen(name) > 100) {
          sbuf_puts(p->out, "\n ");
          col = 1;
        }
        sbuf_printf(p->out, " %s", name);
        col += strlen(name) + 2;
      }
    sbuf_puts(p->out, " };\n");
    symtab_free(&seen);
    return;
  }
  vec_foreach(&spec->threads, t) {
    sbuf_line(p->out, 0, "\n/* the states of thread %s */", spec->threads.items[t]->name);
    vec_foreach(&spec->threads.items[t]->states, s) sbuf_line(p->out, 0, "#define %s %zu", p->state[t][s], s);
  }
}

static const char *pc_type(const pml *p) {
  if (p->use_mtype) return "mtype";
  size_t most = 0;
  vec_foreach(&p->spec->threads, t)
    if (p->spec->threads.items[t]->states.len > most) most = p->spec->threads.items[t]->states.len;
  return most <= 256 ? "byte" : most <= 32768 ? "short" : "int";
}

static void emit_instances(pml *p) {
  const ast_spec *spec = p->spec;
  sbuf_line(p->out, 0, "\n/* instances, by tid:");
  vec_foreach(&spec->instances, i) {
    const ast_instance *in = spec->instances.items[i];
    if (in->count_value == 1) sbuf_line(p->out, 0, " *   %" PRId64 ": %s", in->first_tid, in->thread);
    else
      sbuf_line(p->out, 0, " *   %" PRId64 "..%" PRId64 ": %s[1..%" PRId64 "]", in->first_tid,
                in->first_tid + in->count_value - 1, in->thread, in->count_value);
  }
  sbuf_line(p->out, 0, " */");
  sbuf_line(p->out, 0, "%s %s[%" PRId64 "]; /* %s[tid]: the state of instance tid (%s[0] is unused) */", pc_type(p),
            p->pc, spec->instance_total + 1, p->pc, p->pc);
}

/* ---------------------------------------------------------------- check() */

static void emit_assert(pml *p, const ir_expr *e) {
  sbuf_puts(p->out, "  assert(");
  emit_expr(p, e);
  sbuf_puts(p->out, ");\n");
}

/* True when check c is about arrays (an index, or two assignments). */
static bool checks_arrays(const sem_check *c) { return c->kind == SEM_BOUNDS || c->kind == SEM_CONFLICT; }

/* Asserts the array checks of instance tid (indices within their arrays,
 * assignments to distinct elements) in each state, before anything else
 * reads an element. */
static void emit_array_checks(pml *p, const ast_thread *t, int64_t tid) {
  vec_foreach(&t->states, s) {
    const sem_checks *cs = sem_state_checks(t->states.items[s]);
    for (size_t k = 0; k < cs->len; k++) {
      if (!checks_arrays(&cs->items[k])) continue;
      sbuf_printf(p->out, "  assert(%s[%" PRId64 "] != %s || ", p->pc, tid, p->state[t->index][s]);
      emit_operand(p, PR_OR, cs->items[k].holds, true);
      sbuf_puts(p->out, ");\n");
    }
  }
}

static bool has_array_checks(const sem_checks *cs) {
  for (size_t k = 0; k < cs->len; k++)
    if (checks_arrays(&cs->items[k])) return true;
  return false;
}

/* Asserts the invariants and state assertions of instance tid, the index-th
 * of its thread (0 when it is the only one). */
static void emit_instance_check(pml *p, const ast_thread *t, int64_t tid, int64_t index) {
  bool any = t->invariants.len > 0;
  vec_foreach(&t->states, s)
    any |= t->states.items[s]->assertion != NULL || has_array_checks(sem_state_checks(t->states.items[s]));
  if (!any) return;
  p->x.tid = arena_printf(p->arena, "%" PRId64, tid);
  if (index) sbuf_line(p->out, 2, "/* %s[%" PRId64 "]: tid %" PRId64 " */", t->name, index, tid);
  else sbuf_line(p->out, 2, "/* %s: tid %" PRId64 " */", t->name, tid);
  emit_array_checks(p, t, tid);
  vec_foreach(&t->invariants, i) emit_assert(p, t->invariants.items[i]);
  for (size_t s = 0; s < t->states.len;) {
    const ir_expr *a = t->states.items[s]->assertion;
    size_t end = s + 1;
    while (end < t->states.len && t->states.items[end]->assertion == a) end++;
    if (a) {
      sbuf_puts(p->out, "  assert(");
      if (end - s > 1) sbuf_putc(p->out, '(');
      for (size_t k = s; k < end; k++)
        sbuf_printf(p->out, "%s%s[%" PRId64 "] != %s", k > s ? " && " : "", p->pc, tid, p->state[t->index][k]);
      if (end - s > 1) sbuf_putc(p->out, ')');
      sbuf_puts(p->out, " || ");
      emit_operand(p, PR_OR, a, true);
      sbuf_puts(p->out, ");\n");
    }
    s = end;
  }
  p->x.tid = "tid";
}

static void emit_check(pml *p) {
  const ast_spec *spec = p->spec;
  sbuf_line(p->out, 0, "\n/* Goes wrong when an instance's state assertion or thread invariant, or a");
  sbuf_line(p->out, 0, " * system invariant, is false. */");
  sbuf_line(p->out, 0, "inline %s() {", p->check);
  size_t before = p->out->len;
  p->x.binds = NULL;
  vec_foreach(&spec->instances, i) {
    const ast_instance *in = spec->instances.items[i];
    const ast_thread *t = spec->threads.items[in->thread_index];
    for (int64_t k = 0; k < in->count_value; k++) {
      emit_instance_check(p, t, in->first_tid + k, in->count_value == 1 ? 0 : k + 1);
    }
  }
  if (spec->properties.len > 0) sbuf_line(p->out, 2, "/* system invariants */");
  const sem_checks *cs = sem_system_checks(spec);
  for (size_t k = 0; k < cs->len; k++) emit_assert(p, cs->items[k].holds);
  if (p->out->len == before) sbuf_line(p->out, 2, "skip;");
  sbuf_line(p->out, 0, "}");
}

/* ---------------------------------------------------------------- steps */

/* target takes any value of variable var's type (select takes no array
 * element: an element counts up from the lowest value and stops anywhere). */
static void emit_choice(pml *p, int n, const char *target, int var) {
  const ast_type *t = &pml_shared_var(p, var)->type;
  if (t->kind == TYPE_BOOL) sbuf_line(p->out, n, "if :: %s = false :: %s = true fi;", target, target);
  else if (t->lo_value == t->hi_value) sbuf_line(p->out, n, "%s = %" PRId64 ";", target, t->lo_value);
  else if (!strchr(target, '['))
    sbuf_line(p->out, n, "select(%s : %" PRId64 " .. %" PRId64 ");", target, t->lo_value, t->hi_value);
  else
    sbuf_line(p->out, n, "%s = %" PRId64 "; do :: %s < %" PRId64 " -> %s++ :: break od;", target, t->lo_value, target,
              t->hi_value, target);
}

static void emit_set(pml *p, int n, const char *target, const ir_expr *value) {
  indent(p, n);
  sbuf_printf(p->out, "%s = ", target);
  emit_expr(p, value);
  sbuf_puts(p->out, ";\n");
}

/* Appends " && lo <= V && V <= hi" (sep first) for the range of var. */
static void emit_range_check(pml *p, const char *sep, int var, const ir_expr *value, const char *temp) {
  const ast_type *ty = &pml_shared_var(p, var)->type;
  sbuf_printf(p->out, "%s%" PRId64 " <= ", sep, ty->lo_value);
  if (temp) sbuf_puts(p->out, temp);
  else emit_operand(p, PR_REL, value, true);
  sbuf_puts(p->out, " && ");
  if (temp) sbuf_puts(p->out, temp);
  else emit_operand(p, PR_REL, value, false);
  sbuf_printf(p->out, " <= %" PRId64, ty->hi_value);
}

/* The guard: pc == from, the conditions on the pre-state, and the range of
 * every value assigned from the pre-state. */
static void emit_guard(pml *p, const ast_thread *t, const step *s) {
  sbuf_printf(p->out, "%s[tid] == %s", p->pc, p->state[t->index][s->edge->from_index]);
  vec_foreach(&s->guard, i) {
    if (plan_constantly_true(p->spec, s->guard.items[i])) continue;
    sbuf_puts(p->out, " && ");
    emit_operand(p, PR_AND, s->guard.items[i], true);
  }
  vec_foreach(&s->assigns, i) {
    const assign_plan *a = &s->assigns.items[i];
    if (plan_needs_range_check(p->spec, a->var, a->value)) emit_range_check(p, " && ", a->var, a->value, NULL);
  }
}

/* The effect: the parallel assignment, the choices, the temporaries, the
 * new state, and the check. */
/* a[i] = v for an assignment to an element by an index that is not constant. */
static void emit_element_set(pml *p, int n, const assign_plan *a) {
  indent(p, n);
  sbuf_printf(p->out, "%s[", p->x.array[a->var]);
  emit_expr(p, a->element->a);
  sbuf_puts(p->out, "] = ");
  emit_expr(p, a->value);
  sbuf_puts(p->out, ";\n");
}

static void emit_commit(pml *p, int n, const ast_thread *t, const step *s) {
  vec_foreach(&s->assigns, i) {
    const assign_plan *a = &s->assigns.items[i];
    bool keeps = a->value && a->value->kind == IR_NAME && !a->value->primed && a->value->ref == REF_SHARED &&
                 a->value->index == a->var;    /* x' == x */
    if (a->element) emit_element_set(p, n, a); /* never through temporaries (promela-plan.c) */
    else if (a->value && !(keeps && !s->via_temps))
      emit_set(p, n, s->via_temps ? p->temp[a->var] : p->x.var[a->var], a->value);
  }
  vec_foreach(&s->assigns, i) {
    const assign_plan *a = &s->assigns.items[i];
    if (a->value && s->via_temps) sbuf_line(p->out, n, "%s = %s;", p->x.var[a->var], p->temp[a->var]);
    if (!a->value) emit_choice(p, n, p->x.var[a->var], a->var);
  }
  vec_foreach(&s->chosen, i)
    sbuf_line(p->out, n, "%s = %s;", p->x.var[s->chosen.items[i]], p->temp[s->chosen.items[i]]);
  vec_foreach(&s->computed, i)
    sbuf_line(p->out, n, "%s = %s;", p->x.var[s->computed.items[i].var], p->temp[s->computed.items[i].var]);
  sbuf_line(p->out, n, "%s[tid] = %s;", p->pc, p->state[t->index][s->edge->to_index]);
  sbuf_line(p->out, n, "%s();", p->check);
}

/* Resets the step's temporaries, so that they add nothing to the state. */
static void emit_resets(pml *p, int n, const step *s) {
  vec_foreach(&p->spec->shared, v) {
    bool used = s->binds[v].kind == BIND_TEMP;
    vec_foreach(&s->assigns, i) used |= s->via_temps && s->assigns.items[i].value && s->assigns.items[i].var == (int)v;
    if (used)
      sbuf_line(p->out, n, "%s = %s;", p->temp[v], pml_shared_var(p, (int)v)->type.kind == TYPE_BOOL ? "false" : "0");
  }
}

/* True when a choice can fail the step: a remaining condition of the
 * relation, or a computed value that may leave its range. */
static bool has_tests(const pml *p, const step *s) {
  vec_foreach(&s->computed, i)
    if (plan_needs_range_check(p->spec, s->computed.items[i].var, s->computed.items[i].value)) return true;
  vec_foreach(&s->checks, i)
    if (!plan_constantly_true(p->spec, s->checks.items[i])) return true;
  return false;
}

/* The chosen temporaries, the computed ones, then the relation's remaining
 * conditions and the ranges of the computed values; a choice that fails
 * them changes nothing. */
static void emit_choose_and_test(pml *p, const ast_thread *t, const step *s) {
  vec_foreach(&s->chosen, i) emit_choice(p, 7, p->temp[s->chosen.items[i]], s->chosen.items[i]);
  vec_foreach(&s->computed, i) emit_set(p, 7, p->temp[s->computed.items[i].var], s->computed.items[i].value);
  if (!has_tests(p, s)) {
    emit_commit(p, 7, t, s);
    return;
  }
  sbuf_line(p->out, 7, "if");
  indent(p, 7);
  sbuf_puts(p->out, ":: ");
  const char *sep = "";
  vec_foreach(&s->computed, i) {
    const assign_plan *a = &s->computed.items[i];
    if (!plan_needs_range_check(p->spec, a->var, a->value)) continue;
    emit_range_check(p, sep, a->var, a->value, p->temp[a->var]);
    sep = " && ";
  }
  vec_foreach(&s->checks, i) {
    if (plan_constantly_true(p->spec, s->checks.items[i])) continue;
    sbuf_puts(p->out, sep);
    emit_operand(p, PR_AND, s->checks.items[i], *sep != '\0');
    sep = " && ";
  }
  sbuf_puts(p->out, " ->\n");
  emit_commit(p, 10, t, s);
  sbuf_line(p->out, 7, ":: else -> skip /* the relation does not hold for this choice */");
  sbuf_line(p->out, 7, "fi;");
}

static void emit_step(pml *p, const ast_thread *t, const step *s) {
  indent(p, 2);
  sbuf_puts(p->out, ":: /* ");
  ex_step_name(p->out, t, s, EX_BLOCK_COMMENT);
  sbuf_puts(p->out, " */\n");
  p->x.binds = s->binds;
  indent(p, 5);
  sbuf_printf(p->out, "%s { ", plan_is_deterministic(s) ? "d_step" : "atomic");
  emit_guard(p, t, s);
  sbuf_puts(p->out, " ->\n");
  if (s->chosen.len || s->computed.len) emit_choose_and_test(p, t, s);
  else emit_commit(p, 7, t, s);
  emit_resets(p, 7, s);
  sbuf_line(p->out, 5, "}");
  p->x.binds = NULL;
}

static void emit_proctype(pml *p, const ast_thread *t) {
  const step_list *steps = &p->plan.steps[t->index];
  ex_thread_title(p->out, &promela_style, t);
  if (steps->len == 0) {
    sbuf_line(p->out, 0, "/* no edges: its instances stay in their initial states */");
    return;
  }
  sbuf_line(p->out, 0, "proctype %s(byte tid) {", p->proc[t->index]);
  vec_foreach(&p->spec->shared, v)
    if (p->plan.temps_of[t->index][v])
      sbuf_line(p->out, 2, "%s %s; /* %s' */", pml_shared_var(p, (int)v)->type.kind == TYPE_BOOL ? "bool" : "int",
                p->temp[v], pml_shared_var(p, (int)v)->name);
  sbuf_line(p->out, 2, "do");
  vec_foreach(steps, i) emit_step(p, t, steps->items[i]);
  sbuf_line(p->out, 2, "od");
  sbuf_line(p->out, 0, "}");
}

/* ---------------------------------------------------------------- init */

/* The elements of arrays declared without one value for all: each that
 * starts with a known value gets it. */
static void emit_element_starts(pml *p) {
  vec_foreach(&p->spec->variables, i) {
    const ast_shared *v = p->spec->variables.items[i];
    int64_t value;
    if (!v->size || plan_common_value(p->spec, v, &value)) continue;
    for (int c = v->index; c < v->index + (int)v->length; c++)
      if (element_start(p, c, &value))
        sbuf_line(p->out, 4, "%s = %s;", p->x.var[c],
                  v->type.kind == TYPE_BOOL ? (value ? "true" : "false") : arena_printf(p->arena, "%" PRId64, value));
  }
}

static void emit_init(pml *p) {
  const ast_spec *spec = p->spec;
  sbuf_line(p->out, 0, "\n/* the initial states, checked, then one process per instance */");
  sbuf_line(p->out, 0, "init {");
  sbuf_line(p->out, 2, "atomic {");
  emit_element_starts(p);
  vec_foreach(&spec->shared, v) {
    const ast_shared *var = spec->shared.items[v];
    if (!var->init && var->type.kind != TYPE_INT) emit_choice(p, 4, p->x.var[v], (int)v);
  }
  if (spec->inits.len > 0) sbuf_line(p->out, 4, "/* system init predicates: the other choices block */");
  vec_foreach(&spec->inits, i) {
    indent(p, 4);
    emit_expr(p, spec->inits.items[i]);
    sbuf_puts(p->out, ";\n");
  }
  vec_foreach(&spec->instances, i) {
    const ast_instance *in = spec->instances.items[i];
    const ast_thread *t = spec->threads.items[in->thread_index];
    for (int64_t tid = in->first_tid; tid < in->first_tid + in->count_value; tid++) {
      indent(p, 4);
      size_t inits = 0;
      vec_foreach(&t->states, s) inits += t->states.items[s]->initial;
      if (inits > 1) sbuf_puts(p->out, "if");
      vec_foreach(&t->states, s)
        if (t->states.items[s]->initial)
          sbuf_printf(p->out, "%s%s[%" PRId64 "] = %s", inits > 1 ? " :: " : "", p->pc, tid, p->state[t->index][s]);
      sbuf_puts(p->out, inits > 1 ? " fi;\n" : ";\n");
    }
  }
  sbuf_line(p->out, 4, "%s();", p->check);
  vec_foreach(&spec->instances, i) {
    const ast_instance *in = spec->instances.items[i];
    if (p->plan.steps[in->thread_index].len == 0) continue;
    for (int64_t tid = in->first_tid; tid < in->first_tid + in->count_value; tid++)
      sbuf_line(p->out, 4, "run %s(%" PRId64 ");", p->proc[in->thread_index], tid);
  }
  sbuf_line(p->out, 2, "}");
  sbuf_line(p->out, 0, "}");
}

/* ---------------------------------------------------------------- driver */

static bool check_instance_count(pml *p) {
  const ast_spec *spec = p->spec;
  if (spec->instance_total <= MAX_INSTANCES) return true;
  vec_foreach(&spec->instances, i) {
    const ast_instance *in = spec->instances.items[i];
    if (in->first_tid + in->count_value - 1 <= MAX_INSTANCES) continue;
    diag_error(p->src, in->count ? in->count->at : in->thread_at,
               "cannot export to Promela: the system has %" PRId64 " instances, but SPIN runs at most %d processes "
               "(one per instance, and init)",
               spec->instance_total, MAX_INSTANCES + 1);
    break;
  }
  return false;
}

static void emit_model(pml *p, const char *pml_name) {
  const ast_spec *spec = p->spec;
  name_everything(p);
  ex_header(p->out, &promela_style, spec, pml_name ? pml_name : "OUT.pml");
  emit_consts(p);
  if (spec->shared.len > 0) sbuf_line(p->out, 0, "\n/* shared variables */");
  vec_foreach(&spec->variables, i) {
    const ast_shared *v = spec->variables.items[i];
    if (v->size) emit_array(p, v);
    else emit_shared(p, v->index);
  }
  vec_foreach(&spec->inits, i) pml_check_numbers(p, spec->inits.items[i]);
  vec_foreach(&spec->properties, i) pml_check_numbers(p, spec->properties.items[i]);
  plan_threads(&p->plan);
  p->ok &= p->plan.ok;
  name_temps(p);
  emit_states(p);
  emit_instances(p);
  emit_check(p);
  vec_foreach(&spec->instances, i) emit_proctype(p, spec->threads.items[spec->instances.items[i]->thread_index]);
  emit_init(p);
}

bool promela_emit(strbuf *out, const ast_spec *spec, const char *pml_name) {
  size_t nt = spec->threads.len, nv = spec->shared.len;
  pml p = {.spec = spec, .src = spec->src, .out = out, .arena = arena_new(), .ok = true};
  p.ok = check_instance_count(&p);
  if (p.ok) {
    p.temp = arena_alloc(p.arena, (nv + 1) * sizeof *p.temp);
    p.proc = arena_alloc(p.arena, (nt + 1) * sizeof *p.proc);
    p.state = arena_alloc(p.arena, (nt + 1) * sizeof *p.state);
    p.x = xp_new(&promela_syntax, out, spec, p.arena, &p);
    p.plan = plan_new(spec, p.arena, "Promela");
    p.plan.check_thread = check_thread_numbers;
    p.plan.ctx = &p;
    emit_model(&p, pml_name);
  }
  symtab_free(&p.taken);
  arena_free(p.arena);
  return p.ok;
}
