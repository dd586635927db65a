/* CLI: keps privacy rr-epsilon / rr-t / implies (docs/cli.md examples) and keps rr. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

static char out[1 << 16], err[1 << 14];

/* The number after "key": in a JSON text (fails the test if absent). */
static double json_num(const char *json, const char *key)
{
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    const char *p = strstr(json, pat);
    if (!p)
        fprintf(stderr, "no %s in %s\n", key, json);
    assert_non_null(p);
    return strtod(p + strlen(pat), NULL);
}

/* docs/cli.md: --from ldp --epsilon E --to kt -k K --records N gives t.
 * eps = ln(195/95), k = 5, N = 100: t = (5 + 95 * 195/95)/100 = 2. */
static void test_implies_ldp_to_kt(void **state)
{
    (void)state;
    assert_int_equal(run_keps("privacy implies --from ldp --epsilon 0.71912308 --to kt -k 5 --records 100 --json",
                              out, sizeof out, err, sizeof err),
                     0);
    assert_double_near(json_num(out, "result"), 2.0, 1e-6);
    assert_double_near(json_num(out, "to_k"), 5, 0);
}

/* docs/cli.md: --from kt -k 1 --t T --to ldp gives eps = ln T^2: T = 3 -> ln 9. */
static void test_implies_kt_to_ldp(void **state)
{
    (void)state;
    assert_int_equal(run_keps("privacy implies --from kt -k 1 --t 3 --to ldp --json", out, sizeof out, err, sizeof err), 0);
    assert_double_near(json_num(out, "result"), log(9.0), 1e-12);
    /* k > 1 is Theorem 3's impossible direction */
    assert_int_equal(run_keps("privacy implies --from kt -k 2 --t 3 --to ldp", out, sizeof out, err, sizeof err), 1);
    assert_non_null(strstr(err, "Theorem 3"));
}

/* docs/cli.md: --from kt --t T -k K --records N --to kdp gives (N-k, ln t). */
static void test_implies_kt_to_kdp(void **state)
{
    (void)state;
    assert_int_equal(run_keps("privacy implies --from kt --t 2 -k 5 --records 100 --to kdp --json", out, sizeof out,
                              err, sizeof err),
                     0);
    assert_double_near(json_num(out, "result"), log(2.0), 1e-12);
    assert_double_near(json_num(out, "to_k"), 95, 0);
    assert_int_equal(run_keps("privacy implies --from kt --t 2 -k 5 --records 100 --to kdp --to-k 96", out,
                              sizeof out, err, sizeof err),
                     1);
    assert_non_null(strstr(err, "Theorem 4.2"));
}

static void test_implies_refusals(void **state)
{
    (void)state;
    static const struct {
        const char *to, *theorem;
    } cases[] = {{"ldp", "Theorem 1"}, {"kt", "Lemma 2.3"}, {"kdp", "Theorem 5"}};
    for (size_t i = 0; i < 3; i++) {
        char cmd[256];
        snprintf(cmd, sizeof cmd, "privacy implies --from tclose --t 2 -k 5 --records 100 --to %s --json",
                 cases[i].to);
        assert_int_equal(run_keps(cmd, out, sizeof out, err, sizeof err), 1);
        assert_non_null(strstr(err, cases[i].theorem));
        assert_int_equal(out[0], '\0');
    }
    /* missing --from is a usage error */
    assert_int_equal(run_keps("privacy implies --to kt --t 2", out, sizeof out, err, sizeof err), 2);
}

/* rr-epsilon -p 0.5 -n 2: ln(1 + 2*0.5/0.5) = ln 3; inverse gives p = 0.5.
 * rr-t --pt 0.5 with frequencies 1:3: t = 1 + 0.5 (4 - 1) = 2.5. */
static void test_rr_calculators(void **state)
{
    (void)state;
    assert_int_equal(run_keps("privacy rr-epsilon -p 0.5 -n 2 --json", out, sizeof out, err, sizeof err), 0);
    assert_double_near(json_num(out, "result"), log(3.0), 1e-12);
    assert_int_equal(run_keps("privacy rr-epsilon --epsilon 1.0986122886681098 -n 2 --json", out, sizeof out, err,
                              sizeof err),
                     0);
    assert_double_near(json_num(out, "result"), 0.5, 1e-9);
    assert_int_equal(run_keps("privacy rr-t --pt 0.5 --frequencies 1,3 --json", out, sizeof out, err, sizeof err), 0);
    assert_double_near(json_num(out, "result"), 2.5, 1e-12);
    assert_int_equal(run_keps("privacy rr-t --t 2.5 --frequencies 1,3 --json", out, sizeof out, err, sizeof err), 0);
    assert_double_near(json_num(out, "result"), 0.5, 1e-9);
    assert_int_equal(run_keps("privacy rr-epsilon -p 0.5", out, sizeof out, err, sizeof err), 2);
}

/* 2-anonymous on zip: classes {a,a,a}, {b,b}; sensitive disease. */
static const char *csv = "zip,disease,name\n"
                         "a,flu,x1\na,cold,x2\na,flu,x3\nb,cancer,x4\nb,flu,x5\n";

static void test_rr_command(void **state)
{
    (void)state;
    const char *in = temp_file(csv);
    char rel[64], cmd[512];
    snprintf(rel, sizeof rel, "%s.out.csv", in);
    snprintf(cmd, sizeof cmd,
             "rr --mechanism ldp -i %s -o %s --sensitive disease --qi zip --identifier name -p 0.5 -k 2 --seed 3 "
             "--json",
             in, rel);
    assert_int_equal(run_keps(cmd, out, sizeof out, err, sizeof err), 0);
    /* n = 3, p = 0.5: eps = ln(1 + 3*0.5/0.5) = ln 4 */
    assert_double_near(json_num(out, "epsilon"), log(4.0), 1e-12);
    assert_double_near(json_num(out, "input_rows"), 5, 0);
    assert_double_near(json_num(out, "output_rows"), 5, 0);
    assert_double_near(json_num(out, "smallest_class"), 2, 0);
    /* the categories (flu, cold, cancer) come from the data: no plain epsilon-LDP */
    assert_non_null(strstr(out, "\"model\":\"epsilon-LDP (data-dependent)\""));
    assert_non_null(strstr(out, "\"domain_from_data\":true"));
    assert_non_null(strstr(out, "\"verified\""));
    FILE *f = fopen(rel, "r");
    assert_non_null(f);
    char line[256];
    int lines = 0;
    while (fgets(line, sizeof line, f))
        lines++;
    fclose(f);
    assert_int_equal(lines, 6);
    unlink(rel);
    /* -k 3: the input is only 2-anonymous -> exit 1, no output */
    snprintf(cmd, sizeof cmd, "rr --mechanism tclose -i %s -o %s --sensitive disease --qi zip --identifier name "
                              "--t 2 -k 3",
             in, rel);
    assert_int_equal(run_keps(cmd, out, sizeof out, err, sizeof err), 1);
    assert_int_equal(access(rel, F_OK), -1);
    /* tclose takes no -p */
    snprintf(cmd, sizeof cmd, "rr --mechanism tclose -i %s --sensitive disease --qi zip --identifier name -p 0.5", in);
    assert_int_equal(run_keps(cmd, out, sizeof out, err, sizeof err), 2);
}

/* --partition mondrian: 6 records on a numeric age, k = 3: Mondrian cuts at
 * the median into {20,21,22} and {40,41,42}: 2 classes of 3. */
/* The first data row (after the header) of a released CSV. */
static void first_row(const char *path, char *line, size_t n)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    assert_non_null(fgets(line, (int)n, f));
    assert_non_null(fgets(line, (int)n, f));
    fclose(f);
}

static void test_rr_mondrian(void **state)
{
    (void)state;
    const char *in = temp_file("age,disease\n20,flu\n21,cold\n22,flu\n40,cancer\n41,flu\n42,cold\n");
    char rel[64], cmd[512];
    snprintf(rel, sizeof rel, "%s.out.csv", in);
    snprintf(cmd, sizeof cmd,
             "rr --mechanism tclose -i %s -o %s --sensitive disease --qi age --partition mondrian -k 3 --pt 0.5 "
             "--seed 1 --keep-order --json",
             in, rel);
    assert_int_equal(run_keps(cmd, out, sizeof out, err, sizeof err), 0);
    assert_non_null(strstr(out, "\"partition\":\"mondrian\""));
    assert_double_near(json_num(out, "classes"), 2, 0);
    assert_double_near(json_num(out, "smallest_class"), 3, 0);
    char line[256];
    first_row(rel, line, sizeof line);
    assert_non_null(strstr(line, "[20-22]"));
    unlink(rel);
    /* mondrian without -k is a usage error */
    snprintf(cmd, sizeof cmd, "rr --mechanism tclose -i %s --sensitive disease --qi age --partition mondrian --pt 0.5",
             in);
    assert_int_equal(run_keps(cmd, out, sizeof out, err, sizeof err), 2);
}

/* --partition ola: ages 20,21,22,40,41,42 with the hierarchy
 * 2x -> 20-29 -> *, 4x -> 40-49 -> *. At k = 3 the bottom node has classes
 * of 1, level 1 gives {20-29: 3, 40-49: 3}: the only 3-anonymous node below
 * the top, and the one OLA must pick (lower loss than '*'). */
static void test_rr_ola(void **state)
{
    (void)state;
    const char *in = temp_file("age,disease\n20,flu\n21,cold\n22,flu\n40,cancer\n41,flu\n42,cold\n");
    const char *h = temp_file("20;20-29;*\n21;20-29;*\n22;20-29;*\n40;40-49;*\n41;40-49;*\n42;40-49;*\n");
    char rel[64], cmd[512];
    snprintf(rel, sizeof rel, "%s.out.csv", in);
    snprintf(cmd, sizeof cmd,
             "rr --mechanism ldp -i %s -o %s --sensitive disease --qi age:%s --partition ola -k 3 -p 0.5 "
             "--seed 1 --keep-order --json",
             in, rel, h);
    assert_int_equal(run_keps(cmd, out, sizeof out, err, sizeof err), 0);
    assert_non_null(strstr(out, "\"partition\":\"ola\""));
    assert_non_null(strstr(out, "\"transformation\":{\"age\":1}"));
    assert_double_near(json_num(out, "classes"), 2, 0);
    assert_double_near(json_num(out, "smallest_class"), 3, 0);
    char line[256];
    first_row(rel, line, sizeof line);
    assert_non_null(strstr(line, "20-29,"));
    unlink(rel);
    /* k = 4: only the top node works, still without suppression */
    snprintf(cmd, sizeof cmd, "rr --mechanism ldp -i %s -o %s --sensitive disease --qi age:%s --partition ola "
             "-k 4 -p 0.5 --json", in, rel, h);
    assert_int_equal(run_keps(cmd, out, sizeof out, err, sizeof err), 0);
    assert_non_null(strstr(out, "\"transformation\":{\"age\":2}"));
    assert_double_near(json_num(out, "classes"), 1, 0);
    unlink(rel);
}

/* Options the chosen mechanism or calculator does not read (docs/cli.md). */
static void test_mode_options(void **state)
{
    (void)state;
    const char *in = temp_file(csv);
    const char *h = temp_file("a;*\nb;*\n");
    char rel[64], cmd[512];
    snprintf(rel, sizeof rel, "%s.out.csv", in);
    /* ldp with -p and --t: p = 0.5 over n = 3 is eps = ln 4 whatever t asks, so
     * the target t went unmet: refused before any output */
    snprintf(cmd, sizeof cmd, "rr --mechanism ldp -i %s -o %s --sensitive disease --qi zip --identifier name -p 0.5 "
                              "--t 1.5 --seed 3",
             in, rel);
    assert_int_equal(run_keps(cmd, out, sizeof out, err, sizeof err), 2);
    assert_non_null(strstr(err, "give p or t"));
    assert_int_equal(access(rel, F_OK), -1);
    /* --partition given groups the values as they stand: the hierarchy is unused, a note says so */
    snprintf(cmd, sizeof cmd, "rr --mechanism ldp -i %s -o %s --sensitive disease --qi zip:%s --identifier name "
                              "-p 0.5 --seed 3",
             in, rel, h);
    assert_int_equal(run_keps(cmd, out, sizeof out, err, sizeof err), 0);
    assert_non_null(strstr(err, "note: the hierarchy of --qi zip is not used: with --partition given"));
    unlink(rel);
    /* rr-t: -p is --pt's other name; both would drop one */
    assert_int_equal(run_keps("privacy rr-t --pt 0.5 -p 0.6 --frequencies 1,3", out, sizeof out, err, sizeof err), 2);
    assert_non_null(strstr(err, "give one"));
    /* implies --from ldp: -k and --to-k both name the target's group size */
    assert_int_equal(run_keps("privacy implies --from ldp --epsilon 1 --to kt -k 5 --to-k 10 --records 100", out,
                              sizeof out, err, sizeof err),
                     2);
    assert_non_null(strstr(err, "-k 5 and --to-k 10"));
    /* an option the calculator does not read: a note, the answer unchanged
     * (ln 3 as in test_rr_calculators) */
    assert_int_equal(run_keps("privacy rr-epsilon -p 0.5 -n 2 --frequencies 1,3 --delta 0.1 --json", out, sizeof out,
                              err, sizeof err),
                     0);
    assert_double_near(json_num(out, "result"), log(3.0), 1e-12);
    assert_non_null(strstr(err, "note: --frequencies applies to keps privacy rr-t only and is ignored"));
    assert_non_null(strstr(err, "note: --delta applies to keps privacy min-k only"));
    /* --from ldp's level is --epsilon: --t is noted, t = 2 as in test_implies_ldp_to_kt */
    assert_int_equal(run_keps("privacy implies --from ldp --epsilon 0.71912308 --t 9 --to kt -k 5 --records 100 "
                              "--json",
                              out, sizeof out, err, sizeof err),
                     0);
    assert_double_near(json_num(out, "result"), 2.0, 1e-6);
    assert_non_null(strstr(err, "note: --t applies to --from tclose or kt only"));
    assert_int_equal(run_keps("privacy rr-epsilon -p 0.5 -n 2 --frequencies 1,3 --quiet", out, sizeof out, err,
                              sizeof err),
                     0);
    assert_null(strstr(err, "note:"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_implies_ldp_to_kt), cmocka_unit_test(test_implies_kt_to_ldp),
        cmocka_unit_test(test_implies_kt_to_kdp), cmocka_unit_test(test_implies_refusals),
        cmocka_unit_test(test_rr_calculators),    cmocka_unit_test(test_rr_command),
        cmocka_unit_test(test_rr_mondrian),       cmocka_unit_test(test_rr_ola),
        cmocka_unit_test(test_mode_options),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
