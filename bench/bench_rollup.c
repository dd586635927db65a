/* One roll-up on Adult, repeated: the classes of node
 * (0,3,0,0,1,1,1,1,0) (loss optimum at k = 2, 5%) from those of its
 * predecessor that lowers QI DIM (default 1, age), as OLA's search does
 * thousands of times. Usage: bench_rollup [DIM [REPEATS [RUNS]]]. One JSON
 * line: source and target classes, ns per source class (min and median
 * over RUNS timings of REPEATS roll-ups each). */
#include <string.h>

#include "bench_adult.h"

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    int node[ADULT_NQI] = {0, 3, 0, 0, 1, 1, 1, 1, 0}, pred[ADULT_NQI];
    int dim = argc > 1 ? atoi(argv[1]) : 1;
    int reps = argc > 2 ? atoi(argv[2]) : 2000, runs = argc > 3 ? atoi(argv[3]) : 10;
    if (dim < 0 || dim >= ADULT_NQI || node[dim] == 0 || reps < 1 || runs < 1 || runs > 1000) {
        fprintf(stderr, "usage: bench_rollup [DIM (a QI whose level is > 0: 1 4 5 6 7) [REPEATS [RUNS]]]\n");
        return 2;
    }
    memcpy(pred, node, sizeof pred);
    pred[dim]--;
    bench_data d;
    bench_setup(NULL, &d);
    keps_lattice_work *w = keps_lattice_work_new(d.L);
    keps_node_classes from, to;
    keps_node_classes_init(&from);
    keps_node_classes_init(&to);
    if (!w || keps_lattice_rollup(d.L, w, NULL, pred, &from, NULL)) {
        fprintf(stderr, "out of memory\n");
        return 2;
    }
    double ns[1000];
    for (int r = 0; r < runs; r++) {
        double t0 = bench_now_ms();
        for (int i = 0; i < reps; i++)
            if (keps_lattice_rollup(d.L, w, &from, node, &to, NULL)) {
                fprintf(stderr, "out of memory\n");
                return 2;
            }
        ns[r] = (bench_now_ms() - t0) * 1e6 / reps / (double)from.n;
    }
    qsort(ns, (size_t)runs, sizeof *ns, cmp_d);
    printf("{\"bench\":\"rollup\",\"dim\":%d,\"from_classes\":%zu,\"to_classes\":%zu,\"repeats\":%d,\"runs\":%d,"
           "\"ns_per_class_min\":%.2f,\"ns_per_class_median\":%.2f}\n",
           dim, from.n, to.n, reps, runs, ns[0], ns[runs / 2]);
    keps_node_classes_free(&from);
    keps_node_classes_free(&to);
    keps_lattice_work_free(w);
    bench_teardown(&d);
    return 0;
}
