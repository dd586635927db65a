/* keps: partitions into equivalence classes (see keps/partition.h). */
#include "keps/partition.h"
#include "keps/release.h"
#include "partition_internal.h"
#include "table_internal.h"

#include <stdlib.h>
#include <string.h>

void keps_partition_free(keps_partition *p)
{
    if (!p)
        return;
    free(p->class_of);
    free(p->count);
    free(p->pcount);
    free(p->first_row);
    free(p->suppressed);
    free(p->full_gen);
    free(p->tie);
    for (size_t s = 0; p->hist && s < p->nsens; s++) {
        free(p->hist[s].off);
        free(p->hist[s].val);
        free(p->hist[s].cnt);
    }
    free(p->hist);
    memset(p, 0, sizeof *p);
}

/* Histograms of vals[r] (values below m, KEPS_NONE = not counted) over the
 * rows r with class_of[r] != KEPS_NONE and released (NULL = all), per
 * class, values increasing. Rows are grouped by class with a counting sort
 * and each class's values summed in a dense array. */
int keps_hist_from_rows(size_t nrows, const uint32_t *class_of, size_t nclasses, const uint32_t *vals, size_t m,
                        const uint8_t *released, const uint32_t *weight, keps_class_hist *out)
{
    memset(out, 0, sizeof *out);
    uint32_t *start = calloc(nclasses + 2, sizeof *start), *rows = malloc((nrows ? nrows : 1) * sizeof *rows);
    uint32_t *sc = calloc(m + 1, sizeof *sc), *tv = malloc((m + 1) * sizeof *tv);
    out->off = malloc((nclasses + 1) * sizeof *out->off);
    out->val = malloc((nrows ? nrows : 1) * sizeof *out->val);
    out->cnt = malloc((nrows ? nrows : 1) * sizeof *out->cnt);
    out->cap = nrows;
    int rc = -1;
    if (!start || !rows || !sc || !tv || !out->off || !out->val || !out->cnt)
        goto done;
    for (size_t r = 0; r < nrows; r++)
        if (class_of[r] != KEPS_NONE)
            start[class_of[r] + 1]++;
    for (size_t c = 0; c < nclasses; c++)
        start[c + 1] += start[c];
    for (size_t r = 0; r < nrows; r++)
        if (class_of[r] != KEPS_NONE)
            rows[start[class_of[r]]++] = (uint32_t)r;
    for (size_t c = nclasses; c > 0; c--)
        start[c] = start[c - 1];
    start[0] = 0;
    uint32_t e = 0;
    for (size_t c = 0; c < nclasses; c++) {
        out->off[c] = e;
        uint32_t nt = 0;
        for (uint32_t x = start[c]; x < start[c + 1]; x++) {
            uint32_t r = rows[x], v = vals[r];
            if (v == KEPS_NONE || (released && !released[r]))
                continue;
            if (!sc[v])
                tv[nt++] = v;
            sc[v] += weight ? weight[r] : 1;
        }
        for (uint32_t i = 1; i < nt; i++) { /* increasing values; few per class */
            uint32_t v = tv[i], p = i;
            while (p > 0 && tv[p - 1] > v) {
                tv[p] = tv[p - 1];
                p--;
            }
            tv[p] = v;
        }
        for (uint32_t i = 0; i < nt; i++) {
            out->val[e] = tv[i];
            out->cnt[e++] = sc[tv[i]];
            sc[tv[i]] = 0;
        }
    }
    out->off[nclasses] = e;
    rc = 0;
done:
    free(start);
    free(rows);
    free(sc);
    free(tv);
    if (rc) {
        free(out->off);
        free(out->val);
        free(out->cnt);
        memset(out, 0, sizeof *out);
    }
    return rc;
}

/* Counts, first rows and (with crit) histograms and population counts of
 * p's classes from p->class_of. */
static keps_status fill(const keps_table *t, const keps_criteria *crit, keps_partition *p, keps_error *err)
{
    size_t nc = p->nclasses, n = p->nrows;
    p->released = crit ? keps_criteria_subset(crit) : NULL;
    p->count = calloc(nc + 1, sizeof *p->count);
    p->first_row = malloc((nc + 1) * sizeof *p->first_row);
    p->suppressed = calloc(nc + 1, 1);
    if (p->released)
        p->pcount = calloc(nc + 1, sizeof *p->pcount);
    uint32_t *vals = NULL;
    if (!p->count || !p->first_row || !p->suppressed || (p->released && !p->pcount))
        goto oom;
    for (size_t c = 0; c < nc; c++)
        p->first_row[c] = KEPS_NONE;
    for (size_t r = 0; r < n; r++) {
        uint32_t c = p->class_of[r];
        int rel = !p->released || p->released[r];
        p->released_rows += rel;
        if (c == KEPS_NONE)
            continue;
        if (p->first_row[c] == KEPS_NONE)
            p->first_row[c] = (uint32_t)r;
        p->count[c] += rel;
        if (p->pcount)
            p->pcount[c]++;
    }
    if (crit && keps_criteria_nsens(crit)) {
        size_t ns = keps_criteria_nsens(crit);
        p->hist = calloc(ns, sizeof *p->hist);
        vals = malloc((n ? n : 1) * sizeof *vals);
        if (!p->hist || !vals)
            goto oom;
        p->nsens = ns;
        for (size_t s = 0; s < ns; s++) {
            const uint32_t *codes = t->cols[keps_criteria_sensitive(crit, s)->col].codes;
            for (size_t r = 0; r < n; r++)
                vals[r] = keps_criteria_value(crit, s, codes[r]);
            if (keps_hist_from_rows(n, p->class_of, nc, vals, keps_criteria_nvalues(crit, s), p->released,
                                    NULL, &p->hist[s]))
                goto oom;
        }
    }
    free(vals);
    return KEPS_OK;
oom:
    free(vals);
    keps_partition_free(p);
    return keps_error_set(err, KEPS_ENOMEM, "out of memory grouping %zu rows into classes", n);
}

keps_status keps_partition_from_classes(const keps_table *t, const uint32_t *class_of, size_t nclasses,
                                        const keps_criteria *crit, keps_partition *out, keps_error *err)
{
    memset(out, 0, sizeof *out);
    size_t n = t->nrows;
    for (size_t r = 0; r < n; r++)
        if (class_of[r] != KEPS_NONE && class_of[r] >= nclasses)
            return keps_error_set(err, KEPS_EINPUT, "row %zu: class %u out of range (%zu classes)", r + 1,
                                  (unsigned)class_of[r], nclasses);
    out->nrows = n;
    out->nclasses = nclasses;
    out->class_of = malloc((n ? n : 1) * sizeof *out->class_of);
    if (!out->class_of)
        return keps_error_set(err, KEPS_ENOMEM, "out of memory");
    if (n)
        memcpy(out->class_of, class_of, n * sizeof *class_of);
    return fill(t, crit, out, err);
}

/* A method's own row -> class map, checked against the table it came from. */
static keps_status from_result(const keps_table *t, size_t n, const uint32_t *class_of, size_t nclasses,
                               const char *what, const keps_criteria *crit, keps_partition *out, keps_error *err)
{
    memset(out, 0, sizeof *out);
    if (n != t->nrows)
        return keps_error_set(err, KEPS_EINPUT, "%s result has %zu rows, %s has %zu", what, n, t->source, t->nrows);
    return keps_partition_from_classes(t, class_of, nclasses, crit, out, err);
}

keps_status keps_partition_from_mondrian(const keps_table *t, const keps_mondrian_result *m,
                                         const keps_criteria *crit, keps_partition *out, keps_error *err)
{
    return from_result(t, m->n, m->cls, m->nclasses, "the Mondrian", crit, out, err);
}

keps_status keps_partition_from_mdav(const keps_table *t, const keps_mdav_result *m, const keps_criteria *crit,
                                     keps_partition *out, keps_error *err)
{
    return from_result(t, m->n, m->group, m->ngroups, "the MDAV", crit, out, err);
}

static uint32_t mix(uint32_t h, uint32_t v)
{
    h ^= v + 0x9e3779b9u + (h << 6) + (h >> 2);
    return h;
}

/* The table is indexed by the low bits, which mix() alone leaves poorly
 * spread for small codes (long probe chains: 200k rows in 40k classes took
 * seconds); murmur3's finalizer spreads every input bit over them. */
static uint32_t finish(uint32_t h)
{
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    h ^= h >> 16;
    return h;
}

/* Rows grouped by their codes in t's columns cols[0..ncols), classes
 * numbered by first appearance: class_of[r] (KEPS_NONE where skip[r];
 * skip may be NULL), first[c] the class's first row (both [t->nrows]);
 * returns the number of classes, or (size_t)-1 out of memory. */
static size_t group_rows(const keps_table *t, const size_t *cols, size_t ncols, const uint8_t *skip,
                         uint32_t *class_of, uint32_t *first)
{
    size_t n = t->nrows, nslots = 64;
    while (nslots < 2 * n)
        nslots *= 2;
    uint32_t *slots = malloc(nslots * sizeof *slots);
    if (!slots)
        return (size_t)-1;
    memset(slots, 0xff, nslots * sizeof *slots);
    size_t nc = 0;
    for (size_t r = 0; r < n; r++) {
        if (skip && skip[r]) {
            class_of[r] = KEPS_NONE;
            continue;
        }
        uint32_t h = 0;
        for (size_t j = 0; j < ncols; j++)
            h = mix(h, t->cols[cols[j]].codes[r]);
        size_t i = finish(h) & (nslots - 1);
        for (;; i = (i + 1) & (nslots - 1)) {
            if (slots[i] == KEPS_NONE) {
                slots[i] = (uint32_t)nc;
                first[nc++] = (uint32_t)r;
                break;
            }
            size_t a = first[slots[i]], same = 1;
            for (size_t j = 0; j < ncols && same; j++)
                same = t->cols[cols[j]].codes[a] == t->cols[cols[j]].codes[r];
            if (same)
                break;
        }
        class_of[r] = slots[i];
    }
    free(slots);
    return nc;
}

/* Column indices come from the caller: one past the table would read
 * another allocation's codes. */
static keps_status check_columns(const keps_table *t, const size_t *cols, size_t ncols, keps_error *err)
{
    if (ncols == 0)
        return keps_error_set(err, KEPS_EINPUT, "no quasi-identifier given: name the QI columns");
    for (size_t j = 0; j < ncols; j++)
        if (cols[j] >= t->ncols)
            return keps_error_set(err, KEPS_EINPUT, "quasi-identifier column index %zu is out of range: %s has %zu "
                                  "columns", cols[j], t->source, t->ncols);
    return KEPS_OK;
}

keps_status keps_partition_from_columns(const keps_table *t, const size_t *cols, size_t ncols, const uint8_t *skip,
                                        const keps_criteria *crit, keps_partition *out, keps_error *err)
{
    memset(out, 0, sizeof *out);
    keps_status st = check_columns(t, cols, ncols, err);
    if (st)
        return st;
    size_t n = t->nrows, nc = (size_t)-1;
    uint32_t *first = malloc((n ? n : 1) * sizeof *first);
    out->class_of = malloc((n ? n : 1) * sizeof *out->class_of);
    if (first && out->class_of)
        nc = group_rows(t, cols, ncols, skip, out->class_of, first);
    free(first);
    if (nc == (size_t)-1) {
        free(out->class_of);
        out->class_of = NULL;
        return keps_error_set(err, KEPS_ENOMEM, "out of memory grouping %zu rows into classes", n);
    }
    out->nrows = n;
    out->nclasses = nc;
    return fill(t, crit, out, err);
}

keps_status keps_partition_from_release(const keps_table *t, const size_t *cols, size_t ncols,
                                        keps_suppressed_mode mode, const keps_criteria *crit, keps_partition *out,
                                        size_t *star_rows, keps_error *err)
{
    memset(out, 0, sizeof *out);
    if (star_rows)
        *star_rows = 0;
    keps_status st = check_columns(t, cols, ncols, err);
    if (st)
        return st;
    if ((unsigned)mode > KEPS_SUPPRESSED_CLASS)
        return keps_error_set(err, KEPS_EINPUT, "unknown suppressed-row mode %d (expected exclude or class)",
                              (int)mode);
    size_t n = t->nrows, nstar = 0;
    uint32_t *star = malloc(ncols * sizeof *star);
    uint8_t *skip = calloc(n ? n : 1, 1);
    if (!star || !skip) {
        free(star);
        free(skip);
        return keps_error_set(err, KEPS_ENOMEM, "out of memory grouping %zu rows into classes", n);
    }
    /* the star's code per column, or none: then no row is all '*' */
    int has_star = 1;
    for (size_t j = 0; j < ncols && has_star; j++)
        has_star = (star[j] = keps_table_lookup(t, cols[j], "*", 1)) != KEPS_NONE;
    for (size_t r = 0; r < n && has_star; r++) {
        int all = 1;
        for (size_t j = 0; j < ncols && all; j++)
            all = t->cols[cols[j]].codes[r] == star[j];
        nstar += (size_t)(skip[r] = (uint8_t)all);
    }
    int all_star = n > 0 && nstar == n;
    /* exclude: starred rows form no class (unless every row is one) */
    st = keps_partition_from_columns(t, cols, ncols, mode == KEPS_SUPPRESSED_EXCLUDE && !all_star ? skip : NULL, crit,
                                     out, err);
    free(star);
    free(skip);
    if (!st && star_rows)
        *star_rows = nstar;
    return st;
}

keps_status keps_partition_from_node(const keps_lattice *L, const int *levels, const keps_criteria *crit,
                                     keps_partition *out, keps_error *err)
{
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < L->q; i++)
        if (levels[i] < 0 || levels[i] > L->height[i])
            return keps_error_set(err, KEPS_EINPUT, "level %d of quasi-identifier %zu is out of range: 0 to %d",
                                  levels[i], i + 1, L->height[i]);
    keps_lattice_work *w = keps_lattice_work_new(L);
    uint32_t *assign = malloc((L->bottom.n ? L->bottom.n : 1) * sizeof *assign);
    keps_node_classes c;
    keps_node_classes_init(&c);
    size_t n = L->nrows_table;
    out->class_of = malloc((n ? n : 1) * sizeof *out->class_of);
    keps_status st = KEPS_ENOMEM;
    if (!w || !assign || !out->class_of || keps_lattice_rollup(L, w, NULL, levels, &c, assign))
        goto done;
    for (size_t r = 0; r < n; r++)
        out->class_of[r] = assign[L->row_class[r]];
    out->nrows = n;
    out->nclasses = c.n;
    /* the lattice's counts and histograms are the node's: take them over
     * rather than recount the rows */
    out->released = crit ? keps_criteria_subset(crit) : NULL;
    out->released_rows = L->nreleased;
    out->count = c.count;
    out->pcount = c.pcount;
    c.count = c.pcount = NULL;
    out->first_row = malloc((c.n + 1) * sizeof *out->first_row);
    out->suppressed = calloc(c.n + 1, 1);
    out->full_gen = calloc(c.n + 1, 1);
    if (!out->first_row || !out->suppressed || !out->full_gen)
        goto done;
    for (size_t x = 0; x < c.n; x++)
        out->first_row[x] = KEPS_NONE;
    for (size_t r = 0; r < n; r++)
        if (out->first_row[out->class_of[r]] == KEPS_NONE)
            out->first_row[out->class_of[r]] = (uint32_t)r;
    for (size_t i = 0; i < L->q; i++) {
        const keps_hierarchy *h = L->s->qi[i].h;
        uint32_t star = keps_table_lookup(h->levels, (size_t)levels[i], "*", 1);
        for (size_t x = 0; x < c.n; x++)
            out->full_gen[x] = (i == 0 || out->full_gen[x]) && star != KEPS_NONE &&
                               L->map[i][levels[i]][keps_node_classes_rep(L, &c, x)[i]] == star;
    }
    if (c.hist) {
        out->hist = c.hist;
        out->nsens = c.nhist;
        c.hist = NULL;
        c.nhist = 0;
    }
    st = KEPS_OK;
done:
    keps_lattice_work_free(w);
    keps_node_classes_free(&c);
    free(assign);
    if (st) {
        keps_partition_free(out);
        return keps_error_set(err, st, "out of memory applying the transformation");
    }
    return KEPS_OK;
}

/* The lowest level of h whose labels include every value of release
 * column col over the rows in a class; -1 if none. */
static int release_level(const keps_partition *p, const keps_table *rel, size_t col, const keps_hierarchy *h)
{
    const keps_column *c = &rel->cols[col];
    uint8_t *used = calloc(c->nvalues + 1, 1);
    if (!used)
        return -2;
    for (size_t r = 0; r < p->nrows; r++)
        if (p->class_of[r] != KEPS_NONE)
            used[c->codes[r]] = 1;
    int level = -1;
    for (int l = 0; l <= keps_hierarchy_height(h) && level < 0; l++) {
        int all = 1;
        for (uint32_t v = 0; v < c->nvalues && all; v++)
            all = !used[v] || keps_table_lookup(h->levels, (size_t)l, c->values[v], strlen(c->values[v])) != KEPS_NONE;
        if (all)
            level = l;
    }
    free(used);
    return level;
}

keps_status keps_partition_population(keps_partition *p, const keps_table *release, const size_t *rel_cols,
                                      const keps_table *population, const size_t *pop_cols,
                                      const keps_hierarchy *const *h, size_t nqi, keps_error *err)
{
    int *lv = malloc((nqi + 1) * sizeof *lv);
    uint32_t **pmap = calloc(nqi + 1, sizeof *pmap), **rmap = calloc(nqi + 1, sizeof *rmap);
    uint32_t *cls = malloc((population->nrows + 1) * sizeof *cls);
    keps_status st = KEPS_ENOMEM;
    if (!lv || !pmap || !rmap || !cls)
        goto oom;
    for (size_t i = 0; i < nqi; i++) {
        lv[i] = release_level(p, release, rel_cols[i], h[i]);
        if (lv[i] == -2)
            goto oom;
        if (lv[i] < 0) {
            st = keps_error_set(err, KEPS_EINPUT,
                                "column '%s' of %s holds values of no single level of its hierarchy: population "
                                "counts (delta-presence, k-map) need a release whose every QI is generalized to one "
                                "level, as a lattice search's is",
                                release->cols[rel_cols[i]].name, release->source);
            goto fail;
        }
        /* population value -> level code; release value -> level code */
        const keps_column *pc = &population->cols[pop_cols[i]], *rc = &release->cols[rel_cols[i]];
        pmap[i] = malloc((pc->nvalues + 1) * sizeof **pmap);
        rmap[i] = malloc((rc->nvalues + 1) * sizeof **rmap);
        if (!pmap[i] || !rmap[i])
            goto oom;
        const keps_table *H = h[i]->levels;
        for (uint32_t v = 0; v < pc->nvalues; v++) {
            uint32_t leaf = keps_table_lookup(H, 0, pc->values[v], strlen(pc->values[v]));
            if (leaf == KEPS_NONE) {
                size_t r = 0;
                while (r < population->nrows && pc->codes[r] != v)
                    r++;
                st = keps_error_set(err, KEPS_EINPUT, "%s:%zu:%zu: '%s' is not a leaf of the hierarchy of '%s'",
                                    population->source,
                                    population->row_line ? (size_t)population->row_line[r] : r + 2,
                                    pop_cols[i] + 1, pc->values[v], pc->name);
                goto fail;
            }
            /* the leaf's row: the level-0 code of a leaf is its row */
            pmap[i][v] = H->cols[lv[i]].codes[leaf];
        }
        for (uint32_t v = 0; v < rc->nvalues; v++)
            rmap[i][v] = keps_table_lookup(H, (size_t)lv[i], rc->values[v], strlen(rc->values[v]));
    }
    /* the population's generalized tuples counted, and the release's rows
     * looked up among them: one hash table over both */
    {
        size_t np = population->nrows, nr = release->nrows, n = np + nr;
        uint32_t *codes = malloc((n * nqi + 1) * sizeof *codes);
        if (!codes)
            goto oom;
        for (size_t r = 0; r < np; r++)
            for (size_t i = 0; i < nqi; i++)
                codes[r * nqi + i] = pmap[i][population->cols[pop_cols[i]].codes[r]];
        for (size_t r = 0; r < nr; r++)
            for (size_t i = 0; i < nqi; i++)
                codes[(np + r) * nqi + i] = rmap[i][release->cols[rel_cols[i]].codes[r]];
        size_t nslots = 64;
        while (nslots < 2 * n)
            nslots *= 2;
        uint32_t *slot = malloc(nslots * sizeof *slot), *cnt = calloc(n + 1, sizeof *cnt);
        if (!slot || !cnt) {
            free(codes);
            free(slot);
            free(cnt);
            goto oom;
        }
        memset(slot, 0xff, nslots * sizeof *slot);
        for (size_t r = 0; r < n; r++) {
            if (r >= np && p->class_of[r - np] == KEPS_NONE)
                continue;
            const uint32_t *t = codes + r * nqi;
            uint32_t hsh = 0;
            for (size_t i = 0; i < nqi; i++)
                hsh = finish(mix(hsh, t[i]));
            size_t s = hsh & (nslots - 1);
            while (slot[s] != KEPS_NONE && memcmp(codes + (size_t)slot[s] * nqi, t, nqi * sizeof *t))
                s = (s + 1) & (nslots - 1);
            if (slot[s] == KEPS_NONE)
                slot[s] = (uint32_t)r;
            if (r < np)
                cnt[slot[s]]++;
            else
                cls[r - np] = slot[s];
        }
        if (!p->pcount && !(p->pcount = calloc(p->nclasses + 1, sizeof *p->pcount))) {
            free(codes);
            free(slot);
            free(cnt);
            goto oom;
        }
        for (size_t c = 0; c < p->nclasses; c++) {
            uint32_t r = p->first_row[c];
            p->pcount[c] = r == KEPS_NONE || p->class_of[r] == KEPS_NONE ? 0 : cnt[cls[r]];
        }
        free(codes);
        free(slot);
        free(cnt);
    }
    st = KEPS_OK;
    goto done;
oom:
    st = keps_error_set(err, KEPS_ENOMEM, "out of memory counting the population");
fail:
done:
    for (size_t i = 0; i < nqi; i++) {
        if (pmap)
            free(pmap[i]);
        if (rmap)
            free(rmap[i]);
    }
    free(pmap);
    free(rmap);
    free(lv);
    free(cls);
    return st;
}

keps_status keps_partition_node_ties(keps_partition *p, const keps_lattice *L, const int *levels,
                                     const keps_metrics *m, keps_metric metric, keps_error *err)
{
    free(p->tie);
    size_t dim = keps_metrics_class_key_dim(m, metric);
    p->tie_dim = dim;
    if (!(p->tie = malloc((p->nclasses + 1) * dim * sizeof *p->tie)))
        return keps_error_set(err, KEPS_ENOMEM, "out of memory");
    uint32_t *rep = malloc((L->q + 1) * sizeof *rep);
    if (!rep)
        return keps_error_set(err, KEPS_ENOMEM, "out of memory");
    for (size_t c = 0; c < p->nclasses; c++) {
        uint32_t r = p->first_row[c];
        for (size_t i = 0; i < L->q && r != KEPS_NONE; i++)
            rep[i] = L->codes[i][r];
        if (r == KEPS_NONE)
            memset(p->tie + c * dim, 0, dim * sizeof *p->tie);
        else
            keps_metrics_class_key(m, metric, levels, rep, p->count[c], p->tie + c * dim);
    }
    free(rep);
    return KEPS_OK;
}

void keps_partition_view(const keps_partition *p, size_t c, const uint32_t **val, const uint32_t **cnt,
                         uint32_t *nval, keps_class_view *v)
{
    for (size_t s = 0; s < p->nsens && p->hist; s++) {
        const keps_class_hist *h = &p->hist[s];
        val[s] = h->val + h->off[c];
        cnt[s] = h->cnt + h->off[c];
        nval[s] = h->off[c + 1] - h->off[c];
    }
    v->count = p->count[c];
    v->pcount = p->pcount ? p->pcount[c] : p->count[c];
    v->val = val;
    v->cnt = cnt;
    v->nval = nval;
}

keps_status keps_partition_enforce(keps_partition *p, const keps_criteria *crit, size_t k, keps_enforce_stats *st,
                                   keps_error *err)
{
    keps_enforce_stats local;
    if (!st)
        st = &local;
    memset(st, 0, sizeof *st);
    if (!crit) {
        for (size_t c = 0; c < p->nclasses; c++) {
            p->suppressed[c] = p->count[c] > 0 && p->count[c] < k;
            st->rows += p->suppressed[c] ? p->count[c] : 0;
            st->classes += p->suppressed[c];
        }
    } else {
        if (keps_criteria_need_histograms(crit) && !p->hist)
            return keps_error_set(err, KEPS_EINPUT, "the partition carries no histograms for the criteria");
        keps_class_set cs = {.n = p->nclasses, .count = p->count, .pcount = p->pcount, .hist = p->hist,
                             .tie = p->tie, .tie_dim = p->tie_dim, .first = p->first_row, .full_gen = p->full_gen};
        if (keps_criteria_enforce(crit, &cs, 0, 1, p->suppressed, st))
            return keps_error_set(err, KEPS_ENOMEM, "out of memory applying the privacy criteria");
    }
    p->suppressed_rows = st->rows;
    return KEPS_OK;
}

/* The one writer of a lattice node's release (partition_internal.h). Each
 * cell goes by code: remap[x] takes a source code (a QI's label code at its
 * level, nlabels for '*'; another column's own code) to the release's,
 * interned at its first use, so the dictionaries come out as appending the
 * strings row by row would make them, at one lookup per distinct value
 * instead of per cell. */
keps_status keps_node_release(const keps_schema *s, const uint32_t *weight, size_t records, const int *levels,
                              const uint32_t *class_of, const uint8_t *suppressed, const uint8_t *released,
                              int remove_suppressed, keps_table **release, keps_counts *counts, keps_error *err)
{
    const keps_table *t = s->t;
    *release = NULL;
    memset(counts, 0, sizeof *counts);
    for (size_t i = 0; i < s->nqi; i++)
        if (levels[i] < 0 || levels[i] > s->qi[i].height)
            return keps_error_set(err, KEPS_EINPUT, "level %d of quasi-identifier %zu is out of range: 0 to %d",
                                  levels[i], i + 1, s->qi[i].height);
    size_t *cols = calloc(t->ncols + 1, sizeof *cols), nc = 0;
    int *qi_of = malloc((t->ncols + 1) * sizeof *qi_of);
    uint32_t **remap = NULL, *rowc = NULL;
    keps_status st = KEPS_ENOMEM;
    keps_table *r = NULL;
    if (!cols || !qi_of) {
        keps_error_set(err, st, "out of memory applying the transformation");
        goto done;
    }
    r = keps_release_new(s, err);
    if (!r) {
        st = err ? err->code : KEPS_ENOMEM;
        goto done;
    }
    for (size_t j = 0; j < t->ncols; j++) {
        qi_of[j] = -1;
        if (keps_schema_released(s, j))
            cols[nc++] = j;
    }
    for (size_t i = 0; i < s->nqi; i++)
        qi_of[s->qi[i].col] = (int)i;
    /* counts are in records: on a weighted lattice a row counts its weight */
    counts->input_rows = records;
    if (!(remap = calloc(nc ? nc : 1, sizeof *remap)) || !(rowc = malloc((nc ? nc : 1) * sizeof *rowc))) {
        st = keps_error_set(err, KEPS_ENOMEM, "out of memory applying the transformation");
        goto done;
    }
    for (size_t x = 0; x < nc; x++) {
        int i = qi_of[cols[x]];
        size_t dom = i < 0 ? t->cols[cols[x]].nvalues : (size_t)keps_hierarchy_size(s->qi[i].h, levels[i]) + 1;
        if (!(remap[x] = malloc((dom ? dom : 1) * sizeof **remap))) {
            st = keps_error_set(err, KEPS_ENOMEM, "out of memory applying the transformation");
            goto done;
        }
        memset(remap[x], 0xff, (dom ? dom : 1) * sizeof **remap);
    }
    for (size_t row = 0; row < t->nrows; row++) {
        size_t w = weight ? weight[row] : 1;
        if (released && !released[row]) {
            counts->unsampled_rows += w;
            continue;
        }
        int sup = suppressed[class_of[row]];
        if (sup) {
            counts->suppressed_rows += w;
            if (remove_suppressed) {
                counts->removed_rows += w;
                continue;
            }
        }
        for (size_t x = 0; x < nc; x++) {
            size_t j = cols[x];
            uint32_t code = t->cols[j].codes[row];
            int i = qi_of[j];
            uint32_t src = i < 0 ? code
                           : sup ? keps_hierarchy_size(s->qi[i].h, levels[i])
                                 : s->qi[i].map[levels[i]][code];
            uint32_t rc = remap[x][src];
            if (rc == KEPS_NONE) {
                const char *str = i < 0 ? t->cols[j].values[code]
                                  : sup ? "*"
                                        : keps_hierarchy_label(s->qi[i].h, levels[i], src);
                if ((rc = keps_table_intern(r, x, str, strlen(str))) == KEPS_NONE) {
                    st = keps_error_set(err, KEPS_ENOMEM, "out of memory applying the transformation");
                    goto done;
                }
                remap[x][src] = rc;
            }
            rowc[x] = rc;
        }
        if ((st = keps_table_append_codes(r, rowc, t->row_line ? t->row_line[row] : 0, err)))
            goto done;
    }
    counts->output_rows = counts->input_rows - counts->unsampled_rows - counts->removed_rows;
    st = KEPS_OK;
done:
    if (st) {
        keps_table_free(r);
        r = NULL;
    }
    *release = r;
    for (size_t x = 0; remap && x < nc; x++)
        free(remap[x]);
    free(remap);
    free(rowc);
    free(cols);
    free(qi_of);
    return st;
}

keps_status keps_lattice_apply(const keps_lattice *L, const int *levels, const keps_partition *p,
                               int remove_suppressed, keps_table **release, keps_counts *counts, keps_error *err)
{
    *release = NULL;
    memset(counts, 0, sizeof *counts);
    if (p->nrows != L->s->t->nrows)
        return keps_error_set(err, KEPS_EINPUT, "the partition is not of this lattice's table");
    return keps_node_release(L->s, L->weight, L->nrows, levels, p->class_of, p->suppressed, p->released,
                             remove_suppressed, release, counts, err);
}
