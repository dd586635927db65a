#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "keps/csv.h"
#include "keps/lattice.h"
#include "keps/schema.h"

const char *src_path(const char *rel)
{
    static char buf[8][1024];
    static int k;
    k = (k + 1) % 8;
    snprintf(buf[k], sizeof buf[k], "%s/%s", KEPS_SOURCE_DIR, rel);
    return buf[k];
}

keps_table *table_from_csv(const char *csv)
{
    keps_table *t = NULL;
    keps_error err = {0};
    keps_status s = keps_csv_read_buffer(csv, strlen(csv), "test.csv", NULL, &t, &err);
    if (s)
        fprintf(stderr, "table_from_csv: %s\n", err.msg);
    assert_int_equal(s, KEPS_OK);
    return t;
}

void assert_table_cells(const keps_table *t, size_t nrows, size_t ncols, const char *const *want)
{
    assert_non_null(t);
    assert_int_equal(t->nrows, nrows);
    assert_int_equal(t->ncols, ncols);
    for (size_t i = 0; i < nrows; i++)
        for (size_t j = 0; j < ncols; j++) {
            if (strcmp(keps_table_str(t, j, i), want[i * ncols + j]) != 0)
                fprintf(stderr, "row %zu, column %zu ('%s'): got '%s', want '%s'\n", i, j, t->cols[j].name,
                        keps_table_str(t, j, i), want[i * ncols + j]);
            assert_string_equal(keps_table_str(t, j, i), want[i * ncols + j]);
        }
}

static void slurp_into(const char *path, char *buf, size_t len)
{
    if (!buf)
        return;
    buf[0] = '\0';
    FILE *f = fopen(path, "rb");
    if (!f)
        return;
    size_t n = fread(buf, 1, len - 1, f);
    buf[n] = '\0';
    fclose(f);
}

int run_keps(const char *args, char *out, size_t outlen, char *errbuf, size_t errlen)
{
    char o[] = "/tmp/keps_out_XXXXXX", e[] = "/tmp/keps_err_XXXXXX";
    int fo = mkstemp(o), fe = mkstemp(e);
    close(fo);
    close(fe);
    size_t n = strlen(args) + strlen(KEPS_BINARY) + 128;
    char *cmd = malloc(n);
    snprintf(cmd, n, "%s %s >%s 2>%s </dev/null", KEPS_BINARY, args, o, e);
    int st = system(cmd);
    free(cmd);
    slurp_into(o, out, outlen);
    slurp_into(e, errbuf, errlen);
    unlink(o);
    unlink(e);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

const char *temp_file(const char *text)
{
    static char buf[8][64];
    static int k;
    k = (k + 1) % 8;
    snprintf(buf[k], sizeof buf[k], "/tmp/keps_test_XXXXXX");
    int fd = mkstemp(buf[k]);
    FILE *f = fdopen(fd, "w");
    fputs(text, f);
    fclose(f);
    return buf[k];
}

keps_status apply_k(const keps_lattice *L, const int *levels, size_t k, int remove_suppressed, keps_table **release,
                    keps_counts *counts, keps_error *err)
{
    keps_partition p;
    *release = NULL;
    keps_status st = keps_partition_from_node(L, levels, NULL, &p, err);
    if (!st && !(st = keps_partition_enforce(&p, NULL, k, NULL, err)))
        st = keps_lattice_apply(L, levels, &p, remove_suppressed, release, counts, err);
    keps_partition_free(&p);
    return st;
}

keps_lattice *adult_lattice(int nq, keps_table **t, keps_schema **s)
{
    static const char *const q[] = {"sex", "age", "race", "marital-status", "education",
                                    "native-country", "workclass", "occupation", "salary-class"};
    keps_error err = {0};
    assert_int_equal(keps_csv_read(src_path("data/adult/adult.csv"), NULL, t, &err), KEPS_OK);
    assert_int_equal((*t)->nrows, 30162);
    *s = keps_schema_new(*t);
    for (int i = 0; i < nq; i++) {
        char spec[512];
        snprintf(spec, sizeof spec, "%s:%s/data/adult/adult_hierarchy_%s.csv", q[i], KEPS_SOURCE_DIR, q[i]);
        assert_int_equal(keps_schema_add_qi(*s, *t, spec, &err), KEPS_OK);
    }
    keps_lattice *L = NULL;
    assert_int_equal(keps_lattice_new(*s, &L, &err), KEPS_OK);
    return L;
}
