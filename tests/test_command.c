/* The command layer called directly (keps/command.h): an in-memory table
 * in, the release and the report out, equal to what the keps executable
 * writes for the same arguments (an independent path: argv parsing, the
 * CSV reader, the outfile writer); errors spelled through a custom spell
 * callback; a cancel from the progress hook; the catalog. */
#include "testutil.h"

#include <pthread.h>
#include <string.h>

#include "keps/command.h"
#include "keps/csv.h"

/* Twelve rows, two QIs (age with an interval builder, sex), k = 3: the
 * hand-checked classes are [20-30[ x {F, M} and [30-40[ x {F, M} with
 * three rows each. */
static const char *csv = "age,sex,disease\n"
                         "21,F,flu\n22,F,cold\n23,F,flu\n"
                         "24,M,cold\n25,M,flu\n26,M,cold\n"
                         "31,F,flu\n32,F,cold\n33,F,flu\n"
                         "34,M,cold\n35,M,flu\n36,M,cold\n";

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    return buf;
}

/* The result's release written as the CLI writes it (CSV, its order). */
static char *release_text(const keps_result *r)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    keps_error err;
    assert_non_null(r->release);
    assert_int_equal(keps_csv_write_table_to(r->release, f, "<mem>", ',', r->order, &err), KEPS_OK);
    fclose(f);
    return text;
}

static int messages;
static void count_message(void *ud, keps_msg_kind kind, const char *text)
{
    (void)ud;
    (void)kind;
    (void)text;
    messages++;
}

static void test_run_equals_cli(void **state)
{
    (void)state;
    keps_table *t = table_from_csv(csv);
    keps_args *a = keps_args_new();
    assert_int_equal(keps_args_table(a, "input", t), KEPS_OK);
    keps_args_add(a, "algorithm", "ola", NULL);
    keps_args_add(a, "qi", "age:interval=10", NULL);
    keps_args_add(a, "insensitive", "sex", NULL);
    keps_args_add(a, "insensitive", "disease", NULL);
    keps_args_add(a, "k", "3", NULL);
    keps_args_add(a, "seed", "7", NULL);
    keps_host host = {.message = count_message};
    keps_result r;
    keps_error err;
    messages = 0;
    keps_status st = keps_run("anonymize", a, &host, &r, &err);
    if (st)
        print_error("%s\n", err.msg);
    assert_int_equal(st, KEPS_OK);
    assert_int_equal(messages, 1); /* the seed's privacy warning */
    assert_int_equal(r.finding, 0);
    assert_int_equal(r.release->nrows, 12);
    assert_non_null(strstr(r.report, "\"method\":\"ola\""));
    assert_non_null(strstr(r.report, "\"suppressed_rows\":0"));
    /* the same arguments through the executable: the same file, byte for byte */
    const char *in = temp_file(csv);
    char args[1024], out[256];
    snprintf(out, sizeof out, "%s.out.csv", in);
    snprintf(args, sizeof args,
             "anonymize --algorithm ola -i %s --qi age:interval=10 --insensitive sex --insensitive disease -k 3 --seed 7 "
             "-o %s -q",
             in, out);
    assert_int_equal(run_keps(args, NULL, 0, NULL, 0), 0);
    char *mine = release_text(&r);
    assert_string_equal(mine, slurp(out));
    /* every age generalized to its decade, as the hand computation says */
    assert_non_null(strstr(mine, "[20-30[,F,"));
    assert_null(strstr(mine, ",21,"));
    free(mine);
    remove(out);
    keps_result_free(&r);
    keps_args_free(a);
    keps_table_free(t);
}

/* A front-end's spelling: "param(epsilon)". */
static const char *odd_spell(void *ud, const char *name, char *buf, size_t len)
{
    (void)ud;
    snprintf(buf, len, "param(%s)", name);
    return buf;
}

/* The same release with the age hierarchy given as an in-memory table
 * (ARX layout: leaf, decade, '*') instead of the interval builder: the
 * labels are the builder's, so the file is the same byte for byte. */
static void test_hierarchy_table(void **state)
{
    (void)state;
    keps_table *t = table_from_csv(csv);
    keps_table *h = table_from_csv("leaf,decade,top\n"
                                   "21,[20-30[,*\n22,[20-30[,*\n23,[20-30[,*\n24,[20-30[,*\n25,[20-30[,*\n"
                                   "26,[20-30[,*\n31,[30-40[,*\n32,[30-40[,*\n33,[30-40[,*\n34,[30-40[,*\n"
                                   "35,[30-40[,*\n36,[30-40[,*\n");
    keps_result r[2];
    for (int i = 0; i < 2; i++) {
        keps_args *a = keps_args_new();
        keps_args_table(a, "input", t);
        keps_args_add(a, "algorithm", "ola", NULL);
        if (i)
            assert_int_equal(keps_args_hierarchy(a, "age", h), KEPS_OK);
        else
            keps_args_add(a, "qi", "age:interval=10", NULL);
        keps_args_add(a, "insensitive", "sex", NULL);
        keps_args_add(a, "insensitive", "disease", NULL);
        keps_args_add(a, "k", "3", NULL);
        keps_args_add(a, "seed", "7", NULL);
        keps_error err;
        keps_status st = keps_run("anonymize", a, NULL, &r[i], &err);
        if (st)
            print_error("%s\n", err.msg);
        assert_int_equal(st, KEPS_OK);
        keps_args_free(a);
    }
    char *x = release_text(&r[0]), *y = release_text(&r[1]);
    assert_string_equal(x, y);
    assert_non_null(strstr(y, "[30-40[,M,"));
    free(x);
    free(y);
    keps_result_free(&r[0]);
    keps_result_free(&r[1]);
    keps_table_free(h);
    keps_table_free(t);
}

static void test_errors_spelled(void **state)
{
    (void)state;
    keps_args *a = keps_args_new();
    keps_args_add(a, "mechanism", "laplace", NULL);
    keps_args_add(a, "epsilon", "-1", NULL);
    keps_args_add(a, "value", "3", NULL);
    keps_host host = {.spell = odd_spell, .quiet = 1, .lean = 1};
    keps_result r;
    keps_error err;
    assert_int_equal(keps_run("noise", a, &host, &r, &err), KEPS_EINPUT);
    assert_int_equal(r.usage, 1);
    assert_non_null(strstr(err.msg, "param(epsilon) '-1'"));
    assert_null(strstr(err.msg, "--epsilon"));
    keps_result_free(&r);
    /* an unknown parameter, with the nearest one */
    keps_args_add(a, "epsilonn", "1", NULL);
    assert_int_equal(keps_run("noise", a, &host, &r, &err), KEPS_EINPUT);
    assert_non_null(strstr(r.error, "unknown parameter 'epsilonn'"));
    assert_non_null(strstr(r.error, "did you mean param(epsilon)?"));
    keps_result_free(&r);
    /* an unknown command */
    assert_int_equal(keps_run("anonymise", a, &host, &r, &err), KEPS_EINPUT);
    assert_non_null(strstr(err.msg, "did you mean 'anonymize'"));
    keps_result_free(&r);
    keps_args_free(a);
}

/* keps_run's status for each kind of failure, the status a C caller
 * branches on (the CLI's exit codes, docs/cli.md, are its own mapping):
 * a malformed parameter value is a usage error (KEPS_EINPUT, usage set);
 * an unterminated quote in the data is bad input (KEPS_EINPUT, not usage,
 * naming file:line:col); a read the system fails (/proc/self/mem at
 * offset 0 is unmapped: read(2) gives EIO) is KEPS_EIO; k above the 12
 * records is a job that cannot be done (KEPS_EJOB). */
static keps_status run_anonymize(const char *input, const char *k, keps_result *r, keps_error *err)
{
    keps_args *a = keps_args_new();
    keps_args_add(a, "input", input, NULL);
    keps_args_add(a, "algorithm", "mondrian", NULL);
    keps_args_add(a, "qi", "age", NULL);
    keps_args_add(a, "others", "keep", NULL);
    keps_args_add(a, "k", k, NULL);
    keps_host host = {.quiet = 1, .lean = 1};
    keps_status st = keps_run("anonymize", a, &host, r, err);
    keps_args_free(a);
    return st;
}

static void test_statuses(void **state)
{
    (void)state;
    const char *good = temp_file(csv);
    keps_result r;
    keps_error err;
    assert_int_equal(run_anonymize(good, "three", &r, &err), KEPS_EINPUT);
    assert_int_equal(r.usage, 1);
    assert_int_equal(err.code, KEPS_EINPUT);
    keps_result_free(&r);
    const char *bad = temp_file("age,sex\n21,F\n\"22,M\n");
    assert_int_equal(run_anonymize(bad, "2", &r, &err), KEPS_EINPUT);
    assert_int_equal(r.usage, 0);
    assert_non_null(strstr(err.msg, ":3:1: unterminated quoted field"));
    keps_result_free(&r);
    assert_int_equal(run_anonymize("/proc/self/mem", "2", &r, &err), KEPS_EIO);
    assert_int_equal(err.code, KEPS_EIO);
    assert_non_null(strstr(r.error, "/proc/self/mem"));
    assert_null(r.release);
    keps_result_free(&r);
    assert_int_equal(run_anonymize(good, "13", &r, &err), KEPS_EJOB);
    assert_int_equal(r.usage, 0);
    keps_result_free(&r);
    assert_int_equal(run_anonymize(good, "3", &r, &err), KEPS_OK);
    assert_non_null(r.release);
    keps_result_free(&r);
}

static int cancel_calls;
static int cancel_now(void *ud, const char *what, double done, double total)
{
    (void)ud;
    (void)what;
    (void)done;
    (void)total;
    cancel_calls++;
    return 1;
}

static void test_cancel(void **state)
{
    (void)state;
    /* 600,000 rows (3 MB): the CSV reader reports progress while reading,
     * and the command stops once the table is read */
    char *big = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&big, &len);
    fputs("age,sex\n", f);
    for (int i = 0; i < 600000; i++)
        fprintf(f, "%d,%c\n", 20 + i % 50, i % 2 ? 'F' : 'M');
    fclose(f);
    const char *in = temp_file(big);
    free(big);
    keps_args *a = keps_args_new();
    keps_args_add(a, "input", in, NULL);
    keps_args_add(a, "algorithm", "mondrian", NULL);
    keps_args_add(a, "qi", "age", NULL);
    keps_args_add(a, "qi", "sex", NULL);
    keps_args_add(a, "k", "2", NULL);
    keps_host host = {.progress = cancel_now, .quiet = 1, .lean = 1};
    keps_result r;
    keps_error err;
    cancel_calls = 0;
    keps_status st = keps_run("anonymize", a, &host, &r, &err);
    assert_true(cancel_calls > 0);
    assert_int_equal(st, KEPS_ECANCEL);
    assert_null(r.release);
    assert_null(r.report);
    keps_result_free(&r);
    keps_args_free(a);
}

/* Two threads run commands at once, each with its own host: each error is
 * spelled by its own host, each cancel stays with its thread. */
typedef struct run_arg {
    const char *prefix;
    int cancel;
    keps_status st;
    char msg[1024];
} run_arg;

static const char *prefix_spell(void *ud, const char *name, char *buf, size_t len)
{
    snprintf(buf, len, "%s%s", ((const run_arg *)ud)->prefix, name);
    return buf;
}

static int cancel_if(void *ud, const char *what, double done, double total)
{
    (void)what;
    (void)done;
    (void)total;
    return ((const run_arg *)ud)->cancel;
}

static void *run_thread(void *p)
{
    run_arg *ra = p;
    for (int i = 0; i < 20; i++) {
        keps_args *a = keps_args_new();
        keps_args_add(a, "mechanism", "laplace", NULL);
        keps_args_add(a, "epsilon", "-1", NULL);
        keps_args_add(a, "value", "3", NULL);
        keps_host host = {.spell = prefix_spell, .progress = cancel_if, .quiet = 1, .lean = 1, .ud = ra};
        keps_result r;
        keps_error err;
        ra->st = keps_run("noise", a, &host, &r, &err);
        snprintf(ra->msg, sizeof ra->msg, "%s", err.msg);
        keps_result_free(&r);
        keps_args_free(a);
        if (!strstr(ra->msg, ra->prefix))
            break;
    }
    return NULL;
}

static void test_two_threads(void **state)
{
    (void)state;
    run_arg x = {"A:", 0, KEPS_OK, ""}, y = {"B:", 1, KEPS_OK, ""};
    pthread_t tx, ty;
    assert_int_equal(pthread_create(&tx, NULL, run_thread, &x), 0);
    assert_int_equal(pthread_create(&ty, NULL, run_thread, &y), 0);
    pthread_join(tx, NULL);
    pthread_join(ty, NULL);
    assert_int_equal(x.st, KEPS_EINPUT);
    assert_int_equal(y.st, KEPS_EINPUT); /* noise reports no progress: nothing to cancel */
    assert_non_null(strstr(x.msg, "A:epsilon '-1'"));
    assert_non_null(strstr(y.msg, "B:epsilon '-1'"));
}

static void test_catalog(void **state)
{
    (void)state;
    const keps_command_info *const *list;
    size_t n = keps_commands(&list);
    assert_int_equal(n, 14);
    const keps_command_info *c = keps_command("dpmicro");
    assert_non_null(c);
    const keps_param_info *p = keps_command_param(c, "epsilon");
    assert_non_null(p);
    assert_true(p->flags & KEPS_PARAM_NUMBER);
    assert_non_null(keps_command_param(c, "html")); /* follows report */
    assert_true(keps_command_param(c, "quiet")->flags & KEPS_PARAM_COMMON);
    assert_true(keps_command_param(keps_command("privacy"), "calculator")->flags & KEPS_PARAM_POSITIONAL);
    assert_null(keps_command("nosuch"));
    const keps_command_info *sp = keps_command("split");
    assert_true(keps_command_param(sp, "test-output")->flags & KEPS_PARAM_OUTPUT);
    assert_true(keps_command_param(sp, "input")->flags & KEPS_PARAM_PATH);
    assert_false(keps_command_param(sp, "input")->flags & KEPS_PARAM_OUTPUT);
    assert_false(keps_command_param(sp, "fraction")->flags & KEPS_PARAM_PATH);
    char *s = keps_render("give {epsilon} or {k}; {not markup} {}", NULL, NULL);
    assert_string_equal(s, "give epsilon or k; {not markup} {}");
    free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_run_equals_cli),
        cmocka_unit_test(test_hierarchy_table),
        cmocka_unit_test(test_errors_spelled),
        cmocka_unit_test(test_statuses),
        cmocka_unit_test(test_cancel),
        cmocka_unit_test(test_two_threads),
        cmocka_unit_test(test_catalog),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
