#include "keps/table.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "table_internal.h"

static uint32_t hash_str(const char *s, size_t len)
{
    /* FNV-1a: short keys, good enough spread for a power-of-two table. */
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < len; i++) {
        h ^= (unsigned char)s[i];
        h *= 16777619u;
    }
    return h;
}

static void column_free(keps_column *c)
{
    free(c->codes);
    free(c->values);
    free(c->num);
    free(c->first_row);
    free(c->slots);
    free(c->hashes);
}

void keps_table_free(keps_table *t)
{
    if (!t)
        return;
    for (size_t j = 0; j < t->ncols; j++)
        column_free(&t->cols[j]);
    free(t->cols);
    free(t->name_slots);
    free(t->row_line);
    keps_arena_free(t->arena);
    free(t);
}

/* The name index: open addressing over column numbers (KEPS_NONE = empty),
 * at most half full, so that finding a column by name costs O(1) however
 * wide the table (callers look up every column of another table). */
static uint32_t name_slot(const keps_table *t, const char *name, size_t len)
{
    size_t mask = t->name_nslots - 1, i = hash_str(name, len) & mask;
    for (uint32_t v; (v = t->name_slots[i]) != KEPS_NONE; i = (i + 1) & mask)
        if (strncmp(t->cols[v].name, name, len) == 0 && t->cols[v].name[len] == '\0')
            break;
    return (uint32_t)i;
}

/* The column named by the first len bytes of name, or -1. */
static int column_n(const keps_table *t, const char *name, size_t len)
{
    if (!t->name_slots) { /* a table not made by keps_table_new */
        for (size_t j = 0; j < t->ncols; j++)
            if (strncmp(t->cols[j].name, name, len) == 0 && t->cols[j].name[len] == '\0')
                return (int)j;
        return -1;
    }
    uint32_t v = t->name_slots[name_slot(t, name, len)];
    return v == KEPS_NONE ? -1 : (int)v;
}

/* Indexes the names of t's columns; returns -1 out of memory, else the
 * first column (in header order) whose name an earlier one has (*first),
 * or ncols if none. */
static long index_names(keps_table *t, size_t *first)
{
    size_t n = 16;
    while (n < 2 * t->ncols)
        n *= 2;
    if (t->ncols > UINT32_MAX - 1 || !(t->name_slots = malloc(n * sizeof *t->name_slots)))
        return -1;
    memset(t->name_slots, 0xff, n * sizeof *t->name_slots);
    t->name_nslots = n;
    for (size_t j = 0; j < t->ncols; j++) {
        const char *nm = t->cols[j].name;
        uint32_t i = name_slot(t, nm, strlen(nm));
        if (t->name_slots[i] != KEPS_NONE) {
            *first = t->name_slots[i];
            return (long)j;
        }
        t->name_slots[i] = (uint32_t)j;
    }
    return (long)t->ncols;
}

keps_table *keps_table_new(size_t ncols, const char *const *names,
                           const char *missing_token, const char *source,
                           keps_error *err)
{
    if (!source)
        source = "<memory>";
    if (ncols == 0) {
        keps_error_at(err, KEPS_EINPUT, source, 1, 0, "the header row is empty: the first line must name the columns");
        return NULL;
    }
    keps_table *t = calloc(1, sizeof *t);
    if (!t || !(t->arena = keps_arena_new()) || !(t->cols = calloc(ncols, sizeof *t->cols)))
        goto oom;
    t->ncols = ncols;
    t->source = keps_arena_strndup(t->arena, source, strlen(source));
    if (!missing_token)
        missing_token = "";
    t->missing_token = keps_arena_strndup(t->arena, missing_token, strlen(missing_token));
    if (!t->source || !t->missing_token)
        goto oom;
    for (size_t j = 0; j < ncols; j++) {
        keps_column *c = &t->cols[j];
        c->missing = KEPS_NONE;
        if (names[j][0] == '\0') {
            keps_error_at(err, KEPS_EINPUT, source, 1, j + 1,
                          "column %zu has an empty name in the header; give every column a name", j + 1);
            keps_table_free(t);
            return NULL;
        }
        c->name = keps_arena_strndup(t->arena, names[j], strlen(names[j]));
        if (!c->name)
            goto oom;
    }
    size_t first = 0;
    long dup = index_names(t, &first);
    if (dup < 0)
        goto oom;
    if ((size_t)dup < ncols) {
        keps_error_at(err, KEPS_EINPUT, source, 1, dup + 1,
                      "duplicate header name '%s' (also column %zu); column names must be unique", names[dup],
                      first + 1);
        keps_table_free(t);
        return NULL;
    }
    return t;
oom:
    keps_table_free(t);
    keps_error_set(err, KEPS_ENOMEM, "out of memory creating a table");
    return NULL;
}

static int grow_slots(keps_column *c)
{
    uint32_t n = c->nslots ? c->nslots * 2 : 8;
    uint32_t *s = malloc((size_t)n * sizeof *s);
    if (!s)
        return -1;
    memset(s, 0xff, (size_t)n * sizeof *s);
    for (uint32_t v = 0; v < c->nvalues; v++) {
        uint32_t i = c->hashes[v] & (n - 1);
        while (s[i] != KEPS_NONE)
            i = (i + 1) & (n - 1);
        s[i] = v;
    }
    free(c->slots);
    c->slots = s;
    c->nslots = n;
    return 0;
}

static uint32_t find(const keps_column *c, const char *s, size_t len, uint32_t h, uint32_t *slot)
{
    if (!c->nslots) {
        *slot = KEPS_NONE;
        return KEPS_NONE;
    }
    uint32_t i = h & (c->nslots - 1);
    for (;;) {
        uint32_t v = c->slots[i];
        if (v == KEPS_NONE) {
            *slot = i;
            return KEPS_NONE;
        }
        if (c->hashes[v] == h && strncmp(c->values[v], s, len) == 0 && c->values[v][len] == '\0')
            return v;
        i = (i + 1) & (c->nslots - 1);
    }
}

uint32_t keps_table_lookup(const keps_table *t, size_t col, const char *s, size_t len)
{
    uint32_t slot;
    return find(&t->cols[col], s, len, hash_str(s, len), &slot);
}

uint32_t keps_table_intern(keps_table *t, size_t col, const char *s, size_t len)
{
    keps_column *c = &t->cols[col];
    uint32_t h = hash_str(s, len), slot;
    uint32_t v = find(c, s, len, h, &slot);
    if (v != KEPS_NONE)
        return v;
    if ((uint64_t)(c->nvalues + 1) * 2 > c->nslots) {
        if (grow_slots(c))
            return KEPS_NONE;
        find(c, s, len, h, &slot);
    }
    if (c->nvalues == c->vcap) {
        uint32_t n = c->vcap ? c->vcap * 2 : 4;
        char **vals = realloc(c->values, (size_t)n * sizeof *vals);
        if (!vals)
            return KEPS_NONE;
        c->values = vals;
        uint32_t *hs = realloc(c->hashes, (size_t)n * sizeof *hs);
        if (!hs)
            return KEPS_NONE;
        c->hashes = hs;
        uint32_t *fr = realloc(c->first_row, (size_t)n * sizeof *fr);
        if (!fr)
            return KEPS_NONE;
        c->first_row = fr;
        c->vcap = n;
    }
    char *copy = keps_arena_strndup(t->arena, s, len);
    if (!copy)
        return KEPS_NONE;
    v = c->nvalues++;
    c->values[v] = copy;
    c->hashes[v] = h;
    c->first_row[v] = (uint32_t)t->nrows;
    c->slots[slot] = v;
    if (strcmp(copy, t->missing_token) == 0)
        c->missing = v;
    return v;
}

static int grow_rows_to(keps_table *t, size_t n)
{
    for (size_t j = 0; j < t->ncols; j++) {
        uint32_t *p = realloc(t->cols[j].codes, n * sizeof *p);
        if (!p)
            return -1;
        t->cols[j].codes = p;
    }
    uint32_t *l = realloc(t->row_line, n * sizeof *l);
    if (!l)
        return -1;
    t->row_line = l;
    t->cap = n;
    return 0;
}

static int grow_rows(keps_table *t)
{
    /* The first block holds about 1M cells however wide the table: 1024
     * rows at 1,000 columns, 16 at 100,000 (a row-sized block per column
     * would cost 4 KB per column before the second row). */
    size_t first = t->ncols ? (1u << 20) / t->ncols : 1024;
    first = first < 16 ? 16 : first > 1024 ? 1024 : first;
    return grow_rows_to(t, t->cap ? t->cap * 2 : first);
}

keps_status keps_table_append(keps_table *t, const char *const *fields,
                              const size_t *lens, uint32_t line, keps_error *err)
{
    if (t->nrows == t->cap && grow_rows(t))
        return keps_error_set(err, KEPS_ENOMEM, "out of memory at row %zu", t->nrows + 1);
    if (t->nrows >= UINT32_MAX - 1)
        return keps_error_set(err, KEPS_EINPUT, "%s: more than 4 billion rows are not supported", t->source);
    for (size_t j = 0; j < t->ncols; j++) {
        size_t len = lens ? lens[j] : strlen(fields[j]);
        uint32_t v = keps_table_intern(t, j, fields[j], len);
        if (v == KEPS_NONE)
            return keps_error_set(err, KEPS_ENOMEM, "out of memory at row %zu", t->nrows + 1);
        t->cols[j].codes[t->nrows] = v;
        if (v == t->cols[j].missing)
            t->cols[j].missing_count++;
    }
    t->row_line[t->nrows] = line;
    t->nrows++;
    return KEPS_OK;
}

keps_status keps_table_append_codes(keps_table *t, const uint32_t *codes, uint32_t line, keps_error *err)
{
    if (t->nrows == t->cap && grow_rows(t))
        return keps_error_set(err, KEPS_ENOMEM, "out of memory at row %zu", t->nrows + 1);
    if (t->nrows >= UINT32_MAX - 1)
        return keps_error_set(err, KEPS_EINPUT, "%s: more than 4 billion rows are not supported", t->source);
    for (size_t j = 0; j < t->ncols; j++) {
        t->cols[j].codes[t->nrows] = codes[j];
        if (codes[j] == t->cols[j].missing)
            t->cols[j].missing_count++;
    }
    t->row_line[t->nrows] = line;
    t->nrows++;
    return KEPS_OK;
}

/* keps_table_intern for a value first seen at row `row` (t->nrows counts
 * only the rows already appended). */
static uint32_t intern_at(keps_table *t, size_t col, const char *s, size_t len, size_t row)
{
    keps_column *c = &t->cols[col];
    uint32_t before = c->nvalues, v = keps_table_intern(t, col, s, len);
    if (v != KEPS_NONE && c->nvalues > before)
        c->first_row[v] = (uint32_t)row;
    return v;
}

/* The checks of keps_table_append_columns, before anything changes. */
static keps_status check_columns(const keps_table *t, size_t nrows, const keps_column_codes *cols,
                                 uint32_t first_line, keps_error *err)
{
    if (nrows >= (size_t)UINT32_MAX - 1 - t->nrows)
        return keps_error_set(err, KEPS_EINPUT, "%s: more than 4 billion rows are not supported", t->source);
    for (size_t j = 0; j < t->ncols; j++) {
        const keps_column_codes *c = &cols[j];
        for (size_t i = 0; i < nrows; i++) {
            int32_t k = c->codes[i];
            if (k < 0)
                continue;
            size_t line = first_line ? first_line + i : t->nrows + i + 2;
            if ((size_t)k >= c->ndict)
                return keps_error_at(err, KEPS_EINPUT, t->source, line, j + 1,
                                     "column '%s': code %ld is not below the dictionary's %zu entries",
                                     t->cols[j].name, (long)k, c->ndict);
            if (c->lens && memchr(c->dict[k], '\0', c->lens[k]))
                return keps_error_at(err, KEPS_EINPUT, t->source, line, j + 1,
                                     "column '%s': the value holds a NUL character, which keps does not "
                                     "accept in data; remove it",
                                     t->cols[j].name);
        }
    }
    return KEPS_OK;
}

keps_status keps_table_append_columns(keps_table *t, size_t nrows, const keps_column_codes *cols,
                                      uint32_t first_line, keps_error *err)
{
    keps_status st = check_columns(t, nrows, cols, first_line, err);
    if (st)
        return st;
    size_t base = t->nrows, need = base + nrows;
    if (t->cap < need && grow_rows_to(t, need < 16 ? 16 : need))
        return keps_error_set(err, KEPS_ENOMEM, "out of memory adding %zu rows", nrows);
    size_t mlen = strlen(t->missing_token);
    for (size_t j = 0; j < t->ncols; j++) {
        const keps_column_codes *src = &cols[j];
        keps_column *c = &t->cols[j];
        /* remap[k]: t's code of dict[k], interned at its first use */
        uint32_t *remap = malloc((src->ndict ? src->ndict : 1) * sizeof *remap), miss = KEPS_NONE;
        if (!remap)
            return keps_error_set(err, KEPS_ENOMEM, "out of memory adding %zu rows", nrows);
        memset(remap, 0xff, src->ndict * sizeof *remap);
        for (size_t i = 0; i < nrows; i++) {
            int32_t k = src->codes[i];
            uint32_t v;
            if (k < 0) {
                if (miss == KEPS_NONE)
                    miss = intern_at(t, j, t->missing_token, mlen, base + i);
                v = miss;
            } else if ((v = remap[k]) == KEPS_NONE) {
                const char *s = src->dict[k];
                v = remap[k] = intern_at(t, j, s, src->lens ? src->lens[k] : strlen(s), base + i);
            }
            if (v == KEPS_NONE) {
                free(remap);
                return keps_error_set(err, KEPS_ENOMEM, "out of memory adding %zu rows", nrows);
            }
            c->codes[base + i] = v;
            if (v == c->missing)
                c->missing_count++;
        }
        free(remap);
    }
    for (size_t i = 0; i < nrows; i++)
        t->row_line[base + i] = first_line ? (uint32_t)(first_line + i) : 0;
    t->nrows = need;
    return KEPS_OK;
}

keps_status keps_table_concat(keps_table *a, keps_table *b, uint32_t line_offset, keps_error *err)
{
    size_t n = a->nrows + b->nrows;
    if (n >= UINT32_MAX - 1)
        return keps_error_set(err, KEPS_EINPUT, "%s: more than 4 billion rows are not supported", a->source);
    if (a->cap < n && grow_rows_to(a, n))
        return keps_error_set(err, KEPS_ENOMEM, "out of memory joining the pieces of %s", a->source);
    for (size_t j = 0; j < a->ncols; j++) {
        keps_column *cb = &b->cols[j];
        keps_column *ca = &a->cols[j];
        uint32_t *remap = malloc((cb->nvalues ? cb->nvalues : 1) * sizeof *remap);
        if (!remap)
            return keps_error_set(err, KEPS_ENOMEM, "out of memory joining the pieces of %s", a->source);
        /* in b's first-appearance order, so a new value's first row (the
         * current a->nrows, corrected below) and code come out as if b's
         * rows had been appended one by one */
        size_t base = a->nrows;
        for (uint32_t v = 0; v < cb->nvalues; v++) {
            uint32_t before = ca->nvalues;
            remap[v] = keps_table_intern(a, j, cb->values[v], strlen(cb->values[v]));
            if (remap[v] == KEPS_NONE) {
                free(remap);
                return keps_error_set(err, KEPS_ENOMEM, "out of memory joining the pieces of %s", a->source);
            }
            if (ca->nvalues > before)
                ca->first_row[remap[v]] = (uint32_t)(base + cb->first_row[v]);
        }
        for (size_t i = 0; i < b->nrows; i++)
            ca->codes[base + i] = remap[cb->codes[i]];
        ca->missing_count += cb->missing_count;
        free(remap);
        free(cb->codes); /* b is spent: its codes go as they are copied (peak memory) */
        cb->codes = NULL;
    }
    for (size_t i = 0; i < b->nrows; i++)
        a->row_line[a->nrows + i] = b->row_line[i] + line_offset;
    a->nrows = n;
    return KEPS_OK;
}

int keps_table_column(const keps_table *t, const char *name)
{
    return column_n(t, name, strlen(name));
}

int keps_table_column_spec(const keps_table *t, const char *spec, const char **rest)
{
    *rest = NULL;
    int j = keps_table_column(t, spec);
    for (const char *p = strchr(spec, ':'); j < 0 && p; p = strchr(p + 1, ':'))
        if ((j = column_n(t, spec, (size_t)(p - spec))) >= 0)
            *rest = p + 1;
    return j;
}

/* The message of keps_table_no_column for the first len bytes of name. */
static keps_status no_column(keps_error *err, const keps_table *t, const char *name, size_t len)
{
    char list[600] = "";
    size_t n = 0;
    for (size_t j = 0; j < t->ncols && n + 40 < sizeof list; j++)
        n += (size_t)snprintf(list + n, sizeof list - n, "%s%s", j ? ", " : "", t->cols[j].name);
    /* A header of numbers is a file without a header row. */
    const char *num = NULL;
    for (size_t j = 0; j < t->ncols && !num; j++) {
        char *end;
        const char *h = t->cols[j].name;
        (void)strtod(h, &end);
        if (*h && !*end)
            num = h;
    }
    return keps_error_set(err, KEPS_EINPUT, "%s has no column '%.*s'; its columns are: %s%s%s%s", t->source,
                          (int)len, name, list, num ? " (a column named '" : "", num ? num : "",
                          num ? "' suggests the file has no header row: keps reads the first row as the column "
                                "names; add one)"
                              : "");
}

keps_status keps_table_no_column(keps_error *err, const keps_table *t, const char *name)
{
    return no_column(err, t, name, strlen(name));
}

keps_status keps_table_no_column_spec(keps_error *err, const keps_table *t, const char *spec)
{
    return no_column(err, t, spec, strcspn(spec, ":"));
}

/* A count as keps_table_counts reads it, or 0 if it is none. */
static uint32_t parse_count(const char *v)
{
    uint64_t n = 0;
    if (!*v)
        return 0;
    for (; *v; v++) {
        if (*v < '0' || *v > '9')
            return 0;
        n = n * 10 + (uint64_t)(*v - '0');
        if (n > UINT32_MAX)
            return 0;
    }
    return (uint32_t)n;
}

keps_status keps_table_counts(const keps_table *t, size_t col, uint32_t **weight, uint64_t *records,
                              keps_error *err)
{
    *weight = NULL;
    *records = 0;
    if (col >= t->ncols)
        return keps_error_set(err, KEPS_EINPUT, "count column %zu is out of range: %s has %zu columns", col + 1,
                              t->source, t->ncols);
    const keps_column *c = &t->cols[col];
    /* each distinct value is parsed once; rows look their code up */
    uint32_t *byval = malloc((c->nvalues ? c->nvalues : 1) * sizeof *byval);
    uint32_t *w = malloc((t->nrows ? t->nrows : 1) * sizeof *w);
    if (!byval || !w) {
        free(byval), free(w);
        return keps_error_set(err, KEPS_ENOMEM, "out of memory reading the counts");
    }
    for (uint32_t v = 0; v < c->nvalues; v++)
        byval[v] = parse_count(c->values[v]);
    uint64_t sum = 0;
    for (size_t r = 0; r < t->nrows; r++) {
        w[r] = byval[c->codes[r]];
        sum += w[r];
        if (!w[r] || sum > UINT32_MAX) {
            keps_status st = keps_table_cell_error(
                err, t, col, r,
                !w[r] ? "count '%s': expected a number of records, a whole number from 1 to 4294967295 in "
                        "digits (a GROUP BY's COUNT(*); drop rows that stand for no record)"
                      : "count '%s' brings the records to more than 4294967295, the most keps counts; split "
                        "the table",
                c->values[c->codes[r]]);
            free(byval), free(w);
            return st;
        }
    }
    free(byval);
    *weight = w;
    *records = sum;
    return KEPS_OK;
}

/* Rows a and b hold the same codes outside column skip? */
static int same_tuple(const keps_table *t, size_t skip, size_t a, size_t b)
{
    for (size_t j = 0; j < t->ncols; j++)
        if (j != skip && t->cols[j].codes[a] != t->cols[j].codes[b])
            return 0;
    return 1;
}

/* The groups of t's rows by every column but skip: group[r], the first
 * row of each group and their number. Open addressing on the code tuple. */
static keps_status group_rows_by(const keps_table *t, size_t skip, uint32_t *group, uint32_t *first, size_t *ng)
{
    size_t cap = 16;
    while (cap < 2 * t->nrows)
        cap *= 2;
    uint32_t *slot = malloc(cap * sizeof *slot);
    if (!slot)
        return KEPS_ENOMEM;
    memset(slot, 0xff, cap * sizeof *slot);
    *ng = 0;
    for (size_t r = 0; r < t->nrows; r++) {
        uint64_t h = 0x9e3779b97f4a7c15ull;
        for (size_t j = 0; j < t->ncols; j++)
            if (j != skip)
                h = (h ^ t->cols[j].codes[r]) * 0x100000001b3ull;
        size_t i = (size_t)(h ^ (h >> 29)) & (cap - 1);
        while (slot[i] != KEPS_NONE && !same_tuple(t, skip, first[slot[i]], r))
            i = (i + 1) & (cap - 1);
        if (slot[i] == KEPS_NONE) {
            slot[i] = (uint32_t)*ng;
            first[(*ng)++] = (uint32_t)r;
        }
        group[r] = slot[i];
    }
    free(slot);
    return KEPS_OK;
}

keps_status keps_table_group_counts(const keps_table *t, size_t col, keps_table **out, keps_error *err)
{
    *out = NULL;
    uint32_t *w = NULL;
    uint64_t records = 0;
    keps_status st = keps_table_counts(t, col, &w, &records, err);
    if (st)
        return st;
    size_t n = t->nrows ? t->nrows : 1, ng = 0;
    uint32_t *group = malloc(n * sizeof *group), *first = malloc(n * sizeof *first);
    uint64_t *sum = calloc(n, sizeof *sum);
    const char **names = malloc((t->ncols + 1) * sizeof *names), **f = malloc((t->ncols + 1) * sizeof *f);
    keps_table *g = NULL;
    st = KEPS_ENOMEM;
    if (!group || !first || !sum || !names || !f || group_rows_by(t, col, group, first, &ng))
        goto done;
    for (size_t r = 0; r < t->nrows; r++)
        sum[group[r]] += w[r];
    for (size_t j = 0; j < t->ncols; j++)
        names[j] = t->cols[j].name;
    if (!(g = keps_table_new(t->ncols, names, t->missing_token, t->source, err))) {
        st = err ? err->code : KEPS_ENOMEM;
        goto done;
    }
    g->delimiter = t->delimiter;
    g->decimal_comma = t->decimal_comma;
    for (size_t x = 0; x < ng; x++) {
        char num[24];
        snprintf(num, sizeof num, "%llu", (unsigned long long)sum[x]);
        for (size_t j = 0; j < t->ncols; j++)
            f[j] = j == col ? num : keps_table_str(t, j, first[x]);
        if ((st = keps_table_append(g, f, NULL, 0, err)))
            goto done;
    }
    st = KEPS_OK;
done:
    if (st == KEPS_ENOMEM)
        keps_error_set(err, st, "out of memory grouping the release by its counts");
    if (st)
        keps_table_free(g);
    else
        *out = g;
    free(w), free(group), free(first), free(sum), free(names), free(f);
    return st;
}

keps_status keps_table_cell_error(keps_error *err, const keps_table *t, size_t col,
                                  size_t row, const char *fmt, ...)
{
    if (!err)
        return KEPS_EINPUT;
    char msg[800];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    size_t line = row < t->nrows && t->row_line ? t->row_line[row] : 0;
    if (!line)
        line = row + 2; /* header is line 1 */
    return keps_error_at(err, KEPS_EINPUT, t->source, line, col + 1, "column '%s': %s",
                         t->cols[col].name, msg);
}

keps_num_status keps_parse_number(const char *s, double *out)
{
    char *end;
    errno = 0;
    double x = strtod(s, &end);
    int overflow = errno == ERANGE && isinf(x); /* ERANGE on underflow is fine */
    while (*end == ' ' || *end == '\t')
        end++;
    if (end == s || *end != '\0')
        return KEPS_NUM_SYNTAX;
    *out = x;
    if (!isfinite(x) && !overflow)
        return KEPS_NUM_SYNTAX; /* "inf", "nan" (also "nan(0x1)") */
    /* strtod also reads hexadecimal ("0x1A"); only hex spellings hold an x */
    if (strpbrk(s, "xX"))
        return KEPS_NUM_HEX;
    return overflow || fabs(x) > KEPS_NUM_MAX ? KEPS_NUM_RANGE : KEPS_NUM_OK;
}

/* Copies s with ',' as '.' into buf (or a malloc'd copy when longer);
 * NULL when s holds a '.' itself or memory runs out (*dot tells which). */
static char *comma_to_point(const char *s, char *buf, size_t cap, int *dot)
{
    size_t n = strlen(s);
    *dot = strchr(s, '.') != NULL;
    if (*dot)
        return NULL;
    char *c = n < cap ? buf : malloc(n + 1);
    if (!c)
        return NULL;
    for (size_t i = 0; i <= n; i++)
        c[i] = s[i] == ',' ? '.' : s[i];
    return c;
}

keps_num_status keps_table_parse(const keps_table *t, const char *s, double *out)
{
    if (!t || !t->decimal_comma)
        return keps_parse_number(s, out);
    char buf[96];
    int dot;
    char *c = comma_to_point(s, buf, sizeof buf, &dot);
    if (!c)
        return KEPS_NUM_SYNTAX;
    keps_num_status ns = keps_parse_number(c, out);
    if (c != buf)
        free(c);
    return ns;
}

static keps_status bad_number(keps_error *err, const keps_table *t, size_t col, uint32_t v, keps_num_status ns,
                              double x)
{
    const keps_column *c = &t->cols[col];
    const char *s = c->values[v];
    if (ns == KEPS_NUM_HEX)
        return keps_table_cell_error(err, t, col, c->first_row[v],
                                     "'%s' is hexadecimal; numbers in data files are decimal (write %.17g)", s, x);
    if (ns == KEPS_NUM_RANGE)
        return keps_table_cell_error(err, t, col, c->first_row[v],
                                     "'%s' is too large: keps accepts numbers of magnitude up to %g, so that its "
                                     "sums, squares and noise stay finite; rescale the column",
                                     s, KEPS_NUM_MAX);
    if (t->decimal_comma && strchr(s, '.'))
        return keps_table_cell_error(err, t, col, c->first_row[v],
                                     "'%s' holds a '.', but the data's decimal mark is ',' (numbers are written "
                                     "like 170,5): a '.' could be a thousands separator, so keps does not guess; "
                                     "write the cell with a decimal comma",
                                     s);
    return keps_table_cell_error(err, t, col, c->first_row[v],
                                 "'%s' is not a number; a numeric column needs a finite number "
                                 "or the missing token '%s' in every cell",
                                 s, t->missing_token);
}

keps_status keps_table_numeric(keps_table *t, size_t col, keps_error *err)
{
    if (col >= t->ncols)
        return keps_error_set(err, KEPS_EINPUT, "column index %zu is out of range: %s has %zu columns", col,
                              t->source, t->ncols);
    keps_column *c = &t->cols[col];
    if (c->num)
        return KEPS_OK;
    double *num = malloc((c->nvalues ? c->nvalues : 1) * sizeof *num);
    if (!num)
        return keps_error_set(err, KEPS_ENOMEM, "out of memory");
    for (uint32_t v = 0; v < c->nvalues; v++) {
        if (v == c->missing) {
            num[v] = NAN;
            continue;
        }
        double x = NAN;
        keps_num_status ns = keps_table_parse(t, c->values[v], &x);
        if (ns != KEPS_NUM_OK) {
            free(num);
            return bad_number(err, t, col, v, ns, x);
        }
        num[v] = x;
    }
    c->num = num;
    return KEPS_OK;
}

/* Leading zero: after an optional sign, a '0' followed by another digit. */
static int leading_zero(const char *s)
{
    if (*s == '+' || *s == '-')
        s++;
    return s[0] == '0' && s[1] >= '0' && s[1] <= '9';
}

/* A whole number as written: an optional sign and digits only. */
static int whole_literal(const char *s)
{
    if (*s == '+' || *s == '-')
        s++;
    size_t n = strspn(s, "0123456789");
    return n > 0 && s[n] == '\0';
}

/* Does the double x hold the whole number written in s exactly? Its
 * digits, without leading zeros, against those %.0f prints (exact in glibc). */
static int whole_exact(const char *s, double x)
{
    if (*s == '+' || *s == '-')
        s++;
    while (*s == '0' && s[1])
        s++;
    char buf[128];
    int n = snprintf(buf, sizeof buf, "%.0f", fabs(x));
    return n > 0 && (size_t)n < sizeof buf && strcmp(buf, s) == 0;
}

keps_col_type keps_table_infer_type(const keps_table *t, size_t col, size_t *row, const char **why)
{
    const keps_column *c = &t->cols[col];
    const char *reason = "holds no value but the missing token";
    size_t at = (size_t)-1;
    int any = 0;
    for (uint32_t v = 0; v < c->nvalues && at == (size_t)-1; v++) {
        if (v == c->missing)
            continue;
        const char *s = c->values[v];
        double x;
        keps_num_status ns = keps_table_parse(t, s, &x);
        if (ns != KEPS_NUM_OK)
            reason = ns == KEPS_NUM_HEX     ? "is hexadecimal"
                     : ns == KEPS_NUM_RANGE ? "is beyond the magnitude 1e100 keps reads as a number"
                                            : "is not a number";
        else if (leading_zero(s))
            reason = "has a leading zero";
        else if (whole_literal(s) && !whole_exact(s, x))
            reason = "has more digits than a number keeps";
        else {
            any = 1;
            continue;
        }
        at = c->first_row[v];
    }
    if (any && at == (size_t)-1)
        return KEPS_TYPE_NUMERIC;
    if (row)
        *row = at;
    if (why)
        *why = reason;
    return KEPS_TYPE_CATEGORICAL;
}

/* Decimals of one number's text (see keps_table_decimals). */
static int text_decimals(const char *s, char mark)
{
    const char *p = strchr(s, mark);
    long frac = 0, ex = 0;
    if (p)
        frac = (long)strspn(p + 1, "0123456789");
    const char *e = strpbrk(s, "eE");
    if (e)
        ex = strtol(e + 1, NULL, 10);
    long d = frac - ex;
    return d < 0 ? 0 : d > KEPS_DIGITS_MAX ? KEPS_DIGITS_MAX : (int)d;
}

int keps_table_decimals(const keps_table *t, size_t col)
{
    const keps_column *c = &t->cols[col];
    int best = 0;
    for (uint32_t v = 0; v < c->nvalues; v++) {
        double x;
        if (v == c->missing || keps_table_parse(t, c->values[v], &x) != KEPS_NUM_OK)
            continue;
        int d = text_decimals(c->values[v], t->decimal_comma ? ',' : '.');
        best = d > best ? d : best;
    }
    return best;
}

keps_table *keps_table_rows(const keps_table *t, const size_t *rows, size_t n, keps_error *err)
{
    const char **names = malloc((t->ncols ? t->ncols : 1) * sizeof *names);
    const char **f = malloc((t->ncols ? t->ncols : 1) * sizeof *f);
    keps_table *r = NULL;
    if (!names || !f)
        keps_error_set(err, KEPS_ENOMEM, "out of memory");
    else {
        for (size_t j = 0; j < t->ncols; j++)
            names[j] = t->cols[j].name;
        r = keps_table_new(t->ncols, names, t->missing_token, t->source, err);
    }
    for (size_t i = 0; r && i < n; i++) {
        if (rows[i] >= t->nrows) {
            keps_error_set(err, KEPS_EINPUT, "row %zu is out of range: %s has %zu rows", rows[i], t->source,
                           t->nrows);
        } else {
            for (size_t j = 0; j < t->ncols; j++)
                f[j] = keps_table_str(t, j, rows[i]);
            if (keps_table_append(r, f, NULL, t->row_line ? t->row_line[rows[i]] : 0, err) == KEPS_OK)
                continue;
        }
        keps_table_free(r);
        r = NULL;
    }
    if (r) {
        r->delimiter = t->delimiter;
        r->decimal_comma = t->decimal_comma;
    }
    free(names);
    free(f);
    return r;
}

size_t keps_table_memory(const keps_table *t)
{
    size_t b = sizeof *t + t->ncols * sizeof *t->cols + t->cap * sizeof *t->row_line;
    for (size_t j = 0; j < t->ncols; j++) {
        const keps_column *c = &t->cols[j];
        b += t->cap * sizeof *c->codes + c->vcap * (sizeof *c->values + 2 * sizeof(uint32_t));
        b += c->nslots * sizeof *c->slots + (c->num ? c->nvalues * sizeof(double) : 0);
    }
    return b + keps_arena_bytes(t->arena);
}
