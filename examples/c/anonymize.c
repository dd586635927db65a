/* k-anonymity through libkeps's public API: reads a CSV, generalizes one or
 * more quasi-identifiers along their hierarchies with OLA (the optimal
 * full-domain generalization of El Emam et al., 2009), suppresses the rows
 * of classes smaller than k within the suppression limit, and writes the
 * release (rows shuffled; the file appears whole or not at all).
 *
 *   anonymize IN.csv OUT.csv K SUPPRESS QI:HIERARCHY.csv [QI:HIERARCHY.csv...]
 *   anonymize data/adult/adult.csv out.csv 5 0.05 \
 *       age:data/adult/adult_hierarchy_age.csv sex:data/adult/adult_hierarchy_sex.csv
 *
 * Columns that are not quasi-identifiers are released unchanged. Build:
 *   cc anonymize.c $(pkg-config --cflags --libs keps) -o anonymize
 * or with CMake: find_package(keps) and link keps::keps (CMakeLists.txt). */
#include <stdio.h>
#include <stdlib.h>

#include <keps/csv.h>
#include <keps/release.h>
#include <keps/error.h>
#include <keps/lattice.h>
#include <keps/ola.h>
#include <keps/partition.h>
#include <keps/rng.h>
#include <keps/schema.h>
#include <keps/table.h>

/* The exit code of a failure, as the keps CLI would give it (docs/cli.md):
 * 1 the job cannot be done, 2 bad input, 3 an I/O or memory failure. */
static int fail(const keps_error *err)
{
    fprintf(stderr, "anonymize: %s\n", err->msg);
    return err->code == KEPS_EJOB ? 1 : err->code == KEPS_EINPUT ? 2 : 3;
}

int main(int argc, char **argv)
{
    if (argc < 6) {
        fprintf(stderr, "usage: anonymize IN.csv OUT.csv K SUPPRESS QI:HIERARCHY.csv...\n");
        return 2;
    }
    keps_error err = {0};
    keps_table *t = NULL;
    if (keps_csv_read(argv[1], NULL, &t, &err))
        return fail(&err);
    keps_schema *s = keps_schema_new(t);
    if (!s) {
        fprintf(stderr, "anonymize: out of memory\n");
        return 3;
    }
    s->others = KEPS_OTHERS_KEEP; /* every other column is released as it is */
    int rc = 0;
    for (int i = 5; i < argc && !rc; i++)
        if (keps_schema_add_qi(s, t, argv[i], &err))
            rc = fail(&err);
    keps_lattice *L = NULL;
    if (!rc && (keps_schema_check(s, &err) || keps_lattice_new(s, &L, &err)))
        rc = fail(&err);
    keps_ola_params p = {.k = (size_t)atol(argv[3]), .suppress = atof(argv[4]), .metric = KEPS_METRIC_LOSS};
    keps_ola_result r = {0};
    if (!rc && keps_ola_run(L, &p, &r, &err))
        rc = fail(&err);
    if (!rc && !r.found) {
        fprintf(stderr, "anonymize: no generalization is %zu-anonymous within the suppression limit\n", p.k);
        rc = 1;
    }
    /* the node's classes, those below k suppressed ('*'), and its release */
    keps_partition part = {0};
    keps_table *release = NULL;
    keps_counts n = {0};
    if (!rc && (keps_partition_from_node(L, r.levels, NULL, &part, &err) ||
                keps_partition_enforce(&part, NULL, p.k, NULL, &err) ||
                keps_lattice_apply(L, r.levels, &part, 0, &release, &n, &err)))
        rc = fail(&err);
    keps_partition_free(&part);
    keps_rng *rng = rc ? NULL : keps_rng_new(); /* the CSPRNG shuffles the rows: input order can leak */
    if (!rc && !rng) {
        fprintf(stderr, "anonymize: cannot initialize the random number generator\n");
        rc = 3;
    }
    if (!rc && keps_release_write(release, argv[2], t->delimiter, rng, 0, &err))
        rc = fail(&err);
    if (!rc) {
        printf("%zu-anonymous: %zu of %zu rows released, %zu suppressed; levels", p.k,
               n.input_rows - n.suppressed_rows, n.input_rows, n.suppressed_rows);
        for (size_t q = 0; q < L->q; q++)
            printf(" %s=%d/%d", t->cols[s->qi[q].col].name, r.levels[q], L->height[q]);
        printf("\n");
    }
    keps_rng_free(rng);
    keps_table_free(release);
    keps_ola_result_free(&r);
    keps_lattice_free(L);
    keps_schema_free(s);
    keps_table_free(t);
    return rc;
}
