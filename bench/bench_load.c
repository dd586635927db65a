/* Loading benchmark: CSV -> dictionary-encoded table.
 * usage: bench_load [FILE] [REPEATS]   (default data/adult/adult.csv, 20)
 * Prints one JSON line: rows, file bytes, table bytes, min/median ms. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>

#include "keps/csv.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : KEPS_SOURCE_DIR "/data/adult/adult.csv";
    int reps = argc > 2 ? atoi(argv[2]) : 20;
    if (reps < 1)
        reps = 1;
    double *ms = malloc((size_t)reps * sizeof *ms);
    size_t rows = 0, cols = 0, mem = 0;
    for (int i = 0; i < reps; i++) {
        keps_table *t;
        keps_error err = {0};
        double t0 = now_ms();
        if (keps_csv_read(path, NULL, &t, &err)) {
            fprintf(stderr, "%s\n", err.msg);
            return 2;
        }
        ms[i] = now_ms() - t0;
        rows = t->nrows;
        cols = t->ncols;
        mem = keps_table_memory(t);
        keps_table_free(t);
    }
    qsort(ms, (size_t)reps, sizeof *ms, cmp);
    struct stat st;
    stat(path, &st);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("{\"bench\":\"load\",\"file\":\"%s\",\"rows\":%zu,\"cols\":%zu,\"file_bytes\":%lld,"
           "\"table_bytes\":%zu,\"max_rss_kb\":%ld,\"repeats\":%d,\"min_ms\":%.2f,\"median_ms\":%.2f}\n",
           path, rows, cols, (long long)st.st_size, mem, ru.ru_maxrss, reps, ms[0], ms[reps / 2]);
    free(ms);
    return 0;
}
