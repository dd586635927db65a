/* keps-mpi's reports say what the single run's say of the input and the
 * run: the parameters as given, whether seeded, the input's missing values
 * and the timing. The commands write their own sections (the method's
 * figures, the guarantee); kmpi_finish completes them here. */
#include "kmpi.h"

#include "cli/cli.h"
#include "keps/command.h"

#include <stdlib.h>
#include <string.h>

/* A parameter as the command layer's report writes it: a flag as a
 * boolean, a number as a number, anything else as the string given. */
static json_t *param_value(const keps_param_info *p, const char *v)
{
    char *end;
    if (!p->metavar && (!strcmp(v, "true") || !strcmp(v, "false")))
        return json_boolean(!strcmp(v, "true"));
    if (p->flags & KEPS_PARAM_NUMBER) {
        long long i = strtoll(v, &end, 10);
        if (*v && !*end)
            return json_integer(i);
        double x = strtod(v, &end);
        if (*v && !*end)
            return json_real(x);
    }
    return json_string(v);
}

static int skipped(const keps_param_info *p)
{
    return !strcmp(p->name, "json") || !strcmp(p->name, "quiet") || !strcmp(p->name, "help") ||
           (p->flags & KEPS_PARAM_POSITIONAL);
}

/* The parameters the user gave: those the command's report holds (it
 * types them as the single run does), the others as given, the paths as
 * keps-mpi's; none the user did not give. */
static json_t *parameters(const kmpi *m, json_t *have)
{
    const kc_ctx *c = m->args;
    json_t *p = json_object();
    for (size_t i = 0; c && i < c->nopts; i++) {
        const keps_param_info *o = c->opts[i];
        if (!c->vals[i].n || skipped(o))
            continue;
        int path = (o->flags & (KEPS_PARAM_PATH | KEPS_PARAM_OUTPUT)) && !(o->flags & KEPS_PARAM_REPEAT);
        json_t *v = path ? NULL : json_object_get(have, o->name);
        if (v) {
            json_object_set(p, o->name, v);
        } else if (o->flags & KEPS_PARAM_REPEAT) {
            json_t *a = json_array();
            for (size_t k = 0; k < c->vals[i].n; k++)
                json_array_append_new(a, param_value(o, c->vals[i].v[k]));
            json_object_set_new(p, o->name, a);
        } else {
            json_object_set_new(p, o->name, param_value(o, c->vals[i].v[c->vals[i].n - 1]));
        }
    }
    if (m->input_text)
        json_object_set_new(p, "input", json_string(m->input_text));
    return p;
}

int kmpi_report_complete(const kmpi *m, json_t *root, const keps_table *t, const long long *missing,
                         const double *phmax)
{
    if (!json_is_object(root))
        return -1;
    json_t *p = parameters(m, json_object_get(root, "parameters"));
    json_object_set_new(root, "parameters", p);
    json_object_set_new(root, "seeded", json_boolean(m->args && kc_str(m->args, "seed") != NULL));
    json_t *mv = json_object();
    for (size_t j = 0; t && j < t->ncols; j++)
        if (missing[j])
            json_object_set_new(mv, t->cols[j].name, json_integer(missing[j]));
    json_object_set_new(root, "missing_values", mv);
    const double *ph = phmax;
    double load = ph[PH_READ] + ph[PH_ENCODE] + ph[PH_COUNT] + ph[PH_MERGE], write = ph[PH_APPLY] + ph[PH_SHUFFLE] + ph[PH_WRITE];
    json_t *tm = json_object();
    json_object_set_new(tm, "total", json_real(load + ph[PH_SEARCH] + write));
    json_object_set_new(tm, "load", json_real(load));
    json_object_set_new(tm, "search", json_real(ph[PH_SEARCH]));
    json_object_set_new(tm, "write", json_real(write));
    json_object_set_new(root, "timing_ms", tm);
    return 0;
}
