/* cfront/skeleton.c -- the draft spec: which shared variables (the parts of
 * globals the threads reach), which threads and how many of each, and what
 * main sets before the first start; then the text, in the canonical layout
 * of athread fmt (end-of-line comments of consecutive lines aligned). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../core/symtab.h"
#include "../spec-lang/fmt.h"
#include "../spec-lang/spec.h"
#include "skeleton.h"

/* A draft expands at most this many elements of arrays of structs per global. */
enum { MAX_ELEMENTS = 16 };
/* Arrays of scalars longer than this are left out. */
enum { MAX_ARRAY = 4096 };

/* A part of a global: a shared variable of the draft, or a comment saying why not. */
typedef struct part {
  const cfp_global *g;  /* its global */
  const cfp_step *path; /* its steps from the global, every index constant */
  size_t len;           /* steps */
  const cfp_type *type; /* bool, int, lock, or an array of them */
  const char *name;     /* its spec name; NULL when not modelled */
  const char *why;      /* why it is not modelled */
} part;

typedef struct thread {
  const char *function; /* the C function */
  const char *name;     /* the spec name */
  VEC(size_t) sites;    /* where it is started (indices into p->sites) */
  cfp_accesses reach;   /* what it and its callees touch (heap) */
  bool has_body;        /* the function is defined in the files */
  const char *count;    /* the instance count expression, NULL for one */
} thread;

typedef struct konst {
  const char *name;    /* spec name */
  int64_t value;       /* its value */
  const char *comment; /* the end-of-line comment */
  const char *file;    /* the loop it comes from (file, line): one const per loop */
  unsigned line;       /* its line */
} konst;

typedef struct line {
  int indent;          /* nesting depth */
  const char *code;    /* the text, "" for a blank line */
  const char *comment; /* end-of-line comment (without "// "), or NULL */
} line;

typedef struct draft {
  const cfp_program *p;    /* the program */
  arena *a;                /* every string below */
  VEC(part) parts;         /* in global order */
  VEC(thread) threads;     /* in order of first start */
  VEC(konst) consts;       /* instance counts */
  VEC(const char *) inits; /* system init predicates */
  VEC(const char *) notes; /* comments in the system */
  symtab names;            /* spec names of consts and shared variables */
  symtab thread_names;     /* spec names of threads */
  VEC(line) lines;         /* the text */
  cfp_accesses also;       /* skel_write_with_main: what main and its callees touch (heap) */
} draft;

/* ---------------------------------------------------------------- paths */

static bool steps_compatible(const cfp_step *a, size_t an, const cfp_step *b, size_t bn) {
  for (size_t i = 0; i < an && i < bn; i++) {
    if (a[i].field || b[i].field) {
      if (!a[i].field || !b[i].field || strcmp(a[i].field, b[i].field) != 0) return false;
    } else if (a[i].index != b[i].index && a[i].index != CFP_ANY && b[i].index != CFP_ANY) {
      return false;
    }
  }
  return true;
}

/* True when access x touches part q (x covers it, or reaches inside it). */
static bool touches(const cfp_access *x, const part *q) {
  return x->global >= 0 && steps_compatible(x->steps, x->len, q->path, q->len);
}

static bool same_place(const cfp_access *x, const part *q) {
  if (x->len != q->len) return false;
  for (size_t i = 0; i < x->len; i++)
    if (x->steps[i].index == CFP_ANY || !steps_compatible(&x->steps[i], 1, &q->path[i], 1)) return false;
  return true;
}

static cfp_step *extend(arena *a, const cfp_step *path, size_t len, cfp_step next) {
  cfp_step *s = arena_alloc(a, (len + 1) * sizeof *s);
  if (len) memcpy(s, path, len * sizeof *s);
  s[len] = next;
  return s;
}

/* ---------------------------------------------------------------- parts */

typedef struct expansion {
  draft *d;             /* the draft */
  const cfp_global *g;  /* the global being expanded */
  int global;           /* its index */
  VEC(cfp_access) seen; /* every thread access to it (heap) */
  int elements;         /* struct elements expanded so far (MAX_ELEMENTS) */
} expansion;

static void add_part(expansion *x, const cfp_step *path, size_t len, const cfp_type *t, const char *why) {
  part q = {x->g, path, len, t, NULL, why};
  vec_push(x->d->a, &x->d->parts, q);
}

static bool is_scalar(const cfp_type *t) { return t->kind == CFP_BOOL || t->kind == CFP_INT || t->kind == CFP_LOCK; }

/* Some access reaches the part at path (or covers it). */
static bool reached(const expansion *x, const cfp_step *path, size_t len) {
  part q = {.path = path, .len = len};
  vec_foreach(&x->seen, i)
    if (touches(&x->seen.items[i], &q)) return true;
  return false;
}

/* Whether element k of the array at path (depth len) is reached; *all when
 * some access covers the whole array or uses a variable index. */
static bool element_reached(const expansion *x, const cfp_step *path, size_t len, int64_t k, bool *all) {
  vec_foreach(&x->seen, i) {
    const cfp_access *s = &x->seen.items[i];
    if (!steps_compatible(s->steps, s->len, path, len)) continue;
    if (s->len <= len || s->steps[len].index == CFP_ANY) *all = true;
    else if (s->steps[len].index == k) return true;
  }
  return *all;
}

static void expand(expansion *x, const cfp_type *t, const cfp_step *path, size_t len);

static const char *array_why(expansion *x, const cfp_type *t) {
  if (t->length > MAX_ARRAY)
    return arena_printf(x->d->a, "an array of %" PRId64 " elements: more than %d", t->length, MAX_ARRAY);
  return arena_printf(x->d->a, "an array of %s", t->elem->why ? t->elem->why : "arrays");
}

/* An array of structs or arrays: one expansion per element reached. */
static void expand_elements(expansion *x, const cfp_type *t, const cfp_step *path, size_t len) {
  int64_t wanted = 0;
  bool all = false;
  for (int64_t k = 0; k < t->length && !all && wanted <= MAX_ELEMENTS; k++)
    wanted += element_reached(x, path, len, k, &all);
  if (all) wanted = t->length;
  if (x->elements + wanted > MAX_ELEMENTS) {
    const char *why = arena_printf(x->d->a, "an array of %" PRId64 " %s: a draft expands at most %d elements",
                                   t->length, t->elem->spelling, MAX_ELEMENTS);
    return add_part(x, path, len, t, why);
  }
  x->elements += (int)wanted;
  for (int64_t k = 0; k < t->length; k++) {
    bool every = false;
    if (all || element_reached(x, path, len, k, &every))
      expand(x, t->elem, extend(x->d->a, path, len, (cfp_step){NULL, k}), len + 1);
  }
}

static void expand(expansion *x, const cfp_type *t, const cfp_step *path, size_t len) {
  if (is_scalar(t)) return add_part(x, path, len, t, NULL);
  if (t->kind == CFP_OTHER) return add_part(x, path, len, t, t->why);
  if (t->kind == CFP_ARRAY && is_scalar(t->elem) && t->length <= MAX_ARRAY) return add_part(x, path, len, t, NULL);
  if (t->kind == CFP_ARRAY && t->elem->kind != CFP_STRUCT && t->elem->kind != CFP_ARRAY)
    return add_part(x, path, len, t, array_why(x, t));
  if (t->kind == CFP_ARRAY) return expand_elements(x, t, path, len);
  vec_foreach(&t->fields, i) {
    cfp_step *next = extend(x->d->a, path, len, (cfp_step){t->fields.items[i].name, 0});
    if (reached(x, next, len + 1)) expand(x, t->fields.items[i].type, next, len + 1);
  }
}

/* Every part of global gi that some thread (or d->also) reaches. */
static void add_global(draft *d, int gi) {
  expansion x = {.d = d, .g = d->p->globals.items[gi], .global = gi};
  vec_foreach(&d->threads, t) {
    const cfp_accesses *r = &d->threads.items[t].reach;
    vec_foreach(r, i)
      if (r->items[i].global == gi) vec_push(NULL, &x.seen, r->items[i]);
  }
  vec_foreach(&d->also, i)
    if (d->also.items[i].global == gi) vec_push(NULL, &x.seen, d->also.items[i]);
  if (x.seen.len && x.g->thread_local) add_part(&x, NULL, 0, x.g->type, "thread-local");
  else if (x.seen.len) expand(&x, x.g->type, NULL, 0);
  vec_free(&x.seen);
}

/* ---------------------------------------------------------------- names */

static const char *unique(draft *d, symtab *taken, const char *base) {
  const char *name = arena_intern_cstr(d->a, base);
  for (int k = 2; symtab_get(taken, name) >= 0; k++)
    name = arena_intern_cstr(d->a, arena_printf(d->a, "%s_%d", base, k));
  symtab_put(taken, name, 1);
  return name;
}

/* True when part q is a whole global whose C name is a spec name. */
static bool keeps_c_name(draft *d, const part *q) {
  return q->len == 0 && !skel_is_keyword(q->g->name) && strcmp(skel_identifier(d->a, q->g->name), q->g->name) == 0;
}

/* Whole globals keep their C names; flattened, renamed ones come second. */
static void name_parts(draft *d) {
  for (int pass = 0; pass < 2; pass++) {
    vec_foreach(&d->parts, i) {
      part *q = &d->parts.items[i];
      if (q->why || keeps_c_name(d, q) != (pass == 0)) continue;
      const char *base = skel_identifier(d->a, skel_flat_name(d->a, q->g->name, q->path, q->len));
      if (skel_is_keyword(base)) base = arena_printf(d->a, "%s_", base);
      q->name = unique(d, &d->names, base);
    }
  }
}

/* ---------------------------------------------------------------- threads */

static void add_thread_access(draft *d, thread *t, const cfp_accesses *from) {
  (void)d;
  vec_foreach(from, i) vec_push(NULL, &t->reach, from->items[i]);
}

/* One thread per function started, in the order of their first start. */
static void collect_threads(draft *d) {
  const cfp_program *p = d->p;
  vec_foreach(&p->sites, s) {
    const cfp_site *site = &p->sites.items[s];
    if (!site->function) {
      const char *note = arena_printf(d->a, "not modelled: the thread %s starts at %s:%u (not a function's name)",
                                      site->api, site->file, site->line);
      vec_push(d->a, &d->notes, note);
      continue;
    }
    size_t k = 0;
    while (k < d->threads.len && d->threads.items[k].function != site->function) k++;
    if (k == d->threads.len) {
      thread t = {.function = site->function,
                  .name = unique(d, &d->thread_names, skel_thread_name(d->a, site->function))};
      t.has_body = cfp_function_named(p, site->function) != NULL;
      cfp_reach(p, site->function, &t.reach);
      vec_push(d->a, &d->threads, t);
    }
    thread *t = &d->threads.items[k];
    vec_push(d->a, &t->sites, s);
    add_thread_access(d, t, &site->argument);
  }
}

/* ---------------------------------------------------------------- counts */

static const char *loop_const(draft *d, const thread *t, const cfp_loop *l) {
  vec_foreach(&d->consts, i) {
    const konst *c = &d->consts.items[i];
    if (c->file == l->file && c->line == l->line) return c->name;
  }
  const char *base = l->name ? skel_identifier(d->a, l->name) : arena_printf(d->a, "N_%s", t->name);
  if (skel_is_keyword(base)) base = arena_printf(d->a, "%s_", base);
  konst c = {unique(d, &d->names, base), l->count, NULL, l->file, l->line};
  c.comment = arena_printf(d->a, "the bound of the loop at %s:%u", l->file, l->line);
  vec_push(d->a, &d->consts, c);
  return c.name;
}

/* The first loop around t's starts whose count is not known, or NULL. */
static const cfp_loop *unknown_loop(const draft *d, const thread *t) {
  vec_foreach(&t->sites, i) {
    const cfp_site *s = &d->p->sites.items[t->sites.items[i]];
    vec_foreach(&s->loops, k)
      if (!s->loops.items[k].constant) return &s->loops.items[k];
  }
  return NULL;
}

/* count = the sum over t's starts of the product of their loops' consts. */
static void count_thread(draft *d, thread *t) {
  const cfp_loop *open = unknown_loop(d, t);
  if (open) {
    konst c = {unique(d, &d->names, arena_printf(d->a, "N_%s", t->name)), 2, NULL, NULL, 0};
    c.comment = arena_printf(d->a, "not known from the code (the loop at %s:%u): pick a count", open->file, open->line);
    vec_push(d->a, &d->consts, c);
    t->count = c.name;
    return;
  }
  strbuf b = {0};
  int64_t plain = 0;
  vec_foreach(&t->sites, i) {
    const cfp_site *s = &d->p->sites.items[t->sites.items[i]];
    if (!s->loops.len) plain++;
    if (s->loops.len) sbuf_puts(&b, b.len ? " + " : "");
    vec_foreach(&s->loops, k) sbuf_printf(&b, "%s%s", k ? " * " : "", loop_const(d, t, &s->loops.items[k]));
  }
  if (b.len && plain) sbuf_printf(&b, " + %" PRId64, plain);
  else if (!b.len && plain > 1) sbuf_printf(&b, "%" PRId64, plain);
  t->count = b.len ? arena_intern_cstr(d->a, sbuf_str(&b)) : NULL;
  sbuf_free(&b);
}

/* ---------------------------------------------------------------- values */

static const char *value_text(draft *d, const cfp_type *t, int64_t v) {
  if (t->kind == CFP_BOOL || t->kind == CFP_LOCK) return v ? "true" : "false";
  return arena_printf(d->a, "%" PRId64, v);
}

static const cfp_type *scalar_of(const part *q) { return q->type->kind == CFP_ARRAY ? q->type->elem : q->type; }

/* The C initial value of element k of q (k < 0: q itself); not known for a
 * global only declared extern in the files given. */
static cfp_value c_value(draft *d, const part *q, int64_t k) {
  if (scalar_of(q)->kind == CFP_LOCK) return (cfp_value){CFP_KNOWN, 0};
  if (!q->g->defined) return (cfp_value){CFP_UNKNOWN, 0};
  const cfp_step *path = k < 0 ? q->path : extend(d->a, q->path, q->len, (cfp_step){NULL, k});
  return cfp_initial_value(q->g, cfp_leaf_of(q->g->type, path, q->len + (k >= 0)));
}

typedef enum early_kind { EARLY_NONE, EARLY_KNOWN, EARLY_UNKNOWN } early_kind;

/* What the creator writes to q (scalar) before the first start. */
static early_kind early_scalar(const draft *d, const part *q, int64_t *value) {
  early_kind k = EARLY_NONE;
  if (q->type->kind == CFP_LOCK) return k;
  vec_foreach(&d->p->early, i) {
    const cfp_early *e = &d->p->early.items[i];
    if (e->where.global < 0 || d->p->globals.items[e->where.global] != q->g || !touches(&e->where, q)) continue;
    if (e->value.kind == CFP_KNOWN && same_place(&e->where, q)) {
      k = EARLY_KNOWN;
      *value = q->type->kind == CFP_BOOL ? e->value.value != 0 : e->value.value;
    } else {
      k = EARLY_UNKNOWN;
    }
  }
  return k;
}

/* Why q's C initial value is not known. */
static const char *unknown_note(const part *q) {
  return q->g->defined ? "C initializer not read" : "C: declared extern, defined in a file not given";
}

/* ---------------------------------------------------------------- the text */

static void put(draft *d, int indent, const char *code, const char *comment) {
  line l = {indent, code, comment};
  vec_push(d->a, &d->lines, l);
}

static const char *joined(draft *d, const char *a, const char *b) {
  if (!a) return b;
  return b ? arena_printf(d->a, "%s; %s", a, b) : a;
}

static const char *type_note(draft *d, const part *q) {
  const cfp_type *s = scalar_of(q);
  if (s->kind == CFP_LOCK) return arena_printf(d->a, "%s: true while held", s->spelling);
  bool plain = strcmp(s->spelling, s->kind == CFP_BOOL ? "_Bool" : "int") == 0 || strcmp(s->spelling, "bool") == 0;
  return plain ? NULL : s->spelling;
}

/* The initializer of array part q ("= 0", "= {1, 2}"), folding in the
 * creator's constant writes to single elements; NULL when not known. */
static const char *array_init(draft *d, const part *q, const char **note) {
  int64_t n = q->type->length;
  int64_t *v = xcalloc((size_t)n + 1, sizeof *v);
  bool known = true, same = true;
  strbuf set = {0}; /* the elements main sets */
  for (int64_t k = 0; k < n && known; k++) {
    cfp_value c = c_value(d, q, k);
    known = c.kind == CFP_KNOWN;
    v[k] = c.value;
  }
  vec_foreach(&d->p->early, i) {
    const cfp_early *e = &d->p->early.items[i];
    if (!known || q->type->elem->kind == CFP_LOCK || d->p->globals.items[e->where.global] != q->g ||
        !touches(&e->where, q))
      continue;
    const cfp_step *last = e->where.len == q->len + 1 ? &e->where.steps[q->len] : NULL;
    if (e->value.kind == CFP_KNOWN && last && !last->field && last->index >= 0 && last->index < n) {
      v[last->index] = q->type->elem->kind == CFP_BOOL ? e->value.value != 0 : e->value.value;
      sbuf_printf(&set, "%s%s[%" PRId64 "]", set.len ? ", " : "", q->name, last->index);
    } else {
      known = false;
      *note = "C: then main writes it (not a constant)";
    }
  }
  if (!known && !*note) *note = unknown_note(q);
  if (set.len && known) *note = arena_printf(d->a, "main sets %s before the threads start", sbuf_str(&set));
  sbuf_free(&set);
  strbuf b = {0};
  for (int64_t k = 1; k < n; k++) same &= v[k] == v[0];
  if (same) sbuf_puts(&b, value_text(d, q->type->elem, n ? v[0] : 0));
  for (int64_t k = 0; !same && k < n; k++) sbuf_printf(&b, "%s%s", k ? ", " : "{", value_text(d, q->type->elem, v[k]));
  if (!same) sbuf_putc(&b, '}');
  const char *text = known ? arena_intern_cstr(d->a, sbuf_str(&b)) : NULL;
  sbuf_free(&b);
  free(v);
  return text;
}

static const char *c_value_text(draft *d, const part *q, cfp_value c) {
  if (c.kind == CFP_TOO_BIG) return "a value beyond 64 bits";
  return c.kind == CFP_KNOWN ? value_text(d, q->type, c.value) : "an initializer not read";
}

/* The initializer of scalar part q, or NULL; adds main's write to the system. */
static const char *scalar_init(draft *d, const part *q, const char **note) {
  cfp_value c = c_value(d, q, -1);
  int64_t v = 0;
  early_kind e = early_scalar(d, q, &v);
  if (e == EARLY_KNOWN) {
    *note = arena_printf(d->a, "C: = %s, then main sets it", c_value_text(d, q, c));
    const char *pred = q->type->kind != CFP_BOOL ? arena_printf(d->a, "%s == %" PRId64, q->name, v)
                                                 : arena_printf(d->a, "%s%s", v ? "" : "!", q->name);
    vec_push(d->a, &d->inits, pred);
    return NULL;
  }
  if (e == EARLY_UNKNOWN) {
    *note = arena_printf(d->a, "C: = %s, then main writes it (not a constant)", c_value_text(d, q, c));
    return NULL;
  }
  if (c.kind == CFP_KNOWN) return value_text(d, q->type, c.value);
  *note = c.kind == CFP_TOO_BIG ? "C: = a value beyond 64 bits" : unknown_note(q);
  return NULL;
}

/* "union (unnamed union at f.c:3:1)" is just "union" in a comment. */
static const char *plain_spelling(draft *d, const char *spelling) {
  const char *paren = strstr(spelling, " (unnamed");
  if (!paren) paren = strstr(spelling, " (anonymous");
  return paren ? arena_strndup(d->a, spelling, (size_t)(paren - spelling)) : spelling;
}

static void put_part(draft *d, const part *q) {
  if (q->why) {
    const char *type = plain_spelling(d, q->type->spelling), *c_path = skel_c_path(d->a, q->g->name, q->path, q->len);
    const char *decl = q->len && q->path[q->len - 1].field && cfp_is_anonymous(q->path[q->len - 1].field)
                           ? arena_printf(d->a, "the anonymous %s in %s", type, c_path)
                           : skel_declarator(d->a, type, c_path);
    return put(d, 0, arena_printf(d->a, "// not modelled: %s (%s)", decl, q->why), NULL);
  }
  const char *note = NULL;
  bool array = q->type->kind == CFP_ARRAY;
  const char *init = array ? array_init(d, q, &note) : scalar_init(d, q, &note);
  const char *c_path = skel_c_path(d->a, q->g->name, q->path, q->len);
  strbuf b = {0};
  sbuf_printf(&b, "shared %s %s", scalar_of(q)->kind == CFP_INT ? "int" : "bool", q->name);
  if (array) sbuf_printf(&b, "[%" PRId64 "]", q->type->length);
  if (init) sbuf_printf(&b, " = %s", init);
  if (strcmp(c_path, q->name) != 0) sbuf_printf(&b, " binds %s", c_path);
  sbuf_putc(&b, ';');
  put(d, 0, arena_intern_cstr(d->a, sbuf_str(&b)), joined(d, type_note(d, q), note));
  sbuf_free(&b);
}

/* "reads: x, y; writes: x" over the shared variables t reaches. */
static const char *access_note(draft *d, const thread *t) {
  strbuf r = {0}, w = {0};
  vec_foreach(&d->parts, i) {
    const part *q = &d->parts.items[i];
    bool reads = false, writes = false;
    vec_foreach(&t->reach, k) {
      const cfp_access *x = &t->reach.items[k];
      if (!q->name || d->p->globals.items[x->global] != q->g || !touches(x, q)) continue;
      reads |= x->read, writes |= x->write;
    }
    if (reads) sbuf_printf(&r, "%s%s", r.len ? ", " : "", q->name);
    if (writes) sbuf_printf(&w, "%s%s", w.len ? ", " : "", q->name);
  }
  const char *note =
      arena_printf(d->a, "reads: %s; writes: %s", r.len ? sbuf_str(&r) : "nothing", w.len ? sbuf_str(&w) : "nothing");
  sbuf_free(&r);
  sbuf_free(&w);
  return note;
}

static void put_thread(draft *d, const thread *t) {
  put(d, 0, "", NULL);
  bool plain = !skel_is_keyword(t->function) && strcmp(skel_identifier(d->a, t->function), t->function) == 0;
  put(d, 0,
      plain ? arena_printf(d->a, "thread %s implements %s {", t->name, t->function)
            : arena_printf(d->a, "thread %s {", t->name),
      NULL);
  if (!plain)
    put(d, 1,
        arena_printf(d->a, "// C function %s: not a spec name, so: athread conform --thread %s=%s", t->function,
                     t->name, t->function),
        NULL);
  if (!t->has_body) put(d, 1, arena_printf(d->a, "// %s has no body in the files given", t->function), NULL);
  put(d, 1, arena_printf(d->a, "// %s", access_note(d, t)), NULL);
  put(d, 1, "init state Start;", NULL);
  put(d, 0, "}", NULL);
}

static const char *started_note(draft *d, const thread *t) {
  strbuf b = {0};
  vec_foreach(&t->sites, i) {
    const cfp_site *s = &d->p->sites.items[t->sites.items[i]];
    sbuf_printf(&b, "%s%s:%u", i ? ", " : "started at ", s->file, s->line);
  }
  const char *note = arena_intern_cstr(d->a, sbuf_str(&b));
  sbuf_free(&b);
  return note;
}

static void put_system(draft *d, const char *file) {
  put(d, 0, "", NULL);
  put(d, 0, arena_printf(d->a, "system %s {", skel_system_name(d->a, file)), NULL);
  vec_foreach(&d->notes, i) put(d, 1, arena_printf(d->a, "// %s", d->notes.items[i]), NULL);
  vec_foreach(&d->threads, i) {
    const thread *t = &d->threads.items[i];
    const char *code = t->count ? arena_printf(d->a, "%s[%s];", t->name, t->count) : arena_printf(d->a, "%s;", t->name);
    put(d, 1, code, started_note(d, t));
  }
  vec_foreach(&d->inits, i) put(d, 1, arena_printf(d->a, "init %s;", d->inits.items[i]), NULL);
  put(d, 0, "}", NULL);
}

static const char *file_list(arena *a, const char *const *files, size_t file_count);

static void put_header(draft *d, const char *const *files, size_t file_count) {
  const char *from = file_list(d->a, files, file_count);
  put(d, 0, arena_printf(d->a, "// Drafted by athread skeleton from %s: each thread has one state.", from), NULL);
  put(d, 0, "// Add the states and edges of the design, then the system's invariants.", NULL);
  if (d->p->truncated) put(d, 0, "// (expressions nested too deeply were not read)", NULL);
}

/* ---------------------------------------------------------------- layout */

static size_t code_width(const line *l) { return 2 * (size_t)l->indent + strlen(l->code); }

/* Writes the lines; the comments of consecutive commented lines share a
 * column two spaces after the longest code among them (as athread fmt). */
static void render(const draft *d, strbuf *out) {
  for (size_t i = 0; i < d->lines.len;) {
    size_t j = i, width = 0;
    while (j < d->lines.len && d->lines.items[j].comment) {
      if (code_width(&d->lines.items[j]) > width) width = code_width(&d->lines.items[j]);
      j++;
    }
    if (j == i) j = i + 1;
    for (size_t k = i; k < j; k++) {
      const line *l = &d->lines.items[k];
      sbuf_printf(out, "%*s%s", 2 * l->indent, "", l->code);
      if (l->comment) sbuf_printf(out, "%*s// %s", (int)(width + 2 - code_width(l)), "", l->comment);
      sbuf_putc(out, '\n');
    }
    i = j;
  }
}

static void put_all(draft *d, const char *const *files, size_t file_count) {
  put_header(d, files, file_count);
  if (d->consts.len) put(d, 0, "", NULL);
  vec_foreach(&d->consts, i) {
    const konst *c = &d->consts.items[i];
    put(d, 0, arena_printf(d->a, "const %s = %" PRId64 ";", c->name, c->value), c->comment);
  }
  if (d->parts.len) put(d, 0, "", NULL);
  vec_foreach(&d->parts, i) put_part(d, &d->parts.items[i]);
  vec_foreach(&d->threads, i) put_thread(d, &d->threads.items[i]);
  put_system(d, files[0]);
}

static void draft_free(draft *d) {
  vec_foreach(&d->threads, i) vec_free(&d->threads.items[i].reach);
  vec_free(&d->also);
  symtab_free(&d->names);
  symtab_free(&d->thread_names);
  arena_free(d->a);
}

static const char *file_list(arena *a, const char *const *files, size_t file_count) {
  strbuf b = {0};
  for (size_t i = 0; i < file_count; i++) sbuf_printf(&b, "%s%s", i ? ", " : "", files[i]);
  const char *text = arena_intern_cstr(a, sbuf_str(&b));
  sbuf_free(&b);
  return text;
}

/* No thread function to draft: none started, or only through pointers. */
static void report_no_thread(diag_sink *sink, const cfp_program *p, const char *files) {
  if (p->sites.len) {
    const cfp_site *s = &p->sites.items[0];
    diag_error_at(sink, "athread",
                  "%s:%u: the thread is started through a pointer, not a function's name: nothing to draft\n"
                  "  hint: athread skeleton needs the thread function by name (%s(..., worker, ...))",
                  s->file, s->line, s->api);
    return;
  }
  diag_error_at(sink, "athread",
                "no thread is started in %s (pthread_create, CreateThread, PsCreateSystemThread, kthread_run)\n"
                "  hint: give every C file of the program, and the -I/-D options it is built with",
                files);
}

/* The draft in athread fmt's layout, whose column alignment render does not
 * attempt. A draft that does not parse (a bug) is kept as rendered, so that
 * athread lint shows why. */
static void put_formatted(const strbuf *rendered, strbuf *out) {
  diag_sink quiet = {0};
  ast_spec *spec = spec_parse_source(diag_source_from_string(&quiet, "draft", sbuf_str(rendered), rendered->len));
  if (quiet.errors) sbuf_putn(out, sbuf_str(rendered), rendered->len);
  else fmt_spec(out, spec);
  spec_free(spec);
}

bool skel_write(diag_sink *sink, const cfp_program *p, const char *const *files, size_t file_count, strbuf *out) {
  return skel_write_with_main(sink, p, files, file_count, false, out);
}

bool skel_write_with_main(diag_sink *sink, const cfp_program *p, const char *const *files, size_t file_count,
                          bool with_main, strbuf *out) {
  draft d = {.p = p, .a = arena_new()};
  if (with_main && cfp_function_named(p, "main")) cfp_reach(p, "main", &d.also);
  collect_threads(&d);
  bool ok = d.threads.len > 0;
  if (!ok) report_no_thread(sink, p, file_list(d.a, files, file_count));
  if (ok) {
    vec_foreach(&p->globals, g) add_global(&d, (int)g);
    name_parts(&d);
    vec_foreach(&d.threads, i) count_thread(&d, &d.threads.items[i]);
    put_all(&d, files, file_count);
    strbuf rendered = {0};
    render(&d, &rendered);
    put_formatted(&rendered, out);
    sbuf_free(&rendered);
  }
  draft_free(&d);
  return ok;
}
