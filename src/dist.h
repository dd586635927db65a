/* Internal: squared Euclidean distances of records to one point: one record
 * (dist_point) or a block of records stored column-major (attribute j of
 * record i at z[j*stride + i]; dist_block): MDAV's hot loop (mdav.c);
 * column moments for MDAV and record linkage (risk.c). */
#ifndef KEPS_DIST_H
#define KEPS_DIST_H

#include <stddef.h>
#include <string.h>

#include <math.h>

/* Mean and population standard deviation of column j of the row-major
 * n x m matrix x. sd is 0 exactly when every value is the same, decided on
 * the values: rounding leaves dust in the sd of a constant column, and a
 * cut-off relative to the mean also zeroed real spreads of large numbers
 * (10^13 + 0..11). A non-finite sd counts as 0 too. */
static inline void column_moments(const double *x, size_t n, size_t m, size_t j, double *mean, double *sd)
{
    double s = 0, v = 0;
    int constant = 1;
    for (size_t i = 0; i < n; i++) {
        s += x[i * m + j];
        constant &= x[i * m + j] == x[j];
    }
    double mu = n ? s / (double)n : 0;
    for (size_t i = 0; i < n && !constant; i++)
        v += (x[i * m + j] - mu) * (x[i * m + j] - mu);
    *mean = mu;
    *sd = constant || !isfinite(v) ? 0 : sqrt(v / (double)n);
}

#if defined(__GNUC__)
#define ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define ALWAYS_INLINE inline
#endif
/* A distance must not depend on where it is computed: record linkage
 * compares distances for exact equality, and its k-d tree bounds them from
 * below with the same arithmetic. Clang may fuse e + t*t into one fma where
 * the target has it, in one copy of a loop and not in another; keep every
 * product rounded. (GCC does not fuse in ISO C mode, -std=c11.) */
#if defined(__clang__)
#define DIST_NO_FMA _Pragma("STDC FP_CONTRACT OFF")
#else
#define DIST_NO_FMA
#endif

/* Squared distance of one record to p: attribute j of the record at
 * a[j*stride]; the terms (a_j - p_j)^2 are rounded and added in the order
 * j = 0..m-1, starting from 0. Every distance of MDAV and record linkage is
 * this sum (dist_block does it per vector lane, term for term). */
static ALWAYS_INLINE double dist_point(const double *a, size_t stride, const double *p, size_t m)
{
    DIST_NO_FMA
    double e = 0;
    for (size_t j = 0; j < m; j++) {
        double t = a[j * stride] - p[j];
        e += t * t;
    }
    return e;
}

/* Squared distances of records i..nb-1 (column-major, attribute j at
 * z[j*stride + i]) to p, one at a time. */
static ALWAYS_INLINE void dist_scalar(const double *z, size_t stride, const double *p, size_t m, size_t i,
                                      size_t nb, double *d)
{
    for (; i < nb; i++)
        d[i] = dist_point(z + i, stride, p, m);
}

/* The same for records 0..nb-1, four at a time in two-lane vectors where
 * the compiler has them; per record the arithmetic is the scalar sum over j
 * in order, so the result is bit-identical either way. */
#if defined(__GNUC__)
typedef double v2d __attribute__((vector_size(16)));
#endif
static ALWAYS_INLINE void dist_block(const double *z, size_t stride, const double *p, size_t m, size_t nb,
                                     double *d)
{
    DIST_NO_FMA
    size_t i = 0;
#if defined(__GNUC__)
    for (; i + 4 <= nb; i += 4) {
        v2d a = {0, 0}, b = {0, 0};
        for (size_t j = 0; j < m; j++) {
            v2d za, zb, pj = {p[j], p[j]};
            memcpy(&za, z + j * stride + i, sizeof za);
            memcpy(&zb, z + j * stride + i + 2, sizeof zb);
            v2d ta = za - pj, tb = zb - pj;
            a += ta * ta;
            b += tb * tb;
        }
        memcpy(d + i, &a, sizeof a);
        memcpy(d + i + 2, &b, sizeof b);
    }
#endif
    dist_scalar(z, stride, p, m, i, nb, d);
}

#endif
