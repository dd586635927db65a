/* keps: CSV in and out (reader on libcsv).
 *
 * Reader: header row required; quoted fields with embedded separators,
 * quotes and newlines; LF, CRLF or CR line ends; a UTF-8 BOM is skipped;
 * the delimiter is sniffed from the header (`,` `;` tab `|`) unless given.
 * A ragged row (except for tree paths, below), an unterminated or
 * malformed quote, or a duplicate header name is an error naming file, line
 * and column. The column is always the 1-based field number; the line is
 * the one grep -n shows (in LF/CRLF files only LF ends a line; in files
 * whose first line break is a lone CR, CR, LF and CRLF each end one).
 * A blank line (empty or only blanks) is a record with one empty field
 * (RFC 4180): a missing value in a one-column file, a ragged row in a
 * wider one; a blank last line is no record.
 * A NUL byte, a field longer than max_field or a record longer than
 * max_line is an error as soon as it is read, so that a file that is no
 * CSV fails fast and in small memory.
 * Writer: quotes only where needed; writes through keps/outfile.h, so a
 * failed run leaves no output. */
#ifndef KEPS_CSV_H
#define KEPS_CSV_H

#include <stdio.h>

#include "keps/error.h"
#include "keps/table.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct keps_csv_options {
    char delimiter;            /* 0 = sniff from the header */
    const char *missing;       /* missing-value token; NULL = empty field */
    int no_header;             /* 1: no header row; columns are named 0,1,2... */
    int tree_paths;            /* with no_header: rows are leaf-to-root paths of
                                  a tree and may differ in length if all end at
                                  the same root; a short path repeats its first
                                  field (the leaf) up to the widest row's width.
                                  A first row that looks like a header (it alone
                                  ends at its root, all others at '*' or, above
                                  numeric leaves, at one root) is an error. */
    size_t max_field;          /* longest field in bytes; 0 = keps_csv_set_limits's */
    size_t max_line;           /* longest record (its fields' bytes, one more per
                                  field); 0 = keps_csv_set_limits's */
} keps_csv_options;

/* The limits of every read whose options leave them 0, hierarchy files
 * included: a field of at most max_field bytes (0 = 1 MiB), a record of at
 * most max_line (0 = 8 MiB). A hint, if not NULL, ends the message of a
 * field or record over its limit, after "raise the limit": how the
 * application's users raise it (e.g. "(KEPS_MAX_FIELD=64M)"). */
typedef struct keps_csv_limits {
    size_t max_field, max_line;
    const char *field_hint, *line_hint; /* kept by pointer */
} keps_csv_limits;

/* Sets the process-wide limits (NULL: the defaults). Not synchronized:
 * call before reading, as at start-up. */
void keps_csv_set_limits(const keps_csv_limits *l);

/* Reads path ("-" = stdin) into a new table. */
keps_status keps_csv_read(const char *path, const keps_csv_options *opt,
                          keps_table **out, keps_error *err);
/* Same from memory; name is used in messages. */
keps_status keps_csv_read_buffer(const char *data, size_t len, const char *name,
                                 const keps_csv_options *opt, keps_table **out,
                                 keps_error *err);
/* Reads the records of path that start in bytes [lo, hi) under the
 * file's header row (a share of a large file read by one of several
 * processes). lo and hi must be record starts (0 or the file size, or just
 * after a '\n' that ends a record; lo below the header's end means the
 * first record): the reader cannot tell a record start from the inside of
 * a quoted field, so a caller splitting a file must know that no field
 * holds a line break. first_line is the line lo starts (for messages and
 * the table's row lines; 0, or lo before the first record: 2). The header line must end with '\n'
 * within the first 1 MiB. */
keps_status keps_csv_read_range(const char *path, const keps_csv_options *opt, long long lo, long long hi,
                                size_t first_line, keps_table **out, keps_error *err);
/* The delimiter the reader would pick for this header line. */
char keps_csv_sniff(const char *data, size_t len);

typedef struct keps_csv_writer keps_csv_writer;

/* Opens path for rows (keps/outfile.h: "-" is stdout, a device or FIFO is
 * written in place, a file through one temporary file renamed at commit). */
keps_csv_writer *keps_csv_writer_open(const char *path, char delimiter, keps_error *err);
keps_status keps_csv_write_row(keps_csv_writer *w, const char *const *fields, size_t n);
/* Appends one row as keps_csv_write_row writes it (quoted where needed,
 * '\n' at the end) to the buffer *buf holding *len bytes in *cap (grown
 * with realloc; NULL, 0, 0 to start). Returns 0, or -1 out of memory. */
int keps_csv_format_row(char **buf, size_t *len, size_t *cap, char delimiter, const char *const *fields, size_t n);
/* Flushes and puts the file into place. Frees w. */
keps_status keps_csv_writer_commit(keps_csv_writer *w, keps_error *err);
/* Discards what was written (the target stays as it was). Frees w. NULL is fine. */
void keps_csv_writer_abort(keps_csv_writer *w);

/* Writes a whole table (header row first) to path; order = row permutation
 * or NULL for input order. */
keps_status keps_csv_write_table(const keps_table *t, const char *path, char delimiter,
                                 const uint32_t *order, keps_error *err);
/* The same into an open stream (e.g. keps_outfile_stream()); name is used
 * in messages. Nothing is committed or closed. */
keps_status keps_csv_write_table_to(const keps_table *t, FILE *f, const char *name, char delimiter,
                                    const uint32_t *order, keps_error *err);

#ifdef __cplusplus
}
#endif
#endif
