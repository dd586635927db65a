/* keps-mpi's reports say what the single run's say of the input and the
 * run: the parameters as given, whether seeded, the input's missing values
 * and the timing. The commands write their own sections (the method's
 * figures, the guarantee); kmpi_finish completes them here. */
#include "kmpi.h"

#include "cli/cli.h"
#include "command/command_internal.h"
#include "keps/command.h"

#include <stdlib.h>
#include <string.h>

/* The user's parameters as the single run's report writes them (the
 * command layer's own writer on a context of the same parameters), the
 * input as -i was given; NULL if out of memory. */
static json_t *parameters(const kmpi *m)
{
    const kc_ctx *c = m->args;
    keps_args *a = c ? kmpi_args(c, NULL) : NULL;
    keps_result res;
    memset(&res, 0, sizeof res);
    keps_host host = {0};
    cmd_ctx *x = a ? cmd_ctx_new(c->cmd->name, a, &host, &res) : NULL;
    json_t *p = NULL;
    if (x) {
        keps_json j;
        keps_json_init(&j);
        keps_json_object(&j, NULL);
        cmd_report_parameters(x, &j);
        keps_json_end(&j);
        json_error_t je;
        json_t *root = json_loads(keps_json_text(&j), 0, &je);
        keps_json_free(&j);
        if ((p = json_incref(json_object_get(root, "parameters"))) && m->input_text)
            json_object_set_new(p, "input", json_string(m->input_text));
        json_decref(root);
    }
    cmd_ctx_free(x);
    keps_result_free(&res);
    keps_args_free(a);
    return p;
}

int kmpi_report_complete(const kmpi *m, json_t *root, const keps_table *t, const long long *missing,
                         const double *phmax)
{
    if (!json_is_object(root))
        return -1;
    json_t *p = parameters(m);
    if (!p)
        return -1;
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
