#ifndef MALLOC_COUNTER_H
#define MALLOC_COUNTER_H

#include <stdint.h>

/// Whether this platform counts allocations (Linux with glibc: malloc is interposed).
int malloc_counter_is_active(void);
/// Number of successful allocations (malloc, calloc, realloc, aligned variants) so far.
int64_t malloc_counter_allocations(void);
/// Bytes currently allocated (by usable size), as tracked since start-up.
int64_t malloc_counter_live_bytes(void);

#endif
