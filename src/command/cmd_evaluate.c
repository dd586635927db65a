/* keps evaluate: information loss and classifier accuracy of a release
 * (keps_evaluate, evaluate.h). */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "command_internal.h"
#include "keps/evaluate.h"

static const cmd_opt opt_original = {"original", 0, "FILE", 0, "the original (raw) CSV the release was made from",
                                     "data/adult/adult.csv"};
static const cmd_opt opt_release = {"release", 0, "FILE", 0, "the released CSV to evaluate", "out.csv"};
static const cmd_opt opt_target = {"target", 0, "COL", 0,
                                   "class column: trains a logistic regression on the release, tests it on held-out "
                                   "original rows (without it: information loss only)",
                                   "salary-class"};
static const cmd_opt opt_test = {"test", 0, "FILE", 0,
                                 "with {target}: held-out original rows the release was not made from (same "
                                 "columns as {original}); keps split makes them: split, anonymize the training "
                                 "file, evaluate against the test file. {target} needs {test} or {split}",
                                 "test.csv"};
static const cmd_opt opt_split = {"split", 0, "FRACTION", CLI_NUMBER,
                                  "with {target}, instead of {test}: test on this share of the {original} rows, "
                                  "held out of the classifier trained on the original (it must leave at least 1 "
                                  "test and 1 training row). A release made from {original} contains those rows, "
                                  "so its accuracy comes out too high: a warning and the report say so; prefer "
                                  "keps split and {test}",
                                  "0.3"};
static const cmd_opt opt_hierarchy = {"hierarchy", 0, "NAME:FILE", CLI_REPEAT,
                                      "ARX hierarchy of a column: detects the release's generalization level, maps "
                                      "test values to it and reports level/height (without it the level is "
                                      "unknown); every original value must be a leaf of it",
                                      "age:data/adult/adult_hierarchy_age.csv"};
static const cmd_opt opt_ignore = {"ignore", 0, "NAME", CLI_REPEAT, "with {target}: column left out of the classifier's features",
                                   "native-country"};
static const cmd_opt opt_c = {"C", 0, "C", CLI_NUMBER,
                              "with {target}: inverse L2 regularization strength of the logistic regression "
                              "(default 1.0, as scikit-learn)",
                              "0.5"};

/* evaluate releases nothing: its seed only fixes the train/test split. */
static const cmd_opt opt_seed = {"seed", 0, "N", CLI_NUMBER,
                                 "reproducible train/test split of {split} (evaluate releases no data, so no "
                                 "privacy depends on it)",
                                 "1"};

static const cmd_opt *const opts[] = {&opt_original, &opt_release, &opt_target,     &opt_test,
                                      &opt_split,    &opt_hierarchy, &opt_ignore, &opt_c,
                                      &cmd_opt_delimiter, &cmd_opt_missing, &cmd_opt_decimal_comma, &opt_seed, &cmd_opt_report, NULL};

/* The classifier's options; without --target no classifier is trained
 * and they would pass unsaid (cmd_mode_options). */
static const cmd_mode_opt classifier[] = {
    {"test", "{target}", "without it evaluate measures information loss only (no classifier is tested)", 0},
    {"split", "{target}", "without it evaluate measures information loss only (no rows are held out)", 0},
    {"C", "{target}", "without it evaluate trains no classifier", 0},
    {"ignore", "{target}", "without it evaluate trains no classifier", 0},
};

static void report_attrs(keps_json *j, const keps_eval_result *r)
{
    keps_json_object(j, "attributes");
    for (size_t a = 0; a < r->nattrs; a++) {
        const keps_eval_attr *x = &r->attrs[a];
        keps_json_object(j, x->name);
        if (!isnan(x->test_unmatched_share)) /* a feature: how the classifier encodes it */
            keps_json_str(j, "type", x->numeric ? "numeric" : "categorical");
        /* null: unknown without a hierarchy (height null too), or mixed levels */
        if (x->level >= 0)
            keps_json_int(j, "level", x->level);
        else
            keps_json_null(j, "level");
        if (x->height >= 0)
            keps_json_int(j, "height", x->height);
        else
            keps_json_null(j, "height");
        keps_json_num(j, "generalization", x->generalization);
        keps_json_num(j, "prec", x->prec);
        keps_json_num(j, "suppressed_share", x->suppressed_share);
        keps_json_num(j, "non_original_share", x->non_original_share);
        keps_json_num(j, "distinct_ratio", x->distinct_ratio);
        if (!isnan(x->test_unmatched_share))
            keps_json_num(j, "test_unmatched_share", x->test_unmatched_share);
        keps_json_end(j);
    }
    keps_json_end(j);
}

/* How the test rows were chosen, in the report: a reader must see whether
 * they could be in the release. */
static void report_test_rows(const cmd_ctx *c, keps_json *j, const keps_eval_options *o)
{
    keps_json_object(j, "test_rows_from");
    if (o->test) {
        keps_json_str(j, "source", "test file");
        keps_json_str(j, "file", cmd_str(c, "test"));
        keps_json_str(j, "note", "rows held apart from the data the release was made from (as keps split makes "
                                 "them), if the release was made without them");
    } else {
        keps_json_str(j, "source", "split of the original");
        keps_json_num(j, "fraction", o->split);
        keps_json_str(j, "selection", "round(fraction x original_rows) rows, uniformly at random");
        keps_json_str(j, "note", "the release was likely made from every original row, these included, so the "
                                 "accuracy trained on the release is optimistic; keps split and the test parameter avoid it");
    }
    keps_json_end(j);
}

static void report_model(keps_json *j, const keps_eval_result *r, const char *target)
{
    keps_json_object(j, "classifier");
    keps_json_str(j, "model", "logistic regression, L2, one-vs-rest");
    keps_json_str(j, "target", target);
    keps_json_num(j, "accuracy", r->accuracy);
    keps_json_num(j, "accuracy_original", r->accuracy_original);
    keps_json_num(j, "baseline", r->baseline);
    keps_json_str(j, "majority_class", r->majority ? r->majority : "");
    keps_json_int(j, "train_rows", (long long)r->train_rows);
    keps_json_int(j, "original_train_rows", (long long)r->original_train_rows);
    keps_json_int(j, "test_rows", (long long)r->test_rows);
    keps_json_int(j, "features", (long long)r->nfeatures);
    keps_json_int(j, "classes", (long long)r->nclasses);
    keps_json_end(j);
}

/* "3/4"; "unknown" without a hierarchy; "mixed/4" when the release's values
 * come from several levels. */
static const char *level_text(const keps_eval_attr *a, char *buf, size_t len)
{
    if (a->height < 0)
        return "unknown";
    if (a->level < 0)
        snprintf(buf, len, "mixed/%d", a->height);
    else
        snprintf(buf, len, "%d/%d", a->level, a->height);
    return buf;
}

/* The per-attribute lines of the text summary, and a note on the levels
 * that are not plain numbers. */
static void text_attrs(const cmd_ctx *c, const keps_eval_result *r, FILE *txt)
{
    int unknown = 0, mixed = 0;
    for (size_t a = 0; a < r->nattrs; a++) {
        const keps_eval_attr *x = &r->attrs[a];
        char lv[32];
        unknown |= x->height < 0;
        mixed |= x->height >= 0 && x->level < 0;
        fprintf(txt, "  %-20s level %-7s  non-original %.3f  suppressed %.3f  distinct ratio %.3f\n", x->name,
                level_text(x, lv, sizeof lv), x->non_original_share, x->suppressed_share, x->distinct_ratio);
    }
    if (unknown)
        fprintf(txt, "level unknown: no %s for the column (%s NAME:FILE detects it)\n", CMD_SPELL(c, "hierarchy"),
                CMD_SPELL(c, "hierarchy"));
    if (mixed)
        fputs("level mixed: the release holds values of several hierarchy levels\n", txt);
}

/* Test values of a column without a hierarchy that match no release value. */
static int unmatched(const keps_eval_attr *x)
{
    return x->height < 0 && x->test_unmatched_share > 0; /* NaN (not a feature) fails too */
}

/* A release model no better than the majority class, while test values of
 * columns without a hierarchy matched nothing in the release: say why
 * (every such column, however many: written in pieces, not through a
 * fixed buffer). */
static void warn_unmatched(const cmd_ctx *c, const keps_eval_result *r)
{
    size_t n = 0;
    if (c->quiet || !r->has_model || r->accuracy != r->baseline)
        return;
    for (size_t a = 0; a < r->nattrs; a++)
        n += unmatched(&r->attrs[a]);
    if (!n)
        return;
    char *list = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&list, &len);
    if (!f)
        return;
    for (size_t a = 0, i = 0; a < r->nattrs; a++)
        if (unmatched(&r->attrs[a]))
            fprintf(f, "%s%s (%.3g%%)", i++ ? ", " : "", r->attrs[a].name, 100 * r->attrs[a].test_unmatched_share);
    if (fclose(f) == 0)
        cmd_msg(c, KEPS_MSG_WARNING,
                "warning: the accuracy equals the majority baseline, and test rows hold original values that match "
                "no release value (share of the test rows): %s; without a hierarchy they cannot be generalized the "
                "way the release is, so the classifier sees nothing of them: pass {hierarchy} NAME:FILE for these "
                "columns",
                list);
    free(list);
}

/* Loads --hierarchy NAME:FILE values for columns of orig; returns KEPS_OK or the
 * status of the error. */
static keps_status load_hierarchies(cmd_ctx *c, const keps_table *orig, keps_eval_hier **out, size_t *nout)
{
    char **v;
    size_t n = cmd_list(c, "hierarchy", &v);
    keps_eval_hier *h = calloc(n + 1, sizeof *h);
    int *col = calloc(n + 1, sizeof *col);
    *out = h;
    keps_status rc = h && col ? KEPS_OK : cmd_oom(c);
    for (size_t i = 0; i < n && !rc; i++) {
        const char *file;
        col[i] = keps_table_column_spec(orig, v[i], &file);
        if (!strchr(v[i], ':') || *v[i] == ':' || (col[i] >= 0 && (!file || !*file))) {
            rc = cmd_usage_error(c, "{hierarchy} '%s': expected NAME:FILE", v[i]);
            break;
        }
        if (col[i] < 0) {
            keps_error err = {0};
            keps_table_no_column_spec(&err, orig, v[i]);
            rc = cmd_usage_error(c, "{hierarchy} '%s': %s", v[i], err.msg);
            break;
        }
        for (size_t j = 0; j < i && !rc; j++) /* the second would be ignored */
            if (col[j] == col[i])
                rc = cmd_usage_error(c, "{hierarchy}: two hierarchies for column '%s' ('%s' and '%s'); give one",
                                     orig->cols[col[i]].name, v[j], v[i]);
        keps_error err = {0};
        keps_hierarchy *hh;
        char *path = rc ? NULL : cmd_job_file(c, "hierarchy", file); /* a job file's paths are relative to it */
        if (!rc && keps_hierarchy_load(path ? path : file, 0, &hh, &err))
            rc = cmd_fail(c, &err);
        free(path);
        if (rc)
            break;
        h[i].h = hh;
        *nout = i + 1;
        if (!(h[i].column = strdup(orig->cols[col[i]].name)))
            rc = cmd_oom(c);
    }
    free(col);
    return rc;
}

static void free_hierarchies(keps_eval_hier *h, size_t n)
{
    for (size_t i = 0; h && i < n; i++) {
        keps_hierarchy_free((keps_hierarchy *)h[i].h);
        free((char *)h[i].column);
    }
    free(h);
}

static keps_status run(cmd_ctx *c)
{
    if (cmd_require(c, "original") || cmd_require(c, "release"))
        return KEPS_EINPUT;
    keps_eval_options o = {0};
    o.target = cmd_str(c, "target");
    cmd_mode_options(c, "", o.target ? "{target}" : "no {target}", classifier,
                     sizeof classifier / sizeof *classifier); /* notes only */
    if (cmd_double(c, "split", 0.0, 1.0, 0.2, &o.split) < 0 || cmd_double(c, "C", DBL_MIN, DBL_MAX, 1.0, &o.c) < 0)
        return KEPS_EINPUT;
    if (cmd_str(c, "split") && cmd_str(c, "test"))
        return cmd_usage_error(c, "{split} and {test} both choose the test rows: give one ({test} FILE holds them "
                                  "apart; {split} F takes them from {original})");
    if (o.target && !cmd_str(c, "split") && !cmd_str(c, "test"))
        return cmd_usage_error(
            c, "{target} needs test rows the release was not made from: split the data first (keps split {input} "
               "DATA.csv {output} train.csv {test-output} test.csv), anonymize train.csv, then evaluate with {original} "
               "train.csv {test} test.csv; {split} F instead tests on rows of {original}, which a release made from "
               "it contains, and overstates the accuracy");
    keps_table *orig = NULL, *rel = NULL, *test = NULL;
    keps_eval_hier *hier = NULL;
    keps_eval_result r = {0};
    keps_status rc = cmd_load_table(c, cmd_str(c, "original"), &orig);
    if (!rc)
        rc = cmd_load_table(c, cmd_str(c, "release"), &rel);
    if (!rc && o.target && cmd_str(c, "test")) /* without --target nothing reads it (noted above) */
        rc = cmd_load_table(c, cmd_str(c, "test"), &test);
    if (!rc)
        rc = load_hierarchies(c, orig, &hier, &o.nhier);
    if (!rc && o.target && !test && !(o.split > 0 && o.split < 1))
        rc = cmd_usage_error(c, "{split} %g: give a fraction strictly between 0 and 1", o.split);
    if (!rc && o.target && !test && !(o.rng = cmd_rng(c)))
        rc = KEPS_EINPUT;
    if (!rc && o.target && !test) /* an inflated figure must not pass unsaid, --quiet or not */
        cmd_msg(c, KEPS_MSG_PRIVACY, "warning: {split} tests on rows of {original}; a release made from %s contains "
                        "them, so the accuracy on the release is optimistic. For an honest figure: keps split, "
                        "anonymize the training file, then {test}", cmd_str(c, "original"));
    if (rc)
        goto out;
    o.test = test;
    o.hier = hier;
    char **ign;
    o.nignore = cmd_list(c, "ignore", &ign);
    o.ignore = (const char *const *)ign;
    keps_error err = {0};
    double t0 = cmd_now_ms();
    if (keps_evaluate(orig, rel, &o, &r, &err)) {
        rc = cmd_fail(c, &err);
        goto out;
    }
    keps_json j;
    cmd_report_begin(c, &j, "evaluate");
    keps_json_int(&j, "original_rows", (long long)r.original_rows);
    keps_json_int(&j, "release_rows", (long long)r.release_rows);
    if (r.has_model) {
        report_model(&j, &r, o.target);
        report_test_rows(c, &j, &o);
    }
    report_attrs(&j, &r);
    keps_json_object(&j, "timing_ms");
    keps_json_num(&j, "total", cmd_now_ms() - t0);
    keps_json_end(&j);
    keps_json_end(&j);
    char *text = NULL; /* the summary grows with the attributes' names */
    size_t tlen = 0;
    FILE *txt = open_memstream(&text, &tlen);
    if (txt) {
        fprintf(txt, "original rows %zu, release rows %zu\n", r.original_rows, r.release_rows);
        if (r.has_model)
            fprintf(txt,
                    "accuracy %.4f (trained on the release, %zu rows), %.4f (trained on the original, %zu rows), "
                    "majority baseline %.4f ('%s'), %zu test rows %s\n",
                    r.accuracy, r.train_rows, r.accuracy_original, r.original_train_rows, r.baseline,
                    r.majority ? r.majority : "", r.test_rows,
                    test ? "from the test file" : "split from the original (optimistic for the release)");
        text_attrs(c, &r, txt);
        fclose(txt);
    }
    warn_unmatched(c, &r);
    rc = cmd_emit_report(c, &j, text);
    free(text);
    keps_json_free(&j);
out:
    keps_eval_result_free(&r);
    free_hierarchies(hier, o.nhier);
    keps_table_free(orig);
    keps_table_free(rel);
    keps_table_free(test);
    return rc;
}

const cmd_cmd cmd_evaluate = {
    "evaluate",
    "information loss and classifier accuracy of a release",
    "evaluate {original} FILE {release} FILE [{target} COL {test} FILE | {split} FRACTION] [options]",
    "Compares a release with the original data. Per attribute: the generalization level (with {hierarchy}; "
    "'unknown' without one), the share of cells holding a value the original column never holds (generalized or "
    "suppressed), the share of '*' cells (suppressed, unless the whole column is '*'), and the ratio of distinct "
    "values. With {target}: trains an "
    "L2-regularized logistic regression (one-hot for categorical columns, generalized values included; "
    "standardized numeric columns; one-vs-rest for more than two classes) on the release and on the original "
    "training rows, tests both on held-out original rows generalized the way the release is, and reports both "
    "accuracies and the majority-class baseline (the learning task of Li, Qardaji and Su 2012 and of the "
    "thesis evaluating it; docs/spec.md, section 6). The test rows must be ones the release was not made from: "
    "make them with keps split before anonymizing and give them with {test} ({split} takes them from "
    "{original} instead, and says that the figure is then optimistic).",
    "evaluate {original} train.csv {release} out.csv {test} test.csv {target} salary-class "
    "{hierarchy} age:data/adult/adult_hierarchy_age.csv",
    opts,
    run,
    0,
    NULL,
};
