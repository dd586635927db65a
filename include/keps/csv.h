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
 * Writer: quotes only where needed; writes to a temporary file in the target
 * directory and renames it on commit, so a failed run leaves no output. */
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
} keps_csv_options;

/* Reads path ("-" = stdin) into a new table. */
keps_status keps_csv_read(const char *path, const keps_csv_options *opt,
                          keps_table **out, keps_error *err);
/* Same from memory; name is used in messages. */
keps_status keps_csv_read_buffer(const char *data, size_t len, const char *name,
                                 const keps_csv_options *opt, keps_table **out,
                                 keps_error *err);
/* The delimiter the reader would pick for this header line. */
char keps_csv_sniff(const char *data, size_t len);

typedef struct keps_csv_writer keps_csv_writer;

/* path "-" writes to stdout (no rename possible: callers write only once
 * all the work has succeeded). */
keps_csv_writer *keps_csv_writer_open(const char *path, char delimiter, keps_error *err);
keps_status keps_csv_write_row(keps_csv_writer *w, const char *const *fields, size_t n);
/* Flushes, closes and renames into place. Frees w. */
keps_status keps_csv_writer_commit(keps_csv_writer *w, keps_error *err);
/* Closes and removes the temporary file. Frees w. NULL is fine. */
void keps_csv_writer_abort(keps_csv_writer *w);

/* mkstemp() whose file gets mode 0666 & ~umask instead of 0600. The file
 * is remembered until keps_tmp_release(tmpl) (after its rename or unlink),
 * so that keps_remove_temp_files() can delete it if the process is
 * interrupted. */
int keps_mkstemp(char *tmpl);
void keps_tmp_release(const char *tmpl);
/* keps_mkstemp of "PATH.tmp.XXXXXX" beside path: returns the descriptor
 * and sets *tmp to the file's name (malloc'd), or returns -1 with errno
 * set and *tmp NULL. */
int keps_tmp_create(const char *path, char **tmp);
/* Renames tmp[i] to path[i] for i < n with the cleanup signals held, and
 * forgets the temporary files: all or nothing, so a release never lands
 * without its report. Returns -1, or the index whose rename failed (errno
 * set; every temporary file is then removed, and the paths already renamed
 * are unlinked, or hold again the regular file they replaced). */
int keps_tmp_commit(char *const *tmp, const char *const *path, size_t n);
/* 1 if path exists and is neither a regular file nor a directory (a device
 * such as /dev/null, a FIFO): outputs are written there in place, never
 * through a temporary file renamed over it. */
int keps_path_is_special(const char *path);
/* Unlinks every temporary file of keps_mkstemp not yet released. Only
 * calls unlink(): safe in a SIGINT/SIGTERM handler. */
void keps_remove_temp_files(void);

/* Writes a whole table; order = row permutation or NULL for input order. */
keps_status keps_csv_write_table(const keps_table *t, const char *path, char delimiter,
                                 const uint32_t *order, keps_error *err);

#ifdef __cplusplus
}
#endif
#endif
