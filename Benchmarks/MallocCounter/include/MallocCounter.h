#ifndef MALLOC_COUNTER_H
#define MALLOC_COUNTER_H

#include <stdint.h>

/// Whether this platform counts allocations (Linux with glibc: malloc is interposed).
int malloc_counter_is_active(void);
/// Number of successful allocations (malloc, calloc, realloc, aligned variants) so far.
int64_t malloc_counter_allocations(void);
/// Turns counting on (non-zero, the default) or off: timed runs turn it off, so that counting
/// costs them nothing but one relaxed load per allocation.
void malloc_counter_set_counting(int enabled);
/// Bytes of heap currently allocated, as glibc reports them (`mallinfo2`).
int64_t malloc_counter_live_bytes(void);

#endif
