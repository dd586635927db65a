/* Experiment: the floating-point attack on textbook Laplace (Mironov 2012)
 * against keps_laplace. Usage: bench_mironov [samples] [out.csv]
 *
 * Textbook Laplace releases y = fl(x + s*fl(-b*log(U))) with U a uniform
 * double. For x = 0 the set of doubles y can take is sparse (consecutive U
 * map to values ~2 ulp apart), so an attacker who sees y can test whether y
 * is reachable from x = 0 at all; every release from x = 1 that fails the
 * test reveals x = 1 with certainty: unbounded privacy loss. The test below
 * inverts the noise: U* = exp(-|y|/b), and checks the 9 representable U
 * nearest to U* (log is monotone).
 *
 * keps_laplace releases g*(round(x/g) + Y) with Y an exact two-sided
 * geometric integer: every multiple of g is reachable from every input, so
 * the same test (on the grid) distinguishes nothing.
 *
 * THIS FILE SAMPLES TEXTBOOK LAPLACE ON PURPOSE, as the attacked baseline;
 * it is not a keps mechanism. Randomness still comes from keps_rng only. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "keps/noise.h"
#include "keps/rng.h"

#define B 1.0 /* Laplace scale (epsilon = 1 for sensitivity 1) */

/* The attacked baseline: inverse CDF on doubles. */
static double textbook_laplace(keps_rng *r, double x)
{
    double u = keps_rng_uniform_open(r); /* v * 2^-53, v >= 1 */
    double n = -B * log(u);
    return x + (keps_rng_bit(r) ? n : -n);
}

/* Can y be an output of textbook_laplace(., 0)? */
static int reachable_from_zero(double y)
{
    double a = fabs(y);
    double k0 = floor(exp(-a / B) * 0x1p53);
    for (double k = k0 - 4; k <= k0 + 4; k++) {
        if (k < 1 || k >= 0x1p53)
            continue;
        if (B * -log(k * 0x1p-53) == a)
            return 1;
    }
    return 0;
}

/* Can y be an output of keps_laplace(., 0, B)? Exactly the multiples of g. */
static int on_grid(double y, double g)
{
    double q = y / g;
    return q == floor(q);
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 1000000;
    FILE *csv = argc > 2 ? fopen(argv[2], "w") : NULL;
    if (csv)
        fprintf(csv, "sampler,input,samples,reachable_from_0,identified_as_1\n");
    keps_rng *r = keps_rng_new_seeded(2012);
    keps_noise_info info;
    keps_laplace_info(B, 1.0, &info);
    for (int secure = 0; secure < 2; secure++) {
        for (int x = 0; x < 2; x++) {
            long reach = 0;
            for (long i = 0; i < n; i++) {
                double y = secure ? keps_laplace(r, (double)x, B) : textbook_laplace(r, (double)x);
                reach += secure ? on_grid(y, info.granularity) : reachable_from_zero(y);
            }
            const char *name = secure ? "keps_laplace" : "textbook_laplace";
            printf("{\"bench\": \"mironov\", \"sampler\": \"%s\", \"input\": %d, \"samples\": %ld, "
                   "\"reachable_from_0\": %ld, \"identified_as_1\": %ld}\n",
                   name, x, n, reach, n - reach);
            if (csv)
                fprintf(csv, "%s,%d,%ld,%ld,%ld\n", name, x, n, reach, n - reach);
        }
    }
    if (csv)
        fclose(csv);
    keps_rng_free(r);
    return 0;
}
