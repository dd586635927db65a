/* keps: matching a research subset to its population (keps/subset.h). */
#include "keps/subset.h"

#include <stdlib.h>
#include <string.h>

static uint64_t mix64(uint64_t h, uint64_t v)
{
    h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
    return h * 0xff51afd7ed558ccdull;
}

keps_status keps_subset_match(const keps_table *population, const keps_table *subset, uint8_t *flags,
                              keps_error *err)
{
    const keps_table *P = population, *S = subset;
    size_t m = S->ncols, n = P->nrows;
    memset(flags, 0, n);
    size_t *pcol = malloc((m + 1) * sizeof *pcol);
    uint32_t **smap = calloc(m + 1, sizeof *smap);
    size_t nslots = 64;
    while (nslots < 2 * n)
        nslots *= 2;
    uint32_t *slot = malloc(nslots * sizeof *slot), *next = malloc((n + 1) * sizeof *next);
    keps_status st = KEPS_ENOMEM;
    if (!pcol || !smap || !slot || !next) {
        keps_error_set(err, st, "out of memory matching the research subset");
        goto done;
    }
    /* the subset's columns in the population, and its codes as the population's */
    for (size_t j = 0; j < m; j++) {
        int c = keps_table_column(P, S->cols[j].name);
        if (c < 0) {
            st = keps_error_set(err, KEPS_EINPUT, "%s:1:%zu: research subset column '%s' is not a column of %s",
                                S->source, j + 1, S->cols[j].name, P->source);
            goto done;
        }
        pcol[j] = (size_t)c;
        smap[j] = malloc((S->cols[j].nvalues + 1) * sizeof **smap);
        if (!smap[j]) {
            keps_error_set(err, st, "out of memory matching the research subset");
            goto done;
        }
        for (uint32_t v = 0; v < S->cols[j].nvalues; v++)
            smap[j][v] = keps_table_lookup(P, (size_t)c, S->cols[j].values[v], strlen(S->cols[j].values[v]));
    }
    /* population rows chained per hash slot, in row order (pushed backwards) */
    memset(slot, 0xff, nslots * sizeof *slot);
    for (size_t r = n; r-- > 0;) {
        uint64_t h = 0;
        for (size_t j = 0; j < m; j++)
            h = mix64(h, P->cols[pcol[j]].codes[r]);
        size_t s = (size_t)(h >> 7) & (nslots - 1);
        next[r] = slot[s];
        slot[s] = (uint32_t)r;
    }
    for (size_t r = 0; r < S->nrows; r++) {
        uint64_t h = 0;
        size_t bad = m;
        for (size_t j = 0; j < m; j++) {
            uint32_t v = smap[j][S->cols[j].codes[r]];
            if (v == KEPS_NONE && bad == m)
                bad = j;
            h = mix64(h, v);
        }
        int matched = 0;
        uint32_t *link = bad == m ? &slot[(size_t)(h >> 7) & (nslots - 1)] : NULL;
        while (link && *link != KEPS_NONE && !matched) {
            uint32_t p = *link;
            matched = 1;
            for (size_t j = 0; j < m && matched; j++)
                matched = P->cols[pcol[j]].codes[p] == smap[j][S->cols[j].codes[r]];
            if (matched) {
                flags[p] = 1;
                *link = next[p]; /* taken: the next equal row serves the next match */
            } else {
                link = &next[p];
            }
        }
        if (!matched) {
            size_t line = S->row_line ? (size_t)S->row_line[r] : r + 2;
            if (bad < m)
                st = keps_error_set(err, KEPS_EINPUT,
                                    "%s:%zu:%zu: research subset row holds '%s', which column '%s' of %s never "
                                    "holds: the subset must be rows of the input",
                                    S->source, line, bad + 1, S->cols[bad].values[S->cols[bad].codes[r]],
                                    S->cols[bad].name, P->source);
            else
                st = keps_error_set(err, KEPS_EINPUT,
                                    "%s:%zu:1: research subset row has no matching row left in %s (the subset must "
                                    "be rows of the input, each at most as often as there)",
                                    S->source, line, P->source);
            goto done;
        }
    }
    st = KEPS_OK;
done:
    for (size_t j = 0; smap && j < m; j++)
        free(smap[j]);
    free(smap);
    free(pcol);
    free(slot);
    free(next);
    return st;
}
