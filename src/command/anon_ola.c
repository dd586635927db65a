/* keps anonymize --algorithm ola: the optimal full-domain generalization
 * under privacy criteria, with suppression, by the exact search
 * (keps/criteria.h, keps/search.h, keps/partition.h). With k-anonymity
 * alone and a report someone reads, OLA's k-minimal nodes (keps/ola.h)
 * give the report its lattice view. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/stat.h>

#include "command_internal.h"
#include "crit.h"
#include "guarantee.h"
#include "keps/lattice_view.h"
#include "keps/ola.h"
#include "keps/outfile.h"
#include "keps/partition.h"
#include "keps/search.h"
#include "keps/sql.h"

typedef struct ola_run {
    double suppress;
    cmd_objective obj;
    cmd_criteria cc;
    const char *sql_path;  /* --emit-sql, or NULL */
    keps_sql_dialect dialect;
    char *sql_table;
    const uint32_t *weight; /* --counts: each input row's records, else NULL */
    size_t rows_read, release_rows; /* --counts: the tables' rows (counts speak of records) */
    double t_start, t_loaded, t_searched, t_written;
} ola_run;

/* The chosen node and what the report says of the search. */
typedef struct ola_found {
    int kalone;                 /* k-anonymity is the only criterion */
    const int *levels;
    const double *score;
    size_t score_len;
    const double *attributes;
    keps_metric_values metrics;
    size_t nclasses, suppress_limit;
    uint64_t nodes_total, nodes_evaluated;
    const uint64_t *minimal;    /* OLA's k-minimal nodes (k alone, for the report), or NULL */
    size_t nminimal;
} ola_found;

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
static keps_status read_sql_params(cmd_ctx *c, ola_run *p)
{
    const char *d = cmd_str(c, "sql-dialect"), *tab = cmd_str(c, "sql-table"), *in = cmd_str(c, "input");
    p->sql_path = cmd_str(c, "emit-sql");
    if (!p->sql_path) {
        if (d || tab)
            return cmd_usage_error(c, "%s is for {emit-sql} FILE; give that too", CMD_SPELL(c, d ? "sql-dialect" : "sql-table"));
        return KEPS_OK;
    }
    if (!*p->sql_path)
        return cmd_usage_error(c, "{emit-sql} '' names no file; give a file name, e.g. {emit-sql} release.sql");
    const char *outs[] = {in, cmd_str(c, "output"), cmd_str(c, "report"), cmd_str(c, "html")};
    const char *names[] = {"input", "output", "report", "html"};
    for (int i = 0; i < 4; i++) /* outputs compared as they resolve: /dev/stdout is '-' (keps/outfile.h) */
        if (same_file(p->sql_path, outs[i]) || (i && outs[i] && keps_output_same(p->sql_path, outs[i])))
            return cmd_usage_error(c, "{emit-sql} %s is also %s %s; give the script its own %s", p->sql_path,
                                   CMD_SPELL(c, names[i]), outs[i], strcmp(p->sql_path, "-") ? "file" : "place (one of them can use stdout)");
    if (d && keps_sql_dialect_parse(d, &p->dialect))
        return cmd_usage_error(c, "{sql-dialect} '%s': expected ansi, postgresql or sqlite", d);
    if (!tab && (!in || strcmp(in, "-") == 0))
        return cmd_usage_error(c, "{emit-sql} with the input on stdin needs {sql-table} NAME (the source table)");
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
        return cmd_oom(c);
    if (!*p->sql_table)
        return cmd_usage_error(c, "{sql-table} '' names no table; give the source table's name");
    return KEPS_OK;
}

static keps_status read_params(cmd_ctx *c, ola_run *p)
{
    if (cmd_double(c, "suppress", 0, 1, 0, &p->suppress) < 0)
        return KEPS_EINPUT;
    keps_status rc = cmd_objective_read(c, &p->obj);
    return rc ? rc : read_sql_params(c, p);
}

static void report(cmd_ctx *c, keps_json *j, const keps_lattice *L, const ola_run *p, const ola_found *r,
                   const keps_counts *n)
{
    const keps_schema *s = L->s;
    cmd_report_begin(c, j, "ola");
    cmd_report_counts(j, n);
    if (p->weight) /* the counts above are records (frequency_table: the rows read) */
        keps_json_int(j, "release_table_rows", (long long)p->release_rows);
    keps_guarantee g;
    cmd_criteria_guarantee(&g, p->cc.k, &p->cc, s->t);
    keps_suppression_guarantee(&g, p->suppress, r->suppress_limit, p->cc.subset != NULL);
    cmd_guarantee_spell(c, &g); /* {subset} */
    keps_guarantee_json(&g, j, "guarantee");
    keps_guarantee_free(&g);
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
    cmd_objective_json(j, s, &p->obj, r->score, r->score_len, r->attributes);
    keps_json_object(j, "metrics");
    for (int m = 0; m < KEPS_METRIC_COUNT; m++)
        keps_json_num(j, keps_metric_name((keps_metric)m), r->metrics.v[m]);
    keps_json_end(j);
    keps_json_int(j, "classes", (long long)r->nclasses);
    keps_json_int(j, "nodes_total", (long long)r->nodes_total);
    keps_json_int(j, "nodes_evaluated", (long long)r->nodes_evaluated);
    if (r->minimal) {
        keps_json_int(j, "k_minimal_nodes", (long long)r->nminimal);
        keps_lattice_view_params vp = {(size_t)p->cc.k, r->suppress_limit, &p->obj.cfg, r->levels,
                                       r->minimal, r->nminimal, 0};
        keps_error err = {0};
        if (keps_lattice_view_json(j, "lattice", L, &vp, &err)) /* only out of memory: the report goes without */
            keps_json_null(j, "lattice");
    }
    keps_json_object(j, "timing_ms");
    keps_json_num(j, "total", p->t_written - p->t_start);
    keps_json_num(j, "load", p->t_loaded - p->t_start);
    keps_json_num(j, "search", p->t_searched - p->t_loaded);
    keps_json_num(j, "write", p->t_written - p->t_searched);
    keps_json_end(j);
    keps_json_end(j);
}

static keps_status summary(cmd_ctx *c, keps_json *j, const keps_lattice *L, const ola_run *p, const ola_found *r,
                   const keps_counts *n)
{
    const keps_schema *s = L->s;
    /* 1024 holds the fixed text; " NAME=L/H" needs the name's length plus
     * two ints; the criteria their own text, a rank score a number per QI */
    size_t len = 1024 + 2048 + (size_t)cmd_objective_text(NULL, 0, &p->obj, r->score, r->score_len), o = 0;
    for (size_t i = 0; i < L->q; i++)
        len += strlen(s->t->cols[s->qi[i].col].name) + 32;
    char *text = malloc(len), crit[2048];
    if (!text)
        return cmd_emit_report(c, j, NULL);
    cmd_criteria_text(crit, sizeof crit, &p->cc, s->t);
    if (r->kalone)
        o += (size_t)snprintf(text + o, len - o, "ola: %ld-anonymous node", p->cc.k);
    else
        o += (size_t)snprintf(text + o, len - o, "ola: node");
    for (size_t i = 0; i < L->q; i++)
        o += (size_t)snprintf(text + o, len - o, " %s=%d/%d", s->t->cols[s->qi[i].col].name, r->levels[i],
                              L->height[i]);
    o += (size_t)snprintf(text + o, len - o,
                          "%s%s\n  %zu of %zu %s suppressed (limit %zu)%s; %zu classes\n  ",
                          r->kalone ? "" : "\n  holds ", r->kalone ? "" : crit, n->suppressed_rows,
                          n->input_rows - n->unsampled_rows, p->weight ? "records" : "rows", r->suppress_limit,
                          n->removed_rows ? ", removed" : "", r->nclasses);
    o += (size_t)cmd_objective_text(text + o, len - o, &p->obj, r->score, r->score_len);
    o += (size_t)snprintf(text + o, len - o,
                          "\n  (prec %.6g, loss %.6g, discernibility %.6g, aecs %.6g, entropy %.6g, height %.6g)\n"
                          "  %llu of %llu nodes evaluated",
                          r->metrics.v[KEPS_METRIC_PREC], r->metrics.v[KEPS_METRIC_LOSS],
                          r->metrics.v[KEPS_METRIC_DM], r->metrics.v[KEPS_METRIC_AECS],
                          r->metrics.v[KEPS_METRIC_ENTROPY], r->metrics.v[KEPS_METRIC_HEIGHT],
                          (unsigned long long)r->nodes_evaluated, (unsigned long long)r->nodes_total);
    if (r->minimal)
        o += (size_t)snprintf(text + o, len - o, ", %zu k-minimal", r->nminimal);
    o += (size_t)snprintf(text + o, len - o, "\n");
    if (p->weight)
        o += (size_t)snprintf(text + o, len - o,
                              "  frequency table: %zu rows read for %zu records; the release has %zu rows "
                              "(%s summed per released tuple)\n",
                              p->rows_read, n->input_rows, p->release_rows, cmd_str(c, "counts"));
    if (n->unsampled_rows)
        snprintf(text + o, len - o, "  %zu input rows outside the research subset are not released\n",
                 n->unsampled_rows);
    keps_status rc = cmd_emit_report(c, j, text);
    free(text);
    return rc;
}

/* Nothing feasible: say why and what would work. */
static keps_status infeasible(cmd_ctx *c, const ola_run *p, const keps_lattice *L, const keps_search_result *r)
{
    if (p->cc.nc == 1 && p->cc.c[0].kind == KEPS_CRIT_K_ANONYMITY)
        return cmd_over_limit(c, "even the top node (every QI fully generalized)", (size_t)p->cc.k, r->suppress_limit,
                              r->top_suppressed, L->nreleased);
    char crit[2048];
    cmd_criteria_text(crit, sizeof crit, &p->cc, L->s->t);
    for (size_t i = 0; i < p->cc.nc; i++) {
        const keps_criterion *k = &p->cc.c[i];
        double level = k->kind == KEPS_CRIT_KT_CLOSENESS ? keps_criteria_kt_level(p->cc.crit, i) : 0;
        if (k->kind == KEPS_CRIT_KT_CLOSENESS && !keps_criterion_kt_holds(p->cc.crit, i)) {
            cmd_error(c, KEPS_EJOB,
                    "(k,t)-closeness of '%s' fails whatever the generalization: some %g released rows "
                    "reach t = %g > %g (it depends on the sensitive values only). Raise its T or lower its K.",
                    L->s->t->cols[p->cc.spec[k->sens].col].name, k->p[0], level, k->p[1]);
            return KEPS_EJOB;
        }
    }
    if (r->top_blocked) {
        cmd_error(c, KEPS_EJOB,
                "no node satisfies %s: even at the top node a class of the population has no released row "
                "and fails delta-presence, and such a class cannot be suppressed. Lower the delta-presence minimum "
                "or add {k} (ARX's rule: with a minimal class size those classes are left alone).",
                crit);
        return KEPS_EJOB;
    }
    cmd_error(c, KEPS_EJOB,
            "no node satisfies %s with at most %zu of %zu released rows suppressed; the top node (every "
            "QI fully generalized) needs %zu ({suppress} %.6f)%s. Raise {suppress}, relax the criteria or use "
            "fewer QIs.",
            crit, r->suppress_limit, L->nreleased, r->top_suppressed,
            L->nreleased ? ceil((double)r->top_suppressed / (double)L->nreleased * 1e6) / 1e6 : 0.0,
            keps_criteria_monotone(p->cc.crit, 1) ? "" : "; with these criteria a lower node may need fewer");
    return KEPS_EJOB;
}

/* The transformation as a SQL script, staged with the release. */
static keps_status emit_sql(cmd_ctx *c, const keps_lattice *L, const ola_run *p, const ola_found *r,
                    size_t suppressed)
{
    char comment[512];
    snprintf(comment, sizeof comment,
             "keps anonymize, algorithm ola: %zu-anonymity; on %s the node leaves %zu of %zu rows in classes "
             "below k (limit %zu).",
             (size_t)p->cc.k, L->s->t->source, suppressed, L->nrows, r->suppress_limit);
    keps_sql_options o = {p->dialect, p->sql_table, (size_t)p->cc.k, cmd_flag(c, "remove-suppressed"), comment};
    char *sql = NULL;
    size_t len = 0;
    keps_error err = {0};
    if (keps_sql_lattice(L->s, r->levels, &o, &sql, &len, &err))
        return cmd_fail(c, &err);
    keps_status rc = cmd_stage_text(c, "emit-sql", sql, len);
    free(sql);
    /* row order: a privacy warning, printed even with --quiet */
    if (!rc && p->dialect == KEPS_SQL_ANSI)
        cmd_msg(c, KEPS_MSG_PRIVACY, "warning: the ansi {emit-sql} script cannot shuffle (ANSI SQL has no random "
                        "function): export %s_release in a random order, as row order can link rows to people "
                        "(postgresql and sqlite scripts insert the rows in random order)", p->sql_table);
    else if (!rc)
        cmd_msg(c, KEPS_MSG_PRIVACY, "warning: the {emit-sql} script orders %s_release by the database's RANDOM(), "
                        "not by keps's cryptographic generator: its row order is shuffled, not unpredictably", p->sql_table);
    return rc;
}

/* Writes the release rel (owned here) with the SQL script, the report and
 * the summary. */
static keps_status finish(cmd_ctx *c, const keps_lattice *L, ola_run *p, const ola_found *f, keps_table *rel,
                  const keps_counts *n)
{
    keps_status rc = p->weight ? cmd_counts_group(c, &rel) : KEPS_OK;
    if (!rc) {
        p->release_rows = rel->nrows;
        rc = cmd_write_release(c, &rel);
    }
    keps_table_free(rel);
    if (!rc && p->sql_path)
        rc = emit_sql(c, L, p, f, n->suppressed_rows);
    if (!rc) {
        p->t_written = cmd_now_ms();
        keps_json j;
        report(c, &j, L, p, f, n);
        rc = summary(c, &j, L, p, f, n);
        keps_json_free(&j);
    }
    return rc;
}

/* k-anonymity alone with a report someone reads (--report, --html,
 * --json): OLA's k-minimal nodes, the frontier of the report's lattice
 * view. Only they are taken from OLA; the node is the search's (both are
 * optima of the same objective). */
static keps_status k_minimal(cmd_ctx *c, const keps_lattice *L, const ola_run *p, keps_ola_result *o)
{
    memset(o, 0, sizeof *o);
    if (!(p->cc.nc == 1 && p->cc.c[0].kind == KEPS_CRIT_K_ANONYMITY) ||
        !c->json) /* c->json: the host looks at the report */
        return KEPS_OK;
    keps_error err = {0};
    keps_ola_params prm = {(size_t)p->cc.k, p->suppress, p->obj.cfg.metric, c->threads};
    if (keps_ola_run_objective(L, &prm, &p->obj.cfg, o, &err))
        return cmd_fail(c, &err);
    cmd_ola_debug(c, o);
    return KEPS_OK;
}

/* The chosen node's partition under the criteria, with the classes they
 * suppress. */
static keps_status node_partition(const keps_lattice *L, const ola_run *p, const int *levels, keps_partition *part,
                                  keps_error *err)
{
    memset(part, 0, sizeof *part);
    keps_metrics *m = keps_metrics_new(L);
    if (!m)
        return keps_error_set(err, KEPS_ENOMEM, "out of memory");
    keps_status st = keps_partition_from_node(L, levels, p->cc.crit, part, err);
    if (!st && keps_criteria_has_sample_based(p->cc.crit))
        st = keps_partition_node_ties(part, L, levels, m, p->obj.cfg.metric, err);
    keps_metrics_free(m);
    if (!st)
        st = keps_partition_enforce(part, p->cc.crit, 0, NULL, err);
    if (st)
        keps_partition_free(part);
    return st;
}

static keps_status search_and_write(cmd_ctx *c, const keps_lattice *L, ola_run *p)
{
    if (p->cc.k && cmd_k_above_records(c, (size_t)p->cc.k, L->nreleased))
        return KEPS_EJOB;
    keps_error err = {0};
    keps_search_params prm = {p->cc.crit, p->suppress, p->obj.cfg.metric, &p->obj.cfg};
    keps_search_result r;
    if (keps_search_run(L, &prm, &r, &err))
        return cmd_fail(c, &err);
    cmd_search_debug(c, &r);
    if (!r.found) {
        keps_status rc = infeasible(c, p, L, &r);
        keps_search_result_free(&r);
        return rc;
    }
    p->t_searched = cmd_now_ms();
    keps_ola_result o;
    keps_status rc = k_minimal(c, L, p, &o);
    int kalone = p->cc.nc == 1 && p->cc.c[0].kind == KEPS_CRIT_K_ANONYMITY;
    ola_found f = {kalone, r.levels, r.score, r.score_len, r.attributes, r.metrics, r.nclasses, r.suppress_limit,
                   r.nodes_total, r.nodes_evaluated, o.found ? o.minimal : NULL, o.nminimal};
    keps_partition part;
    if (!rc && node_partition(L, p, r.levels, &part, &err))
        rc = cmd_fail(c, &err);
    else if (!rc) {
        keps_table *rel = NULL;
        keps_counts n;
        rc = keps_lattice_apply(L, r.levels, &part, cmd_flag(c, "remove-suppressed"), &rel, &n, &err)
                 ? cmd_fail(c, &err)
                 : finish(c, L, p, &f, rel, &n);
        keps_partition_free(&part);
    }
    keps_ola_result_free(&o);
    keps_search_result_free(&r);
    return rc;
}

/* The lattice with what the criteria read: the research subset and, per
 * sensitive column, each row's value. */
static keps_status build_lattice(cmd_ctx *c, const keps_schema *s, const cmd_criteria *cc, const uint32_t *weight,
                                 keps_lattice **L)
{
    keps_error err = {0};
    size_t ns = keps_criteria_need_histograms(cc->crit) ? cc->nsens : 0, n = s->t->nrows;
    uint32_t **codes = calloc(ns + 1, sizeof *codes);
    size_t *m = calloc(ns + 1, sizeof *m);
    keps_status rc = KEPS_OK;
    if (!codes || !m)
        rc = cmd_oom(c);
    for (size_t j = 0; j < ns && !rc; j++) {
        const uint32_t *tc = s->t->cols[cc->spec[j].col].codes;
        m[j] = keps_criteria_nvalues(cc->crit, j);
        if (!(codes[j] = malloc((n ? n : 1) * sizeof **codes)))
            rc = cmd_oom(c);
        for (size_t r = 0; r < n && !rc; r++)
            codes[j][r] = keps_criteria_value(cc->crit, j, tc[r]);
    }
    if (!rc && keps_lattice_new_weighted_ex(s, weight, cc->subset, (const uint32_t *const *)codes, m, ns, L, &err))
        rc = cmd_fail(c, &err);
    for (size_t j = 0; codes && j < ns; j++)
        free(codes[j]);
    free(codes);
    free(m);
    return rc;
}

/* --counts: the criteria count records (the table's sensitive
 * distributions are the expanded rows'); a research subset is matched row
 * by row against records the frequency table does not hold. */
static keps_status counts_criteria(cmd_ctx *c, keps_table *t, const uint32_t *weight, cmd_criteria *cc)
{
    keps_error err = {0};
    keps_criteria_free(cc->crit);
    cc->crit = NULL;
    if (keps_criteria_new_weighted(t, weight, cc->spec, cc->nsens, cc->c, cc->nc, cc->subset, &cc->crit, &err))
        return cmd_fail(c, &err);
    return KEPS_OK;
}

keps_status cmd_anonymize_ola(cmd_ctx *c)
{
    ola_run p;
    memset(&p, 0, sizeof p);
    p.t_start = cmd_now_ms();
    keps_status rc = read_params(c, &p);
    keps_table *t = NULL;
    keps_schema *s = NULL;
    if (!rc)
        rc = cmd_load_records(c, &t);
    if (!rc && (rc = cmd_build_schema(c, t, &s)))
        s = NULL;
    keps_lattice *L = NULL;
    if (!rc && s->nqi == 0)
        rc = cmd_usage_error(c, "ola needs at least one {qi} NAME:HIERARCHY.csv (or NAME:interval=W1,W2,...)");
    if (!rc)
        rc = cmd_objective_weights(c, s, &p.obj);
    uint32_t *weight = NULL;
    uint64_t records = 0;
    if (!rc)
        rc = cmd_counts_read(c, t, &weight, &records);
    if (!rc && weight && (cmd_str(c, "subset") || p.sql_path))
        rc = cmd_usage_error(c, "{counts} with %s: %s", cmd_str(c, "subset") ? "{subset}" : "{emit-sql}",
                             cmd_str(c, "subset")
                                 ? "a research subset is matched record by record, and a frequency table holds "
                                   "no records; run on the expanded rows"
                                 : "the script's suppression counts rows, not the counts column; run on the "
                                   "expanded table");
    if (weight) { /* the release's rows are grouped; its comparison with the input would count rows */
        p.weight = weight;
        p.rows_read = t->nrows;
        c->schema = NULL;
    }
    if (!rc)
        rc = cmd_criteria_read(c, t, 1, 0, &p.cc);
    if (!rc && weight)
        rc = counts_criteria(c, t, weight, &p.cc);
    if (!rc && p.sql_path && (p.cc.nc != 1 || p.cc.c[0].kind != KEPS_CRIT_K_ANONYMITY))
        rc = cmd_usage_error(c, "{emit-sql} writes k-anonymity's suppression (the classes below k) in SQL; the "
                                "classes other privacy criteria suppress cannot be written that way: drop "
                                "{emit-sql} or the other criteria");
    if (!rc && !(rc = build_lattice(c, s, &p.cc, weight, &L))) {
        p.t_loaded = cmd_now_ms();
        cmd_note_lattice(c, L);
        rc = search_and_write(c, L, &p);
    }
    keps_lattice_free(L);
    free(weight);
    cmd_criteria_free(&p.cc);
    cmd_objective_free(&p.obj);
    free(p.sql_table);
    keps_schema_free(s);
    keps_table_free(t);
    return rc;
}
