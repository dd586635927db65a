#include "keps/csv.h"
#include "keps/outfile.h"
#include "keps/progress.h"
#include "internal.h"

#include "table_internal.h"

#include <csv.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* LINES. Line numbers in messages are the ones grep -n and an editor show.
 * The file's first line break decides what ends a line:
 *   - LF or CRLF (nearly every file): only LF ends a line. Any other CR is
 *     no line break (grep -n and editors in CRLF mode show it as ^M inside
 *     the line): "1,2\r\r\n" is one line, and so is "1,2\r3,4\n", although
 *     libcsv still ends a record at that unquoted CR (two records, both
 *     reported on that one line).
 *   - a lone CR (classic Mac files): CR, LF and CRLF each end one line.
 * COLUMNS in messages are 1-based field numbers (the byte offset of a bad
 * quote is given in words).
 * BLANK LINES. A line holding no field (empty or, blanks being trimmed
 * around unquoted fields, only blanks) is a record with one empty field, as
 * in RFC 4180: a missing value in a one-column file, a ragged row (an
 * error) in any wider file or hierarchy. The exception is the end of the
 * file: a blank last line is no record, and in a wider file or hierarchy,
 * where a blank line can never be a record, no blank line after the last
 * record is (an editor's trailing empty lines). A quoted empty field ("")
 * is a record with an empty field everywhere. */

/* Parser state shared with libcsv's callbacks. Fields of the current row are
 * copied into one growing buffer because libcsv reuses its own. */
typedef struct reader {
    const char *name;
    const keps_csv_options *opt;
    keps_table *t;
    keps_error *err;
    keps_status status;
    char *buf;              /* field bytes of the current row */
    size_t buflen, bufcap;
    size_t *off, *len;      /* per field: offset into buf and length */
    size_t nfields, fcap;
    size_t line;            /* current physical line (1-based), see LINES above */
    size_t row_line;        /* line the current row started on */
    int cr_lines;           /* a lone CR ends a line (the file's first line break is one) */
    int after_cr;           /* cr_lines: the last row end was '\r' (CRLF pair pending) */
    int line_used;          /* a field was seen on the current line */
    size_t blank;           /* line of a blank line not yet known to be the file's last, or 0 */
    size_t max_field, max_line; /* LIMITS below */
    /* tree_paths: rows are held here until the widest is known */
    char *held;             /* fields of all rows, each NUL-terminated */
    size_t heldlen, heldcap;
    size_t *hoff;           /* per row: offset of its first field in held */
    uint32_t *hn, *hline;   /* per row: field count, physical line */
    size_t nheld, hcap;
} reader;

/* Grows *buf (capacity *cap, doubling from first) to hold need bytes. */
static int reserve(char **buf, size_t *cap, size_t need, size_t first)
{
    if (need <= *cap)
        return 0;
    size_t c = *cap ? *cap : first;
    while (c < need)
        c *= 2;
    char *b = realloc(*buf, c);
    if (!b)
        return -1;
    *buf = b;
    *cap = c;
    return 0;
}

static int add_field(reader *r, const char *s, size_t n)
{
    if (r->nfields == r->fcap) {
        size_t c = r->fcap ? r->fcap * 2 : 16;
        size_t *o = realloc(r->off, c * sizeof *o), *l;
        if (!o)
            return -1;
        r->off = o;
        if (!(l = realloc(r->len, c * sizeof *l)))
            return -1;
        r->len = l;
        r->fcap = c;
    }
    if (reserve(&r->buf, &r->bufcap, r->buflen + n + 1, 256))
        return -1;
    memcpy(r->buf + r->buflen, s, n);
    r->buf[r->buflen + n] = '\0';
    r->off[r->nfields] = r->buflen;
    r->len[r->nfields] = n;
    r->buflen += n + 1;
    r->nfields++;
    return 0;
}

/* LIMITS. One field and one record (its fields together) may hold at most
 * max_field and max_line bytes (keps_csv_options; else the process-wide
 * limits of keps_csv_set_limits; else 1 MiB and 8 MiB), so that a file
 * that is no CSV (a binary, an endless line, an unclosed quote in a huge
 * file) fails fast and in small memory instead of growing one field until
 * memory runs out. A NUL byte is refused as soon as it is read. The
 * library reads no environment: an application maps its own settings onto
 * keps_csv_set_limits (the CLI: KEPS_MAX_FIELD, KEPS_MAX_LINE) and tells
 * how its users raise a limit through the limits' hints. */
enum { MAX_FIELD_DEFAULT = 1 << 20, MAX_LINE_DEFAULT = 8 << 20 };

static keps_csv_limits limits; /* keps_csv_set_limits; zeros: the defaults */

void keps_csv_set_limits(const keps_csv_limits *l)
{
    limits = l ? *l : (keps_csv_limits){0};
}

/* "1 MiB", "64 KiB", "1000 bytes" */
static const char *size_text(size_t n, char *buf, size_t len)
{
    if (n && n % (1u << 30) == 0)
        snprintf(buf, len, "%zu GiB", n >> 30);
    else if (n && n % (1u << 20) == 0)
        snprintf(buf, len, "%zu MiB", n >> 20);
    else if (n && n % (1u << 10) == 0)
        snprintf(buf, len, "%zu KiB", n >> 10);
    else
        snprintf(buf, len, "%zu bytes", n);
    return buf;
}

static void too_long(reader *r, size_t line, const char *what)
{
    int field = what[0] == 'f';
    char lim[32];
    size_text(field ? r->max_field : r->max_line, lim, sizeof lim);
    const char *hint = field ? limits.field_hint : limits.line_hint;
    r->status = keps_error_at(r->err, KEPS_EINPUT, r->name, line, r->nfields + 1,
                              "a %s longer than %s, the limit: is this a CSV file, with every quote closed? If "
                              "such %ss are real, raise the limit%s%s",
                              what, lim, what, hint ? " " : "", hint ? hint : "");
}

/* r's field and record limits: its options', else the process-wide ones,
 * else the defaults. */
static void reader_limits(reader *r)
{
    const keps_csv_options *o = r->opt;
    r->max_field = o && o->max_field ? o->max_field : limits.max_field ? limits.max_field : MAX_FIELD_DEFAULT;
    r->max_line = o && o->max_line ? o->max_line : limits.max_line ? limits.max_line : MAX_LINE_DEFAULT;
}

static void blank_record(reader *r);

static void on_field(void *s, size_t n, void *data)
{
    reader *r = data;
    if (r->status)
        return;
    if (r->blank) { /* a field follows the blank line: it was not the last */
        blank_record(r);
        if (r->status)
            return;
    }
    if (r->nfields == 0)
        r->row_line = r->line;
    /* One pass for the rare control bytes: quoted line breaks advance the
     * physical line count (a NUL never gets here: feed() refuses it). */
    int ctl = 0;
    for (size_t i = 0; s && i < n; i++)
        ctl |= (unsigned char)((const char *)s)[i] <= '\r';
    if (n > r->max_field) {
        too_long(r, r->line, "field");
        return;
    }
    if (r->buflen + n + 1 > r->max_line) {
        too_long(r, r->row_line, "record");
        return;
    }
    if (add_field(r, s ? s : "", s ? n : 0)) {
        r->status = keps_error_set(r->err, KEPS_ENOMEM, "out of memory reading %s", r->name);
        return;
    }
    /* Quoted line breaks advance the physical line count (LINES). */
    const char *p = s;
    if (ctl)
        for (size_t i = 0; i < n; i++)
            if (p[i] == '\n' || (r->cr_lines && p[i] == '\r' && (i + 1 == n || p[i + 1] != '\n')))
                r->line++;
    r->line_used = 1;
    r->after_cr = 0;
}

/* tree_paths: keeps the current row (its fields are already NUL-terminated
 * in r->buf) for tree_table. */
static int hold_row(reader *r)
{
    if (r->nheld == r->hcap) {
        size_t c = r->hcap ? 2 * r->hcap : 256;
        size_t *o = realloc(r->hoff, c * sizeof *o);
        if (o)
            r->hoff = o;
        uint32_t *n = o ? realloc(r->hn, c * sizeof *n) : NULL;
        if (n)
            r->hn = n;
        uint32_t *l = n ? realloc(r->hline, c * sizeof *l) : NULL;
        if (!l)
            return -1;
        r->hline = l;
        r->hcap = c;
    }
    if (reserve(&r->held, &r->heldcap, r->heldlen + r->buflen, 4096))
        return -1;
    memcpy(r->held + r->heldlen, r->buf, r->buflen);
    r->hoff[r->nheld] = r->heldlen;
    r->hn[r->nheld] = (uint32_t)r->nfields;
    r->hline[r->nheld++] = (uint32_t)r->row_line;
    r->heldlen += r->buflen;
    return 0;
}

static const char *held_last(const reader *r, size_t i)
{
    const char *last = r->held + r->hoff[i];
    for (uint32_t j = 1; j < r->hn[i]; j++)
        last += strlen(last) + 1;
    return last;
}

static int is_number(const char *s)
{
    char *end;
    double v = strtod(s, &end);
    return end != s && *end == '\0' && isfinite(v);
}

/* tree_paths: a header row (e.g. age;l1;l2;l3;l4 above the paths) reads as
 * a tree of its own, one leaf long, beside the real one. It is taken for a
 * header when the first row alone ends at its root, every other row (two
 * at least) ends at one common root, and either that root is '*' (ARX's
 * "any value", beside which no other top can stand) or every other leaf is
 * a number and the first row's is not (a column name above the values).
 * A lone tree as such is no error: forests of several roots are valid. */
static int looks_like_header(const reader *r)
{
    if (r->nheld < 3)
        return 0;
    const char *top = held_last(r, 1);
    if (strcmp(held_last(r, 0), top) == 0)
        return 0;
    for (size_t i = 2; i < r->nheld; i++)
        if (strcmp(held_last(r, i), top) != 0)
            return 0;
    if (strcmp(top, "*") == 0)
        return 1;
    if (is_number(r->held + r->hoff[0]))
        return 0;
    for (size_t i = 1; i < r->nheld; i++)
        if (!is_number(r->held + r->hoff[i]))
            return 0;
    return 1;
}

/* tree_paths: builds the table from the held rows. Rows of different
 * lengths are leaf-to-root paths of an unbalanced tree, valid only when all
 * end at one root; a short path repeats its leaf on the levels it lacks,
 * so that each node keeps its depth below the root (Never-married;* beside
 * Divorced;leave;* stays Never-married one level below the root). */
static keps_status tree_table(reader *r, keps_table **out)
{
    size_t w = 0, w0 = r->hn[0];
    const char *root = held_last(r, 0);
    if (looks_like_header(r))
        return keps_error_at(r->err, KEPS_EINPUT, r->name, r->hline[0], 1,
                             "the first row looks like a header: it ends at '%s' but every other row ends at "
                             "'%s'; hierarchy files have no header row, so delete it (a value that really is "
                             "alone in a tree of its own can stay if its row is not the first)",
                             root, held_last(r, 1));
    int ragged = 0;
    for (size_t i = 0; i < r->nheld; i++) {
        w = r->hn[i] > w ? r->hn[i] : w;
        ragged |= r->hn[i] != w0;
    }
    for (size_t i = 0; ragged && i < r->nheld; i++) {
        const char *last = held_last(r, i);
        if (strcmp(last, root) == 0)
            continue;
        size_t bad = 1;  /* name the first row whose length differs from the first's */
        while (r->hn[bad] == w0)
            bad++;
        return keps_error_at(r->err, KEPS_EINPUT, r->name, r->hline[bad], (r->hn[bad] < w0 ? r->hn[bad] : w0) + 1,
                             "row has %u fields but the first row has %zu; every row needs one field per level "
                             "(rows of different lengths are read as paths of an unbalanced tree only when all "
                             "end at the same root, here '%s' but '%s' on line %u)",
                             r->hn[bad], w0, root, last, r->hline[i]);
    }
    char (*names)[24] = malloc(w * sizeof *names);
    const char **f = malloc(2 * w * sizeof *f);
    size_t *len = malloc(w * sizeof *len);
    keps_table *t = NULL;
    keps_status st = KEPS_ENOMEM;
    if (!names || !f || !len)
        goto done;
    for (size_t j = 0; j < w; j++) {
        snprintf(names[j], sizeof names[j], "%zu", j);
        f[w + j] = names[j];
    }
    if (!(t = keps_table_new(w, f + w, r->opt ? r->opt->missing : NULL, r->name, r->err))) {
        st = r->err ? r->err->code : KEPS_EINPUT;
        goto done;
    }
    st = KEPS_OK;
    for (size_t i = 0; i < r->nheld && !st; i++) {
        const char *p = r->held + r->hoff[i];
        size_t pad = w - r->hn[i];
        for (size_t j = 0; j < w; j++) {
            f[j] = p;
            len[j] = strlen(p);
            if (j >= pad)
                p += len[j] + 1;
        }
        st = keps_table_append(t, f, len, r->hline[i], r->err);
    }
done:
    if (st == KEPS_ENOMEM && !t)
        keps_error_set(r->err, KEPS_ENOMEM, "out of memory reading %s", r->name);
    if (st) {
        keps_table_free(t);
        t = NULL;
    }
    free(names);
    free(f);
    free(len);
    *out = t;
    return st;
}

static void finish_row(reader *r)
{
    if (r->opt && r->opt->tree_paths && r->opt->no_header) {
        if (hold_row(r))
            r->status = keps_error_set(r->err, KEPS_ENOMEM, "out of memory reading %s", r->name);
        return;
    }
    const char **f = malloc((r->nfields ? r->nfields : 1) * sizeof *f);
    if (!f) {
        r->status = keps_error_set(r->err, KEPS_ENOMEM, "out of memory reading %s", r->name);
        return;
    }
    for (size_t i = 0; i < r->nfields; i++)
        f[i] = r->buf + r->off[i];
    int no_header = r->opt && r->opt->no_header;
    if (!r->t) {
        char (*names)[24] = NULL;
        const char **hdr = f;
        if (no_header) {
            names = malloc(r->nfields * sizeof *names);
            hdr = malloc(r->nfields * sizeof *hdr);
            for (size_t i = 0; names && hdr && i < r->nfields; i++) {
                snprintf(names[i], sizeof names[i], "%zu", i);
                hdr[i] = names[i];
            }
        }
        r->t = names || !no_header ? keps_table_new(r->nfields, hdr, r->opt ? r->opt->missing : NULL,
                                                    r->name, r->err)
                                   : NULL;
        if (!r->t)
            r->status = r->err ? r->err->code : KEPS_EINPUT;
        else if (no_header)
            r->status = keps_table_append(r->t, f, r->len, (uint32_t)r->row_line, r->err);
        if (no_header) {
            free(names);
            free(hdr);
        }
    } else if (r->nfields != r->t->ncols) {
        size_t col = (r->nfields < r->t->ncols ? r->nfields : r->t->ncols) + 1; /* first missing or extra field */
        r->status = keps_error_at(r->err, KEPS_EINPUT, r->name, r->row_line, col,
                                  "row has %zu fields but the %s has %zu; every row needs one field per "
                                  "column (quote fields that contain the delimiter)",
                                  r->nfields, no_header ? "first row" : "header", r->t->ncols);
    } else {
        r->status = keps_table_append(r->t, f, r->len, (uint32_t)r->row_line, r->err);
    }
    free(f);
}

/* A blank line is an error here, not a missing value (BLANK LINES). */
static int blank_is_error(const reader *r)
{
    return (r->opt && r->opt->no_header && r->opt->tree_paths) || (r->t && r->t->ncols > 1);
}

/* The pending blank line r->blank is not in the file's trailing blank
 * lines: it is a record with one empty field (BLANK LINES), which only a
 * one-column table can take. */
static void blank_record(reader *r)
{
    size_t line = r->blank;
    r->blank = 0;
    int no_header = r->opt && r->opt->no_header;
    if (no_header && r->opt->tree_paths)
        r->status = keps_error_at(r->err, KEPS_EINPUT, r->name, line, 1,
                                  "blank line: a row with one empty value, but a hierarchy needs a value at "
                                  "every level of every row; delete the line (blank lines after the last "
                                  "row are ignored)");
    else if (!r->t && !no_header)
        r->status = keps_error_at(r->err, KEPS_EINPUT, r->name, line, 1,
                                  "the first line is blank: the header row naming the columns must be the "
                                  "first line; delete the blank line");
    else if (r->t && r->t->ncols > 1)
        r->status = keps_error_at(r->err, KEPS_EINPUT, r->name, line, 2,
                                  "blank line: a row with 1 (empty) field but the %s has %zu; every row needs "
                                  "one field per column; delete the line (blank lines after the last row "
                                  "are ignored)",
                                  no_header ? "first row" : "header", r->t->ncols);
    else if (add_field(r, "", 0))
        r->status = keps_error_set(r->err, KEPS_ENOMEM, "out of memory reading %s", r->name);
    else {
        r->row_line = line;
        finish_row(r);
    }
    r->nfields = 0;
    r->buflen = 0;
}

static void on_row(int c, void *data)
{
    reader *r = data;
    if (r->status)
        return;
    /* With CSV_REPALL_NL every unquoted CR and LF ends a "row" (libcsv
     * reports it even when no field precedes it); which of them end a line
     * is decided by LINES above. */
    int line_end = c == '\n';
    if (r->cr_lines) {
        line_end = c == '\r' || (c == '\n' && !r->after_cr); /* the LF of a CRLF ends nothing */
        r->after_cr = c == '\r';
    }
    if (r->nfields > 0)
        finish_row(r);
    r->nfields = 0;
    r->buflen = 0;
    if (line_end && !r->status) {
        if (!r->line_used) { /* a blank line: a record unless at the end (BLANK LINES) */
            if (r->blank && !blank_is_error(r))
                blank_record(r);
            if (!r->blank) /* an error names the first of a run of blank lines */
                r->blank = r->line;
        }
        r->line++;
        r->line_used = 0;
    }
    /* The next row starts here, even if libcsv never reports a field of it
     * (an unterminated quote opening the row). */
    r->row_line = r->line;
}

char keps_csv_sniff(const char *data, size_t len)
{
    static const char cand[] = {',', ';', '\t', '|'};
    size_t count[4] = {0};
    int quoted = 0;
    for (size_t i = 0; i < len; i++) {
        char ch = data[i];
        if (ch == '"')
            quoted = !quoted;
        else if (!quoted && (ch == '\n' || ch == '\r'))
            break;
        else if (!quoted)
            for (int k = 0; k < 4; k++)
                if (ch == cand[k])
                    count[k]++;
    }
    int best = 0;
    for (int k = 1; k < 4; k++)
        if (count[k] > count[best])
            best = k;
    return cand[best];
}

/* Physical position (line, byte column) of the bytes parsed so far, kept
 * across chunks so that a parse error can be located without the data. */
typedef struct position {
    size_t line, col;
    int cr_lines, after_cr; /* as in reader (LINES) */
} position;

/* LINES: 1 if the first line break in d is a lone CR. (A CR ending the
 * first 1 MiB chunk counts as lone: wrong only when the file's first line
 * break is a CRLF split by that boundary.) */
static int lone_cr_lines(const char *d, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (d[i] == '\n')
            return 0;
        if (d[i] == '\r')
            return i + 1 == n || d[i + 1] != '\n';
    }
    return 0;
}

static void advance(position *p, const char *d, size_t n)
{
    /* Only LF ends a line (LINES): count LFs with memchr; a CR is a byte. */
    if (!p->cr_lines) {
        const char *q = d, *end = d + n, *last = NULL;
        while ((q = memchr(q, '\n', (size_t)(end - q)))) {
            p->line++;
            last = q++;
        }
        p->col = last ? (size_t)(end - last) : p->col + n;
        return;
    }
    for (size_t i = 0; i < n; i++) {
        char ch = d[i];
        if (ch == '\n' && p->after_cr) {
            p->after_cr = 0;
            continue;
        }
        p->after_cr = ch == '\r';
        if (ch == '\n' || ch == '\r') {
            p->line++;
            p->col = 1;
        } else {
            p->col++;
        }
    }
}

/* Feeds one chunk to libcsv; on a parse error reports its position. A NUL
 * byte ends the chunk: what precedes it is parsed (its errors come first),
 * then the NUL is reported where it stands (LIMITS). */
static void feed(reader *r, struct csv_parser *p, position *pos, const char *d, size_t n)
{
    const char *nul = memchr(d, '\0', n);
    if (nul) {
        feed(r, p, pos, d, (size_t)(nul - d));
        if (!r->status)
            r->status = keps_error_at(r->err, KEPS_EINPUT, r->name, pos->line, r->nfields + 1,
                                      "NUL byte in a field: the file looks binary or UTF-16; save it as UTF-8 text");
        return;
    }
    size_t done = csv_parse(p, d, n, on_field, on_row, r);
    if (r->status)
        return;
    /* libcsv holds the field in progress: past the limit (with room for
     * its 128-byte growth steps) it is too long however it ends */
    if (csv_get_buffer_size(p) > r->max_field + 256) {
        advance(pos, d, n);
        too_long(r, pos->line, "field");
        return;
    }
    if (done != n) {
        advance(pos, d, done);
        r->status = csv_error(p) == CSV_EPARSE
                        ? keps_error_at(r->err, KEPS_EINPUT, r->name, pos->line, r->nfields + 1,
                                        "malformed quotes in field %zu (byte %zu of the line): a field "
                                        "holding '\"' must be quoted as a whole with each inner quote "
                                        "doubled (\"a \"\"b\"\" c\"), and a closing quote must end the field",
                                        r->nfields + 1, pos->col)
                        : keps_error_set(r->err, KEPS_ENOMEM, "out of memory reading %s", r->name);
        return;
    }
    advance(pos, d, n);
}

#define CHUNK (1u << 20)

/* Parses from memory (f == NULL) or from a stream in 1 MiB chunks, so
 * reading needs no copy of the whole file. */
static keps_status parse(const char *data, size_t len, FILE *f, const char *name,
                         const keps_csv_options *opt, keps_table **out, keps_error *err)
{
    *out = NULL;
    char *chunk = NULL;
    if (f) {
        if (!(chunk = malloc(CHUNK)))
            return keps_error_set(err, KEPS_ENOMEM, "out of memory");
        len = fread(chunk, 1, CHUNK, f);
        data = chunk;
    }
    /* UTF-8 byte order marks: one is common (Excel); a file saved twice by
     * such tools carries two, which would otherwise glue an invisible mark
     * to the first column's name. */
    size_t skip = 0;
    while (len - skip >= 3 && (unsigned char)data[skip] == 0xEF && (unsigned char)data[skip + 1] == 0xBB &&
           (unsigned char)data[skip + 2] == 0xBF)
        skip += 3;
    int cr_lines = lone_cr_lines(data + skip, len - skip);
    reader r = {.name = name, .opt = opt, .err = err, .line = 1, .row_line = 1, .cr_lines = cr_lines};
    reader_limits(&r);
    position pos = {.line = 1, .col = 1, .cr_lines = cr_lines};
    struct csv_parser p;
    if (csv_init(&p, CSV_STRICT | CSV_STRICT_FINI | CSV_REPALL_NL)) {
        free(chunk);
        return keps_error_set(err, KEPS_ENOMEM, "out of memory");
    }
    char delim = opt && opt->delimiter ? opt->delimiter : keps_csv_sniff(data + skip, len - skip);
    csv_set_delim(&p, (unsigned char)delim);
    feed(&r, &p, &pos, data + skip, len - skip);
    struct stat st;
    double total = f && fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) ? (double)st.st_size : 0;
    double done = (double)len;
    while (f && !r.status && len == CHUNK) {
        keps_progress("reading", done, total);
        len = fread(chunk, 1, CHUNK, f);
        feed(&r, &p, &pos, chunk, len);
        done += (double)len;
    }
    if (!r.status && f && ferror(f))
        r.status = keps_error_at(err, keps_status_of_errno(errno), name, 0, 0, "read error: %s", strerror(errno));
    if (!r.status && csv_fini(&p, on_field, on_row, &r) != 0)
        r.status = keps_error_at(err, KEPS_EINPUT, name, r.line, r.nfields + 1,
                                 "unterminated quoted field: a field opened with '\"' here is never "
                                 "closed; add the closing quote");
    /* A blank line is pending: it was the last line unless a last line of
     * blanks, which libcsv reports not at all, follows it unterminated. */
    if (!r.status && r.blank && pos.col > 1 && !blank_is_error(&r))
        blank_record(&r);
    csv_free(&p);
    free(chunk);
    if (!r.status && r.nheld)
        r.status = tree_table(&r, &r.t);
    free(r.held);
    free(r.hoff);
    free(r.hn);
    free(r.hline);
    if (!r.status && !r.t)
        r.status = keps_error_at(err, KEPS_EINPUT, name, 0, 0,
                                 opt && opt->no_header
                                     ? "the file is empty: a hierarchy needs one row per value"
                                     : "the file is empty: a header row naming the columns is required");
    free(r.buf);
    free(r.off);
    free(r.len);
    if (r.status) {
        keps_table_free(r.t);
        return r.status;
    }
    r.t->delimiter = delim; /* releases keep the input's separator */
    *out = r.t;
    return KEPS_OK;
}

keps_status keps_csv_read_buffer(const char *data, size_t len, const char *name,
                                 const keps_csv_options *opt, keps_table **out,
                                 keps_error *err)
{
    return parse(data, len, NULL, name, opt, out, err);
}

/* ---- large files: two pieces parsed at once ----
 *
 * A regular file of PAR_MIN_BYTES or more is cut in two at a line break
 * near its middle; the calling thread parses the first piece (header
 * included) and a helper the second, each with its own libcsv parser and
 * table, and the second table is appended to the first (its values
 * interned, its lines shifted by the first piece's line count). That is
 * the sequential parse exactly when the first piece ends cleanly: its
 * parser is the sequential one over those bytes, so ending without an
 * open quote, a pending field or a pending blank line means the
 * sequential parser stands at a record start there too, with nothing
 * carried over but the line count. Anything else (an open quote at the
 * cut, a parse error in either piece, lone-CR line ends, a header-less or
 * hierarchy file) parses the file again sequentially, which also gives
 * every error its usual message and position. */
static off_t piece_min_bytes = (off_t)32 << 20;

static atomic_llong pieces_read;

void keps_csv_piece_min(long long bytes)
{
    piece_min_bytes = bytes < 1 ? 1 : (off_t)bytes;
}

long long keps_csv_pieces_read(void)
{
    return atomic_load(&pieces_read);
}

typedef struct piece {
    int fd;
    off_t lo, hi;           /* its bytes */
    reader r;
    position pos;
    struct csv_parser p;
    keps_error err;
    char *buf;              /* CHUNK bytes */
    atomic_size_t done;     /* bytes fed, for the progress report */
} piece;

/* Feeds bytes [from, pc->hi) in chunks; progress (calling thread only)
 * counts both pieces. */
static void feed_range(piece *pc, off_t from, piece *other, double total)
{
    for (off_t at = from; !pc->r.status && at < pc->hi;) {
        size_t want = pc->hi - at < CHUNK ? (size_t)(pc->hi - at) : CHUNK;
        ssize_t got = pread(pc->fd, pc->buf, want, at);
        if (got <= 0) {
            pc->r.status = keps_error_set(&pc->err, KEPS_EIO, "read error");
            return;
        }
        feed(&pc->r, &pc->p, &pc->pos, pc->buf, (size_t)got);
        at += got;
        atomic_store_explicit(&pc->done, (size_t)(at - pc->lo), memory_order_relaxed);
        if (other)
            keps_progress("reading",
                          (double)(at - pc->lo) +
                              (double)atomic_load_explicit(&other->done, memory_order_relaxed),
                          total);
    }
}

/* The second piece, on the helper thread: to the end of the file, as
 * parse() ends a file. */
static void *second_piece(void *arg)
{
    piece *pc = arg;
    feed_range(pc, pc->lo, NULL, 0);
    if (!pc->r.status && csv_fini(&pc->p, on_field, on_row, &pc->r) != 0)
        pc->r.status = KEPS_EINPUT;
    if (!pc->r.status && pc->r.blank && pc->pos.col > 1 && !blank_is_error(&pc->r))
        blank_record(&pc->r);
    return NULL;
}

/* The cut: just after a line break in the window [at, at + n) of d, with a
 * line that is not blank on either side (a blank line is a record or an
 * error depending on what follows, which the first piece cannot see).
 * Returns its offset in d, or 0. */
static size_t find_cut(const char *d, size_t n)
{
    for (size_t i = 2; i + 1 < n; i++) {
        if (d[i - 1] != '\n' || d[i] == '\n' || d[i] == '\r')
            continue;
        size_t j = i - 1;
        while (j > 0 && d[j - 1] == '\r')
            j--;
        if (j > 0 && d[j - 1] != '\n')
            return i;
    }
    return 0;
}

static void piece_init(piece *pc, int fd, off_t lo, off_t hi, const char *name, const keps_csv_options *opt,
                       char delim)
{
    memset(pc, 0, sizeof *pc);
    pc->fd = fd;
    pc->lo = lo;
    pc->hi = hi;
    pc->r = (reader){.name = name, .opt = opt, .err = &pc->err, .line = 1, .row_line = 1};
    pc->pos = (position){.line = 1, .col = 1};
    atomic_init(&pc->done, 0);
    reader_limits(&pc->r);
    if (!(pc->buf = malloc(CHUNK)) || csv_init(&pc->p, CSV_STRICT | CSV_STRICT_FINI | CSV_REPALL_NL)) {
        free(pc->buf);
        pc->buf = NULL;
        pc->r.status = KEPS_ENOMEM;
        return;
    }
    csv_set_delim(&pc->p, (unsigned char)delim);
}

static void piece_free(piece *pc, int keep_table)
{
    if (pc->buf)
        csv_free(&pc->p);
    free(pc->buf);
    free(pc->r.buf);
    free(pc->r.off);
    free(pc->r.len);
    if (!keep_table)
        keps_table_free(pc->r.t);
}

/* Returns 1 with *st and *out set when it parsed the file, 0 when the
 * caller must parse it sequentially (nothing changed). */
static int read_in_pieces(int fd, off_t size, const char *name, const keps_csv_options *opt, keps_table **out,
                          keps_error *err, keps_status *st)
{
    if (size < piece_min_bytes || size < 16 || (opt && opt->no_header))
        return 0;
    char *win = malloc(CHUNK);
    if (!win)
        return 0;
    /* the start: byte order marks, line ends, the delimiter, as parse()
     * sees them in its first chunk */
    size_t first = size < (off_t)CHUNK ? (size_t)size : CHUNK;
    ssize_t got = pread(fd, win, first, 0);
    size_t skip = 0;
    while (got > 0 && (size_t)got - skip >= 3 && (unsigned char)win[skip] == 0xEF &&
           (unsigned char)win[skip + 1] == 0xBB && (unsigned char)win[skip + 2] == 0xBF)
        skip += 3;
    if (got != (ssize_t)first || lone_cr_lines(win + skip, first - skip)) {
        free(win);
        return 0;
    }
    char delim = opt && opt->delimiter ? opt->delimiter : keps_csv_sniff(win + skip, first - skip);
    off_t mid = size / 2;
    size_t wn = size - mid < (off_t)CHUNK ? (size_t)(size - mid) : CHUNK;
    got = pread(fd, win, wn, mid);
    size_t cut = got == (ssize_t)wn ? find_cut(win, wn) : 0;
    free(win);
    if (!cut)
        return 0;
    piece a, b;
    piece_init(&a, fd, (off_t)skip, mid + (off_t)cut, name, opt, delim);
    piece_init(&b, fd, a.hi, size, name, opt, delim);
    int ok = !a.r.status && !b.r.status;
    /* the first chunk (or less, up to the cut) gives the header, which the
     * second piece needs */
    off_t head = a.lo + (off_t)CHUNK - (off_t)skip < a.hi ? a.lo + (off_t)CHUNK - (off_t)skip : a.hi;
    if (ok) {
        a.hi = head;
        feed_range(&a, a.lo, &b, (double)size);
        a.hi = b.lo;
        ok = !a.r.status && a.r.t;
    }
    pthread_t th;
    int threaded = 0;
    if (ok) {
        const char **names = malloc(a.r.t->ncols * sizeof *names);
        for (size_t j = 0; names && j < a.r.t->ncols; j++)
            names[j] = a.r.t->cols[j].name;
        b.r.t = names ? keps_table_new(a.r.t->ncols, names, opt ? opt->missing : NULL, name, &b.err) : NULL;
        free(names);
        ok = b.r.t != NULL;
        threaded = ok && pthread_create(&th, NULL, second_piece, &b) == 0;
    }
    if (ok) {
        feed_range(&a, head, &b, (double)size);
        if (!a.r.status && csv_fini(&a.p, on_field, on_row, &a.r) != 0)
            a.r.status = KEPS_EINPUT;
    }
    if (threaded)
        pthread_join(th, NULL);
    else if (ok)
        second_piece(&b);
    ok = ok && !a.r.status && !b.r.status && !a.r.blank && a.r.nfields == 0;
    if (ok) {
        keps_status s = keps_table_concat(a.r.t, b.r.t, (uint32_t)(a.r.line - 1), err);
        a.r.t->delimiter = delim;
        *st = s;
        *out = s ? NULL : a.r.t;
        atomic_fetch_add(&pieces_read, 1);
        piece_free(&a, s == KEPS_OK);
        piece_free(&b, 0);
        return 1;
    }
    piece_free(&a, 0);
    piece_free(&b, 0);
    return 0;
}

keps_status keps_csv_read(const char *path, const keps_csv_options *opt,
                          keps_table **out, keps_error *err)
{
    *out = NULL;
    int use_stdin = strcmp(path, "-") == 0;
    FILE *f = use_stdin ? stdin : fopen(path, "rb");
    if (!f)
        return keps_error_at(err, keps_status_of_errno(errno), path, 0, 0, "cannot open: %s", strerror(errno));
    struct stat st;
    keps_status s;
    if (!use_stdin && fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) &&
        read_in_pieces(fileno(f), st.st_size, path, opt, out, err, &s)) {
        fclose(f);
        return s;
    }
    s = parse(NULL, 0, f, use_stdin ? "<stdin>" : path, opt, out, err);
    if (!use_stdin)
        fclose(f);
    return s;
}

/* ---- writer ---- */

/* Rows go to one keps_outfile (keps/outfile.h): one temporary file per
 * output, renamed into place at commit. */
struct keps_csv_writer {
    keps_outfile *o;
    FILE *f;
    char delim;
    int failed, err; /* a write failed, with this errno */
};

keps_csv_writer *keps_csv_writer_open(const char *path, char delimiter, keps_error *err)
{
    keps_csv_writer *w = calloc(1, sizeof *w);
    if (!w) {
        keps_error_set(err, KEPS_ENOMEM, "out of memory");
        return NULL;
    }
    w->delim = delimiter ? delimiter : ',';
    if (keps_outfile_open(&path, 1, &w->o, err)) {
        free(w);
        return NULL;
    }
    w->f = keps_outfile_stream(w->o);
    return w;
}

static int needs_quotes(const char *s, char delim)
{
    /* Leading or trailing blanks would be trimmed by some readers. */
    size_t n = strlen(s);
    if (n && (s[0] == ' ' || s[0] == '\t' || s[n - 1] == ' ' || s[n - 1] == '\t'))
        return 1;
    for (; *s; s++)
        if (*s == delim || *s == '"' || *s == '\n' || *s == '\r')
            return 1;
    return 0;
}

/* One row of fields, quoted where needed; -1 when the stream failed. */
static int put_row(FILE *f, char delim, const char *const *fields, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const char *s = fields[i] ? fields[i] : "";
        if (i)
            putc(delim, f);
        if (*s && needs_quotes(s, delim)) {
            putc('"', f);
            for (; *s; s++) {
                if (*s == '"')
                    putc('"', f);
                putc(*s, f);
            }
            putc('"', f);
        } else {
            fputs(s, f);
        }
    }
    return putc('\n', f) == EOF ? -1 : 0;
}

int keps_csv_format_row(char **buf, size_t *len, size_t *cap, char delimiter, const char *const *fields, size_t n)
{
    char delim = delimiter ? delimiter : ',';
    size_t need = *len + 1;
    for (size_t i = 0; i < n; i++) /* at most: quoted, every byte doubled */
        need += 2 * strlen(fields[i] ? fields[i] : "") + 3;
    if (reserve(buf, cap, need, 4096))
        return -1;
    char *o = *buf + *len;
    for (size_t i = 0; i < n; i++) {
        const char *s = fields[i] ? fields[i] : "";
        if (i)
            *o++ = delim;
        if (*s && needs_quotes(s, delim)) {
            *o++ = '"';
            for (; *s; s++) {
                if (*s == '"')
                    *o++ = '"';
                *o++ = *s;
            }
            *o++ = '"';
        } else {
            size_t m = strlen(s);
            memcpy(o, s, m);
            o += m;
        }
    }
    *o++ = '\n';
    *len = (size_t)(o - *buf);
    return 0;
}

keps_status keps_csv_write_row(keps_csv_writer *w, const char *const *fields, size_t n)
{
    if (!w->failed && put_row(w->f, w->delim, fields, n)) {
        w->failed = 1;
        w->err = errno;
    }
    return w->failed ? KEPS_EIO : KEPS_OK;
}

keps_status keps_csv_writer_commit(keps_csv_writer *w, keps_error *err)
{
    keps_status s;
    if (w->failed) {
        s = keps_error_at(err, w->err == ENOMEM ? KEPS_ENOMEM : KEPS_EIO, keps_outfile_path(w->o), 0, 0,
                          "cannot write the output: %s", strerror(w->err ? w->err : EIO));
        keps_outfile_abort(w->o);
    } else {
        s = keps_outfile_commit(&w->o, 1, err);
    }
    free(w);
    return s;
}

void keps_csv_writer_abort(keps_csv_writer *w)
{
    if (!w)
        return;
    keps_outfile_abort(w->o);
    free(w);
}

/* One column's values as they appear in the file: quoted and escaped where
 * needed, computed once per distinct value instead of once per cell. */
typedef struct cell_forms {
    const char **s;
    uint32_t *len;
    char **owned; /* escaped copies to free */
    size_t nowned;
} cell_forms;

static char *escaped(const char *v)
{
    size_t n = 2;
    for (const char *p = v; *p; p++)
        n += 1 + (*p == '"');
    char *e = malloc(n + 1), *o = e;
    if (!e)
        return NULL;
    *o++ = '"';
    for (; *v; v++) {
        if (*v == '"')
            *o++ = '"';
        *o++ = *v;
    }
    *o++ = '"';
    *o = '\0';
    return e;
}

static int forms_init(cell_forms *f, const keps_column *c, char delim)
{
    size_t n = c->nvalues ? c->nvalues : 1;
    f->s = malloc(n * sizeof *f->s);
    f->len = malloc(n * sizeof *f->len);
    f->owned = malloc(n * sizeof *f->owned);
    f->nowned = 0;
    if (!f->s || !f->len || !f->owned)
        return -1;
    for (uint32_t v = 0; v < c->nvalues; v++) {
        const char *x = c->values[v];
        if (*x && needs_quotes(x, delim)) {
            if (!(x = f->owned[f->nowned++] = escaped(x)))
                return -1;
        }
        f->s[v] = x;
        f->len[v] = (uint32_t)strlen(x);
    }
    return 0;
}

static void forms_free(cell_forms *f)
{
    for (size_t i = 0; i < f->nowned; i++)
        free(f->owned[i]);
    free(f->owned);
    free(f->s);
    free(f->len);
}

/* Rows [from, to) of t, in order (NULL: as stored), formatted into b as
 * CSV text; -1 out of memory. A shuffled release touches the table at
 * random, so the codes of a row a little ahead are fetched early. */
typedef struct text_block {
    char *buf;
    size_t cap, used;
} text_block;

static int format_rows(const keps_table *t, const cell_forms *forms, char delim, const uint32_t *order,
                       size_t from, size_t to, text_block *b)
{
    b->used = 0;
    for (size_t i = from; i < to; i++) {
        size_t r = order ? order[i] : i;
#if defined(__GNUC__)
        if (order && i + 16 < to)
            for (size_t j = 0; j < t->ncols; j++)
                __builtin_prefetch(&t->cols[j].codes[order[i + 16]]);
#endif
        for (size_t j = 0; j < t->ncols; j++) {
            const cell_forms *cf = &forms[j];
            uint32_t v = t->cols[j].codes[r];
            size_t n = cf->len[v];
            if (b->used + n + 2 > b->cap) {
                size_t cap = (b->used + n + 2) * 2;
                char *nb = realloc(b->buf, cap);
                if (!nb)
                    return -1;
                b->buf = nb;
                b->cap = cap;
            }
            memcpy(b->buf + b->used, cf->s[v], n);
            b->used += n;
            b->buf[b->used++] = j + 1 < t->ncols ? delim : '\n';
        }
    }
    return 0;
}

/* The rows in blocks, formatted by two threads at once (the formatting,
 * not the write, is the cost of a large release) and written in order:
 * the thread that formatted block k writes it once block k - 1 is
 * written. */
enum { WRITE_BLOCK = 32768 };
typedef struct block_writer {
    const keps_table *t;
    const cell_forms *forms;
    char delim;
    const uint32_t *order;
    FILE *out;
    size_t nblocks;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    size_t next; /* the block written next */
    int oom, bad, err;
} block_writer;

static void write_blocks(block_writer *w, size_t first, size_t step)
{
    text_block b = {NULL, 0, 0};
    for (size_t k = first; k < w->nblocks; k += step) {
        size_t from = k * WRITE_BLOCK, to = from + WRITE_BLOCK < w->t->nrows ? from + WRITE_BLOCK : w->t->nrows;
        int oom = format_rows(w->t, w->forms, w->delim, w->order, from, to, &b) != 0;
        pthread_mutex_lock(&w->mu);
        while (w->next != k && !w->oom && !w->bad)
            pthread_cond_wait(&w->cv, &w->mu);
        int stop = w->oom || w->bad;
        pthread_mutex_unlock(&w->mu);
        if (stop)
            break;
        int bad = !oom && b.used && fwrite(b.buf, 1, b.used, w->out) != b.used, e = errno;
        pthread_mutex_lock(&w->mu);
        w->oom |= oom;
        if (bad) {
            w->bad = 1;
            w->err = e;
        }
        w->next++;
        pthread_cond_broadcast(&w->cv);
        pthread_mutex_unlock(&w->mu);
        if (oom || bad)
            break;
    }
    free(b.buf);
}

static void *write_blocks_main(void *arg)
{
    write_blocks(arg, 1, 2);
    return NULL;
}

keps_status keps_csv_write_table_to(const keps_table *t, FILE *out, const char *name, char delimiter,
                                    const uint32_t *order, keps_error *err)
{
    char delim = delimiter ? delimiter : ',';
    const char **f = malloc((t->ncols ? t->ncols : 1) * sizeof *f);
    cell_forms *forms = calloc(t->ncols ? t->ncols : 1, sizeof *forms);
    int oom = !f || !forms, bad = 0, e = 0;
    for (size_t j = 0; !oom && j < t->ncols; j++)
        oom = forms_init(&forms[j], &t->cols[j], delim);
    if (!oom) {
        for (size_t j = 0; j < t->ncols; j++)
            f[j] = t->cols[j].name;
        bad = put_row(out, delim, f, t->ncols);
        e = errno;
    }
    if (!oom && !bad) {
        block_writer w = {t, forms, delim, order, out, (t->nrows + WRITE_BLOCK - 1) / WRITE_BLOCK,
                          PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0, 0, 0};
        pthread_t th;
        int two = w.nblocks > 2 && pthread_create(&th, NULL, write_blocks_main, &w) == 0;
        write_blocks(&w, 0, two ? 2 : 1);
        if (two)
            pthread_join(th, NULL);
        pthread_mutex_destroy(&w.mu);
        pthread_cond_destroy(&w.cv);
        oom = w.oom;
        bad = w.bad;
        e = w.err;
    }
    for (size_t j = 0; forms && j < t->ncols; j++)
        forms_free(&forms[j]);
    free(forms);
    free(f);
    if (oom)
        return keps_error_set(err, KEPS_ENOMEM, "out of memory writing %s", name);
    if (bad)
        return keps_error_at(err, e == ENOMEM ? KEPS_ENOMEM : KEPS_EIO, name, 0, 0, "cannot write the output: %s",
                             strerror(e ? e : EIO));
    return KEPS_OK;
}

keps_status keps_csv_write_table(const keps_table *t, const char *path, char delimiter,
                                 const uint32_t *order, keps_error *err)
{
    keps_outfile *o;
    keps_status s = keps_outfile_open(&path, 1, &o, err);
    if (s)
        return s;
    if ((s = keps_csv_write_table_to(t, keps_outfile_stream(o), path, delimiter, order, err)))
        keps_outfile_abort(o);
    else
        s = keps_outfile_commit(&o, 1, err);
    return s;
}

int keps_csv_put_row(FILE *f, char delimiter, const char *const *fields, size_t n)
{
    return put_row(f, delimiter, fields, n);
}

/* ---- one byte range of a file (a share of a cluster's input) ---- */

keps_status keps_csv_read_range(const char *path, const keps_csv_options *opt, long long lo, long long hi,
                                size_t first_line, keps_table **out, keps_error *err)
{
    *out = NULL;
    if (opt && (opt->no_header || opt->tree_paths))
        return keps_error_set(err, KEPS_EINPUT, "a byte range of %s needs a header row", path);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return keps_error_at(err, keps_status_of_errno(errno), path, 0, 0, "cannot open: %s", strerror(errno));
    char *win = malloc(CHUNK);
    ssize_t got = win ? pread(fd, win, CHUNK, 0) : -1;
    keps_status st = KEPS_OK;
    keps_table *t = NULL;
    size_t skip = 0;
    while (got > 0 && (size_t)got - skip >= 3 && (unsigned char)win[skip] == 0xEF &&
           (unsigned char)win[skip + 1] == 0xBB && (unsigned char)win[skip + 2] == 0xBF)
        skip += 3;
    const char *nl = got > 0 ? memchr(win + skip, '\n', (size_t)got - skip) : NULL;
    if (!win)
        st = keps_error_set(err, KEPS_ENOMEM, "out of memory");
    else if (got < 0)
        st = keps_error_at(err, KEPS_EIO, path, 0, 0, "read error: %s", strerror(errno));
    else if (!nl)
        st = keps_error_at(err, KEPS_EINPUT, path, 1, 0,
                           "no line break in the first 1 MiB: a byte range of the file needs a header "
                           "line ended by '\\n' before it");
    else if (lone_cr_lines(win + skip, (size_t)(nl + 1 - win) - skip))
        st = keps_error_at(err, KEPS_EINPUT, path, 1, 0,
                           "lines end in a lone CR: a byte range of the file needs '\\n' line ends");
    size_t head = nl ? (size_t)(nl + 1 - win) : 0;
    if (!st) /* the header alone: a table with its columns and no row */
        st = parse(win, head, NULL, path, opt, &t, err);
    char delim = t ? t->delimiter : ',';
    free(win);
    if (st) {
        close(fd);
        return st;
    }
    if (lo < (long long)head) { /* the first records: right after the header line */
        lo = (long long)head;
        first_line = 2;
    }
    piece b;
    piece_init(&b, fd, (off_t)lo, (off_t)(hi > lo ? hi : lo), path, opt, delim);
    if ((st = b.r.status) && err)
        *err = b.err; /* the limits' message */
    b.r.err = err;
    b.r.line = b.r.row_line = b.pos.line = first_line ? first_line : 2;
    b.r.t = t;
    if (!st) {
        feed_range(&b, b.lo, NULL, 0);
        st = b.r.status;
    }
    if (!st && csv_fini(&b.p, on_field, on_row, &b.r) != 0)
        st = b.r.status ? b.r.status
                        : keps_error_at(err, KEPS_EINPUT, path, b.r.line, b.r.nfields + 1,
                                        "unterminated quoted field: a field opened with '\"' here is never "
                                        "closed; add the closing quote");
    if (!st && b.r.blank && b.pos.col > 1 && !blank_is_error(&b.r))
        blank_record(&b.r);
    if (!st)
        st = b.r.status;
    close(fd);
    piece_free(&b, st == KEPS_OK);
    if (st)
        return st;
    t->delimiter = delim;
    *out = t;
    return KEPS_OK;
}
