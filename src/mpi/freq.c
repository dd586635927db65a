/* keps-mpi: frequency tables of distinct tuples and their reduction
 * (kmpi.h). */
#include "kmpi.h"

#include <stdlib.h>
#include <string.h>

int kmpi_freq_init(kmpi_freq *f, size_t q)
{
    memset(f, 0, sizeof *f);
    f->q = q;
    f->nslots = 1024;
    f->slot = calloc(f->nslots, sizeof *f->slot);
    return f->slot ? 0 : -1;
}

void kmpi_freq_free(kmpi_freq *f)
{
    free(f->tuple);
    free(f->count);
    free(f->slot);
    memset(f, 0, sizeof *f);
}

static uint64_t hash_tuple(const uint32_t *t, size_t q)
{
    uint64_t h = 0x9E3779B97F4A7C15ull;
    for (size_t i = 0; i < q; i++) {
        h ^= t[i];
        h *= 0xBF58476D1CE4E5B9ull;
        h ^= h >> 31;
    }
    return h;
}

static size_t probe(const kmpi_freq *f, const uint32_t *tuple)
{
    size_t mask = f->nslots - 1;
    for (size_t s = (size_t)hash_tuple(tuple, f->q) & mask;; s = (s + 1) & mask) {
        uint32_t e = f->slot[s];
        if (!e || !memcmp(f->tuple + (size_t)(e - 1) * f->q, tuple, f->q * sizeof *tuple))
            return s;
    }
}

static int grow(kmpi_freq *f)
{
    size_t ns = f->nslots * 2;
    uint32_t *slot = calloc(ns, sizeof *slot);
    if (!slot)
        return -1;
    free(f->slot);
    f->slot = slot;
    f->nslots = ns;
    for (size_t i = 0; i < f->n; i++)
        f->slot[probe(f, f->tuple + i * f->q)] = (uint32_t)i + 1;
    return 0;
}

long kmpi_freq_find(const kmpi_freq *f, const uint32_t *tuple)
{
    uint32_t e = f->slot[probe(f, tuple)];
    return e ? (long)e - 1 : -1;
}

long kmpi_freq_add(kmpi_freq *f, const uint32_t *tuple, uint64_t count)
{
    size_t s = probe(f, tuple);
    if (f->slot[s]) {
        f->count[f->slot[s] - 1] += count;
        return (long)f->slot[s] - 1;
    }
    if (f->n == UINT32_MAX - 1)
        return -1;
    if (f->n == f->cap) {
        size_t cap = f->cap ? f->cap * 2 : 1024;
        uint32_t *t = realloc(f->tuple, cap * (f->q ? f->q : 1) * sizeof *t);
        if (t)
            f->tuple = t;
        uint64_t *c = realloc(f->count, cap * sizeof *c);
        if (c)
            f->count = c;
        if (!t || !c)
            return -1;
        f->cap = cap;
    }
    memcpy(f->tuple + f->n * f->q, tuple, f->q * sizeof *tuple);
    f->count[f->n] = count;
    f->slot[s] = (uint32_t)++f->n;
    if (2 * f->n > f->nslots && grow(f))
        return -1;
    return (long)f->n - 1;
}

/* One message: n, then the tuples, then the counts. */
static int send_freq(kmpi *m, const kmpi_freq *f, int dest)
{
    size_t len = sizeof(uint64_t) + f->n * f->q * sizeof(uint32_t) + f->n * sizeof(uint64_t);
    char *b = malloc(len);
    if (!b)
        return -1;
    uint64_t n = f->n;
    memcpy(b, &n, sizeof n);
    memcpy(b + sizeof n, f->tuple, f->n * f->q * sizeof(uint32_t));
    memcpy(b + sizeof n + f->n * f->q * sizeof(uint32_t), f->count, f->n * sizeof(uint64_t));
    int rc = kmpi_send(m, b, len, dest, 11);
    free(b);
    return rc;
}

static int recv_merge(kmpi *m, kmpi_freq *f, int src)
{
    void *buf;
    size_t len;
    if (kmpi_recv(m, &buf, &len, src, 11))
        return -1;
    const char *b = buf;
    uint64_t n;
    memcpy(&n, b, sizeof n);
    const uint32_t *tuples = (const uint32_t *)(b + sizeof n);
    const char *counts = b + sizeof n + n * f->q * sizeof(uint32_t);
    int rc = 0;
    for (uint64_t i = 0; i < n && !rc; i++) {
        uint64_t c;
        memcpy(&c, counts + i * sizeof c, sizeof c);
        rc = kmpi_freq_add(f, tuples + i * f->q, c) < 0 ? -1 : 0;
    }
    free(buf);
    return rc;
}

int kmpi_freq_reduce(kmpi *m, kmpi_freq *f)
{
    int rc = 0;
    for (int step = 1; step < m->size; step *= 2) {
        if (m->rank % (2 * step) == step) {
            rc |= send_freq(m, f, m->rank - step);
            f->n = 0;
            memset(f->slot, 0, f->nslots * sizeof *f->slot);
            break;
        }
        if (m->rank % (2 * step) == 0 && m->rank + step < m->size)
            rc |= recv_merge(m, f, m->rank + step);
    }
    return rc;
}

int kmpi_freq_bcast(kmpi *m, kmpi_freq *f, int root)
{
    unsigned long long n = f->n;
    MPI_Bcast(&n, 1, MPI_UNSIGNED_LONG_LONG, root, MPI_COMM_WORLD);
    if (m->rank != root) {
        size_t q = f->q;
        kmpi_freq_free(f);
        if (kmpi_freq_init(f, q))
            return -1;
    }
    /* in pieces below 2^31 elements */
    uint32_t *t = m->rank == root ? f->tuple : malloc((n ? n : 1) * f->q * sizeof *t);
    uint64_t *c = m->rank == root ? f->count : malloc((n ? n : 1) * sizeof *c);
    if (n && (!t || !c))
        MPI_Abort(MPI_COMM_WORLD, 3);
    size_t nt = (size_t)n * f->q, step = (size_t)1 << 30;
    for (size_t at = 0; at < nt; at += step)
        MPI_Bcast(t + at, (int)(nt - at < step ? nt - at : step), MPI_UINT32_T, root, MPI_COMM_WORLD);
    for (size_t at = 0; at < n; at += step)
        MPI_Bcast(c + at, (int)(n - at < step ? n - at : step), MPI_UINT64_T, root, MPI_COMM_WORLD);
    if (m->rank == root) {
        m->bytes_sent += (unsigned long long)(nt * 4 + n * 8) * (unsigned long long)(m->size - 1);
        return 0;
    }
    int rc = 0;
    for (size_t i = 0; i < n && !rc; i++)
        rc = kmpi_freq_add(f, t + i * f->q, c[i]) < 0 ? -1 : 0;
    free(t);
    free(c);
    return rc;
}
