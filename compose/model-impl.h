/* compose/model-impl.h -- what a model provider fills in. Private to
 * compose/: engines include model.h only.
 *
 * A provider allocates a struct that starts with `struct mdl`, sets ops, the
 * slot table and the interchangeable instances (groups), and frees all of it in ops->destroy.
 */
#ifndef ATHREAD_MODEL_IMPL_H
#define ATHREAD_MODEL_IMPL_H

#include "model.h"

typedef struct mdl_ops {
  void (*initial)(const mdl *m, mdl_state_fn fn, void *ctx, mdl_fault *fault);
  void (*next_all)(const mdl *m, const int64_t *src, mdl_next_fn fn, void *ctx, mdl_fault *fault);
  bool (*check)(const mdl *m, const int64_t *state, mdl_violation *why, mdl_fault *fault);
  bool (*initial_holds)(const mdl *m, const int64_t *state);
  bool (*step_holds)(const mdl *m, const int64_t *src, const mdl_step *step, const int64_t *dst);
  void (*describe_step)(const mdl *m, const mdl_step *step, strbuf *out);
  loc (*step_at)(const mdl *m, const mdl_step *step);
  void (*describe_value)(const mdl *m, size_t slot, int64_t value, strbuf *out);
  void (*describe_violation)(const mdl *m, const mdl_violation *why, strbuf *out);
  void (*destroy)(mdl *m);
  mdl_symbolic *(*symbolic)(const mdl *m, smt *s);
  mdl_compiling (*compile)(const mdl *m, bool wait, char *why, size_t why_size);
} mdl_ops;

struct mdl {
  const mdl_ops *ops; /* the provider's functions */
  size_t width;       /* slots in a state */
  mdl_slot *slots;    /* width entries, owned by the provider */
  mdl_group *groups;  /* interchangeable instances, owned by the provider */
  size_t group_count; /* entries in groups */
};

#endif
