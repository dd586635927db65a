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
    char delimiter;       /* field separator it was read with; 0 if built in memory */
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

/* Parses column col as numbers (keps_parse_number). A cell that is not a
 * number and not the missing token, or lies beyond KEPS_NUM_MAX, is an
 * error naming file, line, column; col >= t->ncols is KEPS_EINPUT. */
keps_status keps_table_numeric(keps_table *t, size_t col, keps_error *err);

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

/* Bytes held by the table (for benchmarks). */
size_t keps_table_memory(const keps_table *t);

#ifdef __cplusplus
}
#endif
#endif
