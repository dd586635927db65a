/* keps: how a release read back treats its suppressed rows (a row whose
 * every QI is "*"): by default (KEPS_SUPPRESSED_EXCLUDE, as ARX does) they
 * form no class; KEPS_SUPPRESSED_CLASS treats them as one ordinary class.
 * The classes themselves are a keps_partition (keps/partition.h,
 * keps_partition_from_release); the privacy criteria on any release are
 * keps/criteria.h's. */
#ifndef KEPS_MODELS_H
#define KEPS_MODELS_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { KEPS_SUPPRESSED_EXCLUDE = 0, KEPS_SUPPRESSED_CLASS } keps_suppressed_mode;

#ifdef __cplusplus
}
#endif
#endif
