/* ARX parity: keps's OLA and metrics against the expectations in ARX's own
 * unit tests (github.com/arx-deidentifier/arx), on the same data and
 * hierarchies. Expected values below are ARX's, copied from its test files
 * (the transformation arrays and loss strings its tests assert), never values
 * printed by keps.
 *
 * How ARX builds those tests (AbstractAnonymizationTest.getDataObject and
 * AbstractTestUtilityMetrics.getDataObject): every <data>_hierarchy_<ATTR>.csv
 * next to the data makes ATTR a quasi-identifier, except the test's
 * "sensitive attribute", which gets no type at all when the only criterion is
 * k-anonymity (so it is neither QI nor sensitive: insensitive for our
 * purpose). A transformation array lists the QIs' levels in the order of the
 * data header. The suppression limit is floor(s*N) rows; rows in classes
 * smaller than k are scored as suppressed whether or not the node stays
 * within the limit (ARX's per-node scores for non-anonymous nodes, e.g. the
 * bottom node, show this) -- as docs/spec.md 2 says.
 *
 * ARX metric -> keps quality model (keps_metric_config, keps/metrics.h):
 *   Precision(monotonic=false)        prec
 *   Precision(monotonic=true)         prec, monotonic
 *   Loss(gs, RANK aggregate)          loss, gs-factor gs, rank: the sorted vector ARX prints
 *   Discernability(monotonic=false)   dm
 *   Discernability(monotonic=true)    dm, monotonic (DM*)
 *   AECS                              aecs
 *   Entropy(monotonic=false), and     entropy
 *   createEntropyMetric() (its default)
 *   Entropy(monotonic=true)           entropy, monotonic
 *   Height                            height (sum of the levels)
 *
 * cup (ARX's KDD Cup 1998 benchmark set) may not be redistributed, so it
 * is never committed: those tests read $KEPS_SHARED_DATA/cup (default:
 * <source dir>/../shared/data/cup) and skip with a message when it is absent. fars: ARX's expectations are for the full
 * fars.csv (100,937 rows), which is not available (only a 10% subset), so
 * none can be checked. */
#include "testutil.h"

#include <string.h>
#include <unistd.h>

#include "keps/csv.h"
#include "keps/ola.h"

/* ---------------------------------------------------------------- data */

typedef struct dataset {
    keps_table *t;
    keps_schema *s;
    keps_lattice *L;
    keps_metrics *m;
    keps_lattice_work *w;
} dataset;

static const char *const adult_qi9[] = {"sex", "age", "race", "marital-status", "education",
                                        "native-country", "workclass", "occupation", "salary-class"};
/* "occupation" is the sensitive attribute of ARX's utility-metric tests. */
static const char *const adult_qi8[] = {"sex", "age", "race", "marital-status", "education",
                                        "native-country", "workclass", "salary-class"};
static const char *const cup_qi8[] = {"ZIP", "AGE", "GENDER", "INCOME", "STATE", "RAMNTALL", "NGIFTALL", "MINRAMNT"};
/* "RAMNTALL" is the sensitive attribute of ARX's utility-metric tests. */
static const char *const cup_qi7[] = {"ZIP", "AGE", "GENDER", "INCOME", "STATE", "NGIFTALL", "MINRAMNT"};

/* dir/name.csv with hierarchies dir/name_hierarchy_<QI>.csv, except QI
 * alt_qi (if not NULL), whose hierarchy is read from alt_path. */
static void ds_load_alt(dataset *d, const char *dir, const char *name, const char *const *qi, size_t nq,
                        const char *alt_qi, const char *alt_path)
{
    char path[1024];
    keps_error err = {0};
    memset(d, 0, sizeof *d);
    assert_true(snprintf(path, sizeof path, "%s/%s.csv", dir, name) < (int)sizeof path);
    assert_int_equal(keps_csv_read(path, NULL, &d->t, &err), KEPS_OK);
    d->s = keps_schema_new(d->t);
    for (size_t i = 0; i < nq; i++) {
        int n;
        if (alt_qi && strcmp(qi[i], alt_qi) == 0)
            n = snprintf(path, sizeof path, "%s:%s", qi[i], alt_path);
        else
            n = snprintf(path, sizeof path, "%s:%s/%s_hierarchy_%s.csv", qi[i], dir, name, qi[i]);
        assert_true(n < (int)sizeof path);
        if (keps_schema_add_qi(d->s, d->t, path, &err) != KEPS_OK)
            fail_msg("%s", err.msg);
    }
    assert_int_equal(keps_lattice_new(d->s, &d->L, &err), KEPS_OK);
    d->m = keps_metrics_new(d->L);
    d->w = keps_lattice_work_new(d->L);
    assert_non_null(d->m);
    assert_non_null(d->w);
}

static void ds_load(dataset *d, const char *dir, const char *name, const char *const *qi, size_t nq)
{
    ds_load_alt(d, dir, name, qi, nq, NULL, NULL);
}

static void ds_free(dataset *d)
{
    keps_lattice_work_free(d->w);
    keps_metrics_free(d->m);
    keps_lattice_free(d->L);
    keps_schema_free(d->s);
    keps_table_free(d->t);
}

/* Bundled adult; with old_country, native-country gets the hierarchy ARX's
 * data folder had in 2016 (tests/arx/adult_hierarchy_native-country_2016.csv:
 * identical to data/adult's except "England;Europa;*", a typo that put
 * England alone in a level-1 group "Europa"; later corrected to "Europe").
 * ARX's TestUtilityMetrics expectations were computed with it: every
 * expected score at a node with native-country at level 1 matches only
 * with that hierarchy, all others match with either. */
static void load_adult(dataset *d, const char *const *qi, size_t nq, int old_country)
{
    char dir[1024], alt[1100];
    snprintf(dir, sizeof dir, "%s/data/adult", KEPS_SOURCE_DIR);
    snprintf(alt, sizeof alt, "%s/tests/arx/adult_hierarchy_native-country_2016.csv", KEPS_SOURCE_DIR);
    ds_load_alt(d, dir, "adult", qi, nq, old_country ? "native-country" : NULL, alt);
    assert_int_equal(d->t->nrows, 30162);
}

/* Set when a test found no cup data: the run then ends with exit 77, which
 * ctest reports as skipped (tests/CMakeLists.txt), not as passed. */
static int missing_data;

/* Directory of the shared cup data, or NULL (and a message) if absent. */
static const char *cup_dir(void)
{
    static char dir[1024];
    const char *base = getenv("KEPS_SHARED_DATA");
    if (base && *base)
        snprintf(dir, sizeof dir, "%s/cup", base);
    else
        snprintf(dir, sizeof dir, "%s/../shared/data/cup", KEPS_SOURCE_DIR);
    char f[1100];
    snprintf(f, sizeof f, "%s/cup.csv", dir);
    if (access(f, R_OK) != 0) {
        printf("skipped: %s not found (cup is not redistributable; set KEPS_SHARED_DATA to the folder "
               "holding cup/)\n",
               f);
        missing_data = 1;
        return NULL;
    }
    return dir;
}

/* cup with these QIs; 0 (the test is skipped) when the data is absent. */
static int load_cup(dataset *d, const char *const *qi, size_t nq)
{
    const char *dir = cup_dir();
    if (!dir)
        return 0;
    ds_load(d, dir, "cup", qi, nq);
    assert_int_equal(d->t->nrows, 63441);
    return 1;
}

/* "[1, 0, 2]" -> levels; checks the count. */
static void parse_levels(const char *s, int *lv, size_t q)
{
    size_t n = 0;
    assert_true(*s == '[');
    for (s++; *s && *s != ']'; n++) {
        char *end;
        long v = strtol(s, &end, 10);
        assert_true(end != s && n < q);
        lv[n] = (int)v;
        s = end;
        while (*s == ',' || *s == ' ')
            s++;
    }
    assert_int_equal(n, q);
}

/* Classes of a node, rolled up from the bottom. */
static void node_classes(dataset *d, const int *lv, keps_node_classes *c)
{
    keps_node_classes_init(c);
    assert_int_equal(keps_lattice_rollup(d->L, d->w, NULL, lv, c, NULL), KEPS_OK);
}

/* ------------------------------------------------- per-node metric values */

typedef enum {
    ARX_PREC_NM, /* Precision(false) */
    ARX_PREC_M,  /* Precision(true) */
    ARX_LOSS_RANK,
    ARX_DM_NM,
    ARX_DM_M,
    ARX_AECS,
    ARX_ENT_NM, /* Entropy(false) and Entropy() */
    ARX_ENT_M,
    ARX_HEIGHT
} arx_metric;

static const char *const arx_names[] = {"Precision(false)", "Precision(true)", "Loss(RANK)",    "Discernability(false)",
                                        "Discernability(true)", "AECS",       "Entropy(false)", "Entropy(true)",
                                        "Height"};

/* keps's quality model for ARX metric am (ARX's defaults otherwise). */
static keps_metric_config arx_config(arx_metric am)
{
    static const keps_metric of[] = {KEPS_METRIC_PREC, KEPS_METRIC_PREC, KEPS_METRIC_LOSS,
                                     KEPS_METRIC_DM,   KEPS_METRIC_DM,   KEPS_METRIC_AECS,
                                     KEPS_METRIC_ENTROPY, KEPS_METRIC_ENTROPY, KEPS_METRIC_HEIGHT};
    keps_metric_config c = keps_metric_config_default(of[am]);
    c.monotonic = am == ARX_PREC_M || am == ARX_DM_M || am == ARX_ENT_M;
    if (am == ARX_LOSS_RANK)
        c.aggregate = KEPS_AGGREGATE_RANK;
    return c;
}

/* keps's score of ARX metric am at node lv (k, classes c) into out;
 * returns its length. */
static size_t keps_value(const dataset *d, arx_metric am, const int *lv, const keps_node_classes *c, size_t k,
                         double *out)
{
    keps_metric_config cfg = arx_config(am);
    keps_error err = {0};
    keps_metrics *m = keps_metrics_new_objective(d->L, &cfg, &err);
    assert_non_null(m);
    size_t len = keps_metrics_score_len(m);
    keps_metrics_objective(m, lv, c, k, out);
    keps_metrics_free(m);
    return len;
}

/* An ARX score as its tests print it: "0.375", "4.63536157E8" or a
 * vector "[1.0, 0.3843909555, ...]"; returns the count. */
static size_t parse_score(const char *s, double *out, size_t max)
{
    size_t n = 0;
    int vec = *s == '[';
    for (s += vec; *s && *s != ']'; n++) {
        char *end;
        assert_true(n < max);
        out[n] = strtod(s, &end);
        assert_true(end != s);
        s = end;
        while (*s == ',' || *s == ' ')
            s++;
    }
    return n;
}

/* One ARX utility-metric test case: the metric, k and the list of
 * (transformation, expected score) string pairs as ARX writes them. */
typedef struct metric_case {
    const char *id; /* "TestUtilityMetrics case N" */
    arx_metric am;
    size_t k;
    const char *const *pairs; /* NULL-terminated */
} metric_case;

/* ARX's tolerance in AbstractTestUtilityMetrics is 1e-8 absolute; keps sums
 * in another order, so large entropies differ in the last bits: allow the
 * larger of 1e-8 and 1e-13 relative. */
static int arx_close(double got, double want)
{
    double tol = fabs(want) * 1e-13;
    return got == want || fabs(got - want) <= (tol > 1e-8 ? tol : 1e-8);
}

/* The same for scores of length n. */
static int arx_close_all(const double *got, const double *want, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!arx_close(got[i], want[i]))
            return 0;
    return 1;
}

/* keps's score of ARX pair p (transformation, expected) of case mc on d
 * matches ARX's? (First entries in *got and *want.) */
static int pair_matches(dataset *d, const metric_case *mc, const char *const *p, double *got, double *want)
{
    int lv[16];
    double g[16], w[16];
    parse_levels(p[0], lv, d->L->q);
    keps_node_classes c;
    node_classes(d, lv, &c);
    size_t n = keps_value(d, mc->am, lv, &c, mc->k, g);
    assert_int_equal(parse_score(p[1], w, 16), n);
    keps_node_classes_free(&c);
    *got = g[0];
    *want = w[0];
    for (size_t i = 0; i < n; i++)
        if (!arx_close(g[i], w[i])) {
            *got = g[i];
            *want = w[i];
        }
    return arx_close_all(g, w, n);
}

/* Every expected score must match keps's on d, or (if alt is not NULL) on
 * alt; *nalt counts those that need alt. Returns the number matching
 * neither (printed). */
static int check_metric_cases(dataset *d, dataset *alt, const metric_case *mc, size_t n, int *nalt)
{
    int bad = 0;
    *nalt = 0;
    for (size_t i = 0; i < n; i++)
        for (const char *const *p = mc[i].pairs; *p; p += 2) {
            double got, want, got2;
            if (pair_matches(d, &mc[i], p, &got, &want))
                continue;
            if (alt && pair_matches(alt, &mc[i], p, &got2, &want)) {
                printf("%s %s: matches with the 2016 native-country hierarchy\n", mc[i].id, p[0]);
                ++*nalt;
                continue;
            }
            fprintf(stderr, "%s %s %s: ARX %.17g, keps %.17g\n", mc[i].id, arx_names[mc[i].am], p[0], want, got);
            bad++;
        }
    return bad;
}

/* arx-deidentifier/arx, src/test/org/deidentifier/arx/test/TestUtilityMetrics.java
 * at commit 254ae0d205274c1bbfd31fa1fb330c92f1b28d3c: the cases whose only
 * criterion is KAnonymity(5) on ./data/adult.csv, sensitive attribute
 * "occupation" (so 8 QIs). The suppression limit does not enter the per-node
 * scores (ARX scores every node with its classes < k suppressed), but the
 * cases are kept apart as ARX lists them. */
/* case 4: create(0.0, AECS) */
static const char *const um4[] = {"[0, 0, 0, 0, 0, 0, 0, 0]", "29.113899613899616", "[0, 3, 1, 0, 0, 1, 1, 0]", "53.38407079646018", "[1, 2, 1, 2, 0, 2, 0, 1]", "93.96261682242991", "[1, 1, 1, 1, 3, 2, 2, 1]", "1005.4", "[1, 4, 1, 0, 3, 1, 2, 1]", "1040.0689655172414", "[0, 3, 1, 2, 3, 1, 2, 1]", "773.3846153846154", "[1, 2, 1, 1, 3, 2, 2, 1]", "1885.125", "[1, 4, 1, 1, 3, 2, 2, 0]", "7540.5", "[1, 4, 1, 2, 3, 1, 2, 1]", "5027.0", "[1, 4, 1, 2, 3, 2, 2, 1]", "30162.0", NULL};
/* case 9: create(0.05, AECS) */
static const char *const um9[] = {"[0, 0, 0, 0, 0, 0, 0, 0]", "29.113899613899616", "[0, 1, 1, 0, 0, 0, 0, 0]", "30.683621566632755", "[0, 0, 0, 0, 2, 1, 2, 0]", "30.344064386317907", "[0, 1, 1, 2, 1, 0, 0, 1]", "63.76744186046512", "[0, 4, 1, 0, 1, 0, 0, 1]", "97.6116504854369", "[1, 4, 1, 0, 2, 0, 1, 0]", "160.43617021276594", "[1, 3, 0, 2, 2, 0, 2, 0]", "150.81", "[0, 3, 1, 0, 3, 2, 1, 1]", "363.3975903614458", "[1, 1, 0, 2, 3, 2, 2, 1]", "520.0344827586207", "[1, 4, 1, 2, 3, 2, 2, 1]", "30162.0", NULL};
/* case 23: create(0.0, Entropy(false)) */
static const char *const um23[] = {"[0, 0, 0, 0, 0, 0, 0, 0]", "268778.22471939825", "[0, 1, 0, 1, 0, 2, 1, 1]", "199996.96695661292", "[0, 2, 1, 2, 2, 0, 0, 0]", "253206.5135958653", "[0, 2, 0, 2, 3, 2, 2, 1]", "331905.60100801825", "[1, 4, 1, 1, 2, 2, 2, 0]", "368439.26393309573", "[0, 4, 1, 2, 3, 2, 0, 1]", "385895.4270913376", "[1, 4, 1, 1, 2, 2, 2, 1]", "392857.38858687796", "[1, 3, 1, 1, 3, 2, 2, 1]", "379458.17719685636", "[1, 2, 1, 2, 3, 2, 2, 1]", "382559.9421471483", "[1, 4, 1, 2, 3, 2, 2, 1]", "455884.9365769584", NULL};
/* case 28: create(0.05, Entropy(false)) */
static const char *const um28[] = {"[0, 0, 0, 0, 0, 0, 0, 0]", "268778.22471939825", "[0, 1, 0, 1, 0, 1, 0, 1]", "206422.97000364092", "[0, 3, 1, 0, 0, 0, 0, 1]", "225818.85565423348", "[1, 1, 1, 0, 1, 1, 0, 1]", "220123.80427676294", "[1, 0, 0, 1, 2, 2, 0, 1]", "198394.0850062312", "[0, 1, 0, 0, 1, 2, 2, 1]", "213938.9707150555", "[0, 4, 0, 0, 3, 1, 0, 0]", "281197.88251886255", "[1, 4, 1, 0, 1, 1, 0, 1]", "299805.4349351586", "[1, 3, 1, 2, 1, 2, 0, 1]", "315247.228170622", "[1, 4, 1, 2, 3, 2, 2, 1]", "455884.9365769584", NULL};
/* case 42: create(0.0, Discernability(false)) */
static const char *const um42[] = {"[0, 0, 0, 0, 0, 0, 0, 0]", "4.63536157E8", "[0, 0, 1, 0, 3, 2, 0, 0]", "1.10335369E8", "[1, 2, 0, 2, 2, 1, 0, 0]", "5.4541529E7", "[1, 4, 1, 0, 0, 1, 2, 0]", "5.2791351E7", "[1, 4, 1, 0, 3, 1, 2, 0]", "1.85428139E8", "[1, 4, 1, 2, 3, 1, 2, 0]", "5.20780604E8", "[0, 4, 1, 2, 3, 2, 1, 1]", "3.8959458E8", "[0, 4, 0, 2, 3, 2, 2, 1]", "3.92187826E8", "[1, 4, 0, 2, 3, 2, 2, 1]", "6.8139216E8", "[1, 4, 1, 2, 3, 2, 2, 1]", "9.09746244E8", NULL};
/* case 47: create(0.05, Discernability(false)) */
static const char *const um47[] = {"[0, 0, 0, 0, 0, 0, 0, 0]", "4.63536157E8", "[0, 0, 1, 0, 3, 0, 0, 0]", "1.7590937E8", "[1, 2, 0, 0, 1, 1, 0, 1]", "8.1138574E7", "[1, 1, 0, 1, 3, 0, 1, 0]", "7.7668128E7", "[1, 2, 0, 2, 0, 1, 1, 0]", "6.2223871E7", "[0, 3, 1, 1, 1, 2, 0, 0]", "3.4129719E7", "[1, 0, 0, 2, 2, 2, 1, 0]", "4.7522592E7", "[1, 4, 1, 1, 0, 1, 1, 0]", "5.96868E7", "[1, 2, 1, 1, 3, 1, 1, 1]", "7.6074385E7", "[1, 4, 1, 2, 3, 2, 2, 1]", "9.09746244E8", NULL};
/* case 61: create(0.0, Discernability(true)) */
static const char *const um61[] = {"[0, 0, 0, 0, 0, 0, 0, 0]", "485542.0", "[1, 1, 0, 1, 0, 2, 0, 0]", "4426432.0", "[1, 0, 1, 1, 3, 2, 2, 0]", "8461812.0", "[1, 4, 1, 1, 2, 2, 0, 0]", "9.6950278E7", "[0, 4, 1, 1, 1, 2, 2, 1]", "1.01990664E8", "[1, 4, 1, 2, 2, 2, 1, 0]", "2.1530661E8", "[1, 4, 1, 1, 3, 2, 0, 1]", "2.60892746E8", "[1, 4, 1, 2, 3, 2, 2, 0]", "5.6957378E8", "[1, 3, 1, 2, 3, 2, 2, 1]", "3.6770985E8", "[1, 4, 1, 2, 3, 2, 2, 1]", "9.09746244E8", NULL};
/* case 66: create(0.05, Discernability(true)) */
static const char *const um66[] = {"[0, 0, 0, 0, 0, 0, 0, 0]", "485542.0", "[1, 1, 1, 2, 2, 0, 0, 0]", "1.7040684E7", "[1, 4, 0, 1, 0, 0, 0, 1]", "3.5514078E7", "[0, 1, 1, 0, 2, 2, 0, 1]", "8651570.0", "[1, 4, 0, 0, 0, 0, 1, 1]", "3.3004132E7", "[0, 3, 1, 1, 0, 0, 2, 1]", "2.1394404E7", "[0, 3, 0, 2, 2, 0, 2, 0]", "4.4390778E7", "[0, 4, 1, 1, 2, 0, 1, 1]", "9.1157482E7", "[1, 3, 1, 0, 3, 0, 2, 1]", "1.18940424E8", "[1, 4, 1, 2, 3, 2, 2, 1]", "9.09746244E8", NULL};
/* case 80: create(0.0, Entropy()) */
static const char *const um80[] = {"[0, 0, 0, 0, 0, 0, 0, 0]", "268778.22471939825", "[0, 2, 1, 0, 2, 2, 2, 1]", "268749.92540448345", "[0, 4, 1, 0, 3, 2, 0, 1]", "331120.2523649918", "[1, 4, 1, 0, 1, 1, 2, 1]", "339228.0442261357", "[1, 1, 1, 1, 2, 2, 2, 1]", "291680.2013216374", "[1, 4, 1, 2, 3, 2, 0, 0]", "388894.9425140205", "[0, 4, 1, 2, 1, 2, 2, 1]", "376288.0867932696", "[1, 4, 1, 0, 2, 2, 2, 1]", "368037.49418958207", "[0, 4, 1, 0, 3, 2, 2, 1]", "373580.1797833488", "[1, 4, 1, 2, 3, 2, 2, 1]", "455884.9365769584", NULL};
/* case 84: create(0.05, Entropy()) */
static const char *const um84[] = {"[0, 0, 0, 0, 0, 0, 0, 0]", "268778.22471939825", "[0, 3, 1, 0, 0, 0, 0, 1]", "225818.85565423348", "[1, 2, 0, 0, 1, 1, 1, 0]", "223416.79870184092", "[1, 2, 1, 1, 1, 1, 0, 0]", "235786.62938634216", "[1, 0, 0, 0, 3, 1, 2, 0]", "203181.11213947207", "[1, 3, 0, 1, 2, 0, 0, 1]", "275372.98294157453", "[0, 4, 0, 2, 3, 0, 0, 0]", "321182.9796059437", "[0, 3, 0, 1, 3, 1, 0, 1]", "282149.48034623684", "[1, 1, 1, 0, 3, 2, 1, 1]", "282532.98778791947", "[1, 4, 1, 2, 3, 2, 2, 1]", "455884.9365769584", NULL};
/* case 118: create(0.0, Loss(RANK)) */
static const char *const um118[] = {"[0, 0, 0, 0, 0, 0, 0, 0]", "[0.5090179696, 0.5090179696, 0.5090179696, 0.5090179696, 0.5090179696, 0.5090179696, 0.5090179696, 0.5090179696]", "[0, 0, 0, 2, 0, 0, 0, 0]", "[1.0, 0.3843909555, 0.3843909555, 0.3843909555, 0.3843909555, 0.3843909555, 0.3843909555, 0.3843909555]", "[0, 3, 1, 1, 1, 1, 0, 0]", "[1.0, 0.4535066198, 0.299545786, 0.220264444, 0.2196339765, 0.0350772495, 0.0350772495, 0.0350772495]", "[1, 4, 1, 0, 1, 2, 2, 1]", "[1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.1899012001, 6.63086E-5]", "[0, 4, 1, 2, 3, 2, 1, 0]", "[1.0, 1.0, 1.0, 1.0, 1.0, 0.2856479771, 0.0, 0.0]", "[0, 4, 1, 1, 3, 1, 2, 1]", "[1.0, 1.0, 1.0, 1.0, 1.0, 0.4331609309, 0.271754194, 0.0]", "[0, 4, 1, 2, 1, 2, 2, 1]", "[1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.1898437327, 0.0]", "[0, 3, 0, 2, 3, 2, 2, 1]", "[1.0, 1.0, 1.0, 1.0, 1.0, 0.1924014362, 5.967774E-4, 5.967774E-4]", "[0, 4, 0, 2, 3, 2, 2, 1]", "[1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0]", "[1, 4, 1, 2, 3, 2, 2, 1]", "[1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]", NULL};
/* case 123: create(0.05, Loss(RANK)) */
static const char *const um123[] = {"[0, 0, 0, 0, 0, 0, 0, 0]", "[0.5090179696, 0.5090179696, 0.5090179696, 0.5090179696, 0.5090179696, 0.5090179696, 0.5090179696, 0.5090179696]", "[1, 1, 1, 0, 1, 0, 1, 1]", "[1.0, 1.0, 1.0, 0.3444921234, 0.258026656, 0.1193682062, 0.0822889728, 0.0822889728]", "[1, 3, 1, 0, 1, 0, 1, 0]", "[1.0, 1.0, 0.3280807449, 0.2398489235, 0.2391132329, 0.0593130429, 0.0593130429, 0.0593130429]", "[1, 0, 1, 0, 1, 2, 2, 0]", "[1.0, 1.0, 1.0, 1.0, 0.2449218663, 0.0648166567, 0.0648166567, 0.0648166567]", "[0, 2, 1, 1, 1, 1, 1, 1]", "[1.0, 1.0, 0.4441902614, 0.2991180956, 0.287697268, 0.2057865305, 0.1079684853, 0.0187653338]", "[0, 0, 0, 2, 2, 2, 1, 1]", "[1.0, 1.0, 1.0, 0.4042592224, 0.3257599439, 0.0560639214, 0.0560639214, 0.0560639214]", "[1, 2, 1, 0, 3, 0, 1, 1]", "[1.0, 1.0, 1.0, 1.0, 0.3107694639, 0.1227974995, 0.0350772495, 0.0350772495]", "[1, 4, 1, 2, 3, 2, 2, 1]", "[1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]", NULL};
/* case 137: create(0.0, Precision(false)) */
static const char *const um137[] = {"[0, 0, 0, 0, 0, 0, 0, 0]", "0.5090179696306611", "[0, 0, 0, 2, 1, 2, 0, 0]", "0.45063186570298164", "[1, 0, 0, 1, 2, 1, 2, 1]", "0.6099534734655084", "[0, 0, 1, 2, 3, 2, 2, 1]", "0.75018234865062", "[0, 4, 1, 1, 1, 2, 2, 1]", "0.7291666666666667", "[1, 4, 1, 2, 2, 2, 1, 0]", "0.7708713226355458", "[1, 4, 1, 0, 3, 2, 2, 0]", "0.75", "[1, 1, 1, 2, 3, 2, 2, 1]", "0.90625", "[1, 4, 1, 2, 3, 2, 0, 1]", "0.875", "[1, 4, 1, 2, 3, 2, 2, 1]", "1.0", NULL};
/* case 142: create(0.05, Precision(false)) */
static const char *const um142[] = {"[0, 0, 0, 0, 0, 0, 0, 0]", "0.5090179696306611", "[0, 1, 0, 0, 0, 0, 1, 0]", "0.30136844373715277", "[1, 0, 0, 1, 2, 0, 0, 0]", "0.4293488771743695", "[0, 1, 0, 0, 3, 0, 0, 0]", "0.27206211458126117", "[0, 3, 0, 0, 0, 2, 1, 0]", "0.34258752735229764", "[0, 4, 0, 2, 1, 0, 0, 0]", "0.3254370841898194", "[0, 4, 0, 1, 1, 1, 0, 0]", "0.31510399398802025", "[1, 4, 0, 2, 1, 0, 1, 0]", "0.4917894757200008", "[0, 4, 1, 1, 3, 1, 0, 1]", "0.626467077779988", "[1, 4, 1, 2, 3, 2, 2, 1]", "1.0", NULL};
/* case 156: create(0.0, Precision(true)) */
static const char *const um156[] = {"[0, 0, 0, 0, 0, 0, 0, 0]", "0.0", "[0, 4, 1, 1, 1, 1, 0, 1]", "0.5416666666666667", "[1, 3, 1, 0, 1, 2, 2, 0]", "0.6354166666666667", "[0, 4, 1, 0, 2, 2, 2, 1]", "0.7083333333333333", "[0, 4, 1, 2, 3, 2, 1, 0]", "0.6875", "[0, 4, 1, 1, 3, 2, 2, 0]", "0.6875", "[1, 4, 1, 2, 2, 2, 0, 1]", "0.8333333333333334", "[1, 4, 0, 2, 2, 2, 2, 1]", "0.8333333333333333", "[1, 4, 1, 2, 3, 2, 2, 1]", "1.0", NULL};
/* case 161: create(0.05, Precision(true)) */
static const char *const um161[] = {"[0, 0, 0, 0, 0, 0, 0, 0]", "0.0", "[0, 0, 1, 0, 0, 1, 2, 0]", "0.3125", "[1, 1, 1, 0, 0, 0, 2, 0]", "0.40625", "[1, 0, 0, 1, 3, 2, 1, 0]", "0.5", "[1, 3, 0, 0, 2, 0, 2, 0]", "0.4270833333333333", "[0, 2, 1, 1, 1, 2, 0, 1]", "0.5416666666666667", "[0, 2, 1, 1, 1, 0, 2, 1]", "0.5416666666666667", "[0, 2, 0, 2, 2, 1, 2, 0]", "0.4583333333333333", "[0, 4, 0, 0, 1, 1, 2, 1]", "0.47916666666666663", "[1, 4, 1, 2, 3, 2, 2, 1]", "1.0", NULL};

/* arx-deidentifier/arx v3.9.2, TestUtilityMetrics2.java (the same setup as
 * TestUtilityMetrics, other transformations; Entropy(true) where
 * TestUtilityMetrics has Entropy()) and TestUtilityMetrics.java's Height
 * cases: the adult cases whose only criterion is KAnonymity(5). */
/* TestUtilityMetrics2 case 4: create(0.0, AECS) */
static const char *const um2_4[] = {"[0, 0, 0, 0, 0, 0, 0, 0]", "29.113899613899616", "[0, 3, 1, 0, 0, 1, 1, 0]", "53.76470588235294", "[1, 2, 1, 2, 0, 2, 0, 1]", "93.96261682242991", "[1, 1, 1, 1, 3, 2, 2, 1]", "1005.4", "[1, 4, 1, 0, 3, 1, 2, 1]", "942.5625", "[0, 3, 1, 2, 3, 1, 2, 1]", "773.3846153846154", "[1, 2, 1, 1, 3, 2, 2, 1]", "1885.125", "[1, 4, 1, 1, 3, 2, 2, 0]", "7540.5", "[1, 4, 1, 2, 3, 1, 2, 1]", "5027.0", "[1, 4, 1, 2, 3, 2, 2, 1]", "30162.0", NULL};
/* TestUtilityMetrics2 case 9: create(0.05, AECS) */
static const char *const um2_9[] = {"[0, 0, 0, 0, 0, 0, 0, 0]", "29.113899613899616", "[0, 1, 1, 0, 0, 0, 0, 0]", "30.683621566632755", "[0, 0, 0, 0, 2, 1, 2, 0]", "30.37462235649547", "[0, 1, 1, 2, 1, 0, 0, 1]", "63.76744186046512", "[0, 4, 1, 0, 1, 0, 0, 1]", "97.6116504854369", "[1, 4, 1, 0, 2, 0, 1, 0]", "160.43617021276594", "[1, 3, 0, 2, 2, 0, 2, 0]", "150.81", "[0, 3, 1, 0, 3, 2, 1, 1]", "363.3975903614458", "[1, 1, 0, 2, 3, 2, 2, 1]", "520.0344827586207", "[1, 4, 1, 2, 3, 2, 2, 1]", "30162.0", NULL};
/* TestUtilityMetrics2 case 28: create(0.05, Entropy(false)) */
static const char *const um2_28[] = {"[0, 0, 0, 0, 0, 0, 0, 0]", "268778.22471939825", "[0, 1, 0, 1, 0, 1, 0, 1]", "206871.187629197", "[0, 3, 1, 0, 0, 0, 0, 1]", "225818.85565423348", "[1, 1, 1, 0, 1, 1, 0, 1]", "220123.80427676294", "[1, 0, 0, 1, 2, 2, 0, 1]", "198394.0850062312", "[0, 1, 0, 0, 1, 2, 2, 1]", "213938.9707150555", "[0, 4, 0, 0, 3, 1, 0, 0]", "281197.88251886255", "[1, 4, 1, 0, 1, 1, 0, 1]", "299805.4349351586", "[1, 3, 1, 2, 1, 2, 0, 1]", "315247.228170622", "[1, 4, 1, 2, 3, 2, 2, 1]", "455884.9365769584", NULL};
/* TestUtilityMetrics2 case 42: create(0.0, Discernability(false)) */
static const char *const um2_42[] = {"[0, 0, 0, 0, 0, 0, 0, 0]", "4.63536157E8", "[0, 0, 1, 0, 3, 2, 0, 0]", "1.10335369E8", "[1, 2, 0, 2, 2, 1, 0, 0]", "5.5896618E7", "[1, 4, 1, 0, 0, 1, 2, 0]", "5.2791351E7", "[1, 4, 1, 0, 3, 1, 2, 0]", "1.85428139E8", "[1, 4, 1, 2, 3, 1, 2, 0]", "5.20780604E8", "[0, 4, 1, 2, 3, 2, 1, 1]", "3.8959458E8", "[0, 4, 0, 2, 3, 2, 2, 1]", "3.92187826E8", "[1, 4, 0, 2, 3, 2, 2, 1]", "6.8139216E8", "[1, 4, 1, 2, 3, 2, 2, 1]", "9.09746244E8", NULL};
/* TestUtilityMetrics2 case 47: create(0.05, Discernability(false)) */
static const char *const um2_47[] = {"[0, 0, 0, 0, 0, 0, 0, 0]", "4.63536157E8", "[0, 0, 1, 0, 3, 0, 0, 0]", "1.7590937E8", "[1, 2, 0, 0, 1, 1, 0, 1]", "8.2826744E7", "[1, 1, 0, 1, 3, 0, 1, 0]", "7.7668128E7", "[1, 2, 0, 2, 0, 1, 1, 0]", "6.2223871E7", "[0, 3, 1, 1, 1, 2, 0, 0]", "3.4129719E7", "[1, 0, 0, 2, 2, 2, 1, 0]", "4.7522592E7", "[1, 4, 1, 1, 0, 1, 1, 0]", "5.96868E7", "[1, 2, 1, 1, 3, 1, 1, 1]", "7.6074385E7", "[1, 4, 1, 2, 3, 2, 2, 1]", "9.09746244E8", NULL};
/* TestUtilityMetrics2 case 80: create(0.0, Entropy(true)) */
static const char *const um2_80[] = {"[0, 0, 0, 0, 0, 0, 0, 0]", "0.0", "[0, 2, 1, 0, 2, 2, 2, 1]", "267294.8596833069", "[0, 4, 1, 0, 3, 2, 0, 1]", "331008.3103741931", "[1, 4, 1, 0, 1, 1, 2, 1]", "338257.19469914096", "[1, 1, 1, 1, 2, 2, 2, 1]", "291660.2013216374", "[1, 4, 1, 2, 3, 2, 0, 0]", "388894.9425140205", "[0, 4, 1, 2, 1, 2, 2, 1]", "376288.0867932696", "[1, 4, 1, 0, 2, 2, 2, 1]", "368037.49418958207", "[0, 4, 1, 0, 3, 2, 2, 1]", "373580.1797833488", "[1, 4, 1, 2, 3, 2, 2, 1]", "455884.9365769584", NULL};
/* TestUtilityMetrics2 case 85: create(0.05, Entropy(true)) */
static const char *const um2_85[] = {"[0, 0, 0, 0, 0, 0, 0, 0]", "0.0", "[0, 3, 1, 0, 0, 0, 0, 1]", "171691.4825658487", "[1, 2, 0, 0, 1, 1, 1, 0]", "199172.2955443909", "[1, 2, 1, 1, 1, 1, 0, 0]", "222762.1006036889", "[1, 0, 0, 0, 3, 1, 2, 0]", "172385.3847802626", "[1, 3, 0, 1, 2, 0, 0, 1]", "255464.0788309843", "[0, 4, 0, 2, 3, 0, 0, 0]", "313015.3991510708", "[0, 3, 0, 1, 3, 1, 0, 1]", "275532.2169852656", "[1, 1, 1, 0, 3, 2, 1, 1]", "281833.8877959363", "[1, 4, 1, 2, 3, 2, 2, 1]", "455884.9365769584", NULL};
/* TestUtilityMetrics2 case 118: create(0.0, Loss(RANK)) */
static const char *const um2_118[] = {"[0, 0, 0, 0, 0, 0, 0, 0]", "[0.5090179696, 0.5090179696, 0.5090179696, 0.5090179696, 0.5090179696, 0.5090179696, 0.5090179696, 0.5090179696]", "[0, 0, 0, 2, 0, 0, 0, 0]", "[1.0, 0.3843909555, 0.3843909555, 0.3843909555, 0.3843909555, 0.3843909555, 0.3843909555, 0.3843909555]", "[0, 3, 1, 1, 1, 1, 0, 0]", "[1.0, 0.454827266, 0.3009233472, 0.2220594647, 0.221488407, 0.0372985876, 0.0372985876, 0.0372985876]", "[1, 4, 1, 0, 1, 2, 2, 1]", "[1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.1899012001, 6.63086E-5]", "[0, 4, 1, 2, 3, 2, 1, 0]", "[1.0, 1.0, 1.0, 1.0, 1.0, 0.2856479771, 0.0, 0.0]", "[0, 4, 1, 1, 3, 1, 2, 1]", "[1.0, 1.0, 1.0, 1.0, 1.0, 0.4331609309, 0.271754194, 0.0]", "[0, 4, 1, 2, 1, 2, 2, 1]", "[1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.1898437327, 0.0]", "[0, 3, 0, 2, 3, 2, 2, 1]", "[1.0, 1.0, 1.0, 1.0, 1.0, 0.1924014362, 5.967774E-4, 5.967774E-4]", "[0, 4, 0, 2, 3, 2, 2, 1]", "[1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0]", "[1, 4, 1, 2, 3, 2, 2, 1]", "[1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]", NULL};
/* TestUtilityMetrics2 case 123: create(0.05, Loss(RANK)) */
static const char *const um2_123[] = {"[0, 0, 0, 0, 0, 0, 0, 0]", "[0.5090179696, 0.5090179696, 0.5090179696, 0.5090179696, 0.5090179696, 0.5090179696, 0.5090179696, 0.5090179696]", "[1, 1, 1, 0, 1, 0, 1, 1]", "[1.0, 1.0, 1.0, 0.3444921234, 0.258026656, 0.1193682062, 0.0822889728, 0.0822889728]", "[1, 3, 1, 0, 1, 0, 1, 0]", "[1.0, 1.0, 0.3280807449, 0.2398489235, 0.2391132329, 0.0593130429, 0.0593130429, 0.0593130429]", "[1, 0, 1, 0, 1, 2, 2, 0]", "[1.0, 1.0, 1.0, 1.0, 0.2449218663, 0.0648166567, 0.0648166567, 0.0648166567]", "[0, 2, 1, 1, 1, 1, 1, 1]", "[1.0, 1.0, 0.445135159, 0.3004679492, 0.2887739539, 0.2073160488, 0.1096864808, 0.0206551289]", "[0, 0, 0, 2, 2, 2, 1, 1]", "[1.0, 1.0, 1.0, 0.4042592224, 0.3257599439, 0.0560639214, 0.0560639214, 0.0560639214]", "[1, 2, 1, 0, 3, 0, 1, 1]", "[1.0, 1.0, 1.0, 1.0, 0.3107694639, 0.1227974995, 0.0350772495, 0.0350772495]", "[1, 4, 1, 2, 3, 2, 2, 1]", "[1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]", NULL};
/* TestUtilityMetrics2 case 137: create(0.0, Precision(false)) */
static const char *const um2_137[] = {"[0, 0, 0, 0, 0, 0, 0, 0]", "0.5090179696306611", "[0, 0, 0, 2, 1, 2, 0, 0]", "0.45063186570298164", "[1, 0, 0, 1, 2, 1, 2, 1]", "0.6108652167186084", "[0, 0, 1, 2, 3, 2, 2, 1]", "0.75018234865062", "[0, 4, 1, 1, 1, 2, 2, 1]", "0.7291666666666667", "[1, 4, 1, 2, 2, 2, 1, 0]", "0.7708713226355458", "[1, 4, 1, 0, 3, 2, 2, 0]", "0.75", "[1, 1, 1, 2, 3, 2, 2, 1]", "0.90625", "[1, 4, 1, 2, 3, 2, 0, 1]", "0.875", "[1, 4, 1, 2, 3, 2, 2, 1]", "1.0", NULL};
/* TestUtilityMetrics2 case 142: create(0.05, Precision(false)) */
static const char *const um2_142[] = {"[0, 0, 0, 0, 0, 0, 0, 0]", "0.5090179696306611", "[0, 1, 0, 0, 0, 0, 1, 0]", "0.30136844373715277", "[1, 0, 0, 1, 2, 0, 0, 0]", "0.4293488771743695", "[0, 1, 0, 0, 3, 0, 0, 0]", "0.27206211458126117", "[0, 3, 0, 0, 0, 2, 1, 0]", "0.34258752735229764", "[0, 4, 0, 2, 1, 0, 0, 0]", "0.3254370841898194", "[0, 4, 0, 1, 1, 1, 0, 0]", "0.31601988152863425", "[1, 4, 0, 2, 1, 0, 1, 0]", "0.4917894757200008", "[0, 4, 1, 1, 3, 1, 0, 1]", "0.626467077779988", "[1, 4, 1, 2, 3, 2, 2, 1]", "1.0", NULL};
/* TestUtilityMetrics case 99: create(0.0, Height) */
static const char *const um_99[] = {"[0, 0, 0, 0, 0, 0, 0, 0]", "0.0", "[0, 3, 0, 1, 3, 2, 1, 0]", "10.0", "[0, 4, 1, 1, 3, 0, 0, 1]", "10.0", "[0, 4, 1, 1, 3, 0, 2, 0]", "11.0", "[0, 3, 1, 2, 3, 1, 2, 1]", "13.0", "[1, 4, 1, 0, 2, 2, 2, 1]", "13.0", "[1, 4, 1, 2, 3, 2, 1, 0]", "14.0", "[1, 2, 1, 2, 3, 2, 2, 1]", "14.0", "[0, 3, 1, 2, 3, 2, 2, 1]", "14.0", "[1, 4, 1, 2, 3, 2, 2, 1]", "16.0", NULL};
/* TestUtilityMetrics case 104: create(0.05, Height) */
static const char *const um_104[] = {"[0, 0, 0, 0, 0, 0, 0, 0]", "0.0", "[0, 2, 1, 1, 0, 2, 0, 0]", "6.0", "[1, 2, 1, 1, 0, 0, 2, 0]", "7.0", "[1, 1, 0, 2, 2, 0, 0, 1]", "7.0", "[0, 1, 1, 1, 2, 1, 0, 1]", "7.0", "[1, 2, 0, 0, 1, 2, 0, 1]", "7.0", "[0, 2, 1, 1, 2, 1, 1, 0]", "8.0", "[0, 0, 1, 1, 3, 2, 0, 1]", "8.0", "[1, 2, 1, 2, 0, 2, 2, 1]", "11.0", "[1, 4, 1, 2, 3, 2, 2, 1]", "16.0", NULL};

static const metric_case adult_metric_cases[] = {
    {"TestUtilityMetrics case 4", ARX_AECS, 5, um4},          {"TestUtilityMetrics case 9", ARX_AECS, 5, um9},
    {"TestUtilityMetrics case 23", ARX_ENT_NM, 5, um23},      {"TestUtilityMetrics case 28", ARX_ENT_NM, 5, um28},
    {"TestUtilityMetrics case 42", ARX_DM_NM, 5, um42},       {"TestUtilityMetrics case 47", ARX_DM_NM, 5, um47},
    {"TestUtilityMetrics case 61", ARX_DM_M, 5, um61},        {"TestUtilityMetrics case 66", ARX_DM_M, 5, um66},
    {"TestUtilityMetrics case 80", ARX_ENT_NM, 5, um80},      {"TestUtilityMetrics case 84", ARX_ENT_NM, 5, um84},
    {"TestUtilityMetrics case 118", ARX_LOSS_RANK, 5, um118}, {"TestUtilityMetrics case 123", ARX_LOSS_RANK, 5, um123},
    {"TestUtilityMetrics case 137", ARX_PREC_NM, 5, um137},   {"TestUtilityMetrics case 142", ARX_PREC_NM, 5, um142},
    {"TestUtilityMetrics case 156", ARX_PREC_M, 5, um156},    {"TestUtilityMetrics case 161", ARX_PREC_M, 5, um161},
    {"TestUtilityMetrics2 case 4", ARX_AECS, 5, um2_4},
    {"TestUtilityMetrics2 case 9", ARX_AECS, 5, um2_9},
    {"TestUtilityMetrics2 case 28", ARX_ENT_NM, 5, um2_28},
    {"TestUtilityMetrics2 case 42", ARX_DM_NM, 5, um2_42},
    {"TestUtilityMetrics2 case 47", ARX_DM_NM, 5, um2_47},
    {"TestUtilityMetrics2 case 80", ARX_ENT_M, 5, um2_80},
    {"TestUtilityMetrics2 case 85", ARX_ENT_M, 5, um2_85},
    {"TestUtilityMetrics2 case 118", ARX_LOSS_RANK, 5, um2_118},
    {"TestUtilityMetrics2 case 123", ARX_LOSS_RANK, 5, um2_123},
    {"TestUtilityMetrics2 case 137", ARX_PREC_NM, 5, um2_137},
    {"TestUtilityMetrics2 case 142", ARX_PREC_NM, 5, um2_142},
    {"TestUtilityMetrics case 99", ARX_HEIGHT, 5, um_99},
    {"TestUtilityMetrics case 104", ARX_HEIGHT, 5, um_104},
};

static void test_adult_metric_values(void **state)
{
    (void)state;
    dataset d, old;
    load_adult(&d, adult_qi8, 8, 0);
    load_adult(&old, adult_qi8, 8, 1);
    int nalt;
    int bad = check_metric_cases(&d, &old, adult_metric_cases, sizeof adult_metric_cases / sizeof *adult_metric_cases,
                                 &nalt);
    assert_int_equal(bad, 0);
    ds_free(&old);
    ds_free(&d);
}

/* Same file and commit, the cup cases (KAnonymity(5), suppression 0.05,
 * sensitive attribute RAMNTALL, so 7 QIs). */
/* case 10: AECS */
static const char *const uc10[] = {"[0, 0, 0, 0, 0, 0, 0]", "63441.0", "[3, 2, 1, 0, 0, 3, 1]", "24.24188001528468", "[1, 2, 1, 1, 0, 4, 1]", "18.177936962750717", "[5, 4, 0, 1, 0, 2, 0]", "51.78857142857143", "[4, 1, 1, 2, 1, 3, 0]", "55.74780316344464", "[0, 2, 0, 1, 1, 4, 4]", "615.9320388349514", "[4, 2, 0, 2, 1, 4, 0]", "52.823480432972524", "[5, 3, 1, 1, 0, 0, 4]", "20.937623762376237", "[4, 3, 1, 2, 1, 3, 1]", "1349.8085106382978", "[5, 4, 1, 2, 1, 4, 4]", "63441.0", NULL};
/* case 29: Entropy(false) */
static const char *const uc29[] = {"[0, 0, 0, 0, 0, 0, 0]", "2207518.9993976387", "[1, 0, 1, 2, 0, 0, 0]", "2207518.999397594", "[2, 0, 0, 0, 1, 4, 0]", "2207435.145801786", "[3, 2, 1, 0, 1, 1, 0]", "1761956.8888455457", "[4, 1, 1, 1, 0, 2, 2]", "1453095.9878387728", "[3, 2, 0, 1, 0, 3, 3]", "1290009.3401703774", "[2, 4, 1, 0, 0, 3, 3]", "1252255.714739398", "[3, 1, 1, 1, 1, 3, 3]", "1555332.3009072572", "[5, 0, 1, 1, 0, 4, 4]", "1535699.521423932", "[5, 4, 1, 2, 1, 4, 4]", "2207518.9993976974", NULL};
/* case 48: Discernability(false) */
static const char *const uc48[] = {"[0, 0, 0, 0, 0, 0, 0]", "4.024760481E9", "[0, 4, 1, 0, 1, 1, 2]", "3.493495119E9", "[4, 1, 0, 1, 0, 2, 2]", "1.80620587E8", "[3, 4, 0, 1, 1, 4, 1]", "5.9389911E7", "[0, 4, 1, 2, 1, 4, 2]", "9.78942721E8", "[3, 3, 0, 2, 0, 3, 3]", "6.3965169E7", "[2, 1, 1, 2, 0, 4, 4]", "5.37146807E8", "[2, 2, 1, 2, 1, 4, 4]", "2.34706833E8", "[4, 4, 1, 2, 0, 2, 4]", "2.64909869E8", "[5, 4, 1, 2, 1, 4, 4]", "4.024760481E9", NULL};
/* case 67: Discernability(true) */
static const char *const uc67[] = {"[0, 0, 0, 0, 0, 0, 0]", "63457.0", "[0, 1, 1, 1, 0, 3, 2]", "94701.0", "[5, 3, 0, 2, 1, 0, 0]", "9939939.0", "[4, 4, 1, 1, 0, 0, 1]", "7392427.0", "[0, 3, 0, 2, 0, 3, 3]", "157897.0", "[4, 3, 0, 0, 1, 3, 1]", "1.4883871E7", "[2, 1, 1, 1, 0, 4, 3]", "736107.0", "[3, 1, 1, 2, 0, 1, 4]", "6117561.0", "[4, 4, 0, 2, 1, 0, 3]", "1.5347427E7", "[5, 4, 1, 2, 1, 4, 4]", "4.024760481E9", NULL};
/* case 85: Entropy() */
static const char *const uc85[] = {"[0, 0, 0, 0, 0, 0, 0]", "2207518.9993976387", "[0, 1, 0, 0, 1, 4, 0]", "2207518.9993976387", "[0, 0, 1, 0, 1, 4, 1]", "2207518.9993976387", "[5, 4, 1, 1, 0, 0, 0]", "1591484.6764819187", "[5, 4, 0, 1, 1, 0, 0]", "1634141.3783607204", "[4, 2, 1, 0, 1, 4, 0]", "1569890.387870711", "[4, 4, 0, 1, 1, 3, 0]", "1720732.0919352677", "[4, 0, 0, 2, 1, 2, 4]", "1591324.3745866253", "[5, 4, 1, 1, 0, 0, 4]", "1598585.7115628633", "[5, 4, 1, 2, 1, 4, 4]", "2207518.9993976974", NULL};
/* case 124: Loss(RANK) */
static const char *const uc124[] = {"[0, 0, 0, 0, 0, 0, 0]", "[1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]", "[1, 3, 1, 2, 0, 1, 0]", "[1.0, 1.0, 0.8155607556, 0.7900544424, 0.7717769772, 0.7717564351, 0.7717564351]", "[4, 1, 0, 1, 1, 0, 1]", "[1.0, 0.5678688335, 0.4077183524, 0.3165912649, 0.2713447744, 0.2406645544, 0.2406645544]", "[3, 2, 0, 2, 0, 1, 1]", "[1.0, 0.2561838558, 0.133081417, 0.122839341, 0.0559162223, 0.0463895588, 0.0463895588]", "[3, 3, 1, 0, 1, 0, 4]", "[1.0, 1.0, 1.0, 0.6716013399, 0.5976665682, 0.5936066581, 0.5936066581]", "[1, 4, 1, 1, 0, 2, 4]", "[1.0, 1.0, 1.0, 0.4964691603, 0.2630597271, 0.1179842143, 0.1179048249]", "[5, 1, 1, 2, 1, 3, 2]", "[1.0, 1.0, 1.0, 1.0, 0.4423541032, 0.3334909601, 0.0406309274]", "[5, 4, 1, 2, 1, 4, 4]", "[1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]", NULL};
/* case 143: Precision(false) */
static const char *const uc143[] = {"[0, 0, 0, 0, 0, 0, 0]", "0.9999999999999998", "[0, 4, 0, 0, 1, 1, 0]", "0.999475890985325", "[0, 1, 1, 0, 0, 2, 2]", "0.9995400675993668", "[5, 0, 0, 0, 1, 1, 1]", "0.3854042113369678", "[1, 2, 0, 1, 0, 2, 2]", "0.8729438150632646", "[0, 3, 0, 0, 0, 2, 3]", "0.9968249464631931", "[5, 4, 0, 0, 0, 1, 2]", "0.4076718075512231", "[4, 1, 0, 2, 1, 4, 1]", "0.6171797418073485", "[3, 4, 0, 0, 0, 3, 3]", "0.4522890784913767", "[5, 4, 1, 2, 1, 4, 4]", "0.9999999999999998", NULL};
/* case 162: Precision(true) */
static const char *const uc162[] = {"[0, 0, 0, 0, 0, 0, 0]", "0.0", "[2, 2, 0, 0, 1, 1, 1]", "0.3428571428571428", "[4, 0, 0, 2, 1, 1, 0]", "0.43571428571428567", "[5, 1, 0, 1, 1, 1, 0]", "0.4285714285714285", "[0, 2, 1, 1, 1, 1, 3]", "0.5714285714285714", "[5, 0, 1, 2, 0, 1, 1]", "0.49999999999999994", "[4, 0, 1, 2, 0, 4, 1]", "0.5785714285714285", "[5, 2, 1, 1, 0, 1, 4]", "0.607142857142857", "[3, 3, 1, 2, 1, 1, 4]", "0.8", "[5, 4, 1, 2, 1, 4, 4]", "0.9999999999999998", NULL};

/* The cup cases of TestUtilityMetrics2 that differ from TestUtilityMetrics,
 * and TestUtilityMetrics's Height case (v3.9.2). */
/* TestUtilityMetrics2 case 86: create(0.05, Entropy(true)) */
static const char *const uc2_86[] = {"[0, 0, 0, 0, 0, 0, 0]", "0.0", "[0, 1, 0, 0, 1, 4, 0]", "719419.9828839717", "[0, 0, 1, 0, 1, 4, 1]", "826951.7809639904", "[5, 4, 1, 1, 0, 0, 0]", "1387588.9672072092", "[5, 4, 0, 1, 1, 0, 0]", "1600950.7143017333", "[4, 2, 1, 0, 1, 4, 0]", "1494157.1621354986", "[4, 4, 0, 1, 1, 3, 0]", "1710062.966793689", "[4, 0, 0, 2, 1, 2, 4]", "1569758.4542430995", "[5, 4, 1, 1, 0, 0, 4]", "1568472.410778526", "[5, 4, 1, 2, 1, 4, 4]", "2207518.9993976974", NULL};
/* TestUtilityMetrics2 case 143: create(0.05, Precision(false)) */
static const char *const uc2_143[] = {"[0, 0, 0, 0, 0, 0, 0]", "1.0", "[0, 4, 0, 0, 1, 1, 0]", "0.999475890985325", "[0, 1, 1, 0, 0, 2, 2]", "0.9995400675993669", "[5, 0, 0, 0, 1, 1, 1]", "0.3854042113369677", "[1, 2, 0, 1, 0, 2, 2]", "0.8729438150632645", "[0, 3, 0, 0, 0, 2, 3]", "0.996824946463193", "[5, 4, 0, 0, 0, 1, 2]", "0.40767180755122306", "[4, 1, 0, 2, 1, 4, 1]", "0.6171797418073487", "[3, 4, 0, 0, 0, 3, 3]", "0.45228907849137673", "[5, 4, 1, 2, 1, 4, 4]", "1.0", NULL};
/* TestUtilityMetrics2 case 162: create(0.05, Precision(true)) */
static const char *const uc2_162[] = {"[0, 0, 0, 0, 0, 0, 0]", "0.0", "[2, 2, 0, 0, 1, 1, 1]", "0.34285714285714286", "[4, 0, 0, 2, 1, 1, 0]", "0.43571428571428567", "[5, 1, 0, 1, 1, 1, 0]", "0.42857142857142855", "[0, 2, 1, 1, 1, 1, 3]", "0.5714285714285714", "[5, 0, 1, 2, 0, 1, 1]", "0.5", "[4, 0, 1, 2, 0, 4, 1]", "0.5785714285714285", "[5, 2, 1, 1, 0, 1, 4]", "0.6071428571428571", "[3, 3, 1, 2, 1, 1, 4]", "0.7999999999999999", "[5, 4, 1, 2, 1, 4, 4]", "1.0", NULL};
/* TestUtilityMetrics case 105: create(0.05, Height) */
static const char *const uc_105[] = {"[0, 0, 0, 0, 0, 0, 0]", "0.0", "[0, 4, 1, 2, 0, 0, 0]", "7.0", "[2, 4, 1, 1, 0, 0, 1]", "9.0", "[3, 3, 0, 2, 1, 0, 1]", "10.0", "[0, 3, 0, 0, 0, 3, 4]", "10.0", "[5, 4, 0, 0, 1, 2, 0]", "12.0", "[4, 4, 0, 2, 0, 3, 0]", "13.0", "[5, 3, 0, 0, 1, 0, 4]", "13.0", "[5, 2, 0, 0, 1, 3, 4]", "15.0", "[5, 4, 1, 2, 1, 4, 4]", "21.0", NULL};

static const metric_case cup_metric_cases[] = {
    {"TestUtilityMetrics case 10", ARX_AECS, 5, uc10},         {"TestUtilityMetrics case 29", ARX_ENT_NM, 5, uc29},
    {"TestUtilityMetrics case 48", ARX_DM_NM, 5, uc48},        {"TestUtilityMetrics case 67", ARX_DM_M, 5, uc67},
    {"TestUtilityMetrics case 85", ARX_ENT_NM, 5, uc85},       {"TestUtilityMetrics case 124", ARX_LOSS_RANK, 5, uc124},
    {"TestUtilityMetrics case 143", ARX_PREC_NM, 5, uc143},    {"TestUtilityMetrics case 162", ARX_PREC_M, 5, uc162},
    {"TestUtilityMetrics2 case 86", ARX_ENT_M, 5, uc2_86},
    {"TestUtilityMetrics2 case 143", ARX_PREC_NM, 5, uc2_143},
    {"TestUtilityMetrics2 case 162", ARX_PREC_M, 5, uc2_162},
    {"TestUtilityMetrics case 105", ARX_HEIGHT, 5, uc_105},
};

static void test_cup_metric_values(void **state)
{
    (void)state;
    dataset d;
    if (!load_cup(&d, cup_qi7, 7))
        return;
    int nalt;
    int bad = check_metric_cases(&d, NULL, cup_metric_cases, sizeof cup_metric_cases / sizeof *cup_metric_cases, &nalt);
    assert_int_equal(bad, 0);
    ds_free(&d);
}

/* ------------------------------------------------------- OLA optima */

/* One ARX optimum: k, suppression limit, ARX's metric with its gs-factor
 * and attribute weights (NULL: ARX's default 0.5 each), the transformation
 * ARX's test expects and the loss string it asserts (ARX compares the loss;
 * a different transformation with an equal loss only prints a note). */
typedef struct ola_case {
    const char *id;
    size_t k;
    double s;
    arx_metric am;
    double gs;
    const double *weights; /* per QI, in data-header order */
    const char *node;
    const char *loss;
} ola_case;

static keps_metric_config case_config(const ola_case *c)
{
    keps_metric_config cfg = arx_config(c->am);
    cfg.gs_factor = c->gs;
    cfg.weights = c->weights;
    return cfg;
}

/* Feasible-node optimum of a quality model, by exhaustive scan
 * (independent of OLA's search). */
typedef struct scan_min {
    keps_metrics *m[2]; /* one per scan thread (metrics hold scratch) */
    size_t k, lim, len;
    double best[2][16];
} scan_min;

static int scan_cb(const keps_node_info *ni, int thread, void *ud)
{
    scan_min *x = ud;
    if (ni->suppressed > x->lim)
        return 0;
    double v[16];
    keps_metrics_objective(x->m[thread], ni->levels, ni->classes, x->k, v);
    if (keps_score_cmp(v, x->best[thread], x->len) < 0)
        memcpy(x->best[thread], v, sizeof v);
    return 0;
}

static void print_score(const char *what, const double *v, size_t n)
{
    fprintf(stderr, "%s", what);
    for (size_t i = 0; i < n; i++)
        fprintf(stderr, "%s%.17g", i ? ", " : " ", v[i]);
    fprintf(stderr, "\n");
}

/* keps's OLA with quality model cfg on an ARX case (id, k, suppression s,
 * ARX's transformation node and loss string): ARX's loss at ARX's
 * transformation and at keps's (which must be the same node when
 * same_node); with scan, also the exhaustive optimum. */
typedef struct arx_optimum {
    const char *id;
    size_t k;
    double s;
    const char *node, *loss;
} arx_optimum;

static void check_optimum(dataset *d, const arx_optimum *c, keps_metric_config cfg, int same_node, int scan)
{
    keps_error err = {0};
    keps_metrics *m = keps_metrics_new_objective(d->L, &cfg, &err);
    assert_non_null(m);
    size_t len = keps_metrics_score_len(m);
    double want[16], at[16];
    assert_int_equal(parse_score(c->loss, want, 16), len);
    int lv[16];
    parse_levels(c->node, lv, d->L->q);
    keps_node_classes cl;
    node_classes(d, lv, &cl);
    size_t lim = (size_t)floor(c->s * (double)d->L->nrows + 1e-9);
    /* ARX's node is feasible and keps scores it as ARX does */
    assert_true(keps_node_classes_suppressed(&cl, c->k, NULL) <= lim);
    keps_metrics_objective(m, lv, &cl, c->k, at);
    if (!arx_close_all(at, want, len)) {
        print_score("keps at ARX's node:", at, len);
        fail_msg("%s: ARX's loss %s at %s differs", c->id, c->loss, c->node);
    }
    keps_node_classes_free(&cl);

    keps_ola_params p = {c->k, c->s, cfg.metric, 2};
    keps_ola_result r;
    assert_int_equal(keps_ola_run_objective(d->L, &p, &cfg, &r, &err), KEPS_OK);
    assert_true(r.found);
    assert_int_equal(r.suppress_limit, lim);
    assert_int_equal(r.score_len, len);
    int same = 1;
    for (size_t i = 0; i < d->L->q; i++)
        same &= r.levels[i] == lv[i];
    if (!same) {
        fprintf(stderr, "%s: keps chose", c->id);
        for (size_t i = 0; i < d->L->q; i++)
            fprintf(stderr, " %d", r.levels[i]);
        fprintf(stderr, ", ARX %s%s\n", c->node, same_node ? "" : " (a tie)");
    }
    if (!arx_close_all(r.score, want, len)) {
        print_score("keps's optimum:", r.score, len);
        fail_msg("%s: ARX's optimum %s", c->id, c->loss);
    }
    assert_true(same || !same_node);
    keps_ola_result_free(&r);

    if (scan) {
        scan_min x = {{keps_metrics_new_objective(d->L, &cfg, &err), keps_metrics_new_objective(d->L, &cfg, &err)},
                      c->k, lim, len, {{0}}};
        for (size_t i = 0; i < 16; i++)
            x.best[0][i] = x.best[1][i] = INFINITY;
        assert_int_equal(keps_lattice_scan(d->L, c->k, scan_cb, &x, 2, &err), KEPS_OK);
        int t = keps_score_cmp(x.best[1], x.best[0], len) < 0;
        assert_true(arx_close_all(x.best[t], want, len));
        keps_metrics_free(x.m[0]);
        keps_metrics_free(x.m[1]);
    }
    keps_metrics_free(m);
}

/* The n cases on d; keps's node must be ARX's unless the gs-factor is 1
 * (only suppression costs: every node without any scores 0, a tie). */
static void check_ola_cases(dataset *d, const ola_case *c, size_t n, int scan)
{
    for (size_t i = 0; i < n; i++) {
        arx_optimum o = {c[i].id, c[i].k, c[i].s, c[i].node, c[i].loss};
        check_optimum(d, &o, case_config(&c[i]), c[i].gs != 1, scan);
    }
}

/* arx-deidentifier/arx, src/test/java/org/deidentifier/arx/test/
 * TestAnonymizationKAnonymity.java at commit
 * 8cdf3db440f7b0ce5070882687226da9857faf6e (unchanged in v3.9.2), cases 0-3
 * (cases 4-5 repeat 0-1 with practical monotonicity on and expect the same):
 * adult.csv, all nine hierarchies, so nine QIs; metric
 * createPrecomputedEntropyMetric(0.1, true), i.e. the MONOTONIC non-uniform
 * entropy (the generalization part only, suppressed rows not counted):
 * keps's entropy with monotonic set. */
static const ola_case adult_ola_cases[] = {
    {"TestAnonymizationKAnonymity case 0", 5, 0.04, ARX_ENT_M, 0.5, NULL, "[1, 0, 1, 1, 3, 2, 2, 0, 1]",
     "255559.85455731067"},
    {"TestAnonymizationKAnonymity case 1", 100, 0.04, ARX_ENT_M, 0.5, NULL, "[1, 1, 1, 1, 3, 2, 2, 1, 1]",
     "379417.3460570988"},
    {"TestAnonymizationKAnonymity case 2", 5, 0.0, ARX_ENT_M, 0.5, NULL, "[1, 2, 1, 1, 3, 2, 2, 1, 1]",
     "407289.5388925293"},
    {"TestAnonymizationKAnonymity case 3", 100, 0.0, ARX_ENT_M, 0.5, NULL, "[0, 4, 1, 1, 3, 2, 2, 1, 1]",
     "453196.8932458743"},
};

static void test_adult_ola(void **state)
{
    (void)state;
    dataset d;
    load_adult(&d, adult_qi9, 9, 0);
    check_ola_cases(&d, adult_ola_cases, sizeof adult_ola_cases / sizeof *adult_ola_cases, 1);
    ds_free(&d);
}

/* Same file and commit, cases 6-9 (and 10, a repeat of 6 with practical
 * monotonicity): cup.csv, eight QIs, createPrecomputedEntropyMetric(0.1,
 * false): ARX's NON-monotonic entropy, which is keps's `entropy`, so here
 * the optimum of keps's own metric under suppression is compared.
 * Case 11 (k=100, s=0.04 with practical monotonicity) is left out: there
 * ARX assumes monotonicity although the metric is not monotone and returns
 * [3, 4, 1, 1, 0, 1, 2, 1] at 2001343.4737485605, worse than the optimum
 * 1994002.8308631124 of case 7 (same k and s without that heuristic); keps
 * always returns the global optimum, i.e. case 7's answer. */
static const ola_case cup_ola_cases[] = {
    {"TestAnonymizationKAnonymity case 6", 5, 0.04, ARX_ENT_NM, 0.5, NULL, "[2, 4, 0, 1, 0, 4, 4, 4]",
     "1764006.4033760305"},
    {"TestAnonymizationKAnonymity case 7", 100, 0.04, ARX_ENT_NM, 0.5, NULL, "[3, 4, 1, 1, 0, 4, 4, 4]",
     "1994002.8308631124"},
    {"TestAnonymizationKAnonymity case 8", 5, 0.0, ARX_ENT_NM, 0.5, NULL, "[4, 4, 1, 1, 1, 4, 4, 4]",
     "2445878.424834677"},
    {"TestAnonymizationKAnonymity case 9", 100, 0.0, ARX_ENT_NM, 0.5, NULL, "[5, 4, 1, 0, 1, 4, 4, 4]",
     "2517471.5816586106"},
};

static void test_cup_ola(void **state)
{
    (void)state;
    dataset d;
    if (!load_cup(&d, cup_qi8, 8))
        return;
    check_ola_cases(&d, cup_ola_cases, sizeof cup_ola_cases / sizeof *cup_ola_cases, 0);
    ds_free(&d);
}

/* arx-deidentifier/arx v3.9.2, src/test/org/deidentifier/arx/test/
 * TestUtilityMetricsLoss.java: the cases whose only criterion is
 * KAnonymity(5): adult.csv, sensitive attribute "occupation" (8 QIs),
 * suppression limit 1.0, createLossMetric(gs, RANK) for gs 0.5 (the
 * default), 0, 0.33, 0.66 and 1, first with ARX's default weights (cases 1,
 * 11, 21, 31, 41), then (cases 51-91) with weight(): every column's weight
 * is its position in the data header plus one (sex 1, age 2, ..., occupation
 * 8, salary-class 9), divided by the largest QI weight, 9. ARX prints the
 * weighted per-QI losses sorted, largest first. With gs 1 every node
 * without suppression scores 0 (a tie: any of them is ARX's answer too);
 * with gs 0 (suppression free) only the bottom does. The other cases of the
 * file add t-closeness or l-diversity. */
static const double header_weights[] = {1, 2, 3, 4, 5, 6, 7, 9}; /* occupation (8) is no QI */
static const ola_case adult_loss_cases[] = {
    {"TestUtilityMetricsLoss case 1", 5, 1.0, ARX_LOSS_RANK, 0.5, NULL, "[0, 3, 0, 0, 1, 0, 0, 0]",
     "[0.297248193, 0.29678055, 0.1297659306, 0.1297659306, 0.1297659306, 0.1297659306, 0.1297659306, "
     "0.1297659306]"},
    {"TestUtilityMetricsLoss case 11", 5, 1.0, ARX_LOSS_RANK, 0.0, NULL, "[0, 0, 0, 0, 0, 0, 0, 0]",
     "[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]"},
    {"TestUtilityMetricsLoss case 21", 5, 1.0, ARX_LOSS_RANK, 0.33, NULL, "[0, 1, 0, 0, 0, 0, 0, 0]",
     "[0.2300344804, 0.1976148796, 0.1976148796, 0.1976148796, 0.1976148796, 0.1976148796, 0.1976148796, "
     "0.1976148796]"},
    {"TestUtilityMetricsLoss case 31", 5, 1.0, ARX_LOSS_RANK, 0.66, NULL, "[0, 3, 0, 0, 1, 1, 1, 0]",
     "[0.2366229645, 0.2359393534, 0.1843930011, 0.1821869476, 0.0624295471, 0.0624295471, 0.0624295471, "
     "0.0624295471]"},
    {"TestUtilityMetricsLoss case 41", 5, 1.0, ARX_LOSS_RANK, 1.0, NULL, "[1, 4, 0, 2, 3, 2, 2, 0]",
     "[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]"},
    {"TestUtilityMetricsLoss case 51", 5, 1.0, ARX_LOSS_RANK, 0.5, header_weights, "[1, 3, 0, 0, 0, 0, 0, 0]",
     "[0.1485312645, 0.11552431683333335, 0.1111111111111111, 0.099020843, 0.08251736916666667, "
     "0.06932099024444444, 0.06601389533333334, 0.0495104215]"},
    {"TestUtilityMetricsLoss case 61", 5, 1.0, ARX_LOSS_RANK, 0.0, header_weights, "[0, 0, 0, 0, 0, 0, 0, 0]",
     "[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]"},
    {"TestUtilityMetricsLoss case 71", 5, 1.0, ARX_LOSS_RANK, 0.33, header_weights, "[1, 3, 0, 0, 0, 0, 0, 0]",
     "[0.1111111111111111, 0.0980306345, 0.07624604905555556, 0.06535375633333333, 0.06025241473333332, "
     "0.054461463611111115, 0.04356917088888889, 0.032676878166666666]"},
    {"TestUtilityMetricsLoss case 81", 5, 1.0, ARX_LOSS_RANK, 0.66, header_weights, "[1, 3, 0, 0, 1, 0, 0, 0]",
     "[0.12176904994444444, 0.1045686625, 0.08133118194444446, 0.06971244166666667, 0.06287238585555556, "
     "0.04912232613333333, 0.04647496111111111, 0.03485622083333333]"},
    {"TestUtilityMetricsLoss case 91", 5, 1.0, ARX_LOSS_RANK, 1.0, header_weights, "[1, 4, 0, 2, 3, 2, 2, 0]",
     "[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]"},
};

static void test_adult_loss_cases(void **state)
{
    (void)state;
    dataset d;
    load_adult(&d, adult_qi8, 8, 0);
    check_ola_cases(&d, adult_loss_cases, sizeof adult_loss_cases / sizeof *adult_loss_cases,
                    !getenv("KEPS_SANITIZED"));
    ds_free(&d);
}

/* Optima of ARX 3.9.2 itself (its library built from source; a harness
 * calls ARXConfiguration.create(s, Metric.create...Metric(gs, monotonic,
 * aggregate)), setAttributeWeight(NAME, W) and KAnonymity(k), and prints
 * the optimum's transformation and getHighestScore().toString()), for
 * quality models ARX's own tests leave out: 490 random models (k 2-100,
 * suppression 0-20%) on adult (8 QIs, occupation untyped) and cup (7 QIs,
 * RAMNTALL untyped), of which these cover every metric, aggregate,
 * gs-factor, monotonic variant, with and without weights and suppression.
 * keps's optimum scored the same in 488 (the same transformation in 415, a
 * tie in 73); in the other two (precision with gs-factor 0 and 0.3) keps's
 * node scores lower than ARX's answer ([0, 4, 0, 0, 3, 2, 1, 0] at
 * 0.4164097208407931; [0, 4, 1, 2, 1, 2, 1, 0] at 4.833086886369162), and
 * ARX's own scores of every transformation (the harness's exhaustive
 * evaluation with ARX's TransformationApplicator) confirm keps's node as
 * the unique optimum: ARX's search prunes it with its precision bound,
 * which is no lower bound for gs-factors below 0.5 (docs/spec.md section
 * 10). The
 * scores are compared as ARX's tests compare them; the transformation only
 * where noted (the exhaustive case), as ties are common (weights of 0,
 * gs-factor 0 or 1). Weights: "NAME=W,..." (others ARX's default 0.5). */
typedef struct harness_case {
    const char *ds; /* adult or cup */
    size_t k;
    double s;
    keps_metric metric;
    double gs;
    int monotonic;
    keps_aggregate agg;
    const char *weights;
    const char *node, *loss;
    int exhaustive; /* ARX's exhaustive minimum: the node is the unique optimum */
} harness_case;

static const harness_case harness_cases[] = {
    {"adult", 10, 0.02, KEPS_METRIC_DM, 0.5, 1, KEPS_AGGREGATE_DEFAULT, NULL, "[0, 0, 1, 2, 2, 2, 2, 1]", "5759600.0", 0},
    {"adult", 2, 0.02, KEPS_METRIC_AECS, 0.5, 0, KEPS_AGGREGATE_DEFAULT, NULL, "[1, 0, 1, 1, 0, 2, 1, 1]", "16.198711063372716", 0},
    {"adult", 5, 0.05, KEPS_METRIC_LOSS, 0.5, 0, KEPS_AGGREGATE_SUM, NULL, "[0, 3, 0, 0, 2, 1, 1, 0]", "1.4267119648", 0},
    {"adult", 2, 0.05, KEPS_METRIC_ENTROPY, 1, 0, KEPS_AGGREGATE_ARITHMETIC, NULL, "[0, 4, 0, 2, 3, 2, 2, 0]", "0.0", 0},
    {"adult", 2, 0, KEPS_METRIC_PREC, 0.8, 0, KEPS_AGGREGATE_DEFAULT, "race=3,workclass=0,age=3", "[0, 3, 0, 2, 3, 2, 2, 1]", "0.07083333333333332", 0},
    {"adult", 10, 0.02, KEPS_METRIC_ENTROPY, 0.66, 1, KEPS_AGGREGATE_DEFAULT, NULL, "[0, 0, 1, 2, 3, 2, 1, 0]", "146760.7057968268", 0},
    {"adult", 50, 0.1, KEPS_METRIC_PREC, 0.66, 1, KEPS_AGGREGATE_GEOMETRIC, NULL, "[0, 4, 0, 0, 3, 0, 2, 0]", "0.2147613922544398", 0},
    {"adult", 5, 0.02, KEPS_METRIC_LOSS, 0.66, 0, KEPS_AGGREGATE_MAX, "age=0", "[0, 4, 0, 1, 2, 1, 1, 0]", "0.2872482266", 0},
    {"adult", 10, 0.02, KEPS_METRIC_LOSS, 0.2, 0, KEPS_AGGREGATE_ARITHMETIC, "marital-status=1,native-country=3", "[0, 4, 0, 1, 2, 1, 1, 0]", "0.08824814551041665", 0},
    {"adult", 10, 0.05, KEPS_METRIC_ENTROPY, 0.5, 0, KEPS_AGGREGATE_GEOMETRIC, "education=1,salary-class=0.1,sex=0.1", "[0, 4, 1, 1, 3, 2, 0, 0]", "648.1947989166086", 0},
    {"adult", 2, 0.1, KEPS_METRIC_PREC, 1, 0, KEPS_AGGREGATE_RANK, "education=0.1,marital-status=0.1,salary-class=0", "[0, 4, 0, 2, 3, 2, 2, 0]", "[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]", 0},
    {"adult", 50, 0, KEPS_METRIC_LOSS, 0.8, 0, KEPS_AGGREGATE_DEFAULT, NULL, "[0, 4, 1, 1, 3, 2, 2, 0]", "0.2446503605297392", 0},
    {"adult", 10, 0.05, KEPS_METRIC_PREC, 0.5, 0, KEPS_AGGREGATE_ARITHMETIC, NULL, "[0, 4, 0, 0, 3, 1, 0, 0]", "0.34069566010211527", 0},
    {"adult", 5, 0.02, KEPS_METRIC_ENTROPY, 0.3, 1, KEPS_AGGREGATE_SUM, NULL, "[0, 0, 1, 1, 2, 2, 2, 1]", "195181.8888106138", 0},
    {"adult", 10, 0.02, KEPS_METRIC_ENTROPY, 0, 1, KEPS_AGGREGATE_RANK, NULL, "[1, 0, 1, 2, 1, 2, 2, 1]", "[54887.1167171445, 42571.8694091557, 35691.2130269035, 27417.6400764651, 25086.8680139638, 24418.1246537822, 23375.0352725208, 0.0]", 0},
    {"adult", 10, 0, KEPS_METRIC_ENTROPY, 0.8, 1, KEPS_AGGREGATE_MAX, "salary-class=0", "[0, 1, 1, 2, 3, 2, 2, 1]", "35148.1690936509", 0},
    {"adult", 10, 0.05, KEPS_METRIC_PREC, 0, 1, KEPS_AGGREGATE_MAX, NULL, "[0, 3, 0, 1, 2, 1, 1, 0]", "0.75", 0},
    {"adult", 10, 0.02, KEPS_METRIC_HEIGHT, 0.5, 0, KEPS_AGGREGATE_DEFAULT, NULL, "[0, 1, 1, 1, 1, 2, 2, 0]", "8.0", 0},
    {"adult", 5, 0.02, KEPS_METRIC_DM, 0.5, 0, KEPS_AGGREGATE_DEFAULT, NULL, "[0, 0, 1, 2, 3, 2, 2, 0]", "9268952.0", 0},
    {"adult", 10, 0.05, KEPS_METRIC_HEIGHT, 0.5, 0, KEPS_AGGREGATE_ARITHMETIC, NULL, "[0, 1, 1, 1, 1, 2, 1, 0]", "0.875", 0},
    {"adult", 5, 0.02, KEPS_METRIC_LOSS, 1, 0, KEPS_AGGREGATE_MAX, "marital-status=0.1,workclass=0.5", "[1, 4, 0, 2, 3, 2, 2, 0]", "0.0", 0},
    {"adult", 5, 0, KEPS_METRIC_LOSS, 0, 0, KEPS_AGGREGATE_MAX, "sex=0.5,workclass=0.1", "[0, 4, 1, 2, 3, 2, 0, 0]", "1.0", 0},
    {"adult", 5, 0, KEPS_METRIC_LOSS, 0.5, 0, KEPS_AGGREGATE_RANK, NULL, "[0, 4, 1, 2, 3, 2, 0, 0]", "[1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0]", 0},
    {"adult", 5, 0.1, KEPS_METRIC_AECS, 0.3, 0, KEPS_AGGREGATE_DEFAULT, NULL, "[1, 0, 1, 1, 0, 2, 1, 1]", "44.30376028202115", 0},
    {"adult", 2, 0.1, KEPS_METRIC_PREC, 0.3, 0, KEPS_AGGREGATE_DEFAULT, NULL, "[0, 3, 0, 0, 0, 0, 0, 0]", "0.1426428535906107", 0},
    {"adult", 50, 0.02, KEPS_METRIC_HEIGHT, 0.5, 0, KEPS_AGGREGATE_GEOMETRIC, NULL, "[0, 4, 0, 1, 3, 2, 1, 0]", "0.9839302766304217", 0},
    {"adult", 50, 0.05, KEPS_METRIC_PREC, 0, 0, KEPS_AGGREGATE_ARITHMETIC, NULL, "[0, 4, 0, 0, 3, 1, 2, 0]", "0.41591655062661625", 1},
    {"adult", 100, 0.01, KEPS_METRIC_PREC, 0.3, 0, KEPS_AGGREGATE_SUM, NULL, "[0, 4, 1, 1, 1, 2, 2, 0]", "4.833068098932431", 1},
    {"cup", 50, 0, KEPS_METRIC_HEIGHT, 0.5, 0, KEPS_AGGREGATE_RANK, "NGIFTALL=1,AGE=3", "[5, 4, 1, 0, 1, 4, 4]", "[4.0, 1.3333333333333333, 0.8333333333333333, 0.6666666666666666, 0.16666666666666666, 0.16666666666666666, 0.0]", 0},
    {"cup", 2, 0.1, KEPS_METRIC_PREC, 0.2, 1, KEPS_AGGREGATE_SUM, "GENDER=0.1", "[4, 1, 0, 0, 0, 1, 1]", "1.55", 0},
    {"cup", 50, 0, KEPS_METRIC_LOSS, 0.3, 0, KEPS_AGGREGATE_GEOMETRIC, NULL, "[5, 4, 1, 0, 1, 4, 4]", "0.8114473285278123", 0},
    {"cup", 2, 0.1, KEPS_METRIC_AECS, 0.8, 0, KEPS_AGGREGATE_DEFAULT, NULL, "[1, 4, 1, 0, 0, 4, 2]", "5.781870876016186", 0},
    {"cup", 2, 0, KEPS_METRIC_AECS, 0, 0, KEPS_AGGREGATE_DEFAULT, NULL, "[5, 3, 1, 0, 1, 4, 4]", "Infinity", 0},
    {"cup", 2, 0, KEPS_METRIC_AECS, 0.2, 0, KEPS_AGGREGATE_DEFAULT, NULL, "[4, 4, 1, 0, 1, 4, 4]", "2265.75", 0},
    {"cup", 10, 0.05, KEPS_METRIC_AECS, 1, 0, KEPS_AGGREGATE_DEFAULT, NULL, "[3, 1, 1, 1, 1, 3, 2]", "43.57211538461539", 0},
    {"cup", 5, 0, KEPS_METRIC_HEIGHT, 0.5, 0, KEPS_AGGREGATE_SUM, NULL, "[5, 2, 1, 1, 1, 4, 4]", "18.0", 0},
    {"cup", 50, 0.1, KEPS_METRIC_ENTROPY, 0.2, 0, KEPS_AGGREGATE_DEFAULT, NULL, "[3, 4, 1, 0, 0, 3, 1]", "1406981.8665427614", 0},
};

/* "NAME=W,..." -> per-QI weights in d's QI order (0.5 if not named). */
static void harness_weights(const dataset *d, const char *spec, double *w)
{
    for (size_t i = 0; i < d->L->q; i++)
        w[i] = 0.5;
    while (spec && *spec) {
        const char *eq = strchr(spec, '='), *end = strchr(spec, ',');
        assert_non_null(eq);
        size_t i = 0;
        for (; i < d->L->q; i++) {
            const char *n = d->t->cols[d->s->qi[i].col].name;
            if (strlen(n) == (size_t)(eq - spec) && strncmp(n, spec, (size_t)(eq - spec)) == 0)
                break;
        }
        assert_true(i < d->L->q);
        w[i] = strtod(eq + 1, NULL);
        spec = end ? end + 1 : NULL;
    }
}

static void check_harness(dataset *d, const char *ds)
{
    size_t n = sizeof harness_cases / sizeof *harness_cases, ran = 0;
    for (size_t i = 0; i < n; i++) {
        const harness_case *h = &harness_cases[i];
        if (strcmp(h->ds, ds) != 0 || (getenv("KEPS_SANITIZED") && i % 4))
            continue;
        double w[16];
        harness_weights(d, h->weights, w);
        keps_metric_config cfg = {h->metric, h->gs, h->monotonic, h->agg, h->weights ? w : NULL};
        char id[64];
        snprintf(id, sizeof id, "ARX 3.9.2 optimum %zu (%s)", i, ds);
        arx_optimum o = {id, h->k, h->s, h->node, h->loss};
        check_optimum(d, &o, cfg, h->exhaustive, 0);
        ran++;
    }
    assert_true(ran > 0);
}

static void test_adult_harness(void **state)
{
    (void)state;
    dataset d;
    load_adult(&d, adult_qi8, 8, 0);
    check_harness(&d, "adult");
    ds_free(&d);
}

static void test_cup_harness(void **state)
{
    (void)state;
    dataset d;
    if (!load_cup(&d, cup_qi7, 7))
        return;
    check_harness(&d, "cup");
    ds_free(&d);
}

/* Regression found with the cup cases above: OLA's staged roll-up
 * (src/ola.c source_for) looped forever when generalizing the chosen
 * coordinate merged no classes of a large source (more than 4096 classes).
 * Here: 5000 rows with unique A (hierarchy pairs values, then *) and a
 * constant B whose hierarchy lists 100 values (so B has the largest
 * hierarchy-size ratio and is generalized first, merging nothing).
 * Hand computation: k=2, no suppression: (0,*) keeps 5000 singletons, the
 * k-minimal node is (1,0), 2500 classes of 2; with B's level free, (1,1) has
 * the same classes, and the least-loss node under prec is (1,0):
 * prec = (1/2 + 0)/2 = 0.25. */
static void test_staging_terminates(void **state)
{
    (void)state;
    size_t n = 5000;
    char *data = malloc(n * 16 + 16), *ha = malloc(n * 32), hb[2048];
    size_t o = (size_t)sprintf(data, "A;B\n"), oa = 0, ob = 0;
    for (size_t i = 0; i < n; i++) {
        o += (size_t)sprintf(data + o, "a%zu;b0\n", i);
        oa += (size_t)sprintf(ha + oa, "a%zu;p%zu;*\n", i, i / 2);
    }
    for (int i = 0; i < 100; i++)
        ob += (size_t)sprintf(hb + ob, "b%d;*\n", i);
    keps_table *t = table_from_csv(data);
    keps_schema *s = keps_schema_new(t);
    keps_error err = {0};
    char spec[600];
    snprintf(spec, sizeof spec, "A:%s", temp_file(ha));
    assert_int_equal(keps_schema_add_qi(s, t, spec, &err), KEPS_OK);
    snprintf(spec, sizeof spec, "B:%s", temp_file(hb));
    assert_int_equal(keps_schema_add_qi(s, t, spec, &err), KEPS_OK);
    keps_lattice *L = NULL;
    assert_int_equal(keps_lattice_new(s, &L, &err), KEPS_OK);
    assert_int_equal(L->bottom.n, n);
    keps_ola_params p = {2, 0, KEPS_METRIC_PREC, 1};
    keps_ola_result r;
    assert_int_equal(keps_ola_run(L, &p, &r, &err), KEPS_OK);
    assert_true(r.found);
    assert_int_equal(r.levels[0], 1);
    assert_int_equal(r.levels[1], 0);
    assert_double_near(r.metrics.v[KEPS_METRIC_PREC], 0.25, 1e-12);
    keps_ola_result_free(&r);
    keps_lattice_free(L);
    keps_schema_free(s);
    keps_table_free(t);
    free(data);
    free(ha);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_adult_metric_values),
        cmocka_unit_test(test_cup_metric_values),
        cmocka_unit_test(test_adult_ola),
        cmocka_unit_test(test_adult_loss_cases),
        cmocka_unit_test(test_adult_harness),
        cmocka_unit_test(test_cup_harness),
        cmocka_unit_test(test_cup_ola),
        cmocka_unit_test(test_staging_terminates),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    return failed ? failed : missing_data ? 77 : 0;
}
