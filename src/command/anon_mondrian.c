/* keps anonymize --algorithm mondrian: strict multidimensional Mondrian
 * (library: keps/mondrian.h). A --qi without hierarchy is numeric and is
 * released as a range [lo-hi]; a --qi with a hierarchy is released as the
 * hierarchy node covering its class. Nothing is suppressed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keps/mondrian.h"
#include "crit.h"
#include "micro.h"

static keps_status finish(cmd_ctx *c, const keps_schema *s, const keps_mondrian_result *r, const cmd_criteria *cc,
                  double ts[3])
{
    keps_table *rel = NULL;
    keps_error err = {0};
    double written;
    keps_status st = keps_mondrian_release(s, r, &rel, &err);
    keps_status rc = micro_write_release(c, st, &err, rel, &written);
    if (rc)
        return rc;
    keps_json j;
    char crit[2048];
    cmd_criteria_text(crit, sizeof crit, cc, s->t);
    cmd_report_begin(c, &j, "mondrian");
    keps_counts n = {.input_rows = r->n, .output_rows = r->n};
    cmd_report_counts(&j, &n);
    keps_guarantee g; /* k: the criteria's minimal class size if larger than -k */
    cmd_criteria_guarantee(&g, (long long)r->k, cc, s->t);
    keps_guarantee_json(&g, &j, "guarantee");
    keps_guarantee_free(&g);
    keps_json_object(&j, "metrics");
    keps_json_num(&j, "ncp", r->ncp);
    keps_json_num(&j, "discernibility", r->discernibility);
    keps_json_num(&j, "aecs", (double)r->n / (double)r->nclasses);
    keps_json_int(&j, "classes", (long long)r->nclasses);
    keps_json_end(&j);
    micro_report_timing(&j, ts[0], ts[1], ts[2], written);
    keps_json_end(&j);
    char text[2560];
    snprintf(text, sizeof text, "mondrian: %zu records in %zu classes, NCP %.6g, discernibility %.6g\n  holds %s\n",
             r->n, r->nclasses, r->ncp, r->discernibility, crit);
    rc = cmd_emit_report(c, &j, text);
    keps_json_free(&j);
    return rc;
}

keps_status cmd_anonymize_mondrian(cmd_ctx *c)
{
    double ts[3] = {cmd_now_ms(), 0, 0};
    keps_table *t = NULL;
    keps_schema *s = NULL;
    cmd_criteria cc;
    memset(&cc, 0, sizeof cc);
    keps_status rc = cmd_load_records(c, &t);
    if (!rc)
        rc = cmd_build_schema(c, t, &s);
    if (!rc)
        rc = cmd_criteria_read(c, t, 1, 0, &cc);
    if (rc) {
    } else if (s->nqi == 0) {
        rc = cmd_usage_error(c, "mondrian needs at least one {qi} (NAME for a numeric column, NAME:HIERARCHY.csv "
                                "for a categorical one)");
    } else {
        ts[1] = cmd_now_ms();
        keps_mondrian_result r;
        keps_error err = {0};
        size_t k = cc.k ? (size_t)cc.k : 1;
        if (keps_mondrian_criteria(s, t, k, cc.nc ? cc.crit : NULL, &r, &err)) {
            rc = cmd_fail(c, &err);
        } else {
            ts[2] = cmd_now_ms();
            rc = finish(c, s, &r, &cc, ts);
            keps_mondrian_result_free(&r);
        }
    }
    cmd_criteria_free(&cc);
    keps_schema_free(s);
    keps_table_free(t);
    return rc;
}
