/* The reader parses files in 1 MiB chunks: positions in messages must stay
 * exact past chunk boundaries, and fields may straddle a boundary. */
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "keps/csv.h"
#include "testutil.h"

/* 150,000 rows of "i,\"a\nb\",x" (each row spans 2 physical lines, 13+ bytes):
 * well over 1 MiB, so quoted newlines straddle chunk boundaries. */
static const char *big_file(const char *tail)
{
    static char path[] = "/tmp/keps_stream_XXXXXX";
    strcpy(path, "/tmp/keps_stream_XXXXXX");
    int fd = mkstemp(path);
    FILE *f = fdopen(fd, "w");
    fputs("id,text,z\r\n", f);
    for (int i = 0; i < 150000; i++)
        fprintf(f, "%d,\"a\nb\",x\r\n", i);
    fputs(tail, f);
    fclose(f);
    return path;
}

static void long_file_loads(void **state)
{
    (void)state;
    const char *p = big_file("");
    keps_table *t;
    keps_error err = {0};
    assert_int_equal(keps_csv_read(p, NULL, &t, &err), KEPS_OK);
    assert_int_equal(t->nrows, 150000);
    assert_int_equal(t->cols[1].nvalues, 1);
    assert_string_equal(t->cols[1].values[0], "a\nb");
    /* row i starts on physical line 2 + 2*i (header is line 1) */
    assert_int_equal(t->row_line[149999], 2 + 2 * 149999);
    keps_table_free(t);
    unlink(p);
}

/* keps_csv_set_limits: the limits of every read whose options leave them
 * 0, and the caller's hint at the end of the message; options win. */
static void process_limits(void **state)
{
    (void)state;
    const char data[] = "a,b\n1,hello\n"; /* "hello": 5 bytes, line 2, field 2 */
    keps_table *t = NULL;
    keps_error err = {0};
    keps_csv_limits l = {.max_field = 4, .field_hint = "(HINT)"};
    keps_csv_set_limits(&l);
    assert_int_equal(keps_csv_read_buffer(data, strlen(data), "x.csv", NULL, &t, &err), KEPS_EINPUT);
    assert_non_null(strstr(err.msg, "x.csv:2:2: a field longer than 4 bytes, the limit"));
    assert_non_null(strstr(err.msg, "raise the limit (HINT)"));
    keps_csv_options o = {.max_field = 5};
    assert_int_equal(keps_csv_read_buffer(data, strlen(data), "x.csv", &o, &t, &err), KEPS_OK);
    keps_table_free(t);
    l = (keps_csv_limits){.max_line = 7}; /* "1,hello": 6 bytes and one per field */
    keps_csv_set_limits(&l);
    assert_int_equal(keps_csv_read_buffer(data, strlen(data), "x.csv", NULL, &t, &err), KEPS_EINPUT);
    assert_non_null(strstr(err.msg, "a record longer than 7 bytes"));
    assert_null(strstr(err.msg, "(HINT)"));
    keps_csv_set_limits(NULL); /* the defaults: 1 MiB, 8 MiB */
    assert_int_equal(keps_csv_read_buffer(data, strlen(data), "x.csv", NULL, &t, &err), KEPS_OK);
    keps_table_free(t);
}

static void error_position_after_many_chunks(void **state)
{
    (void)state;
    /* the ragged row is physical line 2 + 2*150000 = 300002 */
    const char *p = big_file("7,8\r\n");
    keps_table *t;
    keps_error err = {0};
    assert_int_equal(keps_csv_read(p, NULL, &t, &err), KEPS_EINPUT);
    assert_non_null(strstr(err.msg, ":300002:3: row has 2 fields"));
    unlink(p);
    /* a malformed quote on line 300002, in field 2 ("1,\"q\"x": the x is byte 6) */
    p = big_file("1,\"q\"x,3\r\n");
    assert_int_equal(keps_csv_read(p, NULL, &t, &err), KEPS_EINPUT);
    assert_non_null(strstr(err.msg, ":300002:2: malformed quotes in field 2 (byte 6 of the line)"));
    unlink(p);
}

/* CR-only line ends across chunks: 150,000 rows of "i,\"a\rb\",x\r" (two
 * lines each) then a ragged row on line 2 + 2*150000 = 300002. */
static void cr_lines_after_many_chunks(void **state)
{
    (void)state;
    char path[] = "/tmp/keps_stream_XXXXXX";
    FILE *f = fdopen(mkstemp(path), "w");
    fputs("id,text,z\r", f);
    for (int i = 0; i < 150000; i++)
        fprintf(f, "%d,\"a\rb\",x\r", i);
    fputs("7,8\r", f);
    fclose(f);
    keps_table *t;
    keps_error err = {0};
    assert_int_equal(keps_csv_read(path, NULL, &t, &err), KEPS_EINPUT);
    assert_non_null(strstr(err.msg, ":300002:3: row has 2 fields"));
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(long_file_loads),
        cmocka_unit_test(process_limits),
        cmocka_unit_test(error_position_after_many_chunks),
        cmocka_unit_test(cr_lines_after_many_chunks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
