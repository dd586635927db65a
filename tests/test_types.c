/* Column types (numbers vs codes), the decimal comma, input precision,
 * output rounding, declared types in the schema and the train/test split.
 * Expected values by hand in the comments (docs/spec.md, section 1 and
 * "Output precision"); tests/oracles/check_digits.py checks the rounding
 * of whole releases with Python's decimal module. */
#include <string.h>

#include "keps/evaluate.h"
#include "keps/mondrian.h"
#include "keps/release.h"
#include "keps/schema.h"
#include "testutil.h"

static keps_col_type type_of(const char *csv, size_t *row, const char **why)
{
    keps_table *t = table_from_csv(csv);
    keps_col_type ty = keps_table_infer_type(t, 0, row, why);
    keps_table_free(t);
    return ty;
}

/* Numbers written as numbers are numeric; codes are not: a leading zero
 * (01097, 007, -01.5), or a whole number a double does not hold exactly:
 * 2^53 + 1 = 9007199254740993 reads as 9007199254740992. 2^53 itself and
 * 1e20 (written with an exponent: a measurement) are numbers. */
static void infer_types(void **state)
{
    (void)state;
    const char *numeric[] = {"x\n0\n0.5\n-0.25\n+5\n1.50\n1e3\n.5\n",
                             "x\n9007199254740992\n-3\n",
                             "x\n12345678901234567890e0\n",
                             "x\n1\n\"\"\n"}; /* a missing cell does not count */
    for (size_t i = 0; i < sizeof numeric / sizeof *numeric; i++)
        assert_int_equal(type_of(numeric[i], NULL, NULL), KEPS_TYPE_NUMERIC);
    static const struct {
        const char *csv;
        size_t row;
        const char *why;
    } codes[] = {{"zip\n1097\n01097\n", 1, "has a leading zero"},
                 {"x\n007\n", 0, "has a leading zero"},
                 {"x\n1\n-01.5\n", 1, "has a leading zero"},
                 {"x\n9007199254740993\n", 0, "has more digits than a number keeps"},
                 {"x\n12345678901234567890\n", 0, "has more digits than a number keeps"},
                 {"x\n1\nabc\n", 1, "is not a number"},
                 {"x\n0x1A\n", 0, "is hexadecimal"},
                 {"x\n1e101\n", 0, "is beyond the magnitude 1e100"}};
    for (size_t i = 0; i < sizeof codes / sizeof *codes; i++) {
        size_t row = 99;
        const char *why = NULL;
        assert_int_equal(type_of(codes[i].csv, &row, &why), KEPS_TYPE_CATEGORICAL);
        assert_int_equal(row, codes[i].row);
        assert_non_null(strstr(why, codes[i].why));
    }
    size_t row = 0;
    assert_int_equal(type_of("x\n\"\"\n", &row, NULL), KEPS_TYPE_CATEGORICAL); /* nothing but missing */
    assert_int_equal(row, (size_t)-1);
}

/* decimals = digits after the mark minus the exponent, at least 0. */
static void input_precision(void **state)
{
    (void)state;
    static const struct {
        const char *csv;
        int want;
    } cases[] = {{"x\n170\n", 0},         {"x\n170\n170.5\n", 1}, {"x\n170.50\n", 2}, {"x\n1.25e1\n", 1},
                 {"x\n5e-3\n", 3},        {"x\n1.5e3\n", 0},      {"x\n-0.125\n2\n", 3}, {"x\n\"\"\n7.25\n", 2},
                 {"x\nabc\n1.5\n", 1}}; /* a cell that is no number counts 0 */
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        keps_table *t = table_from_csv(cases[i].csv);
        assert_int_equal(keps_table_decimals(t, 0), cases[i].want);
        keps_table_free(t);
    }
    keps_table *t = table_from_csv("x;y\n\"170,25\";1\n180;2\n");
    t->decimal_comma = 1;
    assert_int_equal(keps_table_decimals(t, 0), 2);
    keps_table_free(t);
}

/* With a decimal comma "170,5" is 170.5 and a '.' is refused (1.705 or
 * 1705?); without one "170,5" is no number. */
static void decimal_comma(void **state)
{
    (void)state;
    keps_table *t = table_from_csv("h;g\n170,5;a\n-0,25;b\n180;c\n");
    keps_error err = {0};
    assert_int_equal(keps_table_infer_type(t, 0, NULL, NULL), KEPS_TYPE_CATEGORICAL);
    t->decimal_comma = 1;
    assert_int_equal(keps_table_infer_type(t, 0, NULL, NULL), KEPS_TYPE_NUMERIC);
    assert_int_equal(keps_table_numeric(t, 0, &err), KEPS_OK);
    assert_true(keps_table_num(t, 0, 0) == 170.5);
    assert_true(keps_table_num(t, 0, 1) == -0.25);
    char buf[32];
    keps_format_number_in(buf, sizeof buf, 172.25, t);
    assert_string_equal(buf, "172,25");
    keps_table_free(t);
    t = table_from_csv("h;g\n170,5;a\n170.5;b\n");
    t->decimal_comma = 1;
    assert_int_equal(keps_table_numeric(t, 0, &err), KEPS_EINPUT);
    assert_non_null(strstr(err.msg, "test.csv:3:1: column 'h': '170.5' holds a '.', but the data's decimal mark is ','"));
    keps_table_free(t);
}

/* Rounding to d decimals rounds the exact binary value, halfway cases to
 * even (printf's %.*f): 172.38461538461539 -> 172.4; 0.125 is exact and
 * halfway: 0.12 (2 even); 0.375 -> 0.38 (8 even); 2.675 is stored as
 * 2.67499999999999982236431605997495353221893310546875 -> 2.67 (as
 * Python's round(2.675, 2)); -0.04 at 1 decimal is 0, never "-0". */
static void rounding(void **state)
{
    (void)state;
    char buf[32];
    static const struct {
        double v;
        int d;
        const char *want;
    } cases[] = {{172.38461538461539, 1, "172.4"}, {0.125, 2, "0.12"}, {0.375, 2, "0.38"}, {2.675, 2, "2.67"},
                 {-0.04, 1, "0"},                 {1234.5, 0, "1234"}, {1235.5, 0, "1236"}, {1e100, 3, "1e+100"},
                 {0.1 + 0.2, 17, "0.30000000000000004"}, {172.38461538461539, -1, "172.3846153846154"}}; /* -1: exact (16 digits read back) */
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        keps_format_number(buf, sizeof buf, keps_round_decimals(cases[i].v, cases[i].d));
        if (strcmp(buf, cases[i].want))
            fprintf(stderr, "%.17g at %d: got %s want %s\n", cases[i].v, cases[i].d, buf, cases[i].want);
        assert_string_equal(buf, cases[i].want);
    }
    /* round, then clamp (a bound with more decimals stays as it is); NaN stays */
    double v[] = {99.96, 250.06, NAN, 150.55}; /* 99.96 -> 100 < 100.05; 250.06 -> 250.1 > 250 */
    assert_int_equal(keps_round_clamp(v, 4, 1, 1, 100.05, 250), 2);
    assert_true(v[0] == 100.05 && v[1] == 250 && isnan(v[2]));
    keps_format_number(buf, sizeof buf, v[3]);
    assert_string_equal(buf, "150.6"); /* 150.55 is 150.55000000000001136868377216160297393798828125: up */
}

/* NAME:numeric declares a column numeric: Mondrian then splits ZIP codes
 * as numbers (01097 -> 1097). Without it the column is categorical and
 * Mondrian without a hierarchy names the cell and the ways out. */
static void declared_numeric(void **state)
{
    (void)state;
    keps_table *t = table_from_csv("zip,h\n01097,170\n01099,180\n02110,165\n02111,171\n");
    keps_schema *s = keps_schema_new(t);
    keps_error err = {0};
    assert_int_equal(keps_schema_add_qi(s, t, "zip", &err), KEPS_OK);
    assert_int_equal(keps_schema_set_role(s, "h:numeric", KEPS_ROLE_NOISY, &err), KEPS_OK);
    assert_int_equal(s->type[1], KEPS_TYPE_NUMERIC);
    keps_mondrian_result r;
    assert_int_equal(keps_mondrian(s, t, 2, &r, &err), KEPS_EINPUT);
    assert_non_null(strstr(err.msg, "test.csv:2:1: column 'zip': '01097' has a leading zero, so the column holds "
                                    "codes, not numbers"));
    assert_non_null(strstr(err.msg, "'zip:numeric'"));
    keps_schema_free(s);
    s = keps_schema_new(t);
    assert_int_equal(keps_schema_add_qi(s, t, "zip:numeric", &err), KEPS_OK);
    assert_null(s->qi[0].h);
    assert_int_equal(keps_mondrian(s, t, 2, &r, &err), KEPS_OK);
    char label[64];
    keps_mondrian_label(s, &r, r.cls[0], 0, label, sizeof label);
    assert_string_equal(label, "[1097-1099]"); /* the number, as declared */
    keps_mondrian_result_free(&r);
    keps_schema_free(s);
    keps_table_free(t);
}

/* A split of 10 rows at 0.25 holds out round(2.5) = 3 rows (halves round
 * up, as llround); at 0.04, round(0.4) = 0: refused, with the fractions
 * that work (0.1 to 0.9 for 10 rows). */
static void split_rows(void **state)
{
    (void)state;
    keps_rng *rng = keps_rng_new_seeded(7);
    uint8_t test[10];
    size_t nt = 0, sum = 0;
    keps_error err = {0};
    assert_int_equal(keps_eval_split(10, 0.25, rng, test, &nt, &err), KEPS_OK);
    for (int i = 0; i < 10; i++)
        sum += test[i];
    assert_int_equal(nt, 3);
    assert_int_equal(sum, 3);
    assert_int_equal(keps_eval_split(10, 0.04, rng, test, &nt, &err), KEPS_EINPUT);
    assert_non_null(strstr(err.msg, "a split from 0.1 (1 test row) to 0.9 (1 training row)"));
    keps_rng_free(rng);
    /* the rows of a table, in the order asked */
    keps_table *t = table_from_csv("a,b\n1,x\n2,y\n3,z\n");
    size_t rows[] = {2, 0};
    keps_table *p = keps_table_rows(t, rows, 2, &err);
    const char *want[] = {"3", "z", "1", "x"};
    assert_table_cells(p, 2, 2, want);
    assert_int_equal(p->row_line[0], 4);
    keps_table_free(p);
    keps_table_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(infer_types), cmocka_unit_test(input_precision),  cmocka_unit_test(decimal_comma),
        cmocka_unit_test(rounding),    cmocka_unit_test(declared_numeric), cmocka_unit_test(split_rows),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
