/* CLI of anonymize --algorithm mondrian|mdav and risk: outputs on tiny
 * hand-checked inputs, and bad input (non-numeric cell, k > rows, k < 1,
 * constant column, row-count mismatch): exit codes, messages, no output
 * file left behind, never NaN. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

static char out[1 << 16], errb[1 << 14];

static const char *out_path(void)
{
    static char p[64];
    snprintf(p, sizeof p, "/tmp/keps_micro_cli_%d.csv", (int)getpid());
    unlink(p);
    return p;
}

static char *slurp(const char *path)
{
    static char buf[1 << 16];
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

static int keps(const char *fmt, ...)
{
    char args[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(args, sizeof args, fmt, ap);
    va_end(ap);
    return run_keps(args, out, sizeof out, errb, sizeof errb);
}

/* x = 1,2,3,10,11,12, k = 3: groups {1,2,3} {10,11,12} (see test_mdav),
 * centroids 2 and 11; y is constant (released as 5, a note says so). */
static void test_mdav_cli(void **state)
{
    (void)state;
    const char *in = temp_file("id,x,y\na,1,5\nb,2,5\nc,3,5\nd,10,5\ne,11,5\nf,12,5\n");
    const char *o = out_path();
    assert_int_equal(keps("anonymize --algorithm mdav -i %s -o %s --columns x --columns y --identifier id -k 3 "
                          "--keep-order --json",
                          in, o),
                     0);
    assert_string_equal(slurp(o), "x,y\n2,5\n2,5\n2,5\n11,5\n11,5\n11,5\n");
    assert_non_null(strstr(out, "\"guarantee\":{\"model\":\"k-anonymity\",\"k\":3}"));
    assert_non_null(strstr(out, "\"sse\":4,"));
    assert_non_null(strstr(out, "\"group_sizes\":{\"3\":2}"));
    assert_non_null(strstr(errb, "'y' is constant"));
    assert_null(strstr(out, "nan"));
    assert_null(strstr(out, "null"));
    unlink(o);
}

static void test_mdav_cli_bad(void **state)
{
    (void)state;
    const char *o = out_path();
    const char *bad = temp_file("x,y\n1,5\n2,oops\n3,5\n");
    assert_int_equal(keps("anonymize --algorithm mdav -i %s -o %s --columns x --columns y -k 2", bad, o), 2);
    assert_non_null(strstr(errb, ":3:2:"));
    assert_non_null(strstr(errb, "'oops' is not a number"));
    assert_int_equal(access(o, F_OK), -1);
    const char *good = temp_file("x,y\n1,5\n2,6\n3,5\n");
    assert_int_equal(keps("anonymize --algorithm mdav -i %s -o %s --columns x --columns y -k 4", good, o), 1);
    assert_non_null(strstr(errb, "larger than the number of records"));
    assert_int_equal(access(o, F_OK), -1);
    assert_int_equal(keps("anonymize --algorithm mdav -i %s -o %s --columns x --columns y -k 0", good, o), 2);
    assert_int_equal(access(o, F_OK), -1);
    /* a hierarchy on an MDAV column is a usage error */
    const char *h = temp_file("1;*\n2;*\n3;*\n");
    assert_int_equal(keps("anonymize --algorithm mdav -i %s -o %s --qi x:%s --columns y -k 2", good, o, h), 2);
    assert_non_null(strstr(errb, "numeric columns"));
    assert_int_equal(access(o, F_OK), -1);
}

/* The Mondrian hand example of test_mondrian (k = 2): classes
 * {20,25|A1} {20,25|A2} {30,30|B1}; NCP 1/6. */
static void test_mondrian_cli(void **state)
{
    (void)state;
    const char *in = temp_file("age,city,x\n20,A1,a\n20,A2,b\n25,A1,c\n25,A2,d\n30,B1,e\n30,B1,f\n");
    const char *h = temp_file("A1;A;*\nA2;A;*\nB1;B;*\n");
    const char *o = out_path();
    assert_int_equal(keps("anonymize --algorithm mondrian -i %s -o %s --qi age --qi city:%s --insensitive x -k 2 "
                          "--keep-order --json",
                          in, o, h),
                     0);
    assert_string_equal(slurp(o), "age,city,x\n[20-25],A1,a\n[20-25],A2,b\n[20-25],A1,c\n[20-25],A2,d\n30,B1,e\n30,B1,f\n");
    assert_non_null(strstr(out, "\"ncp\":0.1666666666666"));
    assert_non_null(strstr(out, "\"discernibility\":12"));
    assert_non_null(strstr(out, "\"classes\":3"));
    /* k = 7 > 6 rows: exit 1, nothing written */
    unlink(o);
    assert_int_equal(keps("anonymize --algorithm mondrian -i %s -o %s --qi age --qi city:%s --insensitive x -k 7",
                          in, o, h),
                     1);
    assert_int_equal(access(o, F_OK), -1);
}

/* risk on the MDAV release above: x is the only informative column (y is
 * constant). Original x standardized; release 2,2,2,11,11,11. For the
 * originals 1,2,3 the nearest released value is 2 (three copies): 1/3
 * each; same for 10,11,12 -> RL = 1/3. Prosecutor on x: two classes of 3. */
static void test_risk_cli(void **state)
{
    (void)state;
    const char *orig = temp_file("x,y\n1,5\n2,5\n3,5\n10,5\n11,5\n12,5\n");
    const char *rel = temp_file("x,y\n2,5\n2,5\n2,5\n11,5\n11,5\n11,5\n");
    assert_int_equal(keps("risk --original %s --release %s --columns x --columns y --json", orig, rel), 0);
    assert_non_null(strstr(out, "\"record_linkage\":0.3333333333"));
    assert_non_null(strstr(out, "\"prosecutor_max\":0.3333333333"));
    assert_non_null(strstr(out, "\"prosecutor_avg\":0.3333333333"));
    /* two rows suppressed ('*' in the only QI): left out by default, classes
     * {2 x3} and {11 x1}: max 1, avg 2/4; --suppressed class adds {* x2}:
     * avg 3/6 */
    const char *starred = temp_file("x,y\n2,5\n2,5\n2,5\n11,5\n*,5\n*,5\n");
    assert_int_equal(keps("risk --original %s --release %s --qi x --json", orig, starred), 0);
    assert_non_null(strstr(out, "\"suppressed_rows\":2"));
    assert_non_null(strstr(out, "\"records_in_classes\":4"));
    assert_non_null(strstr(out, "\"prosecutor_max\":1,"));
    assert_non_null(strstr(out, "\"prosecutor_avg\":0.5,"));
    assert_int_equal(keps("risk --original %s --release %s --qi x --suppressed class --json", orig, starred), 0);
    assert_non_null(strstr(out, "\"records_in_classes\":6"));
    assert_non_null(strstr(out, "\"prosecutor_avg\":0.5,"));
    assert_int_equal(keps("risk --original %s --release %s --qi x --suppressed drop", orig, starred), 2);
    const char *shorter = temp_file("x,y\n2,5\n2,5\n2,5\n11,5\n11,5\n");
    assert_int_equal(keps("risk --original %s --release %s --columns x", orig, shorter), 2);
    assert_non_null(strstr(errb, "--keep-order"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mdav_cli),
        cmocka_unit_test(test_mdav_cli_bad),
        cmocka_unit_test(test_mondrian_cli),
        cmocka_unit_test(test_risk_cli),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
