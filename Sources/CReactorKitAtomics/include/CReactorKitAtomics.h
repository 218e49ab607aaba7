// Atomic operations on plain integers, for `UnsafeAtomic` (ReactorKitStreams,
// Internal/Synchronization/Atomics.swift). C11 <stdatomic.h>, one `static inline` function
// per operation and width: Swift compiles them into the calling code, so once the ordering
// argument is a constant each call is the one machine instruction it names.
//
// The functions take pointers to plain integers and access them as the `_Atomic` type of the
// same width (same size and alignment, checked in CReactorKitAtomics.c). Memory that one of
// these functions touches must only ever be touched through them.
#ifndef C_REACTORKIT_ATOMICS_H
#define C_REACTORKIT_ATOMICS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

// The runtime's reference-count entry points (`UnownedAddress`).
#include "CReactorKitRuntime.h"

/// The C11 memory orders, as Swift sees them.
typedef enum __attribute__((enum_extensibility(closed))) {
  RKAtomicOrderRelaxed = memory_order_relaxed,
  RKAtomicOrderAcquire = memory_order_acquire,
  RKAtomicOrderRelease = memory_order_release,
  RKAtomicOrderAcquireRelease = memory_order_acq_rel,
  RKAtomicOrderSequentiallyConsistent = memory_order_seq_cst,
} RKAtomicOrder;

#define RK_ATOMIC_INLINE static inline __attribute__((always_inline))

// A read-modify-write `operation` of C11 (`exchange`, `fetch_add`, …) as
// `rk_atomic_<name>_<operation>`: returns the value it replaced.
#define RK_ATOMIC_UPDATE(name, type, operation)                                               \
  RK_ATOMIC_INLINE type rk_atomic_##name##_##operation(                                       \
    type *_Nonnull address, type value, RKAtomicOrder order) {                                \
    return atomic_##operation##_explicit((_Atomic(type) *)address, value, (memory_order)order); \
  }

#define RK_ATOMIC_OPERATIONS(name, type)                                                      \
  RK_ATOMIC_INLINE type rk_atomic_##name##_load(type *_Nonnull address, RKAtomicOrder order) { \
    return atomic_load_explicit((_Atomic(type) *)address, (memory_order)order);               \
  }                                                                                           \
  RK_ATOMIC_INLINE void rk_atomic_##name##_store(                                             \
    type *_Nonnull address, type value, RKAtomicOrder order) {                                \
    atomic_store_explicit((_Atomic(type) *)address, value, (memory_order)order);              \
  }                                                                                           \
  /* Returns the value found: it exchanged if and only if that is `expected`. (Returning */ \
  /* it, rather than writing through a pointer, keeps Swift's stack protector out.) */        \
  RK_ATOMIC_INLINE type rk_atomic_##name##_compare_exchange(                                  \
    type *_Nonnull address, type expected, type desired, RKAtomicOrder success,               \
    RKAtomicOrder failure) {                                                                  \
    atomic_compare_exchange_strong_explicit(                                                  \
      (_Atomic(type) *)address, &expected, desired, (memory_order)success,                    \
      (memory_order)failure);                                                                 \
    return expected;                                                                          \
  }                                                                                           \
  RK_ATOMIC_UPDATE(name, type, exchange)                                                      \
  RK_ATOMIC_UPDATE(name, type, fetch_add)                                                     \
  RK_ATOMIC_UPDATE(name, type, fetch_sub)                                                     \
  RK_ATOMIC_UPDATE(name, type, fetch_or)                                                      \
  RK_ATOMIC_UPDATE(name, type, fetch_and)                                                     \
  RK_ATOMIC_UPDATE(name, type, fetch_xor)

// Words (intptr_t: Swift's Int, and UInt, Bool, UInt8 stored in a word) and 64-bit integers
// (int64_t, 64 bits on every platform, including watchOS's arm64_32).
RK_ATOMIC_OPERATIONS(word, intptr_t)
RK_ATOMIC_OPERATIONS(int64, int64_t)

/// Process-wide atomic words, for counters that live for the whole process. (A Swift global
/// needs a lazy initialiser, checked on every access, to hold an object, and gets a fixed
/// address only through an `inout` access, which the thread sanitizer reports as a race.)
/// Word 0: `Resources.total`.
extern intptr_t rk_atomic_global_words[4];

/// The address of process-wide word `index` (0 to 3).
RK_ATOMIC_INLINE intptr_t *_Nonnull rk_atomic_global_word(int index) {
  return &rk_atomic_global_words[index];
}

#undef RK_ATOMIC_OPERATIONS
#undef RK_ATOMIC_UPDATE
#undef RK_ATOMIC_INLINE

#endif
