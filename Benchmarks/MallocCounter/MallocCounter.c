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
static _Atomic int counting = 1;

// One relaxed load per allocation while counting is off (during timed runs), so the counter
// does not add its own atomic updates to the allocations of the code being timed.
static void note_alloc(void *pointer) {
  if (pointer == NULL) return;
  if (!atomic_load_explicit(&counting, memory_order_relaxed)) return;
  atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
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
  void *pointer = __libc_realloc(old, size);
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

void free(void *pointer) { __libc_free(pointer); }

int malloc_counter_is_active(void) { return 1; }
int64_t malloc_counter_allocations(void) {
  return atomic_load_explicit(&allocations, memory_order_relaxed);
}
void malloc_counter_set_counting(int enabled) {
  atomic_store_explicit(&counting, enabled, memory_order_relaxed);
}
int64_t malloc_counter_live_bytes(void) {
  // glibc's own figures, over every arena: bytes in chunks handed out (including the few
  // that thread caches hold) plus bytes in separately mapped chunks.
  struct mallinfo2 info = mallinfo2();
  return (int64_t)(info.uordblks + info.hblkhd);
}

#else

int malloc_counter_is_active(void) { return 0; }
int64_t malloc_counter_allocations(void) { return 0; }
void malloc_counter_set_counting(int enabled) { (void)enabled; }
int64_t malloc_counter_live_bytes(void) { return 0; }

#endif
