/* keps_run: a command's parameters in, its outputs out (keps/command.h).
 * The arguments are matched against the command's parameters (the
 * catalog), a context is made, the command's run function fills the
 * result; messages and errors go through the host with {name} markup
 * rendered in the host's spelling. */
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "command_internal.h"
#include "keps/progress.h"

/* ---- arguments ---- */

typedef struct arg_entry {
    char *name;
    char **v;
    size_t n;
    char *origin;
    const keps_table **tables; /* [n]: an in-memory table given for value k, or NULL */
} arg_entry;

struct keps_args {
    arg_entry *e;
    size_t n;
    char *dir;
};

keps_args *keps_args_new(void)
{
    return calloc(1, sizeof(keps_args));
}

void keps_args_free(keps_args *a)
{
    if (!a)
        return;
    for (size_t i = 0; i < a->n; i++) {
        for (size_t k = 0; k < a->e[i].n; k++)
            free(a->e[i].v[k]);
        free(a->e[i].v);
        free(a->e[i].tables);
        free(a->e[i].name);
        free(a->e[i].origin);
    }
    free(a->e);
    free(a->dir);
    free(a);
}

static arg_entry *arg_find(const keps_args *a, const char *name)
{
    for (size_t i = 0; a && i < a->n; i++)
        if (strcmp(a->e[i].name, name) == 0)
            return &a->e[i];
    return NULL;
}

static arg_entry *arg_get(keps_args *a, const char *name)
{
    arg_entry *e = arg_find(a, name);
    if (e)
        return e;
    arg_entry *n = realloc(a->e, (a->n + 1) * sizeof *n);
    if (!n)
        return NULL;
    a->e = n;
    e = &a->e[a->n];
    memset(e, 0, sizeof *e);
    if (!(e->name = strdup(name)))
        return NULL;
    a->n++;
    return e;
}

keps_status keps_args_add(keps_args *a, const char *name, const char *value, const char *origin)
{
    if (!a || !name || !value)
        return KEPS_EINPUT;
    arg_entry *e = arg_get(a, name);
    char **v = e ? realloc(e->v, (e->n + 1) * sizeof *v) : NULL;
    if (!v)
        return KEPS_ENOMEM;
    e->v = v;
    const keps_table **t = realloc(e->tables, (e->n + 1) * sizeof *t);
    if (!t)
        return KEPS_ENOMEM;
    e->tables = t;
    t[e->n] = NULL;
    if (!(v[e->n] = strdup(value)))
        return KEPS_ENOMEM;
    e->n++;
    if (origin) {
        char *o = strdup(origin);
        if (!o)
            return KEPS_ENOMEM;
        free(e->origin);
        e->origin = o;
    }
    return KEPS_OK;
}

keps_status keps_args_base_dir(keps_args *a, const char *dir)
{
    char *d = dir ? strdup(dir) : NULL;
    if (!a || (dir && !d))
        return a ? KEPS_ENOMEM : KEPS_EINPUT;
    free(a->dir);
    a->dir = d;
    return KEPS_OK;
}

keps_status keps_args_table(keps_args *a, const char *name, const keps_table *t)
{
    if (!a || !name || !t)
        return KEPS_EINPUT;
    keps_status st = keps_args_add(a, name, t->source ? t->source : "<memory>", NULL);
    if (!st) {
        arg_entry *e = arg_find(a, name);
        e->tables[e->n - 1] = t;
    }
    return st;
}

keps_status keps_args_hierarchy(keps_args *a, const char *column, const keps_table *h)
{
    if (!a || !column || !h)
        return KEPS_EINPUT;
    size_t len = strlen(column) + strlen(h->source ? h->source : "<memory>") + 2;
    char *spec = malloc(len);
    if (!spec)
        return KEPS_ENOMEM;
    snprintf(spec, len, "%s:%s", column, h->source ? h->source : "<memory>");
    keps_status st = keps_args_add(a, "qi", spec, NULL);
    free(spec);
    if (!st) {
        arg_entry *e = arg_find(a, "qi");
        e->tables[e->n - 1] = h;
        /* the column's name, for the schema: the spec is NAME:SOURCE */
    }
    return st;
}

size_t keps_args_count(const keps_args *a, const char *name)
{
    const arg_entry *e = arg_find(a, name);
    return e ? e->n : 0;
}

/* ---- markup ---- */

static int name_char(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '-' || ch == '_';
}

char *keps_render(const char *text, const char *(*spell)(void *ud, const char *name, char *buf, size_t len),
                  void *ud)
{
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    if (!f)
        return NULL;
    for (const char *p = text; *p;) {
        size_t w = 0;
        if (*p == '{')
            while (name_char(p[1 + w]))
                w++;
        if (*p != '{' || !w || p[1 + w] != '}' || w >= 64) {
            fputc(*p++, f);
            continue;
        }
        char name[64], buf[128];
        memcpy(name, p + 1, w);
        name[w] = '\0';
        fputs(spell ? spell(ud, name, buf, sizeof buf) : name, f);
        p += w + 2;
    }
    if (fclose(f) != 0) {
        free(out);
        return NULL;
    }
    return out;
}

/* vsnprintf into a new string; NULL when out of memory. */
static char *vstrf(const char *fmt, va_list ap)
{
    va_list aq;
    va_copy(aq, ap);
    int n = vsnprintf(NULL, 0, fmt, aq);
    va_end(aq);
    char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (s)
        vsnprintf(s, (size_t)n + 1, fmt, ap);
    return s;
}

char *cmd_strf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = vstrf(fmt, ap);
    va_end(ap);
    return s;
}

char *cmd_vformat(const cmd_ctx *c, const char *fmt, va_list ap)
{
    const keps_host *h = c ? c->host : NULL;
    char *f = keps_render(fmt, h ? h->spell : NULL, h ? h->ud : NULL);
    char *out = f ? vstrf(f, ap) : NULL;
    free(f);
    return out;
}

void cmd_msg(const cmd_ctx *c, keps_msg_kind kind, const char *fmt, ...)
{
    if (!c->host || !c->host->message)
        return;
    va_list ap;
    va_start(ap, fmt);
    char *m = cmd_vformat(c, fmt, ap);
    va_end(ap);
    size_t n = m ? strlen(m) : 0;
    while (n && m[n - 1] == '\n')
        m[--n] = '\0';
    c->host->message(c->host->ud, kind, m ? m : "out of memory");
    free(m);
}

void cmd_error_text(const cmd_ctx *c, keps_status st, const char *text, int usage)
{
    cmd_ctx *w = (cmd_ctx *)c; /* the error is the context's state */
    keps_result *r = w->res;
    w->status = st;
    if (!r)
        return;
    r->usage |= usage;
    size_t old = r->error ? strlen(r->error) : 0, n = strlen(text);
    char *e = realloc(r->error, old + n + 2);
    if (!e)
        return;
    if (old)
        e[old++] = '\n';
    memcpy(e + old, text, n + 1);
    r->error = e;
}

/* ---- catalog ---- */

static const cmd_cmd *const all_cmds[] = {&cmd_anonymize, &cmd_kepsilon, &cmd_dpmicro,   &cmd_safela, &cmd_rr,
                                          &cmd_privacy,   &cmd_verify,   &cmd_risk,      &cmd_evaluate,
                                          &cmd_split,     &cmd_hierarchy, &cmd_noise,    &cmd_audit,  &cmd_report};
#define NCMDS (sizeof all_cmds / sizeof *all_cmds)

static keps_command_info infos[NCMDS];
static const keps_command_info *info_list[NCMDS];
static keps_param_info *info_params[NCMDS];
static pthread_once_t catalog_once = PTHREAD_ONCE_INIT;

/* A command's parameters: its own, html after report, the positional
 * ones, the common ones. */
static size_t cmd_params(const cmd_cmd *cmd, const cmd_opt **out)
{
    size_t n = 0;
    for (const cmd_opt *const *o = cmd->opts; o && *o; o++) {
        if (out)
            out[n] = *o;
        n++;
        if (*o == &cmd_opt_report) {
            if (out)
                out[n] = &cmd_opt_html;
            n++;
        }
    }
    for (const cmd_opt *const *o = cmd->pos_opts; o && *o; o++) {
        if (out)
            out[n] = *o;
        n++;
    }
    for (const cmd_opt *const *o = cmd_common_opts; *o; o++) {
        if (out)
            out[n] = *o;
        n++;
    }
    return n;
}

static void build_catalog(void)
{
    for (size_t i = 0; i < NCMDS; i++) {
        const cmd_cmd *c = all_cmds[i];
        size_t n = cmd_params(c, NULL);
        const cmd_opt **v = malloc(n * sizeof *v);
        keps_param_info *p = malloc(n * sizeof *p);
        if (!v || !p) {
            free(v);
            free(p);
            n = 0;
        } else {
            cmd_params(c, v);
            for (size_t k = 0; k < n; k++) {
                p[k] = *v[k];
                /* which parameters name files: a FILE metavar; which are written */
                if (p[k].metavar && strstr(p[k].metavar, "FILE") && !strchr(p[k].metavar, ':'))
                    p[k].flags |= KEPS_PARAM_PATH;
                static const char *const outs[] = {"output", "report", "html", "test-output", "emit-sql"};
                for (size_t o = 0; o < sizeof outs / sizeof *outs; o++)
                    if (!strcmp(p[k].name, outs[o]))
                        p[k].flags |= KEPS_PARAM_PATH | KEPS_PARAM_OUTPUT;
            }
            free(v);
        }
        info_params[i] = p;
        infos[i] = (keps_command_info){c->name, c->summary, c->usage, c->description, c->example, p, n};
        info_list[i] = &infos[i];
    }
}

size_t keps_commands(const keps_command_info *const **list)
{
    pthread_once(&catalog_once, build_catalog);
    if (list)
        *list = info_list;
    return NCMDS;
}

const keps_command_info *keps_command(const char *name)
{
    pthread_once(&catalog_once, build_catalog);
    for (size_t i = 0; name && i < NCMDS; i++)
        if (strcmp(infos[i].name, name) == 0)
            return &infos[i];
    return NULL;
}

const keps_param_info *keps_command_param(const keps_command_info *cmd, const char *name)
{
    for (size_t i = 0; cmd && name && i < cmd->nparams; i++)
        if (strcmp(cmd->params[i].name, name) == 0)
            return &cmd->params[i];
    return NULL;
}

/* ---- result ---- */

void keps_result_free(keps_result *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->noutputs; i++) {
        keps_output *o = &r->outputs[i];
        free(o->param);
        keps_table_free(o->table);
        free(o->order);
        free(o->text);
    }
    free(r->outputs);
    free(r->error);
    free(r->report);
    free(r->summary);
    free(r->printed);
    memset(r, 0, sizeof *r);
}

const keps_output *keps_result_output(const keps_result *r, const char *param)
{
    for (size_t i = 0; r && i < r->noutputs; i++)
        if (strcmp(r->outputs[i].param, param) == 0)
            return &r->outputs[i];
    return NULL;
}

keps_output *cmd_output_new(cmd_ctx *c, const char *param)
{
    keps_result *r = c->res;
    keps_output *n = realloc(r->outputs, (r->noutputs + 1) * sizeof *n);
    if (!n)
        return NULL;
    r->outputs = n;
    keps_output *o = &n[r->noutputs];
    memset(o, 0, sizeof *o);
    if (!(o->param = strdup(param)))
        return NULL;
    r->noutputs++;
    /* the release pointer follows the array */
    for (size_t i = 0; i < r->noutputs; i++)
        if (!strcmp(r->outputs[i].param, "output") && r->outputs[i].table) {
            r->release = r->outputs[i].table;
            r->order = r->outputs[i].order;
        }
    return o;
}

void cmd_output_sync(cmd_ctx *c)
{
    keps_result *r = c->res;
    r->release = NULL;
    r->order = NULL;
    for (size_t i = 0; i < r->noutputs; i++)
        if (!strcmp(r->outputs[i].param, "output") && r->outputs[i].table) {
            r->release = r->outputs[i].table;
            r->order = r->outputs[i].order;
        }
}

/* ---- running ---- */

const cmd_cmd *cmd_command(const char *name)
{
    for (size_t i = 0; i < NCMDS; i++)
        if (strcmp(all_cmds[i]->name, name) == 0)
            return all_cmds[i];
    return NULL;
}

static void ctx_free(cmd_ctx *c)
{
    for (size_t i = 0; i < c->nopts; i++) {
        free(c->vals[i].v);
        free(c->vals[i].origin);
    }
    free(c->vals);
    free(c->opts);
    free(c->pos);
    free(c->job_dir);
    free(c->before_after);
    free(c->counts_missing);
    free(c->offered);
    keps_rng_free(c->rng);
}

/* The context of one run: the command's parameters with the values a
 * gives them; KEPS_OK, or the status of the error (an unknown name). */
static keps_status ctx_init(cmd_ctx *c, const cmd_cmd *cmd, const keps_args *a)
{
    size_t n = cmd_params(cmd, NULL);
    c->cmd = cmd;
    c->opts = calloc(n, sizeof *c->opts);
    c->vals = calloc(n, sizeof *c->vals);
    size_t npos = 0;
    for (size_t i = 0; a && i < a->n; i++)
        npos += a->e[i].n;
    c->pos = calloc(npos + 1, sizeof *c->pos);
    if (!c->opts || !c->vals || !c->pos)
        return cmd_oom(c);
    cmd_params(cmd, c->opts);
    c->nopts = n;
    if (a && a->dir && !(c->job_dir = strdup(a->dir)))
        return cmd_oom(c);
    for (size_t i = 0; a && i < a->n; i++) {
        const arg_entry *e = &a->e[i];
        size_t k = 0;
        while (k < n && strcmp(c->opts[k]->name, e->name) != 0)
            k++;
        if (k == n) {
            const char *names[256];
            size_t m = 0;
            for (size_t j = 0; j < n && m < 256; j++)
                if (!(c->opts[j]->flags & KEPS_PARAM_COMMON))
                    names[m++] = c->opts[j]->name;
            const char *near = cmd_nearest(e->name, names, m);
            char sp[128];
            return cmd_usage_error(c, "%sunknown parameter '%s' for '%s'%s%s%s", e->origin ? e->origin : "",
                                   e->name, cmd->name, near ? " (did you mean " : "",
                                   near ? cmd_spell(c, near, sp, sizeof sp) : "", near ? "?)" : "");
        }
        if (!e->n)
            continue;
        c->vals[k].n = e->n;
        if (!(c->vals[k].v = malloc(e->n * sizeof *c->vals[k].v)))
            return cmd_oom(c);
        memcpy(c->vals[k].v, e->v, e->n * sizeof *e->v);
        c->vals[k].tables = e->tables;
        if (e->origin && !(c->vals[k].origin = strdup(e->origin)))
            return cmd_oom(c);
    }
    /* positional words: the calculator, the action, ...; then the rest */
    for (int rest = 0; rest < 2; rest++) {
        if (rest)
            c->rest = c->pos + c->npos;
        for (size_t k = 0; k < n; k++) {
            unsigned f = c->opts[k]->flags;
            if (!(f & KEPS_PARAM_POSITIONAL) || !!(f & KEPS_PARAM_REST) != rest)
                continue;
            for (size_t v = 0; v < c->vals[k].n; v++)
                c->pos[c->npos++] = c->vals[k].v[v];
            if (rest)
                c->nrest += c->vals[k].n;
        }
    }
    return KEPS_OK;
}

cmd_ctx *cmd_ctx_new(const char *name, const keps_args *a, const keps_host *host, keps_result *res)
{
    static const keps_host none = {0};
    const cmd_cmd *cmd = cmd_command(name);
    cmd_ctx *c = cmd ? calloc(1, sizeof *c) : NULL;
    if (!c)
        return NULL;
    memset(res, 0, sizeof *res);
    c->res = res;
    c->host = host ? host : &none;
    c->t_start = cmd_now_ms();
    c->quiet = c->host->quiet;
    c->json = !c->host->lean;
    ctx_init(c, cmd, a); /* an unknown name: the error is in res */
    return c;
}

void cmd_ctx_free(cmd_ctx *c)
{
    if (c)
        ctx_free(c);
    free(c);
}

keps_status keps_run(const char *name, const keps_args *a, const keps_host *host, keps_result *out,
                     keps_error *err)
{
    static const keps_host none = {0};
    memset(out, 0, sizeof *out);
    if (err)
        memset(err, 0, sizeof *err);
    cmd_ctx c;
    memset(&c, 0, sizeof c);
    c.res = out;
    c.host = host ? host : &none;
    c.t_start = cmd_now_ms();
    c.quiet = c.host->quiet;
    c.json = !c.host->lean;
    const cmd_cmd *cmd = name ? cmd_command(name) : NULL;
    keps_status st;
    if (!cmd) {
        const char *names[NCMDS];
        for (size_t i = 0; i < NCMDS; i++)
            names[i] = all_cmds[i]->name;
        const char *near = name ? cmd_nearest(name, names, NCMDS) : NULL;
        keps_error e = {0};
        keps_error_set(&e, KEPS_EINPUT, "no command '%s'%s%s%s", name ? name : "(null)",
                       near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
        st = cmd_fail(&c, &e);
    } else {
        void *prev_ud;
        keps_progress_cb prev = keps_progress_push(c.host->progress, c.host->ud, &prev_ud);
        st = ctx_init(&c, cmd, a);
        if (!st)
            st = cmd_run_checked(&c);
        int cancelled = keps_progress_pop(prev, prev_ud);
        if (cancelled) {
            keps_result_free(out);
            keps_error e = {0};
            keps_error_set(&e, KEPS_ECANCEL, "cancelled");
            st = cmd_fail(&c, &e);
        }
    }
    if (st && !out->error)
        cmd_error_text(&c, st, st == KEPS_ENOMEM ? "out of memory" : "failed", 0);
    if (st && err) {
        err->code = st;
        snprintf(err->msg, sizeof err->msg, "%s", out->error ? out->error : "failed");
    }
    if (!st)
        cmd_output_sync(&c);
    ctx_free(&c);
    return st;
}
