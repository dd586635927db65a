/* keps for R: the secure noise primitives over a vector (keps/noise.h),
 * drawn from the library's CSPRNG in the order `keps noise` draws them, so
 * that a seeded call gives the CLI's releases. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "keps/noise.h"
#include "keps/rng.h"
#include "rkeps.h"

/* "123" -> 123 (0 to LONG_MAX, as the CLI's --seed). */
static uint64_t parse_seed(const char *s)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (end == s || *end || errno || v < 0 || v > __LONG_MAX__)
        rk_fail(KEPS_EINPUT, "seed '%s': expected a whole number from 0 to %ld", s, (long)__LONG_MAX__);
    return (uint64_t)v;
}

static SEXP info_list(const keps_noise_info *in)
{
    const char *nm[] = {"epsilon", "sensitivity", "granularity", "noise_scale", ""};
    SEXP out = PROTECT(Rf_mkNamed(VECSXP, nm));
    SET_VECTOR_ELT(out, 0, Rf_ScalarReal(in->epsilon));
    SET_VECTOR_ELT(out, 1, Rf_ScalarReal(in->sensitivity));
    SET_VECTOR_ELT(out, 2, Rf_ScalarReal(in->granularity));
    SET_VECTOR_ELT(out, 3, Rf_ScalarReal(in->scale));
    UNPROTECT(1);
    return out;
}

/* values: finite doubles (whole numbers below 2^62 for geometric, checked
 * by the R side); epsilon, sensitivity > 0. Returns list(values, info). */
SEXP rk_noise(SEXP values, SEXP epsilon, SEXP sensitivity, SEXP geometric, SEXP seed)
{
    double eps = Rf_asReal(epsilon), sens = Rf_asReal(sensitivity);
    int geo = Rf_asLogical(geometric);
    const char *seed_text = rk_string(seed, "seed");
    uint64_t sd = seed_text ? parse_seed(seed_text) : 0;
    keps_noise_info info;
    /* laplace: the scale calibrated so that the stated epsilon, grid
     * rounding included, is at most the requested one (as `keps noise`) */
    double scale = geo ? NAN : keps_laplace_calibrate(sens, 1, eps);
    if (geo ? keps_geometric_info(eps, (int64_t)sens, &info) != 0
            : isnan(scale) || keps_laplace_info(scale, sens, &info) != 0)
        rk_fail(KEPS_EINPUT, "noise scale sensitivity/epsilon = %g is out of range", sens / eps);
    R_xlen_t n = XLENGTH(values);
    SEXP out = PROTECT(Rf_allocVector(REALSXP, n));
    keps_rng *r = seed_text ? keps_rng_new_seeded(sd) : keps_rng_new();
    if (!r)
        rk_fail(KEPS_ENOMEM, "cannot initialize the random number generator (libsodium)");
    const double *v = REAL(values);
    double *o = REAL(out);
    if (geo) {
        for (R_xlen_t i = 0; i < n; i++)
            o[i] = (double)keps_geometric_mech(r, (int64_t)v[i], eps, (int64_t)sens);
    } else {
        for (R_xlen_t i = 0; i < n; i++)
            o[i] = keps_laplace(r, v[i], scale);
    }
    keps_rng_free(r);
    SEXP res = PROTECT(Rf_allocVector(VECSXP, 2));
    SET_VECTOR_ELT(res, 0, out);
    SET_VECTOR_ELT(res, 1, info_list(&info));
    UNPROTECT(2);
    return res;
}
