/* cfront/cfront-models.c -- what a call names when the code has no
 * body for it: the body of its primitive model (athread_model_NAME, from
 * the headers of include/athread/models/, which cfe_parse reads with the
 * user's files), nothing at all for the library functions without effect on
 * shared state (printing, logging, initialisers), or an error naming it
 * once. The thread APIs a checked creator calls (pthread_create,
 * pthread_join, pthread_detach) reach their models with only the handle
 * that the step writes: the other arguments go to the new thread or come
 * back from it, and are not evaluated. Also the synchronization types
 * that models act on, recognised by name (as cfront/types.c does), whatever
 * their C definition: pthread_mutex_t is a union in glibc, spinlock_t a
 * struct in Linux, KSPIN_LOCK an integer in the WDK. */
#include <string.h>

#include "c-ast.h"

/* ---------------------------------------------------------------- synchronization types */

/* Types whose objects a spec binds a cell to: the cell's C type. */
static const struct {
  const char *name;   /* typedef or struct tag */
  cfe_type_kind kind; /* CT_BOOL: held (locks) or signaled (events); CT_INT: a count or nothing */
} sync_names[] = {
    {"pthread_mutex_t", CT_BOOL},
    {"pthread_spinlock_t", CT_BOOL},
    {"spinlock_t", CT_BOOL},
    {"raw_spinlock_t", CT_BOOL},
    {"mutex", CT_BOOL},
    {"mtx_t", CT_BOOL},
    {"KSPIN_LOCK", CT_BOOL},
    {"FAST_MUTEX", CT_BOOL},
    {"KMUTEX", CT_BOOL},
    {"KGUARDED_MUTEX", CT_BOOL},
    {"CRITICAL_SECTION", CT_BOOL},
    {"KEVENT", CT_BOOL},
    {"sem_t", CT_INT},
    {"pthread_cond_t", CT_INT},
    {"cnd_t", CT_INT},
    {"pthread_attr_t", CT_INT}, /* no state: only the no-op pthread_attr_* calls and pthread_create's ignored
                                   argument take it */
};

bool cfe_sync_type(const char *name, cfe_type *out) {
  for (size_t i = 0; name && i < sizeof sync_names / sizeof *sync_names; i++)
    if (strcmp(name, sync_names[i].name) == 0) {
      *out = (cfe_type){.kind = sync_names[i].kind, .at = {.file = -1}};
      return true;
    }
  return false;
}

/* ---------------------------------------------------------------- functions without effect */

/* Library functions that touch no shared state the spec can see: a call is
 * no step and its arguments are not evaluated. */
static const char *const noop_names[] = {
    /* printing */
    "printf",
    "fprintf",
    "sprintf",
    "snprintf",
    "puts",
    "fputs",
    "putchar",
    "fflush",
    "perror",
    /* logging */
    "DbgPrint",
    "DbgPrintEx",
    "KdPrint",
    "printk",
    "pr_info",
    "pr_err",
    "pr_warn",
    "pr_debug",
    "syslog",
    /* initialisers and destructors of synchronization objects: the spec gives the initial values */
    "pthread_mutex_init",
    "pthread_mutex_destroy",
    "pthread_spin_init",
    "pthread_spin_destroy",
    "pthread_cond_init",
    "pthread_cond_destroy",
    "sem_init",
    "sem_destroy",
    "pthread_mutexattr_init",
    "pthread_mutexattr_destroy",
    "spin_lock_init",
    "mutex_init",
    "mutex_destroy",
    "KeInitializeSpinLock",
    "KeInitializeEvent",
    "ExInitializeFastMutex",
    "InitializeCriticalSection",
    "DeleteCriticalSection",
    "mtx_init",
    "mtx_destroy",
    "cnd_init",
    "cnd_destroy",
    /* thread attributes: what they set (stack size, detach state) changes no behaviour the spec can see */
    "pthread_attr_init",
    "pthread_attr_destroy",
    "pthread_attr_setdetachstate",
    "pthread_attr_setstacksize",
    "pthread_attr_setscope",
    /* scheduling hints */
    "sched_yield",
    "pthread_yield",
    "cpu_relax",
    "YieldProcessor",
    "KeStallExecutionProcessor",
    "usleep",
    "sleep",
};

bool cfe_noop_function(const char *name) {
  for (size_t i = 0; i < sizeof noop_names / sizeof *noop_names; i++)
    if (strcmp(name, noop_names[i]) == 0) return true;
  return false;
}

/* ---------------------------------------------------------------- callees */

/* The function x if it has a body. */
static const cfe_func *body_of(const cfe_lowering *L, const cfe_entity *x) {
  return x && x->kind == ENT_FUNC && L->u->funcs.items[x->index]->body ? L->u->funcs.items[x->index] : NULL;
}

/* The length of name without the operand size clang gives GCC's builtins
 * (__sync_fetch_and_add_4 is __sync_fetch_and_add on 4 bytes). */
static int generic_length(const char *name) {
  size_t n = strlen(name);
  if (strncmp(name, "__sync_", 7) != 0 && strncmp(name, "__atomic_", 9) != 0) return (int)n;
  static const char *const sizes[] = {"_1", "_2", "_4", "_8", "_16"};
  for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
    size_t k = strlen(sizes[i]);
    if (n > k && strcmp(name + n - k, sizes[i]) == 0) return (int)(n - k);
  }
  return (int)n;
}

/* The function with a body of the code's own, else its model athread_model_NAME, else NULL. */
static const cfe_func *with_body(const cfe_lowering *L, const cfe_entity *x, const char *name) {
  const cfe_func *f = body_of(L, x);
  if (f) return f;
  char *model = arena_printf(L->u->arena, "athread_model_%.*s", generic_length(name), name);
  return body_of(L, cfe_lookup(L->u, arena_intern_cstr(L->u->arena, model)));
}

/* A call to a declared function that has neither a body nor a model: said once per function. */
static void no_model(cfe_lowering *L, const cfe_expr *call, const cfe_entity *x) {
  static const char *const heap[] = {"malloc", "calloc", "realloc", "free", "kmalloc", "kzalloc", "kfree",
                                     "ExAllocatePool", "ExAllocatePoolWithTag", "ExFreePool"};
  if (symtab_put(&L->reported, call->name, 1) >= 0) return;
  for (size_t i = 0; i < sizeof heap / sizeof *heap; i++)
    if (strcmp(call->name, heap[i]) == 0) {
      cfe_error(L->u, call->name_at,
                "unsupported heap object: '%s' is not modelled yet (make the object a global, or a field of one, "
                "and bind it to the spec)",
                call->name);
      return;
    }
  cfe_error(L->u, call->name_at,
            "call to '%s', which has no body and no model (give it a body, or write a model: see "
            "include/athread/models/pthread.h)",
            call->name);
  if (x && x->kind == ENT_FUNC)
    cfe_note(L->u, L->u->funcs.items[x->index]->name_at, "'%s' is declared here", call->name);
}

const cfe_func *cfe_callee(cfe_lowering *L, const cfe_expr *call) {
  cfe_entity *x = cfe_lookup(L->u, call->name);
  const cfe_func *f = with_body(L, x, call->name);
  if (f) return f;
  if (x && x->kind != ENT_FUNC && x->kind != ENT_SYSTEM)
    cfe_error(L->u, call->name_at, "'%s' is not a function", call->name);
  else if (!x && symtab_put(&L->reported, call->name, 1) < 0)
    cfe_unknown_name(L, call->name, call->name_at, "function");
  else if (x) no_model(L, call, x);
  return NULL;
}

bool cfe_noop_call(const cfe_lowering *L, const cfe_expr *call) {
  return !with_body(L, cfe_lookup(L->u, call->name), call->name) && cfe_noop_function(call->name);
}

/* ---------------------------------------------------------------- thread APIs */

/* The thread APIs of a checked creator: the argument the model takes (the
 * handle, or for pthread_create the address the step writes it to), and the
 * argument that must be NULL (where the thread's result would be stored), or -1. */
static const struct {
  const char *name;
  int handle;
  int null;
} thread_calls[] = {
    {"pthread_create", 0, -1},
    {"pthread_join", 0, 1},
    {"pthread_detach", 0, -1},
};

static int thread_call(const char *name) {
  for (size_t i = 0; i < sizeof thread_calls / sizeof *thread_calls; i++)
    if (strcmp(name, thread_calls[i].name) == 0) return (int)i;
  return -1;
}

/* An object named without evaluating anything that can fail: a variable,
 * its fields, and its elements at constant indices within the array (or
 * just past its end, which C lets an address name). */
static bool fixed_object(const cfe_lowering *L, const cfe_expr *e) {
  int64_t k;
  switch (e->kind) {
  case CE_NAME: return true;
  case CE_MEMBER: return fixed_object(L, e->a);
  case CE_INDEX:
    return e->a->ctype.kind == CT_ARRAY && cfe_constant(L, e->b) && cfe_const_value(L->u, e->b, &k) && k >= 0 &&
           k <= e->a->ctype.length && fixed_object(L, e->a);
  default: return false;
  }
}

/* An argument whose evaluation can neither fail nor change anything, so
 * that leaving it out loses no behaviour of the C code: a constant, a fixed
 * object (a function's name too) or its address, and casts of these. Side
 * effects are already run before the call (the sequencing of
 * cfront-sequence.c). */
static bool harmless(const cfe_lowering *L, const cfe_expr *e) {
  int64_t v;
  switch (e->kind) {
  case CE_INT: return true;
  case CE_NAME:
  case CE_MEMBER:
  case CE_INDEX: return fixed_object(L, e);
  case CE_CAST: return harmless(L, e->a);
  case CE_UNARY:
    if (e->op == CO_ADDR) return fixed_object(L, e->a);
    return cfe_constant(L, e) && cfe_const_value(L->u, e, &v);
  default: return cfe_constant(L, e) && cfe_const_value(L->u, e, &v);
  }
}

static bool null_pointer(const cfe_lowering *L, const cfe_expr *e) {
  int64_t v;
  while (e->kind == CE_CAST) e = e->a;
  return cfe_constant(L, e) && cfe_const_value(L->u, e, &v) && v == 0;
}

/* The global variable an object expression is part of, or NULL for a local (or anything else). */
static const char *global_root(const cfe_lowering *L, const cfe_expr *e) {
  while (e->kind == CE_MEMBER || e->kind == CE_INDEX) e = e->a;
  if (e->kind != CE_NAME || cfe_binding_of(L, e->name)) return NULL;
  const cfe_entity *x = cfe_lookup(L->u, e->name);
  return x && x->kind == ENT_GLOBAL ? e->name : NULL;
}

/* Does a shared variable of the spec stand for global g or a part of it? */
static bool bound_global(const cfe_lowering *L, const char *g) {
  size_t n = strlen(g);
  vec_foreach(&L->spec->shared, i) {
    const char *path = ast_c_name(L->spec->shared.items[i]);
    if (strncmp(path, g, n) == 0 && (path[n] == 0 || path[n] == '.' || path[n] == '[')) return true;
  }
  return false;
}

/* Does the model take the handle argument (&t, or t)? A local's, and a
 * global's that a shared variable stands for; any other global handle is
 * not written or read: no code that the front end lowers may read it (it is
 * not a shared variable), so its value is never observed. */
static bool modelled_handle(const cfe_lowering *L, const cfe_expr *arg) {
  while (arg->kind == CE_CAST) arg = arg->a;
  if (arg->kind == CE_UNARY && arg->op == CO_ADDR) arg = arg->a;
  else if (arg->kind != CE_NAME && arg->kind != CE_MEMBER && arg->kind != CE_INDEX) return true; /* a pointer */
  const char *g = global_root(L, arg);
  return !g || bound_global(L, g);
}

/* Reports argument i of a thread API call that the model does not take; true when it is fine. */
static bool ignored_argument(cfe_lowering *L, const cfe_expr *call, int api, size_t i) {
  const cfe_expr *arg = call->args.items[i];
  if ((int)i == thread_calls[api].null) {
    if (null_pointer(L, arg)) return true;
    cfe_error(L->u, arg->at,
              "unsupported result pointer of '%s': the thread's result is not modelled (pass NULL, and give the "
              "result through a global)",
              call->name);
    return false;
  }
  if (harmless(L, arg)) return true;
  cfe_error(L->u, arg->at,
            "unsupported argument of '%s': athread leaves it out (a started thread is the spec's instance, "
            "which runs from the start; a join changes nothing), so it must be a constant, a variable, a field, an "
            "element at a constant index within its array, or the address of one (store other values into a local "
            "first)",
            call->name);
  return false;
}

/* A 0 (NULL) of arg's type in arg's place: the model then writes no handle. */
static cfe_expr *null_in_place_of(cfe_lowering *L, const cfe_expr *arg) {
  cfe_expr *e = arena_alloc(L->u->arena, sizeof *e);
  *e = (cfe_expr){.kind = CE_INT, .at = arg->at, .depth = 1, .ctype = arg->ctype};
  return e;
}

const cfe_expr *cfe_thread_call(cfe_lowering *L, const cfe_expr *call) {
  int api = thread_call(call->name);
  if (api < 0 || body_of(L, cfe_lookup(L->u, call->name))) return call;
  cfe_expr *kept = arena_alloc(L->u->arena, sizeof *kept);
  *kept = *call;
  memset(&kept->args, 0, sizeof kept->args);
  bool ok = true;
  vec_foreach(&call->args, i) {
    const cfe_expr *arg = call->args.items[i];
    bool model_takes = (int)i == thread_calls[api].handle && modelled_handle(L, arg);
    if (!model_takes) ok = ignored_argument(L, call, api, i) && ok;
    if ((int)i == thread_calls[api].handle)
      vec_push(L->u->arena, &kept->args, model_takes ? (cfe_expr *)arg : null_in_place_of(L, arg));
  }
  return ok ? kept : NULL;
}
