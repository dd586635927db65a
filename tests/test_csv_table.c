/* CSV reader/writer (csv.c) and the dictionary-encoded table (table.c).
 * Expected values are read off the input text written in each test. */
#include <dirent.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testutil.h"
#include "keps/csv.h"
#include "keps/release.h"
#include "keps/table.h"
#include "keps/rng.h"
#include "table_internal.h"

static keps_status read_csv(const char *text, const keps_csv_options *o, keps_table **t, keps_error *err)
{
    memset(err, 0, sizeof *err);
    return keps_csv_read_buffer(text, strlen(text), "in.csv", o, t, err);
}

/* reads text, expecting an error whose message contains want */
static void expect_error(const char *text, const keps_csv_options *o, const char *want)
{
    keps_table *t = NULL;
    keps_error err;
    keps_status s = read_csv(text, o, &t, &err);
    if (!s || !strstr(err.msg, want))
        fprintf(stderr, "expected error containing '%s', got status %d: '%s'\n", want, s, err.msg);
    assert_int_equal(s, KEPS_EINPUT);
    assert_non_null(strstr(err.msg, want));
    assert_null(t);
}

static void assert_cell(const keps_table *t, size_t col, size_t row, const char *want)
{
    if (strcmp(keps_table_str(t, col, row), want))
        fprintf(stderr, "cell (%zu,%zu) is '%s', expected '%s'\n", row, col, keps_table_str(t, col, row), want);
    assert_string_equal(keps_table_str(t, col, row), want);
}

/* Quoted fields: embedded separator, doubled quote, LF and CRLF inside.
 * Rows start on lines 2, 3 (field spans 3-4), 5 (field spans 5-6), 7. */
static void test_quoted_fields(void **state)
{
    (void)state;
    const char *in = "name,note\n"
                     "\"Smith, J\",\"said \"\"hi\"\"\"\n"
                     "x,\"two\nlines\"\n"
                     "y,\"crlf\r\ninside\"\n"
                     "z,plain\n";
    keps_table *t = NULL;
    keps_error err;
    assert_int_equal(read_csv(in, NULL, &t, &err), KEPS_OK);
    assert_int_equal(t->ncols, 2);
    assert_int_equal(t->nrows, 4);
    assert_cell(t, 0, 0, "Smith, J");
    assert_cell(t, 1, 0, "said \"hi\"");
    assert_cell(t, 1, 1, "two\nlines");
    assert_cell(t, 1, 2, "crlf\r\ninside");
    assert_cell(t, 1, 3, "plain");
    assert_int_equal(t->row_line[0], 2);
    assert_int_equal(t->row_line[1], 3);
    assert_int_equal(t->row_line[2], 5);
    assert_int_equal(t->row_line[3], 7);
    keps_table_free(t);
}

/* Two BOMs (a file saved twice by a BOM-writing editor): both skipped, the
 * first name is "a", not an invisible mark glued to it. */
static void test_double_bom(void **state)
{
    (void)state;
    keps_table *t = NULL;
    keps_error err;
    assert_int_equal(read_csv("\xEF\xBB\xBF\xEF\xBB\xBF"
                              "a,b\n1,2\n",
                              NULL, &t, &err),
                     KEPS_OK);
    assert_string_equal(t->cols[0].name, "a");
    keps_table_free(t);
    /* and the marks are no bytes of line 1 for error positions either */
    expect_error("\xEF\xBB\xBF\xEF\xBB\xBF\"ab\"c,d\n", NULL,
                 "in.csv:1:1: malformed quotes in field 1 (byte 5 of the line)");
}

/* libcsv trims blanks around unquoted fields; quoted blanks stay (which
 * is why the writer quotes leading/trailing blanks). */
static void test_blanks(void **state)
{
    (void)state;
    keps_table *t = table_from_csv("a,b\n x , y \n\" x \",\"y \"\n");
    assert_cell(t, 0, 0, "x");
    assert_cell(t, 1, 0, "y");
    assert_cell(t, 0, 1, " x ");
    assert_cell(t, 1, 1, "y ");
    keps_table_free(t);
}

/* CRLF line ends and a UTF-8 BOM: the BOM is not part of the first name. */
static void test_crlf_and_bom(void **state)
{
    (void)state;
    const char *in = "\xEF\xBB\xBF"
                     "a;b\r\n1;2\r\n3;4\r\n";
    keps_table *t = NULL;
    keps_error err;
    assert_int_equal(read_csv(in, NULL, &t, &err), KEPS_OK);
    assert_string_equal(t->cols[0].name, "a");
    assert_int_equal(keps_table_column(t, "a"), 0);
    assert_int_equal(keps_table_column(t, "b"), 1);
    assert_int_equal(t->nrows, 2);
    assert_cell(t, 1, 0, "2"); /* no stray '\r' */
    assert_cell(t, 1, 1, "4");
    assert_int_equal(t->row_line[1], 3);
    keps_table_free(t);
    /* CR-only line ends (old Mac files) are line ends too */
    assert_int_equal(read_csv("a,b\r1,2\r3,4", NULL, &t, &err), KEPS_OK);
    assert_int_equal(t->nrows, 2);
    assert_cell(t, 1, 1, "4");
    assert_int_equal(t->row_line[1], 3);
    keps_table_free(t);
}

/* Sniffing picks the candidate that occurs most in the header line,
 * ignoring quoted text and everything after the first line end. */
static void test_sniff(void **state)
{
    (void)state;
    assert_int_equal(keps_csv_sniff("a,b,c\n", 6), ',');
    assert_int_equal(keps_csv_sniff("a;b;c\n1,5;2,5;3\n", 16), ';');
    assert_int_equal(keps_csv_sniff("a\tb\tc\n", 6), '\t');
    assert_int_equal(keps_csv_sniff("a|b|c", 5), '|');
    assert_int_equal(keps_csv_sniff("\"x,y,z\";b\n", 10), ';'); /* commas quoted */
    assert_int_equal(keps_csv_sniff("single\n", 7), ',');      /* default */
    const char *delims[] = {",", ";", "\t", "|"};
    for (int i = 0; i < 4; i++) {
        char in[64];
        snprintf(in, sizeof in, "a%sb%sc\n1%s%s3\n", delims[i], delims[i], delims[i], delims[i]);
        keps_table *t = NULL;
        keps_error err;
        assert_int_equal(read_csv(in, NULL, &t, &err), KEPS_OK);
        assert_int_equal(t->ncols, 3);
        assert_cell(t, 0, 0, "1");
        assert_cell(t, 1, 0, ""); /* empty middle field, even with tab */
        assert_cell(t, 2, 0, "3");
        keps_table_free(t);
    }
    /* an explicit delimiter overrides sniffing */
    keps_csv_options o = {.delimiter = ';'};
    keps_table *t = NULL;
    keps_error err;
    assert_int_equal(read_csv("a,b;c\n1,2;3\n", &o, &t, &err), KEPS_OK);
    assert_int_equal(t->ncols, 2);
    assert_string_equal(t->cols[0].name, "a,b");
    keps_table_free(t);
}

/* Ragged rows: the row's first line, and the column of the first missing
 * (short row) or first extra (long row) field. */
static void test_ragged(void **state)
{
    (void)state;
    expect_error("a,b,c\n1,2,3\n4,5\n", NULL, "in.csv:3:3: row has 2 fields but the header has 3");
    expect_error("a,b\n1,2\n3,4,5\n", NULL, "in.csv:3:3: row has 3 fields but the header has 2");
    /* a row spanning lines 2-3 (quoted newline) is reported at its first line */
    expect_error("a,b\n\"x\ny\",1,2\n", NULL, "in.csv:2:3:");
    /* after a multi-line field, later rows keep exact line numbers */
    expect_error("a,b\n\"x\ny\",1\n1\n", NULL, "in.csv:4:2:");
    /* CRLF is one line end: line 4, not 7 */
    expect_error("a,b\r\n1,2\r\n3,4\r\n5\r\n", NULL, "in.csv:4:2:");
}

static void test_quote_errors(void **state)
{
    (void)state;
    /* unterminated quote opened in field 2 of line 3 */
    expect_error("a,b\n1,2\n3,\"open\n4,5\n", NULL, "in.csv:3:2: unterminated quoted field");
    /* unterminated quote opening the first field of line 3 */
    expect_error("a,b\n1,2\n\"open,5\n", NULL, "in.csv:3:1: unterminated quoted field");
    /* a quote followed by other text: field 1 of line 2, its byte 5 ('"ab"c': the c) */
    expect_error("a,b\n\"ab\"c,1\n", NULL, "in.csv:2:1: malformed quotes in field 1 (byte 5 of the line)");
    /* the BOM is not counted as a byte: '"ab"c' on line 1 */
    expect_error("\xEF\xBB\xBF\"ab\"c,d\n", NULL, "in.csv:1:1: malformed quotes in field 1 (byte 5 of the line)");
}

static void test_header_errors(void **state)
{
    (void)state;
    expect_error("a,b,a\n1,2,3\n", NULL, "in.csv:1:3: duplicate header name 'a' (also column 1)");
    expect_error("a,,c\n1,2,3\n", NULL, "in.csv:1:2: column 2 has an empty name");
    expect_error("", NULL, "the file is empty");
    /* header only: a table with no rows */
    keps_table *t = NULL;
    keps_error err;
    assert_int_equal(read_csv("a,b\n", NULL, &t, &err), KEPS_OK);
    assert_int_equal(t->nrows, 0);
    keps_table_free(t);
}

/* Missing values: the empty field by default, or a token; counted per
 * column. Column b: "", "?", "" -> 2 missing by default, 1 with '?'. */
static void test_missing(void **state)
{
    (void)state;
    const char *in = "a,b\n1,\n?,?\n3,\n4,x\n";
    keps_table *t = NULL;
    keps_error err;
    assert_int_equal(read_csv(in, NULL, &t, &err), KEPS_OK);
    assert_int_equal(t->cols[1].missing_count, 2);
    assert_int_equal(t->cols[0].missing_count, 0);
    assert_int_equal(t->cols[0].missing, KEPS_NONE);
    assert_int_equal(t->cols[1].missing, t->cols[1].codes[0]);
    keps_table_free(t);
    keps_csv_options o = {.missing = "?"};
    assert_int_equal(read_csv(in, &o, &t, &err), KEPS_OK);
    assert_int_equal(t->cols[0].missing_count, 1);
    assert_int_equal(t->cols[1].missing_count, 1);
    assert_string_equal(t->cols[1].values[t->cols[1].missing], "?");
    /* column a is numeric with '?' as missing: 1, NaN, 3, 4 */
    assert_int_equal(keps_table_numeric(t, 0, &err), KEPS_OK);
    assert_double_near(keps_table_num(t, 0, 0), 1.0, 0);
    assert_true(isnan(keps_table_num(t, 0, 1)));
    assert_double_near(keps_table_num(t, 0, 3), 4.0, 0);
    keps_table_free(t);
}

/* Dictionary: each distinct string once, codes in order of first
 * appearance, first_row per code. */
static void test_dictionary(void **state)
{
    (void)state;
    keps_table *t = table_from_csv("c\nx\ny\nx\nz\ny\n");
    const keps_column *c = &t->cols[0];
    assert_int_equal(c->nvalues, 3);
    uint32_t want[] = {0, 1, 0, 2, 1};
    for (size_t r = 0; r < 5; r++)
        assert_int_equal(c->codes[r], want[r]);
    assert_int_equal(c->first_row[2], 3);
    assert_int_equal(keps_table_lookup(t, 0, "y", 1), 1);
    assert_int_equal(keps_table_lookup(t, 0, "w", 1), KEPS_NONE);
    assert_int_equal(keps_table_lookup(t, 0, "xy", 1), 0); /* length-limited */
    assert_int_equal(keps_table_column(t, "nope"), -1);
    keps_table_free(t);
    /* many distinct values: the index grows and every code maps back */
    keps_table *u = NULL;
    keps_error err;
    const char *names[] = {"v"};
    u = keps_table_new(1, names, NULL, NULL, &err);
    assert_non_null(u);
    char buf[32];
    for (int i = 0; i < 5000; i++) {
        snprintf(buf, sizeof buf, "v%d", i % 2500);
        const char *f[] = {buf};
        assert_int_equal(keps_table_append(u, f, NULL, 0, &err), KEPS_OK);
    }
    assert_int_equal(u->cols[0].nvalues, 2500);
    for (int i = 0; i < 2500; i++) {
        snprintf(buf, sizeof buf, "v%d", i);
        assert_int_equal(keps_table_lookup(u, 0, buf, strlen(buf)), (uint32_t)i);
        assert_int_equal(u->cols[0].codes[2500 + i], (uint32_t)i);
    }
    assert_true(keps_table_memory(u) > 2500 * 8);
    keps_table_free(u);
}

/* Numeric parsing: the first bad cell named by line and column. Column b
 * holds 2 (line 2), x (line 3), then x again (line 4): line 3, column 2. */
static void test_numeric_error(void **state)
{
    (void)state;
    keps_table *t = table_from_csv("a,b\n1,2\n2,x\n3,x\n4,1e3\n");
    keps_error err = {0};
    assert_int_equal(keps_table_numeric(t, 1, &err), KEPS_EINPUT);
    assert_non_null(strstr(err.msg, "test.csv:3:2: column 'b': 'x' is not a number"));
    assert_null(t->cols[1].num);
    assert_int_equal(keps_table_numeric(t, 0, &err), KEPS_OK);
    assert_double_near(keps_table_num(t, 0, 3), 4.0, 0);
    keps_table_free(t);
    /* rows after a multi-line quoted field keep their own line */
    t = table_from_csv("a,b\n\"p\nq\",1\nr,inf\n");
    assert_int_equal(keps_table_numeric(t, 1, &err), KEPS_EINPUT);
    assert_non_null(strstr(err.msg, "test.csv:4:2:"));
    keps_table_free(t);
}

/* Writer: quotes where needed; reading the output back gives the same
 * cells. */
static void test_write_round_trip(void **state)
{
    (void)state;
    const char *names[] = {"plain", "tricky"};
    keps_error err = {0};
    keps_table *t = keps_table_new(2, names, NULL, NULL, &err);
    const char *cells[][2] = {{"a", "has,comma"},     {"b", "has \"quote\""}, {"c", "two\nlines"},
                              {"d", "cr\rhere"},      {"e", " lead"},         {"f", "trail "},
                              {"g", ""},              {"h", "semi;colon"},    {"i", "pipe|tab\t"},
                              {"j", "caf\xC3\xA9"}};
    size_t n = sizeof cells / sizeof *cells;
    for (size_t i = 0; i < n; i++)
        assert_int_equal(keps_table_append(t, cells[i], NULL, 0, &err), KEPS_OK);
    char dir[] = "/tmp/keps_csvt_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[256];
    snprintf(path, sizeof path, "%s/out.csv", dir);
    for (int d = 0; d < 2; d++) {
        char delim = d ? ';' : ',';
        uint32_t order[10] = {9, 8, 7, 6, 5, 4, 3, 2, 1, 0};
        assert_int_equal(keps_csv_write_table(t, path, delim, d ? order : NULL, &err), KEPS_OK);
        keps_table *back = NULL;
        keps_csv_options o = {.delimiter = delim};
        assert_int_equal(keps_csv_read(path, &o, &back, &err), KEPS_OK);
        assert_int_equal(back->nrows, n);
        for (size_t i = 0; i < n; i++) {
            size_t src = d ? order[i] : i;
            assert_cell(back, 0, i, cells[src][0]);
            assert_cell(back, 1, i, cells[src][1]);
        }
        keps_table_free(back);
    }
    /* exact bytes for a few fields: only the ones that need it are quoted */
    FILE *f = fopen(path, "rb");
    char text[512] = {0};
    assert_true(fread(text, 1, sizeof text - 1, f) > 0);
    fclose(f);
    assert_non_null(strstr(text, "plain;tricky\n"));
    assert_non_null(strstr(text, "a;has,comma\n")); /* ',' needs no quotes with ';' */
    assert_non_null(strstr(text, "h;\"semi;colon\"\n"));
    assert_non_null(strstr(text, "b;\"has \"\"quote\"\"\"\n"));
    assert_non_null(strstr(text, "e;\" lead\"\n"));
    assert_non_null(strstr(text, "g;\n"));
    unlink(path);
    rmdir(dir);
    keps_table_free(t);
}

/* A release of many blocks (the writer formats them on two threads):
 * row k of the file is table row order[k], whatever block it falls in.
 * n = 150,001 rows (five blocks of 32,768); order[k] = 7919 k mod n, a
 * permutation as 7919 is prime and does not divide n. */
static void test_write_many_blocks(void **state)
{
    (void)state;
    const size_t n = 150001;
    const char *names[] = {"v", "w"};
    keps_error err = {0};
    keps_table *t = keps_table_new(2, names, NULL, NULL, &err);
    uint32_t *order = malloc(n * sizeof *order);
    assert_non_null(order);
    char v[32], w[8];
    for (size_t i = 0; i < n; i++) {
        snprintf(v, sizeof v, "r%zu", i);
        snprintf(w, sizeof w, "%zu", i % 3);
        const char *f[] = {v, w};
        assert_int_equal(keps_table_append(t, f, NULL, 0, &err), KEPS_OK);
        order[i] = (uint32_t)((7919 * (uint64_t)i) % n);
    }
    FILE *f = tmpfile();
    assert_non_null(f);
    assert_int_equal(keps_csv_write_table_to(t, f, "<tmp>", ',', order, &err), KEPS_OK);
    rewind(f);
    char line[64], want[64];
    assert_non_null(fgets(line, sizeof line, f));
    assert_string_equal(line, "v,w\n");
    for (size_t k = 0; k < n; k++) {
        assert_non_null(fgets(line, sizeof line, f));
        snprintf(want, sizeof want, "r%u,%u\n", order[k], order[k] % 3);
        assert_string_equal(line, want);
    }
    assert_null(fgets(line, sizeof line, f));
    fclose(f);
    free(order);
    keps_table_free(t);
}

static size_t dir_entries(const char *dir)
{
    DIR *d = opendir(dir);
    size_t n = 0;
    struct dirent *e;
    while (d && (e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            n++;
    if (d)
        closedir(d);
    return n;
}

/* A failed write leaves no file: (1) the directory does not exist;
 * (2) the write itself fails (file size limit, EFBIG) half-way through,
 * checked in a child process so the limit does not touch the test. */
static void test_write_failure_leaves_nothing(void **state)
{
    (void)state;
    keps_table *t = table_from_csv("a,b\n1,2\n");
    keps_error err = {0};
    assert_int_not_equal(keps_csv_write_table(t, "/nonexistent-dir-keps/x.csv", ',', NULL, &err), KEPS_OK);
    assert_non_null(strstr(err.msg, "/nonexistent-dir-keps/x.csv"));
    keps_table_free(t);

    char dir[] = "/tmp/keps_csvf_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[256];
    snprintf(path, sizeof path, "%s/big.csv", dir);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        signal(SIGXFSZ, SIG_IGN);
        struct rlimit rl = {4096, 4096};
        setrlimit(RLIMIT_FSIZE, &rl);
        const char *names[] = {"v"};
        keps_error e2 = {0};
        keps_table *big = keps_table_new(1, names, NULL, NULL, &e2);
        char buf[64];
        for (int i = 0; i < 100000; i++) { /* ~ 1.1 MB, far over 4 kB, in several blocks (two threads) */
            snprintf(buf, sizeof buf, "value-%d", i);
            const char *f[] = {buf};
            keps_table_append(big, f, NULL, 0, &e2);
        }
        keps_status s = keps_csv_write_table(big, path, ',', NULL, &e2);
        keps_table_free(big);
        _exit(s == KEPS_EIO ? 0 : 1);
    }
    int st;
    waitpid(pid, &st, 0);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 0);
    assert_int_equal(dir_entries(dir), 0); /* neither big.csv nor its temp file */
    rmdir(dir);
}

/* The writer aborted by the caller removes its temporary file. */
static void test_writer_abort(void **state)
{
    (void)state;
    char dir[] = "/tmp/keps_csva_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[256];
    snprintf(path, sizeof path, "%s/o.csv", dir);
    keps_error err = {0};
    keps_csv_writer *w = keps_csv_writer_open(path, ',', &err);
    assert_non_null(w);
    const char *f[] = {"x", "y"};
    assert_int_equal(keps_csv_write_row(w, f, 2), KEPS_OK);
    assert_int_equal(dir_entries(dir), 1); /* the temp file */
    keps_csv_writer_abort(w);
    assert_int_equal(dir_entries(dir), 0);
    rmdir(dir);
}

/* Reading a file: a missing file names it. */
static void test_read_file_errors(void **state)
{
    (void)state;
    keps_table *t = NULL;
    keps_error err = {0};
    assert_int_equal(keps_csv_read("/nonexistent-keps.csv", NULL, &t, &err), KEPS_EINPUT);
    assert_non_null(strstr(err.msg, "/nonexistent-keps.csv: cannot open"));
    /* the bundled Adult file: 30162 rows, 9 columns, ';', CRLF */
    assert_int_equal(keps_csv_read(src_path("data/adult/adult.csv"), NULL, &t, &err), KEPS_OK);
    assert_int_equal(t->nrows, 30162);
    assert_int_equal(t->ncols, 9);
    assert_string_equal(t->cols[0].name, "sex");
    assert_int_equal(t->cols[0].nvalues, 2);
    keps_table_free(t);
}

/* Every error's column is the 1-based field number, whatever the error;
 * a bad quote's byte in its line is said in words. Fields counted by hand
 * in each literal. */
static void test_error_columns_are_fields(void **state)
{
    (void)state;
    /* the stray quote is byte 13 of line 2 ("1111;2222;33" is 12 bytes) in field 3 */
    expect_error("aaaa;bbbb;cccc\n1111;2222;33\"x\n", NULL,
                 "in.csv:2:3: malformed quotes in field 3 (byte 13 of the line)");
    /* text after a closing quote: the x is byte 8 of line 2 (1,2,"q" is 7 bytes), field 3 */
    expect_error("a,b,c\n1,2,\"q\"x\n", NULL, "in.csv:2:3: malformed quotes in field 3 (byte 8 of the line)");
    /* field 2 spans lines 2-3; its bad byte (the z, byte 3) is on line 3 */
    expect_error("a,b\n1,\"x\ny\"z\n", NULL, "in.csv:3:2: malformed quotes in field 2 (byte 3 of the line)");
    /* the unterminated field is field 3, opened on line 3 (field 1 spans lines 2-3) */
    expect_error("a,b,c\n\"x\ny\",2,\"open\n", NULL, "in.csv:3:3: unterminated quoted field");
    /* ragged rows, NUL bytes, header errors: field numbers too */
    expect_error("aaaa;bbbb;cccc\n1111;2222\n", NULL, "in.csv:2:3: row has 2 fields");
    const char nul[] = "a,b,c\n1,2,x\0y\n";
    keps_table *t = NULL;
    keps_error err;
    memset(&err, 0, sizeof err);
    assert_int_equal(keps_csv_read_buffer(nul, sizeof nul - 1, "in.csv", NULL, &t, &err), KEPS_EINPUT);
    assert_non_null(strstr(err.msg, "in.csv:2:3: NUL byte"));
    expect_error("aaaa,bbbb,aaaa\n1,2,3\n", NULL, "in.csv:1:3: duplicate header name");
}

/* Line numbers are those of grep -n for LF and CRLF files (only LF ends a
 * line; any other CR is a byte of the line), and for CR-only files every
 * CR is a line end. The line of each literal's bad row is counted by hand. */
static void test_line_numbers(void **state)
{
    (void)state;
    /* "\r\r\n" is one line end: 7;8 is line 4 (was reported as 5) */
    expect_error("a;b;c\n1;2;3\r\r\n4;5;6\n7;8\n", NULL, "in.csv:4:3: row has 2 fields");
    expect_error("a,b\r\n1,2\r\r\n3\r\n", NULL, "in.csv:3:2: row has 1 fields");
    expect_error("a,b\r\n1,2\r\n\r3,4\r\n5\r\n", NULL, "in.csv:4:2: row has 1 fields");
    /* a lone CR inside an LF line still ends a record, but not the line:
     * both 1,2 and 3,4 are line 2, and 5 is line 3 */
    keps_table *t = NULL;
    keps_error err;
    assert_int_equal(read_csv("a,b\n1,2\r3,4\n5,6\n", NULL, &t, &err), KEPS_OK);
    assert_int_equal(t->nrows, 3);
    assert_int_equal(t->row_line[0], 2);
    assert_int_equal(t->row_line[1], 2);
    assert_int_equal(t->row_line[2], 3);
    keps_table_free(t);
    expect_error("a,b\n1,2\r3,4\n5\n", NULL, "in.csv:3:2:");
    /* CRs inside a quoted field of a CRLF file: only its LF is a line end */
    expect_error("a,b\r\n\"x\r\r\ny\",1\r\n2\r\n", NULL, "in.csv:4:2: row has 1 fields");
    /* stray CRs before CRLF: rows keep the lines grep -n shows (2, 3, 4) */
    assert_int_equal(read_csv("a;b\r\n1;2\r\r\n3;4\r\r\r\n5;6\r\n", NULL, &t, &err), KEPS_OK);
    assert_int_equal(t->nrows, 3);
    assert_int_equal(t->row_line[1], 3);
    assert_int_equal(t->row_line[2], 4);
    assert_cell(t, 1, 1, "4");
    keps_table_free(t);
    /* a malformed quote after stray CRs: line 3 */
    expect_error("a,b\r\n1,2\r\r\n\"q\"x,1\r\n", NULL, "in.csv:3:1: malformed quotes in field 1 (byte 4");
    /* CR-only files: every CR ends a line, a CRLF ends one */
    expect_error("a,b\r1,2\r3\r", NULL, "in.csv:3:2: row has 1 fields");
    expect_error("a,b\r1,2\r\n3,4\r5\r", NULL, "in.csv:4:2: row has 1 fields");
    expect_error("a,b\r1,2\r\"q\"x,1\r", NULL, "in.csv:3:1: malformed quotes in field 1 (byte 4");
}

/* Blank lines (empty or only blanks): a record with one empty field
 * (RFC 4180), except a blank last line. Lines counted by hand. */
static void test_blank_lines(void **state)
{
    (void)state;
    /* multi-column: a ragged row at the blank line, column 2 (its first missing field) */
    expect_error("a;b\n1;2\n   \n3;4\n", NULL,
                 "in.csv:3:2: blank line: a row with 1 (empty) field but the header has 2");
    expect_error("a,b\n1,2\n\n3,4\n", NULL, "in.csv:3:2: blank line");
    expect_error("a,b\r\n1,2\r\n\t\r\n3,4\r\n", NULL, "in.csv:3:2: blank line");
    expect_error("a,b\r1,2\r\r3,4\r", NULL, "in.csv:3:2: blank line");
    keps_table *t0 = NULL;
    keps_error err0;
    /* a run of blank lines inside the data: the error names its first line */
    expect_error("a,b\n1,2\n\n\n\n3,4\n", NULL, "in.csv:3:2: blank line");
    /* a blank first line is where the header belongs */
    expect_error("\na,b\n1,2\n", NULL, "in.csv:1:1: the first line is blank");
    expect_error("\n", NULL, "the file is empty");
    /* a blank last line, in any line-end style, is no record */
    /* ... and in a wider file neither are trailing blank lines (none can be a record) */
    const char *last[] = {"a,b\n1,2\n\n", "a,b\r\n1,2\r\n\r\n", "a,b\n1,2\n   ", "a,b\n1,2\n \t \n",
                          "a,b\r1,2\r\r", "a,b\n1,2\n\n\n", "a,b\n1,2\n\n  ", "a,b\r\n1,2\r\n\r\n\r\n\r\n"};
    for (size_t i = 0; i < sizeof last / sizeof *last; i++) {
        keps_table *t = NULL;
        keps_error err;
        assert_int_equal(read_csv(last[i], NULL, &t, &err), KEPS_OK);
        assert_int_equal(t->nrows, 1);
        keps_table_free(t);
    }
    /* one column: blank lines are missing values, the blank last line is not
     * (two blank lines at the end: one missing value) */
    assert_int_equal(read_csv("a\n1\n\n\n", NULL, &t0, &err0), KEPS_OK);
    assert_int_equal(t0->nrows, 2);
    keps_table_free(t0);
    keps_table *t = NULL;
    keps_error err;
    assert_int_equal(read_csv("a\n1\n\n3\n\n", NULL, &t, &err), KEPS_OK);
    assert_int_equal(t->nrows, 3);
    assert_cell(t, 0, 1, "");
    assert_int_equal(t->row_line[1], 3);
    assert_int_equal(t->row_line[2], 4);
    assert_int_equal(t->cols[0].missing_count, 1);
    keps_table_free(t);
    /* a line of blanks is the same empty field (blanks are trimmed) */
    assert_int_equal(read_csv("a\r\n1\r\n   \r\n3\r\n", NULL, &t, &err), KEPS_OK);
    assert_int_equal(t->nrows, 3);
    assert_cell(t, 0, 1, "");
    assert_int_equal(t->row_line[2], 4);
    keps_table_free(t);
    /* two blank lines at the end: the first is a row, the last is not */
    assert_int_equal(read_csv("a\n1\n\n\n", NULL, &t, &err), KEPS_OK);
    assert_int_equal(t->nrows, 2);
    assert_int_equal(t->row_line[1], 3);
    keps_table_free(t);
    /* a quoted empty field is a record even on the last line */
    assert_int_equal(read_csv("a\n1\n\"\"\n", NULL, &t, &err), KEPS_OK);
    assert_int_equal(t->nrows, 2);
    keps_table_free(t);
}

/* Released numbers: the shortest of %.15g..%.17g that reads back exactly.
 * Expected strings by hand: 0.1 and 0.12345678901234 need 15 digits or
 * fewer; 0.1 + 0.2 is 0.30000000000000004 (17); 10^13 + 1/3 needs 17
 * (10000000000000.334); 2^-1074 is 4.94e-324 in %.15g, which reads back. */
static void test_format_number(void **state)
{
    (void)state;
    struct {
        double v;
        const char *s;
    } c[] = {{0.1, "0.1"},
             {0.12345678901234, "0.12345678901234"},
             {0.1 + 0.2, "0.30000000000000004"},
             {1e13 + 1.0 / 3.0, "10000000000000.334"},
             {1e13 + 1, "10000000000001"},
             {-2.5, "-2.5"},
             {0x1p-1074, "4.94065645841247e-324"}};
    char buf[32];
    for (size_t i = 0; i < sizeof c / sizeof *c; i++) {
        keps_format_number(buf, sizeof buf, c[i].v);
        assert_string_equal(buf, c[i].s);
        assert_true(strtod(buf, NULL) == c[i].v);
    }
}

/* --qi and --hierarchy values: NAME or NAME:REST where NAME may hold ':'
 * (survey headers such as "Q1: age"). Exact name first, then the shortest
 * prefix before a ':' that is a column. */
static void test_column_spec(void **state)
{
    (void)state;
    keps_table *t = table_from_csv("Q1: age,a,a:b,x\n1,2,3,4\n");
    const char *rest;
    assert_int_equal(keps_table_column_spec(t, "x", &rest), 3);
    assert_null(rest);
    assert_int_equal(keps_table_column_spec(t, "x:h.csv", &rest), 3);
    assert_string_equal(rest, "h.csv");
    assert_int_equal(keps_table_column_spec(t, "Q1: age", &rest), 0);
    assert_null(rest);
    assert_int_equal(keps_table_column_spec(t, "Q1: age:interval=5", &rest), 0);
    assert_string_equal(rest, "interval=5");
    assert_int_equal(keps_table_column_spec(t, "a:b", &rest), 2); /* the whole name before a prefix */
    assert_null(rest);
    assert_int_equal(keps_table_column_spec(t, "a:b:c:d.csv", &rest), 1); /* shortest prefix: a path may hold ':' */
    assert_string_equal(rest, "b:c:d.csv");
    assert_int_equal(keps_table_column_spec(t, "Q1:h.csv", &rest), -1);
    assert_int_equal(keps_table_column_spec(t, "", &rest), -1);
    keps_error err = {0};
    assert_int_equal(keps_table_no_column_spec(&err, t, "Q1:h.csv"), KEPS_EINPUT);
    assert_non_null(strstr(err.msg, "has no column 'Q1'; its columns are: Q1: age, a, a:b, x"));
    keps_table_free(t);
}

/* ---- a file parsed in two pieces at once equals the sequential parse ----
 *
 * Random files of awkward records (quoted separators, quotes and line
 * breaks, CRLF and lone CR ends, byte order marks, blank lines, missing
 * values, ragged rows and broken quotes): read with the two-piece reader
 * forced (keps_csv_piece_min(1)) and sequentially, the tables (names,
 * dictionaries in order, codes, first rows, lines, missing counts,
 * delimiter) or the error messages must be the same. */

static const char *const piece_vals[] = {"a", "b", "\"q\"\"x\"", "\"l1\nl2\"", "\"s;c,\"", "", "12", "007",
                                         "\"\"", "ü", "NA", "x y"};

static char *piece_file(keps_rng *g, size_t rows, size_t ncols, int *mode)
{
    size_t cap = 64 + rows * (ncols + 1) * 16, n = 0;
    char *s = malloc(cap);
    const char *eol = keps_rng_below(g, 4) == 0 ? "\r\n" : keps_rng_below(g, 12) == 0 ? "\r" : "\n";
    *mode = eol[0] == '\r' && !eol[1];
    if (keps_rng_below(g, 5) == 0)
        n += (size_t)sprintf(s + n, "\xEF\xBB\xBF");
    for (size_t j = 0; j < ncols; j++)
        n += (size_t)sprintf(s + n, "%sc%zu", j ? ";" : "", j);
    n += (size_t)sprintf(s + n, "%s", eol);
    int broken = keps_rng_below(g, 6) == 0, blanks = keps_rng_below(g, 4) == 0;
    for (size_t i = 0; i < rows; i++) {
        if (blanks && keps_rng_below(g, ncols == 1 ? 40 : 4000) == 0) { /* a blank line */
            n += (size_t)sprintf(s + n, "%s", eol);
            continue;
        }
        size_t w = broken && keps_rng_below(g, 200) == 0 ? ncols + 1 : ncols;
        for (size_t j = 0; j < w; j++)
            n += (size_t)sprintf(s + n, "%s%s", j ? ";" : "", piece_vals[keps_rng_below(g, 12)]);
        if (broken && keps_rng_below(g, 300) == 0)
            n += (size_t)sprintf(s + n, "\"open");
        n += (size_t)sprintf(s + n, "%s", eol);
    }
    for (uint64_t b = keps_rng_below(g, 3); b > 0; b--) /* trailing blank lines */
        n += (size_t)sprintf(s + n, "%s", eol);
    return s;
}

static void same_tables(const keps_table *a, const keps_table *b)
{
    assert_int_equal(a->nrows, b->nrows);
    assert_int_equal(a->ncols, b->ncols);
    assert_int_equal(a->delimiter, b->delimiter);
    for (size_t j = 0; j < a->ncols; j++) {
        const keps_column *x = &a->cols[j], *y = &b->cols[j];
        assert_string_equal(x->name, y->name);
        assert_int_equal(x->nvalues, y->nvalues);
        assert_int_equal(x->missing, y->missing);
        assert_int_equal(x->missing_count, y->missing_count);
        for (uint32_t v = 0; v < x->nvalues; v++) {
            assert_string_equal(x->values[v], y->values[v]);
            assert_int_equal(x->first_row[v], y->first_row[v]);
        }
        assert_memory_equal(x->codes, y->codes, a->nrows * sizeof *x->codes);
    }
    assert_memory_equal(a->row_line, b->row_line, a->nrows * sizeof *a->row_line);
}

static void test_read_in_pieces(void **state)
{
    (void)state;
    keps_rng *g = keps_rng_new_seeded(30);
    int tables = 0, errors = 0, pieces = 0;
    for (int trial = 0; trial < 300; trial++) {
        size_t ncols = 1 + keps_rng_below(g, 4), rows = 1 + keps_rng_below(g, 3000);
        int lone_cr;
        char *text = piece_file(g, rows, ncols, &lone_cr);
        const char *path = temp_file(text);
        keps_csv_options o = {0};
        if (trial % 3 == 0)
            o.missing = "NA";
        keps_table *seq = NULL, *par = NULL;
        keps_error e1 = {0}, e2 = {0};
        keps_csv_piece_min(1LL << 60);
        keps_status s1 = keps_csv_read(path, &o, &seq, &e1);
        keps_csv_piece_min(1);
        long long before = keps_csv_pieces_read();
        keps_status s2 = keps_csv_read(path, &o, &par, &e2);
        pieces += keps_csv_pieces_read() > before;
        keps_csv_piece_min(32LL << 20);
        assert_int_equal(s1, s2);
        if (s1) {
            assert_string_equal(e1.msg, e2.msg);
            errors++;
        } else {
            same_tables(seq, par);
            tables++;
        }
        keps_table_free(seq);
        keps_table_free(par);
        unlink(path);
        free(text);
    }
    print_message("read in pieces = sequential: %d tables (%d of them read in pieces), %d errors\n", tables,
                  pieces, errors);
    assert_true(tables > 100 && errors > 20 && pieces > 100);
    keps_rng_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_quoted_fields),    cmocka_unit_test(test_blanks),
        cmocka_unit_test(test_crlf_and_bom), cmocka_unit_test(test_double_bom),     cmocka_unit_test(test_format_number),
        cmocka_unit_test(test_sniff),            cmocka_unit_test(test_ragged),
        cmocka_unit_test(test_quote_errors),     cmocka_unit_test(test_header_errors),
        cmocka_unit_test(test_missing),          cmocka_unit_test(test_dictionary),
        cmocka_unit_test(test_numeric_error),    cmocka_unit_test(test_write_round_trip),
        cmocka_unit_test(test_write_failure_leaves_nothing), cmocka_unit_test(test_writer_abort),
        cmocka_unit_test(test_write_many_blocks),
        cmocka_unit_test(test_read_file_errors), cmocka_unit_test(test_error_columns_are_fields),
        cmocka_unit_test(test_line_numbers),     cmocka_unit_test(test_blank_lines),
        cmocka_unit_test(test_column_spec),
        cmocka_unit_test(test_read_in_pieces),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
