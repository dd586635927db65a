/* Synthetic Adult-like data for the OLA benchmarks.
 * Usage: gen_adult ROWS OUT.csv [SEED]
 *
 * Each output row starts as a copy of a uniformly drawn row of the bundled
 * Adult data (its empirical joint distribution, with its skew: most rows
 * United-States, White, Private, ...). Then, independently per column, with
 * probability 0.1 the value is redrawn from that column's marginal (so new
 * combinations appear and the number of distinct QI tuples grows with the
 * row count, as in real data), and age moves by -2..+2 years (clamped to
 * 17..90, the range of Adult and of its hierarchy). Same columns and
 * separator (';') as data/adult/adult.csv, so the Adult hierarchies apply.
 * Randomness: keps_rng seeded (default seed 1), reproducible. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keps/csv.h"
#include "keps/rng.h"
#include "keps/table.h"

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: gen_adult ROWS OUT.csv [SEED]\n");
        return 2;
    }
    size_t rows = (size_t)strtoull(argv[1], NULL, 10);
    const char *out = argv[2];
    uint64_t seed = argc > 3 ? strtoull(argv[3], NULL, 10) : 1;
    char path[4096];
    snprintf(path, sizeof path, "%s/data/adult/adult.csv", KEPS_SOURCE_DIR);
    keps_table *t = NULL;
    keps_error err = {0};
    if (keps_csv_read(path, NULL, &t, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 2;
    }
    int age_col = keps_table_column(t, "age");
    if (age_col < 0 || keps_table_numeric(t, (size_t)age_col, &err)) {
        fprintf(stderr, "adult.csv: no numeric age column\n");
        return 2;
    }
    FILE *f = fopen(out, "wb");
    if (!f) {
        perror(out);
        return 2;
    }
    static char buf[1 << 20];
    setvbuf(f, buf, _IOFBF, sizeof buf);
    for (size_t j = 0; j < t->ncols; j++)
        fprintf(f, "%s%s", j ? ";" : "", t->cols[j].name);
    fputc('\n', f);
    keps_rng *rng = keps_rng_new_seeded(seed);
    for (size_t r = 0; r < rows; r++) {
        size_t src = (size_t)keps_rng_below(rng, t->nrows);
        for (size_t j = 0; j < t->ncols; j++) {
            /* 1 in 10: the value of another random row (the marginal) */
            size_t from = keps_rng_below(rng, 10) == 0 ? (size_t)keps_rng_below(rng, t->nrows) : src;
            if (j)
                fputc(';', f);
            if ((int)j == age_col) {
                int age = (int)keps_table_num(t, j, from) + (int)keps_rng_below(rng, 5) - 2;
                fprintf(f, "%d", age < 17 ? 17 : age > 90 ? 90 : age);
            } else {
                fputs(keps_table_str(t, j, from), f);
            }
        }
        fputc('\n', f);
    }
    keps_rng_free(rng);
    keps_table_free(t);
    if (fclose(f)) {
        perror(out);
        return 2;
    }
    return 0;
}
