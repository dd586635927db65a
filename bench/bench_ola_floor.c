/* What any OLA run on Adult must at least count: evaluates every node (full
 * lattice scan), then lists the nodes no tag can settle (every k-minimal
 * node, and every maximal node that fails; see docs/benchmarks.md, "Sixth
 * look") with their classes and those of their smallest immediate
 * predecessor (the cheapest source a roll-up could have). With "bounds",
 * also how many of them bounds from their neighbours' suppressed-row sets
 * would settle without counting (docs/benchmarks.md, "Seventh look"): a
 * row suppressed at a node is suppressed at every node below it, so
 * |U(pred_1) ∩ ... ∩ U(pred_m)| bounds S(node) from above and
 * |U(succ_1) ∪ ... ∪ U(succ_m)| from below. Usage:
 * bench_ola_floor [CSV|- [K [SUPPRESS [bounds]]]]. One JSON line. */
#include <math.h>
#include <string.h>

#include "bench_adult.h"
#include "keps/lattice.h"

static size_t *nclasses, *suppressed;

/* U(node) for every node as a bitset over the bottom classes (a bottom
 * class is suppressed or released as a whole): roll-ups from the bottom,
 * so its memory is nodes x bottom classes / 8 bytes (Adult: 32 MB). */
static uint64_t *suppressed_sets(const keps_lattice *L, size_t k, size_t words)
{
    uint64_t *u = calloc((size_t)L->nnodes * words, sizeof *u);
    uint32_t *asg = malloc((L->bottom.n ? L->bottom.n : 1) * sizeof *asg);
    keps_lattice_work *w = keps_lattice_work_new(L);
    int lv[64];
    keps_node_classes c;
    keps_node_classes_init(&c);
    for (uint64_t id = 0; u && asg && w && id < L->nnodes; id++) {
        keps_lattice_levels(L, id, lv);
        if (keps_lattice_rollup(L, w, NULL, lv, &c, asg)) {
            free(u);
            u = NULL;
            break;
        }
        for (size_t b = 0; b < L->bottom.n; b++)
            if (c.count[asg[b]] < k)
                u[id * words + b / 64] |= 1ull << (b % 64);
    }
    keps_node_classes_free(&c);
    keps_lattice_work_free(w);
    free(asg);
    return u;
}

/* Rows in the bottom classes of set x. */
static size_t rows_in(const keps_lattice *L, const uint64_t *x, size_t words)
{
    size_t r = 0;
    for (size_t j = 0; j < words; j++)
        for (uint64_t m = x[j]; m; m &= m - 1)
            r += L->bottom.count[j * 64 + (size_t)__builtin_ctzll(m)];
    return r;
}

/* Does the intersection of the predecessors' sets (up = 0) or the union of
 * the successors' (up = 1) settle node id the way the exact count does? */
static int settled(const keps_lattice *L, const uint64_t *u, size_t words, uint64_t id, const int *lv, int up,
                   size_t limit, uint64_t *acc)
{
    int any = 0;
    for (size_t j = 0; j < words; j++)
        acc[j] = up ? 0 : ~0ull;
    for (size_t i = 0; i < L->q; i++) {
        if (up ? lv[i] == L->height[i] : lv[i] == 0)
            continue;
        const uint64_t *x = u + (up ? id + L->stride[i] : id - L->stride[i]) * words;
        for (size_t j = 0; j < words; j++)
            acc[j] = up ? acc[j] | x[j] : acc[j] & x[j];
        any = 1;
    }
    if (!up && L->bottom.n % 64) /* bits past the last bottom class */
        acc[words - 1] &= (1ull << (L->bottom.n % 64)) - 1;
    size_t r = rows_in(L, acc, words);
    return any && (up ? r > limit : r <= limit);
}

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
    int bounds = argc > 4 && strcmp(argv[4], "bounds") == 0;
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
    size_t words = (L->bottom.n + 63) / 64, min_ub = 0, max_lb = 0;
    uint64_t *u = NULL, *acc = NULL;
    if (bounds && (!(u = suppressed_sets(L, k, words)) || !(acc = malloc(words * sizeof *acc)))) {
        fprintf(stderr, "out of memory\n");
        return 2;
    }
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
            min_ub += bounds && settled(L, u, words, id, lv, 0, limit, acc);
        }
        if (maximal) {
            nmax++;
            max_classes += (double)nclasses[id];
            max_src += (double)src;
            max_lb += bounds && settled(L, u, words, id, lv, 1, limit, acc);
        }
    }
    printf("{\"bench\":\"ola_floor\",\"rows\":%zu,\"k\":%zu,\"suppress\":%g,\"limit\":%zu,\"nodes\":%llu,"
           "\"k_minimal\":%zu,\"k_minimal_classes\":%.0f,\"k_minimal_source_classes\":%.0f,"
           "\"maximal_failing\":%zu,\"maximal_failing_classes\":%.0f,\"maximal_failing_source_classes\":%.0f",
           L->nrows, k, frac, limit, (unsigned long long)L->nnodes, nmin, min_classes, min_src, nmax, max_classes,
           max_src);
    if (bounds)
        printf(",\"k_minimal_settled_by_predecessor_sets\":%zu,\"maximal_failing_settled_by_successor_sets\":%zu",
               min_ub, max_lb);
    printf("}\n");
    free(u);
    free(acc);
    free(nclasses);
    free(suppressed);
    bench_teardown(&d);
    return 0;
}
