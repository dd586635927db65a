/* keps_table_append_columns: a table built column by column (the way the
 * Python and R packages hand over a data frame) must equal the table that
 * keps_table_append builds row by row from the same strings: that call is
 * the independent reference (it interns each cell as the CSV reader does).
 * A hand-worked case pins the dictionaries in order of first occurrence. */
#include <string.h>

#include "keps/rng.h"
#include "testutil.h"

/* Fails unless a and b hold the same columns, dictionaries (same order),
 * codes, first rows, missing codes and counts, and source lines. */
static void assert_same_table(const keps_table *a, const keps_table *b)
{
    assert_int_equal(a->nrows, b->nrows);
    assert_int_equal(a->ncols, b->ncols);
    for (size_t j = 0; j < a->ncols; j++) {
        const keps_column *x = &a->cols[j], *y = &b->cols[j];
        assert_string_equal(x->name, y->name);
        assert_int_equal(x->nvalues, y->nvalues);
        for (uint32_t v = 0; v < x->nvalues; v++) {
            assert_string_equal(x->values[v], y->values[v]);
            assert_int_equal(x->first_row[v], y->first_row[v]);
        }
        assert_int_equal(x->missing, y->missing);
        assert_int_equal(x->missing_count, y->missing_count);
        for (size_t i = 0; i < a->nrows; i++)
            assert_int_equal(x->codes[i], y->codes[i]);
    }
    for (size_t i = 0; i < a->nrows; i++)
        assert_int_equal(a->row_line[i], b->row_line[i]);
}

/* Column "c": dictionary {"b", "a", "b"} (a repeat), codes 0 1 -1 2 1:
 * rows b, a, missing, b, a. By first occurrence: b = 0, a = 1, "" = 2;
 * first rows 0, 1, 2; one missing cell. Column "n": "x" in every row,
 * the unused entry "never" is not interned. */
static void hand_case(void **state)
{
    (void)state;
    const char *names[] = {"c", "n"};
    keps_table *t = keps_table_new(2, names, NULL, "<memory>", NULL);
    assert_non_null(t);
    const char *d0[] = {"b", "a", "b"}, *d1[] = {"never", "x"};
    const int32_t c0[] = {0, 1, -1, 2, 1}, c1[] = {1, 1, 1, 1, 1};
    keps_column_codes cols[] = {{d0, NULL, 3, c0}, {d1, NULL, 2, c1}};
    keps_error err = {0};
    assert_int_equal(keps_table_append_columns(t, 5, cols, 1, &err), KEPS_OK);
    assert_int_equal(t->nrows, 5);
    const keps_column *c = &t->cols[0];
    assert_int_equal(c->nvalues, 3);
    assert_string_equal(c->values[0], "b");
    assert_string_equal(c->values[1], "a");
    assert_string_equal(c->values[2], "");
    const uint32_t want[] = {0, 1, 2, 0, 1}, first[] = {0, 1, 2};
    for (size_t i = 0; i < 5; i++) {
        assert_int_equal(c->codes[i], want[i]);
        assert_int_equal(t->row_line[i], i + 1);
    }
    for (size_t v = 0; v < 3; v++)
        assert_int_equal(c->first_row[v], first[v]);
    assert_int_equal(c->missing, 2);
    assert_int_equal(c->missing_count, 1);
    assert_int_equal(t->cols[1].nvalues, 1);
    assert_string_equal(t->cols[1].values[0], "x");
    assert_int_equal(t->cols[1].missing, KEPS_NONE);
    /* a second batch continues the first: rows 5 and 6 */
    const int32_t c2[] = {-1, 0}, c3[] = {0, 0};
    const char *d2[] = {"z"};
    keps_column_codes more[] = {{d2, NULL, 1, c2}, {d2, NULL, 1, c3}};
    assert_int_equal(keps_table_append_columns(t, 2, more, 6, &err), KEPS_OK);
    assert_int_equal(t->nrows, 7);
    assert_int_equal(c->missing_count, 2);
    assert_int_equal(c->codes[5], 2);
    assert_int_equal(c->codes[6], 3);
    assert_int_equal(c->first_row[3], 6);
    assert_int_equal(t->cols[1].first_row[1], 5);
    keps_table_free(t);
}

/* Random tables: small alphabets with repeats, empty strings (the missing
 * token, whether given as a code < 0 or as the string itself), a missing
 * token of "NA" in half the cases, several batches. */
static void random_tables(void **state)
{
    (void)state;
    keps_rng *r = keps_rng_new_seeded(28);
    static const char *alpha[] = {"", "a", "b", "NA", "Zürich", "10", "a,b", "x y"};
    enum { NCOL = 3, MAXROWS = 60, NDICT = 6 };
    for (int rep = 0; rep < 300; rep++) {
        const char *names[NCOL] = {"p", "q", "r"};
        const char *miss = keps_rng_bit(r) ? "NA" : NULL;
        keps_table *a = keps_table_new(NCOL, names, miss, "<memory>", NULL);
        keps_table *b = keps_table_new(NCOL, names, miss, "<memory>", NULL);
        assert_non_null(a);
        assert_non_null(b);
        size_t batches = 1 + keps_rng_below(r, 3), line = 1;
        for (size_t bt = 0; bt < batches; bt++) {
            size_t n = keps_rng_below(r, MAXROWS);
            const char *dict[NCOL][NDICT];
            size_t lens[NCOL][NDICT];
            int32_t codes[NCOL][MAXROWS];
            keps_column_codes cols[NCOL];
            for (size_t j = 0; j < NCOL; j++) {
                size_t nd = 1 + keps_rng_below(r, NDICT);
                for (size_t k = 0; k < nd; k++) {
                    dict[j][k] = alpha[keps_rng_below(r, 8)];
                    lens[j][k] = strlen(dict[j][k]);
                }
                for (size_t i = 0; i < n; i++)
                    codes[j][i] = keps_rng_below(r, 5) == 0 ? -1 : (int32_t)keps_rng_below(r, nd);
                cols[j] = (keps_column_codes){dict[j], (j & 1) ? lens[j] : NULL, nd, codes[j]};
            }
            keps_error err = {0};
            assert_int_equal(keps_table_append_columns(a, n, cols, (uint32_t)line, &err), KEPS_OK);
            for (size_t i = 0; i < n; i++) {
                const char *row[NCOL];
                for (size_t j = 0; j < NCOL; j++)
                    row[j] = codes[j][i] < 0 ? b->missing_token : dict[j][codes[j][i]];
                assert_int_equal(keps_table_append(b, row, NULL, (uint32_t)(line + i), &err), KEPS_OK);
            }
            line += n;
        }
        assert_same_table(a, b);
        keps_table_free(a);
        keps_table_free(b);
    }
    keps_rng_free(r);
}

/* A code past the dictionary and a NUL inside a used entry are refused
 * with the cell's position, and the table is left as it was; a NUL in an
 * unused entry does not matter. */
static void refusals(void **state)
{
    (void)state;
    const char *names[] = {"c"};
    keps_table *t = keps_table_new(1, names, NULL, "frame", NULL);
    const char *d[] = {"a", "b\0c"};
    const size_t lens[] = {1, 3};
    const int32_t bad_code[] = {0, 2}, nul[] = {0, 0, 1}, fine[] = {0, 0};
    keps_error err = {0};
    keps_column_codes c = {d, lens, 2, bad_code};
    assert_int_equal(keps_table_append_columns(t, 2, &c, 1, &err), KEPS_EINPUT);
    assert_string_equal(err.msg, "frame:2:1: column 'c': code 2 is not below the dictionary's 2 entries");
    c.codes = nul;
    assert_int_equal(keps_table_append_columns(t, 3, &c, 1, &err), KEPS_EINPUT);
    assert_non_null(strstr(err.msg, "frame:3:1: column 'c': the value holds a NUL character"));
    assert_int_equal(t->nrows, 0);
    assert_int_equal(t->cols[0].nvalues, 0);
    c.codes = fine;
    assert_int_equal(keps_table_append_columns(t, 2, &c, 0, &err), KEPS_OK);
    assert_int_equal(t->nrows, 2);
    assert_int_equal(t->row_line[1], 0);
    keps_table_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(hand_case),
        cmocka_unit_test(random_tables),
        cmocka_unit_test(refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
