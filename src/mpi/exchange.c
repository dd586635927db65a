/* keps-mpi: large messages, the global shuffle, output shards (kmpi.h). */
#include "kmpi.h"

#include "keps/report_html.h"

#include "cli/exit_code.h"

#include "keps/csv.h"
#include "keps/json.h"
#include "keps/outfile.h"
#include "table_internal.h"

#include <errno.h>
#include <sys/resource.h>
#include <sodium.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PIECE ((size_t)1 << 30) /* MPI counts are ints: messages go in pieces */

int kmpi_send(kmpi *m, const void *buf, size_t len, int dest, int tag)
{
    unsigned long long n = len;
    if (MPI_Send(&n, 1, MPI_UNSIGNED_LONG_LONG, dest, tag, MPI_COMM_WORLD) != MPI_SUCCESS)
        return -1;
    for (size_t at = 0; at < len; at += PIECE)
        if (MPI_Send((const char *)buf + at, (int)(len - at < PIECE ? len - at : PIECE), MPI_BYTE, dest, tag,
                     MPI_COMM_WORLD) != MPI_SUCCESS)
            return -1;
    m->bytes_sent += len + sizeof n;
    return 0;
}

int kmpi_recv(kmpi *m, void **buf, size_t *len, int src, int tag)
{
    (void)m;
    unsigned long long n;
    if (MPI_Recv(&n, 1, MPI_UNSIGNED_LONG_LONG, src, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE) != MPI_SUCCESS)
        return -1;
    char *b = malloc(n ? (size_t)n : 1);
    if (!b)
        return -1;
    for (size_t at = 0; at < n; at += PIECE)
        if (MPI_Recv(b + at, (int)(n - at < PIECE ? n - at : PIECE), MPI_BYTE, src, tag, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE) != MPI_SUCCESS) {
            free(b);
            return -1;
        }
    *buf = b;
    *len = (size_t)n;
    return 0;
}

int kmpi_rows_add(kmpi_rows *r, const char *const *fields, size_t nf, char delimiter)
{
    size_t at = r->len;
    uint32_t n;
    if (r->cap - r->len < sizeof n) {
        size_t cap = r->cap ? 2 * r->cap : 1 << 16;
        char *b = realloc(r->buf, cap);
        if (!b)
            return -1;
        r->buf = b;
        r->cap = cap;
    }
    r->len += sizeof n;
    if (keps_csv_format_row(&r->buf, &r->len, &r->cap, delimiter, fields, nf))
        return -1;
    if (r->len - at - sizeof n > UINT32_MAX)
        return -1;
    n = (uint32_t)(r->len - at - sizeof n);
    memcpy(r->buf + at, &n, sizeof n);
    r->n++;
    return 0;
}

void kmpi_rows_free(kmpi_rows *r)
{
    free(r->buf);
    memset(r, 0, sizeof *r);
}

/* Every rank learns what every other sends it (rows, bytes), then the
 * bytes move in rounds of at most ROUND bytes per pair (64 MiB per rank
 * and round in all, at least 1 MiB a pair), so every count and
 * displacement stays an int and the staging buffers stay small. */
#define ROUND (P < 64 ? ((size_t)64 << 20) / P : ((size_t)1 << 20))

int kmpi_exchange(kmpi *m, kmpi_rows *out, kmpi_rows *in)
{
    size_t P = (size_t)m->size;
    unsigned long long *sz = malloc(2 * P * sizeof *sz), *rz = malloc(2 * P * sizeof *rz);
    int *sc = malloc(P * sizeof *sc), *sd = malloc(P * sizeof *sd), *rc = malloc(P * sizeof *rc),
        *rd = malloc(P * sizeof *rd);
    size_t *roff = malloc(P * sizeof *roff);
    char *sbuf = malloc(P * ROUND), *rbuf = malloc(P * ROUND);
    if (!sz || !rz || !sc || !sd || !rc || !rd || !roff || !sbuf || !rbuf)
        MPI_Abort(MPI_COMM_WORLD, 3);
    for (size_t d = 0; d < P; d++) {
        sz[2 * d] = out[d].n;
        sz[2 * d + 1] = out[d].len;
    }
    MPI_Alltoall(sz, 2, MPI_UNSIGNED_LONG_LONG, rz, 2, MPI_UNSIGNED_LONG_LONG, MPI_COMM_WORLD);
    memset(in, 0, sizeof *in);
    unsigned long long most = 0, rounds = 0;
    for (size_t s = 0; s < P; s++) {
        roff[s] = in->len;
        in->n += (size_t)rz[2 * s];
        in->len += (size_t)rz[2 * s + 1];
        if (out[s].len > most)
            most = out[s].len;
    }
    in->cap = in->len;
    if (!(in->buf = malloc(in->len ? in->len : 1)))
        MPI_Abort(MPI_COMM_WORLD, 3);
    unsigned long long mine = (most + ROUND - 1) / ROUND;
    MPI_Allreduce(&mine, &rounds, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
    for (unsigned long long k = 0; k < rounds; k++) {
        size_t at = 0, rat = 0, lo = (size_t)k * ROUND;
        for (size_t d = 0; d < P; d++) {
            size_t n = out[d].len > lo ? out[d].len - lo : 0;
            n = n < ROUND ? n : ROUND;
            memcpy(sbuf + at, out[d].buf + lo, n);
            sc[d] = (int)n;
            sd[d] = (int)at;
            at += n;
            if (d != (size_t)m->rank)
                m->bytes_sent += n;
            size_t r = rz[2 * d + 1] > lo ? (size_t)rz[2 * d + 1] - lo : 0;
            rc[d] = (int)(r < ROUND ? r : ROUND);
            rd[d] = (int)rat;
            rat += (size_t)rc[d];
        }
        MPI_Alltoallv(sbuf, sc, sd, MPI_BYTE, rbuf, rc, rd, MPI_BYTE, MPI_COMM_WORLD);
        for (size_t s = 0; s < P; s++)
            memcpy(in->buf + roff[s] + lo, rbuf + rd[s], (size_t)rc[s]);
    }
    free(sz), free(rz), free(sc), free(sd), free(rc), free(rd), free(roff), free(sbuf), free(rbuf);
    return 0;
}

keps_status kmpi_write_shard(const kmpi_rows *rows, size_t nf, const char *const *header, char delimiter,
                             keps_rng *rng, const char *path, void **handle, keps_error *err)
{
    *handle = NULL;
    const char **start = malloc((rows->n ? rows->n : 1) * sizeof *start);
    uint32_t *perm = rng ? keps_rng_permutation(rng, rows->n) : NULL;
    char *head = NULL;
    size_t hlen = 0, hcap = 0;
    if (!start || !perm || keps_csv_format_row(&head, &hlen, &hcap, delimiter, header, nf)) {
        free(start), free(perm), free(head);
        return keps_error_set(err, KEPS_ENOMEM, "out of memory writing %s", path);
    }
    const char *p = rows->buf;
    for (size_t i = 0; i < rows->n; i++) {
        uint32_t n;
        start[i] = p;
        memcpy(&n, p, sizeof n);
        p += sizeof n + n;
    }
    keps_outfile *o = NULL;
    keps_status st = keps_outfile_open(&path, 1, &o, err);
    FILE *f = st ? NULL : keps_outfile_stream(o);
    int bad = f ? fwrite(head, 1, hlen, f) != hlen : 0;
    for (size_t i = 0; f && !bad && i < rows->n; i++) {
        uint32_t n;
        memcpy(&n, start[perm[i]], sizeof n);
        bad = fwrite(start[perm[i]] + sizeof n, 1, n, f) != n;
    }
    free(start), free(perm), free(head);
    if (!st && bad) {
        st = keps_error_at(err, KEPS_EIO, path, 0, 0, "cannot write the output: %s", strerror(errno));
        keps_outfile_abort(o);
        o = NULL;
    }
    *handle = o;
    return st;
}

keps_status kmpi_commit_shard(void *handle, keps_error *err)
{
    keps_outfile *o = handle;
    return keps_outfile_commit(&o, 1, err);
}

void kmpi_abort_shard(void *handle)
{
    keps_outfile_abort(handle);
}
keps_rng *kmpi_rng(kmpi *m, const char *seed)
{
    uint8_t key[KEPS_RNG_KEY_BYTES + 1] = {0};
    if (m->rank == 0) {
        keps_rng *root = seed ? keps_rng_new_seeded(strtoull(seed, NULL, 10)) : keps_rng_new();
        int s = root ? keps_rng_stream_key(root, key) : -1;
        key[KEPS_RNG_KEY_BYTES] = (uint8_t)(s < 0 ? 2 : s);
        keps_rng_free(root);
    }
    /* the key travels inside the job's own communicator, as the data does */
    MPI_Bcast(key, (int)sizeof key, MPI_BYTE, 0, MPI_COMM_WORLD);
    keps_rng *r = key[KEPS_RNG_KEY_BYTES] < 2
                      ? keps_rng_from_key(key, (uint64_t)m->rank + 1, key[KEPS_RNG_KEY_BYTES])
                      : NULL;
    sodium_memzero(key, sizeof key);
    if (!kmpi_all_ok(m, r ? KEPS_OK : KEPS_EIO)) {
        keps_rng_free(r);
        return NULL;
    }
    return r;
}

int kmpi_fail(kmpi *m, keps_status st, const keps_error *err)
{
    if (st && err->msg[0])
        fprintf(stderr, "keps-mpi (rank %d): %s\n", m->rank, err->msg);
    return st ? cli_exit_code(st) : 2;
}

keps_table *kmpi_release_new(const keps_schema *s, size_t **cols, int **qi, keps_error *err)
{
    const keps_table *t = s->t;
    size_t nf = 0;
    const char **names = malloc((t->ncols + 1) * sizeof *names);
    int *qi_of = malloc((t->ncols + 1) * sizeof *qi_of);
    *cols = malloc((t->ncols + 1) * sizeof **cols);
    *qi = malloc((t->ncols + 1) * sizeof **qi);
    keps_table *rel = NULL;
    if (names && qi_of && *cols && *qi) {
        for (size_t j = 0; j < t->ncols; j++)
            qi_of[j] = -1;
        for (size_t i = 0; i < s->nqi; i++)
            qi_of[s->qi[i].col] = (int)i;
        for (size_t j = 0; j < t->ncols; j++)
            if (keps_schema_released(s, j)) {
                (*qi)[nf] = qi_of[j];
                (*cols)[nf] = j;
                names[nf++] = t->cols[j].name;
            }
        rel = keps_table_new(nf, names, t->missing_token, t->source, err);
    } else {
        keps_error_set(err, KEPS_ENOMEM, "out of memory");
    }
    if (rel)
        rel->delimiter = t->delimiter;
    free(names), free(qi_of);
    if (!rel) {
        free(*cols), free(*qi);
        *cols = NULL, *qi = NULL;
    }
    return rel;
}

double kmpi_bytes_since(kmpi *m, unsigned long long *mark)
{
    unsigned long long d = m->bytes_sent - *mark, all = 0;
    *mark = m->bytes_sent;
    MPI_Allreduce(&d, &all, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    return (double)all;
}

int kmpi_all_ok(kmpi *m, keps_status st)
{
    (void)m;
    int ok = st == KEPS_OK, all = 0;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    return all;
}

char *kmpi_shard_path(const char *pattern, int rank)
{
    char *s = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&s, &len);
    if (!f)
        return NULL;
    for (const char *p = pattern; *p; p++) {
        if (p[0] == '%' && p[1] == 'r')
            fprintf(f, "%d", rank), p++;
        else if (p[0] == '%' && p[1] == '%')
            fputc('%', f), p++;
        else
            fputc(*p, f);
    }
    if (fclose(f))
        return NULL;
    return s;
}

double kmpi_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

keps_status kmpi_apply_node(const kmpi_node *nd, const keycol *kc, size_t nk, const uint8_t *keep,
                            int remove_suppressed, keps_table **rel, keps_counts *n, keps_error *err)
{
    const keps_table *t = nd->t;
    const keps_schema *s = nd->s;
    size_t *cols = NULL;
    int *qi_of = NULL;
    memset(n, 0, sizeof *n);
    *rel = kmpi_release_new(s, &cols, &qi_of, err);
    keps_status st = *rel ? KEPS_OK : err->code ? err->code : KEPS_ENOMEM;
    size_t nf = *rel ? (*rel)->ncols : 0;
    const char **fields = malloc((nf + 1) * sizeof *fields);
    uint32_t *tu = malloc((nk + 1) * sizeof *tu);
    if (!st && (!fields || !tu))
        st = keps_error_set(err, KEPS_ENOMEM, "out of memory");
    for (size_t row = 0; !st && row < t->nrows; row++) {
        n->input_rows++;
        if (keep && !keep[row]) {
            n->unsampled_rows++;
            continue;
        }
        for (size_t i = 0; i < nk; i++)
            tu[i] = kc[i].local[t->cols[kc[i].col].codes[row]];
        int suppressed = kmpi_freq_find(nd->sup, tu) >= 0;
        if (suppressed) {
            n->suppressed_rows++;
            if (remove_suppressed) {
                n->removed_rows++;
                continue;
            }
        }
        for (size_t x = 0; x < nf; x++) {
            size_t j = cols[x];
            int i = qi_of[x];
            uint32_t code = t->cols[j].codes[row];
            fields[x] = i < 0        ? t->cols[j].values[code]
                        : suppressed ? "*"
                                     : keps_hierarchy_label(s->qi[i].h, nd->levels[i],
                                                            s->qi[i].map[nd->levels[i]][code]);
        }
        st = keps_table_append(*rel, fields, NULL, 0, err);
        n->output_rows++;
    }
    free(fields), free(tu), free(cols), free(qi_of);
    return st;
}

int kmpi_shuffle_write(kmpi *m, kmpi_node *nd, keps_status st, keps_error *err, const keps_table *rel,
                       const keps_counts *n, keps_counts *all)
{
    unsigned long long mark = m->bytes_sent;
    int ok = kmpi_all_ok(m, st);
    size_t P = (size_t)m->size, nf = rel ? rel->ncols : 0;
    kmpi_rows *out = calloc(P, sizeof *out), in = {0};
    const char **fields = malloc((nf + 1) * sizeof *fields);
    if (!out || !fields)
        MPI_Abort(MPI_COMM_WORLD, 3);
    double t0 = kmpi_now_ms();
    for (size_t i = 0; ok && i < rel->nrows; i++) {
        for (size_t j = 0; j < nf; j++)
            fields[j] = keps_table_str(rel, j, i);
        if (kmpi_rows_add(&out[keps_rng_below(nd->rng, P)], fields, nf, rel->delimiter))
            MPI_Abort(MPI_COMM_WORLD, 3);
    }
    if (ok)
        kmpi_exchange(m, out, &in);
    for (size_t d = 0; d < P; d++)
        kmpi_rows_free(&out[d]);
    free(out);
    nd->ph[PH_SHUFFLE] = kmpi_now_ms() - t0;
    nd->bytes[3] = kmpi_bytes_since(m, &mark);
    t0 = kmpi_now_ms();
    void *shard = NULL;
    keps_outfile *rep[2] = {NULL, NULL};
    const char *paths[2];
    size_t np = 0;
    if (nd->report)
        paths[np++] = nd->report;
    if (nd->html)
        paths[np++] = nd->html;
    char *path = ok ? kmpi_shard_path(nd->output, m->rank) : NULL;
    if (ok && !path)
        MPI_Abort(MPI_COMM_WORLD, 3);
    for (size_t j = 0; j < nf; j++)
        fields[j] = rel->cols[j].name;
    if (ok && m->rank == 0 && np)
        st = keps_outfile_open(paths, np, rep, err);
    if (ok && !st)
        st = kmpi_write_shard(&in, nf, fields, rel->delimiter, nd->rng, path, &shard, err);
    kmpi_rows_free(&in);
    free(fields);
    free(path);
    memset(all, 0, sizeof *all);
    MPI_Reduce(n, all, 5, MPI_UNSIGNED_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    int rc = 0;
    if (!kmpi_all_ok(m, st)) { /* the shards go into place only when every rank wrote its own */
        if (st && err->msg[0])
            fprintf(stderr, "keps-mpi (rank %d): %s\n", m->rank, err->msg);
        rc = st ? cli_exit_code(st) : ok ? 3 : 2;
        kmpi_abort_shard(shard);
        keps_outfile_abort(rep[0]), keps_outfile_abort(rep[1]);
        return rc;
    }
    st = kmpi_commit_shard(shard, err);
    nd->ph[PH_WRITE] = kmpi_now_ms() - t0;
    MPI_Reduce(nd->ph, nd->phmax, PH_N, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    long rss = ru.ru_maxrss;
    MPI_Reduce(&rss, &nd->rss, 1, MPI_LONG, MPI_MAX, 0, MPI_COMM_WORLD);
    if (!kmpi_all_ok(m, st)) {
        if (st)
            fprintf(stderr, "keps-mpi (rank %d): %s\n", m->rank, err->msg);
        keps_outfile_abort(rep[0]), keps_outfile_abort(rep[1]);
        return st ? cli_exit_code(st) : 3;
    }
    nd->rep[0] = nd->report ? rep[0] : NULL; /* the page is the second file, or the first without a report */
    nd->rep[1] = nd->html ? rep[nd->report ? 1 : 0] : NULL;
    return 0;
}

int kmpi_finish(kmpi *m, kmpi_node *nd, const char *text, const char *cmd, const keps_counts *all)
{
    int rc = 0;
    keps_outfile *rep[2] = {nd->rep[0], nd->rep[1]};
    nd->rep[0] = nd->rep[1] = NULL;
    keps_error err = {0};
    char *html = NULL, *full = NULL;
    size_t hlen = 0;
    /* every column's missing values, summed over the ranks */
    size_t nc = nd->t ? nd->t->ncols : 0;
    long long *miss = calloc(nc + 1, sizeof *miss), *missing = calloc(nc + 1, sizeof *missing);
    if (!miss || !missing)
        MPI_Abort(MPI_COMM_WORLD, 3);
    for (size_t j = 0; j < nc; j++)
        miss[j] = (long long)nd->t->cols[j].missing_count;
    MPI_Reduce(miss, missing, (int)nc, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (m->rank == 0 && text) {
        json_error_t je;
        json_t *root = json_loads(text, 0, &je);
        if (root && !kmpi_report_complete(m, root, nd->t, missing, nd->phmax))
            full = json_dumps(root, JSON_COMPACT | JSON_REAL_PRECISION(17));
        json_decref(root);
        if (!full)
            fprintf(stderr, "keps-mpi %s: the report could not be completed (out of memory, or no JSON object)\n",
                    cmd);
        text = full;
    }
    free(miss), free(missing);
    if (m->rank == 0 && !text) {
        rc = 3;
    } else if (m->rank == 0) {
        if (rep[0])
            fprintf(keps_outfile_stream(rep[0]), "%s\n", text);
        if (rep[1] && !keps_report_html(text, strlen(text), nd->report ? nd->report : "report", &html, &hlen, &err))
            fwrite(html, 1, hlen, keps_outfile_stream(rep[1]));
        if (!err.code) { /* commit frees the outputs whatever it returns */
            keps_outfile_commit(rep, 2, &err);
            rep[0] = rep[1] = NULL;
        }
        if (err.code) {
            fprintf(stderr, "keps-mpi: %s\n", err.msg);
            rc = cli_exit_code(err.code);
        }
        free(html);
        if (!rc && nd->json && (printf("%s\n", text) < 0 || fflush(stdout))) {
            fprintf(stderr, "keps-mpi %s: cannot write to standard output\n", cmd);
            rc = 3;
        }
    }
    if (rc) {
        keps_outfile_abort(rep[0]);
        keps_outfile_abort(rep[1]);
    }
    free(full);
    if (m->rank == 0 && !nd->quiet && !rc)
        fprintf(stderr, "keps-mpi %s: %zu rows on %d rank(s), %zu suppressed, %zu written to %s\n", cmd,
                all->input_rows, m->size, all->suppressed_rows, all->output_rows, nd->output);
    MPI_Bcast(&rc, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return rc;
}
