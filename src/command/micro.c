#include "micro.h"

#include "keps/guarantee.h"

keps_status micro_setup(cmd_ctx *c, char **extra_qi, size_t nextra, keps_table **t, keps_schema **s, size_t *k)
{
    *t = NULL;
    *s = NULL;
    long kk;
    if (cmd_k(c, 1, 0, &kk) < 0)
        return KEPS_EINPUT;
    *k = (size_t)kk;
    keps_status rc = cmd_load_records(c, t);
    if (!rc)
        rc = cmd_build_schema_extra(c, *t, extra_qi, nextra, s);
    if (rc) {
        keps_table_free(*t);
        *t = NULL;
    }
    return rc;
}

void micro_report_head(cmd_ctx *c, keps_json *j, const char *method, size_t rows, size_t k)
{
    cmd_report_begin(c, j, method);
    keps_counts n = {.input_rows = rows, .output_rows = rows};
    cmd_report_counts(j, &n);
    keps_guarantee g;
    keps_criteria_guarantee(&g, (long long)k, NULL, NULL, 0, NULL, NULL);
    keps_guarantee_json(&g, j, "guarantee");
    keps_guarantee_free(&g);
}

void micro_report_timing(keps_json *j, double start, double loaded, double done, double written)
{
    keps_json_object(j, "timing_ms");
    keps_json_num(j, "total", written - start);
    keps_json_num(j, "load", loaded - start);
    keps_json_num(j, "algorithm", done - loaded);
    keps_json_num(j, "write", written - done);
    keps_json_end(j);
}

keps_status micro_write_release(cmd_ctx *c, keps_status st, const keps_error *err, keps_table *rel, double *written)
{
    keps_status rc = st ? cmd_fail(c, err) : cmd_write_release(c, &rel);
    keps_table_free(rel);
    *written = cmd_now_ms();
    return rc;
}
