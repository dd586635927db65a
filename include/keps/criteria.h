/* keps: privacy criteria as plug-ins (docs/spec.md, section 16).
 *
 * A criterion says whether an equivalence class may be released (a
 * per-class test) or, for the sample-based ones, how many of the smallest
 * classes must be suppressed. The lattice search, Mondrian's cut test,
 * `keps verify` and the report all ask the same functions, so a class
 * passes or fails the same way everywhere. Definitions, numerics included,
 * follow ARX 3.9.2 (github.com/arx-deidentifier/arx) so that results compare:
 *
 *  k-anonymity        count >= k (Sweeney 2002)
 *  distinct-l         at least l distinct sensitive values
 *  entropy-l          Machanavajjhala et al. 2007 with ARX's estimator form:
 *                     with N rows and value counts n_v, the class passes iff
 *                     sum_v n_v psi(n_v) <= N (psi(N) - ln l), psi = ln
 *                     (Shannon) or Grassberger's G_n; and it holds at least
 *                     ceil(l) distinct values
 *  recursive-(c,l)    r_1 < c (r_l + ... + r_m), counts sorted descending,
 *                     at least l distinct values
 *  t-closeness        EMD(class, table) <= t (Li, Li, Venkatasubramanian
 *                     2007): equal ground distance 1/2 sum |p - q|; ordered
 *                     sum_i |sum_{j<=i} (p_j - q_j)| / (m - 1) over the m
 *                     distinct values in order; hierarchical sum over inner
 *                     nodes N of level(N)/H * min(pos_N, neg_N) (the extra
 *                     mass moved through N), H = hierarchy height
 *  beta-likeness      Cao & Karras 2012: for every value v of the class,
 *                     (p_v - q_v)/q_v <= beta (basic), <= min(beta, -ln q_v)
 *                     (enhanced)
 *  delta-disclosure   Brickell & Shmatikov 2008: |log2(p_v/q_v)| < delta for
 *                     every value v of the class
 *  delta-presence     Nergiz, Atzori, Clifton 2007: dmin <= count/pcount <=
 *                     dmax, count = released (research subset) rows of the
 *                     class, pcount = its rows in the population (the input)
 *  k-map              El Emam & Dankar 2008 with an explicit population:
 *                     pcount >= k
 *  average risk       sample-based: 1 / (average class size) <= r over the
 *                     classes not suppressed (ARX: the smallest classes are
 *                     suppressed until it holds)
 *  sample uniqueness  sample-based: share of rows in classes of one row <= r
 *  multiplicative-t   Ekenstedt et al. 2022, Def. 4 with the identity
 *                     mechanism: 1/t <= q_v / p_v <= t for every value v of
 *                     the table (a class lacking one fails)
 *  (k,t)-closeness    Ekenstedt et al. 2022, Def. 7 with the identity
 *                     mechanism: the same for every k released rows, which
 *                     depends only on the sensitive column (whole release)
 *
 * p_v: share of value v among the class's rows, q_v: among all released
 * rows (the research subset when there is one). Suppressed rows keep their
 * sensitive values: they count in q. */
#ifndef KEPS_CRITERIA_H
#define KEPS_CRITERIA_H

#include <stddef.h>
#include <stdint.h>

#include "keps/error.h"
#include "keps/hierarchy.h"
#include "keps/table.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum keps_criterion_kind {
    KEPS_CRIT_K_ANONYMITY = 0, /* p[0] = k */
    KEPS_CRIT_DISTINCT_L,      /* p[0] = l (whole number) */
    KEPS_CRIT_ENTROPY_L,       /* p[0] = l > 0; variant: keps_entropy_estimator */
    KEPS_CRIT_RECURSIVE_CL,    /* p[0] = c > 0, p[1] = l (whole number) */
    KEPS_CRIT_T_CLOSENESS,     /* p[0] = t; ground distance from the column's type */
    KEPS_CRIT_BETA_LIKENESS,   /* p[0] = beta > 0; variant: keps_beta_variant */
    KEPS_CRIT_DELTA_DISCLOSURE, /* p[0] = delta */
    KEPS_CRIT_DELTA_PRESENCE,  /* p[0] = dmin, p[1] = dmax (needs a research subset) */
    KEPS_CRIT_K_MAP,           /* p[0] = k; variant keps_kmap_estimator: with a research subset
                                  (SUBSET), or from the population size p[2] at significance p[1] */
    KEPS_CRIT_AVERAGE_RISK,    /* p[0] = r in [0, 1] (sample-based) */
    KEPS_CRIT_SAMPLE_UNIQUENESS, /* p[0] = r in [0, 1] (sample-based) */
    KEPS_CRIT_MULT_T,          /* p[0] = t >= 1 */
    KEPS_CRIT_KT_CLOSENESS,    /* p[0] = k, p[1] = t >= 1 (whole release) */
    KEPS_CRIT_COUNT
} keps_criterion_kind;

typedef enum { KEPS_ENTROPY_SHANNON = 0, KEPS_ENTROPY_GRASSBERGER } keps_entropy_estimator;
typedef enum { KEPS_BETA_BASIC = 0, KEPS_BETA_ENHANCED } keps_beta_variant;
/* k-map against a research subset (the population counted), or estimated
 * from the population's size as El Emam & Dankar 2008 and ARX do: with
 * lambda = k x rows / population, k' is the smallest count whose Poisson
 * (Pannekoek 1999) or zero-truncated Poisson cumulative probability reaches
 * 1 - significance (capped at k and the rows), and classes need k' rows. */
typedef enum { KEPS_KMAP_SUBSET = 0, KEPS_KMAP_POISSON, KEPS_KMAP_ZERO_TRUNCATED_POISSON } keps_kmap_estimator;

typedef struct keps_criterion {
    keps_criterion_kind kind;
    size_t sens;  /* the sensitive column (index into the specs) for criteria that name one */
    double p[3];  /* parameters, see keps_criterion_kind */
    int variant;
} keps_criterion;

/* How a sensitive column's values relate (the EMD's ground distance). */
typedef enum {
    KEPS_SENSITIVE_AUTO = 0, /* ordered if the column is numeric (keps_table_infer_type: codes
                                such as "02" are not), else nominal */
    KEPS_SENSITIVE_NOMINAL,  /* equal distance */
    KEPS_SENSITIVE_ORDERED,  /* numeric order, or byte order of the text for a non-numeric column */
    KEPS_SENSITIVE_HIERARCHICAL /* distance along a hierarchy (h) */
} keps_sensitive_type;

typedef struct keps_sensitive_spec {
    size_t col;               /* column of the table */
    keps_sensitive_type type;
    const keps_hierarchy *h;  /* HIERARCHICAL: every value must be one of its leaves */
} keps_sensitive_spec;

/* Names: "k-anonymity", "distinct-l-diversity", ... (report keys). */
const char *keps_criterion_name(keps_criterion_kind k);
/* Does the criterion name a sensitive column / need a research subset /
 * decide on the whole partition rather than class by class? */
int keps_criterion_names_column(keps_criterion_kind k);
int keps_criterion_needs_subset(const keps_criterion *c);
int keps_criterion_sample_based(keps_criterion_kind k);

/* The criteria bound to a table. Sensitive values are numbered 0..m-1 per
 * column (keps_criteria_value); the table's distribution q is taken over
 * the released rows (the research subset, or every row). */
typedef struct keps_criteria keps_criteria;

/* released: [t->nrows] nonzero = the row is in the research subset (what
 * is released), NULL = every row. A criterion needing a subset without one,
 * a parameter out of range, a sensitive index out of range or a value
 * absent from a HIERARCHICAL column's hierarchy is KEPS_EINPUT (the message
 * names the criterion or the cell). t is not const: numeric columns get
 * parsed. The specs' hierarchies must outlive the result. */
keps_status keps_criteria_new(keps_table *t, const keps_sensitive_spec *sens, size_t nsens, const keps_criterion *c,
                              size_t nc, const uint8_t *released, keps_criteria **out, keps_error *err);
/* The same on a frequency table: row r stands for weight[r] records (NULL:
 * one each), so the record count and the table's sensitive distributions
 * are those of the expanded rows. */
keps_status keps_criteria_new_weighted(keps_table *t, const uint32_t *weight, const keps_sensitive_spec *sens,
                                       size_t nsens, const keps_criterion *c, size_t nc, const uint8_t *released,
                                       keps_criteria **out, keps_error *err);
void keps_criteria_free(keps_criteria *k);

size_t keps_criteria_count(const keps_criteria *k);
const keps_criterion *keps_criteria_get(const keps_criteria *k, size_t i);
size_t keps_criteria_nsens(const keps_criteria *k);
const keps_sensitive_spec *keps_criteria_sensitive(const keps_criteria *k, size_t s);
/* The ground distance actually used for column s (AUTO resolved). */
keps_sensitive_type keps_criteria_sensitive_type(const keps_criteria *k, size_t s);
/* Number of sensitive values of column s, and the value of table code v
 * (KEPS_NONE: not counted; an ordered column leaves missing cells out). */
size_t keps_criteria_nvalues(const keps_criteria *k, size_t s);
uint32_t keps_criteria_value(const keps_criteria *k, size_t s, uint32_t code);
/* Released rows, and the subset flags given (NULL without a subset). */
size_t keps_criteria_released(const keps_criteria *k);
const uint8_t *keps_criteria_subset(const keps_criteria *k);

/* Class size below which every class fails: the largest of k, ceil(l) of
 * the l-diversities and k-map's k with an estimator; 0 if none. */
size_t keps_criteria_min_class_size(const keps_criteria *k);
/* Are all the criteria monotone: does every class that a generalization
 * merges from passing classes pass (suppression = 0), or, with suppression,
 * does a class containing a passing class pass (so that generalizing never
 * suppresses more)? These are the facts, which for the Grassberger
 * estimator differ from ARX's declaration (docs/spec.md, section 16). */
int keps_criteria_monotone(const keps_criteria *k, int with_suppression);
int keps_criterion_monotone(const keps_criterion *c, int with_suppression);
/* Whether per-class histograms of sensitive values are needed, a
 * population count per class, a sample-based step. */
int keps_criteria_need_histograms(const keps_criteria *k);
int keps_criteria_need_pcount(const keps_criteria *k);
int keps_criteria_has_sample_based(const keps_criteria *k);

/* Per-class histograms of one sensitive column's values (value ids, see
 * keps_criteria_value), compressed rows: class c holds val[off[c]..off[c+1])
 * (increasing) with counts cnt[...]. */
typedef struct keps_class_hist {
    uint32_t *off;   /* [n + 1] */
    uint32_t *val;
    uint32_t *cnt;
    size_t cap;      /* entries allocated in val and cnt */
} keps_class_hist;

/* One class as the criteria see it: released rows, population rows, and
 * per sensitive column the values present (increasing) and their counts. */
typedef struct keps_class_view {
    uint32_t count;
    uint32_t pcount;              /* = count without a research subset */
    const uint32_t *const *val;   /* [nsens] */
    const uint32_t *const *cnt;   /* [nsens] */
    const uint32_t *nval;         /* [nsens] */
} keps_class_view;

/* 0 if the class passes every per-class criterion, else 1 + the index of
 * the first criterion it fails (sample-based ones pass here). A class below
 * keps_criteria_min_class_size fails the criterion that sets it. */
size_t keps_criteria_check_class(const keps_criteria *k, const keps_class_view *v);
/* Does criterion i pass on the class? */
int keps_criterion_check(const keps_criteria *k, size_t i, const keps_class_view *v);
/* The criterion's figure for the class, for reports (ARX's test decides,
 * this only describes): k, k-map: count / pcount; distinct: distinct
 * values; entropy: exp(estimated entropy); recursive: r_1 / sum(r_l..r_m);
 * t-closeness: the EMD; beta: the largest (p - q)/q; delta-disclosure: the
 * largest |log2(p/q)|; delta-presence: count/pcount; multiplicative t: the
 * largest max(q/p, p/q) (inf when a value is absent). NAN if not per class. */
double keps_criterion_figure(const keps_criteria *k, size_t i, const keps_class_view *v);

/* The sample-based criteria on the classes still released, sizes[0..n) in
 * the order ARX suppresses them (smallest first): the fewest leading
 * classes to suppress so that every one holds (n if none suffices). */
size_t keps_criteria_sample_prefix(const keps_criteria *k, const uint32_t *sizes, size_t n);
/* Figures of a sample-based criterion on released class sizes: average
 * risk = classes / rows, sample uniqueness = rows in classes of one / rows
 * (0 without rows). */
double keps_criteria_sample_figure(const keps_criteria *k, size_t i, const uint32_t *sizes, size_t n);
/* Does sample-based criterion i hold on those classes as they are? */
int keps_criterion_sample_holds(const keps_criteria *k, size_t i, const uint32_t *sizes, size_t n);

/* The classes of a partition (a lattice node, Mondrian's, given columns)
 * as keps_criteria_enforce reads them. */
typedef struct keps_class_set {
    size_t n;
    const uint32_t *count;        /* [n] released rows */
    const uint32_t *pcount;       /* [n] population rows, NULL without a research subset */
    const keps_class_hist *hist;  /* [nsens], NULL if no criterion reads histograms */
    const double *tie;            /* [n x tie_dim] or NULL: orders equal-size classes in
                                     the sample-based step (keps_metrics_class_key,
                                     compared lexicographically), before */
    size_t tie_dim;               /* numbers per tie key (0 counts as 1) */
    const uint32_t *first;        /* [n] increasing with the class's first row */
    const uint8_t *full_gen;      /* [n] 1 = every QI is '*' (left out of the sample-based
                                     criteria, as ARX does), or NULL */
} keps_class_set;

typedef struct keps_enforce_stats {
    size_t rows;      /* rows in suppressed classes */
    size_t classes;   /* suppressed classes */
    size_t below;     /* mono_only: rows that every finer partition (a node below)
                         suppresses: rows as above, or more from the mass bounds */
    int blocked;      /* nothing suppression could fix: a class without released rows
                         fails delta-presence and no minimal class size applies, or
                         (k,t)-closeness fails on the released values */
} keps_enforce_stats;

/* ARX's rule: a class is suppressed when it is smaller than the minimal
 * class size or fails a per-class criterion; then, for the sample-based
 * criteria, the fewest of the remaining classes (those with released rows
 * and not fully generalized), smallest first, ties by tie then first row. A class
 * without released rows is never suppressed. sup[0..n) gets 1 for the
 * suppressed classes. With mono_only, only the criteria monotone for
 * with_suppression (keps_criterion_monotone) and the minimal class size
 * are applied, and no sample-based step: the rows so suppressed never grow
 * under generalization, which makes them a bound for the lattice search;
 * below adds, class by class, the mass bounds of the others (rows that
 * every finer partition suppresses within the class): t-closeness's EMD is
 * convex in the class's distribution and Shannon entropy concave (Jensen
 * over the sub-classes), beta-likeness, delta-disclosure, recursive (c,l)
 * and Shannon entropy cap each value's share in a passing class, and the
 * l-diversities need distinct values (docs/spec.md, section 16).
 * KEPS_ENOMEM or KEPS_OK. */
keps_status keps_criteria_enforce(const keps_criteria *k, const keps_class_set *cs, int mono_only,
                                  int with_suppression, uint8_t *sup, keps_enforce_stats *st);

/* k-map with an estimator: the class size k' it requires (0 otherwise). */
size_t keps_criteria_kmap_derived_k(const keps_criteria *k, size_t i);

/* (k,t)-closeness with the identity mechanism depends on the released
 * sensitive values only: the smallest t it holds for (inf if a k-subset can
 * miss a value). */
double keps_criteria_kt_level(const keps_criteria *k, size_t i);
/* Does (k,t)-closeness criterion i hold (its level at most t)? */
int keps_criterion_kt_holds(const keps_criteria *k, size_t i);

/* Grassberger's G_n (n >= 1), the log substitute of the entropy
 * estimator: G_1 = -gamma - ln 2, G_2n+1 = G_2n = G_1 + sum_{j<=n} 2/(2j-1). */
double keps_grassberger_g(uint32_t n);

#ifdef __cplusplus
}
#endif
#endif
