/* Loading benchmark: CSV -> dictionary-encoded table.
 * usage: bench_load [FILE] [REPEATS] [seq]   (default data/adult/adult.csv, 20)
 * "seq" parses sequentially even a file large enough to be read in two
 * pieces at once (32 MiB and more). Prints one JSON line: rows, file bytes,
 * table bytes, min/median wall ms, min process CPU ms (all threads). */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>

#include "keps/csv.h"
#include "table_internal.h"

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
    int seq = argc > 3 && argv[3][0] == 's';
    if (seq)
        keps_csv_piece_min(1LL << 60);
    double *ms = malloc((size_t)reps * sizeof *ms), cpu_min = 1e300;
    size_t rows = 0, cols = 0, mem = 0;
    for (int i = 0; i < reps; i++) {
        keps_table *t;
        keps_error err = {0};
        double t0 = now_ms(), c0 = (double)clock();
        if (keps_csv_read(path, NULL, &t, &err)) {
            fprintf(stderr, "%s\n", err.msg);
            return 2;
        }
        ms[i] = now_ms() - t0;
        double c = ((double)clock() - c0) * 1e3 / CLOCKS_PER_SEC;
        cpu_min = c < cpu_min ? c : cpu_min;
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
           "\"table_bytes\":%zu,\"max_rss_kb\":%ld,\"repeats\":%d,\"mode\":\"%s\",\"min_ms\":%.2f,\"median_ms\":%.2f,"
           "\"min_cpu_ms\":%.2f}\n",
           path, rows, cols, (long long)st.st_size, mem, ru.ru_maxrss, reps, seq ? "sequential" : "auto", ms[0],
           ms[reps / 2], cpu_min);
    free(ms);
    return 0;
}
