/* keps-mpi: this rank's share of the input (kmpi.h). */
#include "kmpi.h"

#include "keps/csv.h"
#include "table_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* Rank 0 expands the -i values (globs sorted, plain names as given) and
 * sends the list to every rank, so that all deal the same files. */
static keps_status list_files(kmpi *m, const kmpi_input_opts *o, char ***files, size_t *nfiles, keps_error *err)
{
    char *joined = NULL;
    size_t len = 0;
    keps_status st = KEPS_OK;
    if (m->rank == 0) {
        FILE *f = open_memstream(&joined, &len);
        for (size_t i = 0; f && i < o->nspecs && !st; i++) {
            glob_t g;
            int rc = glob(o->specs[i], GLOB_NOCHECK, NULL, &g);
            if (rc == GLOB_NOSPACE) {
                st = keps_error_set(err, KEPS_ENOMEM, "out of memory listing %s", o->specs[i]);
            } else {
                for (size_t k = 0; k < g.gl_pathc; k++)
                    fputs(g.gl_pathv[k], f), fputc('\0', f);
                globfree(&g);
            }
        }
        if (!f || fclose(f))
            st = keps_error_set(err, KEPS_ENOMEM, "out of memory listing the input");
    }
    unsigned long long n = len;
    MPI_Bcast(&n, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
    if (m->rank != 0 && !(joined = malloc(n ? n : 1)))
        st = KEPS_ENOMEM;
    MPI_Bcast(joined, (int)n, MPI_CHAR, 0, MPI_COMM_WORLD);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        k += joined[i] == '\0';
    *files = calloc(k ? k : 1, sizeof **files);
    *nfiles = 0;
    for (size_t i = 0; *files && i < n; i += strlen(joined + i) + 1)
        if (!((*files)[(*nfiles)++] = strdup(joined + i)))
            st = KEPS_ENOMEM;
    if (!*files)
        st = KEPS_ENOMEM;
    free(joined);
    if (st == KEPS_ENOMEM && (!err || !err->code))
        keps_error_set(err, st, "out of memory listing the input");
    return st;
}

/* Where this rank's byte range starts: the first record start at or after
 * the nominal offset (just after a '\n'); 0 and size stay. */
static size_t cut_at(const char *d, size_t size, size_t nominal)
{
    if (nominal == 0 || nominal >= size)
        return nominal >= size ? size : 0;
    const char *nl = memchr(d + nominal - 1, '\n', size - (nominal - 1));
    return nl ? (size_t)(nl - d) + 1 : size;
}

/* Refuses a line break inside a quoted field in bytes [lo, hi): a line
 * holding an odd number of '"' opens a quote it does not close (every
 * quote of a record on one line comes in pairs: the enclosing ones and the
 * doubled inner ones). line is lo's line number. */
static keps_status check_lines(const char *path, const char *d, size_t lo, size_t hi, size_t line,
                               keps_error *err)
{
    size_t quotes = 0;
    for (size_t i = lo; i < hi; i++) {
        char ch = d[i];
        if (ch == '"') {
            quotes++;
        } else if (ch == '\n') {
            if (quotes & 1)
                return keps_error_at(err, KEPS_EINPUT, path, line, 0,
                                     "a quoted field holds a line break; keps-mpi splits one file at line "
                                     "breaks and cannot cut this one safely: split it into shards yourself "
                                     "(-i 'parts/*.csv', each shard with the header row) or run keps on one "
                                     "process");
            quotes = 0;
            line++;
        }
    }
    return KEPS_OK;
}

static keps_status read_range(kmpi *m, const char *path, const kmpi_input_opts *o, keps_table **out,
                              keps_error *err)
{
    keps_csv_options copt = {.delimiter = o->delimiter, .missing = o->missing};
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat sb;
    if (fd < 0 || fstat(fd, &sb) != 0) {
        int e = errno;
        if (fd >= 0)
            close(fd);
        kmpi_all_ok(m, KEPS_EINPUT);
        return keps_error_at(err, KEPS_EINPUT, path, 0, 0, "cannot open: %s", strerror(e));
    }
    size_t size = (size_t)sb.st_size;
    const char *d = size ? mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0) : NULL;
    close(fd);
    keps_status st = size && d == MAP_FAILED
                         ? keps_error_at(err, KEPS_EIO, path, 0, 0, "cannot map the file: %s", strerror(errno))
                         : KEPS_OK;
    if (!kmpi_all_ok(m, st)) { /* before the collective count below */
        if (size && d != MAP_FAILED)
            munmap((void *)d, size);
        return st ? st : KEPS_EINPUT; /* another rank says why */
    }
    size_t P = (size_t)m->size, r = (size_t)m->rank;
    size_t lo = cut_at(d, size, (size_t)((unsigned __int128)size * r / P));
    size_t hi = cut_at(d, size, (size_t)((unsigned __int128)size * (r + 1) / P));
    unsigned long long nl = 0, before = 0;
    for (const char *p = d + lo; p < d + hi && (p = memchr(p, '\n', (size_t)(d + hi - p))); p++)
        nl++;
    MPI_Exscan(&nl, &before, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (m->rank == 0)
        before = 0;
    st = check_lines(path, d, lo, hi, (size_t)before + 1, err);
    if (size)
        munmap((void *)d, size);
    if (!st)
        st = keps_csv_read_range(path, &copt, (long long)lo, (long long)hi, (size_t)before + 1, out, err);
    return st;
}

/* The header must be the same in every shard. */
static keps_status same_header(const keps_table *a, const keps_table *b, const char *bpath, keps_error *err)
{
    int same = a->ncols == b->ncols;
    for (size_t j = 0; same && j < a->ncols; j++)
        same = strcmp(a->cols[j].name, b->cols[j].name) == 0;
    return same ? KEPS_OK
                : keps_error_at(err, KEPS_EINPUT, bpath, 1, 0,
                                "its header differs from %s's: every shard needs the same columns in the "
                                "same order",
                                a->source);
}

static keps_status read_shards(kmpi *m, char **files, size_t nfiles, const kmpi_input_opts *o, keps_table **out,
                               kmpi_part **parts, size_t *nparts, keps_error *err)
{
    keps_csv_options copt = {.delimiter = o->delimiter, .missing = o->missing};
    size_t P = (size_t)m->size, r = (size_t)m->rank;
    size_t first = nfiles * r / P, last = nfiles * (r + 1) / P;
    keps_status st = KEPS_OK;
    keps_table *t = NULL;
    if (first == last) { /* no shard here: the first shard's header, no rows */
        struct stat sb;
        if (stat(files[0], &sb) != 0)
            return keps_error_at(err, KEPS_EINPUT, files[0], 0, 0, "cannot open: %s", strerror(errno));
        return keps_csv_read_range(files[0], &copt, sb.st_size, sb.st_size, 0, out, err);
    }
    if (!(*parts = calloc(last - first, sizeof **parts)))
        return keps_error_set(err, KEPS_ENOMEM, "out of memory");
    for (size_t i = first; i < last && !st; i++) {
        keps_table *s = NULL;
        if ((st = keps_csv_read(files[i], &copt, &s, err)))
            break;
        (*parts)[*nparts].row = t ? t->nrows : 0;
        if (!((*parts)[(*nparts)++].path = strdup(files[i])))
            st = KEPS_ENOMEM;
        if (!t) {
            t = s;
            continue;
        }
        if (!(st = same_header(t, s, files[i], err)))
            st = keps_table_concat(t, s, 0, err);
        keps_table_free(s);
    }
    if (st) {
        keps_table_free(t);
        return st;
    }
    *out = t;
    return KEPS_OK;
}

/* Every rank's header against rank 0's: the collectives that follow
 * depend on the columns, so shards of other layouts are refused first. */
static keps_status same_header_everywhere(kmpi *m, const keps_table *t, keps_error *err)
{
    char *names = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&names, &len);
    for (size_t j = 0; f && j < t->ncols; j++)
        fputs(t->cols[j].name, f), fputc('\0', f);
    if (!f || fclose(f))
        MPI_Abort(MPI_COMM_WORLD, 3);
    unsigned long long n = len;
    MPI_Bcast(&n, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
    char *root = m->rank == 0 ? names : malloc(n ? (size_t)n : 1);
    if (!root)
        MPI_Abort(MPI_COMM_WORLD, 3);
    MPI_Bcast(root, (int)n, MPI_CHAR, 0, MPI_COMM_WORLD);
    int same = n == len && !memcmp(root, names, len);
    if (root != names)
        free(root);
    free(names);
    keps_status st = same ? KEPS_OK
                          : keps_error_at(err, KEPS_EINPUT, t->source, 1, 0,
                                          "its header differs from the first shard's: every shard needs the same "
                                          "columns in the same order");
    return st; /* the caller's kmpi_all_ok stops every rank */
}

const char *kmpi_part_of(const kmpi_part *parts, size_t nparts, size_t row)
{
    const char *p = NULL;
    for (size_t i = 0; i < nparts && parts[i].row <= row; i++)
        p = parts[i].path;
    return p;
}

keps_status kmpi_read_input(kmpi *m, const kmpi_input_opts *o, keps_table **out, const char **mode_text,
                            size_t *nfiles_out, kmpi_part **parts, size_t *nparts, keps_error *err)
{
    *out = NULL;
    *parts = NULL;
    *nparts = 0;
    char **files = NULL;
    size_t nfiles = 0;
    keps_status st = list_files(m, o, &files, &nfiles, err);
    if (!st && nfiles == 0)
        st = keps_error_set(err, KEPS_EINPUT, "-i names no file: give a file, a list or a glob ('parts/*.csv')");
    if (!kmpi_all_ok(m, st))
        goto done;
    *mode_text = nfiles == 1 && m->size > 1 ? "byte ranges" : "shards";
    *nfiles_out = nfiles;
    st = nfiles == 1 && m->size > 1 ? read_range(m, files[0], o, out, err)
                                    : read_shards(m, files, nfiles, o, out, parts, nparts, err);
    if (kmpi_all_ok(m, st))
        st = same_header_everywhere(m, *out, err);
done:
    for (size_t i = 0; i < nfiles; i++)
        free(files[i]);
    free(files);
    return st;
}
