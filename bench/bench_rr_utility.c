/* Utility comparison of Ekenstedt et al. 2022, Figures 6 and 7:
 * mechanism 1 (RR-LDP at the eps_t that implies t0), mechanism 2 (RR-t at
 * t0 then RR-LDP at eps_0 = eps_t) and mechanism 3 (RR-t at t0 alone), with
 * the binary-gain utility U = sum_z max_y p(y,z) (eq. 4) computed from the
 * transition matrices (keps/rr.h).
 *
 *   bench_rr_utility fig7 [--csv]   t0 in [1,10], n in {2,4,6}, f = 1/n
 *   bench_rr_utility fig6 [--csv]   n = 2, t0 = 2, f(a_1) in [0,1]
 * N = 100, k = 5 as in the paper. fig7 also runs each mechanism's exact
 * verifiers on a data set of N = 100 records split into homogeneous classes
 * of 5 (the worst case for t) and prints the measured multiplicative t and
 * eps-LDP next to the targets. Prints one JSON object per line, or CSV. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keps/rr.h"

enum { N = 100, K = 5 };

typedef struct row {
    int n;
    double t0, f1, eps_t, p1, pt, u_ldp, u_both, u_tclose;
    double ver_t_ldp, ver_t_both, ver_t_tclose, ver_eps_ldp, ver_eps_both;
    double p_printed, u_ldp_printed, u_both_printed, ver_t_printed, eps0_cross;
} row;

/* What the paper's printed formulas give: Theorem 3 with N-k-1, then eq. (1)
 * eps = ln(1 + p/(N(1-p))) solved for p. Neither is what the mechanism does
 * (docs/spec.md 9); shown only to compare with the paper's figures. */
static double printed_p(double t0)
{
    double e = ((double)N * t0 - K) / (double)(N - K - 1); /* e^eps_t */
    if (e <= 1.0)
        return 0.0;
    double x = (double)N * (e - 1.0);
    return x / (1.0 + x);
}

static double utility(const keps_rr_params *par, size_t n, const double *f)
{
    keps_rr_matrix M;
    if (keps_rr_matrix_for(par, n, f, &M, NULL))
        return NAN;
    double u = keps_rr_utility(&M, f);
    keps_rr_matrix_free(&M);
    return u;
}

/* The three mechanisms' utilities for target t0 over distribution f. */
static void compare(row *r, size_t n, const double *f)
{
    r->eps_t = keps_rr_kt_to_ldp_needed(r->t0, K, N);
    r->p1 = keps_rr_ldp_p(r->eps_t, n);
    r->pt = keps_rr_t_p(r->t0, f, n);
    keps_rr_params m1 = {KEPS_RR_LDP, r->p1, 0}, m2 = {KEPS_RR_BOTH, r->p1, r->pt}, m3 = {KEPS_RR_TCLOSE, 0, r->pt};
    r->u_ldp = utility(&m1, n, f);
    r->u_both = utility(&m2, n, f);
    r->u_tclose = utility(&m3, n, f);
    r->p_printed = printed_p(r->t0);
    keps_rr_params q1 = {KEPS_RR_LDP, r->p_printed, 0}, q2 = {KEPS_RR_BOTH, r->p_printed, r->pt};
    r->u_ldp_printed = utility(&q1, n, f);
    r->u_both_printed = utility(&q2, n, f);
    /* Smallest eps_0 >= eps_t at which mechanism 2 (RR-t at t0, RR-LDP at
     * eps_0) overtakes mechanism 1 (which needs eps_t for t0 whatever
     * eps_0 is): bisection, U of mechanism 2 grows with eps_0. */
    r->eps0_cross = INFINITY;
    keps_rr_params hi = {KEPS_RR_BOTH, 1.0, r->pt};
    if (utility(&hi, n, f) > r->u_ldp + 1e-12) {
        double lo_e = r->eps_t, hi_e = 50.0;
        for (int it = 0; it < 100; it++) {
            double mid = 0.5 * (lo_e + hi_e);
            keps_rr_params m = {KEPS_RR_BOTH, keps_rr_ldp_p(mid, n), r->pt};
            if (utility(&m, n, f) > r->u_ldp + 1e-12)
                hi_e = mid;
            else
                lo_e = mid;
        }
        r->eps0_cross = hi_e;
    }
}

/* Measured levels on N records, values as equal as possible, classes of K
 * consecutive records after sorting by value (homogeneous where counts
 * allow). Parameters are chosen from this data's own frequencies. */
static void verify(row *r, size_t n)
{
    uint32_t v[N], cls[N];
    for (size_t i = 0; i < N; i++) {
        v[i] = (uint32_t)(i * n / N);
        cls[i] = (uint32_t)(i / K);
    }
    double f[8];
    keps_rr_frequencies(v, N, n, f);
    double eps = keps_rr_kt_to_ldp_needed(r->t0, K, N), p = keps_rr_ldp_p(eps, n), pt = keps_rr_t_p(r->t0, f, n);
    keps_rr_params pars[4] = {{KEPS_RR_LDP, p, 0}, {KEPS_RR_BOTH, p, pt}, {KEPS_RR_TCLOSE, 0, pt},
                              {KEPS_RR_LDP, r->p_printed, 0}};
    double *t_out[4] = {&r->ver_t_ldp, &r->ver_t_both, &r->ver_t_tclose, &r->ver_t_printed};
    double *e_out[4] = {&r->ver_eps_ldp, &r->ver_eps_both, NULL, NULL};
    for (int m = 0; m < 4; m++) {
        keps_rr_matrix M;
        if (keps_rr_matrix_for(&pars[m], n, f, &M, NULL))
            continue;
        *t_out[m] = keps_rr_verify_mult_t(&M, v, cls, N, N / K);
        if (e_out[m])
            *e_out[m] = keps_rr_verify_ldp(&M, v, N);
        keps_rr_matrix_free(&M);
    }
}

static void print(const row *r, int csv, int fig7)
{
    if (csv && fig7)
        printf("%d,%.2f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f\n", r->n,
               r->t0, r->eps_t, r->p1, r->pt, r->u_ldp, r->u_both, r->u_tclose, r->eps0_cross, r->ver_t_ldp,
               r->ver_t_both, r->ver_t_tclose, r->ver_eps_ldp, r->ver_eps_both, r->p_printed, r->u_ldp_printed,
               r->u_both_printed, r->ver_t_printed);
    else if (csv)
        printf("%.2f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f\n", r->f1, r->eps_t, r->p1, r->pt, r->u_ldp,
               r->u_both, r->u_tclose, r->u_ldp_printed, r->u_both_printed);
    else
        printf("{\"bench\":\"rr_utility\",\"figure\":%d,\"n\":%d,\"t0\":%.2f,\"f1\":%.2f,\"eps_t\":%.6f,\"p_ldp\":%.6f,"
               "\"p_t\":%.6f,\"u_ldp\":%.6f,\"u_both\":%.6f,\"u_tclose\":%.6f,\"eps0_crossover\":%.6f}\n",
               fig7 ? 7 : 6, r->n, r->t0, r->f1, r->eps_t, r->p1, r->pt, r->u_ldp, r->u_both, r->u_tclose,
               r->eps0_cross);
}

int main(int argc, char **argv)
{
    int fig7 = argc < 2 || strcmp(argv[1], "fig6") != 0;
    int csv = argc > 2 && strcmp(argv[2], "--csv") == 0;
    if (fig7) {
        if (csv)
            puts("n,t0,eps_t,p_ldp,p_t,u_ldp,u_both,u_tclose,eps0_crossover,verified_t_ldp,verified_t_both,"
                 "verified_t_tclose,verified_eps_ldp,verified_eps_both,p_ldp_printed,u_ldp_printed,u_both_printed,"
                 "verified_t_ldp_printed");
        static const int ns[] = {2, 4, 6};
        for (int a = 0; a < 3; a++)
            for (int s = 0; s <= 36; s++) {
                row r = {.n = ns[a], .t0 = 1.0 + 0.25 * s};
                double f[6];
                for (int i = 0; i < ns[a]; i++)
                    f[i] = 1.0 / ns[a];
                compare(&r, (size_t)ns[a], f);
                verify(&r, (size_t)ns[a]);
                print(&r, csv, 1);
            }
    } else {
        if (csv)
            puts("f1,eps_t,p_ldp,p_t,u_ldp,u_both,u_tclose,u_ldp_printed,u_both_printed");
        for (int s = 0; s <= 20; s++) {
            row r = {.n = 2, .t0 = 2.0, .f1 = 0.05 * s};
            double f[2] = {r.f1, 1.0 - r.f1};
            compare(&r, 2, f);
            print(&r, csv, 0);
        }
    }
    return 0;
}
