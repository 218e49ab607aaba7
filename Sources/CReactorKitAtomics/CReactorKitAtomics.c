// The header holds everything (`static inline`); this file checks the layout it relies on.
#include "CReactorKitAtomics.h"

_Static_assert(sizeof(_Atomic(intptr_t)) == sizeof(intptr_t), "atomic word size");
_Static_assert(_Alignof(_Atomic(intptr_t)) == _Alignof(intptr_t), "atomic word alignment");
_Static_assert(sizeof(_Atomic(int64_t)) == sizeof(int64_t), "atomic int64 size");
_Static_assert(_Alignof(_Atomic(int64_t)) == _Alignof(int64_t), "atomic int64 alignment");
_Static_assert(ATOMIC_POINTER_LOCK_FREE == 2, "lock-free word atomics");
_Static_assert(ATOMIC_LLONG_LOCK_FREE == 2, "lock-free 64-bit atomics");
