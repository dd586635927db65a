/* The reader parses files in 1 MiB chunks: positions in messages must stay
 * exact past chunk boundaries, and fields may straddle a boundary. Outputs
 * go through temporary files committed together (keps_tmp_commit). */
#include <dirent.h>
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

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static int holds(const char *path, const char *text)
{
    char buf[64] = {0};
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    return n == strlen(text) && memcmp(buf, text, n) == 0;
}

static int entries(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

/* The report's rename fails (its path has become a directory): the release
 * must not stay, and the file it replaced, an earlier run's release, must
 * be there again, not lost. */
static void failed_commit_restores_the_old_release(void **state)
{
    (void)state;
    char dir[] = "/tmp/keps_commit_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char rel[64], rep[64];
    snprintf(rel, sizeof rel, "%s/out.csv", dir);
    snprintf(rep, sizeof rep, "%s/report.json", dir);
    write_text(rel, "OLD");
    char *tmp[2];
    const char *path[2] = {rel, rep};
    for (int i = 0; i < 2; i++) {
        int fd = keps_tmp_create(path[i], &tmp[i]);
        assert_true(fd >= 0);
        assert_int_equal(write(fd, "NEW", 3), 3);
        close(fd);
    }
    assert_int_equal(mkdir(rep, 0700), 0);
    assert_int_equal(keps_tmp_commit(tmp, path, 2), 1);
    assert_true(holds(rel, "OLD"));
    assert_int_equal(entries(dir), 2); /* out.csv and the directory: no temporary file */

    /* with nothing to restore, the rollback removes the release */
    unlink(rel);
    for (int i = 0; i < 2; i++) {
        free(tmp[i]);
        close(keps_tmp_create(path[i], &tmp[i]));
    }
    assert_int_equal(keps_tmp_commit(tmp, path, 2), 1);
    assert_int_equal(access(rel, F_OK), -1);
    assert_int_equal(entries(dir), 1);

    /* a symbolic link the release replaced is a symbolic link again */
    char target[80];
    snprintf(target, sizeof target, "%s/elsewhere", dir);
    write_text(target, "OLD");
    assert_int_equal(symlink(target, rel), 0);
    for (int i = 0; i < 2; i++) {
        free(tmp[i]);
        close(keps_tmp_create(path[i], &tmp[i]));
    }
    assert_int_equal(keps_tmp_commit(tmp, path, 2), 1);
    struct stat st;
    assert_int_equal(lstat(rel, &st), 0);
    assert_true(S_ISLNK(st.st_mode) && holds(rel, "OLD"));
    assert_int_equal(entries(dir), 3);
    unlink(rel);
    unlink(target);

    /* and a commit that works replaces both, keeping nothing else */
    rmdir(rep);
    write_text(rel, "OLD");
    for (int i = 0; i < 2; i++) {
        free(tmp[i]);
        int fd = keps_tmp_create(path[i], &tmp[i]);
        assert_int_equal(write(fd, "NEW", 3), 3);
        close(fd);
    }
    assert_int_equal(keps_tmp_commit(tmp, path, 2), -1);
    assert_true(holds(rel, "NEW") && holds(rep, "NEW"));
    assert_int_equal(entries(dir), 2);
    for (int i = 0; i < 2; i++) {
        free(tmp[i]);
        unlink(path[i]);
    }
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(long_file_loads),
        cmocka_unit_test(error_position_after_many_chunks),
        cmocka_unit_test(cr_lines_after_many_chunks),
        cmocka_unit_test(failed_commit_restores_the_old_release),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
