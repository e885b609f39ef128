/* compose/murphi.c -- the Murphi exporter (athread murphi).
 *
 * The model: each shared variable is a global of its type (boolean, a range;
 * an unbounded int is a 32-bit range, as wide as rumur's values go); each instantiated thread T has an
 * enum of its states and an index type T_id over its instances, a scalarset
 * when the instances are interchangeable (as compose's symmetry groups: two
 * or more instances, no tid, no T[i]@S) and else the range of their tids;
 * pc_T[i] is the state of instance i. Each planned step (step-plan.h) is one
 * rule in a ruleset over the instances and over the values the step chooses;
 * its guard holds the pre-state conditions, the conditions on the choices and
 * the ranges of the values written, so that a step Murphi would abort on is
 * disabled, as in the system. Every state assertion, thread invariant, array
 * check and system invariant is an invariant; count(T@S) is a function that
 * counts over T_id. The startstates range over the initial values that are
 * not fixed, and `assume` the system's init predicates.
 */
#include "murphi.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../core/arena.h"
#include "../core/symtab.h"
#include "../core/vec.h"
#include "../spec-lang/semantics.h"
#include "murphi-header.h"
#include "export-text.h"
#include "expr-print.h"
#include "step-plan.h"

typedef struct mu {
  const ast_spec *spec;    /* borrowed */
  strbuf *out;             /* where text goes now: the model, or body */
  strbuf *model;           /* the caller's */
  strbuf body;             /* everything after the declarations (it names the count functions) */
  arena *arena;            /* owns names */
  symtab taken;            /* every Murphi name in use (interned in arena) */
  bool symmetry;           /* interchangeable instances are scalarsets */
  planner plan;            /* the steps of every thread */
  const char **temp;       /* per cell: its choice or local in the step being written, or NULL */
  const char **start;      /* per cell: its choice in the startstate, or NULL */
  const char **pc;         /* per thread: the array of its instances' states (NULL: no instance) */
  const char **ids;        /* per thread: its index type */
  const char **states;     /* per thread: its enum type */
  const char ***state;     /* per thread, per state: its enum constant */
  const char ***counter;   /* per thread, per state: its count function, once used */
  const char ***pick;      /* per thread, per instance: the startstate's choice of its initial state, or NULL */
  const ast_instance **of; /* per thread: its instance set */
  bool *scalarset;         /* per thread: its index type is a scalarset */
  const char *self;        /* the instance variable of rules and invariants */
  const char *tally;       /* the local of the count functions and of the startstate */
  const char *wide;        /* the type that makes rumur's values signed 32-bit */
  xp_printer x;            /* prints expressions (its binds: how primes read in the step being written) */
} mu;

static const ast_shared *mu_var(const mu *p, int i) { return p->spec->shared.items[i]; }

/* rumur --value-type int32_t: the widest values that rumur accepts. */
static bool fits32(int64_t v) { return v >= INT32_MIN && v <= INT32_MAX; }

/* ---------------------------------------------------------------- names */

/* Murphi's and rumur's keywords (Murphi reads them in any case). */
/* clang-format off */
static const char *const reserved[] = {
  "alias", "array", "assert", "assume", "begin", "boolean", "by", "case", "clear", "const", "cover", "do", "else",
  "elsif", "end", "endalias", "endexists", "endfor", "endforall", "endfunction", "endif", "endprocedure",
  "endrecord", "endrule", "endruleset", "endstartstate", "endswitch", "endwhile", "enum", "error", "exists", "false",
  "for", "forall", "function", "if", "in", "interleaved", "invariant", "isundefined", "ismember", "liveness",
  "multiset", "multisetadd", "multisetcount", "multisetremove", "multisetremovepred", "of", "procedure", "process",
  "program", "property", "put", "record", "return", "rule", "ruleset", "scalarset", "startstate", "switch", "then",
  "to", "traceuntil", "true", "type", "undefine", "union", "var", "while",
};
/* clang-format on */

static bool is_reserved(const char *name) {
  for (size_t i = 0; i < sizeof reserved / sizeof *reserved; i++) {
    size_t k = 0;
    while (name[k] && reserved[i][k] && (name[k] | 0x20) == reserved[i][k]) k++;
    if (!name[k] && !reserved[i][k]) return true;
  }
  return false;
}

/* Returns base, or base_1, base_2, ...: the first that is no keyword and no
 * other name of the model; marks it as used. A leading '_' (not a Murphi
 * identifier) gets a 'v' in front. Arena-owned. */
static const char *fresh_name(mu *p, const char *base) {
  const char *b = base[0] == '_' ? arena_printf(p->arena, "v%s", base) : base;
  for (int k = 0;; k++) {
    const char *name = arena_intern_cstr(p->arena, k == 0 ? b : arena_printf(p->arena, "%s_%d", b, k));
    if (!is_reserved(name) && symtab_put(&p->taken, name, 1) < 0) return name;
  }
}

static size_t initial_states(const ast_thread *t) {
  size_t n = 0;
  vec_foreach(&t->states, s) n += t->states.items[s]->initial;
  return n;
}

/* The instances compose permutes (declare_symmetry in model-product.c). */
static bool interchangeable(const mu *p, const ast_thread *t, const ast_instance *in) {
  return p->symmetry && in->count_value >= 2 && !t->uses_tid && !t->named_by_index;
}

/* True when the startstate counts how many instances of thread t start in
 * each init state (a scalarset has no element to choose for by name). */
static bool counts_starts(const mu *p, int t) {
  return p->scalarset[t] && initial_states(p->spec->threads.items[t]) > 1;
}

static void name_thread(mu *p, const ast_thread *t) {
  const ast_instance *in = plan_instance_of(p->spec, t->index);
  p->of[t->index] = in;
  p->state[t->index] = arena_alloc(p->arena, (t->states.len + 1) * sizeof **p->state);
  p->counter[t->index] = arena_alloc(p->arena, (t->states.len + 1) * sizeof **p->counter);
  if (!in) return;
  p->states[t->index] = fresh_name(p, arena_printf(p->arena, "%s_state", t->name));
  vec_foreach(&t->states, s)
    p->state[t->index][s] = fresh_name(p, arena_printf(p->arena, "%s_%s", t->name, t->states.items[s]->name));
  p->ids[t->index] = fresh_name(p, arena_printf(p->arena, "%s_id", t->name));
  p->pc[t->index] = fresh_name(p, arena_printf(p->arena, "pc_%s", t->name));
  p->scalarset[t->index] = interchangeable(p, t, in);
}

static void name_variable(mu *p, const ast_shared *v) {
  ex_name_cells(p->arena, v, fresh_name(p, v->name), p->x.var, p->x.array);
}

static void name_everything(mu *p) {
  const ast_spec *spec = p->spec;
  vec_foreach(&spec->consts, i) p->x.konst[i] = fresh_name(p, spec->consts.items[i]->name);
  vec_foreach(&spec->variables, i) name_variable(p, spec->variables.items[i]);
  vec_foreach(&spec->threads, i) name_thread(p, spec->threads.items[i]);
  p->self = fresh_name(p, "self");
  p->tally = fresh_name(p, "tally");
  p->wide = fresh_name(p, "athread_value");
  p->x.tid = p->self;
}

/* Cell v's name with a suffix: x_next for x, a_2_next for a[2]. */
static const char *cell_name(mu *p, int v, const char *suffix) {
  if (!p->x.array[v]) return fresh_name(p, arena_printf(p->arena, "%s_%s", p->x.var[v], suffix));
  return fresh_name(p, arena_printf(p->arena, "%s_%" PRId64 "_%s", p->x.array[v], mu_var(p, v)->element, suffix));
}

static const char *temp_of(mu *p, int v) {
  if (!p->temp[v]) p->temp[v] = cell_name(p, v, "next");
  return p->temp[v];
}

/* ---------------------------------------------------------------- output helpers */

/* Its comments, and its header (murphi-header.h: compose/murphi-header.txt). */
static const ex_style murphi_style = {"-- ", "", EX_LINE_COMMENT, compose_murphi_header_txt,
                                      sizeof compose_murphi_header_txt};

/* ---------------------------------------------------------------- expressions */

static void emit_expr(mu *p, const ir_expr *e) { xp_expr(&p->x, e); }

/* e, in parentheses unless it is an atom. */
static void emit_tight(mu *p, const ir_expr *e) { xp_tight(&p->x, e); }

/* Every operand is an atom or in parentheses, so Murphi's precedences (!
 * binds looser than =) never matter. */
static bool is_atom(const xp_printer *x, const ir_expr *e) {
  if (e->kind == IR_QUANT) return is_atom(x, e->lowered);
  return e->kind == IR_BOOL || (e->kind == IR_INT && e->value >= 0) || e->kind == IR_TID || e->kind == IR_COUNT ||
         ((e->kind == IR_NAME || e->kind == IR_INDEX) && !e->primed);
}

static void emit_in_state(mu *p, int thread, const char *index, int state) {
  sbuf_printf(p->out, "%s[%s] = %s", p->pc[thread], index, p->state[thread][state]);
}

/* T[i]@S: the element of pc_T at the instance's tid. */
static void print_in_state(xp_printer *x, int thread, int64_t tid, int state) {
  mu *p = x->ctx;
  emit_in_state(p, thread, arena_printf(p->arena, "%" PRId64, tid), state);
}

/* count(T@S): a call of its function, declared once used. */
static void print_count(xp_printer *x, const ir_expr *e) {
  mu *p = x->ctx;
  const char **fn = &p->counter[e->index][e->state_index];
  if (!*fn) {
    const ast_thread *t = p->spec->threads.items[e->index];
    *fn = fresh_name(p, arena_printf(p->arena, "count_%s_%s", t->name, t->states.items[e->state_index]->name));
  }
  sbuf_printf(p->out, "%s()", *fn);
}

/* A primed cell that the step chooses. */
static const char *print_temp(xp_printer *x, int cell) { return temp_of(x->ctx, cell); }

static const char *op_text(ir_op op) {
  switch (op) {
  case OP_AND: return "&";
  case OP_OR: return "|";
  case OP_IMPLIES: return "->";
  case OP_IFF:
  case OP_EQ: return "=";
  default: return ir_op_text(op);
  }
}

static const xp_syntax murphi_syntax = {
    .op_text = op_text,
    .ite = {"", " ? ", " : ", ""},
    .inline_computed = true,
    .atom = is_atom,
    .count = print_count,
    .in_state = print_in_state,
    .temp = print_temp,
};

/* Where text goes now (the printer writes there too). */
static void set_out(mu *p, strbuf *out) { p->out = p->x.out = out; }

/* ---------------------------------------------------------------- declarations */

static void emit_consts(mu *p) {
  const ast_spec *spec = p->spec;
  if (spec->consts.len == 0) return;
  sbuf_line(p->out, 0, "\nconst");
  vec_foreach(&spec->consts, i) {
    const ast_const *c = spec->consts.items[i];
    sbuf_printf(p->out, "  %s: %" PRId64 ";", p->x.konst[i], c->value);
    if (c->overridden) sbuf_printf(p->out, " -- --set %s=%" PRId64, c->name, c->value);
    sbuf_putc(p->out, '\n');
  }
}

static const char *type_text(mu *p, const ast_type *t) {
  if (t->kind == TYPE_BOOL) return "boolean";
  if (t->kind == TYPE_INT) return arena_printf(p->arena, "%" PRId32 "..%" PRId32, INT32_MIN, INT32_MAX);
  return arena_printf(p->arena, "%" PRId64 "..%" PRId64, t->lo_value, t->hi_value);
}

static void emit_thread_types(mu *p, const ast_thread *t) {
  const ast_instance *in = p->of[t->index];
  sbuf_printf(p->out, "  %s: enum {", p->states[t->index]);
  vec_foreach(&t->states, s) sbuf_printf(p->out, "%s %s", s ? "," : "", p->state[t->index][s]);
  sbuf_puts(p->out, " };\n");
  if (p->scalarset[t->index])
    sbuf_line(p->out, 2,
              "%s: scalarset(%" PRId64 "); -- %s[1..%" PRId64 "], tids %" PRId64 "..%" PRId64 ": interchangeable",
              p->ids[t->index], in->count_value, t->name, in->count_value, in->first_tid,
              in->first_tid + in->count_value - 1);
  else
    sbuf_line(p->out, 2, "%s: %" PRId64 "..%" PRId64 "; -- the tids of %s", p->ids[t->index], in->first_tid,
              in->first_tid + in->count_value - 1, t->name);
}

/* rumur sizes its values by the model's types: with only non-negative
 * ranges they are unsigned, and a guard's x - 1 < 0 would overflow. One
 * signed 32-bit type, unused, makes them signed (as --value-type int32_t). */
static void emit_types(mu *p) {
  sbuf_line(p->out, 0, "\ntype");
  sbuf_line(p->out, 2, "%s: %" PRId32 "..%" PRId32 "; -- unused: makes rumur's values signed 32-bit", p->wide,
            INT32_MIN, INT32_MAX);
  vec_foreach(&p->spec->threads, t)
    if (p->pc[t]) emit_thread_types(p, p->spec->threads.items[t]);
}

static void emit_vars(mu *p) {
  const ast_spec *spec = p->spec;
  sbuf_line(p->out, 0, "\nvar");
  vec_foreach(&spec->variables, i) {
    const ast_shared *v = spec->variables.items[i];
    const char *type = type_text(p, &v->type);
    if (v->size) sbuf_line(p->out, 2, "%s: array [0..%" PRId64 "] of %s;", p->x.array[v->index], v->length - 1, type);
    else
      sbuf_line(p->out, 2, "%s: %s;%s", p->x.var[v->index], type, v->type.kind == TYPE_INT ? " -- unbounded int" : "");
  }
  vec_foreach(&spec->threads, t)
    if (p->pc[t]) sbuf_line(p->out, 2, "%s: array [%s] of %s;", p->pc[t], p->ids[t], p->states[t]);
}

/* One function per count(T@S) that the model uses. */
static void emit_counters(mu *p) {
  vec_foreach(&p->spec->threads, t) {
    const ast_thread *th = p->spec->threads.items[t];
    vec_foreach(&th->states, s) {
      if (!p->counter[t][s]) continue;
      int64_t n = p->of[t]->count_value;
      sbuf_line(p->out, 0, "\nfunction %s(): 0..%" PRId64 ";", p->counter[t][s], n);
      sbuf_line(p->out, 2, "var %s: 0..%" PRId64 ";", p->tally, n);
      sbuf_line(p->out, 0, "begin");
      sbuf_line(p->out, 2, "%s := 0;", p->tally);
      sbuf_line(p->out, 2, "for %s: %s do if %s[%s] = %s then %s := %s + 1; endif; endfor;", p->self, p->ids[t],
                p->pc[t], p->self, p->state[t][s], p->tally, p->tally);
      sbuf_line(p->out, 2, "return %s;", p->tally);
      sbuf_line(p->out, 0, "end;");
    }
  }
}

/* ---------------------------------------------------------------- startstates */

/* Whether cell c starts with a known constant (else the startstate chooses it). */
static bool start_known(const mu *p, int c, int64_t *value) {
  bool from_init;
  return plan_start_value(p->spec, c, value, &from_init);
}

/* Reports what the verifier cannot hold of cell c: its range, or its start
 * (an unbounded int needs one). */
static bool check_start(mu *p, int c) {
  const ast_shared *v = mu_var(p, c);
  int64_t value = 0;
  bool known = start_known(p, c, &value);
  if (v->type.kind == TYPE_RANGE && (!fits32(v->type.lo_value) || !fits32(v->type.hi_value)))
    diag_error(p->spec->src, v->type.at,
               "cannot export to Murphi: the range of '%s' does not fit in rumur's 32-bit values", v->name);
  else if (v->type.kind == TYPE_INT && !known)
    diag_error(p->spec->src, v->name_at,
               "cannot export to Murphi: unbounded int '%s' has no initial value to start from; give it an "
               "initializer or a system init predicate '%s == CONST'",
               v->name, v->name);
  else if (known && !fits32(value))
    diag_error(p->spec->src, v->init ? v->init->at : v->name_at,
               "cannot export to Murphi: the initial value %" PRId64 " of '%s' does not fit in rumur's 32-bit values",
               value, v->name);
  else return true;
  return false;
}

static const char *value_text(mu *p, const ast_shared *v, int64_t value) {
  if (v->type.kind == TYPE_BOOL) return value ? "true" : "false";
  return arena_printf(p->arena, "%" PRId64, value);
}

/* The rulesets' variables: a choice per cell without a known start, and per
 * instance with several initial states. */
static bool emit_start_choices(mu *p) {
  const char *sep = "ruleset ";
  vec_foreach(&p->spec->shared, c) {
    int64_t value;
    if (start_known(p, (int)c, &value)) continue;
    p->start[c] = cell_name(p, (int)c, "init");
    sbuf_printf(p->out, "%s%s: %s", sep, p->start[c], type_text(p, &mu_var(p, (int)c)->type));
    sep = "; ";
  }
  vec_foreach(&p->spec->threads, t) {
    const ast_thread *th = p->spec->threads.items[t];
    if (!p->pc[t] || initial_states(th) < 2) continue;
    size_t picks = (size_t)p->of[t]->count_value + initial_states(th); /* per instance, or per init state */
    p->pick[t] = arena_alloc(p->arena, picks * sizeof **p->pick);
    if (counts_starts(p, (int)t)) {
      size_t k = 0;
      vec_foreach(&th->states, s)
        if (th->states.items[s]->initial && ++k < initial_states(th)) {
          p->pick[t][k - 1] = fresh_name(p, arena_printf(p->arena, "%s_in_%s", th->name, th->states.items[s]->name));
          sbuf_printf(p->out, "%s%s: 0..%" PRId64, sep, p->pick[t][k - 1], p->of[t]->count_value);
          sep = "; ";
        }
      continue;
    }
    for (int64_t k = 0; k < p->of[t]->count_value; k++) {
      int64_t tid = p->of[t]->first_tid + k;
      p->pick[t][k] = fresh_name(p, arena_printf(p->arena, "%s_%" PRId64 "_init", th->name, tid));
      sbuf_printf(p->out, "%s%s: %s", sep, p->pick[t][k], p->states[t]);
      sep = "; ";
    }
  }
  if (*sep == ';') sbuf_puts(p->out, " do\n");
  return *sep == ';';
}

static void emit_start_values(mu *p) {
  vec_foreach(&p->spec->shared, c) {
    int64_t value;
    if (p->start[c]) sbuf_line(p->out, 2, "%s := %s;", p->x.var[c], p->start[c]);
    else if (start_known(p, (int)c, &value))
      sbuf_line(p->out, 2, "%s := %s;", p->x.var[c], value_text(p, mu_var(p, (int)c), value));
  }
}

/* The initial state of every instance: its one initial state, or the
 * ruleset's choice among its initial states (the other choices are assumed
 * away). */
/* "T_in_S1 + ... " over the counts of the init states before the index-th. */
static void emit_count_sum(mu *p, int t, size_t index) {
  for (size_t k = 0; k < index; k++) sbuf_printf(p->out, "%s%s", k ? " + " : "", p->pick[t][k]);
}

/* The instances of a scalarset with several init states: T_in_S1 of them
 * start in S1, the next T_in_S2 in S2, ..., the rest in the last. Up to a
 * permutation, which rumur's symmetry reduction applies, that is every
 * choice of init states. */
static void emit_counted_starts(mu *p, int t) {
  const ast_thread *th = p->spec->threads.items[t];
  size_t inits = initial_states(th), k = 0;
  sbuf_puts(p->out, "  assume ");
  emit_count_sum(p, t, inits - 1);
  sbuf_printf(p->out, " <= %" PRId64 ";\n", p->of[t]->count_value);
  sbuf_line(p->out, 2, "%s := 0;", p->tally);
  sbuf_line(p->out, 2, "for %s: %s do", p->self, p->ids[t]);
  vec_foreach(&th->states, s) {
    if (!th->states.items[s]->initial) continue;
    if (++k == inits) {
      sbuf_line(p->out, 4, "else %s[%s] := %s; endif;", p->pc[t], p->self, p->state[t][s]);
      break;
    }
    sbuf_printf(p->out, "    %s %s < ", k == 1 ? "if" : "elsif", p->tally);
    emit_count_sum(p, t, k);
    sbuf_printf(p->out, " then %s[%s] := %s;\n", p->pc[t], p->self, p->state[t][s]);
  }
  sbuf_line(p->out, 4, "%s := %s + 1;", p->tally, p->tally);
  sbuf_line(p->out, 2, "endfor;");
}

static void emit_start_states(mu *p, int t) {
  const ast_thread *th = p->spec->threads.items[t];
  if (counts_starts(p, t)) {
    emit_counted_starts(p, t);
    return;
  }
  if (initial_states(th) == 1) {
    vec_foreach(&th->states, s)
      if (th->states.items[s]->initial)
        sbuf_line(p->out, 2, "for %s: %s do %s[%s] := %s; endfor;", p->self, p->ids[t], p->pc[t], p->self,
                  p->state[t][s]);
    return;
  }
  for (int64_t k = 0; k < p->of[t]->count_value; k++) {
    const char *choice = p->pick[t][k];
    sbuf_line(p->out, 2, "%s[%" PRId64 "] := %s;", p->pc[t], p->of[t]->first_tid + k, choice);
    sbuf_puts(p->out, "  assume ");
    const char *sep = "";
    vec_foreach(&th->states, s) {
      if (!th->states.items[s]->initial) continue;
      sbuf_printf(p->out, "%s%s = %s", sep, choice, p->state[t][s]);
      sep = " | ";
    }
    sbuf_puts(p->out, ";\n");
  }
}

static void emit_startstate(mu *p) {
  const ast_spec *spec = p->spec;
  sbuf_line(p->out, 0, "\n-- the initial states");
  bool ruleset = emit_start_choices(p);
  sbuf_line(p->out, 0, "startstate \"init\"");
  int64_t most = 0;
  vec_foreach(&spec->threads, t)
    if (counts_starts(p, (int)t) && p->of[t]->count_value > most) most = p->of[t]->count_value;
  if (most) sbuf_line(p->out, 2, "var %s: 0..%" PRId64 ";", p->tally, most);
  sbuf_line(p->out, 0, "begin");
  emit_start_values(p);
  vec_foreach(&spec->threads, t)
    if (p->pc[t]) emit_start_states(p, (int)t);
  vec_foreach(&spec->inits, i) {
    sbuf_puts(p->out, "  assume ");
    emit_expr(p, spec->inits.items[i]);
    sbuf_puts(p->out, "; -- a system init predicate\n");
  }
  sbuf_line(p->out, 0, "end;");
  if (ruleset) sbuf_line(p->out, 0, "end;");
}

/* ---------------------------------------------------------------- rules */

static void emit_rule_name(mu *p, const ast_thread *t, const step *s) {
  sbuf_printf(p->out, "  rule \"%s: ", t->name);
  ex_step_name(p->out, t, s, EX_STRING);
  sbuf_puts(p->out, "\"\n");
}

/* The ruleset over the instances and over the values the step chooses. */
static void emit_ruleset(mu *p, int t, const step *s) {
  sbuf_printf(p->out, "ruleset %s: %s", p->self, p->ids[t]);
  vec_foreach(&s->assigns, i)
    if (!s->assigns.items[i].value) {
      int v = s->assigns.items[i].var;
      sbuf_printf(p->out, "; %s: %s", temp_of(p, v), type_text(p, &mu_var(p, v)->type));
    }
  vec_foreach(&s->chosen, i) {
    int v = s->chosen.items[i];
    sbuf_printf(p->out, "; %s: %s", temp_of(p, v), type_text(p, &mu_var(p, v)->type));
  }
  sbuf_puts(p->out, " do\n");
}

static void emit_conjunct(mu *p, const ir_expr *e) {
  sbuf_puts(p->out, "\n    & ");
  emit_tight(p, e);
}

/* "& lo <= V & V <= hi" when value may leave var's range. */
static void emit_range_check(mu *p, int var, const ir_expr *value) {
  if (!plan_needs_range_check(p->spec, var, value)) return;
  const ast_type *ty = &mu_var(p, var)->type;
  sbuf_printf(p->out, "\n    & %" PRId64 " <= ", ty->lo_value);
  emit_tight(p, value);
  sbuf_puts(p->out, " & ");
  emit_tight(p, value);
  sbuf_printf(p->out, " <= %" PRId64, ty->hi_value);
}

/* The guard: pc == from, the conditions on the pre-state and on the
 * choices, and the range of every value written. */
static void emit_guard(mu *p, int t, const step *s) {
  sbuf_printf(p->out, "    %s[%s] = %s", p->pc[t], p->self, p->state[t][s->edge->from_index]);
  vec_foreach(&s->guard, i)
    if (!plan_constantly_true(p->spec, s->guard.items[i])) emit_conjunct(p, s->guard.items[i]);
  vec_foreach(&s->checks, i)
    if (!plan_constantly_true(p->spec, s->checks.items[i])) emit_conjunct(p, s->checks.items[i]);
  vec_foreach(&s->assigns, i) emit_range_check(p, s->assigns.items[i].var, s->assigns.items[i].value);
  vec_foreach(&s->computed, i) emit_range_check(p, s->computed.items[i].var, s->computed.items[i].value);
  sbuf_puts(p->out, "\n  ==>\n");
}

static void emit_set(mu *p, const char *target, const ir_expr *value) {
  sbuf_printf(p->out, "    %s := ", target);
  emit_expr(p, value);
  sbuf_puts(p->out, ";\n");
}

static bool keeps_value(const assign_plan *a) {
  const ir_expr *v = a->value;
  return v && !a->element && v->kind == IR_NAME && !v->primed && v->ref == REF_SHARED && v->index == a->var;
}

/* The plain body: the assignments in the planner's order (none reads an
 * earlier target), then the choices. */
static void emit_direct(mu *p, const step *s) {
  sbuf_line(p->out, 2, "begin");
  vec_foreach(&s->assigns, i) {
    const assign_plan *a = &s->assigns.items[i];
    if (a->element) {
      sbuf_printf(p->out, "    %s[", p->x.array[a->var]);
      emit_expr(p, a->element->a);
      sbuf_puts(p->out, "] := ");
      emit_expr(p, a->value);
      sbuf_puts(p->out, ";\n");
    } else if (!a->value) {
      sbuf_line(p->out, 4, "%s := %s;", p->x.var[a->var], temp_of(p, a->var));
    } else if (!keeps_value(a)) {
      emit_set(p, p->x.var[a->var], a->value);
    }
  }
}

/* The body through locals: every value from the pre-state first, then the
 * writes (a value may read a cell that another one writes). */
static void emit_via_locals(mu *p, const step *s) {
  const char *kw = "var";
  vec_foreach(&s->assigns, i)
    if (s->assigns.items[i].value) {
      int v = s->assigns.items[i].var;
      sbuf_line(p->out, 2, "%s %s: %s;", kw, temp_of(p, v), type_text(p, &mu_var(p, v)->type));
      kw = "   ";
    }
  vec_foreach(&s->computed, i) {
    int v = s->computed.items[i].var;
    sbuf_line(p->out, 2, "%s %s: %s;", kw, temp_of(p, v), type_text(p, &mu_var(p, v)->type));
    kw = "   ";
  }
  sbuf_line(p->out, 2, "begin");
  vec_foreach(&s->assigns, i)
    if (s->assigns.items[i].value) emit_set(p, temp_of(p, s->assigns.items[i].var), s->assigns.items[i].value);
  vec_foreach(&s->computed, i) emit_set(p, temp_of(p, s->computed.items[i].var), s->computed.items[i].value);
  vec_foreach(&s->assigns, i)
    sbuf_line(p->out, 4, "%s := %s;", p->x.var[s->assigns.items[i].var], temp_of(p, s->assigns.items[i].var));
  vec_foreach(&s->computed, i)
    sbuf_line(p->out, 4, "%s := %s;", p->x.var[s->computed.items[i].var], temp_of(p, s->computed.items[i].var));
}

static void emit_rule(mu *p, const ast_thread *t, const step *s) {
  int ti = (int)t->index;
  p->x.binds = s->binds;
  emit_ruleset(p, ti, s);
  emit_rule_name(p, t, s);
  emit_guard(p, ti, s);
  if (s->via_temps || s->computed.len > 0) emit_via_locals(p, s);
  else emit_direct(p, s);
  vec_foreach(&s->chosen, i)
    sbuf_line(p->out, 4, "%s := %s;", p->x.var[s->chosen.items[i]], temp_of(p, s->chosen.items[i]));
  sbuf_line(p->out, 4, "%s[%s] := %s;", p->pc[ti], p->self, p->state[ti][s->edge->to_index]);
  sbuf_line(p->out, 2, "end;");
  sbuf_line(p->out, 0, "end;");
  p->x.binds = NULL;
}

static void emit_rules(mu *p, const ast_thread *t) {
  const step_list *steps = &p->plan.steps[t->index];
  ex_thread_title(p->out, &murphi_style, t);
  if (steps->len == 0) sbuf_line(p->out, 0, "-- no edges: its instances stay in their initial states");
  vec_foreach(steps, i) emit_rule(p, t, steps->items[i]);
}

/* ---------------------------------------------------------------- invariants */

/* invariant "NAME" forall self: T_id do (pc_T[self] = S | ...) -> (holds) end; */
static void emit_instance_invariant(mu *p, int t, const char *name, size_t first, size_t end, const ir_expr *holds) {
  sbuf_puts(p->out, "invariant \"");
  ex_text(p->out, name, EX_STRING);
  sbuf_printf(p->out, "\"\n  forall %s: %s do ", p->self, p->ids[t]);
  if (end > first) {
    sbuf_putc(p->out, '(');
    for (size_t s = first; s < end; s++) {
      if (s > first) sbuf_puts(p->out, " | ");
      emit_in_state(p, t, p->self, (int)s);
    }
    sbuf_puts(p->out, ") -> ");
  }
  emit_tight(p, holds);
  sbuf_puts(p->out, " end;\n");
}

static bool checks_arrays(const sem_check *c) { return c->kind == SEM_BOUNDS || c->kind == SEM_CONFLICT; }

static void emit_thread_invariants(mu *p, const ast_thread *t) {
  int ti = (int)t->index;
  vec_foreach(&t->states, s) {
    const sem_checks *cs = sem_state_checks(t->states.items[s]);
    for (size_t k = 0; k < cs->len; k++)
      if (checks_arrays(&cs->items[k]))
        emit_instance_invariant(p, ti, arena_printf(p->arena, "%s@%s: array check", t->name, t->states.items[s]->name),
                                s, s + 1, cs->items[k].holds);
  }
  vec_foreach(&t->invariants, i)
    emit_instance_invariant(p, ti, arena_printf(p->arena, "%s: invariant %zu", t->name, i + 1), 0, 0,
                            t->invariants.items[i]);
  for (size_t s = 0; s < t->states.len;) {
    const ir_expr *a = t->states.items[s]->assertion;
    size_t end = s + 1;
    while (end < t->states.len && t->states.items[end]->assertion == a) end++;
    if (a)
      emit_instance_invariant(p, ti, arena_printf(p->arena, "%s@%s: assertion", t->name, t->states.items[s]->name), s,
                              end, a);
    s = end;
  }
}

static void emit_invariants(mu *p) {
  const ast_spec *spec = p->spec;
  sbuf_line(p->out, 0, "\n-- going wrong: a state assertion, thread invariant or array check of an");
  sbuf_line(p->out, 0, "-- instance, or a system invariant, is false");
  vec_foreach(&spec->threads, t)
    if (p->pc[t]) emit_thread_invariants(p, spec->threads.items[t]);
  const sem_checks *cs = sem_system_checks(spec);
  for (size_t k = 0; k < cs->len; k++) {
    sbuf_line(p->out, 0, "invariant \"system invariant %zu\"", k + 1);
    sbuf_puts(p->out, "  ");
    emit_expr(p, cs->items[k].holds);
    sbuf_puts(p->out, ";\n");
  }
}

/* ---------------------------------------------------------------- driver */

/* The numbers of e beyond rumur's values (--value-type int32_t: the widest
 * that rumur accepts). */
static void check_literals(mu *p, const ir_expr *e) { plan_check_numbers(&p->plan, e, "rumur's 32-bit values"); }

static void check_thread(void *ctx, const ast_thread *t) {
  mu *p = ctx;
  vec_foreach(&t->invariants, i) check_literals(p, t->invariants.items[i]);
  vec_foreach(&t->states, i) check_literals(p, t->states.items[i]->assertion);
  vec_foreach(&t->edges, i) {
    const ast_edge *e = t->edges.items[i];
    check_literals(p, e->kind == EDGE_RELATION ? e->relation : e->guard);
    vec_foreach(&e->assigns, k) check_literals(p, e->assigns.items[k].value);
  }
}

static void emit_model(mu *p, const char *m_name) {
  const ast_spec *spec = p->spec;
  name_everything(p);
  vec_foreach(&spec->shared, c) p->plan.ok &= check_start(p, (int)c);
  vec_foreach(&spec->inits, i) check_literals(p, spec->inits.items[i]);
  vec_foreach(&spec->properties, i) check_literals(p, spec->properties.items[i]);
  plan_threads(&p->plan);
  ex_header(p->out, &murphi_style, spec, m_name ? m_name : "OUT.m");
  emit_consts(p);
  emit_types(p);
  emit_vars(p);
  set_out(p, &p->body);
  emit_startstate(p);
  vec_foreach(&spec->threads, t)
    if (p->pc[t]) emit_rules(p, spec->threads.items[t]);
  emit_invariants(p);
  set_out(p, p->model);
  emit_counters(p);
  sbuf_puts(p->out, sbuf_str(&p->body));
}

bool murphi_emit(strbuf *out, const ast_spec *spec, const char *m_name, bool symmetry) {
  size_t nt = spec->threads.len, nv = spec->shared.len;
  mu p = {.spec = spec, .out = out, .model = out, .arena = arena_new(), .symmetry = symmetry};
  p.plan = plan_new(spec, p.arena, "Murphi");
  p.plan.check_thread = check_thread;
  p.plan.ctx = &p;
  p.temp = arena_alloc(p.arena, (nv + 1) * sizeof *p.temp);
  p.start = arena_alloc(p.arena, (nv + 1) * sizeof *p.start);
  p.pc = arena_alloc(p.arena, (nt + 1) * sizeof *p.pc);
  p.ids = arena_alloc(p.arena, (nt + 1) * sizeof *p.ids);
  p.states = arena_alloc(p.arena, (nt + 1) * sizeof *p.states);
  p.state = arena_alloc(p.arena, (nt + 1) * sizeof *p.state);
  p.counter = arena_alloc(p.arena, (nt + 1) * sizeof *p.counter);
  p.pick = arena_alloc(p.arena, (nt + 1) * sizeof *p.pick);
  p.of = arena_alloc(p.arena, (nt + 1) * sizeof *p.of);
  p.scalarset = arena_alloc(p.arena, nt + 1);
  p.x = xp_new(&murphi_syntax, out, spec, p.arena, &p);
  emit_model(&p, m_name);
  sbuf_free(&p.body);
  symtab_free(&p.taken);
  arena_free(p.arena);
  return p.plan.ok;
}
