/* keps anonymize --algorithm mdav: MDAV microaggregation of numeric columns
 * (library: keps/mdav.h). The columns are the --columns plus every --qi
 * (each must be numeric, without hierarchy); each is replaced by its group's
 * centroid. --insensitive-mdav uses the insensitive variant, with the data's
 * own min/max as the domain (fine for k-anonymity; DP microaggregation,
 * `keps dpmicro`, takes public bounds instead). The release is
 * keps_mdav_release's (centroids printed exactly). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keps/mdav.h"
#include "micro.h"

static void report_histogram(keps_json *j, const keps_mdav_result *r)
{
    /* sizes are k..2k-1: count them in one array */
    size_t span = r->k + 1;
    size_t *h = calloc(span, sizeof *h);
    if (!h)
        return;
    for (size_t g = 0; g < r->ngroups; g++)
        h[r->size[g] - r->k < span ? r->size[g] - r->k : span - 1]++;
    keps_json_object(j, "group_sizes");
    for (size_t i = 0; i < span; i++) {
        if (!h[i])
            continue;
        char key[32];
        snprintf(key, sizeof key, "%zu", r->k + i);
        keps_json_int(j, key, (long long)h[i]);
    }
    keps_json_end(j);
    free(h);
}

static keps_status finish(cmd_ctx *c, const keps_schema *s, const size_t *cols, const int *digits, const keps_mdav_result *r,
                  double ts[3])
{
    keps_table *rel = NULL;
    keps_error err = {0};
    double written;
    keps_status st = keps_mdav_release(s, NULL, r, &rel, &err);
    keps_status rc = micro_write_release(c, st, &err, rel, &written);
    if (rc)
        return rc;
    int insens = cmd_flag(c, "insensitive-mdav");
    keps_json j;
    micro_report_head(c, &j, insens ? "mdav-insensitive" : "mdav", r->n, r->k);
    keps_json_array(&j, "columns");
    for (size_t a = 0; a < r->m; a++)
        keps_json_str(&j, NULL, s->t->cols[s->qi[a].col].name);
    keps_json_end(&j);
    cmd_report_digits(&j, s->t, cols, r->m, digits);
    keps_json_object(&j, "metrics");
    keps_json_num(&j, "sse", r->sse);
    keps_json_num(&j, "sse_standardized", r->sse_standardized);
    keps_json_int(&j, "groups", (long long)r->ngroups);
    keps_json_end(&j);
    report_histogram(&j, r);
    micro_report_timing(&j, ts[0], ts[1], ts[2], written);
    keps_json_end(&j);
    char text[256];
    snprintf(text, sizeof text, "%s: %zu records in %zu groups (k = %zu), SSE %.6g (standardized %.6g)\n",
             insens ? "insensitive mdav" : "mdav", r->n, r->ngroups, r->k, r->sse, r->sse_standardized);
    rc = cmd_emit_report(c, &j, text);
    keps_json_free(&j);
    return rc;
}

/* Every microaggregated column must be numeric: a hierarchy is an error. */
static keps_status columns_of(cmd_ctx *c, const keps_schema *s, size_t *cols)
{
    for (size_t q = 0; q < s->nqi; q++) {
        if (s->qi[q].h)
            return cmd_usage_error(c, "mdav microaggregates numeric columns; {qi} '%s' has a hierarchy (use "
                                      "{algorithm} mondrian or ola for it, or give it another role)",
                                   s->t->cols[s->qi[q].col].name);
        cols[q] = s->qi[q].col;
    }
    if (s->nqi == 0)
        return cmd_usage_error(c, "mdav needs numeric columns: {columns} NAME (repeatable) or {qi} NAME");
    return KEPS_OK;
}

static void note_constant(cmd_ctx *c, const keps_schema *s, const keps_mdav_result *r)
{
    for (size_t a = 0; a < r->m && !c->quiet; a++)
        if (r->sd[a] == 0)
            cmd_msg(c, KEPS_MSG_NOTE, "note: column '%s' is constant: it does not influence the grouping and is "
                            "released unchanged", s->t->cols[s->qi[a].col].name);
}

keps_status cmd_anonymize_mdav(cmd_ctx *c)
{
    double ts[3] = {cmd_now_ms(), 0, 0};
    char **extra;
    size_t nextra = cmd_list(c, "columns", &extra);
    keps_table *t;
    keps_schema *s;
    size_t k;
    keps_status rc = micro_setup(c, extra, nextra, &t, &s, &k);
    if (rc)
        return rc;
    size_t *cols = malloc((s->nqi + 1) * sizeof *cols);
    double *x = NULL;
    int *digits = NULL;
    keps_error err = {0};
    if (!cols)
        rc = KEPS_EINPUT;
    else
        rc = columns_of(c, s, cols);
    for (size_t q = 0; q < s->nqi && !rc; q++) /* codes such as 01097 are no numbers (keps/table.h) */
        if (keps_schema_numeric(s, t, cols[q], "MDAV replaces numbers by group means", &err))
            rc = cmd_fail(c, &err);
    if (!rc && keps_mdav_matrix(t, cols, s->nqi, &x, &err))
        rc = cmd_fail(c, &err);
    if (!rc)
        rc = cmd_digits(c, t, cols, s->nqi, &digits);
    if (!rc) {
        ts[1] = cmd_now_ms();
        keps_mdav_result r;
        keps_status st = cmd_flag(c, "insensitive-mdav")
                             ? keps_mdav_insensitive(x, t->nrows, s->nqi, k, NULL, NULL, &r, &err)
                             : keps_mdav(x, t->nrows, s->nqi, k, &r, &err);
        if (st) {
            rc = cmd_fail(c, &err);
        } else {
            keps_mdav_round(&r, x, digits); /* output precision; the SSEs then describe the release */
            ts[2] = cmd_now_ms();
            note_constant(c, s, &r);
            rc = finish(c, s, cols, digits, &r, ts);
            keps_mdav_result_free(&r);
        }
    }
    free(x);
    free(cols);
    free(digits);
    keps_schema_free(s);
    keps_table_free(t);
    return rc;
}
