/* Internal: squared Euclidean distances of a block of records stored
 * column-major (attribute j of record i at z[j*stride + i]) to one point.
 * The hot loop of MDAV (mdav.c) and record linkage (risk.c). */
#ifndef KEPS_DIST_H
#define KEPS_DIST_H

#include <stddef.h>
#include <string.h>

#if defined(__GNUC__)
#define ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define ALWAYS_INLINE inline
#endif
/* Squared distances of records i..nb-1 (column-major, attribute j at
 * z[j*stride + i]) to p, one at a time. */
static ALWAYS_INLINE void dist_scalar(const double *z, size_t stride, const double *p, size_t m, size_t i,
                                      size_t nb, double *d)
{
    for (; i < nb; i++) {
        double e = 0;
        for (size_t j = 0; j < m; j++) {
            double t = z[j * stride + i] - p[j];
            e += t * t;
        }
        d[i] = e;
    }
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
