/* cfront/cfront-models.c -- what a call names when the code has no
 * body for it: the body of its primitive model (athread_model_NAME, from
 * the headers of include/athread/models/, which cfe_parse reads with the
 * user's files), nothing at all for the library functions without effect on
 * shared state (printing, logging, initialisers), or an error naming it
 * once. Also the synchronization types
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
