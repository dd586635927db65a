/* keps: equivalence classes of a table as released (keps risk's). The
 * privacy criteria on any release are keps/criteria.h's, on a partition
 * (keps/partition.h).
 *
 * Works on any table: the QI columns hold the released values as they are
 * (generalized strings, '*', intervals); nothing is parsed or generalized.
 * Equivalence classes (EC): rows with identical codes in every QI column.
 * Suppressed rows: a row whose every QI is "*". By default
 * (KEPS_SUPPRESSED_EXCLUDE, as ARX does) they form no class;
 * KEPS_SUPPRESSED_CLASS treats them as one ordinary class. */
#ifndef KEPS_MODELS_H
#define KEPS_MODELS_H

#include <stddef.h>
#include <stdint.h>

#include "keps/error.h"
#include "keps/table.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { KEPS_SUPPRESSED_EXCLUDE = 0, KEPS_SUPPRESSED_CLASS } keps_suppressed_mode;



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

#ifdef __cplusplus
}
#endif
#endif
