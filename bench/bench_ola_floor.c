/* What any OLA run on Adult must at least count: evaluates every node (full
 * lattice scan), then lists the nodes no tag can settle (every k-minimal
 * node, and every maximal node that fails; see docs/benchmarks.md, "Sixth
 * look") with their classes and those of their smallest immediate
 * predecessor (the cheapest source a roll-up could have). Usage:
 * bench_ola_floor [CSV|- [K [SUPPRESS]]]. One JSON line. */
#include <math.h>
#include <string.h>

#include "bench_adult.h"
#include "keps/lattice.h"

static size_t *nclasses, *suppressed;

static int record(const keps_node_info *ni, int thread, void *ud)
{
    (void)thread;
    (void)ud;
    nclasses[ni->id] = ni->nclasses;
    suppressed[ni->id] = ni->suppressed;
    return 0;
}

int main(int argc, char **argv)
{
    const char *csv = argc > 1 && strcmp(argv[1], "-") ? argv[1] : NULL;
    size_t k = argc > 2 ? (size_t)atol(argv[2]) : 2;
    double frac = argc > 3 ? atof(argv[3]) : 0.05;
    bench_data d;
    bench_setup(csv, &d);
    const keps_lattice *L = d.L;
    keps_error err = {0};
    if (L->q > 64) {
        fprintf(stderr, "at most 64 QIs\n");
        return 2;
    }
    nclasses = calloc(L->nnodes, sizeof *nclasses);
    suppressed = calloc(L->nnodes, sizeof *suppressed);
    if (!nclasses || !suppressed || keps_lattice_scan(L, k, record, NULL, 0, &err)) {
        fprintf(stderr, "scan failed: %s\n", err.msg);
        return 2;
    }
    size_t limit = (size_t)floor(frac * (double)L->nrows + 1e-9); /* as keps_ola_run */
    size_t nmin = 0, nmax = 0;
    double min_classes = 0, min_src = 0, max_classes = 0, max_src = 0;
    int lv[64];
    for (uint64_t id = 0; id < L->nnodes; id++) {
        keps_lattice_levels(L, id, lv);
        int anon = suppressed[id] <= limit, minimal = anon, maximal = !anon;
        size_t src = (size_t)-1;
        for (size_t i = 0; i < L->q; i++) {
            if (lv[i] > 0) {
                uint64_t p = id - L->stride[i];
                minimal &= suppressed[p] > limit;
                if (nclasses[p] < src)
                    src = nclasses[p];
            }
            if (lv[i] < L->height[i])
                maximal &= suppressed[id + L->stride[i]] <= limit;
        }
        if (src == (size_t)-1)
            src = nclasses[id];
        if (minimal) {
            nmin++;
            min_classes += (double)nclasses[id];
            min_src += (double)src;
        }
        if (maximal) {
            nmax++;
            max_classes += (double)nclasses[id];
            max_src += (double)src;
        }
    }
    printf("{\"bench\":\"ola_floor\",\"rows\":%zu,\"k\":%zu,\"suppress\":%g,\"limit\":%zu,\"nodes\":%llu,"
           "\"k_minimal\":%zu,\"k_minimal_classes\":%.0f,\"k_minimal_source_classes\":%.0f,"
           "\"maximal_failing\":%zu,\"maximal_failing_classes\":%.0f,\"maximal_failing_source_classes\":%.0f}\n",
           L->nrows, k, frac, limit, (unsigned long long)L->nnodes, nmin, min_classes, min_src, nmax, max_classes,
           max_src);
    free(nclasses);
    free(suppressed);
    bench_teardown(&d);
    return 0;
}
