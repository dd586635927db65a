/* keps noise: independent noisy releases of one value (SPEC 8), for
 * inspection and audits. The sampling is libkeps (noise.h); this file only
 * parses options and prints. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "keps/noise.h"

static const cli_opt opt_mech = {"mechanism", 0, "laplace|geometric", 0,
                                 "laplace: secure Laplace on a power-of-two grid; geometric: integer "
                                 "value + two-sided geometric noise",
                                 "--mechanism laplace"};
static const cli_opt opt_sens = {"sensitivity", 0, "S", 0,
                                 "sensitivity of the released value (default 1; geometric: a whole number)",
                                 "--sensitivity 1"};
static const cli_opt opt_value = {"value", 0, "V", CLI_NUMBER, "the true value to release (geometric: a whole number)",
                                  "--value 42"};
static const cli_opt opt_count = {"count", 'n', "COUNT", CLI_NUMBER, "number of independent releases (default 1)",
                                  "-n 10"};

static const cli_opt *const opts[] = {&opt_mech, &cli_opt_epsilon, &opt_sens, &opt_value, &opt_count,
                                      &cli_opt_seed, &cli_opt_report, NULL};

/* One release: kept in the JSON when a report or --json asks for it, and
 * printed one per line unless --json prints them; with --report - the JSON
 * owns stdout, so the lines go to stderr. */
static void emit(cli_ctx *c, keps_json *j, int geometric, double x, int64_t k)
{
    const char *rp = cli_str(c, "report");
    if (c->json || rp)
        geometric ? keps_json_int(j, NULL, (long long)k) : keps_json_num(j, NULL, x);
    if (c->json)
        return;
    FILE *f = rp && strcmp(rp, "-") == 0 ? stderr : stdout;
    if (geometric)
        fprintf(f, "%" PRId64 "\n", k);
    else
        fprintf(f, "%.17g\n", x);
}

static int run(cli_ctx *c)
{
    const char *mech = cli_str(c, "mechanism");
    double eps, sens, value;
    long count;
    if (cli_require(c, "mechanism") || cli_require(c, "epsilon") || cli_require(c, "value"))
        return 2;
    int geometric = strcmp(mech, "geometric") == 0;
    if (!geometric && strcmp(mech, "laplace") != 0)
        return cli_usage_error(c, "--mechanism '%s': expected laplace or geometric", mech);
    if (cli_double(c, "epsilon", 1e-300, 1e300, 1, &eps) < 0 ||
        cli_double(c, "sensitivity", 1e-300, 1e300, 1, &sens) < 0 ||
        cli_double(c, "value", -1.7e308, 1.7e308, 0, &value) < 0 || cli_long(c, "count", 0, 1000000000L, 1, &count) < 0)
        return 2;
    if (geometric && (sens != floor(sens) || value != floor(value) || fabs(value) >= 0x1p62 || sens >= 0x1p62))
        return cli_usage_error(c, "--mechanism geometric releases whole numbers: give a whole --value and "
                                  "--sensitivity (below 2^62)");
    keps_noise_info info;
    int bad = geometric ? keps_geometric_info(eps, (int64_t)sens, &info) != 0
                        : keps_laplace_info(sens / eps, sens, &info) != 0;
    if (bad)
        return cli_usage_error(c, "noise scale sensitivity/epsilon = %g is out of range", sens / eps);
    keps_rng *r = cli_rng(c);
    if (!r)
        return 2;
    keps_json j;
    cli_report_begin(c, &j, "noise");
    keps_json_str(&j, "mechanism", mech);
    keps_json_object(&j, "guarantee");
    keps_json_str(&j, "model", "epsilon-DP");
    keps_json_num(&j, "epsilon", info.epsilon);
    keps_json_num(&j, "sensitivity", info.sensitivity);
    keps_json_end(&j);
    keps_json_num(&j, "granularity", info.granularity);
    keps_json_num(&j, "noise_scale", info.scale);
    keps_json_array(&j, "releases");
    for (long i = 0; i < count; i++) {
        if (geometric)
            emit(c, &j, 1, 0, keps_geometric_mech(r, (int64_t)value, eps, (int64_t)sens));
        else
            emit(c, &j, 0, keps_laplace_ex(r, value, sens / eps, sens, NULL), 0);
    }
    keps_json_end(&j);
    cli_report_total(c, &j);
    keps_json_end(&j);
    int rc = cli_emit_report(c, &j, NULL);
    keps_json_free(&j);
    return rc;
}

const cli_cmd cmd_noise = {
    "noise",
    "print independent noisy releases of a value (Laplace, geometric)",
    "noise --mechanism laplace|geometric --epsilon E --sensitivity S --value V -n COUNT",
    "Prints COUNT independent noisy releases of V, one per line. laplace: V rounded to a power-of-two "
    "grid g = 2^(ceil(log2 b) - 40), b = S/E, plus g times an exactly sampled two-sided geometric variable "
    "(no floating-point logarithms: safe against the Mironov 2012 attack); the guaranteed epsilon is "
    "(floor(S/g) + 1)/(b/g), a hair above E, and --json reports it with the granularity and the scale "
    "used. geometric: whole V plus two-sided geometric noise with scale >= S/E (epsilon <= E).",
    "keps noise --mechanism laplace --epsilon 1 --sensitivity 1 --value 42 -n 5",
    opts,
    run,
    0,
};
