/* keps: a table of dictionary-encoded columns.
 *
 * Every column stores one uint32 code per row and each distinct string once
 * (its dictionary). Hot loops work on the codes. A column used as numeric is
 * parsed once per distinct value (keps_table_numeric). The missing-value
 * token is a value of its own; its code and count are kept per column. */
#ifndef KEPS_TABLE_H
#define KEPS_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "keps/error.h"

#ifdef __cplusplus
extern "C" {
#endif

#define KEPS_NONE UINT32_MAX

typedef struct keps_column {
    char *name;
    uint32_t *codes;      /* [nrows] dictionary code of each row */
    char **values;        /* [nvalues] distinct strings, NUL-terminated */
    uint32_t nvalues;
    uint32_t missing;     /* code of the missing token, KEPS_NONE if absent */
    size_t missing_count; /* rows holding the missing token */
    double *num;          /* [nvalues] numeric value per code, NaN = missing;
                             NULL until keps_table_numeric() */
    uint32_t *first_row;  /* [nvalues] first row holding each code */
    /* private: open-addressing index of values */
    uint32_t *slots;
    uint32_t *hashes;
    uint32_t nslots;
    uint32_t vcap;
} keps_column;

typedef struct keps_arena keps_arena;

typedef struct keps_table {
    char *source;         /* file name used in messages ("<memory>", "<stdin>") */
    char *missing_token;  /* "" by default */
    size_t nrows, ncols, cap;
    keps_column *cols;
    uint32_t *row_line;   /* [nrows] 1-based source line, 0 when built in memory */
    keps_arena *arena;    /* string storage */
    uint32_t *name_slots; /* private: index of the column names */
    size_t name_nslots;
    char delimiter;       /* field separator it was read with; 0 if built in memory */
    int decimal_comma;    /* numbers use ',' as the decimal mark (170,5): read so by
                             keps_table_numeric and written so by keps_format_number_in;
                             set it before the first keps_table_numeric call */
} keps_table;

/* A new empty table. Duplicate or empty column names are an error.
 * missing_token may be NULL (= empty field). */
keps_table *keps_table_new(size_t ncols, const char *const *names,
                           const char *missing_token, const char *source,
                           keps_error *err);
void keps_table_free(keps_table *t);

/* Appends one row of ncols fields (lens may be NULL for NUL-terminated).
 * line is the 1-based source line for messages (0 if none). */
keps_status keps_table_append(keps_table *t, const char *const *fields,
                              const size_t *lens, uint32_t line, keps_error *err);

/* Code of string s in column col, adding it to the dictionary if new.
 * Returns KEPS_NONE on OOM. */
uint32_t keps_table_intern(keps_table *t, size_t col, const char *s, size_t len);
/* Code of s in column col, or KEPS_NONE if the column never holds it. */
uint32_t keps_table_lookup(const keps_table *t, size_t col, const char *s, size_t len);

/* Index of the column called name, or -1. */
int keps_table_column(const keps_table *t, const char *name);
/* Column of spec = "NAME" or "NAME:REST" (a --qi or --hierarchy value),
 * where NAME may hold ':' itself, as survey headers often do: the whole
 * spec when it names a column, else the shortest prefix before a ':' that
 * does. *rest is what follows that ':' (NULL for the whole spec); -1 when
 * no reading names a column. */
int keps_table_column_spec(const keps_table *t, const char *spec, const char **rest);
/* Sets err to "SOURCE has no column 'NAME'; its columns are: ...", with a
 * hint when a column name is a number (the file likely lacks its header
 * row); returns KEPS_EINPUT. */
keps_status keps_table_no_column(keps_error *err, const keps_table *t, const char *name);
/* The same for a spec that keps_table_column_spec could not resolve: it
 * names the part before the first ':'. */
keps_status keps_table_no_column_spec(keps_error *err, const keps_table *t, const char *spec);

/* Largest magnitude of a number keps accepts in data (and in --bounds).
 * Within it every sum keps forms stays finite with a wide margin: a squared
 * difference is at most (2e100)^2 = 4e200, and a sum of those over 4e9 rows
 * and a million columns is at most 1.6e216, far below DBL_MAX = 1.8e308;
 * means, variances and standardized values are smaller still. Laplace noise
 * of scale m*2e100/epsilon stays finite for every epsilon above about
 * 1e-200; a smaller epsilon is refused where the noise is drawn. */
#define KEPS_NUM_MAX 1e100

typedef enum {
    KEPS_NUM_OK = 0,
    KEPS_NUM_SYNTAX, /* not a decimal number (also inf and nan) */
    KEPS_NUM_HEX,    /* a hexadecimal number: data and options are decimal */
    KEPS_NUM_RANGE   /* a decimal number of magnitude above KEPS_NUM_MAX */
} keps_num_status;

/* Parses s as a decimal number: the whole string (trailing blanks allowed).
 * A value too small for a normal double (1e-320) is accepted as the nearest
 * double, as any decimal is rounded. *out is set on KEPS_NUM_OK, and to the
 * value read on KEPS_NUM_HEX and KEPS_NUM_RANGE (for messages). */
keps_num_status keps_parse_number(const char *s, double *out);

/* keps_parse_number with t's decimal mark: with t->decimal_comma, ',' is
 * the decimal mark ("170,5" is 170.5) and a '.' makes s no number (it
 * could be a thousands separator: 1.705 or 1705?). */
keps_num_status keps_table_parse(const keps_table *t, const char *s, double *out);

/* Parses column col as numbers (keps_table_parse). A cell that is not a
 * number and not the missing token, or lies beyond KEPS_NUM_MAX, is an
 * error naming file, line, column; col >= t->ncols is KEPS_EINPUT. */
keps_status keps_table_numeric(keps_table *t, size_t col, keps_error *err);

/* Column types (docs/spec.md, section 1). A column is numeric when every
 * non-missing cell is a number written as a number, not a code:
 *  - keps_table_parse reads it (decimal, finite, at most KEPS_NUM_MAX);
 *  - its integer part has no leading zero: after an optional sign, a '0'
 *    is not followed by another digit ("01097", "007", "-01.5" are codes;
 *    "0", "0.5", "-0,25" are numbers);
 *  - written as a whole number (digits and an optional sign only), a
 *    double holds its value exactly ("12345678901234567890" is a code:
 *    as a number it would become 12345678901234567168).
 * Everything else, and a column without any non-missing cell, is
 * categorical. Spellings such as "+5", "1.50", "1e3" and ".5" are numbers.
 * A caller may declare a column numeric regardless (keps/schema.h,
 * NAME:numeric); the cells must then still parse. */
typedef enum { KEPS_TYPE_AUTO = 0, KEPS_TYPE_NUMERIC, KEPS_TYPE_CATEGORICAL } keps_col_type;

/* The type of column col as the rules above infer it (never AUTO). For a
 * categorical column, *row (may be NULL) is the first row holding a value
 * that makes it so and *why (may be NULL) says what that value is, e.g.
 * "has a leading zero"; a column without a non-missing cell gives
 * *row = (size_t)-1. Does not parse the column (keps_table_numeric does). */
keps_col_type keps_table_infer_type(const keps_table *t, size_t col, size_t *row, const char **why);

/* The precision of a numeric column's input: the largest number of
 * decimals any non-missing cell is written with, counted in its text as
 * the digits after the decimal mark minus the exponent, and at least 0:
 * "170" 0, "170.5" 1, "170.50" 2 (trailing zeros count: the data says it
 * is precise to them), "1.25e1" 1, "5e-3" 3, "1.5e3" 0. Cells that are no
 * number count 0. Capped at KEPS_DIGITS_MAX. */
#define KEPS_DIGITS_MAX 340
int keps_table_decimals(const keps_table *t, size_t col);

/* A new table with t's columns, missing token, source, delimiter and
 * decimal mark, holding t's rows rows[0..n) in that order (lines kept for
 * messages). NULL with err set on error. */
keps_table *keps_table_rows(const keps_table *t, const size_t *rows, size_t n, keps_error *err);

static inline const char *keps_table_str(const keps_table *t, size_t col, size_t row)
{
    return t->cols[col].values[t->cols[col].codes[row]];
}
static inline double keps_table_num(const keps_table *t, size_t col, size_t row)
{
    return t->cols[col].num[t->cols[col].codes[row]];
}

/* Writes "file:line:col: " style position of a cell into err. */
keps_status keps_table_cell_error(keps_error *err, const keps_table *t, size_t col,
                                  size_t row, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

/* A column given as a dictionary and one index per row into it, for
 * callers that hold their data by column, already dictionary-encoded
 * (pandas' factorize and categoricals, R's factors): row i holds
 * dict[codes[i]], and a negative code the table's missing token. */
typedef struct keps_column_codes {
    const char *const *dict; /* [ndict] strings (UTF-8) */
    const size_t *lens;      /* [ndict] their lengths; NULL: NUL-terminated */
    size_t ndict;
    const int32_t *codes;    /* [nrows] indices into dict, or < 0 for missing */
} keps_column_codes;

/* Appends nrows rows given column by column, cols[j] for each of t's
 * columns. Values are interned in row order, so t ends up as appending the
 * rows one by one with keps_table_append would leave it (dictionaries in
 * order of first occurrence, codes, first rows, missing counts); entries
 * of dict may repeat (they become one value) or go unused. Row i gets
 * source line first_line + i for messages (0: none; messages then count
 * rows as the lines of a file with a header). A code >= ndict or a NUL
 * byte inside a used entry is KEPS_EINPUT and leaves t unchanged; after
 * KEPS_ENOMEM t may only be freed. */
keps_status keps_table_append_columns(keps_table *t, size_t nrows, const keps_column_codes *cols,
                                      uint32_t first_line, keps_error *err);

/* A frequency table's count column: *weight (malloc'd, [t->nrows]) gets
 * each row's number of records and *records their sum. A count must be a
 * whole number from 1 to 4,294,967,295 written in decimal digits (a
 * GROUP BY never yields 0; "12.0", "-3", "1e3" and a missing cell are
 * refused); the sum may not exceed 4,294,967,295 either. KEPS_EINPUT names
 * the first bad cell's file, line and column. */
keps_status keps_table_counts(const keps_table *t, size_t col, uint32_t **weight, uint64_t *records,
                              keps_error *err);

/* The frequency table of a frequency table's rows: one row per distinct
 * tuple of the columns other than the count column col, holding the sum of
 * their counts (keps_table_counts); as a multiset, SQL's SELECT others...,
 * SUM(col) ... GROUP BY others... . Rows in order of first appearance. *out
 * is the caller's (keps_table_free). */
keps_status keps_table_group_counts(const keps_table *t, size_t col, keps_table **out, keps_error *err);

/* Bytes held by the table (for benchmarks). */
size_t keps_table_memory(const keps_table *t);

#ifdef __cplusplus
}
#endif
#endif
