/* keps: utility of a release (docs/spec.md 6, the thesis's learning task).
 *
 * Classifier accuracy: an L2-regularized logistic regression (logreg.h,
 * C = 1 as scikit-learn) is trained on the release and tested on held-out
 * original rows. Features are the columns the release and the original
 * share, minus the target and ignored ones. A column is numeric when every
 * value of it in the release and the original parses as a number (missing
 * cells aside); numeric features are standardized with the training mean and
 * standard deviation. Every other column is one-hot encoded over the
 * release's values, generalized ones such as "[20-25[" or "*" included.
 * Test rows, which hold original values, are first generalized the way the
 * release was: when a hierarchy is given for the column and the release's
 * values all come from one level above 0 (the lowest level whose values
 * cover them), a value is mapped to its label at that level, even if the
 * value itself also occurs in the release (a label may spell another leaf);
 * otherwise a value the release holds stays itself; otherwise a number
 * falls into the release's interval label "[lo-hi[" (or "[lo-hi]") that
 * contains it; otherwise it matches nothing (all-zero one-hot). Two or
 * more classes: one
 * vs rest; the prediction is the class with the largest margin.
 * The same model is trained on the original training rows ("raw") and the
 * majority class of the release is the baseline.
 *
 * Information loss per attribute (release vs original; releases are
 * shuffled, so nothing here pairs rows):
 *   level, height, generalization: the hierarchy level detected as above
 *     (a column of nothing but "*" is at the top), and level/height. Without
 *     a hierarchy the level is unknown: level = height = -1, generalization
 *     NaN. With one, level -1 means the release mixes values of several
 *     levels (not a full-domain generalization);
 *   suppressed_share: share of release cells that are "*" unless the
 *     column is at the top (with a hierarchy: the detected level; without
 *     one: every cell "*"), so suppressed records count with or without a
 *     hierarchy;
 *   non_original_share: share of release cells whose value never occurs in
 *     the original column (generalized or suppressed);
 *   distinct_ratio: distinct values in the release / distinct values in the
 *     original (1: as fine as the original; 1/|dom|: one value left);
 *   prec: ARX precision of the column, ((n - S) l/h + S) / n over the
 *     release's n rows with S suppressed (NaN without a hierarchy);
 *   test_unmatched_share: share of the test rows whose value of this
 *     categorical feature matches no release value even after the
 *     generalization above (the classifier sees nothing of it); 0 for a
 *     numeric feature, NaN for a column that is no feature.
 *
 * Errors (KEPS_EINPUT): an original without records; a hierarchy whose
 * column the original lacks, that lacks a value of the original or test
 * column (the message names the cell, as keps_hierarchy_bind does), or
 * that holds a release value at no level; a split or test file that leaves
 * no test or no training row. */
#ifndef KEPS_EVALUATE_H
#define KEPS_EVALUATE_H

#include <stddef.h>
#include <stdint.h>

#include "keps/error.h"
#include "keps/hierarchy.h"
#include "keps/rng.h"
#include "keps/table.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct keps_eval_hier {
    const char *column;
    const keps_hierarchy *h;
} keps_eval_hier;

typedef struct keps_eval_options {
    const char *target;          /* class column; NULL: information loss only */
    const keps_table *test;      /* held-out original rows; NULL: split */
    double split;                /* share of original rows held out when test is NULL */
    keps_rng *rng;               /* picks the split rows */
    double c;                    /* inverse regularization (0: 1.0) */
    const keps_eval_hier *hier;  /* optional hierarchies */
    size_t nhier;
    const char *const *ignore;   /* columns left out of the features */
    size_t nignore;
} keps_eval_options;

typedef struct keps_eval_attr {
    const char *name;            /* the release's column name */
    int numeric;                 /* used as a numeric feature */
    int level, height;           /* both -1 without a hierarchy; level -1: mixed levels */
    double generalization, suppressed_share, non_original_share, distinct_ratio, prec;
    double test_unmatched_share; /* NaN: not a feature (or no --target) */
} keps_eval_attr;

typedef struct keps_eval_result {
    keps_eval_attr *attrs;       /* one per release column that the original has */
    size_t nattrs;
    size_t original_rows, release_rows;
    int has_model;
    double accuracy;             /* trained on the release */
    double accuracy_original;    /* trained on the original training rows */
    double baseline;             /* majority class of the release, on the test rows */
    char *majority;              /* that class */
    size_t train_rows, original_train_rows, test_rows, nfeatures, nclasses;
} keps_eval_result;

keps_status keps_evaluate(const keps_table *original, const keps_table *release, const keps_eval_options *o,
                          keps_eval_result *r, keps_error *err);

/* A train/test split of n rows, as keps_evaluate makes one (docs/spec.md,
 * "Utility evaluation"): round(fraction * n) test rows, the first of a
 * uniformly random permutation drawn from rng, so that the same rng
 * stream picks the same rows here and in keps_evaluate. test[i] = 1 for a
 * held-out row (test has n entries), *ntest their count. Each side needs a
 * row: else KEPS_EINPUT naming the fractions that work for n. Anonymize
 * the training rows only; the test rows then never reach the release, and
 * a classifier's accuracy on them is honest. */
keps_status keps_eval_split(size_t n, double fraction, keps_rng *rng, uint8_t *test, size_t *ntest,
                            keps_error *err);
void keps_eval_result_free(keps_eval_result *r);

#ifdef __cplusplus
}
#endif

#endif
