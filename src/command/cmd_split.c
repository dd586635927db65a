/* keps split: a random train/test split of a data set (keps_eval_split,
 * keps/evaluate.h), so that a release is made from the training rows only
 * and `keps evaluate --test` measures it on rows it never saw. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "command_internal.h"
#include "keps/csv.h"
#include "keps/evaluate.h"
#include "keps/outfile.h"

static const cmd_opt opt_output = {"output", 'o', "FILE", 0,
                                   "the training rows, in input order (anonymize this file); '-' writes stdout",
                                   "train.csv"};
static const cmd_opt opt_test_output = {"test-output", 0, "FILE", 0,
                                        "the held-out test rows, in input order (give it to keps evaluate {test}; "
                                        "it holds raw records: do not publish it)",
                                        "test.csv"};
static const cmd_opt opt_fraction = {"fraction", 0, "F", CLI_NUMBER,
                                     "share of the rows held out for testing, in (0, 1): round(F x rows) of them, "
                                     "chosen uniformly at random; default 0.2",
                                     "0.25"};

static const cmd_opt *const opts[] = {&cmd_opt_input,     &opt_output,      &opt_test_output, &opt_fraction,
                                      &cmd_opt_delimiter, &cmd_opt_missing, &cmd_opt_seed,    NULL};

/* The two outputs must be two files (as they resolve: keps/outfile.h),
 * neither the input. */
static keps_status check_paths(cmd_ctx *c, const char *in, const char *train, const char *test)
{
    struct stat si, st;
    if (strcmp(train, test) == 0 || keps_output_same(train, test))
        return cmd_usage_error(c, "{output} %s and {test-output} %s are the same %s; give each its own file", train,
                               test, keps_output_fd(train) >= 0 ? "stream" : "file");
    if (strcmp(test, "-") && strcmp(in, "-") && stat(in, &si) == 0 && stat(test, &st) == 0 &&
        si.st_dev == st.st_dev && si.st_ino == st.st_ino)
        return cmd_usage_error(c, "{test-output} %s is also the input: writing it would destroy the input", test);
    return KEPS_OK;
}

/* rows[0..n) of t: the output for parameter param. */
static keps_status write_part(cmd_ctx *c, const keps_table *t, const size_t *rows, size_t n, const char *param)
{
    keps_error err = {0};
    keps_table *part = keps_table_rows(t, rows, n, &err);
    if (!part)
        return cmd_fail(c, &err);
    keps_status rc = cmd_stage_table(c, param, &part, t->delimiter ? t->delimiter : ',');
    keps_table_free(part);
    return rc;
}

static keps_status report(cmd_ctx *c, size_t n, size_t ntest, double f)
{
    keps_json j;
    cmd_report_begin(c, &j, "split");
    keps_json_int(&j, "input_rows", (long long)n);
    keps_json_int(&j, "train_rows", (long long)(n - ntest));
    keps_json_int(&j, "test_rows", (long long)ntest);
    keps_json_num(&j, "fraction", f);
    keps_json_str(&j, "selection", "round(fraction x input_rows) test rows, uniformly at random");
    cmd_report_total(c, &j);
    keps_json_end(&j);
    char text[512];
    snprintf(text, sizeof text, "split: %zu training rows to %s, %zu test rows to %s (round(%g x %zu) held out at random)\n",
             n - ntest, cmd_str(c, "output"), ntest, cmd_str(c, "test-output"), f, n);
    keps_status rc = cmd_emit_report(c, &j, text);
    keps_json_free(&j);
    return rc;
}

static keps_status run(cmd_ctx *c)
{
    double f;
    if (cmd_require(c, "output") || cmd_require(c, "test-output") || cmd_double(c, "fraction", 0, 1, 0.2, &f) < 0)
        return KEPS_EINPUT;
    const char *train = cmd_str(c, "output"), *test = cmd_str(c, "test-output");
    keps_status rc = check_paths(c, cmd_str(c, "input") ? cmd_str(c, "input") : "-", train, test);
    if (rc)
        return rc;
    keps_table *t;
    if ((rc = cmd_load_records(c, &t)))
        return rc;
    size_t n = t->nrows, ntest = 0, *rows = malloc((n + 1) * sizeof *rows);
    uint8_t *is_test = calloc(n + 1, 1);
    keps_rng *rng = cmd_rng(c);
    keps_error err = {0};
    const char *params[2] = {"output", "test-output"}; /* 0: training rows, 1: test rows */
    if (!rows || !is_test || !rng)
        rc = rng ? cmd_oom(c) : KEPS_EINPUT;
    else if (keps_eval_split(n, f, rng, is_test, &ntest, &err))
        rc = cmd_fail(c, &err);
    for (int side = 0; side < 2 && !rc; side++) {
        size_t k = 0;
        for (size_t i = 0; i < n; i++)
            if (is_test[i] == side)
                rows[k++] = i;
        rc = write_part(c, t, rows, k, params[side]); /* both written or neither */
    }
    if (!rc)
        rc = report(c, n, ntest, f);
    free(rows);
    free(is_test);
    keps_table_free(t);
    return rc;
}

const cmd_cmd cmd_split = {
    "split",
    "hold out random test rows before anonymizing, for an honest keps evaluate",
    "split {input} FILE {output} TRAIN.csv {test-output} TEST.csv [{fraction} F] [options]",
    "Splits a data set at random into training rows ({output}) and test rows ({test-output}), both in input order with "
    "the input's header and separator: round(F x rows) test rows, chosen uniformly with the CSPRNG (at least one "
    "on each side). Anonymize the training file, then measure the release with keps evaluate {original} "
    "TRAIN.csv {release} RELEASE.csv {test} TEST.csv {target} COLUMN: the classifier is then tested on records "
    "the release never contained (testing on rows of the release itself overstates its accuracy). The test "
    "file holds raw records: it is for evaluation only, never for publication.",
    "split {input} data/adult/adult.csv {output} train.csv {test-output} test.csv {fraction} 0.2",
    opts,
    run,
    0,
    NULL,
};
