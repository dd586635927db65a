/* keps: privacy criteria (definitions in include/keps/criteria.h). */
#include "keps/criteria.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- names and properties ------------------------------------------------ */

static const char *const names[KEPS_CRIT_COUNT] = {
    "k-anonymity",      "distinct-l-diversity", "entropy-l-diversity", "recursive-(c,l)-diversity",
    "t-closeness",      "beta-likeness",        "delta-disclosure",    "delta-presence",
    "k-map",            "average-risk",         "sample-uniqueness",   "multiplicative-t-closeness",
    "(k,t)-closeness"};

const char *keps_criterion_name(keps_criterion_kind k)
{
    return (unsigned)k < KEPS_CRIT_COUNT ? names[k] : "?";
}

int keps_criterion_names_column(keps_criterion_kind k)
{
    switch (k) {
    case KEPS_CRIT_DISTINCT_L:
    case KEPS_CRIT_ENTROPY_L:
    case KEPS_CRIT_RECURSIVE_CL:
    case KEPS_CRIT_T_CLOSENESS:
    case KEPS_CRIT_BETA_LIKENESS:
    case KEPS_CRIT_DELTA_DISCLOSURE:
    case KEPS_CRIT_MULT_T:
    case KEPS_CRIT_KT_CLOSENESS:
        return 1;
    default:
        return 0;
    }
}

int keps_criterion_needs_subset(const keps_criterion *c)
{
    return c->kind == KEPS_CRIT_DELTA_PRESENCE || (c->kind == KEPS_CRIT_K_MAP && c->variant == KEPS_KMAP_SUBSET);
}

int keps_criterion_sample_based(keps_criterion_kind k)
{
    return k == KEPS_CRIT_AVERAGE_RISK || k == KEPS_CRIT_SAMPLE_UNIQUENESS;
}

/* The facts (see criteria.h). With suppression, a criterion is monotone
 * when a class containing a passing class passes: the count, the distinct
 * values and the population count only grow. Without suppression it must
 * hold that a class merged from passing classes passes: true for convex or
 * quasi-convex figures (Shannon entropy is concave, the EMDs convex, the
 * likeness and presence ratios are mixtures), false for delta-disclosure
 * (a value absent from one part is diluted in the merge) and for the
 * Grassberger estimator ({a, b} passes 2-diversity, {a, a, b, b} fails). */
int keps_criterion_monotone(const keps_criterion *c, int with_suppression)
{
    switch (c->kind) {
    case KEPS_CRIT_K_ANONYMITY:
    case KEPS_CRIT_DISTINCT_L:
    case KEPS_CRIT_K_MAP:
    case KEPS_CRIT_AVERAGE_RISK:
    case KEPS_CRIT_SAMPLE_UNIQUENESS:
    case KEPS_CRIT_KT_CLOSENESS:
        return 1;
    case KEPS_CRIT_ENTROPY_L:
        return !with_suppression && c->variant == KEPS_ENTROPY_SHANNON;
    case KEPS_CRIT_DELTA_DISCLOSURE:
        return 0;
    default:
        return !with_suppression;
    }
}

/* ---- Grassberger's G_n ------------------------------------------------------
 * G_2n = -gamma - ln 2 + sum_{j=1..n} 2/(2j-1), summed in double-double so
 * that the result is the correctly rounded value (a plain double sum is off
 * by up to 6 ulps at n = 100, which moves the entropy test at its bound).
 * Above 100, ARX's asymptotic expansion of the digamma function. */

typedef struct {
    double hi, lo;
} dd;

static dd dd_add(dd a, dd b)
{
    double s = a.hi + b.hi, bb = s - a.hi, e = (a.hi - (s - bb)) + (b.hi - bb);
    e += a.lo + b.lo;
    double h = s + e;
    return (dd){h, e - (h - s)};
}

static dd dd_div(double a, double b) /* a / b to double-double */
{
    double q = a / b;
    return (dd){q, fma(-q, b, a) / b};
}

double keps_grassberger_g(uint32_t n)
{
    /* -gamma - ln 2 as a double-double: gamma = 0.5772156649015328606065...,
     * ln 2 = 0.6931471805599453094172... */
    static const dd g1 = {-1.2703628454614782, -1.824755298603235e-17};
    if (n == 0)
        n = 1;
    if (n <= 100) {
        dd s = g1;
        for (uint32_t j = 1; j <= n / 2; j++)
            s = dd_add(s, dd_div(2.0, (double)(2 * j - 1)));
        return s.hi + s.lo;
    }
    double e = (double)(n - n % 2);
    double m = 1.0 / ((e / 2) * (e / 2));
    return log(e) + m * (1.0 / 24 - m * (7.0 / 960 - m * (31.0 / 8064)));
}

/* ---- the bound criteria ---------------------------------------------------- */

typedef struct sens_col {
    keps_sensitive_type type; /* resolved */
    size_t m;                 /* values */
    size_t m_ord;             /* ordered: the values in the order (a numeric column's
                                 missing cells are value m_ord, outside it) */
    uint64_t total_ord;       /* released rows holding an ordered value */
    double *q_ord;            /* [m_ord] their distribution */
    uint32_t *vmap;           /* [table nvalues] table code -> value id, KEPS_NONE */
    uint64_t *gcnt;           /* [m] released rows per value */
    double *q;                /* [m] gcnt / total */
    uint64_t total;           /* released rows counted */
    /* hierarchical */
    int height;
    uint32_t *nn;             /* [height+1] nodes per level */
    uint32_t **parent;        /* [height][code at level l] code at level l+1 */
    int64_t **gsub;           /* [height+1][code] released rows under the node */
} sens_col;

struct keps_criteria {
    size_t nc;
    keps_criterion *c;
    size_t nsens;
    keps_sensitive_spec *spec;
    sens_col *sc;
    size_t released;
    uint8_t *subset;
    size_t min_size;
    int whole_fails;  /* a whole-release criterion ((k,t)-closeness) fails */
    size_t *use[2][2]; /* [mono_only][with_suppression]: the per-class criteria to check
                          besides the minimal class size (k-anonymity is that) */
    size_t nuse[2][2];
    size_t presence;   /* the delta-presence criterion, or nc */
    size_t *derived_k; /* [nc] k-map with an estimator: k' (else 0) */
    double **vertex;   /* [nc] t-closeness: [m] the EMD of a class holding value v alone
                          (the largest it reaches on distributions over a class's values),
                          else NULL */
    double **ecap;     /* [nc] Shannon entropy l-diversity: [m + 1, at most ECAP_MAX + 1] the
                          largest share of one value in a passing class of m values */
    struct etable *etab; /* [nc] entropy l-diversity: its estimator's terms by count */
};

/* An entropy l-diversity's terms for counts c < n: psi[c] = psi(c) (ln c, or
 * Grassberger's G_c) and term[c] = c psi(c), the products the sums add, so a
 * class's sum is lookups that give the very values computed one by one;
 * larger counts are computed. lnl = ln l; floor: entropy_floor's value. */
typedef struct etable {
    size_t n;
    double *psi, *term, lnl, floor;
} etable;

size_t keps_criteria_count(const keps_criteria *k)
{
    return k->nc;
}

const keps_criterion *keps_criteria_get(const keps_criteria *k, size_t i)
{
    return &k->c[i];
}

size_t keps_criteria_nsens(const keps_criteria *k)
{
    return k->nsens;
}

const keps_sensitive_spec *keps_criteria_sensitive(const keps_criteria *k, size_t s)
{
    return &k->spec[s];
}

keps_sensitive_type keps_criteria_sensitive_type(const keps_criteria *k, size_t s)
{
    return k->sc[s].type;
}

size_t keps_criteria_nvalues(const keps_criteria *k, size_t s)
{
    return k->sc[s].m;
}

uint32_t keps_criteria_value(const keps_criteria *k, size_t s, uint32_t code)
{
    return k->sc[s].vmap[code];
}

size_t keps_criteria_released(const keps_criteria *k)
{
    return k->released;
}

const uint8_t *keps_criteria_subset(const keps_criteria *k)
{
    return k->subset;
}

size_t keps_criteria_min_class_size(const keps_criteria *k)
{
    return k->min_size;
}

int keps_criteria_monotone(const keps_criteria *k, int with_suppression)
{
    for (size_t i = 0; i < k->nc; i++)
        if (!keps_criterion_monotone(&k->c[i], with_suppression))
            return 0;
    return 1;
}

int keps_criteria_need_histograms(const keps_criteria *k)
{
    for (size_t i = 0; i < k->nc; i++)
        if (keps_criterion_names_column(k->c[i].kind) && k->c[i].kind != KEPS_CRIT_KT_CLOSENESS)
            return 1;
    return 0;
}

int keps_criteria_need_pcount(const keps_criteria *k)
{
    return k->subset != NULL;
}

int keps_criteria_has_sample_based(const keps_criteria *k)
{
    for (size_t i = 0; i < k->nc; i++)
        if (keps_criterion_sample_based(k->c[i].kind))
            return 1;
    return 0;
}

static void sens_col_free(sens_col *s)
{
    free(s->vmap);
    free(s->gcnt);
    free(s->q);
    free(s->q_ord);
    if (s->parent)
        for (int l = 0; l < s->height; l++)
            free(s->parent[l]);
    if (s->gsub)
        for (int l = 0; l <= s->height; l++)
            free(s->gsub[l]);
    free(s->parent);
    free(s->gsub);
    free(s->nn);
}

void keps_criteria_free(keps_criteria *k)
{
    if (!k)
        return;
    for (size_t s = 0; k->sc && s < k->nsens; s++)
        sens_col_free(&k->sc[s]);
    free(k->sc);
    free(k->spec);
    free(k->c);
    free(k->subset);
    for (int a = 0; a < 2; a++)
        for (int b = 0; b < 2; b++)
            free(k->use[a][b]);
    free(k->derived_k);
    for (size_t i = 0; k->vertex && i < k->nc; i++)
        free(k->vertex[i]);
    free(k->vertex);
    for (size_t i = 0; k->ecap && i < k->nc; i++)
        free(k->ecap[i]);
    free(k->ecap);
    for (size_t i = 0; k->etab && i < k->nc; i++) {
        free(k->etab[i].psi);
        free(k->etab[i].term);
    }
    free(k->etab);
    free(k);
}

/* ---- building -------------------------------------------------------------- */

typedef struct {
    double x;
    const char *s;
    uint32_t v;
} keyed;

static int cmp_num(const void *a, const void *b)
{
    double x = ((const keyed *)a)->x, y = ((const keyed *)b)->x;
    return (x > y) - (x < y);
}

static int cmp_text(const void *a, const void *b)
{
    return strcmp(((const keyed *)a)->s, ((const keyed *)b)->s);
}

/* Value ids: table codes (nominal), ranks in order (ordered: equal numbers
 * spelled differently are one value; missing cells are left out), or
 * hierarchy leaves (hierarchical). */
static keps_status map_values(keps_table *t, const keps_sensitive_spec *sp, sens_col *s, keps_error *err)
{
    const keps_column *c = &t->cols[sp->col];
    s->vmap = malloc((c->nvalues + 1) * sizeof *s->vmap);
    if (!s->vmap)
        return keps_error_set(err, KEPS_ENOMEM, "out of memory");
    if (s->type == KEPS_SENSITIVE_NOMINAL) {
        for (uint32_t v = 0; v < c->nvalues; v++)
            s->vmap[v] = v;
        s->m = c->nvalues;
        return KEPS_OK;
    }
    if (s->type == KEPS_SENSITIVE_HIERARCHICAL) {
        const keps_table *lv = sp->h->levels;
        for (uint32_t v = 0; v < c->nvalues; v++) {
            s->vmap[v] = keps_table_lookup(lv, 0, c->values[v], strlen(c->values[v]));
            if (s->vmap[v] == KEPS_NONE) {
                size_t r = 0;
                while (r < t->nrows && c->codes[r] != v)
                    r++;
                return keps_error_set(err, KEPS_EINPUT,
                                      "%s:%zu:%zu: sensitive value '%s' of column '%s' is not a leaf of the "
                                      "hierarchy %s: add it to the hierarchy's first column",
                                      t->source, t->row_line ? (size_t)t->row_line[r] : r + 2, sp->col + 1,
                                      c->values[v], c->name, lv->source);
            }
        }
        s->m = keps_hierarchy_leaves(sp->h);
        return KEPS_OK;
    }
    /* ordered: numbers if every non-missing value is one, else text */
    keps_error perr = {0};
    int numeric = keps_table_numeric(t, sp->col, &perr) == KEPS_OK;
    if (perr.code == KEPS_ENOMEM)
        return keps_error_set(err, KEPS_ENOMEM, "out of memory");
    keyed *o = malloc((c->nvalues + 1) * sizeof *o);
    if (!o)
        return keps_error_set(err, KEPS_ENOMEM, "out of memory");
    size_t n = 0;
    for (uint32_t v = 0; v < c->nvalues; v++) {
        s->vmap[v] = KEPS_NONE;
        if (!numeric || v != c->missing)
            o[n++] = (keyed){numeric ? c->num[v] : 0, c->values[v], v};
    }
    qsort(o, n, sizeof *o, numeric ? cmp_num : cmp_text);
    s->m = 0;
    for (size_t i = 0; i < n; i++) {
        if (i == 0 || (numeric ? o[i].x != o[i - 1].x : strcmp(o[i].s, o[i - 1].s) != 0))
            s->m++;
        s->vmap[o[i].v] = (uint32_t)(s->m - 1);
    }
    s->m_ord = s->m;
    if (numeric && c->missing != KEPS_NONE) /* a value of its own, outside the order */
        s->vmap[c->missing] = (uint32_t)s->m++;
    free(o);
    return KEPS_OK;
}

static keps_status build_tree(const keps_sensitive_spec *sp, sens_col *s)
{
    const keps_table *lv = sp->h->levels;
    s->height = keps_hierarchy_height(sp->h);
    s->nn = calloc((size_t)s->height + 1, sizeof *s->nn);
    s->parent = calloc((size_t)s->height + 1, sizeof *s->parent);
    s->gsub = calloc((size_t)s->height + 1, sizeof *s->gsub);
    if (!s->nn || !s->parent || !s->gsub)
        return KEPS_ENOMEM;
    for (int l = 0; l <= s->height; l++) {
        s->nn[l] = keps_hierarchy_size(sp->h, l);
        s->gsub[l] = calloc(s->nn[l] + 1, sizeof **s->gsub);
        if (!s->gsub[l])
            return KEPS_ENOMEM;
    }
    for (int l = 0; l < s->height; l++) {
        s->parent[l] = malloc((s->nn[l] + 1) * sizeof **s->parent);
        if (!s->parent[l])
            return KEPS_ENOMEM;
        for (size_t r = 0; r < lv->nrows; r++) /* consistent: one parent per code */
            s->parent[l][lv->cols[l].codes[r]] = lv->cols[l + 1].codes[r];
    }
    for (size_t r = 0; r < lv->nrows; r++) {
        int64_t g = (int64_t)s->gcnt[lv->cols[0].codes[r]];
        for (int l = 1; l <= s->height; l++)
            s->gsub[l][lv->cols[l].codes[r]] += g;
        s->gsub[0][lv->cols[0].codes[r]] = g;
    }
    return KEPS_OK;
}

/* Poisson probability of x at lambda, in logs (lambda > 0). */
static double poisson_pmf(double lambda, double x)
{
    return exp(-lambda + x * log(lambda) - lgamma(x + 1));
}

/* ARX's k' of k-map with an estimator (see keps_kmap_estimator): the
 * smallest count whose (zero-truncated) Poisson cumulative probability at
 * lambda = k x rows / population reaches 1 - significance, stopping at k;
 * ARX's loop returns that count + 1 for the Poisson, the count for the
 * zero-truncated one; then capped by the rows and by k. */
static size_t kmap_derived(const keps_criterion *c, size_t rows)
{
    double k = c->p[0], lambda = k * (double)rows / c->p[2], threshold = 1 - c->p[1], value = 0;
    size_t d;
    if (c->variant == KEPS_KMAP_POISSON) {
        size_t counter = 0;
        double cdf = 0;
        while (value < threshold) {
            cdf += poisson_pmf(lambda, (double)counter);
            value = cdf;
            counter++;
            if ((double)counter >= k) {
                value = 1;
                break;
            }
        }
        d = counter + 1;
    } else {
        double v2 = 1 - exp(-lambda);
        size_t counter = 1;
        while (value < threshold) {
            value += poisson_pmf(lambda, (double)counter) / v2;
            counter++;
            if ((double)counter >= k) {
                value = 1;
                break;
            }
        }
        d = counter;
    }
    if (d > rows)
        d = rows;
    return (double)d < k ? d : (size_t)k;
}

size_t keps_criteria_kmap_derived_k(const keps_criteria *k, size_t i)
{
    return k->derived_k[i];
}

static keps_status check_params(const keps_criterion *c, size_t i, size_t nsens, int has_subset, keps_error *err)
{
    const char *n = keps_criterion_name(c->kind);
    if ((unsigned)c->kind >= KEPS_CRIT_COUNT)
        return keps_error_set(err, KEPS_EINPUT, "criterion %zu: unknown kind %d", i + 1, (int)c->kind);
    if (keps_criterion_names_column(c->kind) && c->sens >= nsens)
        return keps_error_set(err, KEPS_EINPUT, "%s: sensitive column %zu out of range (%zu given)", n, c->sens + 1,
                              nsens);
    if (keps_criterion_needs_subset(c) && !has_subset)
        return keps_error_set(err, KEPS_EINPUT,
                              "%s needs a research subset: the input is the population, the subset is what is "
                              "released",
                              n);
    double a = c->p[0], b = c->p[1];
    int ok = 1;
    switch (c->kind) {
    case KEPS_CRIT_K_ANONYMITY:
    case KEPS_CRIT_DISTINCT_L:
        ok = a >= 1 && a <= 4294967295.0 && a == floor(a);
        break;
    case KEPS_CRIT_K_MAP:
        ok = a >= 1 && a <= 4294967295.0 && a == floor(a) && (unsigned)c->variant <= KEPS_KMAP_ZERO_TRUNCATED_POISSON &&
             (c->variant == KEPS_KMAP_SUBSET || (b >= 0 && b <= 1 && c->p[2] >= 1 && isfinite(c->p[2])));
        break;
    case KEPS_CRIT_ENTROPY_L:
        ok = a > 0 && a <= 4294967295.0 && (unsigned)c->variant <= KEPS_ENTROPY_GRASSBERGER;
        break;
    case KEPS_CRIT_RECURSIVE_CL:
        ok = a > 0 && isfinite(a) && b >= 1 && b <= 4294967295.0 && b == floor(b);
        break;
    case KEPS_CRIT_T_CLOSENESS:
        ok = a >= 0 && a <= 1;
        break;
    case KEPS_CRIT_BETA_LIKENESS:
        ok = a > 0 && isfinite(a) && (unsigned)c->variant <= KEPS_BETA_ENHANCED;
        break;
    case KEPS_CRIT_DELTA_DISCLOSURE:
        ok = a > 0 && isfinite(a);
        break;
    case KEPS_CRIT_DELTA_PRESENCE:
        ok = a >= 0 && b <= 1 && a <= b;
        break;
    case KEPS_CRIT_AVERAGE_RISK:
    case KEPS_CRIT_SAMPLE_UNIQUENESS:
        ok = a >= 0 && a <= 1;
        break;
    case KEPS_CRIT_MULT_T:
        ok = a >= 1;
        break;
    case KEPS_CRIT_KT_CLOSENESS:
        ok = a >= 1 && a == floor(a) && a <= 4294967295.0 && b >= 1;
        break;
    default:
        break;
    }
    if (!ok)
        return keps_error_set(err, KEPS_EINPUT, "%s: parameter out of range (%g, %g)", n, a, b);
    return KEPS_OK;
}

static int vertices(keps_criteria *k, size_t i);
static int entropy_caps(keps_criteria *k, size_t i);
static int entropy_table(keps_criteria *k, size_t i);

keps_status keps_criteria_new(keps_table *t, const keps_sensitive_spec *sens, size_t nsens, const keps_criterion *c,
                              size_t nc, const uint8_t *released, keps_criteria **out, keps_error *err)
{
    return keps_criteria_new_weighted(t, NULL, sens, nsens, c, nc, released, out, err);
}

keps_status keps_criteria_new_weighted(keps_table *t, const uint32_t *weight, const keps_sensitive_spec *sens,
                                       size_t nsens, const keps_criterion *c, size_t nc, const uint8_t *released,
                                       keps_criteria **out, keps_error *err)
{
    *out = NULL;
    keps_status st = KEPS_OK;
    for (size_t i = 0; i < nc && !st; i++)
        st = check_params(&c[i], i, nsens, released != NULL, err);
    for (size_t s = 0; s < nsens && !st; s++) {
        if (sens[s].col >= t->ncols)
            st = keps_error_set(err, KEPS_EINPUT, "sensitive column index %zu is out of range: %s has %zu columns",
                                sens[s].col, t->source, t->ncols);
        else if ((unsigned)sens[s].type > KEPS_SENSITIVE_HIERARCHICAL ||
                 (sens[s].type == KEPS_SENSITIVE_HIERARCHICAL && !sens[s].h))
            st = keps_error_set(err, KEPS_EINPUT, "sensitive column '%s': unknown type, or hierarchical without a "
                                "hierarchy", t->cols[sens[s].col].name);
    }
    if (st)
        return st;
    keps_criteria *k = calloc(1, sizeof *k);
    if (!k)
        return keps_error_set(err, KEPS_ENOMEM, "out of memory");
    k->nc = nc;
    k->nsens = nsens;
    k->c = malloc((nc + 1) * sizeof *k->c);
    k->spec = malloc((nsens + 1) * sizeof *k->spec);
    k->sc = calloc(nsens + 1, sizeof *k->sc);
    if (released)
        k->subset = malloc(t->nrows + 1);
    if (!k->c || !k->spec || !k->sc || (released && !k->subset))
        goto oom;
    if (nc) /* memcpy's pointers must not be NULL even for 0 bytes */
        memcpy(k->c, c, nc * sizeof *c);
    if (nsens)
        memcpy(k->spec, sens, nsens * sizeof *sens);
    /* records: a frequency table's row counts its weight */
    k->released = 0;
    for (size_t r = 0; r < t->nrows; r++)
        if (!released || (k->subset[r] = released[r] != 0))
            k->released += weight ? weight[r] : 1;
    if (!(k->derived_k = calloc(nc + 1, sizeof *k->derived_k)))
        goto oom;
    for (size_t i = 0; i < nc; i++) {
        double ms = 0;
        if (c[i].kind == KEPS_CRIT_K_ANONYMITY || c[i].kind == KEPS_CRIT_DISTINCT_L ||
            c[i].kind == KEPS_CRIT_ENTROPY_L)
            ms = ceil(c[i].p[0]);
        else if (c[i].kind == KEPS_CRIT_RECURSIVE_CL)
            ms = c[i].p[1];
        else if (c[i].kind == KEPS_CRIT_K_MAP && c[i].variant != KEPS_KMAP_SUBSET)
            ms = (double)(k->derived_k[i] = kmap_derived(&c[i], k->released));
        if (ms > (double)k->min_size)
            k->min_size = (size_t)ms;
    }
    for (size_t s = 0; s < nsens; s++) {
        sens_col *sc = &k->sc[s];
        const keps_column *col = &t->cols[sens[s].col];
        sc->type = sens[s].type;
        if (sc->type == KEPS_SENSITIVE_AUTO) /* numeric by keps's type rule: codes such as "02" are not */
            sc->type = keps_table_infer_type(t, sens[s].col, NULL, NULL) == KEPS_TYPE_NUMERIC
                           ? KEPS_SENSITIVE_ORDERED
                           : KEPS_SENSITIVE_NOMINAL;
        if ((st = map_values(t, &sens[s], sc, err)))
            goto fail;
        sc->gcnt = calloc(sc->m + 1, sizeof *sc->gcnt);
        sc->q = calloc(sc->m + 1, sizeof *sc->q);
        if (!sc->gcnt || !sc->q)
            goto oom;
        for (size_t r = 0; r < t->nrows; r++) {
            uint32_t v = sc->vmap[col->codes[r]];
            if (v != KEPS_NONE && (!released || released[r])) {
                sc->gcnt[v] += weight ? weight[r] : 1;
                sc->total += weight ? weight[r] : 1;
            }
        }
        for (size_t v = 0; v < sc->m; v++)
            sc->q[v] = sc->total ? (double)sc->gcnt[v] / (double)sc->total : 0;
        if (sc->type == KEPS_SENSITIVE_ORDERED) {
            /* the order's distribution leaves the missing cells out */
            if (!(sc->q_ord = calloc(sc->m_ord + 1, sizeof *sc->q_ord)))
                goto oom;
            for (size_t v = 0; v < sc->m_ord; v++)
                sc->total_ord += sc->gcnt[v];
            for (size_t v = 0; v < sc->m_ord; v++)
                sc->q_ord[v] = sc->total_ord ? (double)sc->gcnt[v] / (double)sc->total_ord : 0;
        }
        if (sc->type == KEPS_SENSITIVE_HIERARCHICAL && build_tree(&sens[s], sc))
            goto oom;
    }
    for (size_t i = 0; i < nc; i++)
        if (c[i].kind == KEPS_CRIT_KT_CLOSENESS && !keps_criterion_kt_holds(k, i))
            k->whole_fails = 1;
    k->presence = nc;
    for (size_t i = 0; i < nc; i++)
        if (c[i].kind == KEPS_CRIT_DELTA_PRESENCE)
            k->presence = i;
    for (int mono = 0; mono < 2; mono++)
        for (int supp = 0; supp < 2; supp++) {
            if (!(k->use[mono][supp] = malloc((nc + 1) * sizeof **k->use)))
                goto oom;
            for (size_t i = 0; i < nc; i++)
                if (!keps_criterion_sample_based(c[i].kind) && c[i].kind != KEPS_CRIT_KT_CLOSENESS &&
                    c[i].kind != KEPS_CRIT_K_ANONYMITY && (!mono || keps_criterion_monotone(&c[i], supp)))
                    k->use[mono][supp][k->nuse[mono][supp]++] = i;
        }
    if (!(k->vertex = calloc(nc + 1, sizeof *k->vertex)))
        goto oom;
    for (size_t i = 0; i < nc; i++)
        if (c[i].kind == KEPS_CRIT_T_CLOSENESS && vertices(k, i))
            goto oom;
    if (!(k->ecap = calloc(nc + 1, sizeof *k->ecap)))
        goto oom;
    for (size_t i = 0; i < nc; i++)
        if (c[i].kind == KEPS_CRIT_ENTROPY_L && c[i].variant == KEPS_ENTROPY_SHANNON && entropy_caps(k, i))
            goto oom;
    if (!(k->etab = calloc(nc + 1, sizeof *k->etab)))
        goto oom;
    for (size_t i = 0; i < nc; i++)
        if (c[i].kind == KEPS_CRIT_ENTROPY_L && entropy_table(k, i))
            goto oom;
    *out = k;
    return KEPS_OK;
oom:
    st = keps_error_set(err, KEPS_ENOMEM, "out of memory preparing the privacy criteria");
fail:
    keps_criteria_free(k);
    return st;
}

/* ---- per-class tests ----------------------------------------------------------
 * A figure within 1e-9 (relative, at least absolute) of its bound is taken
 * as equal to it, and the paper's (in)equality decides: x <= b holds, x < b
 * fails. Rounding then cannot decide a figure that equals its bound on paper
 * (ARX compares the floating-point values as they come; docs/spec.md,
 * section 16). */
#define TOL 1e-9

static int le(double x, double b)
{
    return x <= b + TOL * fmax(1.0, fabs(b));
}

static int lt(double x, double b)
{
    return x < b - TOL * fmax(1.0, fabs(b));
}


static uint32_t hist_total(const keps_class_view *v, size_t s)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < v->nval[s]; i++)
        n += v->cnt[s][i];
    return n;
}

/* sum_v n_v psi(n_v) against N (psi(N) - ln l), ARX's form of H >= ln l. */
static double psi(int est, uint32_t n)
{
    return est == KEPS_ENTROPY_GRASSBERGER ? keps_grassberger_g(n) : log((double)n);
}

static double e_psi(const etable *e, int est, uint32_t n)
{
    return n < e->n ? e->psi[n] : psi(est, n);
}

static double e_term(const etable *e, int est, uint32_t n)
{
    return n < e->n ? e->term[n] : (double)n * psi(est, n);
}

/* sum_v n_v psi(n_v) of the class, and its rows in *total. */
static double entropy_sum(const etable *e, const keps_class_view *v, size_t s, int est, uint32_t *total)
{
    const uint32_t *cnt = v->cnt[s];
    double sum = 0;
    uint32_t n = 0;
    for (uint32_t i = 0; i < v->nval[s]; i++) {
        n += cnt[i];
        sum += e_term(e, est, cnt[i]);
    }
    *total = n;
    return sum;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* sum of the counts but the l-1 largest (r_l + ... + r_m), and the largest. */
static void recursive_parts(const keps_class_view *v, size_t s, size_t l, double *tail, double *r1)
{
    uint32_t d = v->nval[s], buf[64], *f = d <= 64 ? buf : malloc(d * sizeof *f);
    if (!f) {
        *tail = 0, *r1 = INFINITY;
        return;
    }
    memcpy(f, v->cnt[s], d * sizeof *f);
    qsort(f, d, sizeof *f, cmp_u32);
    double t = 0;
    for (size_t i = 0; i + l <= d; i++) /* ascending: the d - l + 1 smallest */
        t += f[i];
    *tail = t;
    *r1 = d ? f[d - 1] : 0;
    if (f != buf)
        free(f);
}

/* Equal ground distance, as ARX sums it: 1/2 (1 + sum_present (|q - p| - q)). */
static double emd_equal(const sens_col *sc, const keps_class_view *v, size_t s)
{
    double n = hist_total(v, s), val = 1.0;
    for (uint32_t i = 0; i < v->nval[s]; i++) {
        double q = sc->q[v->val[s][i]];
        val += fabs(q - (double)v->cnt[s][i] / n) - q;
    }
    return val / 2;
}

/* Ordered: sum over the values in order of |cumulative (p - q)|, not yet
 * divided by m - 1. The prefix before the class's first value and the stretch
 * after it are summed value by value like ARX's loop; the class's values are
 * sparse, so walk them in order. */
static double emd_ordered_raw(const sens_col *sc, const keps_class_view *v, size_t s)
{
    double n = 0, sum = 0, dist = 0;
    for (uint32_t i = 0; i < v->nval[s]; i++)
        n += v->val[s][i] < sc->m_ord ? v->cnt[s][i] : 0;
    if (n == 0) /* only missing cells: no distribution to compare */
        return 0;
    uint32_t j = 0;
    for (size_t i = 0; i < sc->m_ord; i++) {
        double p = 0;
        if (j < v->nval[s] && v->val[s][j] == i)
            p = (double)v->cnt[s][j++] / n;
        sum += p - sc->q_ord[i];
        dist += fabs(sum);
    }
    return dist;
}

/* Hierarchical (Li et al.'s EMD over a hierarchy, ARX's integer form):
 * extra of a leaf = G_v Q - c_v P (P released rows, Q class rows, G global
 * count, c class count); an inner node's children give pos (positive
 * extras) and neg; it moves min(pos, neg) at cost level/H and passes
 * pos - neg up. A subtree without class rows only has positive extras
 * (G Q): it moves nothing, so only the ancestors of the class's values are
 * visited. Returns the EMD. */
static double emd_hier(const sens_col *sc, const keps_class_view *v, size_t s)
{
    int64_t P = (int64_t)sc->total, Q = (int64_t)hist_total(v, s);
    if (P == 0 || Q == 0 || sc->height == 0)
        return 0;
    uint32_t d = v->nval[s];
    /* current level: (code, extra, subtree count) of the touched nodes */
    typedef struct {
        uint32_t code;
        int64_t extra, g;
    } node;
    node buf[128], *cur = d <= 64 ? buf : malloc(2 * (size_t)d * sizeof *cur), *nxt = cur + d;
    if (!cur)
        return INFINITY;
    for (uint32_t i = 0; i < d; i++) {
        uint32_t leaf = v->val[s][i];
        cur[i].code = leaf;
        cur[i].g = sc->gsub[0][leaf];
        cur[i].extra = cur[i].g * Q - (int64_t)v->cnt[s][i] * P;
    }
    size_t nc = d;
    double cost = 0;
    for (int l = 1; l <= sc->height; l++) {
        /* group the touched children by parent: sort by parent code (few) */
        for (size_t i = 1; i < nc; i++) { /* insertion sort, nc is small */
            node x = cur[i];
            uint32_t px = sc->parent[l - 1][x.code];
            size_t j = i;
            while (j > 0 && sc->parent[l - 1][cur[j - 1].code] > px) {
                cur[j] = cur[j - 1];
                j--;
            }
            cur[j] = x;
        }
        size_t nn = 0;
        int64_t level_min = 0;
        for (size_t i = 0; i < nc;) {
            uint32_t par = sc->parent[l - 1][cur[i].code];
            int64_t pos = 0, neg = 0, gtouched = 0;
            for (; i < nc && sc->parent[l - 1][cur[i].code] == par; i++) {
                gtouched += cur[i].g;
                if (cur[i].extra > 0)
                    pos += cur[i].extra;
                else
                    neg -= cur[i].extra;
            }
            int64_t g = sc->gsub[l][par];
            pos += (g - gtouched) * Q; /* the untouched children: G Q each */
            level_min += pos < neg ? pos : neg;
            nxt[nn].code = par;
            nxt[nn].g = g;
            nxt[nn].extra = pos - neg;
            nn++;
        }
        cost += ((double)l / (double)sc->height) * (double)level_min;
        memmove(cur, nxt, nn * sizeof *cur);
        nc = nn;
    }
    if (cur != buf)
        free(cur);
    return cost / ((double)P * (double)Q);
}

/* The class's largest max(q/p, p/q) over every value of the table. */
static double mult_t(const sens_col *sc, const keps_class_view *v, size_t s)
{
    double n = hist_total(v, s), worst = 1;
    uint32_t present = 0;
    for (uint32_t i = 0; i < v->nval[s]; i++) {
        double q = sc->q[v->val[s][i]], p = (double)v->cnt[s][i] / n;
        double r = p > q ? p / q : q / p;
        if (r > worst)
            worst = r;
        present++;
    }
    size_t values = 0;
    for (size_t i = 0; i < sc->m; i++)
        values += sc->gcnt[i] > 0;
    return present < values ? INFINITY : worst;
}

int keps_criterion_check(const keps_criteria *k, size_t i, const keps_class_view *v)
{
    const keps_criterion *c = &k->c[i];
    size_t s = c->sens;
    const sens_col *sc = keps_criterion_names_column(c->kind) ? &k->sc[s] : NULL;
    switch (c->kind) {
    case KEPS_CRIT_K_ANONYMITY:
        return v->count >= c->p[0];
    case KEPS_CRIT_DISTINCT_L:
        return v->nval[s] >= c->p[0];
    case KEPS_CRIT_ENTROPY_L: {
        if (v->nval[s] < ceil(c->p[0])) /* H <= ln(values) < ln l: no log needed */
            return 0;
        const etable *e = &k->etab[i];
        uint32_t n;
        double sum = entropy_sum(e, v, s, c->variant, &n);
        return le(sum, (double)n * (e_psi(e, c->variant, n) - e->lnl));
    }
    case KEPS_CRIT_RECURSIVE_CL: {
        if (v->nval[s] < c->p[1])
            return 0;
        double tail, r1;
        recursive_parts(v, s, (size_t)c->p[1], &tail, &r1);
        return lt(r1, tail * c->p[0]);
    }
    case KEPS_CRIT_T_CLOSENESS:
        if (sc->type == KEPS_SENSITIVE_ORDERED)
            return le(emd_ordered_raw(sc, v, s), c->p[0] * ((double)sc->m_ord - 1.0));
        if (sc->type == KEPS_SENSITIVE_HIERARCHICAL)
            return le(emd_hier(sc, v, s), c->p[0]);
        return le(emd_equal(sc, v, s), c->p[0]);
    case KEPS_CRIT_BETA_LIKENESS: {
        double n = hist_total(v, s);
        for (uint32_t j = 0; j < v->nval[s]; j++) {
            double q = sc->q[v->val[s][j]], p = (double)v->cnt[s][j] / n;
            double lim = c->variant == KEPS_BETA_ENHANCED ? fmin(c->p[0], -log(q)) : c->p[0];
            if (!le((p - q) / q, lim))
                return 0;
        }
        return 1;
    }
    case KEPS_CRIT_DELTA_DISCLOSURE: {
        double n = hist_total(v, s);
        for (uint32_t j = 0; j < v->nval[s]; j++) {
            double q = sc->q[v->val[s][j]], p = (double)v->cnt[s][j] / n;
            if (!lt(fabs(log(p / q) / log(2.0)), c->p[0]))
                return 0;
        }
        return 1;
    }
    case KEPS_CRIT_DELTA_PRESENCE: {
        double d = v->count == 0 ? 0.0 : (double)v->count / (double)v->pcount;
        return le(c->p[0], d) && le(d, c->p[1]);
    }
    case KEPS_CRIT_K_MAP:
        return c->variant == KEPS_KMAP_SUBSET ? v->pcount >= c->p[0] : v->count >= k->derived_k[i];
    case KEPS_CRIT_MULT_T:
        return le(mult_t(sc, v, s), c->p[0]);
    default: /* sample-based and whole-release criteria pass class by class */
        return 1;
    }
}

size_t keps_criteria_check_class(const keps_criteria *k, const keps_class_view *v)
{
    for (size_t i = 0; i < k->nc; i++)
        if (!keps_criterion_check(k, i, v))
            return i + 1;
    return 0;
}

double keps_criterion_figure(const keps_criteria *k, size_t i, const keps_class_view *v)
{
    const keps_criterion *c = &k->c[i];
    size_t s = c->sens;
    const sens_col *sc = keps_criterion_names_column(c->kind) ? &k->sc[s] : NULL;
    switch (c->kind) {
    case KEPS_CRIT_K_ANONYMITY:
        return v->count;
    case KEPS_CRIT_K_MAP:
        return c->variant == KEPS_KMAP_SUBSET ? v->pcount : v->count;
    case KEPS_CRIT_DISTINCT_L:
        return v->nval[s];
    case KEPS_CRIT_ENTROPY_L: {
        const etable *e = &k->etab[i];
        uint32_t n;
        double sum = entropy_sum(e, v, s, c->variant, &n);
        return n ? exp(e_psi(e, c->variant, n) - sum / n) : 0;
    }
    case KEPS_CRIT_RECURSIVE_CL: {
        if (v->nval[s] < c->p[1])
            return INFINITY;
        double tail, r1;
        recursive_parts(v, s, (size_t)c->p[1], &tail, &r1);
        return r1 / tail;
    }
    case KEPS_CRIT_T_CLOSENESS:
        if (sc->type == KEPS_SENSITIVE_ORDERED)
            return sc->m_ord > 1 ? emd_ordered_raw(sc, v, s) / ((double)sc->m_ord - 1.0) : 0;
        if (sc->type == KEPS_SENSITIVE_HIERARCHICAL)
            return emd_hier(sc, v, s);
        return emd_equal(sc, v, s);
    case KEPS_CRIT_BETA_LIKENESS:
    case KEPS_CRIT_DELTA_DISCLOSURE: {
        double n = hist_total(v, s), worst = 0;
        for (uint32_t j = 0; j < v->nval[s]; j++) {
            double q = sc->q[v->val[s][j]], p = (double)v->cnt[s][j] / n;
            double x = c->kind == KEPS_CRIT_BETA_LIKENESS ? (p - q) / q : fabs(log(p / q) / log(2.0));
            if (x > worst)
                worst = x;
        }
        return worst;
    }
    case KEPS_CRIT_DELTA_PRESENCE:
        return v->count == 0 ? 0.0 : (double)v->count / (double)v->pcount;
    case KEPS_CRIT_MULT_T:
        return mult_t(sc, v, s);
    default:
        return NAN;
    }
}

/* ---- sample-based criteria ------------------------------------------------ */

/* Does criterion c hold on the classes sizes[p..n)? rows/classes/ones are
 * those of the suffix. ARX's arithmetic: average risk compares 1 / (rows /
 * classes) with r; uniqueness (ones * 1) / rows. No row: holds. */
static int sample_holds(const keps_criterion *c, double rows, double classes, double ones)
{
    if (rows == 0)
        return 1;
    if (c->kind == KEPS_CRIT_AVERAGE_RISK)
        return le(1.0 / (rows / classes), c->p[0]);
    return le(ones / rows, c->p[0]);
}

size_t keps_criteria_sample_prefix(const keps_criteria *k, const uint32_t *sizes, size_t n)
{
    double rows = 0, ones = 0;
    for (size_t i = 0; i < n; i++) {
        rows += sizes[i];
        ones += sizes[i] == 1;
    }
    size_t need = 0;
    for (size_t i = 0; i < k->nc; i++) {
        const keps_criterion *c = &k->c[i];
        if (!keps_criterion_sample_based(c->kind))
            continue;
        if (sample_holds(c, rows, (double)n, ones))
            continue;
        /* the holds-test is monotone in the prefix (the smallest class is at
         * most the average; a unique is at most the rows): the fewest by
         * bisection over prefix sums recomputed per probe */
        size_t lo = 1, hi = n; /* sizes[0..n) all suppressed always holds */
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            double r = rows, o = ones;
            for (size_t j = 0; j < mid; j++) {
                r -= sizes[j];
                o -= sizes[j] == 1;
            }
            if (sample_holds(c, r, (double)(n - mid), o))
                hi = mid;
            else
                lo = mid + 1;
        }
        if (lo > need)
            need = lo;
    }
    return need;
}

int keps_criterion_sample_holds(const keps_criteria *k, size_t i, const uint32_t *sizes, size_t n)
{
    double rows = 0, ones = 0;
    for (size_t j = 0; j < n; j++) {
        rows += sizes[j];
        ones += sizes[j] == 1;
    }
    return sample_holds(&k->c[i], rows, (double)n, ones);
}

double keps_criteria_sample_figure(const keps_criteria *k, size_t i, const uint32_t *sizes, size_t n)
{
    double rows = 0, ones = 0;
    for (size_t j = 0; j < n; j++) {
        rows += sizes[j];
        ones += sizes[j] == 1;
    }
    if (rows == 0)
        return 0;
    return k->c[i].kind == KEPS_CRIT_AVERAGE_RISK ? 1.0 / (rows / (double)n) : ones / rows;
}

/* ---- (k,t)-closeness ------------------------------------------------------------ */

int keps_criterion_kt_holds(const keps_criteria *k, size_t i)
{
    return le(keps_criteria_kt_level(k, i), k->c[i].p[1]);
}

double keps_criteria_kt_level(const keps_criteria *k, size_t i)
{
    const keps_criterion *c = &k->c[i];
    const sens_col *sc = &k->sc[c->sens];
    double N = (double)sc->total, kk = c->p[0], worst = 1;
    if (sc->total == 0)
        return 1;
    if (kk > N)
        kk = N;
    for (size_t v = 0; v < sc->m; v++) {
        double g = (double)sc->gcnt[v];
        if (g == 0)
            continue;
        double q = g / N;
        double most = (g < kk ? g : kk) / kk;       /* the k rows holding v most */
        double least = (kk - (N - g)) / kk;         /* ... least: the others first */
        if (least <= 0)
            return INFINITY;
        if (most / q > worst)
            worst = most / q;
        if (q / least > worst)
            worst = q / least;
    }
    return worst;
}

/* ---- mass bounds ------------------------------------------------------------------
 * (see keps_criteria_enforce in criteria.h). Class by class: the classes
 * of every finer node split a class C of this one (n_C rows).
 *  - t-closeness: the EMD f is convex in the distribution, so Jensen gives
 *    sum_sub n_s f(s) >= n_C f(C), while failing sub-classes hold F_C rows
 *    at figure at most f_C^max (the largest EMD of a class holding one of
 *    C's values alone: a convex function on the simplex of C's values peaks
 *    at a vertex) and the others at most t: F_C >= n_C (f(C) - t) /
 *    (f_C^max - t).
 *  - Shannon entropy is concave: sum_sub n_s H(s) <= n_C H(C), and passing
 *    sub-classes reach ln l: F_C >= n_C (1 - H(C) / ln l).
 *  - beta-likeness, delta-disclosure, recursive (c,l) and Shannon entropy
 *    cap the share of each value v in a passing class (a_v = q_v (1 +
 *    beta_v), q_v 2^delta; for the l-diversities a cap that depends on the
 *    class's number of values, see class_mass): C's n_v rows of v lie in
 *    failing sub-classes (at most F_C rows) or passing ones (at most a_v
 *    (n_C - F_C)), so F_C >= (n_v - a_v n_C) / (1 - a_v).
 * A class holding one value and failing, or fewer values than an
 * l-diversity needs, fails in every sub-class, and a class the monotone
 * criteria suppress here is suppressed in every finer node: F_C = n_C,
 * exactly. The other bounds must never exceed the rows
 * truly failing: thresholds take the tolerance of the tests, and their sum
 * is rounded down after a margin for its rounding. */

static size_t rows_bound(double x, double total)
{
    x -= 1e-7 * total + 1e-9;
    return x > 0 ? (size_t)floor(x) : 0;
}

static int has_mass_bound(const keps_criterion *c)
{
    return c->kind == KEPS_CRIT_T_CLOSENESS || c->kind == KEPS_CRIT_BETA_LIKENESS ||
           c->kind == KEPS_CRIT_DELTA_DISCLOSURE || c->kind == KEPS_CRIT_RECURSIVE_CL ||
           c->kind == KEPS_CRIT_ENTROPY_L;
}

/* The fewest distinct values a passing class holds (the l-diversities). */
static double min_values(const keps_criterion *c)
{
    return c->kind == KEPS_CRIT_ENTROPY_L ? ceil(c->p[0]) : c->kind == KEPS_CRIT_RECURSIVE_CL ? c->p[1] : 0;
}

/* The largest share of value x in a passing class (beta-likeness,
 * delta-disclosure), with the tests' tolerance and a margin. */
static double share_cap(const keps_criterion *c, const sens_col *sc, size_t x)
{
    double q = sc->q[x];
    if (c->kind == KEPS_CRIT_BETA_LIKENESS) {
        double b = c->variant == KEPS_BETA_ENHANCED ? fmin(c->p[0], -log(q)) : c->p[0];
        return q * (1 + b + TOL * fmax(1.0, b)) * (1 + 1e-12);
    }
    return q * exp2(c->p[0]) * (1 + 1e-12);
}

/* Entropy l-diversity's threshold on a class's Shannon entropy, lowered
 * by more than the test's tolerance can allow. */
static double entropy_floor(const keps_criterion *c)
{
    return log(c->p[0]) - 1e-7;
}

/* The largest share of one value in a class of m values whose Shannon
 * entropy reaches h: the entropy with top share p is at most
 * g(p) = -p ln p - (1 - p) ln((1 - p) / (m - 1)) (the rest spread evenly),
 * which falls from ln m at p = 1/m to 0 at p = 1; the root of g(p) = h by
 * bisection, rounded up. 1 when m is too large to tabulate. */
static double entropy_cap(size_t m, double h)
{
    if (m < 2 || h <= 0)
        return 1;
    double lo = 1.0 / (double)m, hi = 1;
    if (log((double)m) < h)
        return 0;
    for (int it = 0; it < 60; it++) {
        double p = (lo + hi) / 2, g = -p * log(p) - (1 - p) * log((1 - p) / (double)(m - 1));
        if (g >= h)
            lo = p;
        else
            hi = p;
    }
    return fmin(1, hi * (1 + 1e-9));
}

#define ECAP_MAX 4096

/* k->vertex[i][x]: t-closeness's EMD of a class holding value x alone. */
static int vertices(keps_criteria *k, size_t i)
{
    const keps_criterion *c = &k->c[i];
    size_t s = c->sens, ns = k->nsens;
    const sens_col *sc = &k->sc[s];
    double *out = calloc(sc->m + 1, sizeof *out);
    const uint32_t **vv = calloc(ns, sizeof *vv), **cc = calloc(ns, sizeof *cc);
    uint32_t *nn = calloc(ns, sizeof *nn);
    if (!out || !vv || !cc || !nn) {
        free(out), free(vv), free(cc), free(nn);
        return -1;
    }
    uint32_t one = 1, x32;
    keps_class_view v = {1, 1, vv, cc, nn};
    vv[s] = &x32, cc[s] = &one, nn[s] = 1;
    for (size_t x = 0; x < sc->m; x++) {
        x32 = (uint32_t)x;
        out[x] = sc->gcnt[x] && !(sc->type == KEPS_SENSITIVE_ORDERED && x >= sc->m_ord)
                     ? keps_criterion_figure(k, i, &v)
                     : 0;
    }
    free(vv), free(cc), free(nn);
    k->vertex[i] = out;
    return 0;
}

/* k->ecap[i][m]: entropy_cap for m values (m up to the column's values). */
static int entropy_caps(keps_criteria *k, size_t i)
{
    size_t m = k->sc[k->c[i].sens].m;
    if (m > ECAP_MAX)
        m = ECAP_MAX;
    double *cap = malloc((m + 1) * sizeof *cap), h = entropy_floor(&k->c[i]);
    if (!cap)
        return -1;
    for (size_t x = 0; x <= m; x++)
        cap[x] = entropy_cap(x, h);
    k->ecap[i] = cap;
    return 0;
}

/* The largest count tabulated: class counts are mostly small, and the
 * table stays in cache. */
#define ETAB_MAX 4096

/* k->etab[i] for entropy l-diversity i: counts up to the released rows. */
static int entropy_table(keps_criteria *k, size_t i)
{
    const keps_criterion *c = &k->c[i];
    etable *e = &k->etab[i];
    size_t n = (k->released < ETAB_MAX ? k->released : ETAB_MAX) + 1;
    e->psi = malloc(n * sizeof *e->psi);
    e->term = malloc(n * sizeof *e->term);
    if (!e->psi || !e->term)
        return -1;
    for (size_t x = 0; x < n; x++) {
        e->psi[x] = psi(c->variant, (uint32_t)x);
        e->term[x] = x ? (double)x * e->psi[x] : 0;
    }
    e->n = n;
    e->lnl = log(c->p[0]);
    e->floor = entropy_floor(c);
    return 0;
}

/* Criterion i's bound on the failing rows of class view v's sub-classes
 * (column s = its column), not counting a class failing whole. */
static double class_mass(const keps_criteria *k, size_t i, const keps_class_view *v)
{
    const keps_criterion *c = &k->c[i];
    size_t s = c->sens;
    const sens_col *sc = &k->sc[s];
    const uint32_t *val = v->val[s], *cnt = v->cnt[s];
    uint32_t nv = v->nval[s];
    double n = 0, best = 0, top = 0, cap = 1;
    int ordered = c->kind == KEPS_CRIT_T_CLOSENESS && sc->type == KEPS_SENSITIVE_ORDERED;
    for (uint32_t e = 0; e < nv; e++) {
        n += ordered && val[e] >= sc->m_ord ? 0 : cnt[e];
        top = cnt[e] > top ? cnt[e] : top;
    }
    if (n == 0)
        return 0;
    switch (c->kind) {
    case KEPS_CRIT_T_CLOSENESS: {
        double t = c->p[0] + TOL * fmax(1.0, c->p[0]), fmax = -INFINITY;
        for (uint32_t e = 0; e < nv; e++)
            if (!(ordered && val[e] >= sc->m_ord) && k->vertex[i][val[e]] > fmax)
                fmax = k->vertex[i][val[e]];
        double f = keps_criterion_figure(k, i, v);
        return f > t && fmax > t ? n * (f - t) / (fmax - t) : 0;
    }
    case KEPS_CRIT_ENTROPY_L:
        /* Shannon: a sub-class holds at most C's nv values, so its top share
         * is at most the cap of nv values (Grassberger's estimator exceeds
         * the Shannon entropy of small classes: only the distinct values
         * bound it, in mass_bounds) */
        if (k->ecap[i] && nv <= ECAP_MAX)
            cap = k->ecap[i][nv];
        if (c->variant == KEPS_ENTROPY_SHANNON) {
            const etable *et = &k->etab[i];
            double sum = 0, h = et->floor; /* n H = n ln n - sum c ln c */
            for (uint32_t e = 0; e < nv; e++)
                sum += e_term(et, KEPS_ENTROPY_SHANNON, cnt[e]);
            double H = (e_term(et, KEPS_ENTROPY_SHANNON, (uint32_t)n) - sum) / n;
            if (h > 0)
                best = n * (1 - H / h);
        }
        break;
    case KEPS_CRIT_RECURSIVE_CL: {
        /* r_1 < c (r_l + ... + r_m) <= c (n - r_1) (m - l + 1) / (m - 1): the
         * l - 1 ... m smallest of the m - 1 others hold at most that part of
         * them; fewer values only lower it */
        double l = c->p[1], m = nv;
        if (l >= 2 && m >= l) {
            double f = (m - l + 1) / (m - 1);
            cap = c->p[0] * f / (1 + c->p[0] * f) * (1 + 1e-12);
        }
        break;
    }
    default: /* beta-likeness, delta-disclosure: a cap per value */
        for (uint32_t e = 0; e < nv; e++) {
            double a = share_cap(c, sc, val[e]);
            if (a < 1) {
                double b = ((double)cnt[e] - a * n) / (1 - a);
                if (b > best)
                    best = b;
            }
        }
        return best;
    }
    if (cap < 1) { /* the same cap for every value: the top one binds */
        double b = (top - cap * n) / (1 - cap);
        if (b > best)
            best = b;
    }
    return best;
}

/* Rows every finer partition suppresses, at least (sup: the classes the
 * monotone criteria suppress here; the mass bounds of the criteria not
 * monotone for with_suppression). */
static size_t mass_bounds(const keps_criteria *k, const keps_class_set *cs, const uint8_t *sup, int with_suppression)
{
    size_t ns = k->nsens, idx[64], nm = 0;
    for (size_t i = 0; i < k->nc && nm < 64; i++)
        if (!keps_criterion_monotone(&k->c[i], with_suppression) && has_mass_bound(&k->c[i]))
            idx[nm++] = i;
    if (!nm || !cs->hist || !ns)
        return 0;
    const uint32_t **vv = calloc(ns, sizeof *vv), **cc = calloc(ns, sizeof *cc);
    uint32_t *nn = calloc(ns, sizeof *nn);
    if (!vv || !cc || !nn) {
        free(vv), free(cc), free(nn);
        return 0;
    }
    keps_class_view v = {0, 0, vv, cc, nn};
    size_t whole = 0; /* rows of classes failing whole in every finer node: exact */
    double F = 0, H = 0;
    for (size_t x = 0; x < cs->n; x++) {
        uint32_t cnt = cs->count[x];
        if (!cnt)
            continue;
        H += cnt;
        if (sup[x]) {
            whole += cnt;
            continue;
        }
        v.count = v.pcount = cnt;
        double best = 0;
        int pure_fail = 0;
        for (size_t j = 0; j < nm && !pure_fail; j++) {
            size_t s = k->c[idx[j]].sens;
            const keps_class_hist *h = &cs->hist[s];
            vv[s] = h->val + h->off[x];
            cc[s] = h->cnt + h->off[x];
            nn[s] = h->off[x + 1] - h->off[x];
            const sens_col *sc = &k->sc[s];
            int counted = !(k->c[idx[j]].kind == KEPS_CRIT_T_CLOSENESS && sc->type == KEPS_SENSITIVE_ORDERED &&
                            nn[s] && vv[s][0] >= sc->m_ord);
            /* one value: every sub-class has its distribution; fewer values
             * than an l-diversity needs: so has every sub-class */
            if ((nn[s] == 1 && counted && !keps_criterion_check(k, idx[j], &v)) ||
                nn[s] < min_values(&k->c[idx[j]])) {
                pure_fail = 1;
                break;
            }
            double b = class_mass(k, idx[j], &v);
            if (b > best)
                best = b;
        }
        if (pure_fail)
            whole += cnt;
        else
            F += best < cnt ? best : cnt;
    }
    free(vv), free(cc), free(nn);
    return whole + rows_bound(F, H);
}

/* ---- enforcing on a partition ------------------------------------------------ */

typedef struct {
    uint32_t count, first, idx, dim;
    const double *tie; /* [dim], NULL: no key */
} sortable;

static int cmp_sortable(const void *a, const void *b)
{
    const sortable *x = a, *y = b;
    if (x->count != y->count)
        return x->count < y->count ? -1 : 1;
    for (uint32_t d = 0; x->tie && d < x->dim; d++)
        if (x->tie[d] != y->tie[d])
            return x->tie[d] < y->tie[d] ? -1 : 1;
    return (x->first > y->first) - (x->first < y->first);
}

keps_status keps_criteria_enforce(const keps_criteria *k, const keps_class_set *cs, int mono_only,
                                  int with_suppression, uint8_t *sup, keps_enforce_stats *st)
{
    memset(st, 0, sizeof *st);
    st->blocked = k->whole_fails;
    const size_t *use = k->use[mono_only != 0][with_suppression != 0], nuse = k->nuse[mono_only != 0][with_suppression != 0];
    const uint32_t ms = (uint32_t)(k->min_size < UINT32_MAX ? k->min_size : UINT32_MAX);
    /* ARX checks the minimal size first, then delta-presence, which fails a
     * class without released rows iff dmin > 0: such a class cannot be
     * suppressed (it has nothing to suppress) */
    int empty_blocks = !k->min_size && k->presence < k->nc && k->c[k->presence].p[0] > 0;
    if (!nuse) { /* the size alone: no views to build */
        size_t rows = 0, classes = 0, empty = 0;
        for (size_t c = 0; c < cs->n; c++) {
            uint32_t n = cs->count[c];
            uint8_t f = n > 0 && n < ms;
            sup[c] = f;
            rows += f * (size_t)n;
            classes += f;
            empty += n == 0;
        }
        st->rows = rows;
        st->classes = classes;
        st->blocked |= empty_blocks && empty;
    } else {
        size_t ns = k->nsens;
        const uint32_t *vbuf[16], *cbuf[16];
        uint32_t nbuf[16];
        const uint32_t **vp = ns <= 16 ? vbuf : malloc(ns * sizeof *vp),
                       **cp = ns <= 16 ? cbuf : malloc(ns * sizeof *cp);
        uint32_t *nv = ns <= 16 ? nbuf : malloc(ns * sizeof *nv);
        if (!vp || !cp || !nv) {
            if (ns > 16) {
                free(vp);
                free(cp);
                free(nv);
            }
            return KEPS_ENOMEM;
        }
        keps_class_view v = {0, 0, vp, cp, nv};
        for (size_t c = 0; c < cs->n; c++) {
            sup[c] = 0;
            v.count = cs->count[c];
            v.pcount = cs->pcount ? cs->pcount[c] : v.count;
            if (v.count == 0) {
                st->blocked |= empty_blocks;
                continue;
            }
            if (v.count < ms) {
                sup[c] = 1;
            } else {
                for (size_t s = 0; s < ns && cs->hist; s++) {
                    const keps_class_hist *h = &cs->hist[s];
                    vp[s] = h->val + h->off[c];
                    cp[s] = h->cnt + h->off[c];
                    nv[s] = h->off[c + 1] - h->off[c];
                }
                for (size_t u = 0; u < nuse && !sup[c]; u++)
                    if (!keps_criterion_check(k, use[u], &v))
                        sup[c] = 1;
            }
            if (sup[c]) {
                st->rows += v.count;
                st->classes++;
            }
        }
        if (ns > 16) {
            free(vp);
            free(cp);
            free(nv);
        }
    }
    keps_status rc = KEPS_OK;
    st->below = st->rows;
    if (mono_only) {
        size_t b = mass_bounds(k, cs, sup, with_suppression);
        if (b > st->below)
            st->below = b;
    }
    if (!mono_only && keps_criteria_has_sample_based(k)) {
        sortable *o = malloc((cs->n + 1) * sizeof *o);
        uint32_t *sizes = malloc((cs->n + 1) * sizeof *sizes);
        if (!o || !sizes) {
            rc = KEPS_ENOMEM;
        } else {
            size_t n = 0, dim = cs->tie_dim ? cs->tie_dim : 1;
            for (size_t c = 0; c < cs->n; c++)
                if (!sup[c] && cs->count[c] > 0 && !(cs->full_gen && cs->full_gen[c]))
                    o[n++] = (sortable){cs->count[c], cs->first ? cs->first[c] : (uint32_t)c, (uint32_t)c,
                                        (uint32_t)dim, cs->tie ? cs->tie + c * dim : NULL};
            qsort(o, n, sizeof *o, cmp_sortable);
            for (size_t i = 0; i < n; i++)
                sizes[i] = o[i].count;
            size_t p = keps_criteria_sample_prefix(k, sizes, n);
            for (size_t i = 0; i < p; i++) {
                sup[o[i].idx] = 1;
                st->rows += o[i].count;
                st->classes++;
            }
        }
        free(o);
        free(sizes);
    }
    return rc;
}
