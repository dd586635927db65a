/* Full lattice scan (every node evaluated by roll-up) on Adult with all nine
 * hierarchies, 1 and 2 threads. Usage: bench_lattice [CSV] [K]. One JSON
 * object per line. */
#include <stdatomic.h>

#include "bench_adult.h"
#include "keps/lattice.h"

static atomic_ullong visited, classes_total;

static int count_node(const keps_node_info *ni, int thread, void *ud)
{
    (void)thread;
    (void)ud;
    atomic_fetch_add(&visited, 1);
    atomic_fetch_add(&classes_total, ni->nclasses);
    return 0;
}

int main(int argc, char **argv)
{
    const char *csv = argc > 1 ? argv[1] : NULL;
    size_t k = argc > 2 ? (size_t)atol(argv[2]) : 5;
    bench_data d;
    bench_setup(csv, &d);
    const keps_lattice *L = d.L;
    keps_error err = {0};
    for (int threads = 1; threads <= 2; threads++) {
        atomic_store(&visited, 0);
        atomic_store(&classes_total, 0);
        double a = bench_now_ms(), ca = bench_cpu_ms();
        if (keps_lattice_scan(L, k, count_node, NULL, threads, &err)) {
            fprintf(stderr, "%s\n", err.msg);
            return 2;
        }
        double b = bench_now_ms(), cpu = bench_cpu_ms() - ca;
        printf("{\"bench\":\"lattice_scan\",\"rows\":%zu,\"k\":%zu,\"threads\":%d,\"nodes\":%llu,"
               "\"bottom_classes\":%zu,\"mean_classes\":%.1f,\"load_ms\":%.1f,\"bottom_ms\":%.1f,"
               "\"scan_ms\":%.1f,\"scan_cpu_ms\":%.1f}\n",
               L->nrows, k, threads, (unsigned long long)atomic_load(&visited), L->bottom.n,
               (double)atomic_load(&classes_total) / (double)L->nnodes, d.load_ms, d.lattice_ms, b - a, cpu);
    }
    bench_teardown(&d);
    return 0;
}
