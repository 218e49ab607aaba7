// Four entry points of the Swift runtime's reference counting, for `UnownedAddress`
// (ReactorKitStreams, Internal/Synchronization/UnownedAddress.swift): an object's unowned
// count, which keeps its memory allocated after its deinitialiser, and a retain that fails
// once the deinitialiser has begun. libswiftCore exports them on every platform (part of the
// stable ABI), with these C signatures (`HeapObject *` written `void *`).
#ifndef C_REACTORKIT_RUNTIME_H
#define C_REACTORKIT_RUNTIME_H

#include <stdbool.h>
#include <stddef.h>

void *_Nonnull swift_unownedRetain(void *_Nonnull object);
void swift_unownedRelease(void *_Nonnull object);
// Returns the object, retained, or NULL once its deinitialiser has begun.
void *_Nullable swift_tryRetain(void *_Nonnull object);

/// Adds one to the unowned count of the native Swift object at `object`.
static inline __attribute__((always_inline)) void rk_runtime_unowned_retain(
  void *_Nonnull object) {
  (void)swift_unownedRetain(object);
}

/// Takes one from the unowned count of the native Swift object at `object`; the last one
/// frees its memory once it has been deinitialised.
static inline __attribute__((always_inline)) void rk_runtime_unowned_release(
  void *_Nonnull object) {
  swift_unownedRelease(object);
}

/// Retains the native Swift object at `object` unless its deinitialiser has begun; returns
/// whether it did. Its memory must be allocated (an unowned count held).
static inline __attribute__((always_inline)) bool rk_runtime_try_retain(void *_Nonnull object) {
  return swift_tryRetain(object) != NULL;
}

#endif
