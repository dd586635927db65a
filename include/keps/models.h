/* keps: syntactic privacy models checked on a table as released.
 *
 * Works on any table: the QI columns hold the released values as they are
 * (generalized strings, '*', intervals); nothing is parsed or generalized.
 *
 * Equivalence classes (EC): rows with identical codes in every QI column.
 *
 * Suppressed rows: a row whose every QI is "*". By default
 * (KEPS_SUPPRESSED_EXCLUDE, as ARX does) they form no class and are left out
 * of the k-anonymity, l-diversity and t-closeness checks: the suppression
 * limit of the anonymizer already accounted for them. KEPS_SUPPRESSED_CLASS
 * treats them as one ordinary class that must satisfy every check too.
 * Either way their sensitive values count in the whole table's distribution
 * used by t-closeness (they are released).
 *
 * Figures (Machanavajjhala et al. 2007; Li, Li, Venkatasubramanian 2007):
 * - k-anonymity: the smallest class size; holds iff it is >= k.
 * - distinct l-diversity: the fewest distinct sensitive values in a class.
 * - entropy l-diversity: min over classes of exp(H), H = -sum p ln p with
 *   the natural log; holds iff exp(H) >= l (i.e. H >= ln l).
 * - t-closeness: max over classes of the Earth Mover's Distance between the
 *   class's sensitive distribution P and the whole table's Q.
 *   Nominal (equal ground distance): EMD = 1/2 sum_i |p_i - q_i|.
 *   Ordered (numeric; ground distance |i-j|/(m-1) over the m sorted distinct
 *   values of the table): EMD = 1/(m-1) sum_i |sum_{j<=i} (p_j - q_j)|.
 *   Holds iff EMD <= t for every class.
 * The missing token is a sensitive value of its own for l-diversity and the
 * nominal EMD; the ordered EMD cannot place it and leaves missing cells out
 * of both distributions (a class holding only missing cells is skipped). */
#ifndef KEPS_MODELS_H
#define KEPS_MODELS_H

#include <stddef.h>
#include <stdint.h>

#include "keps/criteria.h"
#include "keps/error.h"
#include "keps/table.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { KEPS_SUPPRESSED_EXCLUDE = 0, KEPS_SUPPRESSED_CLASS } keps_suppressed_mode;

/* keps_sensitive_type: see keps/criteria.h (models take AUTO, NOMINAL, ORDERED) */

/* Equivalence classes of a table on some columns. */
typedef struct keps_classes {
    size_t nrows, nclasses;
    uint32_t *class_of;  /* [nrows] class id; KEPS_NONE = suppressed, excluded */
    uint32_t *size;      /* [nclasses] */
    uint32_t *first_row; /* [nclasses] first row of the class (its QI values) */
    size_t suppressed;   /* rows whose every QI is "*" */
    int all_star;        /* every row is "*": checked as one class whatever the mode */
} keps_classes;

/* Groups rows by their codes in cols[0..ncols) (KEPS_EINPUT if ncols is 0,
 * an index is >= t->ncols or mode is unknown). Classes are numbered in
 * order of first appearance. When every row is "*" in every QI they form
 * one class even in EXCLUDE mode: a release generalized to the top of
 * every hierarchy looks exactly like one whose rows were all suppressed,
 * and excluding them would let every property hold vacuously. */
keps_status keps_classes_build(const keps_table *t, const size_t *cols, size_t ncols,
                               keps_suppressed_mode mode, keps_classes *out, keps_error *err);
void keps_classes_free(keps_classes *c);

/* Figures for one sensitive column. Class ids refer to keps_models.ec;
 * KEPS_NONE when there is no class. */
typedef struct keps_sensitive_figures {
    size_t col;
    keps_sensitive_type type;  /* resolved: NOMINAL or ORDERED */
    size_t min_distinct;       /* distinct l-diversity */
    uint32_t min_distinct_class;
    double min_entropy_l;      /* entropy l-diversity: min exp(H), natural log */
    uint32_t min_entropy_class;
    double max_emd;            /* t-closeness */
    uint32_t max_emd_class;
    size_t distinct_values;    /* in the whole table (m for the ordered EMD) */
    size_t missing_ignored;    /* ordered: rows left out for a missing value */
} keps_sensitive_figures;

typedef struct keps_models {
    keps_classes ec;
    size_t min_class;          /* 0 when there is no class */
    uint32_t *by_size;         /* [ec.nclasses] class ids, smallest first
                                  (ties: first appearance) */
    keps_sensitive_figures *sens;
    size_t nsens;
} keps_models;

/* Computes every figure. types may be NULL (all AUTO); an ORDERED column
 * must be numeric (error naming the first cell that is not); a qi or sens
 * index >= t->ncols or an unknown type is KEPS_EINPUT. t is not const:
 * numeric sensitive columns get parsed (keps_table_numeric). */
keps_status keps_models_compute(keps_table *t, const size_t *qi, size_t nqi, const size_t *sens,
                                const keps_sensitive_type *types, size_t nsens,
                                keps_suppressed_mode mode, keps_models *out, keps_error *err);
void keps_models_free(keps_models *m);

/* The holds-tests, allowing 1e-9 (relative) for rounding so that a figure
 * equal to its bound on paper passes: exp(H) >= l, EMD <= t. */
int keps_entropy_l_holds(double min_entropy_l, double l);
int keps_t_closeness_holds(double max_emd, double t);

/* Classes smaller than k and the records they hold. */
void keps_models_below_k(const keps_models *m, size_t k, size_t *classes, size_t *records);

/* Plain EMDs between two distributions over m values (in order, for
 * ordered). Used by the tests as an oracle and by callers with their own
 * distributions. */
double keps_emd_equal(const double *p, const double *q, size_t m);
double keps_emd_ordered(const double *p, const double *q, size_t m);

#ifdef __cplusplus
}
#endif
#endif
