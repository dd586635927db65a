/* keps_csv_read_range: a file read in byte ranges cut at line starts gives,
 * range by range, the rows of the whole read with their own line numbers
 * (checked against the file's text split here by hand), the header read
 * from the file's start; an error names the file's line, not the range's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keps/csv.h"
#include "testutil.h"

static const char *CSV = "\xEF\xBB\xBF" "a;b\n1;x\n2;\"y;z\"\n3;w\r\n4;v\n5;u\n";

static void test_ranges(void **state)
{
    (void)state;
    const char *path = temp_file(CSV);
    long long size = (long long)strlen(CSV);
    /* record starts: after each '\n' */
    long long starts[16];
    size_t ns = 0;
    for (long long i = 0; i < size; i++)
        if (CSV[i] == '\n')
            starts[ns++] = i + 1;
    /* every pair of cuts among the record starts: three ranges */
    for (size_t x = 0; x < ns; x++)
        for (size_t y = x; y < ns; y++) {
            long long cut[4] = {0, starts[x], starts[y], size};
            size_t got = 0;
            const char *want_a[] = {"1", "2", "3", "4", "5"};
            const char *want_b[] = {"x", "y;z", "w", "v", "u"};
            for (int r = 0; r < 3; r++) {
                /* the line a range starts on: 1 + line breaks before it */
                size_t first = 1;
                for (long long i = 0; i < cut[r]; i++)
                    first += CSV[i] == '\n';
                keps_table *t = NULL;
                keps_error err = {0};
                assert_int_equal(keps_csv_read_range(path, NULL, cut[r], cut[r + 1], first, &t, &err), KEPS_OK);
                assert_int_equal(t->ncols, 2);
                assert_string_equal(t->cols[0].name, "a");
                assert_string_equal(t->cols[1].name, "b");
                assert_int_equal(t->delimiter, ';');
                for (size_t i = 0; i < t->nrows; i++, got++) {
                    assert_string_equal(keps_table_str(t, 0, i), want_a[got]);
                    assert_string_equal(keps_table_str(t, 1, i), want_b[got]);
                    assert_int_equal(t->row_line[i], got + 2);
                }
                keps_table_free(t);
            }
            assert_int_equal(got, 5);
        }
}

static void test_error_line(void **state)
{
    (void)state;
    const char *path = temp_file("a,b\n1,2\n3,4\n5\n6,7\n");
    keps_table *t = NULL;
    keps_error err = {0};
    /* the third range starts at line 4 ("5"), a ragged row */
    long long lo = (long long)strlen("a,b\n1,2\n3,4\n");
    assert_int_equal(keps_csv_read_range(path, NULL, lo, lo + 6, 4, &t, &err), KEPS_EINPUT);
    char want[512];
    snprintf(want, sizeof want, "%s:4:", path);
    assert_non_null(strstr(err.msg, want));
    /* an empty range: the header alone */
    assert_int_equal(keps_csv_read_range(path, NULL, 19, 19, 0, &t, &err), KEPS_OK);
    assert_int_equal(t->nrows, 0);
    assert_int_equal(t->ncols, 2);
    keps_table_free(t);
    /* no line break in the first MiB: refused */
    assert_int_equal(keps_csv_read_range(temp_file("a,b"), NULL, 0, 3, 0, &t, &err), KEPS_EINPUT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ranges),
        cmocka_unit_test(test_error_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
