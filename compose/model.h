/* compose/model.h -- the next-state interface between models and engines
 * (in the spirit of LTSmin's PINS).
 *
 * A model is opaque: engines see a state as a fixed-width vector of int64
 * slots, enumerate initial states and successors through callbacks, ask
 * whether a state goes wrong, and learn which instances are interchangeable
 * (a provider reduces by them itself: the product's counted view stores them
 * as counts). Providers: the product of abstract threads (model-product.c);
 * later KISS and thread-modular models. Users: the explicit engine (states
 * one by one) and the symbolic engine (the symbolic face, mdl_symbolic_new:
 * the same system as Z3 formulas). A model owns everything it returns (slot names,
 * descriptions); free it with mdl_free.
 */
#ifndef ATHREAD_MODEL_H
#define ATHREAD_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../core/diag.h"
#include "../core/ir.h"
#include "../core/strbuf.h"
#include "symbolic.h"

typedef struct mdl mdl;

typedef enum mdl_slot_kind { SLOT_SHARED, SLOT_INSTANCE, SLOT_COUNT } mdl_slot_kind;

typedef struct mdl_slot {
  mdl_slot_kind kind; /* a shared variable, an instance's control state, or how many instances are in one */
  const char *name;   /* "pendingIO", "Worker[2]", "count(Worker@Busy)" */
  bool bounded;       /* lo..hi is the whole domain (false: unbounded int) */
  bool is_bool;       /* values 0 and 1, printed false/true */
  int64_t lo, hi;     /* the domain when bounded */
  int thread;         /* SLOT_INSTANCE, SLOT_COUNT: index of its thread in the spec */
  int state;          /* SLOT_COUNT: the control state whose instances it counts */
} mdl_slot;

/* One step: which instance (its slot) took which edge of its thread; in a
 * model with counts, one of the instances counted in slot. */
typedef struct mdl_step {
  int slot; /* the instance's slot */
  int edge; /* edge index in its thread */
} mdl_step;

/* Instances [first, first + count) are interchangeable. */
typedef struct mdl_group {
  int first; /* first slot */
  int count; /* number of slots */
} mdl_group;

typedef enum mdl_verdict_kind {
  MDL_OK,
  MDL_ASSERTION, /* a state's assertion is false */
  MDL_INVARIANT, /* a thread invariant is false */
  MDL_PROPERTY,  /* a system invariant is false */
  MDL_BOUNDS,    /* an array index is outside its array */
  MDL_CONFLICT   /* two assignments of an edge write one element */
} mdl_verdict_kind;

/* Why a state goes wrong. */
typedef struct mdl_violation {
  mdl_verdict_kind kind; /* MDL_OK when it does not */
  int slot;              /* the instance that goes wrong, or -1 (a system invariant) */
  int state;             /* with slot: its control state */
  const ir_expr *failed; /* the assertion or invariant; MDL_BOUNDS: the element a[i]; MDL_CONFLICT: the second target */
  const ir_expr *context; /* MDL_BOUNDS: the assertion or invariant the element is in, or NULL (an edge);
                             MDL_CONFLICT: the first target */
  int edge;               /* MDL_BOUNDS, MDL_CONFLICT: the edge (in the instance's thread) it is in, or -1 */
  int64_t value;          /* MDL_BOUNDS: the index; MDL_CONFLICT: the element both targets name */
} mdl_violation;

typedef void (*mdl_state_fn)(void *ctx, const int64_t *state);
typedef void (*mdl_next_fn)(void *ctx, const mdl_step *step, const int64_t *dst);

/* Evaluation problems found while exploring (reported as verdict unknown). */
typedef enum mdl_fault { MDL_FAULT_NONE, MDL_FAULT_OVERFLOW } mdl_fault;

size_t mdl_width(const mdl *m);
/* Slot i; the slots are one array (mdl_slot_at(m, 0) + i is slot i). */
const mdl_slot *mdl_slot_at(const mdl *m, size_t i);
/* The interchangeable instances (empty when reduction is off or nothing is
 * symmetric). */
const mdl_group *mdl_groups(const mdl *m, size_t *count);

/* The next three record the first evaluation fault they meet in *fault
 * (left alone when there is none): the caller's record, so a model is never
 * written while it is explored. */
/* Calls fn on every initial state. */
void mdl_initial(const mdl *m, mdl_state_fn fn, void *ctx, mdl_fault *fault);
/* Calls fn on every successor of src, one call per (step, successor). */
void mdl_next_all(const mdl *m, const int64_t *src, mdl_next_fn fn, void *ctx, mdl_fault *fault);
/* Fills why and returns false when state goes wrong. */
bool mdl_check(const mdl *m, const int64_t *state, mdl_violation *why, mdl_fault *fault);
/* True when state is an initial state of the model (false when checking it
 * meets a fault). */
bool mdl_initial_holds(const mdl *m, const int64_t *state);
/* True when dst is a successor of src by step (for re-checking traces that
 * another engine produced; false when checking it meets a fault). */
bool mdl_step_holds(const mdl *m, const int64_t *src, const mdl_step *step, const int64_t *dst);

/* Appends "S1 -> S2 \"label\"" for a step. */
void mdl_describe_step(const mdl *m, const mdl_step *step, strbuf *out);
/* Where the step's edge is written in the spec ("A -> B"). */
loc mdl_step_at(const mdl *m, const mdl_step *step);
/* Appends the name of a slot's value: "true", "3", or a state name. */
void mdl_describe_value(const mdl *m, size_t slot, int64_t value, strbuf *out);
/* Appends a description of a violation: "Worker[2] goes wrong in state Work: assertion !stopped is false". */
void mdl_describe_violation(const mdl *m, const mdl_violation *why, strbuf *out);
void mdl_free(mdl *m);
/* Where compiling a model stands (mdl_compile). */
typedef enum mdl_compiling {
  MDL_INTERPRETED, /* m stays as it was: why says why */
  MDL_COMPILING,   /* the compiler runs: ask again later */
  MDL_COMPILED,    /* m's successors and checks run compiled from now on */
} mdl_compiling;

/* Makes m's successors and checks faster, the same in meaning: the product
 * writes them as C and has the system's compiler compile them in the
 * background (model-compiled.h). The first call starts the compiler; each
 * call looks whether it is done, and with wait waits until it is, then
 * switches m to the compiled form. Only between searches' uses of m, never
 * while another thread explores it. mdl_free stops a compiler still running. */
mdl_compiling mdl_compile(const mdl *m, bool wait, char *why, size_t why_size);

/* The symbolic face of a model: the system over Z3 terms, and the model step
 * each numbered step of it stands for (so that a trace Z3 finds reads as the
 * explicit engine's). */
typedef struct mdl_symbolic {
  sym_system sys;        /* the formulas (sys.ctx is the provider's) */
  const mdl_step *steps; /* per step number: the instance and its edge */
  void (*destroy)(struct mdl_symbolic *f);
} mdl_symbolic;

/* The symbolic face of m in s's context, or NULL when m has none (a
 * product's counted view); borrows m and s (both must outlive it). Free with
 * mdl_symbolic_free. */
mdl_symbolic *mdl_symbolic_new(const mdl *m, smt *s);
void mdl_symbolic_free(mdl_symbolic *f);

#endif
