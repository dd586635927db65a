/* Shared parts of keps kepsilon and keps dpmicro (see kdp.h). */
#include "kdp.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

keps_status kdp_numeric(cmd_ctx *c, const keps_schema *s, keps_table *t, const size_t *cols, size_t m, int colmajor,
                double **x)
{
    size_t n = t->nrows;
    keps_error err = {0};
    *x = malloc((n * m > 0 ? n * m : 1) * sizeof **x);
    if (!*x) {
        return cmd_oom(c);
    }
    for (size_t j = 0; j < m; j++) {
        if (keps_schema_numeric(s, t, cols[j], "noise is added to numbers", &err)) {
            free(*x);
            *x = NULL;
            return cmd_fail(c, &err);
        }
        for (size_t i = 0; i < n; i++) {
            double v = keps_table_num(t, cols[j], i);
            if (isnan(v)) {
                keps_table_cell_error(&err, t, cols[j], i,
                                      "missing value; noise needs a number in every row (remove the row or "
                                      "impute first)");
                free(*x);
                *x = NULL;
                return cmd_fail(c, &err);
            }
            (*x)[colmajor ? j * n + i : i * m + j] = v;
        }
    }
    return KEPS_OK;
}

/* "LO:HI" of --bounds: decimal numbers within KEPS_NUM_MAX, as data cells
 * (a domain beyond it would overflow the noise scale and the sums), LO < HI. */
static keps_status parse_range(cmd_ctx *c, const char *arg, const char *text, double *lo, double *hi)
{
    const char *colon = strchr(text, ':');
    char a[128];
    if (!colon || (size_t)(colon - text) >= sizeof a)
        return cmd_usage_error(c, "{bounds} '%s': expected NAME=LO:HI with numbers LO < HI", arg);
    memcpy(a, text, (size_t)(colon - text));
    a[colon - text] = '\0';
    keps_num_status sl = keps_parse_number(a, lo), sh = keps_parse_number(colon + 1, hi);
    if (sl == KEPS_NUM_HEX || sh == KEPS_NUM_HEX)
        return cmd_usage_error(c, "{bounds} '%s': hexadecimal numbers are not accepted; write LO and HI in decimal",
                               arg);
    if (sl == KEPS_NUM_RANGE || sh == KEPS_NUM_RANGE)
        return cmd_usage_error(c, "{bounds} '%s': LO and HI must lie within [-%g, %g], the numbers keps accepts",
                               arg, KEPS_NUM_MAX, KEPS_NUM_MAX);
    if (sl || sh || !(*lo < *hi))
        return cmd_usage_error(c, "{bounds} '%s': expected NAME=LO:HI with finite numbers LO < HI", arg);
    return KEPS_OK;
}

keps_status kdp_bounds(cmd_ctx *c, const keps_table *t, const size_t *cols, size_t m, double *lo, double *hi,
               int *given)
{
    char **v;
    size_t nb = cmd_list(c, "bounds", &v);
    for (size_t j = 0; j < m; j++)
        given[j] = 0;
    for (size_t b = 0; b < nb; b++) {
        const char *eq = strrchr(v[b], '=');
        if (!eq)
            return cmd_usage_error(c, "{bounds} '%s': expected NAME=LO:HI, e.g. {bounds} FICA=0:10000", v[b]);
        size_t j = 0;
        while (j < m && !(strlen(t->cols[cols[j]].name) == (size_t)(eq - v[b]) &&
                          strncmp(t->cols[cols[j]].name, v[b], (size_t)(eq - v[b])) == 0))
            j++;
        if (j == m)
            return cmd_usage_error(c, "{bounds} '%s': '%.*s' is not one of the noisy columns", v[b],
                                   (int)(eq - v[b]), v[b]);
        if (parse_range(c, v[b], eq + 1, &lo[j], &hi[j]))
            return KEPS_EINPUT;
        given[j] = 1;
    }
    return KEPS_OK;
}

void kdp_noise_scale_json(keps_json *j, const keps_table *t, const size_t *cols, size_t m, const double *b)
{
    keps_json_object(j, "noise_scale");
    for (size_t a = 0; a < m; a++)
        keps_json_num(j, t->cols[cols[a]].name, b[a]);
    keps_json_end(j);
}
