/* Utility of a release: classifier accuracy and information loss (see
 * evaluate.h for the definitions). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keps/evaluate.h"
#include "keps/logreg.h"

/* ------------------------------------------------------------ helpers */

static int is_star(const char *s)
{
    return s[0] == '*' && s[1] == 0;
}

/* The whole string as a number as every command reads one (decimal, at
 * most KEPS_NUM_MAX), or NaN. */
/* s as a number with t's decimal mark, NaN if it is none. */
static double parse_num(const keps_table *t, const char *s)
{
    double v;
    return keps_table_parse(t, s, &v) == KEPS_NUM_OK ? v : NAN;
}

/* Numeric value per code (NaN for the missing token, and for a value that
 * is no number). *all = 1 when the column is numeric by keps's type rule
 * (keps_table_infer_type: codes such as "01097" are categorical). Caller
 * frees. */
static double *column_numbers(const keps_table *t, size_t col, int *all)
{
    const keps_column *c = &t->cols[col];
    double *v = malloc((c->nvalues ? c->nvalues : 1) * sizeof *v);
    *all = v != NULL && keps_table_infer_type(t, col, NULL, NULL) == KEPS_TYPE_NUMERIC;
    for (uint32_t k = 0; v && k < c->nvalues; k++)
        v[k] = k == c->missing ? NAN : parse_num(t, c->values[k]);
    return v;
}

/* "[lo-hi[" or "[lo-hi]" (lo may be negative; written with t's decimal
 * mark): 1 and the bounds, else 0. */
static int parse_interval(const keps_table *t, const char *label, double *lo, double *hi, int *closed)
{
    char buf[128];
    const char *s = label;
    if (t->decimal_comma && strlen(label) < sizeof buf && !strchr(label, '.')) {
        for (size_t i = 0; (buf[i] = label[i] == ',' ? '.' : label[i]); i++)
            ;
        s = buf;
    }
    if (s[0] != '[')
        return 0;
    char *end;
    *lo = strtod(s + 1, &end);
    if (end == s + 1 || *end != '-')
        return 0;
    const char *p = end + 1;
    *hi = strtod(p, &end);
    if (end == p || (end[0] != '[' && end[0] != ']') || end[1] != 0)
        return 0;
    *closed = end[0] == ']';
    return 1;
}

/* Lowest level of h whose values cover every non-missing release value
 * ("*" only at the top level); -1 if none. A column of nothing but "*" is
 * at the top level: generalized away, not suppressed row by row at level 0
 * (the loss is the same, the level a curator reads is not). */
static int detect_level(const keps_table *rel, size_t col, const keps_hierarchy *h)
{
    const keps_column *c = &rel->cols[col];
    int top = keps_hierarchy_height(h), other = 0;
    for (uint32_t k = 0; k < c->nvalues; k++)
        other |= k != c->missing && !is_star(c->values[k]);
    for (int l = other ? 0 : top; l <= top; l++) {
        int ok = 1;
        for (uint32_t k = 0; ok && k < c->nvalues; k++) {
            const char *v = c->values[k];
            if (k == c->missing || (is_star(v) && l < top))
                continue;
            ok = keps_table_lookup(h->levels, (size_t)l, v, strlen(v)) != KEPS_NONE;
        }
        if (ok)
            return l;
    }
    return -1;
}

static const keps_hierarchy *find_hier(const keps_eval_options *o, const char *name)
{
    for (size_t i = 0; i < o->nhier; i++)
        if (strcmp(o->hier[i].column, name) == 0)
            return o->hier[i].h;
    return NULL;
}

/* Every value of column col of t is a leaf of h: the check every other
 * command makes through keps_hierarchy_bind (its error names the cell). */
static keps_status leaves_in(const keps_hierarchy *h, const keps_table *t, size_t col, keps_error *err)
{
    uint32_t **map;
    keps_status st = keps_hierarchy_bind(h, t, col, &map, err);
    if (!st)
        keps_hierarchy_map_free(map, h);
    return st;
}

/* Every release value ('*' and the missing token aside) is at some level
 * of h; otherwise h is not the hierarchy the release was made with and the
 * level would silently read as unknown. */
static keps_status release_in(const keps_hierarchy *h, const keps_table *rel, size_t col, keps_error *err)
{
    const keps_column *c = &rel->cols[col];
    for (uint32_t k = 0; k < c->nvalues; k++) {
        const char *v = c->values[k];
        int found = k == c->missing || is_star(v);
        for (size_t l = 0; !found && l < h->levels->ncols; l++)
            found = keps_table_lookup(h->levels, l, v, strlen(v)) != KEPS_NONE;
        if (!found)
            return keps_table_cell_error(err, rel, col, c->first_row[k],
                                         "value '%s' is at no level of the hierarchy %s; give the hierarchy "
                                         "the release was made with",
                                         v, h->levels->source);
    }
    return KEPS_OK;
}

/* Each hierarchy fits its column in the original, the test file and the
 * release (evaluate.h, errors). */
static keps_status check_hierarchies(const keps_table *orig, const keps_table *rel, const keps_eval_options *o,
                                     keps_error *err)
{
    keps_status st = KEPS_OK;
    for (size_t i = 0; i < o->nhier && !st; i++) {
        const keps_hierarchy *h = o->hier[i].h;
        const char *name = o->hier[i].column;
        int oc = keps_table_column(orig, name), rc = keps_table_column(rel, name),
            tc = o->test ? keps_table_column(o->test, name) : -1;
        if (oc < 0)
            return keps_error_set(err, KEPS_EINPUT, "the hierarchy %s is for column '%s', which %s does not have",
                                  h->levels->source, name, orig->source);
        st = leaves_in(h, orig, (size_t)oc, err);
        if (!st && tc >= 0)
            st = leaves_in(h, o->test, (size_t)tc, err);
        if (!st && rc >= 0)
            st = release_in(h, rel, (size_t)rc, err);
    }
    return st;
}

/* Release code of an original value s of release column col, generalized
 * the way the release was (evaluate.h); KEPS_NONE if nothing matches.
 * With a hierarchy and a single detected level, a leaf's value there is
 * its generalization even when s itself is a release value: a level-l
 * label may spell another leaf (a -> x, b -> a), and "a" then means b's
 * class, not a's. */
static uint32_t generalize_value(const keps_table *rel, size_t col, const keps_hierarchy *h, int level,
                                 const char *s)
{
    if (h && level > 0) {
        uint32_t leaf = keps_table_lookup(h->levels, 0, s, strlen(s));
        if (leaf != KEPS_NONE) {
            size_t row = h->levels->cols[0].first_row[leaf];
            const char *g = keps_table_str(h->levels, (size_t)level, row);
            return keps_table_lookup(rel, col, g, strlen(g));
        }
    }
    uint32_t code = keps_table_lookup(rel, col, s, strlen(s));
    if (code != KEPS_NONE)
        return code;
    double x = parse_num(rel, s), lo, hi;
    int closed;
    const keps_column *c = &rel->cols[col];
    for (uint32_t k = 0; !isnan(x) && k < c->nvalues; k++)
        if (parse_interval(rel, c->values[k], &lo, &hi, &closed) && x >= lo && (x < hi || (closed && x == hi)))
            return k;
    return KEPS_NONE;
}

/* --------------------------------------------------- information loss */

static void attr_loss(const keps_table *orig, size_t oc, const keps_table *rel, size_t rc, const keps_hierarchy *h,
                      keps_eval_attr *a)
{
    const keps_column *c = &rel->cols[rc];
    size_t n = rel->nrows, stars = 0, foreign = 0, plain = 0;
    for (size_t i = 0; i < n; i++) {
        const char *v = c->values[c->codes[i]];
        if (keps_table_lookup(orig, oc, v, strlen(v)) == KEPS_NONE)
            foreign++;
        if (is_star(v))
            stars++;
        else
            plain += c->codes[i] != c->missing;
    }
    a->name = c->name;
    a->level = h ? detect_level(rel, rc, h) : -1;
    a->height = h ? keps_hierarchy_height(h) : -1;
    /* A '*' is a suppressed cell unless the column was generalized to the
     * top: the detected level says so, or without a hierarchy a column with
     * nothing but '*' (as detect_level decides it). */
    int at_top = h ? a->level == a->height : stars > 0 && plain == 0;
    size_t supp = at_top ? 0 : stars;
    a->suppressed_share = n ? (double)supp / (double)n : 0;
    a->non_original_share = n ? (double)foreign / (double)n : 0;
    a->distinct_ratio = (double)c->nvalues / (double)(orig->cols[oc].nvalues ? orig->cols[oc].nvalues : 1);
    if (a->level >= 0 && a->height > 0) {
        a->generalization = (double)a->level / a->height;
        a->prec = n ? (((double)(n - supp)) * a->generalization + (double)supp) / (double)n : 0;
    } else {
        a->generalization = a->height == 0 ? 0 : NAN;
        a->prec = a->generalization;
    }
}

/* ------------------------------------------------------------ the model */

/* One feature column of a training table T, and how test rows reach it. */
typedef struct feat {
    size_t col;       /* T's column */
    int numeric;
    double *num;      /* T's numbers per code (numeric) */
    double mean, sd;
    uint32_t off;     /* one-hot: feature off + T code */
    uint32_t *tmap;   /* test code -> T code (categorical) */
    double *tnum;     /* test numbers per test code (numeric) */
    size_t tcol;      /* test table's column */
    size_t attr;      /* index in keps_eval_result.attrs */
} feat;

typedef struct dataset {
    const keps_table *t;
    const size_t *rows;
    size_t nrows;
    int test;         /* rows of the test table (use tmap/tnum) */
} dataset;

/* Encodes rows into CSR; returns 0 or -1 on OOM. */
static int encode(const dataset *d, const feat *f, size_t nf, size_t nfeat, keps_sparse *x)
{
    x->nrows = d->nrows;
    x->nfeat = nfeat;
    x->start = malloc((d->nrows + 1) * sizeof *x->start);
    x->idx = malloc((d->nrows * nf + 1) * sizeof *x->idx);
    x->val = malloc((d->nrows * nf + 1) * sizeof *x->val);
    if (!x->start || !x->idx || !x->val)
        return -1;
    size_t e = 0;
    for (size_t r = 0; r < d->nrows; r++) {
        x->start[r] = e;
        size_t row = d->rows[r];
        for (size_t j = 0; j < nf; j++) {
            const feat *g = &f[j];
            uint32_t code = d->t->cols[d->test ? g->tcol : g->col].codes[row];
            if (g->numeric) {
                double v = d->test ? g->tnum[code] : g->num[code];
                if (isnan(v))
                    continue; /* missing: the mean, 0 after standardization */
                x->idx[e] = g->off;
                x->val[e++] = (v - g->mean) / g->sd;
            } else {
                uint32_t tc = d->test ? g->tmap[code] : code;
                if (tc == KEPS_NONE)
                    continue; /* a value the training data never shows */
                x->idx[e] = g->off + tc;
                x->val[e++] = 1.0;
            }
        }
    }
    x->start[d->nrows] = e;
    return 0;
}

static void sparse_free(keps_sparse *x)
{
    free(x->start);
    free(x->idx);
    free(x->val);
}

/* Standardization statistics over the training rows; assigns offsets. */
static size_t layout(const dataset *tr, feat *f, size_t nf)
{
    size_t nfeat = 0;
    for (size_t j = 0; j < nf; j++) {
        f[j].off = (uint32_t)nfeat;
        if (!f[j].numeric) {
            nfeat += tr->t->cols[f[j].col].nvalues;
            continue;
        }
        double s = 0, ss = 0;
        size_t m = 0;
        for (size_t r = 0; r < tr->nrows; r++) {
            double v = f[j].num[tr->t->cols[f[j].col].codes[tr->rows[r]]];
            if (!isnan(v)) {
                s += v;
                m++;
            }
        }
        f[j].mean = m ? s / (double)m : 0;
        for (size_t r = 0; r < tr->nrows; r++) {
            double v = f[j].num[tr->t->cols[f[j].col].codes[tr->rows[r]]];
            if (!isnan(v))
                ss += (v - f[j].mean) * (v - f[j].mean);
        }
        f[j].sd = m ? sqrt(ss / (double)m) : 0; /* population sd, as StandardScaler */
        if (!(f[j].sd > 0))
            f[j].sd = 1;
        nfeat++;
    }
    return nfeat;
}

/* Trains on tr (labels: codes of T's column ycol) and returns the share
 * of test rows predicted right (test labels: tlab[test code] = T code). */
static keps_status fit_score(const dataset *tr, size_t ycol, feat *f, size_t nf, const dataset *te, size_t tycol,
                             const uint32_t *tlab, double c, double *acc, size_t *nfeat_out, size_t *ncls_out,
                             keps_error *err)
{
    const keps_column *yc = &tr->t->cols[ycol];
    size_t nv = yc->nvalues, ncls = 0;
    uint32_t *cls = calloc(nv ? nv : 1, sizeof *cls);
    char *present = calloc(nv ? nv : 1, 1);
    keps_sparse x = {0}, xt = {0};
    uint8_t *y = malloc(tr->nrows + 1);
    double *w = NULL, *best = malloc((te->nrows + 1) * sizeof *best);
    uint32_t *pred = malloc((te->nrows + 1) * sizeof *pred);
    keps_status st = KEPS_OK;
    size_t nfeat = layout(tr, f, nf);
    if (!cls || !present || !y || !best || !pred || encode(tr, f, nf, nfeat, &x) || encode(te, f, nf, nfeat, &xt) ||
        !(w = malloc((nfeat + 1) * sizeof *w))) {
        st = keps_error_set(err, KEPS_ENOMEM, "out of memory for the classifier");
        goto out;
    }
    for (size_t r = 0; r < tr->nrows; r++)
        present[yc->codes[tr->rows[r]]] = 1;
    for (uint32_t k = 0; k < nv; k++)
        if (present[k])
            cls[ncls++] = k;
    for (size_t r = 0; r < te->nrows; r++) {
        best[r] = -INFINITY;
        pred[r] = ncls ? cls[0] : KEPS_NONE;
    }
    /* binary: one model for the second class; else one vs rest */
    size_t nmodels = ncls == 2 ? 1 : (ncls > 2 ? ncls : 0);
    for (size_t m = 0; m < nmodels && !st; m++) {
        uint32_t pos = ncls == 2 ? cls[1] : cls[m];
        for (size_t r = 0; r < tr->nrows; r++)
            y[r] = yc->codes[tr->rows[r]] == pos;
        if ((st = keps_logreg_fit(&x, y, c, w, err)))
            break;
        for (size_t r = 0; r < te->nrows; r++) {
            size_t s = xt.start[r];
            double z = keps_logreg_margin(w, nfeat, xt.idx + s, xt.val + s, xt.start[r + 1] - s);
            if (ncls == 2)
                pred[r] = z > 0 ? cls[1] : cls[0];
            else if (z > best[r]) {
                best[r] = z;
                pred[r] = pos;
            }
        }
    }
    size_t right = 0;
    for (size_t r = 0; r < te->nrows; r++)
        right += tlab[te->t->cols[tycol].codes[te->rows[r]]] == pred[r] && pred[r] != KEPS_NONE;
    *acc = te->nrows ? (double)right / (double)te->nrows : NAN;
    *nfeat_out = nfeat;
    *ncls_out = ncls;
out:
    sparse_free(&x);
    sparse_free(&xt);
    free(cls);
    free(present);
    free(y);
    free(w);
    free(best);
    free(pred);
    return st;
}

/* test code -> T code of the same string (or generalized for the release). */
static uint32_t *code_map(const keps_table *tt, size_t tcol, const keps_table *t, size_t col,
                          const keps_hierarchy *h, int level, int generalize)
{
    const keps_column *c = &tt->cols[tcol];
    uint32_t *m = malloc((c->nvalues ? c->nvalues : 1) * sizeof *m);
    for (uint32_t k = 0; m && k < c->nvalues; k++) {
        const char *s = c->values[k];
        m[k] = generalize ? generalize_value(t, col, h, level, s) : keps_table_lookup(t, col, s, strlen(s));
    }
    return m;
}

static int ignored(const keps_eval_options *o, const char *name)
{
    for (size_t i = 0; i < o->nignore; i++)
        if (strcmp(o->ignore[i], name) == 0)
            return 1;
    return 0;
}

static void feats_free(feat *f, size_t nf)
{
    for (size_t j = 0; f && j < nf; j++) {
        free(f[j].num);
        free(f[j].tmap);
        free(f[j].tnum);
    }
    free(f);
}

/* Builds the feature columns of training table t (the release when rel,
 * else the original) against test table tt. */
static keps_status build_feats(const keps_table *t, int rel, const keps_table *tt,
                               const keps_eval_options *o, keps_eval_result *r, feat **out, size_t *nout,
                               keps_error *err)
{
    feat *f = calloc(r->nattrs + 1, sizeof *f);
    size_t nf = 0;
    if (!f)
        return keps_error_set(err, KEPS_ENOMEM, "out of memory");
    for (size_t a = 0; a < r->nattrs; a++) {
        const char *name = r->attrs[a].name;
        if (strcmp(name, o->target) == 0 || ignored(o, name))
            continue;
        int col = keps_table_column(t, name), tcol = keps_table_column(tt, name);
        if (col < 0 || tcol < 0)
            continue;
        feat *g = &f[nf++];
        g->col = (size_t)col;
        g->tcol = (size_t)tcol;
        g->attr = a;
        /* numeric when the training and the test column both parse */
        int all_t, all_tt;
        g->num = column_numbers(t, g->col, &all_t);
        g->tnum = column_numbers(tt, g->tcol, &all_tt);
        g->numeric = all_t && all_tt;
        if (rel)
            r->attrs[a].numeric = g->numeric;
        if (!g->numeric) {
            const keps_hierarchy *h = find_hier(o, name);
            g->tmap = code_map(tt, g->tcol, t, g->col, h, r->attrs[a].level, rel);
        }
        if (!g->num || !g->tnum || (!g->numeric && !g->tmap)) {
            feats_free(f, nf);
            return keps_error_set(err, KEPS_ENOMEM, "out of memory");
        }
    }
    *out = f;
    *nout = nf;
    return KEPS_OK;
}

/* The shortest %g of the split want/n that still holds out want rows. */
static void split_label(char *buf, size_t len, size_t n, size_t want)
{
    double s = (double)want / (double)n;
    for (int p = 3; p <= 17; p++) {
        snprintf(buf, len, "%.*g", p, s);
        if ((size_t)llround(strtod(buf, NULL) * (double)n) == want)
            return;
    }
}

/* Test rows of a split of n rows; each side needs a row, else the accuracy
 * is 0/0 or that of a model trained on nothing. */
static keps_status split_size(size_t n, double split, size_t *nte, keps_error *err)
{
    *nte = (size_t)llround(split * (double)n);
    if (*nte >= 1 && *nte < n)
        return KEPS_OK;
    if (n < 2)
        return keps_error_set(err, KEPS_EINPUT,
                              "split %g: the original has %zu row, and a split needs 2 (1 to train, 1 to "
                              "test); give a test file instead",
                              split, n);
    char lo[32], hi[32];
    split_label(lo, sizeof lo, n, 1);
    split_label(hi, sizeof hi, n, n - 1);
    return keps_error_set(err, KEPS_EINPUT,
                          "split %g of %zu original rows holds out %zu test rows and leaves %zu training rows; "
                          "each side needs at least 1: a split from %s (1 test row) to %s (1 training row) "
                          "works for this input",
                          split, n, *nte, n - *nte, lo, hi);
}

keps_status keps_eval_split(size_t n, double fraction, keps_rng *rng, uint8_t *test, size_t *ntest,
                            keps_error *err)
{
    if (!rng || !(fraction > 0 && fraction < 1))
        return keps_error_set(err, KEPS_EINPUT, "split %g: give a fraction strictly between 0 and 1 and a random "
                                                "generator", fraction);
    keps_status st = split_size(n, fraction, ntest, err);
    uint32_t *perm = st ? NULL : keps_rng_permutation(rng, n);
    if (!st && !perm)
        return keps_error_set(err, KEPS_ENOMEM, "out of memory");
    for (size_t i = 0; perm && i < n; i++)
        test[perm[i]] = i < *ntest;
    free(perm);
    return st;
}

/* The held-out test rows (of the test file, or split from the original)
 * and the original's training rows. */
static keps_status pick_rows(const keps_table *orig, const keps_eval_options *o, size_t **test_rows, size_t *nte,
                             size_t **raw_rows, size_t *ntr, keps_error *err)
{
    size_t n = orig->nrows;
    if (o->test && o->test->nrows == 0)
        return keps_error_set(err, KEPS_EINPUT, "the test file %s has no records: nothing to test on",
                              o->test->source);
    if (!o->test && (!o->rng || !(o->split > 0 && o->split < 1)))
        return keps_error_set(err, KEPS_EINPUT, "give a test file or a split fraction in (0, 1)");
    keps_status st = o->test ? KEPS_OK : split_size(n, o->split, nte, err);
    if (st)
        return st;
    *nte = o->test ? o->test->nrows : *nte;
    *ntr = o->test ? n : n - *nte;
    uint32_t *perm = o->test ? NULL : keps_rng_permutation(o->rng, n);
    *test_rows = malloc((*nte + 1) * sizeof **test_rows);
    *raw_rows = malloc((*ntr + 1) * sizeof **raw_rows);
    if ((!o->test && !perm) || !*test_rows || !*raw_rows) {
        free(perm);
        return keps_error_set(err, KEPS_ENOMEM, "out of memory");
    }
    /* with a test file: its rows and every original row; else the first
     * nte of a random permutation are the test rows */
    for (size_t i = 0; o->test && i < *nte; i++)
        (*test_rows)[i] = i;
    for (size_t i = 0; i < n; i++) {
        size_t row = perm ? perm[i] : i;
        if (perm && i < *nte)
            (*test_rows)[i] = row;
        else
            (*raw_rows)[perm ? i - *nte : i] = row;
    }
    free(perm);
    return KEPS_OK;
}

/* Share of the test rows whose value of categorical feature g matches no
 * value of the training table: the classifier sees nothing of them. */
static double unmatched_share(const feat *g, const dataset *te)
{
    size_t miss = 0;
    for (size_t r = 0; !g->numeric && r < te->nrows; r++)
        miss += g->tmap[te->t->cols[g->tcol].codes[te->rows[r]]] == KEPS_NONE;
    return te->nrows ? (double)miss / (double)te->nrows : 0;
}

/* The majority-class baseline: the release's most frequent class for every
 * test row. */
static keps_status baseline(const keps_table *rel, size_t ry, const dataset *te, size_t ty, const uint32_t *lab_rel,
                            keps_eval_result *r, keps_error *err)
{
    const keps_column *yc = &rel->cols[ry];
    size_t *cnt = calloc(yc->nvalues + 1, sizeof *cnt), right = 0;
    if (!cnt)
        return keps_error_set(err, KEPS_ENOMEM, "out of memory");
    for (size_t i = 0; i < rel->nrows; i++)
        cnt[yc->codes[i]]++;
    uint32_t maj = 0;
    for (uint32_t k = 1; k < yc->nvalues; k++)
        if (cnt[k] > cnt[maj])
            maj = k;
    free(cnt);
    for (size_t i = 0; i < te->nrows; i++)
        right += lab_rel[te->t->cols[ty].codes[te->rows[i]]] == maj;
    r->baseline = te->nrows ? (double)right / (double)te->nrows : NAN;
    r->majority = yc->nvalues ? strdup(yc->values[maj]) : NULL;
    return KEPS_OK;
}

static keps_status model(const keps_table *orig, const keps_table *rel, const keps_eval_options *o,
                         keps_eval_result *r, keps_error *err)
{
    const keps_table *tt = o->test ? o->test : orig;
    int oy = keps_table_column(orig, o->target), ry = keps_table_column(rel, o->target),
        ty = keps_table_column(tt, o->target);
    if (oy < 0 || ry < 0 || ty < 0) /* names the file, lists its columns */
        return keps_table_no_column(err, ry < 0 ? rel : (oy < 0 ? orig : tt), o->target);
    size_t nte = 0, ntr = 0;
    size_t *test_rows = NULL, *raw_rows = NULL, *rel_rows = NULL;
    uint32_t *lab_rel = NULL, *lab_raw = NULL;
    feat *fr = NULL, *fo = NULL;
    size_t nfr = 0, nfo = 0;
    keps_status st = pick_rows(orig, o, &test_rows, &nte, &raw_rows, &ntr, err);
    if (st)
        goto out;
    rel_rows = malloc((rel->nrows + 1) * sizeof *rel_rows);
    for (size_t i = 0; rel_rows && i < rel->nrows; i++)
        rel_rows[i] = i;
    lab_rel = code_map(tt, (size_t)ty, rel, (size_t)ry, NULL, 0, 0);
    lab_raw = code_map(tt, (size_t)ty, orig, (size_t)oy, NULL, 0, 0);
    if (!rel_rows || !lab_rel || !lab_raw) {
        st = keps_error_set(err, KEPS_ENOMEM, "out of memory");
        goto out;
    }
    if ((st = build_feats(rel, 1, tt, o, r, &fr, &nfr, err)) ||
        (st = build_feats(orig, 0, tt, o, r, &fo, &nfo, err)))
        goto out;
    double c = o->c > 0 ? o->c : 1.0;
    dataset trel = {rel, rel_rows, rel->nrows, 0}, traw = {orig, raw_rows, ntr, 0}, te = {tt, test_rows, nte, 1};
    for (size_t j = 0; j < nfr; j++)
        r->attrs[fr[j].attr].test_unmatched_share = unmatched_share(&fr[j], &te);
    size_t ncls_raw, nfeat_raw;
    if ((st = fit_score(&trel, (size_t)ry, fr, nfr, &te, (size_t)ty, lab_rel, c, &r->accuracy, &r->nfeatures,
                        &r->nclasses, err)) ||
        (st = fit_score(&traw, (size_t)oy, fo, nfo, &te, (size_t)ty, lab_raw, c, &r->accuracy_original, &nfeat_raw,
                        &ncls_raw, err)))
        goto out;
    if ((st = baseline(rel, (size_t)ry, &te, (size_t)ty, lab_rel, r, err)))
        goto out;
    r->has_model = 1;
    r->train_rows = rel->nrows;
    r->original_train_rows = ntr;
    r->test_rows = nte;
out:
    feats_free(fr, nfr);
    feats_free(fo, nfo);
    free(rel_rows);
    free(test_rows);
    free(raw_rows);
    free(lab_rel);
    free(lab_raw);
    return st;
}

keps_status keps_evaluate(const keps_table *orig, const keps_table *rel, const keps_eval_options *o,
                          keps_eval_result *r, keps_error *err)
{
    memset(r, 0, sizeof *r);
    /* an empty release is a release (nothing was published); an empty
     * original leaves nothing to compare it with */
    if (orig->nrows == 0)
        return keps_error_set(err, KEPS_EINPUT, "%s: no records after the header: nothing to compare the release with",
                              orig->source);
    keps_status st = check_hierarchies(orig, rel, o, err);
    if (st)
        return st;
    r->original_rows = orig->nrows;
    r->release_rows = rel->nrows;
    r->attrs = calloc(rel->ncols + 1, sizeof *r->attrs);
    if (!r->attrs)
        return keps_error_set(err, KEPS_ENOMEM, "out of memory");
    for (size_t j = 0; j < rel->ncols; j++) {
        int oc = keps_table_column(orig, rel->cols[j].name);
        if (oc < 0)
            continue;
        r->attrs[r->nattrs].test_unmatched_share = NAN;
        attr_loss(orig, (size_t)oc, rel, j, find_hier(o, rel->cols[j].name), &r->attrs[r->nattrs++]);
    }
    if (!o->target)
        return KEPS_OK;
    if (rel->nrows == 0) {
        keps_eval_result_free(r);
        return keps_error_set(err, KEPS_EJOB, "the release has no rows: nothing to train a classifier on");
    }
    st = model(orig, rel, o, r, err);
    if (st)
        keps_eval_result_free(r);
    return st;
}

void keps_eval_result_free(keps_eval_result *r)
{
    free(r->attrs);
    free(r->majority);
    memset(r, 0, sizeof *r);
}
