/* keps: attribute roles and the quasi-identifiers' hierarchies.
 *
 * The schema says what each input column is (docs/spec.md 1): identifier (dropped),
 * quasi (generalized), noisy (numeric QI that gets noise), sensitive,
 * insensitive, or unassigned (an error unless others = keep/drop). */
#ifndef KEPS_SCHEMA_H
#define KEPS_SCHEMA_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "keps/error.h"
#include "keps/hierarchy.h"
#include "keps/rng.h"
#include "keps/table.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    KEPS_ROLE_NONE = 0,
    KEPS_ROLE_IDENTIFIER,
    KEPS_ROLE_QUASI,
    KEPS_ROLE_NOISY,
    KEPS_ROLE_SENSITIVE,
    KEPS_ROLE_INSENSITIVE
} keps_role;

typedef enum { KEPS_OTHERS_ERROR = 0, KEPS_OTHERS_KEEP, KEPS_OTHERS_DROP } keps_others;

/* One generalized quasi-identifier. */
typedef struct keps_qi {
    size_t col;            /* table column */
    keps_hierarchy *h;     /* NULL: no hierarchy given (numeric for Mondrian/MDAV) */
    uint32_t **map;        /* [level][column code] -> level code; NULL if no h */
    int height;            /* levels above the original (0 if no h) */
} keps_qi;

typedef struct keps_schema {
    const keps_table *t;
    keps_role *role;       /* [ncols] */
    keps_qi *qi;           /* in the order given */
    size_t nqi;
    size_t *noisy, nnoisy;
    size_t *sensitive, nsensitive;
    keps_others others;
    keps_col_type *type;   /* [ncols] declared type: KEPS_TYPE_AUTO (infer) unless a
                              spec said NAME:numeric (keps_schema_numeric) */
} keps_schema;

keps_schema *keps_schema_new(const keps_table *t);
void keps_schema_free(keps_schema *s);

/* Adds a QI from a spec "NAME", "NAME:FILE.csv" (ARX hierarchy),
 * "NAME:BUILDER" (a hierarchy built from the data, keps_hierarchy_is_spec:
 * "age:interval=5,10,20", "zip:mask=1,2,3", ...) or "NAME:numeric" (no
 * hierarchy, and the column declared numeric whatever its values look
 * like: "zip:numeric" splits 01097 as the number 1097). A file called
 * "numeric" is given as "NAME:./numeric". */
keps_status keps_schema_add_qi(keps_schema *s, keps_table *t, const char *spec, keps_error *err);
/* Adds table column col (0-based) as a QI with a hierarchy the caller built,
 * or NULL for none. The schema takes ownership of h whether or not the call
 * succeeds: on an error (col out of range: KEPS_EINPUT; a column already
 * given a role; a value missing from h) h is already freed, so the caller
 * must not use or free it after the call. */
keps_status keps_schema_add_qi_hierarchy(keps_schema *s, size_t col, keps_hierarchy *h,
                                         keps_error *err);
/* Assigns a role other than quasi to a named column: identifier, noisy,
 * sensitive or insensitive (anything else is KEPS_EINPUT). A name that is
 * no column but ends in ":numeric" names the column before it and declares
 * it numeric ("height:numeric"). */
keps_status keps_schema_set_role(keps_schema *s, const char *name, keps_role role, keps_error *err);
/* Checks that every column has a role (or others != error); the message
 * lists the unassigned columns. Call after all roles are set. */
keps_status keps_schema_check(const keps_schema *s, keps_error *err);
/* Whether column col is numeric for s (docs/spec.md, section 1): as
 * declared (s->type, NAME:numeric), else as keps_table_infer_type finds.
 * KEPS_OK after parsing it (keps_table_numeric) when it is; KEPS_EINPUT
 * naming the cell that makes it categorical otherwise, with what needed a
 * number (use, e.g. "Mondrian splits a quasi-identifier without a
 * hierarchy as numbers") and how to declare it numeric. t is s->t. */
keps_status keps_schema_numeric(const keps_schema *s, keps_table *t, size_t col, const char *use, keps_error *err);
/* Is column j written to the release? (not identifier, not dropped) */
int keps_schema_released(const keps_schema *s, size_t j);
const char *keps_role_name(keps_role r);

/* Accounting every method reports: released + suppressed + unsampled = input. */
typedef struct keps_counts {
    size_t input_rows, output_rows, suppressed_rows, removed_rows, unsampled_rows;
} keps_counts;


#ifdef __cplusplus
}
#endif
#endif
