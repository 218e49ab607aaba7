// The header holds the operations (`static inline`); this file defines the process-wide
// words and checks the layout the operations rely on.
#include "CReactorKitAtomics.h"

// `nodebug`: valgrind 3.19 (Benchmarks/callgrind.sh) cannot read the DWARF 5 that clang
// emits for it.
__attribute__((nodebug)) intptr_t rk_atomic_global_words[4] = {0, 0, 0, 0};

_Static_assert(sizeof(_Atomic(intptr_t)) == sizeof(intptr_t), "atomic word size");
_Static_assert(_Alignof(_Atomic(intptr_t)) == _Alignof(intptr_t), "atomic word alignment");
_Static_assert(sizeof(_Atomic(int64_t)) == sizeof(int64_t), "atomic int64 size");
_Static_assert(_Alignof(_Atomic(int64_t)) == _Alignof(int64_t), "atomic int64 alignment");
_Static_assert(ATOMIC_POINTER_LOCK_FREE == 2, "lock-free word atomics");
_Static_assert(ATOMIC_LLONG_LOCK_FREE == 2, "lock-free 64-bit atomics");
