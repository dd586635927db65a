/* Minimal sample uniques and SUDA/DIS scores (see include/keps/suda.h).
 *
 * The search goes level by level over the combinations of k = 1..max_size
 * attributes. It rests on two facts:
 *  - a set S is an MSU of record r iff r is unique on S and, for every
 *    attribute a of S, r is not unique on S \ {a} (uniqueness only grows
 *    with the set, so checking the largest proper subsets is enough);
 *  - a record unique on some T subset of S is alone in its class on S, so
 *    leaving it out does not change anyone else's count on S.
 * So for each S only the rows "alive" for S are counted: those that are
 * neither unique on nor dead for any S \ {a}, i.e. the intersection of the
 * bitsets N(S \ {a}) of rows alive and not unique there. Among them, a row
 * alone in its class has S as an MSU; the others form N(S). Level k needs
 * only level k-1's bitsets. This finds exactly the MSUs that SUDA2 finds by
 * its recursive search over items, and the brute-force oracle
 * (tests/oracles/suda_oracle.py) checks it on small tables. */
#include "keps/suda.h"

#include "keps/progress.h"
#include "keps/risk.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t word;

typedef struct search {
    const keps_table *t;
    const size_t *cols;
    size_t m, M, nrows, nw;
    size_t **binom; /* binom[a][b] = C(a, b), a <= m, b <= M */
    word **prev, **cur; /* N bitsets of levels k-1 and k, by lexicographic rank; NULL = empty */
    size_t nprev, ncur;
    uint32_t *slot_of;  /* [nrows] hash slot of each counted row */
    uint32_t *slot_row; /* [nslots] representative row, KEPS_NONE = free */
    uint32_t *slot_cnt; /* [nslots] */
    size_t nslots;
    uint32_t *rows;     /* [nrows] the rows counted for the current set */
    keps_suda *out;
    double *weight;     /* [M + 1] SUDA weight of an MSU of size k: (m - k)! */
} search;

/* Lexicographic rank of the k-subset s[0..k) of {0..m-1}. */
static size_t lex_rank(const search *S, const size_t *s, size_t k)
{
    size_t r = 0, from = 0;
    for (size_t i = 0; i < k; i++) {
        for (size_t j = from; j < s[i]; j++)
            r += S->binom[S->m - 1 - j][k - 1 - i];
        from = s[i] + 1;
    }
    return r;
}

static uint32_t hash_codes(const search *S, const size_t *set, size_t k, size_t r)
{
    uint32_t h = 2166136261u;
    for (size_t j = 0; j < k; j++) {
        h ^= S->t->cols[S->cols[set[j]]].codes[r];
        h *= 16777619u;
        h ^= h >> 13;
    }
    return h;
}

static int same_codes(const search *S, const size_t *set, size_t k, size_t a, size_t b)
{
    for (size_t j = 0; j < k; j++) {
        const uint32_t *c = S->t->cols[S->cols[set[j]]].codes;
        if (c[a] != c[b])
            return 0;
    }
    return 1;
}

/* Counts the classes on set (k attributes) among rows[0..n) and records
 * the MSUs; returns the bitset N(set), NULL when empty (or -1 on no
 * memory via *oom). */
static word *count_set(search *S, const size_t *set, size_t k, size_t n, size_t comb, int *oom)
{
    size_t ns = 16;
    while (ns < 2 * n)
        ns *= 2;
    memset(S->slot_row, 0xff, ns * sizeof *S->slot_row);
    for (size_t i = 0; i < n; i++) {
        uint32_t r = S->rows[i];
        size_t h = hash_codes(S, set, k, r) & (ns - 1);
        while (S->slot_row[h] != KEPS_NONE && !same_codes(S, set, k, S->slot_row[h], r))
            h = (h + 1) & (ns - 1);
        if (S->slot_row[h] == KEPS_NONE)
            S->slot_row[h] = r, S->slot_cnt[h] = 0;
        S->slot_cnt[h]++;
        S->slot_of[r] = (uint32_t)h;
    }
    word *N = NULL;
    keps_suda *o = S->out;
    for (size_t i = 0; i < n; i++) {
        uint32_t r = S->rows[i];
        if (S->slot_cnt[S->slot_of[r]] == 1) { /* an MSU of r */
            o->msus[(size_t)r * S->M + k - 1]++;
            o->msus_by_size[k - 1]++;
            o->combination_msus[comb]++;
            for (size_t j = 0; j < k; j++)
                o->contribution[set[j]] += S->weight[k];
            continue;
        }
        if (!N && !(N = calloc(S->nw, sizeof *N))) {
            *oom = 1;
            return NULL;
        }
        N[r / 64] |= (word)1 << (r % 64);
    }
    return N;
}

/* Lists the rows of the bitset b into S->rows; returns how many. */
static size_t bits_to_rows(search *S, const word *b)
{
    size_t n = 0;
    for (size_t w = 0; w < S->nw; w++)
        for (word x = b[w]; x; x &= x - 1)
            S->rows[n++] = (uint32_t)(w * 64 + (size_t)__builtin_ctzll(x));
    return n;
}

/* Level k: every k-subset in lexicographic order. */
static keps_status level(search *S, size_t k, const word *all, size_t offset, size_t *done, size_t total,
                         keps_error *err)
{
    size_t set[64], sub[64];
    word *acc = malloc(S->nw * sizeof *acc);
    if (!acc)
        return keps_error_set(err, KEPS_ENOMEM, "out of memory");
    for (size_t j = 0; j < k; j++)
        set[j] = j;
    for (size_t rank = 0;; rank++) {
        int any = 1;
        if (k == 1) {
            memcpy(acc, all, S->nw * sizeof *acc);
        } else { /* rows alive for set: the intersection of N(set \ {a}) */
            for (size_t drop = 0; drop < k && any; drop++) {
                for (size_t j = 0, l = 0; j < k; j++)
                    if (j != drop)
                        sub[l++] = set[j];
                const word *N = S->prev[lex_rank(S, sub, k - 1)];
                if (!N) {
                    any = 0;
                } else if (drop == 0) {
                    memcpy(acc, N, S->nw * sizeof *acc);
                } else {
                    word seen = 0;
                    for (size_t w = 0; w < S->nw; w++)
                        seen |= acc[w] &= N[w];
                    any = seen != 0;
                }
            }
        }
        S->cur[rank] = NULL;
        if (any) {
            size_t n = bits_to_rows(S, acc);
            int oom = 0;
            if (n)
                S->cur[rank] = count_set(S, set, k, n, offset + rank, &oom);
            if (oom) {
                free(acc);
                return keps_error_set(err, KEPS_ENOMEM, "out of memory searching minimal sample uniques");
            }
        }
        keps_progress("minimal sample uniques", (double)++*done, (double)total);
        size_t j = k; /* the next k-subset */
        while (j > 0 && set[j - 1] == S->m - k + j - 1)
            j--;
        if (j == 0)
            break;
        set[j - 1]++;
        for (size_t l = j; l < k; l++)
            set[l] = set[l - 1] + 1;
    }
    free(acc);
    return KEPS_OK;
}

static void free_level(word **lv, size_t n)
{
    for (size_t i = 0; lv && i < n; i++)
        free(lv[i]);
    free(lv);
}

/* U, P and the DIS score of every record, in sdcMicro's arithmetic. */
static void dis_scores(keps_suda *o, const keps_partition *full)
{
    for (size_t c = 0; c < full->nclasses; c++) {
        o->full_uniques += full->count[c] == 1;
        o->pair_records += full->count[c] == 2 ? 2 : 0;
    }
    float f = (float)o->dis_fraction, U = (float)o->full_uniques, P = (float)o->pair_records;
    float dis = U * f / (U * f + P * (1.0f - f));
    float excess = U / dis - U;
    double Q = (double)(1.0f + (8.0f - (float)o->nvars) / 20.0f), adj = 0;
    for (size_t r = 0; r < o->rows; r++)
        if (o->score[r] != 0)
            adj += 1.0 / pow(o->score[r], Q);
    for (size_t r = 0; r < o->rows; r++)
        o->dis[r] = o->score[r] != 0 ? 1.0 / (1.0 + (double)excess / (pow(o->score[r], Q) * adj)) : 0;
}

keps_status keps_suda_compute(const keps_table *t, const size_t *cols, size_t m, size_t max_size,
                              double dis_fraction, keps_suppressed_mode mode, keps_suda *out, keps_error *err)
{
    memset(out, 0, sizeof *out);
    if (m == 0 || max_size == 0 || max_size > m || max_size > 64)
        return keps_error_set(err, KEPS_EINPUT,
                              "MSU size %zu of %zu quasi-identifiers: expected 1 to the number of them, at most 64",
                              max_size, m);
    if (m > 170) /* (m - 1)! would overflow the scores */
        return keps_error_set(err, KEPS_EINPUT,
                              "%zu quasi-identifiers: SUDA scores weigh an MSU of k of m attributes by (m - k)!, "
                              "which exceeds the largest double beyond 170; give at most 170",
                              m);
    if (!(dis_fraction > 0 && dis_fraction <= 1))
        return keps_error_set(err, KEPS_EINPUT, "DIS fraction %g: expected a number in (0, 1]", dis_fraction);
    size_t ncomb = keps_combinations(m, max_size);
    if (ncomb > (size_t)1 << 24)
        return keps_error_set(err, KEPS_EINPUT,
                              "%zu quasi-identifiers have more than 16 million combinations of up to %zu: give a "
                              "smaller MSU size",
                              m, max_size);
    search S = {.t = t, .cols = cols, .m = m, .M = max_size, .nrows = t->nrows, .nw = (t->nrows + 63) / 64};
    size_t widest = 0; /* the largest C(m, k), k <= M */
    for (size_t k = 1, c = 1; k <= max_size; k++) {
        c = c * (m - k + 1) / k;
        widest = c > widest ? c : widest;
    }
    if ((double)widest * 2 * (double)S.nw * 8 > 4294967296.0)
        return keps_error_set(err, KEPS_EINPUT,
                              "searching MSUs of up to %zu of %zu attributes over %zu rows needs more than 4 GiB: "
                              "give a smaller MSU size",
                              max_size, m, t->nrows);
    keps_partition full;
    keps_status st = keps_partition_from_release(t, cols, m, mode, NULL, &full, NULL, err);
    if (st)
        return st;
    out->rows = t->nrows;
    out->nvars = m;
    out->max_size = max_size;
    out->dis_fraction = dis_fraction;
    out->ncombinations = ncomb;
    size_t rows1 = t->nrows ? t->nrows : 1;
    out->msus = calloc(rows1 * max_size, sizeof *out->msus);
    out->score = calloc(rows1, sizeof *out->score);
    out->dis = calloc(rows1, sizeof *out->dis);
    out->msus_by_size = calloc(max_size, sizeof *out->msus_by_size);
    out->combination_msus = calloc(ncomb, sizeof *out->combination_msus);
    out->contribution = calloc(m, sizeof *out->contribution);
    S.out = out;
    S.binom = calloc(m + 1, sizeof *S.binom);
    S.weight = calloc(max_size + 1, sizeof *S.weight);
    S.slot_of = malloc(rows1 * sizeof *S.slot_of);
    S.rows = malloc(rows1 * sizeof *S.rows);
    S.nslots = 16;
    while (S.nslots < 2 * rows1)
        S.nslots *= 2;
    S.slot_row = malloc(S.nslots * sizeof *S.slot_row);
    S.slot_cnt = malloc(S.nslots * sizeof *S.slot_cnt);
    word *all = calloc(S.nw ? S.nw : 1, sizeof *all);
    int ok = out->msus && out->score && out->dis && out->msus_by_size && out->combination_msus &&
             out->contribution && S.binom && S.weight && S.slot_of && S.rows && S.slot_row && S.slot_cnt && all;
    for (size_t a = 0; ok && a <= m; a++) {
        ok = (S.binom[a] = calloc(max_size + 1, sizeof **S.binom)) != NULL;
        for (size_t b = 0; ok && b <= max_size && b <= a; b++)
            S.binom[a][b] = b == 0 || b == a ? 1 : S.binom[a - 1][b - 1] + (b <= a - 1 ? S.binom[a - 1][b] : 0);
    }
    if (!ok) {
        st = keps_error_set(err, KEPS_ENOMEM, "out of memory");
        goto done;
    }
    for (size_t k = 1; k <= max_size; k++) { /* (m - k)!, as sdcMicro forms it */
        long double w = 1;
        for (size_t j = k; j < m; j++)
            w *= (long double)(m - j);
        S.weight[k] = (double)w;
    }
    out->records = 0;
    for (size_t r = 0; r < t->nrows; r++)
        if (full.class_of[r] != KEPS_NONE)
            all[r / 64] |= (word)1 << (r % 64), out->records++;
    if (out->records >= 2) { /* one record alone has no proper MSU */
        size_t done_sets = 0, offset = 0;
        for (size_t k = 1; k <= max_size && !st; k++) {
            S.ncur = S.binom[m][k];
            if (!(S.cur = calloc(S.ncur, sizeof *S.cur))) {
                st = keps_error_set(err, KEPS_ENOMEM, "out of memory");
                break;
            }
            st = level(&S, k, all, offset, &done_sets, ncomb, err);
            free_level(S.prev, S.nprev);
            S.prev = S.cur, S.nprev = S.ncur;
            S.cur = NULL;
            offset += S.ncur;
        }
    }
    for (size_t r = 0; !st && r < t->nrows; r++) {
        double score = 0;
        for (size_t k = 1; k <= max_size; k++)
            score += out->msus[r * max_size + k - 1] * S.weight[k];
        out->score[r] = score;
        out->total_score += score;
        out->special_uniques += score > 0;
    }
    for (size_t v = 0; !st && v < m; v++)
        out->contribution[v] = out->total_score > 0 ? 100 * out->contribution[v] / out->total_score : 0;
    if (!st)
        dis_scores(out, &full);
done:
    free_level(S.prev, S.nprev);
    free_level(S.cur, S.ncur);
    for (size_t a = 0; S.binom && a <= m; a++)
        free(S.binom[a]);
    free(S.binom);
    free(S.weight);
    free(S.slot_of);
    free(S.rows);
    free(S.slot_row);
    free(S.slot_cnt);
    free(all);
    keps_partition_free(&full);
    if (st)
        keps_suda_free(out);
    return st;
}

void keps_suda_free(keps_suda *s)
{
    free(s->msus);
    free(s->score);
    free(s->dis);
    free(s->msus_by_size);
    free(s->combination_msus);
    free(s->contribution);
    memset(s, 0, sizeof *s);
}
