/* cfront/cfront-copy.c -- whole-struct copies ("s = t;", "*p = *q;",
 * "struct S s = t;", "a[i] = s;"): leaf by leaf, as one step; a union's
 * leaves are those of the one member it is used through. Each scalar
 * leaf of the destination (a local, or the spec's cell bound to its C path)
 * gets the source's leaf at the same path, in declaration order. The indices
 * that are not constants are evaluated first, once, into temporaries, so
 * that a leaf written early cannot move the leaves that follow
 * ("a[a[0].k] = t"); two struct objects of one type are the same or
 * disjoint, so reading the source's leaf k after writing the destination's
 * leaves before k reads what C's copy reads. Under --atomicity access each
 * leaf's store is a step of its own (the locations between them are marked
 * split, atomicity.c), whose read the pass makes a load: each shared leaf
 * read and written is its own step, as C's copy may interleave them. */
#include <stdlib.h>

#include "c-ast.h"

#define MAX_COPY_LEAVES 4096

/* A copy being lowered: the index temporaries, then each leaf's store. */
typedef struct copier {
  cfe_lowering *L;
  cfe_pos at;               /* the statement */
  VEC(int) temps;           /* the index temporaries (heap) */
  VEC(ir_expr *) values;    /* and the value each one gets (heap) */
  VEC(cfe_place) places;    /* each leaf of the destination (heap) */
  VEC(ir_expr *) leaves;    /* the source's value for it (heap) */
  VEC(ir_ctype) from;       /* and its C type (heap) */
  bool ok;                  /* nothing reported */
} copier;

static cfe_expr *node(cfe_lowering *L, cfe_expr like) {
  cfe_expr *e = arena_alloc(L->u->arena, sizeof *e);
  *e = like;
  return e;
}

/* Says what other struct values are refused, with what to write instead. */
static void not_an_object(copier *c, const cfe_expr *e) {
  cfe_lowering *L = c->L;
  c->ok = false;
  if (e->kind == CE_CALL)
    cfe_error(L->u, e->at,
              "unsupported struct value returned by '%s' (pass a pointer to the struct to fill: 'void %s(struct ... "
              "*out)')",
              e->name, e->name);
  else if (e->kind == CE_BAD) cfe_lower_value(L, e); /* says why */
  else
    cfe_error(L->u, e->at,
              "unsupported struct value: a whole struct is copied only from a variable, a field, an element or "
              "'*p' (copy in a statement of its own, or use if/else for '?:')");
}

/* The index i, or a temporary holding its value when it is not a constant. */
static cfe_expr *fixed_index(copier *c, const cfe_expr *i) {
  cfe_lowering *L = c->L;
  if (cfe_constant(L, i)) return (cfe_expr *)i;
  int v = prog_add_var(L->p, VAR_TEMP, "index", TY_INT);
  L->p->vars.items[v].ctype = cfe_ctype(L, i);
  const char *name = arena_printf(L->u->arena, "$%d", v); /* a name no C code can spell */
  ir_expr *value = cfe_lower_int(L, i);
  vec_push(NULL, &c->temps, v);
  vec_push(NULL, &c->values, value);
  cfe_bind(L, name, v);
  return node(L, (cfe_expr){.kind = CE_NAME, .at = i->at, .name = name, .depth = 1, .ctype = i->ctype});
}

/* Object e with its indices fixed (fixed_index); NULL after reporting a
 * form that is not an object. A dereference's pointer must be a variable:
 * the copy writes no pointer. */
static const cfe_expr *fixed(copier *c, const cfe_expr *e) {
  cfe_lowering *L = c->L;
  if (e->kind == CE_NAME) {
    const cfe_binding *b = cfe_binding_of(L, e->name);
    if (b && b->var >= 0 && e->ctype.kind == CT_STRUCT) return not_an_object(c, e), NULL; /* a temporary */
    return e;
  }
  if (e->kind == CE_UNARY && e->op == CO_DEREF && e->a->kind == CE_NAME) return e;
  if (e->kind != CE_MEMBER && e->kind != CE_INDEX) return not_an_object(c, e), NULL;
  const cfe_expr *a = fixed(c, e->a);
  if (!a) return NULL;
  cfe_expr *copy = node(L, *e);
  copy->a = (cfe_expr *)a;
  if (e->kind == CE_INDEX) copy->b = fixed_index(c, e->b);
  return copy;
}

static const cfe_expr *member(copier *c, const cfe_expr *of, const cfe_field *f) {
  return node(c->L, (cfe_expr){.kind = CE_MEMBER, .at = of->at, .a = (cfe_expr *)of, .name = f->name,
                               .name_at = of->at, .depth = of->depth + 1, .ctype = f->type});
}

static const cfe_expr *element(copier *c, const cfe_expr *of, int64_t k, const cfe_type *elem) {
  cfe_expr *i = node(c->L, (cfe_expr){.kind = CE_INT, .at = of->at, .value = k, .depth = 1,
                                      .ctype = {.kind = CT_INT, .bits = 64}});
  return node(c->L, (cfe_expr){.kind = CE_INDEX, .at = of->at, .a = (cfe_expr *)of, .b = i,
                               .depth = of->depth + 1, .ctype = *elem});
}

static void leaves(copier *c, const cfe_type *t, const cfe_expr *dst, const cfe_expr *src);

/* Lowers the leaves of the member that unions dst and src of type t are
 * used through (the destination's, else the source's; the leaves' accesses
 * report a union used through two). When no access or binding has decided
 * it, the first pass asks for a second one, which knows the accesses that
 * follow the copy. */
static void union_member(copier *c, const cfe_type *t, const cfe_expr *dst, const cfe_expr *src) {
  cfe_lowering *L = c->L;
  const char *m = cfe_union_member(L, dst);
  if (!m) m = cfe_union_member(L, src);
  vec_foreach(&t->record->fields, i)
    if (t->record->fields.items[i].name == m) {
      const cfe_field *f = &t->record->fields.items[i];
      leaves(c, &f->type, member(c, dst, f), member(c, src, f));
      return;
    }
  c->ok = false;
  if (!L->ptr->frozen) L->ptr->again = true;
  else
    cfe_error(L->u, c->at,
              "unsupported copy of a union that is never used through a member: athread copies the member the code "
              "uses or the spec binds (copy a member instead: 'DST.MEMBER = SRC.MEMBER;')");
}

/* Lowers the leaves of type t under dst and src: each one's place and value. */
static void leaves(copier *c, const cfe_type *t, const cfe_expr *dst, const cfe_expr *src) {
  cfe_lowering *L = c->L;
  if (!c->ok) return;
  if (t->kind == CT_STRUCT && t->record->is_union) {
    union_member(c, t, dst, src);
  } else if (t->kind == CT_STRUCT) {
    vec_foreach(&t->record->fields, i) {
      const cfe_field *f = &t->record->fields.items[i];
      leaves(c, &f->type, member(c, dst, f), member(c, src, f));
    }
  } else if (t->kind == CT_ARRAY) {
    for (int64_t k = 0; k < t->length && c->ok; k++) leaves(c, t->elem, element(c, dst, k, t->elem), element(c, src, k, t->elem));
  } else if (c->places.len == MAX_COPY_LEAVES) {
    cfe_error(L->u, c->at, "unsupported copy of a struct of more than %d scalar parts", MAX_COPY_LEAVES);
    c->ok = false;
  } else {
    int before = L->u->errors;
    cfe_place pl = cfe_lower_place(L, dst);
    ir_expr *v = cfe_lower_value(L, src);
    c->ok = L->u->errors == before && (pl.var >= 0 || pl.cells);
    vec_push(NULL, &c->places, pl);
    vec_push(NULL, &c->leaves, v);
    vec_push(NULL, &c->from, cfe_ctype(L, src));
  }
}

/* The edges that set the index temporaries (after the checks their values need). */
static int set_temps(copier *c, int cur) {
  vec_foreach(&c->temps, i) cur = cfe_set_temp(c->L, cur, c->temps.items[i], c->values.items[i], c->at);
  return cur;
}

/* The edges that store the leaves (after the checks their places need); returns the boundary after them. */
static int emit(copier *c, int cur) {
  cfe_lowering *L = c->L;
  if (c->places.len == 0) return cfe_store_part(L, cur, (cfe_place){-1, NULL}, NULL, (ir_ctype){0}, c->at, true);
  vec_foreach(&c->places, i) {
    bool last = i + 1 == c->places.len;
    cur = cfe_store_part(L, cur, c->places.items[i], c->leaves.items[i], c->from.items[i], c->at, last);
    if (!last) L->p->locs.items[cur].split = true; /* --atomicity access: each leaf its own step */
  }
  return cur;
}

int cfe_copy_struct(cfe_lowering *L, const cfe_expr *dst, const cfe_expr *src, cfe_pos at, int cur) {
  copier c = {.L = L, .at = at, .ok = true};
  const cfe_expr *d = fixed(&c, dst), *s = d ? fixed(&c, src) : NULL;
  int start = cur;
  if (d && s) cur = set_temps(&c, cur);
  if (d && s) leaves(&c, &dst->ctype, d, s);
  cur = c.ok ? emit(&c, cur) : start;
  L->pending.temps.len = L->pending.checks.len = 0; /* after an error: what the copy would have done first */
  vec_free(&c.temps);
  vec_free(&c.values);
  vec_free(&c.places);
  vec_free(&c.leaves);
  vec_free(&c.from);
  return cur;
}
