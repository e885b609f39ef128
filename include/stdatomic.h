/* stdatomic.h -- athread's own <stdatomic.h>. The C front end puts this
 * directory first on the include path, so that under __ATHREAD__ the
 * generic functions of C11 atomics are ordinary calls (the C library's
 * header makes them compiler builtins), which take the models of
 * athread/models/stdatomic.h. The atomic integer types are their integer
 * types: the models make each operation one step. Without __ATHREAD__ it
 * defers to the C library's header.
 */
#ifdef __ATHREAD__
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

#endif
#else
#include_next <stdatomic.h>
#endif
