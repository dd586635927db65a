/* keps: special uniques (SUDA, Elliot et al. 2002; SUDA2, Manning, Haglin
 * & Keane 2008) and their DIS scores, as sdcMicro's suda2 computes them.
 *
 * A minimal sample unique (MSU) of a record is a set of attributes on
 * which the record's values occur in no other record, while on every proper
 * subset of it they occur in some other record. keps finds every MSU of 1 to
 * max_size attributes among the m quasi-identifiers (sdcMicro searches all
 * sizes: max_size = m gives its figures).
 *  - SUDA score of a record: sum over its MSUs of (m - size)! (sdcMicro's
 *    default, original_scores = TRUE, after Elliot's SUDA);
 *  - DIS score (Skinner & Elliot's data intrusion simulation, sdcMicro's
 *    formula): with U the records unique on all m attributes, P the records
 *    in classes of exactly two on them, f the DIS fraction (0.01 by
 *    default) and Q = 1 + (8 - m)/20,
 *      dis = U f / (U f + P (1 - f)),
 *      DIS_r = 1 / (1 + (U/dis - U) / (score_r^Q * sum_s 1/score_s^Q))
 *    over the records s with a score, and 0 for a record without MSU.
 *    sdcMicro computes dis, Q and U/dis - U in single precision (float);
 *    keps does the same. (sdcMicro miscounts U, see docs/spec.md section
 *    13; U cancels from the formula but for that rounding, so its DIS
 *    scores can differ from keps's by about 1e-7 relative.)
 *  - attribute contribution: the share (percent) of the total score that
 *    comes from MSUs holding the attribute (sdcMicro's
 *    attribute_contributions; the shares add up to more than 100).
 * Values are compared as they are, the missing token being a value too
 * (sdcMicro leaves its missing code out of every MSU); rows whose every QI
 * is '*' are suppressed and left out or one class, per mode. */
#ifndef KEPS_SUDA_H
#define KEPS_SUDA_H

#include <stddef.h>
#include <stdint.h>

#include "keps/error.h"
#include "keps/models.h"
#include "keps/table.h"

#ifdef __cplusplus
extern "C" {
#endif

#define KEPS_SUDA_DIS_FRACTION 0.01

typedef struct keps_suda {
    size_t rows, records, nvars, max_size;
    double dis_fraction;
    size_t full_uniques;   /* U */
    size_t pair_records;   /* P */
    uint32_t *msus;        /* [rows * max_size]: MSUs of size k+1 of row r at r * max_size + k */
    double *score;         /* [rows] SUDA score (0 for a row left out) */
    double *dis;           /* [rows] DIS score */
    size_t *msus_by_size;  /* [max_size] MSUs of each size in all */
    size_t ncombinations;  /* keps_combinations(m, max_size) */
    size_t *combination_msus; /* [ncombinations] records whose MSU is that combination, in
                                 keps_attribute_risks order (size, then lexicographic) */
    double *contribution;  /* [nvars] percent of the total score */
    size_t special_uniques; /* records with at least one MSU */
    double total_score;
} keps_suda;

/* Columns cols[0..m-1] of t, MSUs up to max_size in [1, m], dis_fraction in
 * (0, 1]. Its memory grows with the combinations of the largest two sizes
 * times rows / 8 bytes; more than 4 GiB is refused (KEPS_EINPUT). */
keps_status keps_suda_compute(const keps_table *t, const size_t *cols, size_t m, size_t max_size,
                              double dis_fraction, keps_suppressed_mode mode, keps_suda *out, keps_error *err);
void keps_suda_free(keps_suda *s);

#ifdef __cplusplus
}
#endif
#endif
