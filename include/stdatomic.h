/* stdatomic.h -- athread's own <stdatomic.h>. The C front end puts this
 * directory first on the include path, so that under __ATHREAD__ the
 * generic functions of C11 atomics are ordinary functions of atomic_int
 * (the C library's header makes them compiler builtins), which take the
 * models of athread/models/stdatomic.h. The atomic integer types are their
 * integer types: the models make each operation one step. Without __ATHREAD__ it
 * defers to the next <stdatomic.h> on the path, if any (clang's own header
 * includes the next one, which is this one when athread reads C values).
 */
#if defined(__ATHREAD__) || !__has_include_next(<stdatomic.h>)
#ifndef ATHREAD_STDATOMIC_H
#define ATHREAD_STDATOMIC_H

typedef enum memory_order {
  memory_order_relaxed,
  memory_order_consume,
  memory_order_acquire,
  memory_order_release,
  memory_order_acq_rel,
  memory_order_seq_cst
} memory_order;

typedef int atomic_int;
typedef unsigned atomic_uint;
typedef long atomic_long;
typedef unsigned long atomic_ulong;
typedef long long atomic_llong;
typedef unsigned long long atomic_ullong;
typedef short atomic_short;
typedef unsigned short atomic_ushort;
typedef char atomic_char;
typedef unsigned char atomic_uchar;

#define ATOMIC_VAR_INIT(value) (value)

/* The generic functions, for atomic integers (include/athread/models/stdatomic.h models them). */
int atomic_load(atomic_int *object);
int atomic_load_explicit(atomic_int *object, memory_order order);
void atomic_store(atomic_int *object, int desired);
void atomic_store_explicit(atomic_int *object, int desired, memory_order order);
int atomic_fetch_add(atomic_int *object, int operand);
int atomic_fetch_add_explicit(atomic_int *object, int operand, memory_order order);
int atomic_fetch_sub(atomic_int *object, int operand);
int atomic_fetch_sub_explicit(atomic_int *object, int operand, memory_order order);
int atomic_exchange(atomic_int *object, int desired);
int atomic_exchange_explicit(atomic_int *object, int desired, memory_order order);
int atomic_compare_exchange_strong(atomic_int *object, int *expected, int desired);
int atomic_compare_exchange_weak(atomic_int *object, int *expected, int desired);
void atomic_thread_fence(memory_order order);
void atomic_signal_fence(memory_order order);

#endif
#else
#include_next <stdatomic.h>
#endif
