/* The guarantee value (include/keps/guarantee.h): built by the methods,
 * printed by the CLI. */
#include "keps/guarantee.h"

#include "keps/command.h" /* keps_render */

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *dup(keps_guarantee *g, const char *s)
{
    char *d = s ? strdup(s) : NULL;
    if (s && !d)
        g->oom = 1;
    return d;
}

void keps_guarantee_init(keps_guarantee *g, const char *model, int dp)
{
    memset(g, 0, sizeof *g);
    keps_acct_init(&g->acct);
    g->model = dup(g, model);
    g->dp = dp;
}

static void free_strs(char **s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(s[i]);
    free(s);
}

void keps_guarantee_free(keps_guarantee *g)
{
    if (!g)
        return;
    for (size_t i = 0; i < g->nfield; i++) {
        keps_gfield *f = &g->field[i];
        free(f->name);
        free(f->str);
        free_strs(f->strs, f->nstrs);
        for (size_t k = 0; k < f->nsub; k++)
            keps_guarantee_free(&f->sub[k]);
        free(f->sub);
    }
    free(g->field);
    free(g->model);
    free_strs(g->data_dependent, g->ndd);
    free(g->dd_markup);
    free_strs(g->not_covered, g->nnc);
    memset(g, 0, sizeof *g);
}

static keps_gfield *add(keps_guarantee *g, const char *name, keps_gkind kind)
{
    keps_gfield *f = realloc(g->field, (g->nfield + 1) * sizeof *f);
    if (!f) {
        g->oom = 1;
        return NULL;
    }
    g->field = f;
    f = &g->field[g->nfield];
    memset(f, 0, sizeof *f);
    f->name = dup(g, name);
    f->kind = kind;
    if (name && !f->name)
        return NULL;
    g->nfield++;
    return f;
}

static int push(keps_guarantee *g, char ***list, size_t *n, char *s)
{
    char **l = s ? realloc(*list, (*n + 1) * sizeof *l) : NULL;
    if (!l) {
        free(s);
        g->oom = 1;
        return -1;
    }
    l[(*n)++] = s;
    *list = l;
    return 0;
}

static void dd_push(keps_guarantee *g, char *s, int markup)
{
    unsigned char *m = realloc(g->dd_markup, g->ndd + 1);
    if (!m) {
        free(s);
        g->oom = 1;
        return;
    }
    g->dd_markup = m;
    m[g->ndd] = (unsigned char)markup;
    push(g, &g->data_dependent, &g->ndd, s);
}

void keps_guarantee_num(keps_guarantee *g, const char *name, double v, const char *meaning)
{
    keps_gfield *f = add(g, name, KEPS_G_NUM);
    if (f) {
        f->num = v;
        f->meaning = meaning;
    }
}

void keps_guarantee_int(keps_guarantee *g, const char *name, long long v, const char *meaning)
{
    keps_gfield *f = add(g, name, KEPS_G_INT);
    if (f) {
        f->i = v;
        f->meaning = meaning;
    }
}

void keps_guarantee_str(keps_guarantee *g, const char *name, const char *v)
{
    keps_gfield *f = add(g, name, KEPS_G_STR);
    if (f)
        f->str = dup(g, v);
}

void keps_guarantee_note(keps_guarantee *g, const char *name, const char *text)
{
    keps_gfield *f = add(g, name, KEPS_G_STR);
    if (f) {
        f->str = dup(g, text);
        f->markup = 1;
    }
}

void keps_guarantee_bool(keps_guarantee *g, const char *name, int v)
{
    keps_gfield *f = add(g, name, KEPS_G_BOOL);
    if (f)
        f->i = v != 0;
}

void keps_guarantee_models(keps_guarantee *g, const char *name)
{
    add(g, name, KEPS_G_MODELS);
}

static keps_gfield *last_of(keps_guarantee *g, keps_gkind kind)
{
    for (size_t i = g->nfield; i-- > 0;)
        if (g->field[i].kind == kind)
            return &g->field[i];
    return NULL;
}

void keps_guarantee_model_add(keps_guarantee *g, const char *model)
{
    keps_gfield *f = last_of(g, KEPS_G_MODELS);
    if (f)
        push(g, &f->strs, &f->nstrs, dup(g, model));
}

void keps_guarantee_criteria(keps_guarantee *g, const char *name)
{
    add(g, name, KEPS_G_CRITERIA);
}

keps_guarantee *keps_guarantee_criterion(keps_guarantee *g, const char *model)
{
    keps_gfield *f = last_of(g, KEPS_G_CRITERIA);
    keps_guarantee *s = f ? realloc(f->sub, (f->nsub + 1) * sizeof *s) : NULL;
    if (!s) {
        g->oom = 1;
        return NULL;
    }
    f->sub = s;
    keps_guarantee_init(&s[f->nsub], model, 0);
    return &s[f->nsub++];
}

void keps_guarantee_place_data_dependent(keps_guarantee *g)
{
    add(g, "data_dependent", KEPS_G_DATA_DEPENDENT);
}

void keps_guarantee_place_not_covered(keps_guarantee *g)
{
    add(g, "not_covered", KEPS_G_NOT_COVERED);
}

void keps_guarantee_data_dependent(keps_guarantee *g, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int len = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *s = len >= 0 ? malloc((size_t)len + 1) : NULL;
    if (s) {
        va_start(ap, fmt);
        vsnprintf(s, (size_t)len + 1, fmt, ap);
        va_end(ap);
    }
    dd_push(g, s, 1);
}

void keps_guarantee_data_dependent_text(keps_guarantee *g, const char *text)
{
    dd_push(g, dup(g, text), 0);
}

void keps_guarantee_not_covered(keps_guarantee *g, const char *column)
{
    push(g, &g->not_covered, &g->nnc, dup(g, column));
}

static void spell_one(keps_guarantee *g, char **s,
                      const char *(*spell)(void *ud, const char *name, char *buf, size_t len), void *ud)
{
    char *r = *s ? keps_render(*s, spell, ud) : NULL;
    if (!r) {
        g->oom |= *s != NULL;
        return;
    }
    free(*s);
    *s = r;
}

void keps_guarantee_spell(keps_guarantee *g, const char *(*spell)(void *ud, const char *name, char *buf, size_t len),
                          void *ud)
{
    for (size_t i = 0; i < g->nfield; i++) {
        keps_gfield *f = &g->field[i];
        if (f->markup)
            spell_one(g, &f->str, spell, ud);
        f->markup = 0;
        for (size_t k = 0; k < f->nsub; k++)
            keps_guarantee_spell(&f->sub[k], spell, ud);
    }
    for (size_t i = 0; i < g->ndd; i++) {
        if (g->dd_markup[i])
            spell_one(g, &g->data_dependent[i], spell, ud);
        g->dd_markup[i] = 0;
    }
}

static const char *marked(const keps_guarantee *g, const char *plain)
{
    static _Thread_local char buf[256]; /* one per thread: hosts may run commands on several */
    if (!g->dp || !g->ndd || !plain)
        return plain;
    snprintf(buf, sizeof buf, "%s (data-dependent)", plain);
    return buf;
}

const char *keps_guarantee_model(const keps_guarantee *g)
{
    return marked(g, g->model);
}

const keps_gfield *keps_guarantee_get(const keps_guarantee *g, const char *name)
{
    for (size_t i = 0; i < g->nfield; i++)
        if (g->field[i].name && !strcmp(g->field[i].name, name))
            return &g->field[i];
    return NULL;
}

double keps_guarantee_value(const keps_guarantee *g, const char *name)
{
    const keps_gfield *f = keps_guarantee_get(g, name);
    if (f && f->kind == KEPS_G_NUM)
        return f->num;
    if (f && f->kind == KEPS_G_INT)
        return (double)f->i;
    return NAN;
}

static void json_strs(keps_json *j, const char *key, char *const *s, size_t n)
{
    keps_json_array(j, key);
    for (size_t i = 0; i < n; i++)
        keps_json_str(j, NULL, s[i]);
    keps_json_end(j);
}

void keps_guarantee_json(const keps_guarantee *g, keps_json *j, const char *key)
{
    keps_json_object(j, key);
    keps_json_str(j, "model", keps_guarantee_model(g));
    for (size_t i = 0; i < g->nfield; i++) {
        const keps_gfield *f = &g->field[i];
        switch (f->kind) {
        case KEPS_G_NUM:
            keps_json_num(j, f->name, f->num);
            break;
        case KEPS_G_INT:
            keps_json_int(j, f->name, f->i);
            break;
        case KEPS_G_STR:
            keps_json_str(j, f->name, f->str);
            break;
        case KEPS_G_BOOL:
            keps_json_bool(j, f->name, (int)f->i);
            break;
        case KEPS_G_MODELS:
            keps_json_array(j, f->name);
            for (size_t k = 0; k < f->nstrs; k++)
                keps_json_str(j, NULL, marked(g, f->strs[k]));
            keps_json_end(j);
            break;
        case KEPS_G_CRITERIA:
            keps_json_array(j, f->name);
            for (size_t k = 0; k < f->nsub; k++)
                keps_guarantee_json(&f->sub[k], j, NULL);
            keps_json_end(j);
            break;
        case KEPS_G_DATA_DEPENDENT:
            json_strs(j, f->name, g->data_dependent, g->ndd);
            break;
        case KEPS_G_NOT_COVERED:
            json_strs(j, f->name, g->not_covered, g->nnc);
            break;
        }
    }
    keps_json_end(j);
}

typedef struct sbuf {
    char *p;
    size_t len, at;
} sbuf;

static void put(sbuf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void put(sbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(b->at < b->len ? b->p + b->at : NULL, b->at < b->len ? b->len - b->at : 0, fmt, ap);
    va_end(ap);
    if (n > 0)
        b->at += (size_t)n;
}

static void text(const keps_guarantee *g, sbuf *b)
{
    put(b, "%s", keps_guarantee_model(g));
    const char *sep = ": ";
    for (size_t i = 0; i < g->nfield; i++) {
        const keps_gfield *f = &g->field[i];
        if (f->kind == KEPS_G_NUM)
            put(b, "%s%s %.6g", sep, f->name, f->num);
        else if (f->kind == KEPS_G_INT)
            put(b, "%s%s %lld", sep, f->name, f->i);
        else if (f->kind == KEPS_G_CRITERIA)
            for (size_t k = 0; k < f->nsub; k++) {
                put(b, "%s", k ? "; " : sep);
                text(&f->sub[k], b);
            }
        else
            continue;
        sep = ", ";
    }
    if (g->nnc) {
        put(b, "; not covered:");
        for (size_t i = 0; i < g->nnc; i++)
            put(b, "%s %s", i ? "," : "", g->not_covered[i]);
    }
    for (size_t i = 0; i < g->ndd; i++)
        put(b, "; read from the data: %s", g->data_dependent[i]);
    size_t n = g->acct.nsteps < KEPS_ACCT_MAX_STEPS ? g->acct.nsteps : KEPS_ACCT_MAX_STEPS;
    if (n > 1) {
        put(b, "; composed of");
        for (size_t i = 0; i < n; i++)
            put(b, "%s %s epsilon %.6g", i ? "," : "", g->acct.steps[i].label, g->acct.steps[i].epsilon);
    }
}

size_t keps_guarantee_text(const keps_guarantee *g, char *buf, size_t len)
{
    sbuf b = {buf, len, 0};
    if (len)
        buf[0] = '\0';
    text(g, &b);
    return b.at;
}
