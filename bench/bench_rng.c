/* Random words per second from the two streams of keps_rng: the OS-keyed
 * one every private run uses, and the seeded one the other benchmarks use.
 * Usage: bench_rng [WORDS [RUNS]]. One JSON line per stream: ns per 64-bit
 * word, min and median over RUNS timings of WORDS words each. */
#include <stdio.h>
#include <stdlib.h>

#include "bench_clock.h"
#include "keps/rng.h"

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    long words = argc > 1 ? atol(argv[1]) : 10000000;
    int runs = argc > 2 ? atoi(argv[2]) : 5;
    if (words < 1 || runs < 1 || runs > 100) {
        fprintf(stderr, "usage: bench_rng [WORDS [RUNS (1-100)]]\n");
        return 2;
    }
    for (int seeded = 0; seeded < 2; seeded++) {
        keps_rng *r = seeded ? keps_rng_new_seeded(1) : keps_rng_new();
        if (!r) {
            fprintf(stderr, "no rng\n");
            return 2;
        }
        double ns[100];
        uint64_t x = 0;
        for (int k = 0; k < runs; k++) {
            double t = now_ms();
            for (long i = 0; i < words; i++)
                x ^= keps_rng_u64(r);
            ns[k] = (now_ms() - t) * 1e6 / (double)words;
        }
        qsort(ns, (size_t)runs, sizeof *ns, cmp_d);
        printf("{\"bench\":\"rng\",\"stream\":\"%s\",\"words\":%ld,\"runs\":%d,\"ns_per_word_min\":%.2f,"
               "\"ns_per_word_median\":%.2f,\"xor\":\"%016llx\"}\n",
               seeded ? "seeded" : "os", words, runs, ns[0], ns[runs / 2], (unsigned long long)x);
        keps_rng_free(r);
    }
    return 0;
}
