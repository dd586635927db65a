/* keps hierarchy build: a builder's hierarchy (keps_hierarchy_build_text,
 * keps/hierarchy.h) written as an ARX hierarchy file, for reading and
 * editing before it is given to --qi NAME:FILE. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "command_internal.h"
#include "keps/hierarchy.h"

static const cmd_opt opt_qi = {"qi", 0, "NAME:BUILDER", 0,
                               "the column and the builder: interval=W1,W2,... (with bottom=B, top=T to code "
                               "the extremes), mask=C1,C2,... (characters replaced by '*' from the right), "
                               "order=R1,R2,... (runs of that many sorted values), date=UNIT,... (day, month, "
                               "quarter, year, decade, century), or bottom=B,top=T alone",
                               "zip:mask=1,2,3"};
static const cmd_opt opt_output = {"output", 'o', "FILE", 0,
                                   "the hierarchy file (ARX's layout: one row per value, one column per level, "
                                   "';'-separated, no header); '-' writes stdout",
                                   "zip_hierarchy.csv"};

static const cmd_opt *const opts[] = {&cmd_opt_input,     &opt_output,      &opt_qi, &cmd_opt_delimiter,
                                      &cmd_opt_missing,   &cmd_opt_decimal_comma, NULL};

/* "distinct values per level: 5, 3, 1" and the JSON of the same. */
static keps_status report(cmd_ctx *c, const keps_table *t, size_t col, const char *spec, const keps_hierarchy *h)
{
    keps_json j;
    int height = keps_hierarchy_height(h);
    cmd_report_begin(c, &j, "hierarchy build");
    keps_json_str(&j, "column", t->cols[col].name);
    keps_json_str(&j, "builder", spec);
    keps_json_int(&j, "levels", height + 1);
    keps_json_int(&j, "leaves", (long long)keps_hierarchy_leaves(h));
    keps_json_array(&j, "values_per_level");
    for (int l = 0; l <= height; l++)
        keps_json_int(&j, NULL, keps_hierarchy_size(h, l));
    keps_json_end(&j);
    cmd_report_total(c, &j);
    keps_json_end(&j);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (f) {
        fprintf(f, "hierarchy of '%s' (%s): %d levels, %zu values; distinct values per level:", t->cols[col].name,
                spec, height + 1, keps_hierarchy_leaves(h));
        for (int l = 0; l <= height; l++)
            fprintf(f, "%s %u", l ? "," : "", keps_hierarchy_size(h, l));
        fputc('\n', f);
        fclose(f);
    }
    keps_status rc = cmd_emit_report(c, &j, text);
    free(text);
    keps_json_free(&j);
    return rc;
}

static const cmd_opt opt_action = {"action", 0, "ACTION", KEPS_PARAM_POSITIONAL, "what to do: build", "build"};
static const cmd_opt *const pos_opts[] = {&opt_action, NULL};

static keps_status run(cmd_ctx *c)
{
    if (c->npos != 1 || strcmp(c->pos[0], "build") != 0)
        return cmd_usage_error(c, "%s%s%s: the action is 'build': keps hierarchy build {input} DATA.csv {qi} "
                                  "'NAME:BUILDER' {output} FILE",
                               c->npos ? "unknown action '" : "no action", c->npos ? c->pos[0] : "",
                               c->npos ? "'" : "");
    if (cmd_require(c, "qi") || cmd_require(c, "output"))
        return KEPS_EINPUT;
    const char *spec = cmd_str(c, "qi"), *rest;
    keps_table *t;
    keps_status rc = cmd_load_input(c, &t);
    if (rc)
        return rc;
    int col = keps_table_column_spec(t, spec, &rest);
    keps_error err = {0};
    keps_hierarchy *h = NULL;
    if (col < 0) {
        keps_table_no_column_spec(&err, t, spec);
        rc = cmd_fail(c, &err);
    } else if (!rest || !keps_hierarchy_is_spec(rest)) {
        rc = cmd_usage_error(c, "{qi} '%s': expected NAME:BUILDER, e.g. 'zip:mask=1,2,3' or 'age:interval=5,10,20' "
                                "(a hierarchy file needs no building)",
                             spec);
    } else if (t->nrows == 0) {
        rc = cmd_error(c, KEPS_EINPUT, "%s: no records after the header: no values to build a hierarchy of",
                       t->source);
    } else if (keps_hierarchy_build_text(t, (size_t)col, rest, &h, &err)) {
        rc = cmd_fail(c, &err);
    } else {
        char *text = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&text, &len);
        if (!f)
            rc = cmd_oom(c);
        else if (keps_hierarchy_write_to(h, f, cmd_str(c, "output"), ';', &err)) {
            fclose(f);
            rc = cmd_fail(c, &err);
        } else if (fclose(f) != 0)
            rc = cmd_oom(c);
        else
            rc = cmd_stage_text(c, "output", text, len);
        free(text);
        if (!rc)
            rc = report(c, t, (size_t)col, rest, h);
    }
    keps_hierarchy_free(h);
    keps_table_free(t);
    return rc;
}

const cmd_cmd cmd_hierarchy = {
    "hierarchy",
    "build a generalization hierarchy from the data and write it as an ARX hierarchy file",
    "hierarchy build {input} FILE {qi} NAME:BUILDER {output} FILE [options]",
    "Builds the hierarchy a {qi} NAME:BUILDER spec would build on the fly (docs/spec.md, section 1, 'Hierarchy "
    "builders'), from the column's own values, and writes it in ARX's layout for reading and editing; give the "
    "edited file back as {qi} NAME:FILE. Builders, modelled on ARX's: interval=5,10,20 ([20-25[, [20-30[, "
    "[20-40[; each width a multiple of the one before, so that intervals nest; bottom=18 and top=90 add ARX's "
    "bottom and top coding, <18 and >=90); mask=1,2,3 (01097, 0109*, 010**, 01***; values padded on the right "
    "with '*' to the longest first, as ARX does); order=2,4 (runs of 2 and 4 consecutive values, labelled "
    "[first, last]; numbers sorted by value when the column is numeric, else strings by their bytes); "
    "date=month,year,decade for ISO 8601 dates YYYY-MM-DD with an optional time (2020-03, 2020, [2020, 2030[; "
    "also day, quarter, century); bottom=B,top=T alone code the extremes and keep the rest. Every hierarchy ends "
    "at '*'; the missing value stays itself below it. Rows are sorted as the builder orders the values.",
    "hierarchy build {input} data/adult/adult.csv {qi} age:interval=5,10,20,top=80 {output} age_hierarchy.csv",
    opts,
    run,
    1,
    pos_opts,
};
