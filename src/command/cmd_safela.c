/* keps safela: epsilon-safe lattice anonymization (docs/spec.md, section 6), a thin layer over
 * keps_safela_run. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "command_internal.h"
#include "guarantee.h"
#include "keps/lattice_view.h"
#include "keps/safela.h"

static const cmd_opt opt_eps_prime = {"epsilon-prime", 0, "E1", CLI_NUMBER,
                                      "epsilon' of the exponential mechanism that picks the node (default 0.5)",
                                      "0.5"};
static const cmd_opt opt_penalty = {"penalty", 0, "F", CLI_NUMBER,
                                    "penalty factor f of the suppression share S in the utility -(G + f*S) "
                                    "(default 2: the thesis's 0.02 with S in percent; an f below 1/(q*h) makes "
                                    "suppressing every record the best node; below 1/k the node choice costs "
                                    "more than epsilon' and keps states the larger value)",
                                    "2"};
static const cmd_opt opt_interpolate = {"interpolate", 0, "none|level", 0,
                                        "level: count classes on even levels only; odd-level nodes get the mean "
                                        "utility of their neighbours (thesis 3.3, about half the work)",
                                        "level"};
static const cmd_opt opt_eps_total = {"epsilon", 0, "E", CLI_NUMBER,
                                      "the epsilon to claim (>= epsilon' - ln(1-beta), the default); a larger "
                                      "one gives a smaller delta",
                                      "2.0"};

/* Suppressed records are always removed (Li, Qardaji and Su's method):
 * the flag is accepted for older scripts and job files, its false value
 * (starred rows) is refused. */
static const cmd_opt opt_removed = {"remove-suppressed", 0, NULL, 0,
                                    "always on: suppressed records are left out, as Li, Qardaji and Su's method "
                                    "does (starred rows would show their data-dependent number, which the "
                                    "guarantee does not cover); accepted for older scripts, 'remove-suppressed: "
                                    "false' is refused",
                                    ""};

static const cmd_opt *const opts[] = {&cmd_opt_input, &cmd_opt_output, &cmd_opt_qi, &cmd_opt_k, &cmd_opt_beta,
                                      &opt_eps_prime, &opt_eps_total, &opt_penalty, &opt_interpolate, &cmd_opt_threads,
                                      &opt_removed, &cmd_opt_sensitive, &cmd_opt_insensitive,
                                      &cmd_opt_identifier, &cmd_opt_others, &cmd_opt_delimiter, &cmd_opt_missing, &cmd_opt_decimal_comma,
                                      &cmd_opt_report, &cmd_opt_seed, &cmd_opt_keep_order, NULL};

/* epsilon' and f must be positive and finite (keps_safela_run); the range
 * is the one `kepsilon` and `dpmicro` give epsilon, so that the range
 * checked is the range the error message states. */
#define POS_MIN 1e-300
#define POS_MAX 1e300

static keps_status read_params(cmd_ctx *c, keps_safela_params *p)
{
    long k;
    double beta;
    if (cmd_k(c, 1, 1, &k) < 0 || cmd_require(c, "beta") || cmd_probability(c, "beta", &beta) < 0 ||
        cmd_double(c, "epsilon-prime", POS_MIN, POS_MAX, 0.5, &p->epsilon_prime) < 0 ||
        cmd_double(c, "epsilon", 0.0, POS_MAX, NAN, &p->epsilon) < 0 ||
        cmd_double(c, "penalty", POS_MIN, POS_MAX, 2.0, &p->penalty) < 0)
        return KEPS_EINPUT;
    p->k = (size_t)k;
    p->nthreads = c->threads;
    p->beta = cmd_str(c, "beta");
    const char *ip = cmd_str(c, "interpolate");
    if (ip && strcmp(ip, "level") != 0 && strcmp(ip, "none") != 0)
        return cmd_usage_error(c, "{interpolate} '%s': expected level or none", ip);
    p->interpolate = ip && strcmp(ip, "level") == 0;
    if (cmd_str(c, "remove-suppressed") && !cmd_flag(c, "remove-suppressed"))
        return cmd_usage_error(c, "%ssafela cannot write suppressed rows starred: how many rows are suppressed "
                                  "depends on the data, and starred rows would show it (Li, Qardaji and Su's "
                                  "guarantee needs them removed). Drop 'remove-suppressed: false'; the report "
                                  "counts them (suppressed_rows)",
                               cmd_origin(c, "remove-suppressed"));
    return KEPS_OK;
}

void cmd_safela_json(keps_json *j, const keps_schema *s, const keps_safela_result *r, const keps_safela_params *p)
{
    keps_json_int(j, "sample_size", (long long)r->sample_size);
    keps_json_str(j, "report_note", "sample_size, the suppressed and unsampled counts, the mechanism's utilities and "
                                    "probabilities, good_node_probability and metrics come from the original "
                                    "values and are not covered by the guarantee: keep this report with the "
                                    "curator and publish the release only");
    keps_guarantee g;
    keps_safela_guarantee(p, r, &g);
    keps_guarantee_json(&g, j, "guarantee");
    keps_guarantee_free(&g);
    keps_json_object(j, "transformation");
    for (size_t i = 0; i < s->nqi; i++)
        keps_json_int(j, s->t->cols[s->qi[i].col].name, r->levels[i]);
    keps_json_end(j);
    keps_json_object(j, "mechanism");
    keps_json_num(j, "penalty", p->penalty);
    keps_json_num(j, "sensitivity", r->sensitivity);
    keps_json_str(j, "interpolate", p->interpolate ? "level" : "none");
    keps_json_int(j, "nodes", (long long)r->nnodes);
    keps_json_int(j, "nodes_evaluated", (long long)r->evaluated);
    keps_json_num(j, "chosen_probability", r->probability);
    keps_json_num(j, "chosen_utility", r->utility);
    keps_json_end(j);
    keps_json_num(j, "good_node_probability", r->good_node_probability);
    keps_error err = {0};
    if (keps_lattice_view_scores_json(j, "lattice", s, &r->scores, r->probabilities, r->levels, 0, &err))
        keps_json_null(j, "lattice"); /* only out of memory: the report goes without */
    double supp = (double)r->counts.suppressed_rows / (double)(r->sample_size ? r->sample_size : 1);
    keps_json_object(j, "metrics");
    keps_json_num(j, "good_node_probability", r->good_node_probability);
    keps_json_num(j, "generalization", r->gen);
    keps_json_num(j, "suppression", supp);
    /* ARX precision over the sample: mean over QIs of ((n-S) l/h + S)/n */
    keps_json_num(j, "prec", (1.0 - supp) * r->gen + supp);
    keps_json_num(j, "utility", r->utility);
    keps_json_end(j);
}

static void report(cmd_ctx *c, keps_json *j, const keps_schema *s, const keps_safela_result *r,
                   const keps_safela_params *p, double total_ms)
{
    cmd_report_begin(c, j, "safela");
    cmd_report_counts(j, &r->counts);
    cmd_safela_json(j, s, r, p);
    keps_json_object(j, "timing_ms");
    keps_json_num(j, "total", total_ms);
    keps_json_num(j, "sample", r->ms_sample);
    keps_json_num(j, "search", r->ms_scan);
    keps_json_num(j, "select", r->ms_select);
    keps_json_num(j, "release", r->ms_release);
    keps_json_end(j);
    keps_json_end(j);
}

/* Releasing no row with its values is a valid DP outcome but almost never
 * what was meant, and exit 0 alone would hide it: said even with --quiet. */
static void warn_nothing_released(const cmd_ctx *c, const keps_safela_result *r, size_t k)
{
    const keps_counts *n = &r->counts;
    if (n->input_rows - n->suppressed_rows - n->unsampled_rows > 0)
        return;
    if (k > r->sample_size)
        cmd_msg(c, KEPS_MSG_PRIVACY, "warning: k = %zu exceeds the sample size (%zu of %zu rows): every sampled row is "
                        "suppressed and no row is released with its values; lower {k} or raise {beta}", k, r->sample_size, n->input_rows);
    else
        cmd_msg(c, KEPS_MSG_PRIVACY, "warning: the chosen node leaves no class of at least k = %zu rows: every sampled "
                        "row is suppressed and no row is released with its values", k);
}

static keps_status run(cmd_ctx *c)
{
    double t0 = cmd_now_ms();
    keps_safela_params p = {0};
    keps_status rc = read_params(c, &p);
    keps_table *t = NULL;
    keps_schema *s = NULL;
    keps_safela_result r = {0};
    keps_rng *rng = NULL;
    if (rc || (rc = cmd_load_records(c, &t)) || (rc = cmd_build_schema(c, t, &s)))
        goto out;
    if (!(rng = cmd_rng(c))) {
        rc = KEPS_EINPUT;
        goto out;
    }
    keps_error err = {0};
    if (keps_safela_run(s, &p, rng, &r, &err)) {
        rc = cmd_fail(c, &err);
        goto out;
    }
    if (r.epsilon_prime_effective > p.epsilon_prime) /* a privacy warning: printed even with --quiet */
        cmd_msg(c, KEPS_MSG_PRIVACY, "warning: {penalty} %g is below 1/k: the node choice costs epsilon' %.6g, not %g (the sample "
                "size moves with the data); the stated epsilon and delta use %.6g. A penalty of at least 1/k avoids "
                "this.", p.penalty, r.epsilon_prime_effective, p.epsilon_prime, r.epsilon_prime_effective);
    warn_nothing_released(c, &r, p.k);
    if ((rc = cmd_write_release(c, &r.release)))
        goto out;
    keps_json j;
    report(c, &j, s, &r, &p, cmd_now_ms() - t0);
    /* 512 for the fixed text, " NAME=L" per QI: names have no length limit,
     * and the guarantee line after them must not be cut off */
    size_t size = 512;
    for (size_t i = 0; i < s->nqi; i++)
        size += strlen(s->t->cols[s->qi[i].col].name) + 16;
    char *text = malloc(size);
    if (text) {
        size_t len = (size_t)snprintf(text, size, "node");
        for (size_t i = 0; i < s->nqi; i++)
            len += (size_t)snprintf(text + len, size - len, " %s=%d", s->t->cols[s->qi[i].col].name, r.levels[i]);
        snprintf(text + len, size - len,
                 "\n(beta=%g, epsilon=%.4g, delta=%.3g)-DPS over the whole release; %zu rows written\n"
                 "  for the curator only (from the original values): sample %zu of %zu rows, %zu suppressed and "
                 "removed; good-node probability %.3f\n",
                 r.beta, r.epsilon, r.delta.delta, r.counts.output_rows, r.sample_size, r.counts.input_rows,
                 r.counts.suppressed_rows, r.good_node_probability);
    }
    rc = cmd_emit_report(c, &j, text);
    free(text);
    keps_json_free(&j);
out:
    keps_safela_result_free(&r);
    keps_schema_free(s);
    keps_table_free(t);
    return rc;
}

const cmd_cmd cmd_safela = {
    "safela",
    "epsilon-safe lattice anonymization: sampling + exponential mechanism",
    "safela {input} FILE {output} FILE {qi} NAME:HIERARCHY ... {k} K {beta} B [{epsilon-prime} E1] [{penalty} F] [options]",
    "Samples each record with probability {beta}, scores every node of the full-domain generalization lattice "
    "over the sample with u = -(G + f*S) (G: mean generalization level l/h, S: share of sampled records in classes "
    "smaller than k, f: {penalty}), picks a node with the exponential mechanism (epsilon', sensitivity f*k/n), "
    "generalizes the sample to it and removes the records of classes smaller than k (Li, Qardaji and Su 2012). "
    "Classes are those of the whole released tuple: every column released besides the QIs ({sensitive}, "
    "{insensitive}, {others} keep) is part of the class key at level 0, never generalized, so a record unique on "
    "such a column is suppressed like any other (release only the columns you need: each one splits the classes). "
    "The release satisfies (beta, epsilon, delta)-differential privacy under sampling with epsilon = epsilon' - "
    "ln(1-beta) (or the larger {epsilon}) and delta = d(k, beta, epsilon - epsilon') (see keps privacy delta); the "
    "guarantee covers the whole release (every released row and column, the number of rows and their order) and "
    "assumes public hierarchies, k, beta, epsilon' and f, none read from the data (docs/spec.md, section 15, "
    "\"What must be public\"). The report gives the node, the guarantee, and, for the curator only (from the "
    "original values), the sample size, suppressed and unsampled counts and the probability that the mechanism "
    "picks a good node (S < 15% and G < 0.6).",
    "safela {input} data/adult/adult.csv {output} out.csv {qi} age:data/adult/adult_hierarchy_age.csv "
    "{qi} education:data/adult/adult_hierarchy_education.csv {insensitive} salary-class {others} drop {k} 75 "
    "{beta} 0.7 {epsilon-prime} 0.5 {penalty} 2 {report} report.json",
    opts,
    run,
    0,
    NULL,
};
