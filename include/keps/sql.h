/* keps: a lattice transformation as a SQL script.
 *
 * A full-domain generalization (one level per quasi-identifier, as OLA
 * chooses) with the rule "rows in classes smaller than k are suppressed"
 * can be applied inside a database to the table the data came from. The
 * script creates one helper table per generalized QI (its hierarchy's
 * leaves and their labels at the chosen level), then the release table
 * NAME_release: the released columns of the schema in input order, each QI
 * as its label at the level (a value the hierarchy lacks becomes '*'),
 * every other released column as it is; rows of classes (equal released QI
 * values) of fewer than k rows get '*' in every QI, or are left out with
 * remove_suppressed. Classes are counted by the database (GROUP BY ...
 * HAVING COUNT(*) < k), so the result is k-anonymous on whatever table it
 * runs. On the table keps read it equals keps_lattice_apply's release
 * (classes below k suppressed) as a multiset of rows.
 *
 * What it assumes: the source table's columns are named as in the CSV
 * header and hold the same strings (a column of another type is cast to
 * text, which must spell its values as the CSV did); a NULL is read as the
 * missing-value token (s->t->missing_token, default ""); string equality
 * is exact (binary collation, no padding of trailing blanks). Rows are
 * inserted in random order (postgresql, sqlite: ORDER BY RANDOM(), the
 * database's generator, not keps's cryptographic one); ANSI SQL has no
 * random function, so an ansi script keeps the engine's order. Dialects: ansi (START TRANSACTION,
 * VARCHAR(n) sized to the longest value), postgresql and sqlite (BEGIN,
 * TEXT). */
#ifndef KEPS_SQL_H
#define KEPS_SQL_H

#include <stddef.h>

#include "keps/error.h"
#include "keps/schema.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { KEPS_SQL_ANSI = 0, KEPS_SQL_POSTGRESQL, KEPS_SQL_SQLITE } keps_sql_dialect;

/* "ansi", "postgresql", "sqlite" -> *out; -1 for anything else. */
int keps_sql_dialect_parse(const char *name, keps_sql_dialect *out);

typedef struct keps_sql_options {
    keps_sql_dialect dialect;
    const char *table;     /* the source table (required, non-empty) */
    size_t k;              /* classes smaller than k are suppressed (>= 1) */
    int remove_suppressed; /* 1: suppressed rows are left out; 0: '*' in every QI */
    const char *comment;   /* a line for the script's header (may be NULL) */
} keps_sql_options;

/* The script for schema s (every QI with a hierarchy) at levels[s->nqi]
 * (0 = original .. the hierarchy's height), as a NUL-terminated string the
 * caller frees (*len its length). Errors: a QI without hierarchy, a level
 * out of range, an empty table name, k = 0 (KEPS_EINPUT); OOM. */
keps_status keps_sql_lattice(const keps_schema *s, const int *levels, const keps_sql_options *o, char **sql,
                             size_t *len, keps_error *err);

#ifdef __cplusplus
}
#endif
#endif
