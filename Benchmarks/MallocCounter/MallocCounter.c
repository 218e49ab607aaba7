// Counts heap allocations for the benchmarks by interposing the allocator on glibc: the
// executable's definitions of malloc and friends take precedence over libc's, and forward to
// glibc's internal entry points.
#include "MallocCounter.h"

#if defined(__linux__) && defined(__GLIBC__)
#define _GNU_SOURCE
#include <malloc.h>
#include <stdatomic.h>
#include <stddef.h>
#include <errno.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);

static _Atomic int64_t allocations = 0;
static _Atomic int64_t live_bytes = 0;

static void note_alloc(void *pointer) {
  if (pointer == NULL) return;
  atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
  atomic_fetch_add_explicit(&live_bytes, (int64_t)malloc_usable_size(pointer),
                            memory_order_relaxed);
}

static void note_free(void *pointer) {
  if (pointer == NULL) return;
  atomic_fetch_sub_explicit(&live_bytes, (int64_t)malloc_usable_size(pointer),
                            memory_order_relaxed);
}

void *malloc(size_t size) {
  void *pointer = __libc_malloc(size);
  note_alloc(pointer);
  return pointer;
}

void *calloc(size_t count, size_t size) {
  void *pointer = __libc_calloc(count, size);
  note_alloc(pointer);
  return pointer;
}

void *realloc(void *old, size_t size) {
  note_free(old);
  void *pointer = __libc_realloc(old, size);
  if (pointer == NULL && old != NULL && size != 0) {
    // The old block is still allocated.
    atomic_fetch_add_explicit(&live_bytes, (int64_t)malloc_usable_size(old),
                              memory_order_relaxed);
    return NULL;
  }
  note_alloc(pointer);
  return pointer;
}

void *memalign(size_t alignment, size_t size) {
  void *pointer = __libc_memalign(alignment, size);
  note_alloc(pointer);
  return pointer;
}

void *aligned_alloc(size_t alignment, size_t size) { return memalign(alignment, size); }

int posix_memalign(void **out, size_t alignment, size_t size) {
  void *pointer = __libc_memalign(alignment, size);
  if (pointer == NULL) return ENOMEM;
  note_alloc(pointer);
  *out = pointer;
  return 0;
}

void free(void *pointer) {
  note_free(pointer);
  __libc_free(pointer);
}

int malloc_counter_is_active(void) { return 1; }
int64_t malloc_counter_allocations(void) {
  return atomic_load_explicit(&allocations, memory_order_relaxed);
}
int64_t malloc_counter_live_bytes(void) {
  return atomic_load_explicit(&live_bytes, memory_order_relaxed);
}

#else

int malloc_counter_is_active(void) { return 0; }
int64_t malloc_counter_allocations(void) { return 0; }
int64_t malloc_counter_live_bytes(void) { return 0; }

#endif
