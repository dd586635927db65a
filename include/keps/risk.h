/* keps: disclosure-risk measures of a release.
 *
 * Record linkage RL (docs/spec.md 5; Soria-Comas et al. 2013): the
 * original and the released records correspond row by row (the release was
 * written with --keep-order, one row per original row). Both are compared
 * on standardized values: z = (x - mean) / sd with the ORIGINAL data's mean
 * and population sd per attribute (an attribute with sd = 0 is left out:
 * it cannot tell records apart). Distances are Euclidean (squared; ties
 * are exact floating-point equality).
 *   KEPS_RL_ORIGINAL (docs/spec.md 5, the default): for each original record x_i,
 *     G_i = the released records at minimum distance from x_i; x_i
 *     contributes 1/|G_i| if its own release x'_i is in G_i, else 0.
 *   KEPS_RL_RELEASED (the paper's formula): for each released record x'_j,
 *     G_j = the original records at minimum distance from x'_j; contributes
 *     1/|G_j| if x_j is in G_j.
 *   RL = (sum of contributions) / n, a FRACTION in [0, 1]; the paper's
 *   percentage is 100 * RL.
 * The result is that of comparing every record with every other; it is
 * computed with a k-d tree over the distinct target records (identical ones
 * once, with their multiplicity): each query searches the ball up to its own
 * target's distance and stops at the first target nearer than that (exact,
 * ties included: see src/risk.c), typically O(n log n) in all; the queries
 * run on 2 threads.
 *
 * Prosecutor re-identification risk of a generalized release: equivalence
 * classes = released records with identical values on the given columns;
 * a record's risk is 1/|EC|; report the maximum and the mean over records
 * (the mean equals classes / records), and the share of records in classes
 * of fewer than 2, 5 and 10 records. Suppressed rows (every column '*') are
 * left out by default, as in ARX's risk models. */
#ifndef KEPS_RISK_H
#define KEPS_RISK_H

#include <stddef.h>
#include <stdint.h>

#include "keps/error.h"
#include "keps/json.h"
#include "keps/models.h"
#include "keps/partition.h"
#include "keps/table.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { KEPS_RL_ORIGINAL = 0, KEPS_RL_RELEASED = 1 } keps_rl_direction;

/* orig and rel: row-major n x m raw values, row i of rel = release of row i
 * of orig. Errors: n == 0 or m == 0, a non-finite value, an unknown dir
 * (KEPS_EINPUT). */
keps_status keps_record_linkage(const double *orig, const double *rel, size_t n, size_t m,
                                keps_rl_direction dir, double *rl, keps_error *err);

typedef struct keps_prosecutor {
    size_t records, classes; /* records in the classes (suppressed ones excluded) */
    size_t suppressed;   /* rows whose every column is '*' (excluded or not, per mode) */
    double max;          /* max over records of 1/|EC| (0 if no record is in a class) */
    double avg;          /* mean over records of 1/|EC| = classes / records */
    double below[3];     /* share of records in classes of size < 2, < 5, < 10 */
    int all_star;        /* every row is '*': one class whatever the mode (keps_partition_from_release) */
} keps_prosecutor;

/* Classes on columns cols[0..m-1] of t (m == 0: all records form one
 * class; a column index >= t->ncols is KEPS_EINPUT). A row whose every column is '*' is a suppressed record:
 * KEPS_SUPPRESSED_EXCLUDE leaves such rows out (as ARX's risk models and
 * keps verify do: they reveal no QI value), KEPS_SUPPRESSED_CLASS counts
 * them as one ordinary class. If every row is '*' they are one class in
 * either mode (a release generalized to the top looks the same). */
keps_status keps_prosecutor_risk(const keps_table *t, const size_t *cols, size_t m, keps_suppressed_mode mode,
                                 keps_prosecutor *out, keps_error *err);

/* ---- re-identification risk of a table, as ARX 3.9.2 computes it ----
 *
 * Works on any table, an input or a release: equivalence classes are the
 * rows with identical values on the quasi-identifiers cols[0..m-1]; rows
 * whose every QI is '*' are suppressed and left out (KEPS_SUPPRESSED_EXCLUDE,
 * as ARX does) or form one class (KEPS_SUPPRESSED_CLASS); when every row is
 * '*' they are one class either way (keps_partition_from_release). With n
 * records in classes and f_c the size of class c:
 *  - prosecutor (the attacker knows the person is in the file): a record's
 *    risk is 1/f_c. highest = 1/min f_c; average = classes / n;
 *    share_at_highest = records in the smallest classes / n.
 *  - journalist (the attacker links to a population table holding the
 *    file): with F_c the size of c's class in the population,
 *    highest = 1/min F_c, average = max(classes / sum F_c,
 *    sum (f_c/F_c) / n). Without a population table the file is its own
 *    population and journalist = prosecutor.
 *  - marketer (re-identify as many as possible): sum (f_c/F_c) / n, i.e.
 *    classes / n without a population.
 *  - sample uniques: records in classes of size 1, as a share of n.
 * Every figure is 0 when no record is in a class. */

/* A class-size distribution: n distinct sizes, ascending, with the number
 * of classes of each size. */
typedef struct keps_class_sizes {
    size_t n;
    uint32_t *size;   /* [n] ascending */
    uint32_t *count;  /* [n] classes of that size */
    size_t records;   /* sum size * count */
    size_t classes;   /* sum count */
} keps_class_sizes;

/* The distribution of the classes of p (sizes of p->count). */
keps_status keps_class_sizes_of(const keps_partition *p, keps_class_sizes *out, keps_error *err);
/* A distribution from n (size, count) pairs in any order (a size may
 * repeat; counts add up; a size or count of 0 is skipped). For callers that
 * hold only the histogram, and for tests. */
keps_status keps_class_sizes_make(const uint32_t *size, const uint32_t *count, size_t n, keps_class_sizes *out,
                                  keps_error *err);
void keps_class_sizes_free(keps_class_sizes *h);

/* ARX's prosecutor-risk bands: band b spans (upper(b-1), upper(b)], band 0
 * starts at 0; a record of risk r falls in the first band b with
 * r <= keps_risk_band_upper(b). keps_risk_band_upper(b) for b outside
 * [0, KEPS_RISK_BANDS) is NaN. */
#define KEPS_RISK_BANDS 24
double keps_risk_band_upper(int b);
/* The band of a risk in [0, 1] (the last band for anything above). */
int keps_risk_band(double risk);

typedef struct keps_sample_risk {
    size_t rows;        /* rows of the table */
    size_t suppressed;  /* rows whose every QI is '*' */
    size_t records;     /* rows in classes */
    keps_class_sizes sizes;
    double prosecutor_highest, prosecutor_average, prosecutor_share_at_highest;
    double prosecutor_lowest, prosecutor_share_at_lowest;
    int population_table;     /* journalist and marketer measured against one */
    size_t population_rows;   /* its rows (0 without) */
    double journalist_highest, journalist_average, journalist_share_at_highest;
    double marketer_average;
    size_t unique_records;    /* records in classes of size 1 */
    double sample_uniques;    /* unique_records / records */
    double band_share[KEPS_RISK_BANDS]; /* share of records per prosecutor-risk band */
} keps_sample_risk;

/* Risk of t on its columns cols[0..m-1] (m >= 1). population, if not NULL,
 * is a table holding every record of t (a superset, in the same
 * representation: generalized the same way); its columns pcols[0..m-1]
 * correspond to cols, and all of its rows count, suppressed ones too (as
 * ARX counts a research subset's population). A class of t whose values the
 * population lacks, or holds fewer times than t, is KEPS_EINPUT naming the
 * first such row of t. */
keps_status keps_sample_risk_compute(const keps_table *t, const size_t *cols, size_t m, keps_suppressed_mode mode,
                                     const keps_table *population, const size_t *pcols, keps_sample_risk *out,
                                     keps_error *err);
void keps_sample_risk_free(keps_sample_risk *r);
/* Writes r as the members of keps risk's report (docs/cli.md) into the open
 * object of j: prosecutor, journalist (population: the population table's
 * name, for r->population_table), marketer, sample_uniques,
 * sample_unique_records, classes (size -> number of classes, sizes as
 * strings), class_count, risk_distribution. */
void keps_sample_risk_json(keps_json *j, const keps_sample_risk *r, const char *population);
/* share[0..KEPS_RISK_BANDS) as an array under key of {above, up_to, records}. */
void keps_risk_bands_json(keps_json *j, const char *key, const double *share);

/* ---- risk per combination of quasi-identifiers ----
 *
 * For every combination of 1 to max_size of the m columns cols[0..m-1]
 * (ordered by size, then lexicographically by position in cols), on the
 * classes of that combination (suppressed rows: every QI of the combination
 * '*', handled per mode):
 *  - distinction (Motwani & Xu 2007, as ARX's quasi-identifier view):
 *    classes / records, the share of records a key on these attributes keeps
 *    apart;
 *  - separation: the share of pairs of records that differ on at least one
 *    of the attributes, (C(n,2) - sum_c C(f_c,2)) / C(n,2) (0 for n < 2);
 *  - sample uniques: records in classes of size 1;
 *  - individual risk (Benedetti & Franconi 1998, as sdcMicro's indivRisk
 *    with method "approx"): see keps_individual_risk; the mean over records
 *    and the sum (expected re-identifications). */
typedef struct keps_combination_risk {
    size_t size;        /* attributes in the combination */
    const size_t *pos;  /* [size] their positions in cols, ascending */
    size_t records, classes, uniques;
    double distinction, separation;
    double risk_mean, risk_sum; /* individual risk */
} keps_combination_risk;

typedef struct keps_attribute_risks {
    size_t n;
    keps_combination_risk *c;
    size_t *posbuf; /* storage of every c[i].pos */
} keps_attribute_risks;

/* Number of combinations of 1..max_size of m attributes (SIZE_MAX when it
 * exceeds SIZE_MAX). */
size_t keps_combinations(size_t m, size_t max_size);

/* max_size in [1, m]. weights: NULL, or one positive finite sampling weight
 * per row of t (sdcMicro's w). */
keps_status keps_attribute_risks_compute(const keps_table *t, const size_t *cols, size_t m, size_t max_size,
                                         const double *weights, keps_suppressed_mode mode,
                                         keps_attribute_risks *out, keps_error *err);
void keps_attribute_risks_free(keps_attribute_risks *a);

/* Individual risk of every record (Benedetti & Franconi 1998), as sdcMicro's
 * measure_risk / indivRisk(method = "approx") computes it. f_k = records in
 * the record's class, F_k = the sum of their weights, p_k = f_k / F_k:
 *   f_k = F_k:  1/f_k
 *   f_k = 1:    p/(1-p) * log(1/p)
 *   f_k = 2:    p/(1-p) - (p/(1-p))^2 * log(1/p)
 *   f_k > 2:    p / (f_k - (1 - p))
 * Without weights every record's risk is 1/f_k (a population file). */
typedef struct keps_individual_risk {
    size_t rows, records;
    double *risk;          /* [rows]; NaN for a suppressed row left out */
    double highest, mean, sum; /* over records; sum = expected re-identifications */
    int weighted;
} keps_individual_risk;

keps_status keps_individual_risk_compute(const keps_table *t, const size_t *cols, size_t m, const double *weights,
                                         keps_suppressed_mode mode, keps_individual_risk *out, keps_error *err);
void keps_individual_risk_free(keps_individual_risk *r);

#ifdef __cplusplus
}
#endif
#endif
