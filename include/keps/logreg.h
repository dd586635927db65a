/* keps: L2-regularized logistic regression on sparse rows.
 *
 * Objective (scikit-learn's LogisticRegression with penalty l2, C):
 *   J(w, b) = 1/2 |w|^2 + C sum_i log(1 + exp(-s_i (w.x_i + b))),  s_i = +-1,
 * the intercept b not penalized. Minimized by Newton's method with a
 * backtracking line search (J is strictly convex in w; the Hessian is dense
 * (d+1)^2 but each row adds only nnz^2 entries, which one-hot rows keep
 * small). Multi-class problems are one-vs-rest (keps_evaluate). */
#ifndef KEPS_LOGREG_H
#define KEPS_LOGREG_H

#include <stddef.h>
#include <stdint.h>

#include "keps/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Rows in compressed sparse row form: row i holds the entries
 * start[i] .. start[i+1]-1 of (idx, val); idx < nfeat. */
typedef struct keps_sparse {
    size_t nrows, nfeat;
    size_t *start; /* [nrows + 1] */
    uint32_t *idx;
    double *val;
} keps_sparse;

/* Largest feature count the dense Newton solver accepts. */
#define KEPS_LOGREG_MAX_FEATURES 5000

/* Fits w[0..nfeat-1] and the intercept w[nfeat] on labels y[i] in {0, 1}.
 * c > 0 is the inverse regularization strength (1.0 as scikit-learn). */
keps_status keps_logreg_fit(const keps_sparse *x, const uint8_t *y, double c, double *w, keps_error *err);

/* w.x + b for one sparse row. */
double keps_logreg_margin(const double *w, size_t nfeat, const uint32_t *idx, const double *val, size_t nnz);

#ifdef __cplusplus
}
#endif

#endif
