/* Private: test hooks of mdav.c. keps_mdav groups by scanning every
 * remaining record or by a k-d tree (mdav_index.c), with the same result;
 * tests force one or the other to compare them. */
#ifndef KEPS_MDAV_INTERNAL_H
#define KEPS_MDAV_INTERNAL_H

#include <stddef.h>

#include "internal.h"

/* 0: chosen by size (the default); 1: the scan; 2: the tree. Process-wide,
 * like keps_mdav_threads. */
KEPS_INTERNAL void mdav_set_method(int method);

/* How many rounds of the last tree-path keps_mdav recomputed the scan's
 * centroid sum because two records were too close to call. */
KEPS_INTERNAL size_t mdav_last_fallbacks(void);

#endif
