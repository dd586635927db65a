#include "arena.h"

#include <stdlib.h>
#include <string.h>

typedef struct chunk {
    struct chunk *next;
    size_t used, size;
    char data[];
} chunk;

struct keps_arena {
    chunk *head;
    size_t bytes;
};

keps_arena *keps_arena_new(void)
{
    return calloc(1, sizeof(keps_arena));
}

void keps_arena_free(keps_arena *a)
{
    if (!a)
        return;
    for (chunk *c = a->head, *n; c; c = n) {
        n = c->next;
        free(c);
    }
    free(a);
}

char *keps_arena_strndup(keps_arena *a, const char *s, size_t len)
{
    chunk *c = a->head;
    if (!c || c->size - c->used < len + 1) {
        size_t size = len + 1 > 65536 ? len + 1 : 65536;
        c = malloc(sizeof *c + size);
        if (!c)
            return NULL;
        c->used = 0;
        c->size = size;
        c->next = a->head;
        a->head = c;
        a->bytes += sizeof *c + size;
    }
    char *p = c->data + c->used;
    memcpy(p, s, len);
    p[len] = '\0';
    c->used += len + 1;
    return p;
}

size_t keps_arena_bytes(const keps_arena *a)
{
    return a ? a->bytes : 0;
}
