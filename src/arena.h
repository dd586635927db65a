/* Private: bump allocator for strings that live as long as their owner. */
#ifndef KEPS_ARENA_H
#define KEPS_ARENA_H
#include <stddef.h>

#include "internal.h"

typedef struct keps_arena keps_arena;
KEPS_INTERNAL keps_arena *keps_arena_new(void);
KEPS_INTERNAL void keps_arena_free(keps_arena *a);
/* Copy of s[0..len) with a NUL; NULL on OOM. */
KEPS_INTERNAL char *keps_arena_strndup(keps_arena *a, const char *s, size_t len);
KEPS_INTERNAL size_t keps_arena_bytes(const keps_arena *a);
#endif
