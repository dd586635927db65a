/* keps anonymize --algorithm mondrian: strict multidimensional Mondrian
 * (library: keps/mondrian.h). A --qi without hierarchy is numeric and is
 * released as a range [lo-hi]; a --qi with a hierarchy is released as the
 * hierarchy node covering its class. Nothing is suppressed. */
#include <stdio.h>
#include <stdlib.h>

#include "keps/mondrian.h"
#include "micro.h"

static int finish(cli_ctx *c, const keps_schema *s, const keps_mondrian_result *r, double ts[3])
{
    keps_table *rel = NULL;
    keps_error err = {0};
    double written;
    keps_status st = keps_mondrian_release(s, r, &rel, &err);
    int rc = micro_write_release(c, st, &err, rel, &written);
    if (rc)
        return rc;
    keps_json j;
    micro_report_head(c, &j, "mondrian", r->n, r->k);
    keps_json_object(&j, "metrics");
    keps_json_num(&j, "ncp", r->ncp);
    keps_json_num(&j, "discernibility", r->discernibility);
    keps_json_num(&j, "aecs", (double)r->n / (double)r->nclasses);
    keps_json_int(&j, "classes", (long long)r->nclasses);
    keps_json_end(&j);
    micro_report_timing(&j, ts[0], ts[1], ts[2], written);
    keps_json_end(&j);
    char text[256];
    snprintf(text, sizeof text, "mondrian: %zu records in %zu classes (k = %zu), NCP %.6g, discernibility %.6g\n",
             r->n, r->nclasses, r->k, r->ncp, r->discernibility);
    rc = cli_emit_report(c, &j, text);
    keps_json_free(&j);
    return rc;
}

int cli_anonymize_mondrian(cli_ctx *c)
{
    double ts[3] = {cli_now_ms(), 0, 0};
    keps_table *t;
    keps_schema *s;
    size_t k;
    int rc = micro_setup(c, NULL, 0, &t, &s, &k);
    if (rc)
        return rc;
    if (s->nqi == 0) {
        rc = cli_usage_error(c, "mondrian needs at least one {qi} (NAME for a numeric column, NAME:HIERARCHY.csv "
                                "for a categorical one)");
    } else {
        ts[1] = cli_now_ms();
        keps_mondrian_result r;
        keps_error err = {0};
        if (keps_mondrian(s, t, k, &r, &err)) {
            rc = cli_fail(c, &err);
        } else {
            ts[2] = cli_now_ms();
            rc = finish(c, s, &r, ts);
            keps_mondrian_result_free(&r);
        }
    }
    keps_schema_free(s);
    keps_table_free(t);
    return rc;
}
