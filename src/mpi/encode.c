/* keps-mpi: codes every rank agrees on (kmpi.h). */
#include "kmpi.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

keps_status kmpi_agree_column(kmpi *m, const keps_table *t, size_t col, keps_table **dict, uint32_t **local,
                              keps_error *err)
{
    *dict = NULL;
    *local = NULL;
    const keps_column *c = &t->cols[col];
    size_t len = 0;
    for (uint32_t v = 0; v < c->nvalues; v++)
        len += strlen(c->values[v]) + 1;
    char *mine = malloc(len ? len : 1), *all = NULL;
    int *lens = malloc((size_t)m->size * sizeof *lens), *offs = malloc((size_t)m->size * sizeof *offs);
    keps_status st = mine && lens && offs ? KEPS_OK : KEPS_ENOMEM;
    if (len > INT_MAX)
        st = keps_error_set(err, KEPS_EINPUT, "column '%s' holds more than 2 GB of distinct values", c->name);
    size_t at = 0;
    for (uint32_t v = 0; !st && v < c->nvalues; v++) {
        size_t n = strlen(c->values[v]) + 1;
        memcpy(mine + at, c->values[v], n);
        at += n;
    }
    int ilen = st ? -1 : (int)len;
    if (lens)
        MPI_Allgather(&ilen, 1, MPI_INT, lens, 1, MPI_INT, MPI_COMM_WORLD);
    else
        MPI_Abort(MPI_COMM_WORLD, 3);
    long long total = 0;
    for (int r = 0; r < m->size; r++) {
        if (lens[r] < 0)
            st = st ? st : keps_error_set(err, KEPS_EINPUT, "rank %d could not list its values", r);
        offs[r] = (int)total;
        total += lens[r] < 0 ? 0 : lens[r];
    }
    if (!st && total > INT_MAX)
        st = keps_error_set(err, KEPS_EINPUT, "column '%s' holds more than 2 GB of distinct values", c->name);
    if (st) {
        free(mine), free(lens), free(offs);
        return st ? st : KEPS_ENOMEM;
    }
    if (!(all = malloc(total ? (size_t)total : 1)))
        MPI_Abort(MPI_COMM_WORLD, 3);
    MPI_Allgatherv(mine, ilen, MPI_CHAR, all, lens, offs, MPI_CHAR, MPI_COMM_WORLD);
    m->bytes_sent += (unsigned long long)len * (unsigned long long)(m->size - 1);
    const char *name = c->name;
    keps_table *d = keps_table_new(1, &name, t->missing_token, t->source, err);
    uint32_t *loc = malloc((c->nvalues ? c->nvalues : 1) * sizeof *loc);
    st = d && loc ? KEPS_OK : KEPS_ENOMEM;
    /* one row per distinct value, each value once: builders read rows */
    for (long long i = 0; !st && i < total; i += (long long)strlen(all + i) + 1) {
        const char *v = all + i;
        if (keps_table_lookup(d, 0, v, strlen(v)) == KEPS_NONE)
            st = keps_table_append(d, &v, NULL, 0, err);
    }
    for (uint32_t v = 0; !st && v < c->nvalues; v++)
        loc[v] = keps_table_lookup(d, 0, c->values[v], strlen(c->values[v]));
    free(mine), free(lens), free(offs), free(all);
    if (st) {
        keps_table_free(d);
        free(loc);
        return keps_error_set(err, KEPS_ENOMEM, "out of memory agreeing on the values of '%s'", name);
    }
    if (t->decimal_comma)
        d->decimal_comma = 1;
    d->delimiter = t->delimiter;
    *dict = d;
    *local = loc;
    return KEPS_OK;
}
