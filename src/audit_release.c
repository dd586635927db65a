/* End-to-end privacy audit of whole releases: statistics of a released
 * table, events chosen from selection runs, Clopper-Pearson estimates (see
 * include/keps/audit_release.h). */
#include "keps/audit_release.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>

#include "keps/audit.h"

/* ---- small containers ------------------------------------------------- */

/* String -> count, open addressing (FNV-1a). */
typedef struct strcount {
    char **key;
    size_t *count;
    size_t n, cap; /* cap a power of two, 0 = empty */
} strcount;

static uint64_t fnv(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static int sc_grow(strcount *m)
{
    size_t cap = m->cap ? 2 * m->cap : 64;
    char **key = calloc(cap, sizeof *key);
    size_t *cnt = calloc(cap, sizeof *cnt);
    if (!key || !cnt) {
        free(key);
        free(cnt);
        return -1;
    }
    for (size_t i = 0; i < m->cap; i++) {
        if (!m->key[i])
            continue;
        size_t s = (size_t)fnv(m->key[i]) & (cap - 1);
        while (key[s])
            s = (s + 1) & (cap - 1);
        key[s] = m->key[i];
        cnt[s] = m->count[i];
    }
    free(m->key);
    free(m->count);
    m->key = key;
    m->count = cnt;
    m->cap = cap;
    return 0;
}

/* Adds 1 to v's count (copied on first sight). */
static int sc_add(strcount *m, const char *v)
{
    if (2 * (m->n + 1) > m->cap && sc_grow(m))
        return -1;
    size_t s = (size_t)fnv(v) & (m->cap - 1);
    while (m->key[s] && strcmp(m->key[s], v) != 0)
        s = (s + 1) & (m->cap - 1);
    if (!m->key[s]) {
        if (!(m->key[s] = strdup(v)))
            return -1;
        m->n++;
    }
    m->count[s]++;
    return 0;
}

static void sc_free(strcount *m)
{
    for (size_t i = 0; i < m->cap; i++)
        free(m->key[i]);
    free(m->key);
    free(m->count);
    memset(m, 0, sizeof *m);
}

typedef struct dvec {
    double *v;
    size_t n, cap;
} dvec;

static int dv_push(dvec *d, double x)
{
    if (d->n == d->cap) {
        size_t cap = d->cap ? 2 * d->cap : 16;
        double *v = realloc(d->v, cap * sizeof *v);
        if (!v)
            return -1;
        d->v = v;
        d->cap = cap;
    }
    d->v[d->n++] = x;
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* ---- statistics and events -------------------------------------------- */

typedef enum { ST_CAT, ST_SET, ST_SCALAR, ST_NUM } stat_kind;

typedef struct stat_def {
    char *key;
    const char *family;
    stat_kind kind;
    strcount vals;   /* CAT, SET: selection runs in which each value held */
    dvec pool;       /* SCALAR: one value per selection run; NUM: every number */
    dvec *runs;      /* NUM: each selection run's numbers (for the bin thresholds) */
    size_t nruns, capruns;
    double *edges;   /* NUM after freeze: bin edges (nedges; bins = nedges + 1) */
    size_t nedges;
} stat_def;

typedef enum { EV_EQ, EV_HAS, EV_LE, EV_BIN_GT } ev_type;

typedef struct event {
    size_t stat;
    ev_type type;
    int negate;
    char *value;     /* EQ, HAS */
    double t;        /* LE: threshold; BIN_GT: count threshold */
    size_t bin;      /* BIN_GT */
    char *name;
    size_t count[2];
} event;

/* One release's value of a statistic, while its events are evaluated. */
typedef struct obs {
    int present;
    char *cat;                  /* CAT (owned) */
    const keps_table *t;        /* SET: membership by dictionary lookup */
    size_t col;
    double x;                   /* SCALAR */
    size_t *bins;               /* NUM: count per bin (owned) */
} obs;

struct keps_release_audit {
    keps_release_audit_opts o;
    char **ignore;
    stat_def *stats;
    size_t nstats, capstats;
    size_t cursor;               /* emits come in the same order every run */
    size_t selection[2], runs[2];
    int frozen;
    event *ev;
    size_t nev, capev;
    obs *cur;                    /* [nstats] during a test run */
    int oom;
};

void keps_release_audit_defaults(keps_release_audit_opts *o)
{
    memset(o, 0, sizeof *o);
    o->bins = 10;
    o->prefix_rows = 8;
    o->adjacent = 16;
    o->max_values = 32;
    o->min_support = 3;
}

keps_release_audit *keps_release_audit_new(const keps_release_audit_opts *o, keps_error *err)
{
    keps_release_audit *a = calloc(1, sizeof *a);
    if (!a) {
        keps_error_set(err, KEPS_ENOMEM, "out of memory");
        return NULL;
    }
    keps_release_audit_defaults(&a->o);
    if (o)
        a->o = *o;
    if (a->o.bins < 2)
        a->o.bins = 2;
    if (a->o.min_support < 1)
        a->o.min_support = 1;
    if (a->o.prefix_rows > 64) /* pattern() labels up to 64 rows */
        a->o.prefix_rows = 64;
    a->o.ignore = NULL;
    a->ignore = calloc(a->o.nignore + 1, sizeof *a->ignore);
    for (size_t i = 0; a->ignore && i < a->o.nignore; i++)
        if (!(a->ignore[i] = strdup(o->ignore[i])))
            a->oom = 1;
    if (!a->ignore || a->oom) {
        keps_release_audit_free(a);
        keps_error_set(err, KEPS_ENOMEM, "out of memory");
        return NULL;
    }
    return a;
}

static void obs_clear(keps_release_audit *a)
{
    for (size_t s = 0; a->cur && s < a->nstats; s++) {
        free(a->cur[s].cat);
        free(a->cur[s].bins);
        memset(&a->cur[s], 0, sizeof a->cur[s]);
    }
}

void keps_release_audit_free(keps_release_audit *a)
{
    if (!a)
        return;
    obs_clear(a);
    free(a->cur);
    for (size_t i = 0; a->ignore && i < a->o.nignore; i++)
        free(a->ignore[i]);
    free(a->ignore);
    for (size_t s = 0; s < a->nstats; s++) {
        stat_def *d = &a->stats[s];
        free(d->key);
        sc_free(&d->vals);
        free(d->pool.v);
        for (size_t r = 0; r < d->nruns; r++)
            free(d->runs[r].v);
        free(d->runs);
        free(d->edges);
    }
    free(a->stats);
    for (size_t e = 0; e < a->nev; e++) {
        free(a->ev[e].value);
        free(a->ev[e].name);
    }
    free(a->ev);
    free(a);
}

size_t keps_release_audit_nevents(const keps_release_audit *a)
{
    return a->frozen ? a->nev : 0;
}

/* The statistic called key: found from the cursor on (the usual case),
 * else anywhere, else created (selection only; -1 in a test run, where an
 * unseen statistic has no event). */
static long stat_index(keps_release_audit *a, const char *key, const char *family, stat_kind kind)
{
    for (size_t i = 0; i < a->nstats; i++) {
        size_t s = (a->cursor + i) % a->nstats;
        if (a->stats[s].kind == kind && strcmp(a->stats[s].key, key) == 0) {
            a->cursor = s + 1;
            return (long)s;
        }
    }
    if (a->frozen)
        return -1;
    if (a->nstats == a->capstats) {
        size_t cap = a->capstats ? 2 * a->capstats : 32;
        stat_def *st = realloc(a->stats, cap * sizeof *st);
        if (!st)
            return a->oom = 1, -1;
        a->stats = st;
        a->capstats = cap;
    }
    stat_def *d = &a->stats[a->nstats];
    memset(d, 0, sizeof *d);
    if (!(d->key = strdup(key)))
        return a->oom = 1, -1;
    d->family = family;
    d->kind = kind;
    a->cursor = a->nstats + 1;
    return (long)a->nstats++;
}

/* ---- emitting one release's statistics -------------------------------- */

static void emit_cat(keps_release_audit *a, const char *family, const char *key, const char *value)
{
    long s = stat_index(a, key, family, ST_CAT);
    if (s < 0)
        return;
    if (!a->frozen) {
        a->oom |= sc_add(&a->stats[s].vals, value) != 0;
        return;
    }
    obs *o = &a->cur[s];
    o->present = 1;
    if (!(o->cat = strdup(value)))
        a->oom = 1;
}

static void emit_set(keps_release_audit *a, const char *family, const char *key, const keps_table *t, size_t col)
{
    long s = stat_index(a, key, family, ST_SET);
    if (s < 0)
        return;
    if (!a->frozen) {
        for (uint32_t v = 0; v < t->cols[col].nvalues; v++) /* the reader's dictionary: the values present */
            a->oom |= sc_add(&a->stats[s].vals, t->cols[col].values[v]) != 0;
        return;
    }
    a->cur[s] = (obs){.present = 1, .t = t, .col = col};
}

static void emit_scalar(keps_release_audit *a, const char *family, const char *key, double x)
{
    long s = stat_index(a, key, family, ST_SCALAR);
    if (s < 0)
        return;
    if (!a->frozen) {
        a->oom |= dv_push(&a->stats[s].pool, x) != 0;
        return;
    }
    a->cur[s].present = 1;
    a->cur[s].x = x;
}

static size_t bin_of(const double *edges, size_t ne, double x)
{
    size_t lo = 0, hi = ne; /* number of edges <= x */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (edges[mid] <= x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static void emit_num(keps_release_audit *a, const char *family, const char *key, const double *x, size_t n)
{
    long s = stat_index(a, key, family, ST_NUM);
    if (s < 0)
        return;
    stat_def *d = &a->stats[s];
    if (!a->frozen) {
        if (d->nruns == d->capruns) {
            size_t cap = d->capruns ? 2 * d->capruns : 16;
            dvec *r = realloc(d->runs, cap * sizeof *r);
            if (!r) {
                a->oom = 1;
                return;
            }
            d->runs = r;
            d->capruns = cap;
        }
        dvec *run = &d->runs[d->nruns++];
        memset(run, 0, sizeof *run);
        for (size_t i = 0; i < n; i++)
            a->oom |= dv_push(run, x[i]) != 0 || dv_push(&d->pool, x[i]) != 0;
        return;
    }
    obs *o = &a->cur[s];
    o->present = 1;
    if (!(o->bins = calloc(d->nedges + 1, sizeof *o->bins))) {
        a->oom = 1;
        return;
    }
    for (size_t i = 0; i < n; i++)
        o->bins[bin_of(d->edges, d->nedges, x[i])]++;
}

/* ---- the statistics of a release -------------------------------------- */

static int ignored(const keps_release_audit *a, const char *name)
{
    for (size_t i = 0; i < a->o.nignore; i++)
        if (strcmp(a->ignore[i], name) == 0)
            return 1;
    return 0;
}

/* Equal rows get equal ids, numbered in order of first appearance (over the
 * covered columns' codes of this table). Returns the number of ids. */
static size_t row_ids(const keps_table *t, const size_t *cols, size_t m, uint32_t *id)
{
    size_t n = t->nrows, cap = 16;
    while (cap < 2 * n)
        cap *= 2;
    size_t *slot = calloc(cap, sizeof *slot); /* row + 1 */
    if (!slot)
        return 0;
    size_t next = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t h = 1469598103934665603ull;
        for (size_t j = 0; j < m; j++)
            h = (h ^ t->cols[cols[j]].codes[i]) * 1099511628211ull;
        size_t s = (size_t)(h ^ (h >> 29)) & (cap - 1);
        for (;; s = (s + 1) & (cap - 1)) {
            if (!slot[s]) {
                slot[s] = i + 1;
                id[i] = (uint32_t)next++;
                break;
            }
            size_t r = slot[s] - 1, j = 0;
            while (j < m && t->cols[cols[j]].codes[r] == t->cols[cols[j]].codes[i])
                j++;
            if (j == m) {
                id[i] = id[r];
                break;
            }
        }
    }
    free(slot);
    return next;
}

/* "0 0 1 1": which of the first k entries are equal, labelled in order of
 * first appearance (restricted growth string). */
static void pattern(const uint32_t *v, size_t k, char *out, size_t len)
{
    uint32_t seen[64], lab[64];
    size_t ns = 0, at = 0;
    out[0] = '\0';
    for (size_t i = 0; i < k && i < 64; i++) {
        size_t j = 0;
        while (j < ns && seen[j] != v[i])
            j++;
        if (j == ns)
            seen[ns] = v[i], lab[ns] = (uint32_t)ns, ns++;
        at += (size_t)snprintf(out + at, at < len ? len - at : 0, "%s%u", i ? " " : "", lab[j]);
    }
}

static int cmp_str(const void *x, const void *y)
{
    return strcmp(*(char *const *)x, *(char *const *)y);
}

/* The distinct patterns of '*' cells over the rows ("(none)" for a row
 * without '*'), sorted and joined with " | "; *starred gets the rows that
 * hold a '*'. */
static char *star_patterns(const keps_table *t, const size_t *cols, size_t m, size_t *starred)
{
    size_t n = t->nrows;
    uint32_t *star = calloc(m ? m : 1, sizeof *star);
    char **pat = calloc(n ? n : 1, sizeof *pat);
    char *out = NULL;
    *starred = 0;
    if (!star || !pat)
        goto done;
    for (size_t j = 0; j < m; j++)
        star[j] = keps_table_lookup(t, cols[j], "*", 1);
    size_t np = 0;
    for (size_t i = 0; i < n; i++) {
        size_t len = 8;
        for (size_t j = 0; j < m; j++)
            len += t->cols[cols[j]].codes[i] == star[j] ? strlen(t->cols[cols[j]].name) + 2 : 0;
        char *p = malloc(len);
        if (!p)
            goto done;
        size_t at = 0;
        p[0] = '\0';
        for (size_t j = 0; j < m; j++)
            if (star[j] != KEPS_NONE && t->cols[cols[j]].codes[i] == star[j])
                at += (size_t)snprintf(p + at, len - at, "%s%s", at ? "+" : "", t->cols[cols[j]].name);
        *starred += at > 0;
        if (!at)
            snprintf(p, len, "(none)");
        pat[np++] = p;
    }
    qsort(pat, np, sizeof *pat, cmp_str);
    size_t len = 1, k = 0;
    for (size_t i = 0; i < np; i++)
        len += (i == 0 || strcmp(pat[i], pat[i - 1])) ? strlen(pat[i]) + 3 : 0;
    if (!(out = malloc(len)))
        goto done;
    out[0] = '\0';
    for (size_t i = 0; i < np; i++)
        if (i == 0 || strcmp(pat[i], pat[i - 1]))
            k += (size_t)snprintf(out + k, len - k, "%s%s", k ? " | " : "", pat[i]);
done:
    for (size_t i = 0; pat && i < n; i++)
        free(pat[i]);
    free(pat);
    free(star);
    return out;
}

/* Numbers of a column (cells that read as decimal numbers; '*', missing
 * cells and labels are left out), parsed once per distinct value. */
static size_t column_numbers(const keps_table *t, size_t col, double *x)
{
    const keps_column *c = &t->cols[col];
    double *val = malloc((c->nvalues ? c->nvalues : 1) * sizeof *val);
    size_t n = 0;
    if (!val)
        return 0;
    for (uint32_t v = 0; v < c->nvalues; v++)
        if (keps_parse_number(c->values[v], &val[v]) != KEPS_NUM_OK)
            val[v] = NAN;
    for (size_t i = 0; i < t->nrows; i++)
        if (!isnan(val[c->codes[i]]))
            x[n++] = val[c->codes[i]];
    free(val);
    return n;
}

static void observe(keps_release_audit *a, const keps_table *t, int exit_code)
{
    char key[512], buf[1024];
    a->cursor = 0;
    snprintf(buf, sizeof buf, "%d", exit_code);
    emit_cat(a, "status", "exit status", buf);
    if (!t)
        return;
    size_t n = t->nrows, m = 0;
    size_t *cols = malloc((t->ncols ? t->ncols : 1) * sizeof *cols);
    uint32_t *id = malloc((n ? n : 1) * sizeof *id);
    double *x = malloc((n ? n : 1) * sizeof *x);
    if (!cols || !id || !x) {
        a->oom = 1;
        goto done;
    }
    size_t hl = 0;
    buf[0] = '\0';
    for (size_t j = 0; j < t->ncols; j++)
        if (!ignored(a, t->cols[j].name)) {
            cols[m++] = j;
            hl += (size_t)snprintf(buf + hl, hl < sizeof buf ? sizeof buf - hl : 0, "%s%s", hl ? ", " : "",
                                   t->cols[j].name);
        }
    emit_cat(a, "status", "header", buf);
    snprintf(buf, sizeof buf, "%zu", n);
    emit_cat(a, "rows", "row count", buf);
    emit_scalar(a, "rows", "row count", (double)n);
    size_t R = n < a->o.prefix_rows ? n : a->o.prefix_rows;
    /* order: whole rows */
    size_t distinct = row_ids(t, cols, m, id);
    pattern(id, R, buf, sizeof buf);
    snprintf(key, sizeof key, "equal rows among rows 1-%zu", R);
    emit_cat(a, "order", key, buf);
    emit_scalar(a, "order", "distinct rows", (double)distinct);
    for (size_t i = 0; i + 1 < n && i < a->o.adjacent; i++) {
        snprintf(key, sizeof key, "rows %zu and %zu equal", i + 1, i + 2);
        emit_cat(a, "order", key, id[i] == id[i + 1] ? "yes" : "no");
    }
    /* suppression */
    size_t starred = 0;
    char *sp = star_patterns(t, cols, m, &starred);
    if (!sp)
        a->oom = 1;
    else
        emit_cat(a, "suppression", "'*' patterns of the rows", sp);
    free(sp);
    emit_scalar(a, "suppression", "rows holding '*'", (double)starred);
    /* per column: order, values, numbers */
    for (size_t c = 0; c < m; c++) {
        const keps_column *col = &t->cols[cols[c]];
        pattern(col->codes, R, buf, sizeof buf);
        snprintf(key, sizeof key, "equal values of column '%.200s' among rows 1-%zu", col->name, R);
        emit_cat(a, "order", key, buf);
        snprintf(key, sizeof key, "distinct values of column '%.200s'", col->name);
        emit_scalar(a, "order", key, (double)col->nvalues);
        snprintf(key, sizeof key, "column '%.200s'", col->name);
        emit_set(a, "values", key, t, cols[c]);
        size_t k = column_numbers(t, cols[c], x);
        if (!k)
            continue;
        snprintf(key, sizeof key, "numbers of column '%.200s'", col->name);
        emit_num(a, "numbers", key, x, k);
        double mn = x[0], mx = x[0], sum = 0;
        for (size_t i = 0; i < k; i++) {
            mn = fmin(mn, x[i]);
            mx = fmax(mx, x[i]);
            sum += x[i];
        }
        snprintf(key, sizeof key, "mean of column '%.200s'", col->name);
        emit_scalar(a, "numbers", key, sum / (double)k);
        snprintf(key, sizeof key, "minimum of column '%.200s'", col->name);
        emit_scalar(a, "numbers", key, mn);
        snprintf(key, sizeof key, "maximum of column '%.200s'", col->name);
        emit_scalar(a, "numbers", key, mx);
    }
done:
    free(cols);
    free(id);
    free(x);
}

/* ---- phases ------------------------------------------------------------- */

static keps_status oom(keps_release_audit *a, keps_error *err)
{
    return a->oom ? keps_error_set(err, KEPS_ENOMEM, "out of memory in the audit") : KEPS_OK;
}

keps_status keps_release_audit_select(keps_release_audit *a, int side, const keps_table *release, int exit_code,
                                      keps_error *err)
{
    if (a->frozen || (side != 0 && side != 1))
        return keps_error_set(err, KEPS_EINPUT, "audit: a selection run after the events were fixed, or side %d",
                              side);
    observe(a, release, exit_code);
    a->selection[side]++;
    return oom(a, err);
}

static int add_event(keps_release_audit *a, size_t stat, ev_type type, const char *value, double t, size_t bin,
                     const char *name)
{
    for (int neg = 0; neg <= 1; neg++) {
        if (a->nev == a->capev) {
            size_t cap = a->capev ? 2 * a->capev : 64;
            event *e = realloc(a->ev, cap * sizeof *e);
            if (!e)
                return -1;
            a->ev = e;
            a->capev = cap;
        }
        event *e = &a->ev[a->nev];
        memset(e, 0, sizeof *e);
        e->stat = stat;
        e->type = type;
        e->negate = neg;
        e->t = t;
        e->bin = bin;
        size_t len = strlen(name) + 8;
        if ((value && !(e->value = strdup(value))) || !(e->name = malloc(len)))
            return -1;
        snprintf(e->name, len, "%s%s", neg ? "NOT " : "", name);
        a->nev++;
    }
    return 0;
}

typedef struct cand {
    const char *v;
    size_t balance; /* runs on the rarer side: held or failed */
} cand;

static int cmp_cand(const void *x, const void *y)
{
    const cand *p = x, *q = y;
    if (p->balance != q->balance)
        return p->balance < q->balance ? 1 : -1; /* more balanced first */
    return strcmp(p->v, q->v);
}

/* Values held in at least min_support selection runs and not in all. */
static int freeze_values(keps_release_audit *a, size_t s, size_t nsel)
{
    stat_def *d = &a->stats[s];
    cand *c = malloc((d->vals.n ? d->vals.n : 1) * sizeof *c);
    if (!c)
        return -1;
    size_t nc = 0;
    for (size_t i = 0; i < d->vals.cap; i++) {
        size_t k = d->vals.key[i] ? d->vals.count[i] : 0;
        if (k >= a->o.min_support && k < nsel)
            c[nc++] = (cand){d->vals.key[i], k < nsel - k ? k : nsel - k};
    }
    qsort(c, nc, sizeof *c, cmp_cand);
    /* a statistic of two values: one value's event and its complement are
     * the other's complement and event */
    if (d->kind == ST_CAT && d->vals.n == 2 && nc > 1)
        nc = 1;
    int rc = 0;
    for (size_t i = 0; i < nc && i < a->o.max_values && !rc; i++) {
        size_t len = strlen(d->key) + strlen(c[i].v) + 32;
        char *name = malloc(len);
        if (!name) {
            rc = -1;
            break;
        }
        if (d->kind == ST_CAT)
            snprintf(name, len, "%s is '%s'", d->key, c[i].v);
        else
            snprintf(name, len, "%s holds '%s'", d->key, c[i].v);
        rc = add_event(a, s, d->kind == ST_CAT ? EV_EQ : EV_HAS, c[i].v, 0, 0, name);
        free(name);
    }
    free(c);
    return rc;
}

/* Thresholds at the pooled quantiles j/bins; kept when the event held in
 * some selection runs and failed in others (absent counts as failed). */
static int freeze_scalar(keps_release_audit *a, size_t s, size_t nsel)
{
    stat_def *d = &a->stats[s];
    if (!d->pool.n)
        return 0;
    qsort(d->pool.v, d->pool.n, sizeof *d->pool.v, cmp_double);
    double last = NAN;
    for (size_t j = 1; j < a->o.bins; j++) {
        double q = d->pool.v[j * d->pool.n / a->o.bins];
        if (q == last)
            continue;
        last = q;
        size_t held = bin_of(d->pool.v, d->pool.n, q); /* values <= q */
        if (held == 0 || held == nsel)
            continue;
        char name[700];
        snprintf(name, sizeof name, "%s <= %.10g", d->key, q);
        if (add_event(a, s, EV_LE, NULL, q, 0, name))
            return -1;
    }
    return 0;
}

static int cmp_size(const void *x, const void *y)
{
    size_t p = *(const size_t *)x, q = *(const size_t *)y;
    return (p > q) - (p < q);
}

/* Bins at the pooled quantiles; per bin, "more than the selection runs'
 * median count" when that split the selection runs. */
static int freeze_num(keps_release_audit *a, size_t s, size_t nsel)
{
    stat_def *d = &a->stats[s];
    if (!d->pool.n)
        return 0;
    qsort(d->pool.v, d->pool.n, sizeof *d->pool.v, cmp_double);
    if (!(d->edges = malloc(a->o.bins * sizeof *d->edges)))
        return -1;
    for (size_t j = 1; j < a->o.bins; j++) {
        double e = d->pool.v[j * d->pool.n / a->o.bins];
        if (d->nedges == 0 || e != d->edges[d->nedges - 1])
            d->edges[d->nedges++] = e;
    }
    size_t nb = d->nedges + 1, nr = nsel;
    size_t *cnt = calloc(nb * (nr ? nr : 1), sizeof *cnt), *col = malloc((nr ? nr : 1) * sizeof *col);
    int rc = cnt && col ? 0 : -1;
    for (size_t r = 0; !rc && r < d->nruns; r++)
        for (size_t i = 0; i < d->runs[r].n; i++)
            cnt[bin_of(d->edges, d->nedges, d->runs[r].v[i]) * nr + r]++;
    for (size_t b = 0; !rc && b < nb; b++) {
        memcpy(col, cnt + b * nr, nr * sizeof *col); /* runs without the statistic count 0 */
        qsort(col, nr, sizeof *col, cmp_size);
        size_t med = col[nr / 2], above = 0;
        for (size_t r = 0; r < nr; r++)
            above += col[r] > med;
        if (above == 0 || above == nr)
            continue;
        char name[800], lo[40], hi[40];
        snprintf(lo, sizeof lo, b ? "%.10g" : "-inf", b ? d->edges[b - 1] : 0.0);
        snprintf(hi, sizeof hi, b < d->nedges ? "%.10g" : "+inf", b < d->nedges ? d->edges[b] : 0.0);
        snprintf(name, sizeof name, "more than %zu %s in [%s, %s)", med, d->key, lo, hi);
        rc = add_event(a, s, EV_BIN_GT, NULL, (double)med, b, name);
    }
    free(cnt);
    free(col);
    return rc;
}

keps_status keps_release_audit_freeze(keps_release_audit *a, keps_error *err)
{
    if (a->frozen)
        return KEPS_OK;
    size_t nsel = a->selection[0] + a->selection[1];
    if (nsel < 2)
        return keps_error_set(err, KEPS_EINPUT, "audit: %zu selection runs; at least 2 are needed", nsel);
    int rc = 0;
    for (size_t s = 0; s < a->nstats && !rc; s++) {
        stat_def *d = &a->stats[s];
        if (d->kind == ST_CAT || d->kind == ST_SET)
            rc = freeze_values(a, s, nsel);
        else if (d->kind == ST_SCALAR)
            rc = freeze_scalar(a, s, nsel);
        else
            rc = freeze_num(a, s, nsel);
    }
    a->frozen = 1;
    if (!rc && !(a->cur = calloc(a->nstats ? a->nstats : 1, sizeof *a->cur)))
        rc = -1;
    if (rc)
        a->oom = 1;
    return oom(a, err);
}

static int holds(const keps_release_audit *a, const event *e)
{
    const obs *o = &a->cur[e->stat];
    int h = 0;
    if (o->present) {
        switch (e->type) {
        case EV_EQ:
            h = strcmp(o->cat, e->value) == 0;
            break;
        case EV_HAS:
            h = keps_table_lookup(o->t, o->col, e->value, strlen(e->value)) != KEPS_NONE;
            break;
        case EV_LE:
            h = o->x <= e->t;
            break;
        case EV_BIN_GT:
            h = o->bins && (double)o->bins[e->bin] > e->t;
            break;
        }
    }
    return e->negate ? !h : h;
}

keps_status keps_release_audit_add(keps_release_audit *a, int side, const keps_table *release, int exit_code,
                                   keps_error *err)
{
    if (!a->frozen || (side != 0 && side != 1))
        return keps_error_set(err, KEPS_EINPUT, "audit: a test run before the events were fixed, or side %d", side);
    observe(a, release, exit_code);
    keps_status st = oom(a, err);
    if (!st) {
        for (size_t e = 0; e < a->nev; e++)
            a->ev[e].count[side] += (size_t)holds(a, &a->ev[e]);
        a->runs[side]++;
    }
    obs_clear(a);
    return st;
}

/* ---- estimates ------------------------------------------------------------ */

static int cmp_event(const void *x, const void *y)
{
    const keps_release_event *p = x, *q = y;
    if (p->lower != q->lower)
        return p->lower < q->lower ? 1 : -1;
    if (p->one_sided != q->one_sided)
        return q->one_sided - p->one_sided;
    size_t cp = p->count[0] + p->count[1], cq = q->count[0] + q->count[1];
    if (cp != cq)
        return cp < cq ? 1 : -1;
    return strcmp(p->name, q->name);
}

/* ln((lo - delta)/hi), -inf when lo <= delta. */
static double loss_lower(double lo, double hi, double delta)
{
    return lo > delta ? log((lo - delta) / hi) : -INFINITY;
}

keps_status keps_release_audit_estimate(const keps_release_audit *a, double epsilon, double delta, double alpha,
                                        keps_release_audit_result *res, keps_error *err)
{
    memset(res, 0, sizeof *res);
    if (!a->frozen)
        return keps_error_set(err, KEPS_EINPUT, "audit: no events yet (keps_release_audit_freeze)");
    if (!(epsilon >= 0) || !(delta >= 0 && delta < 1) || !(alpha > 0 && alpha < 1))
        return keps_error_set(err, KEPS_EINPUT, "audit: epsilon %g, delta %g, alpha %g out of range", epsilon,
                              delta, alpha);
    if (!a->runs[0] || !a->runs[1])
        return keps_error_set(err, KEPS_EINPUT, "audit: test runs of both inputs are needed (%zu, %zu)",
                              a->runs[0], a->runs[1]);
    res->runs[0] = a->runs[0];
    res->runs[1] = a->runs[1];
    res->selection[0] = a->selection[0];
    res->selection[1] = a->selection[1];
    res->epsilon = epsilon;
    res->delta = delta;
    res->alpha = alpha;
    res->epsilon_lower = -INFINITY;
    res->nevents = a->nev;
    if (!(res->events = calloc(a->nev ? a->nev : 1, sizeof *res->events)))
        return keps_error_set(err, KEPS_ENOMEM, "out of memory");
    double level = alpha / (4.0 * (double)(a->nev ? a->nev : 1)); /* 4 one-sided bounds per event */
    for (size_t i = 0; i < a->nev; i++) {
        const event *e = &a->ev[i];
        keps_release_event *r = &res->events[i];
        r->name = e->name;
        r->family = a->stats[e->stat].family;
        for (int s = 0; s < 2; s++) {
            r->count[s] = e->count[s];
            keps_clopper_pearson(e->count[s], a->runs[s], level, &r->p_lo[s], &r->p_hi[s]);
        }
        double l0 = loss_lower(r->p_lo[0], r->p_hi[1], delta), l1 = loss_lower(r->p_lo[1], r->p_hi[0], delta);
        r->direction = l1 > l0;
        int s = r->direction, o = 1 - s;
        r->lower = s ? l1 : l0;
        r->upper = r->p_lo[o] > 0 ? log(r->p_hi[s] / r->p_lo[o]) : INFINITY;
        double ps = (double)e->count[s] / (double)a->runs[s], po = (double)e->count[o] / (double)a->runs[o];
        r->hat = e->count[s] == 0 ? (e->count[o] == 0 ? 0 : -INFINITY) : e->count[o] == 0 ? INFINITY : log(ps / po);
        r->one_sided = (e->count[0] == 0) != (e->count[1] == 0);
        res->one_sided += (size_t)r->one_sided;
        res->violations += r->lower > epsilon;
        if (r->lower > res->epsilon_lower)
            res->epsilon_lower = r->lower;
    }
    /* Equal distributions and equal run counts: given c occurrences, all on
     * one side with probability 2^(1-c); over m events at most m 2^(1-c). */
    res->one_sided_min = (size_t)ceil(log2(2.0 * (double)(a->nev ? a->nev : 1) / alpha));
    for (size_t i = 0; i < a->nev; i++) {
        keps_release_event *r = &res->events[i];
        r->one_sided_significant = r->one_sided && r->count[0] + r->count[1] >= res->one_sided_min;
        res->one_sided_significant += (size_t)r->one_sided_significant;
    }
    qsort(res->events, res->nevents, sizeof *res->events, cmp_event);
    res->violation = res->violations > 0;
    return KEPS_OK;
}

void keps_release_audit_result_free(keps_release_audit_result *res)
{
    free(res->events);
    memset(res, 0, sizeof *res);
}

void keps_release_audit_json(const keps_release_audit_result *res, keps_json *j, const char *key, size_t max_events)
{
    keps_json_object(j, key);
    keps_json_num(j, "epsilon_claimed", res->epsilon);
    keps_json_num(j, "delta_claimed", res->delta);
    keps_json_num(j, "alpha", res->alpha);
    keps_json_bool(j, "violation", res->violation);
    keps_json_num(j, "epsilon_lower", res->epsilon_lower);
    keps_json_int(j, "violations", (long long)res->violations);
    keps_json_int(j, "one_sided_events", (long long)res->one_sided);
    keps_json_int(j, "one_sided_min_runs", (long long)res->one_sided_min);
    keps_json_int(j, "one_sided_significant", (long long)res->one_sided_significant);
    keps_json_int(j, "events_tested", (long long)res->nevents);
    keps_json_int(j, "runs_a", (long long)res->runs[0]);
    keps_json_int(j, "runs_b", (long long)res->runs[1]);
    keps_json_int(j, "selection_runs_a", (long long)res->selection[0]);
    keps_json_int(j, "selection_runs_b", (long long)res->selection[1]);
    keps_json_array(j, "events");
    for (size_t i = 0; i < res->nevents && (!max_events || i < max_events); i++) {
        const keps_release_event *e = &res->events[i];
        keps_json_object(j, NULL);
        keps_json_str(j, "event", e->name);
        keps_json_str(j, "family", e->family);
        keps_json_int(j, "count_a", (long long)e->count[0]);
        keps_json_int(j, "count_b", (long long)e->count[1]);
        keps_json_str(j, "direction", e->direction ? "ln(P_B/P_A)" : "ln(P_A/P_B)");
        keps_json_num(j, "loss_hat", e->hat); /* null when infinite */
        keps_json_num(j, "loss_lower", e->lower);
        keps_json_num(j, "loss_upper", e->upper);
        keps_json_bool(j, "one_sided", e->one_sided);
        keps_json_bool(j, "one_sided_significant", e->one_sided_significant);
        keps_json_bool(j, "violation", e->lower > res->epsilon);
        keps_json_end(j);
    }
    keps_json_end(j);
    keps_json_end(j);
}

/* ---- the stated guarantee of a keps report ------------------------------ */

/* A JSON number; NAN for null or anything else. */
static double json_num(const json_t *n)
{
    return json_is_number(n) ? json_number_value(n) : NAN;
}

keps_status keps_release_audit_claim(const char *json, size_t len, keps_audit_claim *out, keps_error *err)
{
    memset(out, 0, sizeof *out);
    out->epsilon = NAN;
    json_error_t je;
    json_t *root = json_loadb(json, len, JSON_DECODE_ANY | JSON_ALLOW_NUL, &je);
    if (!root)
        return keps_error_set(err, KEPS_EINPUT, "the report is not JSON: %s at line %d, column %d", je.text, je.line,
                              je.column);
    keps_status st = KEPS_OK;
    json_t *g = json_object_get(root, "guarantee"); /* NULL unless root is an object holding it */
    if (!json_is_object(g)) {
        st = keps_error_set(err, KEPS_EINPUT, "the report has no \"guarantee\" object");
        goto done;
    }
    json_t *m = json_object_get(g, "model");
    if (json_is_string(m))
        snprintf(out->model, sizeof out->model, "%s", json_string_value(m));
    out->epsilon = json_num(json_object_get(g, "epsilon"));
    double dl = json_num(json_object_get(g, "delta"));
    out->delta = isnan(dl) ? 0 : dl;
    static const char *const dp[] = {"epsilon-DP", "epsilon-LDP", "(beta,epsilon,delta)-DPS"};
    for (size_t i = 0; i < sizeof dp / sizeof *dp; i++) {
        size_t l = strlen(dp[i]);
        if (strncmp(out->model, dp[i], l) == 0 && (out->model[l] == '\0' || out->model[l] == ' '))
            out->dp = 1;
    }
    json_t *nc = json_object_get(g, "not_covered");
    if (json_is_array(nc)) {
        size_t n = json_array_size(nc);
        if (!(out->not_covered = calloc(n ? n : 1, sizeof *out->not_covered))) {
            st = keps_error_set(err, KEPS_ENOMEM, "out of memory");
            goto done;
        }
        for (size_t i = 0; i < n; i++) {
            json_t *v = json_array_get(nc, i);
            if (json_is_string(v) && !(out->not_covered[out->nnot_covered++] = strdup(json_string_value(v)))) {
                st = keps_error_set(err, KEPS_ENOMEM, "out of memory");
                goto done;
            }
        }
    }
    json_t *dd = json_object_get(g, "data_dependent");
    if (json_is_array(dd))
        out->ndata_dependent = json_array_size(dd);
done:
    json_decref(root);
    if (st)
        keps_audit_claim_free(out);
    return st;
}

void keps_audit_claim_free(keps_audit_claim *c)
{
    for (size_t i = 0; i < c->nnot_covered; i++)
        free(c->not_covered[i]);
    free(c->not_covered);
    c->not_covered = NULL;
    c->nnot_covered = 0;
}
