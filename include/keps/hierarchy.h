/* keps: generalization hierarchies.
 *
 * ARX CSV layout: no header, one row per original (leaf) value, column j =
 * the value at level j (level 0 = the original value). Stored as a keps_table
 * whose column j is level j, so every level is dictionary-encoded: the code
 * of a value at level j is dense in 0..keps_hierarchy_size(h, j)-1.
 * Rows of different lengths are read as the leaf-to-root paths of an
 * unbalanced tree if all end at the same root: a short path repeats its
 * leaf on the lowest levels (keps_csv_options.tree_paths).
 * Validation: unique leaves, consistency (values equal at level j stay
 * equal at every level above), and no empty cell except in the row of the
 * missing value written as the empty field: a row whose first field is
 * empty may stay empty on its lowest levels (";;*" or, as a short path,
 * ";*": the missing value stays missing up to the top). A first row that
 * looks like a header row (see keps_csv_options.tree_paths) is refused at
 * line 1, column 1.
 *
 * Builders (keps_hierarchy_build and the calls below it) make a hierarchy
 * from a column's own values, ARX's builders' way (docs/spec.md, section
 * 1, "Hierarchy builders"): intervals, masking of characters, runs of
 * ordered values, ISO dates, bottom and top coding. Their rows list the
 * leaves in the builder's order (numbers by value, strings by bytes,
 * dates by time; the missing value last), every one ending at "*"; the
 * column's missing token stays itself on every level below the top. */
#ifndef KEPS_HIERARCHY_H
#define KEPS_HIERARCHY_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include "keps/error.h"
#include "keps/table.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct keps_hierarchy {
    keps_table *levels;   /* row = leaf, column j = level j */
} keps_hierarchy;

/* Loads an ARX hierarchy CSV. delimiter 0 = sniff from the first row. */
keps_status keps_hierarchy_load(const char *path, char delimiter, keps_hierarchy **out,
                                keps_error *err);
keps_status keps_hierarchy_load_buffer(const char *data, size_t len, const char *name,
                                       char delimiter, keps_hierarchy **out, keps_error *err);
/* Builds and validates a hierarchy from a table (row = leaf, col = level).
 * Takes ownership of levels (also on failure). */
keps_status keps_hierarchy_from_table(keps_table *levels, keps_hierarchy **out, keps_error *err);

/* Interval hierarchy for numeric column col of t: level i (1..nw) groups
 * values into [lo-hi[ with lo = floor(v/w_i)*w_i, then a top level `*`.
 * Each width must be a multiple of the previous one: the intervals of a
 * level are then unions of the level below's, as a hierarchy needs (with
 * 5 and 7, [5-10[ would straddle [0-7[ and [7-14[). Computed exactly in
 * decimal when the widths and values have few decimals (0.1 steps give
 * [0.3-0.4[, never [0.30000000000000004-...). col >= t->ncols is
 * KEPS_EINPUT. */
keps_status keps_hierarchy_interval(keps_table *t, size_t col, const double *widths,
                                    size_t nw, keps_hierarchy **out, keps_error *err);
/* Parses "5,10,20" into widths; returns count or -1 (error set). */
int keps_hierarchy_parse_widths(const char *spec, double *widths, int max, keps_error *err);

/* ---- builders ---- */

#define KEPS_BUILD_MAX_LEVELS 32

typedef enum {
    KEPS_BUILD_CODING = 0, /* bottom/top coding alone: coded values, the rest as they are */
    KEPS_BUILD_INTERVAL,   /* widths: "[lo-hi[" */
    KEPS_BUILD_MASK,       /* counts: characters replaced by '*' from the right */
    KEPS_BUILD_ORDER,      /* counts: runs of that many consecutive sorted values, "[first, last]" */
    KEPS_BUILD_DATE        /* units: ISO dates by day, month, quarter, year, decade, century */
} keps_build_kind;

typedef enum {
    KEPS_DATE_DAY = 0,  /* "2020-03-15" */
    KEPS_DATE_MONTH,    /* "2020-03" */
    KEPS_DATE_QUARTER,  /* "2020-Q1" */
    KEPS_DATE_YEAR,     /* "2020" */
    KEPS_DATE_DECADE,   /* "[2020, 2030[" (ARX's label) */
    KEPS_DATE_CENTURY   /* "[2000, 2100[" */
} keps_date_unit;

/* What a builder makes: kind and one entry per level between the values
 * and the top "*" (nlevels of them; 0 only for KEPS_BUILD_CODING, whose
 * one level is the coded values). bottom/top: values below bottom become
 * "<bottom", values at or above top ">=top" on every level (ARX's labels);
 * for intervals the interval holding a bound is cut at it ([18-20[ with
 * bottom 18). They go with CODING, INTERVAL and DATE (then as ISO dates);
 * empty strings mean none. */
typedef struct keps_hierarchy_spec {
    keps_build_kind kind;
    size_t nlevels;
    double widths[KEPS_BUILD_MAX_LEVELS];        /* INTERVAL: > 0, each a multiple of the previous */
    unsigned counts[KEPS_BUILD_MAX_LEVELS];      /* MASK: characters, increasing; ORDER: values per
                                                    run, >= 2, each a multiple of the previous */
    keps_date_unit units[KEPS_BUILD_MAX_LEVELS]; /* DATE: coarser at every level */
    char bottom[64], top[64];                    /* as written: a number, or an ISO date */
} keps_hierarchy_spec;

/* Parses a builder spec, the part after "NAME:" of a --qi (docs/cli.md):
 * comma-separated items, KEY=VALUE starting a key and a bare VALUE adding
 * to the last key's list: "interval=5,10,20", "interval=5,10,bottom=18,
 * top=90", "mask=1,2,3", "order=2,4", "date=month,year,decade",
 * "top=90". Errors (KEPS_EINPUT) say what was expected. */
keps_status keps_hierarchy_parse_spec(const char *text, keps_hierarchy_spec *spec, keps_error *err);
/* 1 if text is a builder spec (starts with interval=, mask=, order=,
 * date=, bottom= or top=), 0 if it names a hierarchy file. */
int keps_hierarchy_is_spec(const char *text);
/* Builds the hierarchy spec describes from column col of t. A value the
 * builder cannot read (a non-number for INTERVAL, CODING and a numeric
 * ORDER; a date not in ISO 8601 form for DATE) is KEPS_EINPUT naming its
 * file, line and column. ORDER sorts numbers by value when the column is
 * numeric (keps_table_infer_type, or numeric = 1), else strings by their
 * bytes (UTF-8: code point order), whatever the locale; numeric < 0 infers.
 * A table without rows is KEPS_EINPUT (no values to build from). */
keps_status keps_hierarchy_build(keps_table *t, size_t col, const keps_hierarchy_spec *spec, int numeric,
                                 keps_hierarchy **out, keps_error *err);
/* keps_hierarchy_parse_spec then keps_hierarchy_build (type inferred). */
keps_status keps_hierarchy_build_text(keps_table *t, size_t col, const char *text, keps_hierarchy **out,
                                      keps_error *err);
/* The builders one by one (the same as keps_hierarchy_build with that
 * kind and no coding). Masking: every value is first padded on the right
 * with '*' to the longest value's length in characters (UTF-8), as ARX's
 * redaction builder does, then level i keeps all but the last counts[i]
 * characters: 01097 -> 0109* -> 010** -> 01***, then "*". Each count must
 * be below that length. */
keps_status keps_hierarchy_mask(keps_table *t, size_t col, const unsigned *counts, size_t n,
                                keps_hierarchy **out, keps_error *err);
keps_status keps_hierarchy_order(keps_table *t, size_t col, const unsigned *runs, size_t n, int numeric,
                                 keps_hierarchy **out, keps_error *err);
/* ISO 8601 dates: YYYY-MM-DD (a valid Gregorian date, years 0001-9999),
 * optionally followed by 'T' or one space and HH:MM or HH:MM:SS (00:00
 * to 23:59:59); nothing else (no time zone, no other layout). */
keps_status keps_hierarchy_date(keps_table *t, size_t col, const keps_date_unit *units, size_t n,
                                keps_hierarchy **out, keps_error *err);

/* Writes h as an ARX hierarchy file (no header, one row per leaf, fields
 * quoted where needed) to path ("-" = stdout) with the given delimiter
 * (0 = ';', ARX's). Not atomic: callers stage the file. */
keps_status keps_hierarchy_write(const keps_hierarchy *h, const char *path, char delimiter, keps_error *err);
/* The same into an open stream (name for messages); nothing is closed. */
keps_status keps_hierarchy_write_to(const keps_hierarchy *h, FILE *f, const char *name, char delimiter,
                                    keps_error *err);

void keps_hierarchy_free(keps_hierarchy *h);

static inline int keps_hierarchy_height(const keps_hierarchy *h)
{
    return (int)h->levels->ncols - 1;
}
static inline size_t keps_hierarchy_leaves(const keps_hierarchy *h)
{
    return h->levels->nrows;
}
/* Number of distinct values at a level. */
static inline uint32_t keps_hierarchy_size(const keps_hierarchy *h, int level)
{
    return h->levels->cols[level].nvalues;
}
static inline const char *keps_hierarchy_label(const keps_hierarchy *h, int level, uint32_t code)
{
    return h->levels->cols[level].values[code];
}

/* Maps every code of table column col through the hierarchy:
 * (*map)[l][v] = level-l code of column value v, for l in 0..height.
 * A data value missing from the hierarchy is an error naming the data
 * cell and the hierarchy file; col >= t->ncols is KEPS_EINPUT. Free with
 * keps_hierarchy_map_free. */
keps_status keps_hierarchy_bind(const keps_hierarchy *h, const keps_table *t, size_t col,
                                uint32_t ***map, keps_error *err);
void keps_hierarchy_map_free(uint32_t **map, const keps_hierarchy *h);

/* Leaves under each level-l value: out[code] = count (array of
 * keps_hierarchy_size(h, l)); used by ARX's Loss metric. Caller frees. */
uint32_t *keps_hierarchy_leaf_counts(const keps_hierarchy *h, int level);

#ifdef __cplusplus
}
#endif
#endif
