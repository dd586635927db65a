/* The guarantee value (keps/guarantee.h) and the accountant: each method's
 * keps_guarantee holds the parameters computed by hand from the papers'
 * formulas (in the comments), and its JSON is the report's "guarantee". */
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "keps/accountant.h"
#include "keps/command.h"
#include "keps/guarantee.h"
#include "keps/noise.h"
#include "keps/safela.h"

/* A small table: a QI g, two numeric columns x, y, a nominal s. */
static const char *csv = "g,x,y,s\n"
                         "a,1,10,A\na,2,20,B\na,3,30,C\na,4,40,D\n"
                         "b,5,50,A\nb,6,60,B\nb,7,70,C\nb,8,80,D\n";

/* The report's "guarantee" object (a copy, to free). */
static char *report_guarantee(const char *report)
{
    const char *p = strstr(report, "\"guarantee\":");
    assert_non_null(p);
    p = strchr(p, '{');
    int depth = 0, in = 0;
    const char *q = p;
    for (; *q; q++) {
        if (in) {
            if (*q == '\\')
                q++;
            else if (*q == '"')
                in = 0;
        } else if (*q == '"')
            in = 1;
        else if (*q == '{')
            depth++;
        else if (*q == '}' && --depth == 0)
            break;
    }
    return strndup(p, (size_t)(q - p + 1));
}

/* Runs command name with args "k=v" pairs over the table; returns the
 * report's guarantee object. */
static char *run(const char *name, const char *const *kv, size_t n)
{
    keps_table *t = table_from_csv(csv);
    keps_args *a = keps_args_new();
    if (strcmp(name, "noise"))
        assert_int_equal(keps_args_table(a, "input", t), KEPS_OK);
    for (size_t i = 0; i < n; i++) {
        const char *eq = strchr(kv[i], '=');
        char key[64];
        snprintf(key, sizeof key, "%.*s", (int)(eq - kv[i]), kv[i]);
        keps_args_add(a, key, eq + 1, NULL);
    }
    keps_host host = {.quiet = 1};
    keps_result r;
    keps_error err;
    keps_status st = keps_run(name, a, &host, &r, &err);
    if (st)
        fail_msg("%s: %s", name, err.msg);
    char *g = report_guarantee(r.report);
    keps_result_free(&r);
    keps_args_free(a);
    keps_table_free(t);
    return g;
}

/* The number after "key": in a JSON object. */
static double num(const char *json, const char *key)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    const char *p = strstr(json, pat);
    assert_non_null(p);
    return strtod(p + strlen(pat), NULL);
}

static char *json_of(const keps_guarantee *g)
{
    keps_json j;
    keps_json_init(&j);
    keps_json_object(&j, NULL);
    keps_guarantee_json(g, &j, "guarantee");
    keps_json_end(&j);
    char *s = report_guarantee(keps_json_text(&j));
    keps_json_free(&j);
    return s;
}

static void accountant_composition(void **state)
{
    (void)state;
    keps_accountant a, parts[2];
    /* two columns of rr on the same records at 0.5 and 0.25: 0.75 (both
     * dyadic, exact) */
    keps_acct_init(&a);
    keps_acct_add(&a, "column 1", 0.5, 0);
    keps_acct_add(&a, "column 2", 0.25, 0);
    assert_true(a.epsilon == 0.75);
    /* parallel disjoint classes at 0.3 and 0.7: the maximum, 0.7 */
    keps_acct_init(&parts[0]);
    keps_acct_init(&parts[1]);
    keps_acct_add(&parts[0], "class 1", 0.3, 0);
    keps_acct_add(&parts[1], "class 2", 0.7, 1e-6);
    keps_acct_init(&a);
    keps_acct_add_parallel(&a, "classes", parts, 2);
    assert_true(a.epsilon == 0.7 && a.delta == 1e-6);
    /* sums round up: the doubles 0.1 = 0.1000000000000000055511 and 0.7 =
     * 0.6999999999999999555911 add up to 0.7999999999999999611422 exactly;
     * rounded to nearest that is 0.7999999999999999333866 (below), rounded
     * up the double 0.8 = 0.8000000000000000444089 */
    keps_acct_init(&a);
    keps_acct_add(&a, NULL, 0.1, 0);
    keps_acct_add(&a, NULL, 0.7, 0);
    assert_true(a.epsilon == 0.8);
    /* three releases at 0.7: 2.0999999999999998667732 exactly; to nearest
     * 2.0999999999999996447, up the double 2.1 = 2.1000000000000000888 */
    keps_acct_init(&a);
    keps_acct_add_times(&a, "releases", 0.7, 0, 3);
    assert_true(a.epsilon == 2.1);
    assert_true(keps_acct_sum(0.5, 0.25) == 0.75);
}

static void noise_releases_compose(void **state)
{
    (void)state;
    /* geometric, epsilon 0.5, sensitivity 2: scale S/eps = 4, so each
     * release is 2/4 = 0.5-DP; three releases of the same value: 1.5 */
    const char *kv[] = {"mechanism=geometric", "epsilon=0.5", "sensitivity=2", "value=10", "count=3", "seed=1"};
    char *g = run("noise", kv, 6);
    assert_true(num(g, "epsilon") == 1.5);
    keps_noise_info info;
    assert_int_equal(keps_geometric_info(0.5, 2, &info), 0);
    keps_guarantee v;
    keps_noise_guarantee(&info, 0, 3, &v);
    assert_true(keps_guarantee_value(&v, "epsilon") == 1.5);
    assert_int_equal(v.acct.nsteps, 1);
    char *js = json_of(&v);
    assert_string_equal(js, g);
    assert_string_equal(g, "{\"model\":\"epsilon-DP\",\"epsilon\":1.5,\"sensitivity\":2,\"neighbours\":\"values at "
                           "most the sensitivity apart\",\"data_dependent\":[],\"not_covered\":[]}");
    char text[256];
    keps_guarantee_text(&v, text, sizeof text);
    assert_string_equal(text, "epsilon-DP: epsilon 1.5, sensitivity 2");
    free(js);
    free(g);
    keps_guarantee_free(&v);
}

static void rr_ldp(void **state)
{
    (void)state;
    /* RR-LDP (Ekenstedt et al.): keep with p = 0.6, else a uniform draw over
     * the n = 4 categories: Pr(y|y) = 0.6 + 0.4/4 = 0.7, Pr(z|y) = 0.1, so
     * epsilon = ln(0.7/0.1) = ln 7 = 1.9459101090932196 */
    const char *kv[] = {"mechanism=ldp", "sensitive=s", "qi=g", "p=0.6", "domain=s=A,B,C,D", "others=keep", "seed=1"};
    char *g = run("rr", kv, 7);
    assert_double_near(num(g, "epsilon"), log(7.0), 1e-12);
    assert_non_null(strstr(g, "\"model\":\"epsilon-LDP\""));
    assert_non_null(strstr(g, "\"data_dependent\":[]"));
    assert_non_null(strstr(g, "\"not_covered\":[\"g\",\"x\",\"y\"]"));
    /* the domain read from the data: data-dependent, said in the model */
    const char *kv2[] = {"mechanism=ldp", "sensitive=s", "qi=g", "p=0.6", "others=drop", "seed=1"};
    char *g2 = run("rr", kv2, 6);
    assert_non_null(strstr(g2, "\"model\":\"epsilon-LDP (data-dependent)\""));
    assert_non_null(strstr(g2, "\"data_dependent\":[\"domain (and with it the categories drawn and p): s\"]"));
    assert_non_null(strstr(g2, "\"not_covered\":[\"g\"]"));
    free(g);
    free(g2);
}

static void safela_epsilon(void **state)
{
    (void)state;
    /* Li, Qardaji, Su 2012: sampling with beta = 1/2 and a k-threshold
     * release, with the node chosen at eps' = 1 (penalty 2 >= 1/k): epsilon
     * = eps' - ln(1 - beta) = 1 + ln 2 = 1.6931471805599453 (rounded up) */
    const char *kv[] = {"qi=x:interval=4", "k=2", "beta=1/2", "epsilon-prime=1", "others=drop", "seed=1"};
    char *g = run("safela", kv, 6);
    double e = num(g, "epsilon");
    assert_true(e >= 1.0 + log(2.0) && e <= nextafter(nextafter(1.0 + log(2.0), 2), 2));
    assert_non_null(strstr(g, "\"model\":\"(beta,epsilon,delta)-DPS\""));
    assert_true(num(g, "beta") == 0.5);
    /* the value from the library, composed by the accountant: node choice
     * then the sampled release */
    keps_safela_params p = {.k = 2, .beta = "1/2", .epsilon_prime = 1, .epsilon = NAN, .penalty = 2};
    keps_safela_result r = {0};
    r.beta = 0.5;
    r.epsilon_prime_effective = 1;
    keps_error err;
    assert_int_equal(keps_safela_delta(2, 0.5, NAN, &r.delta, &err), KEPS_OK);
    keps_guarantee v;
    keps_safela_guarantee(&p, &r, &v);
    assert_int_equal(v.acct.nsteps, 2);
    assert_true(v.acct.steps[0].epsilon == 1);
    assert_true(keps_guarantee_value(&v, "epsilon") == e);
    assert_true(keps_guarantee_value(&v, "delta") == num(g, "delta"));
    free(g);
    keps_guarantee_free(&v);
}

static void dpmicro_columns(void **state)
{
    (void)state;
    /* univariate, two columns unlinked at epsilon 1: each column gets 1/2
     * (rounded down by its grid), the columns compose sequentially: at
     * most 1, within 2^-30 of it */
    const char *kv[] = {"mode=univariate", "unlink-columns=true", "qi=x", "qi=y", "k=2", "epsilon=1",
                        "bounds=x=0:10", "bounds=y=0:100", "others=keep", "seed=1"};
    char *g = run("dpmicro", kv, 10);
    double e = num(g, "epsilon");
    assert_true(e <= 1 && e > 1 - 0x1p-30);
    assert_non_null(strstr(g, "\"model\":\"epsilon-DP\""));
    assert_non_null(strstr(g, "\"not_covered\":[\"g\",\"s\"]"));
    assert_non_null(strstr(g, "\"bounds_from_data\":false"));
    /* bounds read from the data */
    const char *kv2[] = {"mode=multivariate", "qi=x", "qi=y", "k=2", "epsilon=1", "bounds=y=0:100", "others=drop",
                         "seed=1"};
    char *g2 = run("dpmicro", kv2, 8);
    assert_non_null(strstr(g2, "\"model\":\"epsilon-DP (data-dependent)\""));
    assert_non_null(strstr(g2, "\"data_dependent\":[\"bounds: x\"]"));
    assert_non_null(strstr(g2, "\"not_covered\":[]"));
    free(g);
    free(g2);
}

static void kepsilon_epsilon(void **state)
{
    (void)state;
    /* Holohan et al. 2017 with public bounds: b_j = m (hi_j - lo_j)/epsilon
     * per column, the m = 2 columns add up to epsilon = 1 per record (the
     * grid costs at most m 2^-39 above it), classes are disjoint */
    const char *kv[] = {"algorithm=given", "qi=g", "noisy=x", "noisy=y", "k=2", "epsilon=1", "scale=domain",
                        "bounds=x=0:10", "bounds=y=0:100", "others=drop", "seed=1"};
    char *g = run("kepsilon", kv, 11);
    double e = num(g, "epsilon");
    assert_true(e >= 1 && e <= 1 + 0x1p-37);
    assert_true(num(g, "k") == 2);
    assert_non_null(strstr(g, "\"model\":\"(k,epsilon)-anonymity\""));
    free(g);
}

static void criteria_models(void **state)
{
    (void)state;
    const char *kv[] = {"algorithm=mdav", "qi=x", "k=4", "others=drop"};
    char *g = run("anonymize", kv, 4);
    keps_guarantee v;
    keps_criteria_guarantee(&v, 4, NULL, NULL, 0, NULL, NULL);
    char *js = json_of(&v);
    assert_string_equal(g, "{\"model\":\"k-anonymity\",\"k\":4}");
    assert_string_equal(js, g);
    free(js);
    free(g);
    keps_guarantee_free(&v);
    /* two criteria: each listed with its parameters and column */
    const char *kv2[] = {"algorithm=ola", "qi=x:interval=4", "sensitive=s", "k=2", "l-diversity=2", "others=drop"};
    g = run("anonymize", kv2, 6);
    assert_non_null(strstr(g, "\"model\":\"k-anonymity + distinct-l-diversity\",\"k\":2,\"criteria\":[{\"model\":"
                              "\"k-anonymity\",\"k\":2},{\"model\":\"distinct-l-diversity\",\"column\":\"s\",\"l\":2}]"));
    free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(accountant_composition), cmocka_unit_test(noise_releases_compose),
        cmocka_unit_test(rr_ldp),                 cmocka_unit_test(safela_epsilon),
        cmocka_unit_test(dpmicro_columns),        cmocka_unit_test(kepsilon_epsilon),
        cmocka_unit_test(criteria_models),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
