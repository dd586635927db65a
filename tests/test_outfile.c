/* Output files (keps/outfile.h): all or nothing, the replaced file's
 * mode, owner and group, one temporary file per output, stale temporary
 * files of a killed writer removed, paths resolved before choosing. */
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "keps/outfile.h"
#include "testutil.h"

extern int keps_outfile_named_only; /* private: no O_TMPFILE */

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

/* Entries of dir, hidden ones too (temporary and lock files are hidden). */
static int entries(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return n;
}

static void open_write(const char *const *path, size_t n, keps_outfile **o, const char *text)
{
    keps_error err = {0};
    assert_int_equal(keps_outfile_open(path, n, o, &err), KEPS_OK);
    for (size_t i = 0; i < n; i++)
        fputs(text, keps_outfile_stream(o[i]));
}

static void make_dir(char *dir)
{
    strcpy(dir, "/tmp/keps_outfile_XXXXXX");
    assert_non_null(mkdtemp(dir));
}

/* A fresh directory (dir: 64 bytes) and its out.csv (out: 96 bytes). */
static void fresh_output(char *dir, char *out)
{
    make_dir(dir);
    snprintf(out, 96, "%s/out.csv", dir);
}

/* Writes text to path alone and commits it. */
static void write_one(const char *path, const char *text)
{
    keps_outfile *o[1];
    keps_error err = {0};
    open_write(&path, 1, o, text);
    assert_int_equal(keps_outfile_commit(o, 1, &err), KEPS_OK);
}

/* The report's rename fails (its path has become a directory): the release
 * must not stay, and the file it replaced, an earlier run's release, must
 * be there again, not lost. Both with O_TMPFILE and named files. */
static void failed_commit_restores_the_old_release(void **state)
{
    (void)state;
    for (int named = 0; named < 2; named++) {
        keps_outfile_named_only = named;
        char dir[64], rel[96], rep[96], target[96];
        make_dir(dir);
        snprintf(rel, sizeof rel, "%s/out.csv", dir);
        snprintf(rep, sizeof rep, "%s/report.json", dir);
        const char *path[2] = {rel, rep};
        keps_outfile *o[2];
        keps_error err = {0};
        write_text(rel, "OLD");
        open_write(path, 2, o, "NEW");
        assert_int_equal(mkdir(rep, 0700), 0);
        assert_int_equal(keps_outfile_commit(o, 2, &err), KEPS_EIO);
        assert_non_null(strstr(err.msg, "report.json"));
        assert_true(holds(rel, "OLD"));
        assert_int_equal(entries(dir), 2); /* out.csv and the directory: no temporary or lock file */

        /* with nothing to restore, the rollback removes the release */
        unlink(rel);
        rmdir(rep);
        open_write(path, 2, o, "NEW");
        assert_int_equal(mkdir(rep, 0700), 0);
        assert_int_equal(keps_outfile_commit(o, 2, &err), KEPS_EIO);
        assert_int_equal(access(rel, F_OK), -1);
        assert_int_equal(entries(dir), 1);

        /* a symbolic link stays a link: its target is replaced, and
         * restored by a rollback */
        snprintf(target, sizeof target, "%s/elsewhere", dir);
        write_text(target, "OLD");
        assert_int_equal(symlink("elsewhere", rel), 0);
        rmdir(rep);
        open_write(path, 2, o, "NEW");
        assert_int_equal(mkdir(rep, 0700), 0);
        assert_int_equal(keps_outfile_commit(o, 2, &err), KEPS_EIO);
        struct stat st;
        assert_int_equal(lstat(rel, &st), 0);
        assert_true(S_ISLNK(st.st_mode) && holds(target, "OLD"));
        assert_int_equal(entries(dir), 3);
        rmdir(rep);
        open_write(path, 2, o, "NEW");
        assert_int_equal(keps_outfile_commit(o, 2, &err), KEPS_OK);
        assert_int_equal(lstat(rel, &st), 0);
        assert_true(S_ISLNK(st.st_mode) && holds(target, "NEW") && holds(rep, "NEW"));
        assert_int_equal(entries(dir), 3); /* out.csv (a link), elsewhere, report.json */
        unlink(rel);
        unlink(target);
        unlink(rep);
        rmdir(dir);
    }
    keps_outfile_named_only = 0;
}

/* A replaced file keeps its permission bits (and, as root, its owner and
 * group); a new file gets 0666 less the umask, which stays as it was. */
static void mode_owner_group_kept(void **state)
{
    (void)state;
    for (int named = 0; named < 2; named++) {
        keps_outfile_named_only = named;
        char dir[64], out[96];
        fresh_output(dir, out);
        mode_t mask = umask(027);
        write_one(out, "A");
        struct stat st;
        assert_int_equal(stat(out, &st), 0);
        assert_int_equal(st.st_mode & 0777, 0640);
        assert_int_equal(umask(mask), 027); /* not changed behind the caller's back */
        assert_int_equal(chmod(out, 0604), 0);
        int root = geteuid() == 0;
        if (root)
            assert_int_equal(chown(out, 1234, 5678), 0);
        write_one(out, "B");
        assert_int_equal(stat(out, &st), 0);
        assert_true(holds(out, "B"));
        assert_int_equal(st.st_mode & 0777, 0604);
        if (root) {
            assert_int_equal(st.st_uid, 1234);
            assert_int_equal(st.st_gid, 5678);
        }
        unlink(out);
        rmdir(dir);
    }
    keps_outfile_named_only = 0;
}

/* One temporary file per output, and none in sight with O_TMPFILE. */
static void one_temporary_file(void **state)
{
    (void)state;
    for (int named = 0; named < 2; named++) {
        keps_outfile_named_only = named;
        char dir[64], out[96];
        fresh_output(dir, out);
        const char *path[1] = {out};
        keps_outfile *o[1];
        open_write(path, 1, o, "A");
        /* the lock file, and the named temporary file if there is one */
        assert_int_equal(entries(dir), 1 + named);
        keps_outfile_abort(o[0]);
        assert_int_equal(entries(dir), 0);
        write_one(out, "A");
        assert_int_equal(entries(dir), 1);
        unlink(out);
        rmdir(dir);
    }
    keps_outfile_named_only = 0;
}

/* A writer killed by SIGKILL in the middle of its output leaves, at most,
 * a named temporary file and its lock file; the next writer of the same
 * target removes them, and leaves a file of some other name alone. */
static void killed_writer_leaves_nothing_for_long(void **state)
{
    (void)state;
    for (int named = 0; named < 2; named++) {
        char dir[64], out[96], other[128];
        fresh_output(dir, out);
        snprintf(other, sizeof other, "%s/.out.csv.keps-0123456.tmp", dir); /* 7 digits: not ours */
        write_text(other, "user's");
        int pfd[2];
        assert_int_equal(pipe(pfd), 0);
        pid_t pid = fork();
        if (pid == 0) {
            keps_outfile_named_only = named;
            const char *path[1] = {out};
            keps_outfile *o[1];
            keps_error err = {0};
            if (keps_outfile_open(path, 1, o, &err))
                _exit(1);
            FILE *f = keps_outfile_stream(o[0]);
            for (int i = 0; i < 100000; i++)
                fputs("a partial release line\n", f);
            fflush(f);
            (void)!write(pfd[1], "x", 1);
            for (;;)
                pause();
        }
        char c;
        assert_int_equal(read(pfd[0], &c, 1), 1);
        kill(pid, SIGKILL);
        int status;
        waitpid(pid, &status, 0);
        assert_true(WIFSIGNALED(status));
        close(pfd[0]);
        close(pfd[1]);
        assert_int_equal(access(out, F_OK), -1);
        /* the other file, the lock file, and a named temporary file */
        assert_int_equal(entries(dir), 2 + named);
        write_one(out, "A");
        assert_int_equal(entries(dir), 2);
        assert_true(holds(out, "A") && holds(other, "user's"));
        unlink(out);
        unlink(other);
        rmdir(dir);
    }
}

/* Paths are resolved before choosing: /dev/stdout and /proc/self/fd/1 are
 * descriptor 1, a link to a device is written in place, and two outputs
 * that resolve to one stream or file are refused. */
static void paths_resolved(void **state)
{
    (void)state;
    assert_int_equal(keps_output_fd("-"), 1);
    assert_int_equal(keps_output_fd("/dev/stdout"), 1);
    assert_int_equal(keps_output_fd("/proc/self/fd/1"), 1);
    assert_int_equal(keps_output_fd("/dev/fd/2"), 2);
    assert_int_equal(keps_output_fd("/dev/null"), -1);
    assert_true(keps_output_in_place("/dev/null"));
    assert_true(keps_output_in_place("/dev/stdout"));
    assert_true(keps_output_same("-", "/dev/stdout"));
    assert_true(keps_output_same("/proc/self/fd/1", "/dev/stdout"));
    assert_false(keps_output_same("/dev/null", "/dev/null")); /* the null device takes any number */
    char dir[64], a[96], b[96], link[96];
    make_dir(dir);
    snprintf(a, sizeof a, "%s/a.csv", dir);
    snprintf(b, sizeof b, "%s/sub/../a.csv", dir);
    snprintf(link, sizeof link, "%s/dev", dir);
    assert_int_equal(symlink("/dev/null", link), 0);
    assert_true(keps_output_in_place(link));
    assert_false(keps_output_in_place(a));
    snprintf(b, sizeof b, "%s/./a.csv", dir);
    assert_true(keps_output_same(a, b)); /* a new file, spelled twice */
    const char *two[2] = {"-", "/dev/stdout"};
    keps_outfile *o[2];
    keps_error err = {0};
    assert_int_equal(keps_outfile_open(two, 2, o, &err), KEPS_EINPUT);
    assert_non_null(strstr(err.msg, "also written as '-'"));
    /* a link to a device is written through, never replaced */
    const char *dev[1] = {link};
    assert_int_equal(keps_outfile_open(dev, 1, o, &err), KEPS_OK);
    fputs("x", keps_outfile_stream(o[0]));
    assert_int_equal(keps_outfile_commit(o, 1, &err), KEPS_OK);
    struct stat st;
    assert_int_equal(lstat(link, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    assert_int_equal(entries(dir), 1);
    /* a missing directory is the path's fault, a full device the system's */
    snprintf(a, sizeof a, "%s/no/a.csv", dir);
    const char *missing[1] = {a};
    assert_int_equal(keps_outfile_open(missing, 1, o, &err), KEPS_EINPUT);
    if (access("/dev/full", W_OK) == 0) {
        const char *full[1] = {"/dev/full"};
        assert_int_equal(keps_outfile_open(full, 1, o, &err), KEPS_OK);
        for (int i = 0; i < 10000; i++)
            fputs("a line\n", keps_outfile_stream(o[0]));
        assert_int_equal(keps_outfile_commit(o, 1, &err), KEPS_EIO);
        assert_non_null(strstr(err.msg, "No space left on device"));
    }
    unlink(link);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(failed_commit_restores_the_old_release),
        cmocka_unit_test(mode_owner_group_kept),
        cmocka_unit_test(one_temporary_file),
        cmocka_unit_test(killed_writer_leaves_nothing_for_long),
        cmocka_unit_test(paths_resolved),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
