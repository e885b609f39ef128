/* compose/model.c -- the generic half of the next-state interface: accessors,
 * dispatch to the provider. */
#include "model-impl.h"

#include <stdio.h>

size_t mdl_width(const mdl *m) { return m->width; }

const mdl_slot *mdl_slot_at(const mdl *m, size_t i) { return &m->slots[i]; }

const mdl_group *mdl_groups(const mdl *m, size_t *count) {
  *count = m->group_count;
  return m->groups;
}

void mdl_initial(const mdl *m, mdl_state_fn fn, void *ctx, mdl_fault *fault) { m->ops->initial(m, fn, ctx, fault); }

void mdl_next_all(const mdl *m, const int64_t *src, mdl_next_fn fn, void *ctx, mdl_fault *fault) {
  m->ops->next_all(m, src, fn, ctx, fault);
}

bool mdl_check(const mdl *m, const int64_t *state, mdl_violation *why, mdl_fault *fault) {
  return m->ops->check(m, state, why, fault);
}

bool mdl_initial_holds(const mdl *m, const int64_t *state) { return m->ops->initial_holds(m, state); }

bool mdl_step_holds(const mdl *m, const int64_t *src, const mdl_step *step, const int64_t *dst) {
  return m->ops->step_holds(m, src, step, dst);
}

void mdl_describe_step(const mdl *m, const mdl_step *step, strbuf *out) { m->ops->describe_step(m, step, out); }

loc mdl_step_at(const mdl *m, const mdl_step *step) { return m->ops->step_at(m, step); }

void mdl_describe_value(const mdl *m, size_t slot, int64_t value, strbuf *out) {
  m->ops->describe_value(m, slot, value, out);
}

void mdl_describe_violation(const mdl *m, const mdl_violation *why, strbuf *out) {
  m->ops->describe_violation(m, why, out);
}

mdl_compiling mdl_compile(const mdl *m, bool wait, char *why, size_t why_size) {
  if (m->ops->compile) return m->ops->compile(m, wait, why, why_size);
  snprintf(why, why_size, "this model has no compiled form");
  return MDL_INTERPRETED;
}

void mdl_free(mdl *m) {
  if (m) m->ops->destroy(m);
}

mdl_symbolic *mdl_symbolic_new(const mdl *m, smt *s) { return m->ops->symbolic ? m->ops->symbolic(m, s) : NULL; }

void mdl_symbolic_free(mdl_symbolic *f) {
  if (f) f->destroy(f);
}
