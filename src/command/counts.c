/* --counts COL: the input is a frequency table (one row per distinct
 * tuple, COL its number of records; docs/cli.md, "Frequency tables").
 * anonymize --algorithm ola searches it weighted (keps_lattice_new_weighted_ex)
 * and writes the release's own frequency table; verify and risk read it
 * expanded, each row repeated COL times, which equals the expanded input
 * by construction. */
#include <stdlib.h>
#include <string.h>

#include "command_internal.h"

const cmd_opt cmd_opt_counts = {"counts", 0, "COL", 0,
                                "the input is a frequency table: one row per distinct tuple (as SQL's SELECT "
                                "qi..., sensitive..., COUNT(*) AS COL ... GROUP BY qi..., sensitive...), COL "
                                "holding its number of records (a whole number >= 1); results, counts and the "
                                "guarantee are those of the expanded records, and anonymize writes the "
                                "release's frequency table with COL",
                                "n"};

keps_status cmd_counts_column(cmd_ctx *c, const keps_table *t, int *col)
{
    const char *name = cmd_str(c, "counts");
    *col = -1;
    if (!name)
        return KEPS_OK;
    if ((*col = keps_table_column(t, name)) < 0) {
        keps_error err = {0};
        keps_table_no_column(&err, t, name);
        return cmd_usage_error(c, "{counts} '%s': %s", name, err.msg);
    }
    return KEPS_OK;
}

keps_status cmd_counts_read(cmd_ctx *c, const keps_table *t, uint32_t **weight, uint64_t *records)
{
    int col;
    *weight = NULL;
    *records = t->nrows;
    keps_status rc = cmd_counts_column(c, t, &col);
    if (rc || col < 0)
        return rc;
    keps_error err = {0};
    if (keps_table_counts(t, (size_t)col, weight, records, &err))
        return cmd_fail(c, &err);
    c->counts_rows = t->nrows;
    c->counts_records = (size_t)*records;
    /* the report's missing values count records too: a row of the table
     * with a missing cell stands for its weight of them */
    if (t == c->input) {
        free(c->counts_missing);
        if (!(c->counts_missing = calloc(t->ncols + 1, sizeof *c->counts_missing)))
            return cmd_oom(c);
        for (size_t j = 0; j < t->ncols; j++)
            for (size_t r = 0; t->cols[j].missing != KEPS_NONE && r < t->nrows; r++)
                c->counts_missing[j] += t->cols[j].codes[r] == t->cols[j].missing ? (*weight)[r] : 0;
    }
    if (!c->quiet)
        cmd_msg(c, KEPS_MSG_NOTE, "note: {counts} %s: %zu rows read stand for %zu records; counts are of records",
                cmd_str(c, "counts"), c->counts_rows, c->counts_records);
    return KEPS_OK;
}

void cmd_counts_json(const cmd_ctx *c, keps_json *j)
{
    keps_json_object(j, "frequency_table");
    keps_json_str(j, "column", cmd_str(c, "counts"));
    keps_json_int(j, "rows_read", (long long)c->counts_rows);
    keps_json_int(j, "records", (long long)c->counts_records);
    keps_json_end(j);
}

keps_status cmd_counts_expand(cmd_ctx *c, keps_table **t)
{
    size_t rows0 = c->counts_rows, records0 = c->counts_records; /* the first table's (risk reads two) */
    uint32_t *w;
    uint64_t records;
    keps_status rc = cmd_counts_read(c, *t, &w, &records);
    if (rc || !w)
        return rc;
    size_t *rows = malloc((records ? records : 1) * sizeof *rows), k = 0;
    if (!rows) {
        free(w);
        return cmd_oom(c);
    }
    for (size_t r = 0; r < (*t)->nrows; r++)
        for (uint32_t x = 0; x < w[r]; x++)
            rows[k++] = r;
    free(w);
    keps_error err = {0};
    keps_table *e = keps_table_rows(*t, rows, k, &err);
    free(rows);
    if (!e)
        return cmd_fail(c, &err);
    e->decimal_comma = (*t)->decimal_comma;
    if (c->input == *t)
        c->input = e;
    if (rows0) {
        c->counts_rows = rows0;
        c->counts_records = records0;
    }
    keps_table_free(*t);
    *t = e;
    return KEPS_OK;
}

keps_status cmd_counts_group(cmd_ctx *c, keps_table **release)
{
    const char *name = cmd_str(c, "counts");
    int col = name ? keps_table_column(*release, name) : -1;
    if (col < 0)
        return KEPS_OK;
    keps_error err = {0};
    keps_table *g = NULL;
    if (keps_table_group_counts(*release, (size_t)col, &g, &err))
        return cmd_fail(c, &err);
    keps_table_free(*release);
    *release = g;
    return KEPS_OK;
}

keps_status cmd_counts_role(const cmd_ctx *c, keps_schema *s, keps_error *err)
{
    const char *name = cmd_str(c, "counts");
    int col = name ? keps_table_column(s->t, name) : -1;
    if (col < 0) /* cmd_counts_column names the missing column */
        return KEPS_OK;
    if (s->role[col] != KEPS_ROLE_NONE && s->role[col] != KEPS_ROLE_INSENSITIVE)
        return keps_error_set(err, KEPS_EINPUT,
                              "the counts column '%s' is also given as %s: it holds numbers of records, not an "
                              "attribute; give it no other role",
                              name, keps_role_name(s->role[col]));
    return s->role[col] ? KEPS_OK : keps_schema_set_role(s, name, KEPS_ROLE_INSENSITIVE, err);
}
