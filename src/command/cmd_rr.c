/* keps rr: randomized response on nominal sensitive column(s) of a
 * k-anonymous table (Ekenstedt et al. 2022; docs/spec.md, section 7). The records are partitioned into
 * classes by their --qi values as given (the input is already generalized);
 * the mechanism is applied per record; the report puts the closed-form
 * levels next to the levels verified exactly on this data. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "command_internal.h"
#include "guarantee.h"
#include "keps/csv.h"
#include "keps/mondrian.h"
#include "ksrc.h"
#include "keps/rr.h"

static const cmd_opt opt_mechanism = {"mechanism", 'm', "ldp|tclose|both", 0,
                                      "ldp: keep with p, else uniform over the categories (epsilon-LDP, Fig. 4); "
                                      "tclose: keep with p_t, else a value drawn from the data's distribution "
                                      "(multiplicative t-closeness, Fig. 5); both: tclose then ldp (mechanism 2)",
                                      "ldp"};
static const cmd_opt opt_p = {"p", 'p', "P", CLI_NUMBER, "keep probability of the RR-LDP stage (or choose it by {epsilon})",
                              "0.6"};
static const cmd_opt opt_pt = {"pt", 0, "P", CLI_NUMBER, "keep probability of the RR-t stage (or choose it by {t})",
                               "0.5"};
static const cmd_opt opt_t = {"t", 0, "T", CLI_NUMBER,
                              "target multiplicative t (>= 1): picks the largest p_t (tclose, both) or, for ldp, "
                              "the largest p whose epsilon implies t for classes of the input's smallest size "
                              "(Lemma 1); with {epsilon} too, ldp meets both; not with {p}, which fixes p",
                              "2"};
static const cmd_opt opt_eps = {"epsilon", 0, "E", CLI_NUMBER, "target epsilon-LDP: picks the largest p of the RR-LDP stage",
                                "1.0"};
static const cmd_opt opt_dp_k = {"dp-k", 0, "K", CLI_NUMBER,
                                 "group size of the (k,epsilon)-DP level reported (records removed; default 1)",
                                 "5"};
static const cmd_opt opt_k = {"k", 'k', "K", CLI_NUMBER,
                              "check that the input is K-anonymous on the {qi} columns (exit 1 if not)", "5"};

static const cmd_opt opt_partition = {"partition", 0, "given|mondrian|ola", 0,
                                      "given (default): the classes are the input's {qi} values as they stand (a "
                                      "k-anonymous input); mondrian: partition with Mondrian at {k} first; ola: "
                                      "OLA's optimal full-domain generalization at {k} without suppression (the "
                                      "{qi} need hierarchies); both release the generalized QIs",
                                      "mondrian"};

static const cmd_opt opt_domain = {
    "domain", 0, "COL=V1,V2,...|COL=@FILE", CLI_REPEAT,
    "the public domain of a {sensitive} column: the categories randomized response draws from, and with them p "
    "and epsilon (without it they are read from the data, and the report says so: a value that occurs once shows "
    "up in releases of its data set and never in those of its neighbour). The list is one CSV record with ',' "
    "(quote a value holding a comma, a quote or outer blanks, as in a CSV file: 'COL=\"a,b\",c'); @FILE holds one "
    "value per line, read like the input (its delimiter and quoting; a blank line is the empty value). A cell "
    "outside the domain is bad input naming its file, line and column",
    "salary-class=<=50K,>50K"};

static const cmd_opt *const opts[] = {&opt_mechanism, &cmd_opt_input, &cmd_opt_output, &cmd_opt_sensitive,
                                      &opt_domain, &cmd_opt_qi, &opt_partition, &opt_p, &opt_pt, &opt_eps, &opt_t,
                                      &opt_k, &opt_dp_k,
                                      &cmd_opt_insensitive, &cmd_opt_identifier, &cmd_opt_others,
                                      &cmd_opt_delimiter, &cmd_opt_missing, &cmd_opt_decimal_comma, &cmd_opt_report, &cmd_opt_seed,
                                      &cmd_opt_keep_order, NULL};

/* Everything one run works on. */
typedef struct rr_run {
    keps_table *t;
    keps_schema *s;
    size_t N, n, nsens, nclasses, k, k_dp;
    uint32_t *nvalues; /* [nsens] */
    uint32_t *value;   /* [N] joint category of each record */
    uint32_t *out;     /* [N] released category */
    const uint32_t *cls; /* [N] class of each record: classes' class_of */
    keps_partition part; /* the classes with --partition given or mondrian */
    double *freq;      /* [n] */
    keps_rr_params par;
    keps_rr_matrix M;
    keps_mondrian_result mond; /* with --partition mondrian */
    int use_mondrian;
    ksrc ola;                  /* with --partition ola */
    int use_ola;
    uint8_t *public_domain;    /* [ncols] 1: the column's domain came from --domain */
    keps_rr_levels cl;         /* the closed-form levels the parameters promise */
    keps_guarantee g;          /* what the run guarantees (keps_rr_guarantee) */
} rr_run;

static void rr_run_free(rr_run *r)
{
    keps_rr_matrix_free(&r->M);
    if (r->use_mondrian)
        keps_mondrian_result_free(&r->mond);
    if (r->use_ola && r->ola.free)
        r->ola.free(&r->ola);
    free(r->nvalues);
    free(r->value);
    free(r->out);
    keps_partition_free(&r->part);
    free(r->freq);
    free(r->public_domain);
    keps_guarantee_free(&r->g);
    keps_schema_free(r->s);
    keps_table_free(r->t);
}

/* The values of one --domain: the CSV record after '=' or the lines of
 * @FILE, read by the CSV reader like any input (no header). */
static keps_status domain_values(const char *spec, const char *rest, const char *flag, char delim, keps_table **vt,
                                 int *usage, keps_error *err)
{
    keps_csv_options o = {0};
    o.no_header = 1;
    if (rest[0] == '@') {
        o.delimiter = delim ? delim : ',';
        if (keps_csv_read(rest + 1, &o, vt, err))
            return err->code;
        if ((*vt)->ncols != 1)
            return *usage = 1, keps_error_set(err, KEPS_EINPUT, "%s %s: %s has %zu fields per line; it holds one "
                                                                "value per line (quote a value that holds '%c')",
                                               flag, spec, rest + 1, (*vt)->ncols, o.delimiter);
        return KEPS_OK;
    }
    o.delimiter = ',';
    if (!rest[0])
        return *usage = 1, keps_error_set(err, KEPS_EINPUT, "%s '%s': no value after '='; give COL=V1,V2,... or "
                                                            "COL=@FILE",
                                           flag, spec);
    return keps_csv_read_buffer(rest, strlen(rest), flag, &o, vt, err);
}

keps_status cmd_rr_domain_parse(const keps_schema *s, const char *spec, const char *flag, const char *sens_flag,
                                const uint8_t *given, cmd_rr_domain *d, keps_error *err)
{
    const keps_table *t = s->t;
    memset(d, 0, sizeof *d);
    d->col = -1;
    /* COL is the shortest text before an '=' that names a sensitive column
     * (names and values may hold '=': 'salary=<=50K,>50K') */
    for (const char *p = strchr(spec, '='); p && d->col < 0; p = strchr(p + 1, '='))
        for (size_t a = 0; a < s->nsensitive && d->col < 0; a++) {
            const char *name = t->cols[s->sensitive[a]].name;
            if (strlen(name) == (size_t)(p - spec) && strncmp(name, spec, (size_t)(p - spec)) == 0)
                d->col = (int)s->sensitive[a];
        }
    if (d->col < 0)
        return d->usage = 1, keps_error_set(err, KEPS_EINPUT, "%s '%s': expected COL=V1,V2,... or COL=@FILE with COL "
                                                              "one of the %s columns",
                                             flag, spec, sens_flag);
    const char *eq = spec + strlen(t->cols[d->col].name);
    if (given[d->col])
        return d->usage = 1, keps_error_set(err, KEPS_EINPUT, "%s: '%s' is given twice; give one list per column",
                                             flag, t->cols[d->col].name);
    keps_status st = domain_values(spec, eq + 1, flag, t->delimiter, &d->vt, &d->usage, err);
    if (!st && !(d->values = malloc((d->vt->nrows * d->vt->ncols + 1) * sizeof *d->values)))
        st = keps_error_set(err, KEPS_ENOMEM, "out of memory");
    for (size_t i = 0; !st && i < d->vt->nrows; i++)
        for (size_t j = 0; j < d->vt->ncols; j++)
            d->values[d->n++] = keps_table_str(d->vt, j, i);
    snprintf(d->buf, sizeof d->buf, "%s %.40s", flag, spec);
    d->source = eq[1] == '@' ? eq + 2 : d->buf;
    if (st)
        cmd_rr_domain_free(d);
    return st;
}

void cmd_rr_domain_free(cmd_rr_domain *d)
{
    free(d->values);
    keps_table_free(d->vt);
    d->values = NULL;
    d->vt = NULL;
}

/* --domain COL=...: the column's public domain (keps_rr_domain). */
static keps_status rr_domains(cmd_ctx *c, rr_run *r)
{
    char **v;
    size_t nd = cmd_list(c, "domain", &v);
    if (!(r->public_domain = calloc(r->t->ncols ? r->t->ncols : 1, 1)))
        return cmd_usage_error(c, "out of memory");
    for (size_t i = 0; i < nd; i++) {
        cmd_rr_domain d;
        keps_error err = {0};
        keps_status rc = cmd_rr_domain_parse(r->s, v[i], CMD_SPELL(c, "domain"), CMD_SPELL(c, "sensitive"),
                                             r->public_domain, &d, &err);
        if (rc)
            return d.usage ? cmd_usage_error(c, "%s", err.msg) : cmd_fail(c, &err);
        rc = keps_rr_domain(r->t, (size_t)d.col, d.values, d.n, d.source, &err) ? cmd_fail(c, &err) : KEPS_OK;
        r->public_domain[d.col] = 1;
        cmd_rr_domain_free(&d);
        if (rc)
            return rc;
    }
    return KEPS_OK;
}

/* Joint values of the sensitive columns. */
static keps_status rr_prepare(cmd_ctx *c, rr_run *r)
{
    keps_schema *s = r->s;
    r->N = r->t->nrows;
    r->nsens = s->nsensitive;
    if (r->nsens == 0)
        return cmd_usage_error(c, "{sensitive} NAME is required: the nominal column to randomize (repeat it to "
                                  "randomize several columns as one joint value)");
    if (r->nsens > 64)
        return cmd_usage_error(c, "at most 64 {sensitive} columns can form one joint value");
    const uint32_t **sc = malloc(r->nsens * sizeof *sc);
    r->nvalues = malloc(r->nsens * sizeof *r->nvalues);
    r->value = malloc((r->N ? r->N : 1) * sizeof *r->value);
    r->out = malloc((r->N ? r->N : 1) * sizeof *r->out);
    keps_error err = {0};
    keps_status st = (sc && r->nvalues && r->value && r->out) ? KEPS_OK : KEPS_ENOMEM;
    for (size_t j = 0; j < r->nsens && !st; j++) {
        const keps_column *col = &r->t->cols[s->sensitive[j]];
        sc[j] = col->codes;
        r->nvalues[j] = col->nvalues;
    }
    if (!st)
        st = keps_rr_joint_codes(r->nsens, sc, r->nvalues, r->N, r->value, &r->n, &err);
    if (!st && !(r->freq = malloc(r->n * sizeof *r->freq)))
        st = KEPS_ENOMEM;
    free(sc);
    if (st == KEPS_ENOMEM && !err.msg[0])
        keps_error_set(&err, st, "out of memory");
    if (st)
        return cmd_fail(c, &err);
    keps_rr_frequencies(r->value, r->N, r->n, r->freq);
    return KEPS_OK;
}

/* Privacy warnings (printed even with --quiet) for a stage that keeps every
 * value, judged on the keep probability actually used, however it was
 * reached: -p 1, --pt 1, --epsilon inf or --t inf. */
static void warn_keep_all(const cmd_ctx *c, const rr_run *r, int ldp, int tcl)
{
    if (ldp && r->par.p >= 1)
        cmd_msg(c, KEPS_MSG_PRIVACY, "warning: the RR-LDP stage keeps every value (p = 1): no local privacy "
                        "(epsilon = infinity)");
    if (tcl && r->par.pt >= 1)
        cmd_msg(c, KEPS_MSG_PRIVACY, "warning: the RR-t stage keeps every value (p_t = 1)%s",
                ldp ? ": only the RR-LDP stage randomizes"
                    : ": nothing is randomized, no local privacy (epsilon = infinity)");
}

/* Keep probabilities from -p/--pt or from the targets --epsilon/--t:
 * keps_rr_choose_params holds the rules (which flags each mechanism takes,
 * the paper's mechanism 1 for ldp with --t); its refusals name the flags and
 * are usage errors here. The CLI parses the strings and warns. */
static keps_status rr_choose(cmd_ctx *c, rr_run *r)
{
    const char *m = cmd_str(c, "mechanism");
    keps_rr_kind kind;
    if (!m)
        return cmd_usage_error(c, "{mechanism} ldp|tclose|both is required");
    if (!strcmp(m, "ldp"))
        kind = KEPS_RR_LDP;
    else if (!strcmp(m, "tclose"))
        kind = KEPS_RR_TCLOSE;
    else if (!strcmp(m, "both"))
        kind = KEPS_RR_BOTH;
    else
        return cmd_usage_error(c, "{mechanism} '%s': expected ldp, tclose or both", m);
    keps_rr_targets tg;
    int hp = cmd_double(c, "p", 0.0, 1.0, NAN, &tg.p), hpt = cmd_double(c, "pt", 0.0, 1.0, NAN, &tg.pt);
    int he = cmd_double(c, "epsilon", 0.0, INFINITY, NAN, &tg.epsilon);
    int ht = cmd_double(c, "t", 1.0, INFINITY, NAN, &tg.t);
    if (hp < 0 || hpt < 0 || he < 0 || ht < 0)
        return KEPS_EINPUT;
    keps_error err = {0};
    if (keps_rr_choose_params(kind, &tg, r->freq, r->n, r->N, r->k, &r->par, &err))
        return err.code == KEPS_EINPUT ? cmd_usage_error(c, "%s", err.msg) : cmd_fail(c, &err);
    warn_keep_all(c, r, kind != KEPS_RR_TCLOSE, kind != KEPS_RR_LDP);
    return KEPS_OK;
}

/* The release (keps_rr_release): the randomized sensitive values, and the
 * generalized QIs when Mondrian or OLA partitioned. */
static keps_status rr_release(cmd_ctx *c, rr_run *r, size_t *changed)
{
    keps_error err = {0};
    keps_table *gen = NULL, *rel = NULL;
    *changed = 0;
    for (size_t i = 0; i < r->N; i++)
        *changed += r->out[i] != r->value[i];
    keps_status st = r->use_mondrian ? keps_mondrian_release(r->s, &r->mond, &gen, &err)
                     : r->use_ola    ? r->ola.generalize(&r->ola, &gen, &err)
                                     : KEPS_OK;
    if (!st)
        st = keps_rr_release(r->s, r->out, gen, &rel, &err);
    keps_status rc = st ? cmd_fail(c, &err) : cmd_write_release(c, &rel);
    keps_table_free(gen);
    keps_table_free(rel);
    return rc;
}

/* --partition mondrian|ola: classes from Mondrian or OLA at -k on the --qi
 * columns (OLA without suppression, so that every class has >= k records). */
static keps_status rr_partition(cmd_ctx *c, rr_run *r, long k)
{
    const char *part = cmd_str(c, "partition");
    if (!part || !strcmp(part, "given")) {
        cmd_note_unused_hierarchies(c, r->s, "with {partition} given the classes are the {qi} values as they "
                                             "stand ({partition} ola generalizes them with it)");
        return KEPS_OK;
    }
    if (strcmp(part, "mondrian") && strcmp(part, "ola"))
        return cmd_usage_error(c, "{partition} '%s': expected given, mondrian or ola", part);
    if (!k)
        return cmd_usage_error(c, "{partition} %s needs {k} K", part);
    if (!strcmp(part, "ola")) {
        keps_status rc = ksrc_ola(c, r->s, (size_t)k, &r->ola);
        r->use_ola = r->ola.free != NULL; /* so that rr_run_free releases it */
        return rc;
    }
    keps_error err = {0};
    if (keps_mondrian(r->s, r->t, (size_t)k, &r->mond, &err))
        return cmd_fail(c, &err);
    r->use_mondrian = 1;
    return KEPS_OK;
}

/* The classes: OLA's (it ran without suppression: a suppressed record is
 * refused), Mondrian's or the --qi values as they stand (one class without
 * {qi}); r->k the smallest. */
static keps_status rr_classes(cmd_ctx *c, rr_run *r)
{
    keps_error err = {0};
    keps_status st = KEPS_OK;
    const keps_partition *p = r->use_ola ? &r->ola.part : &r->part;
    if (r->use_mondrian) {
        st = keps_partition_from_mondrian(r->t, &r->mond, NULL, &r->part, &err);
    } else if (!r->use_ola) {
        size_t q = r->s->nqi, *cols = malloc((q + 1) * sizeof *cols);
        uint32_t *one = q ? NULL : calloc(r->N + 1, sizeof *one);
        if (!cols || (!q && !one))
            st = keps_error_set(&err, KEPS_ENOMEM, "out of memory");
        for (size_t a = 0; a < q && !st; a++)
            cols[a] = r->s->qi[a].col;
        if (!st)
            st = q ? keps_partition_from_columns(r->t, cols, q, NULL, NULL, &r->part, &err)
                   : keps_partition_from_classes(r->t, one, r->N > 0, NULL, &r->part, &err);
        free(cols);
        free(one);
    } else if (p->suppressed_rows) {
        return cmd_usage_error(c, "{partition} ola: a record was suppressed; use {partition} given on an "
                                  "anonymized input instead");
    }
    if (st)
        return cmd_fail(c, &err);
    r->cls = p->class_of;
    r->nclasses = p->nclasses;
    r->k = p->nclasses ? r->N : 0;
    for (size_t x = 0; x < p->nclasses; x++)
        if (p->count[x] < r->k)
            r->k = p->count[x];
    return KEPS_OK;
}

static void json_levels(keps_json *j, const char *key, const keps_rr_levels *l, const cmd_rr_facts *r)
{
    keps_json_object(j, key);
    keps_json_num(j, "epsilon_ldp", l->epsilon_ldp);
    keps_json_num(j, "multiplicative_t", l->mult_t);
    keps_json_object(j, "kt_closeness");
    keps_json_int(j, "k", (long long)(r->k < r->N ? r->k : r->N - 1));
    keps_json_num(j, "t", l->kt);
    keps_json_end(j);
    keps_json_object(j, "k_epsilon_dp");
    keps_json_int(j, "k", (long long)r->k_dp);
    keps_json_num(j, "epsilon", l->kdp);
    keps_json_str(j, "meaning", "Ekenstedt et al.'s Def. 8: how much removing k records moves the distribution of "
                                "one released value drawn at random from the whole release; not epsilon-DP of the "
                                "release (epsilon_ldp bounds each record's own value)");
    keps_json_end(j);
    keps_json_end(j);
}

/* The run's guarantee, from the closed-form levels and what was read from
 * the data (docs/spec.md, "What must be public"): the domain, RR-t's
 * distribution, a keep probability chosen from class sizes or the
 * distribution. Said on stderr. */
static keps_status rr_guarantee(cmd_ctx *c, rr_run *r)
{
    keps_rr_closed_levels(&r->par, &r->M, r->freq, r->N, r->k, r->k_dp, &r->cl);
    keps_rr_choice ch = {r->public_domain, cmd_str(c, "t") != NULL, cmd_str(c, "p") != NULL, r->k, r->N};
    keps_rr_guarantee(&r->par, &r->cl, &ch, r->s, &r->g);
    keps_status rc = cmd_guarantee_spell(c, &r->g);
    if (rc)
        return rc;
    cmd_dd_warn(c, &r->g);
    cmd_uncovered_warn(c, &r->g, "only each record's {sensitive} value(s)");
    return KEPS_OK;
}

/* rr_run's figures for the report functions shared with keps-mpi. */
static cmd_rr_facts facts_of(const cmd_ctx *c, const rr_run *r)
{
    cmd_rr_facts f = {r->t, r->s, r->par, r->N, r->n, r->nclasses, r->k, r->k_dp, &r->g,
                      cmd_str(c, "mechanism"), r->use_mondrian ? "mondrian" : r->use_ola ? "ola" : "given"};
    return f;
}

void cmd_rr_json(keps_json *j, const cmd_rr_facts *r, const keps_rr_levels *cl, const keps_rr_levels *ver, double u,
                 size_t changed)
{
    keps_json_int(j, "changed_rows", (long long)changed);
    keps_json_str(j, "report_note", "changed_rows, kept_fraction, classes, the verified levels and the utility are "
                                     "read from the original values and are not covered by the guarantee: keep this "
                                     "report with the curator and publish the release only");
    keps_json_str(j, "mechanism", r->mechanism);
    keps_json_int(j, "categories", (long long)r->n);
    keps_json_str(j, "partition", r->partition);
    keps_json_int(j, "classes", (long long)r->nclasses);
    keps_json_int(j, "smallest_class", (long long)r->k);
    if (r->par.kind != KEPS_RR_TCLOSE)
        keps_json_num(j, "p", r->par.p);
    if (r->par.kind != KEPS_RR_LDP)
        keps_json_num(j, "pt", r->par.pt);
    keps_guarantee_json(r->g, j, "guarantee");
    json_levels(j, "closed_form", cl, r);
    json_levels(j, "verified", ver, r);
    keps_json_object(j, "metrics");
    keps_json_num(j, "utility_binary_gain", u);
    keps_json_num(j, "kept_fraction", r->N ? 1.0 - (double)changed / (double)r->N : 1.0);
    keps_json_end(j);
}

static keps_status rr_report(cmd_ctx *c, rr_run *r, size_t changed, double t0, double t_mech)
{
    double t_ver = cmd_now_ms();
    keps_rr_levels ver;
    keps_rr_verified_levels(&r->M, r->value, r->cls, r->N, r->nclasses, r->k, r->k_dp, &ver);
    double u = keps_rr_utility(&r->M, r->freq);
    double t_end = cmd_now_ms();
    keps_json j;
    cmd_report_begin(c, &j, "rr");
    keps_counts n = {.input_rows = r->N, .output_rows = r->N};
    cmd_report_counts(&j, &n);
    cmd_rr_facts f = facts_of(c, r);
    cmd_rr_json(&j, &f, &r->cl, &ver, u, changed);
    if (r->use_ola)
        r->ola.json(&r->ola, &j);
    keps_json_object(&j, "timing_ms");
    keps_json_num(&j, "total", t_end - t0);
    keps_json_num(&j, "mechanism", t_mech);
    keps_json_num(&j, "verify", t_end - t_ver);
    keps_json_end(&j);
    keps_json_end(&j);
    char text[1400];
    snprintf(text, sizeof text,
             "rr %s: %zu records, %zu categories, %zu classes (smallest %zu)\n"
             "  guarantee: %s, epsilon %.4g, multiplicative t %.4g (each record's sensitive value%s)\n"
             "  for the curator only (from the original values): %zu values changed; verified on this data: "
             "epsilon-LDP %.4g, multiplicative t %.4g, (%zu,t) %.4g; (%zu,eps)-DP of Def. 8 (one value drawn "
             "from the release, not DP of the release) %.4g; utility (binary gain) %.4f\n",
             cmd_str(c, "mechanism"), r->N, r->n, r->nclasses, r->k, keps_guarantee_model(&r->g),
             keps_guarantee_value(&r->g, "epsilon"), r->cl.mult_t,
             r->g.ndd ? "; parameters read from the data, see data_dependent" : "",
             changed, ver.epsilon_ldp, ver.mult_t, r->k < r->N ? r->k : r->N - 1, ver.kt, r->k_dp, ver.kdp, u);
    keps_status rc = cmd_emit_report(c, &j, text);
    keps_json_free(&j);
    return rc;
}

static keps_status run(cmd_ctx *c)
{
    double t0 = cmd_now_ms();
    rr_run r = {0};
    long kreq, kdp;
    keps_status rc = KEPS_OK;
    if (cmd_long(c, "k", 1, __LONG_MAX__, 0, &kreq) < 0 || cmd_long(c, "dp-k", 1, __LONG_MAX__, 1, &kdp) < 0)
        return KEPS_EINPUT;
    if (!rc)
        rc = cmd_load_records(c, &r.t);
    if (!rc)
        rc = cmd_build_schema(c, r.t, &r.s);
    if (!rc)
        rc = rr_domains(c, &r);
    if (!rc)
        rc = rr_partition(c, &r, kreq);
    if (!rc)
        rc = rr_prepare(c, &r);
    if (!rc)
        rc = rr_classes(c, &r);
    if (!rc && r.N < 2)
        rc = cmd_usage_error(c, "the input has %zu record(s): randomized response needs at least 2", r.N);
    if (!rc && kreq && r.k < (size_t)kreq) {
        cmd_error(c, KEPS_EJOB, "the input is not %ld-anonymous on the {qi} columns: its smallest class has %zu "
                                "record(s); anonymize it first (keps anonymize) or lower {k}",
                  kreq, r.k);
        rc = KEPS_EJOB;
    }
    if (!rc && (size_t)kdp >= r.N)
        rc = cmd_usage_error(c, "{dp-k} %ld: must be below the number of records %zu", kdp, r.N);
    r.k_dp = (size_t)kdp;
    if (!rc)
        rc = rr_choose(c, &r);
    keps_error err = {0};
    if (!rc && keps_rr_matrix_for(&r.par, r.n, r.freq, &r.M, &err))
        rc = cmd_fail(c, &err);
    keps_rng *rng = rc ? NULL : cmd_rng(c);
    if (!rc && !rng)
        rc = KEPS_EINPUT;
    double t1 = cmd_now_ms();
    if (!rc) /* exact draws of the paper's mechanisms: the levels stated are those of what is sampled */
        if (keps_rr_apply(&r.par, r.n, r.value, r.N, rng, r.out, &err))
            rc = cmd_fail(c, &err);
    if (!rc)
        rc = rr_guarantee(c, &r);
    double t_mech = cmd_now_ms() - t1;
    size_t changed = 0;
    if (!rc)
        rc = rr_release(c, &r, &changed);
    if (!rc)
        rc = rr_report(c, &r, changed, t0, t_mech);
    rr_run_free(&r);
    return rc;
}

const cmd_cmd cmd_rr = {
    "rr",
    "randomized response on a nominal sensitive column (epsilon-LDP and t-closeness)",
    "rr {mechanism} ldp|tclose|both {input} FILE {output} FILE {sensitive} NAME {qi} NAME ({p} P | {epsilon} E | {t} T) "
    "[options]",
    "Randomizes a nominal sensitive column (several {sensitive} columns are randomized as one joint value) "
    "record by record, as Ekenstedt et al. 2022 (docs/spec.md, section 7). The input should be k-anonymous: its records are "
    "grouped into equivalence classes by their {qi} values as they stand (or, with {partition} mondrian|ola, "
    "by Mondrian or OLA at {k}, whose generalized QIs are released). ldp keeps each value with probability "
    "p and otherwise draws uniformly from the categories (epsilon = ln(1 + n p/(1-p))); tclose keeps with p_t "
    "and otherwise draws from the data's own distribution (multiplicative t by eq. (2)); both runs tclose then "
    "ldp. Keep probabilities come from {p}/{pt} or, as the largest that meet them, from {epsilon}/{t}. The "
    "report gives the guarantee, the closed-form levels, and the levels verified exactly on this data from the "
    "transition matrix: epsilon-LDP (Def. 6), multiplicative t over the classes (Def. 4), (k,t)-closeness at the "
    "smallest class size (Def. 7) and (k,epsilon)-DP (Def. 8: one released value drawn at random, not DP of the "
    "release), plus the utility U = sum_z max_y p(y,z). The mechanisms are drawn exactly (exact Bernoulli of p, "
    "uniform categories or records). The guarantee covers each record's {sensitive} value(s); the QIs and other "
    "released columns are not covered (guarantee.not_covered, and a warning). It assumes a public domain "
    "({domain}): without it the categories, and with them p, come from the data, and RR-t always draws from the "
    "data's own distribution; such parameters are listed in guarantee.data_dependent and the model says "
    "'(data-dependent)' (docs/spec.md, section 15, \"What must be public\").",
    "rr {mechanism} ldp {input} data/adult/adult.csv {output} out.csv {sensitive} salary-class "
    "{domain} 'salary-class=<=50K,>50K' {qi} sex {qi} race {epsilon} 1 {others} keep {report} rr.json",
    opts,
    run,
    0,
    NULL,
};
