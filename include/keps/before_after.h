/* keps: a release compared with its input, for the report.
 *
 * What a reviewer asks of a release besides its guarantee: how much risk it
 * removed and what it did to the data. From the input table and the
 * release (as the methods build it: the released columns in input order),
 * on columns named in both:
 *  - risk: keps risk's measures (keps_sample_risk_compute, suppressed
 *    records left out) of the input and of the release on the QIs:
 *    records, suppressed, prosecutor {highest, average, share_at_highest},
 *    sample_uniques, class_count, class_sizes ([size, classes] pairs),
 *    risk_distribution (ARX's bands); names unlike a report's own top-level
 *    keys, so that those stay unique in its text;
 *  - distributions: for each attribute whose values the release changed
 *    (its value counts differ from the input's), both sides' distributions:
 *    a numeric column (every value a number, '*' and the missing token
 *    aside) as a histogram, both sides on the same bins when both are
 *    numeric; any other as its most frequent values with the rest summed
 *    up as "other"; attributes whose counts did not change are listed;
 *  - suppressed values: per QI, the input values whose records were
 *    suppressed most (a record is suppressed when its release row is '*'
 *    in every QI, or is missing from a release whose rows carry their
 *    input lines, as OLA's does with --remove-suppressed). Given only when
 *    the release's rows can be matched to the input's (as many rows, or
 *    row lines) and some record was suppressed.
 * Everything is capped (the options below), so that the report stays small
 * whatever the data: at most top_values values per side and per QI,
 * bins bins, max_columns attributes. The class-size distribution has at
 * most sqrt(2n) distinct sizes for n records.
 *
 * These figures are read from the input: like the rest of a report they
 * are the curator's, not for publication with the release. */
#ifndef KEPS_BEFORE_AFTER_H
#define KEPS_BEFORE_AFTER_H

#include <stddef.h>
#include <stdint.h>

#include "keps/error.h"
#include "keps/json.h"
#include "keps/table.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct keps_before_after_opts {
    size_t top_values;  /* values kept per side and per QI (0: 12) */
    size_t bins;        /* histogram bins (0: 20) */
    size_t max_columns; /* attributes compared (0: 24); the rest are counted */
    /* [input rows] the rows offered for release (a research subset), or
     * NULL: all. A row not offered is neither released nor suppressed: the
     * suppression by value counts the offered rows only. */
    const uint8_t *offered;
} keps_before_after_opts;

/* Writes the comparison as an object under key into j. qi[0..nqi) are the
 * quasi-identifiers (risk, suppression), attr[0..nattr) the attributes
 * whose distributions to compare (QIs included where wanted); names absent
 * from either table are skipped. opts may be NULL. Errors: KEPS_ENOMEM. */
keps_status keps_before_after_json(keps_json *j, const char *key, const keps_table *input, const keps_table *release,
                                   const char *const *qi, size_t nqi, const char *const *attr, size_t nattr,
                                   const keps_before_after_opts *opts, keps_error *err);

#ifdef __cplusplus
}
#endif
#endif
