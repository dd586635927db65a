/* --metric and ARX's quality-model options (--gs-factor, --monotonic,
 * --aggregate, --weight), read the same way by every command whose OLA
 * search minimizes a metric (see cli.h; definitions in keps/metrics.h). */
#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "command_internal.h"

const cmd_opt cmd_opt_metric = {
    "metric", 'm', "prec|loss|dm|aecs|entropy|height", 0,
    "OLA: the information loss to minimize, as ARX 3.9.2 defines it (default loss): prec = precision, loss = "
    "ARX's Loss, dm = discernibility, aecs = average class size, entropy = non-uniform entropy, height = "
    "the generalization levels",
    "entropy"};
const cmd_opt cmd_opt_gs_factor = {
    "gs-factor", 0, "F", CLI_NUMBER,
    "OLA: weight of generalization against suppression in prec, loss, entropy and aecs, in [0, 1] (ARX's "
    "coding model): 0 favours suppression (a suppressed row costs no more than if it were released), 1 favours "
    "generalization (only suppression costs), 0.5 (default) weighs both equally",
    "0.3"};
const cmd_opt cmd_opt_monotonic = {
    "monotonic", 0, NULL, 0,
    "OLA: ARX's monotonic variant of prec, dm (DM*) or entropy, which ignores suppression (a suppressed "
    "record counts as if released at the node's levels); height is monotonic anyway, loss and aecs have none",
    ""};
const cmd_opt cmd_opt_aggregate = {
    "aggregate", 0, "geometric|arithmetic|sum|max|rank", 0,
    "OLA: how prec, loss, entropy and height combine their per-QI values: geometric mean (loss's default), "
    "arithmetic mean (prec's), sum (entropy's and height's), max, or rank (the per-QI values sorted "
    "largest first, compared in that order; the score is then that list)",
    "rank"};
const cmd_opt cmd_opt_weight = {
    "weight", 0, "NAME=W", CLI_REPEAT,
    "OLA: weight W >= 0 of quasi-identifier NAME in prec, loss, entropy and height, repeatable; unnamed QIs "
    "weigh 0.5 (ARX's default) and every weight is divided by the largest",
    "age=1\nsex=0.25"};

keps_status cmd_objective_read(cmd_ctx *c, cmd_objective *o)
{
    memset(o, 0, sizeof *o);
    o->cfg = keps_metric_config_default(KEPS_METRIC_LOSS);
    const char *m = cmd_str(c, "metric");
    if (m && keps_metric_parse(m, &o->cfg.metric))
        return cmd_usage_error(c, "{metric} '%s': expected prec, loss, dm, aecs, entropy or height", m);
    keps_metric mt = o->cfg.metric;
    const char *name = mt == KEPS_METRIC_DM ? "dm" : keps_metric_name(mt);
    int per_qi = mt != KEPS_METRIC_DM && mt != KEPS_METRIC_AECS;
    int gs = cmd_double(c, "gs-factor", 0, 1, 0.5, &o->cfg.gs_factor);
    if (gs < 0)
        return KEPS_EINPUT;
    if (gs && (mt == KEPS_METRIC_DM || mt == KEPS_METRIC_HEIGHT))
        return cmd_usage_error(c, "{gs-factor}: {metric} %s weighs no suppression (ARX offers the gs-factor for "
                                  "prec, loss, entropy and aecs)",
                               name);
    o->cfg.monotonic = cmd_flag(c, "monotonic") && mt != KEPS_METRIC_HEIGHT;
    if (o->cfg.monotonic && (mt == KEPS_METRIC_LOSS || mt == KEPS_METRIC_AECS))
        return cmd_usage_error(c, "{monotonic}: ARX has no monotonic %s (it has one for prec, dm and entropy)",
                               name);
    const char *a = cmd_str(c, "aggregate");
    if (a && keps_aggregate_parse(a, &o->cfg.aggregate))
        return cmd_usage_error(c, "{aggregate} '%s': expected geometric, arithmetic, sum, max or rank", a);
    char **w;
    size_t nw = cmd_list(c, "weight", &w);
    if ((a || nw) && !per_qi)
        return cmd_usage_error(c, "%s: {metric} %s is one number per transformation, not a value per "
                                  "quasi-identifier ({aggregate} and {weight} apply to prec, loss, entropy and "
                                  "height)",
                               CMD_SPELL(c, a ? "aggregate" : "weight"), name);
    return KEPS_OK;
}

/* QI index of a --weight NAME, or -1. */
static int qi_named(const keps_schema *s, const char *name, size_t len)
{
    for (size_t i = 0; i < s->nqi; i++) {
        const char *n = s->t->cols[s->qi[i].col].name;
        if (strlen(n) == len && strncmp(n, name, len) == 0)
            return (int)i;
    }
    return -1;
}

keps_status cmd_objective_weights(cmd_ctx *c, const keps_schema *s, cmd_objective *o)
{
    char **w;
    size_t nw = cmd_list(c, "weight", &w);
    if (!nw)
        return KEPS_OK;
    o->weights = malloc((s->nqi ? s->nqi : 1) * sizeof *o->weights);
    if (!o->weights) {
        return cmd_oom(c);
    }
    for (size_t i = 0; i < s->nqi; i++)
        o->weights[i] = 0.5;
    for (size_t j = 0; j < nw; j++) {
        const char *eq = strrchr(w[j], '='); /* the last '=': a name may hold one */
        if (!eq)
            return cmd_usage_error(c, "%s--weight '%s': expected NAME=W, e.g. {weight} age=1", cmd_origin(c, "weight"),
                                   w[j]);
        int i = qi_named(s, w[j], (size_t)(eq - w[j]));
        if (i < 0) {
            char *list = NULL;
            size_t len = 0;
            FILE *f = open_memstream(&list, &len);
            if (!f)
                return cmd_oom(c);
            for (size_t q = 0; q < s->nqi; q++)
                fprintf(f, "%s%s", q ? ", " : "", s->t->cols[s->qi[q].col].name);
            if (fclose(f) != 0)
                return cmd_oom(c);
            cmd_error(c, KEPS_EINPUT, "%s{weight} '%s': '%.*s' is not a {qi} column; the quasi-identifiers are: %s",
                      cmd_origin(c, "weight"), w[j], (int)(eq - w[j]), w[j], list);
            free(list);
            return KEPS_EINPUT;
        }
        char *end;
        double v = strtod(eq + 1, &end);
        if (end == eq + 1 || *end || !(v >= 0 && v <= DBL_MAX))
            return cmd_usage_error(c, "%s--weight '%s': the weight must be a number >= 0", cmd_origin(c, "weight"),
                                   w[j]);
        o->weights[i] = v;
    }
    o->cfg.weights = o->weights;
    return KEPS_OK;
}

void cmd_objective_free(cmd_objective *o)
{
    free(o->weights);
    o->weights = NULL;
    o->cfg.weights = NULL;
}

void cmd_objective_json(keps_json *j, const keps_schema *s, const cmd_objective *o, const double *score,
                        size_t score_len, const double *attributes)
{
    const keps_metric_config *cfg = &o->cfg;
    keps_aggregate agg = keps_metric_config_aggregate(cfg);
    keps_json_object(j, "objective");
    keps_json_str(j, "metric", keps_metric_name(cfg->metric));
    keps_json_num(j, "gs_factor", cfg->gs_factor);
    keps_json_bool(j, "monotonic", cfg->monotonic || cfg->metric == KEPS_METRIC_HEIGHT);
    if (agg == KEPS_AGGREGATE_DEFAULT) {
        keps_json_null(j, "aggregate");
        keps_json_null(j, "weights");
    } else {
        keps_json_str(j, "aggregate", keps_aggregate_name(agg));
        /* the weights as applied: divided by the largest (ARX) */
        double *w = malloc((s->nqi ? s->nqi : 1) * sizeof *w);
        keps_json_object(j, "weights");
        if (w) {
            keps_metric_config_weights(cfg, s->nqi, w);
            for (size_t i = 0; i < s->nqi; i++)
                keps_json_num(j, s->t->cols[s->qi[i].col].name, w[i]);
        }
        keps_json_end(j);
        free(w);
    }
    keps_json_end(j);
    if (agg == KEPS_AGGREGATE_RANK) {
        keps_json_array(j, "score");
        for (size_t i = 0; i < score_len; i++)
            keps_json_num(j, NULL, score[i]);
        keps_json_end(j);
    } else
        keps_json_num(j, "score", score[0]);
    if (attributes) {
        keps_json_object(j, "score_attributes");
        for (size_t i = 0; i < s->nqi; i++)
            keps_json_num(j, s->t->cols[s->qi[i].col].name, attributes[i]);
        keps_json_end(j);
    }
}

int cmd_objective_text(char *buf, size_t len, const cmd_objective *o, const double *score, size_t score_len)
{
    const keps_metric_config *cfg = &o->cfg;
    keps_aggregate agg = keps_metric_config_aggregate(cfg);
    size_t n = (size_t)snprintf(buf, len, "%s%s", cfg->monotonic ? "monotonic " : "",
                                keps_metric_name(cfg->metric));
    if (cfg->metric != KEPS_METRIC_DM && cfg->metric != KEPS_METRIC_HEIGHT && n < len)
        n += (size_t)snprintf(buf + n, len - n, ", gs-factor %g", cfg->gs_factor);
    if (agg != KEPS_AGGREGATE_DEFAULT && n < len)
        n += (size_t)snprintf(buf + n, len - n, ", %s%s", keps_aggregate_name(agg), cfg->weights ? ", weighted" : "");
    for (size_t i = 0; i < score_len && n < len; i++)
        n += (size_t)snprintf(buf + n, len - n, "%s%.6g", i ? ", " : agg == KEPS_AGGREGATE_RANK ? ": [" : ": ",
                              score[i]);
    if (agg == KEPS_AGGREGATE_RANK && n < len)
        n += (size_t)snprintf(buf + n, len - n, "]");
    return (int)n;
}
