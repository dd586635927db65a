/* keps anonymize --algorithm ola: optimal full-domain generalization with
 * suppression (library: keps/lattice.h, keps/ola.h, keps/metrics.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/stat.h>

#include "command_internal.h"
#include "keps/lattice_view.h"
#include "keps/outfile.h"
#include "keps/ola.h"
#include "keps/sql.h"

typedef struct ola_run {
    size_t k;
    double suppress;
    cli_objective obj;
    const char *sql_path;  /* --emit-sql, or NULL */
    keps_sql_dialect dialect;
    char *sql_table;
    double t_start, t_loaded, t_searched, t_written;
} ola_run;

/* The same file as an input or another output? */
static int same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    if (!a || !b || strcmp(a, "-") == 0 || strcmp(b, "-") == 0)
        return 0;
    return strcmp(a, b) == 0 ||
           (stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino);
}

/* --emit-sql, --sql-dialect, --sql-table; the table's default is the
 * input's file name without its extension. */
static int read_sql_params(cli_ctx *c, ola_run *p)
{
    const char *d = cli_str(c, "sql-dialect"), *tab = cli_str(c, "sql-table"), *in = cli_str(c, "input");
    p->sql_path = cli_str(c, "emit-sql");
    if (!p->sql_path) {
        if (d || tab)
            return cli_usage_error(c, "--%s is for {emit-sql} FILE; give that too", d ? "sql-dialect" : "sql-table");
        return 0;
    }
    if (!*p->sql_path)
        return cli_usage_error(c, "{emit-sql} '' names no file; give a file name, e.g. {emit-sql} release.sql");
    const char *outs[] = {in, cli_str(c, "output"), cli_str(c, "report"), cli_str(c, "html")};
    const char *names[] = {"-i", "-o", "--report", "--html"};
    for (int i = 0; i < 4; i++) /* outputs compared as they resolve: /dev/stdout is '-' (keps/outfile.h) */
        if (same_file(p->sql_path, outs[i]) || (i && outs[i] && keps_output_same(p->sql_path, outs[i])))
            return cli_usage_error(c, "{emit-sql} %s is also %s %s; give the script its own %s", p->sql_path,
                                   names[i], outs[i], strcmp(p->sql_path, "-") ? "file" : "place (one of them can use stdout)");
    if (d && keps_sql_dialect_parse(d, &p->dialect))
        return cli_usage_error(c, "{sql-dialect} '%s': expected ansi, postgresql or sqlite", d);
    if (!tab && (!in || strcmp(in, "-") == 0))
        return cli_usage_error(c, "{emit-sql} with the input on stdin needs {sql-table} NAME (the source table)");
    if (!tab) {
        const char *base = strrchr(in, '/');
        base = base ? base + 1 : in;
        const char *dot = strrchr(base, '.');
        size_t n = dot && dot != base ? (size_t)(dot - base) : strlen(base);
        p->sql_table = strndup(base, n);
    } else {
        p->sql_table = strdup(tab);
    }
    if (!p->sql_table)
        return cli_usage_error(c, "out of memory");
    if (!*p->sql_table)
        return cli_usage_error(c, "{sql-table} '' names no table; give the source table's name");
    return 0;
}

static int read_params(cli_ctx *c, ola_run *p)
{
    long k;
    if (cli_k(c, 1, 2, &k) < 0)
        return 2;
    p->k = (size_t)k;
    if (cli_double(c, "suppress", 0, 1, 0, &p->suppress) < 0)
        return 2;
    int rc = cli_objective_read(c, &p->obj);
    return rc ? rc : read_sql_params(c, p);
}

static void report(cli_ctx *c, keps_json *j, const keps_lattice *L, const ola_run *p, const keps_ola_result *r,
                   const keps_counts *n)
{
    const keps_schema *s = L->s;
    cli_report_begin(c, j, "ola");
    cli_report_counts(j, n);
    keps_json_object(j, "guarantee");
    keps_json_str(j, "model", "k-anonymity");
    keps_json_int(j, "k", (long long)p->k);
    keps_json_num(j, "suppression_limit", p->suppress);
    keps_json_int(j, "suppression_limit_rows", (long long)r->suppress_limit);
    keps_json_end(j);
    keps_json_object(j, "transformation");
    for (size_t i = 0; i < L->q; i++)
        keps_json_int(j, s->t->cols[s->qi[i].col].name, r->levels[i]);
    keps_json_end(j);
    keps_json_object(j, "heights");
    for (size_t i = 0; i < L->q; i++)
        keps_json_int(j, s->t->cols[s->qi[i].col].name, L->height[i]);
    keps_json_end(j);
    if (p->sql_path) {
        static const char *dn[] = {"ansi", "postgresql", "sqlite"};
        keps_json_object(j, "sql");
        keps_json_str(j, "file", p->sql_path);
        keps_json_str(j, "dialect", dn[p->dialect]);
        keps_json_str(j, "table", p->sql_table);
        keps_json_end(j);
    }
    keps_json_str(j, "metric", keps_metric_name(p->obj.cfg.metric));
    cli_objective_json(j, s, &p->obj, r->score, r->score_len, r->attributes);
    keps_json_object(j, "metrics");
    for (int m = 0; m < KEPS_METRIC_COUNT; m++)
        keps_json_num(j, keps_metric_name((keps_metric)m), r->metrics.v[m]);
    keps_json_end(j);
    keps_json_int(j, "classes", (long long)r->nclasses);
    keps_json_int(j, "nodes_total", (long long)r->nodes_total);
    keps_json_int(j, "nodes_evaluated", (long long)r->nodes_evaluated);
    keps_json_int(j, "k_minimal_nodes", (long long)r->nminimal);
    keps_lattice_view_params vp = {p->k, r->suppress_limit, &p->obj.cfg, r->levels, r->minimal, r->nminimal, 0};
    keps_error err = {0};
    if (keps_lattice_view_json(j, "lattice", L, &vp, &err)) /* only out of memory: the report goes without */
        keps_json_null(j, "lattice");
    keps_json_object(j, "timing_ms");
    keps_json_num(j, "total", p->t_written - p->t_start);
    keps_json_num(j, "load", p->t_loaded - p->t_start);
    keps_json_num(j, "search", p->t_searched - p->t_loaded);
    keps_json_num(j, "write", p->t_written - p->t_searched);
    keps_json_end(j);
    keps_json_end(j);
}

static int summary(cli_ctx *c, keps_json *j, const keps_lattice *L, const ola_run *p, const keps_ola_result *r,
                   const keps_counts *n)
{
    const keps_schema *s = L->s;
    /* 512 holds the fixed text; " NAME=L/H" needs the name's length plus
     * two ints (a QI name can be 255 characters: a flat 80 per QI overran),
     * a rank score a number per QI */
    size_t len = 512 + (size_t)cli_objective_text(NULL, 0, &p->obj, r->score, r->score_len) + 1, o = 0;
    for (size_t i = 0; i < L->q; i++)
        len += strlen(s->t->cols[s->qi[i].col].name) + 32;
    char *text = malloc(len);
    if (!text)
        return cli_emit_report(c, j, NULL);
    o += (size_t)snprintf(text + o, len - o, "ola: %zu-anonymous node", p->k);
    for (size_t i = 0; i < L->q; i++)
        o += (size_t)snprintf(text + o, len - o, " %s=%d/%d", s->t->cols[s->qi[i].col].name, r->levels[i],
                              L->height[i]);
    o += (size_t)snprintf(text + o, len - o, "\n  %zu of %zu rows suppressed (limit %zu)%s; %zu classes\n  ",
                          n->suppressed_rows, n->input_rows, r->suppress_limit, n->removed_rows ? ", removed" : "",
                          r->nclasses);
    o += (size_t)cli_objective_text(text + o, len - o, &p->obj, r->score, r->score_len);
    o += (size_t)snprintf(text + o, len - o,
                          "\n  (prec %.6g, loss %.6g, discernibility %.6g, aecs %.6g, entropy %.6g, height %.6g)\n"
                          "  %llu of %llu nodes evaluated, %zu k-minimal\n",
                          r->metrics.v[KEPS_METRIC_PREC], r->metrics.v[KEPS_METRIC_LOSS],
                          r->metrics.v[KEPS_METRIC_DM], r->metrics.v[KEPS_METRIC_AECS],
                          r->metrics.v[KEPS_METRIC_ENTROPY], r->metrics.v[KEPS_METRIC_HEIGHT],
                          (unsigned long long)r->nodes_evaluated, (unsigned long long)r->nodes_total, r->nminimal);
    int rc = cli_emit_report(c, j, text);
    free(text);
    return rc;
}

/* The transformation as a SQL script, staged with the release. */
static int emit_sql(cli_ctx *c, const keps_lattice *L, const ola_run *p, const keps_ola_result *r,
                    size_t suppressed)
{
    char comment[512];
    snprintf(comment, sizeof comment,
             "keps anonymize --algorithm ola: %zu-anonymity; on %s the node leaves %zu of %zu rows in classes "
             "below k (limit %zu).",
             p->k, L->s->t->source, suppressed, L->nrows, r->suppress_limit);
    keps_sql_options o = {p->dialect, p->sql_table, p->k, cli_flag(c, "remove-suppressed"), comment};
    char *sql = NULL;
    size_t len = 0;
    keps_error err = {0};
    if (keps_sql_lattice(L->s, r->levels, &o, &sql, &len, &err))
        return cli_fail(c, &err);
    int rc = cli_stage_text(c, "emit-sql", sql, len);
    free(sql);
    /* row order: a privacy warning, printed even with --quiet */
    if (!rc && p->dialect == KEPS_SQL_ANSI)
        cli_msg(c, KEPS_MSG_PRIVACY, "warning: the ansi {emit-sql} script cannot shuffle (ANSI SQL has no random "
                        "function): export %s_release in a random order, as row order can link rows to people "
                        "(postgresql and sqlite scripts insert the rows in random order)", p->sql_table);
    else if (!rc)
        cli_msg(c, KEPS_MSG_PRIVACY, "warning: the {emit-sql} script orders %s_release by the database's RANDOM(), "
                        "not by keps's cryptographic generator: its row order is shuffled, not unpredictably", p->sql_table);
    return rc;
}

static int search_and_write(cli_ctx *c, const keps_lattice *L, ola_run *p)
{
    keps_error err = {0};
    keps_ola_params prm = {p->k, p->suppress, p->obj.cfg.metric, c->threads == 1 ? 1 : 0};
    keps_ola_result r;
    if (cli_k_above_records(c, p->k, L->nrows))
        return 1;
    if (keps_ola_run_objective(L, &prm, &p->obj.cfg, &r, &err))
        return cli_fail(c, &err);
    cli_ola_debug(c, &r);
    if (!r.found) {
        int rc = cli_over_limit(c, "even the top node (every QI fully generalized)", p->k, r.suppress_limit,
                                r.top_suppressed, L->nrows);
        keps_ola_result_free(&r);
        return rc;
    }
    p->t_searched = cli_now_ms();
    keps_table *rel = NULL;
    keps_counts n;
    int rc = 0;
    if (keps_ola_apply(L, r.levels, p->k, cli_flag(c, "remove-suppressed"), &rel, &n, &err))
        rc = cli_fail(c, &err);
    if (!rc)
        rc = cli_write_release(c, &rel);
    keps_table_free(rel);
    if (!rc && p->sql_path)
        rc = emit_sql(c, L, p, &r, n.suppressed_rows);
    if (!rc) {
        p->t_written = cli_now_ms();
        keps_json j;
        report(c, &j, L, p, &r, &n);
        rc = summary(c, &j, L, p, &r, &n);
        keps_json_free(&j);
    }
    keps_ola_result_free(&r);
    return rc;
}

int cli_anonymize_ola(cli_ctx *c)
{
    ola_run p;
    memset(&p, 0, sizeof p);
    p.t_start = cli_now_ms();
    int rc = read_params(c, &p);
    if (rc) {
        free(p.sql_table);
        return rc;
    }
    keps_table *t = NULL;
    keps_schema *s = NULL;
    if ((rc = cli_load_records(c, &t))) {
        free(p.sql_table);
        return rc;
    }
    if ((rc = cli_build_schema(c, t, &s))) {
        keps_table_free(t);
        free(p.sql_table);
        return rc;
    }
    keps_lattice *L = NULL;
    keps_error err = {0};
    if (s->nqi == 0)
        rc = cli_usage_error(c, "ola needs at least one {qi} NAME:HIERARCHY.csv (or NAME:interval=W1,W2,...)");
    else
        rc = cli_objective_weights(c, s, &p.obj);
    if (!rc && keps_lattice_new(s, &L, &err))
        rc = cli_fail(c, &err);
    else if (!rc) {
        p.t_loaded = cli_now_ms();
        cli_note_lattice(c, L);
        rc = search_and_write(c, L, &p);
    }
    keps_lattice_free(L);
    keps_schema_free(s);
    keps_table_free(t);
    cli_objective_free(&p.obj);
    free(p.sql_table);
    return rc;
}
