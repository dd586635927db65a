/* keps for R: every command through the library's command layer
 * (keps/command.h, keps_run), and its catalog.
 *
 * A run's library objects (the arguments, the tables converted from data
 * frames, the result, the collected messages) belong to one run_state owned
 * by an external pointer, so that an R error while the result is converted
 * (out of memory) frees them through the finalizer. keps_run itself never
 * calls into R: messages are collected and handed back, the progress hook
 * only draws on stderr and checks for an interrupt inside R_ToplevelExec
 * (which cannot jump out of the library). */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <R_ext/Utils.h>

#include "keps/command.h"
#include "keps/release.h"
#include "rkeps.h"

typedef struct {
    keps_msg_kind kind;
    char *text;
} run_msg;

typedef struct {
    keps_args *args;
    keps_table **tables;
    size_t ntables;
    keps_result result;
    int have_result;
    run_msg *msgs;
    size_t nmsgs, cap;
    int msgs_lost;
    pthread_mutex_t mu;
    pthread_t thread; /* the R thread: the only one that may touch R */
    int show_progress, interrupted, drawn;
    double start, last;
} run_state;

static void state_free(run_state *s)
{
    if (!s)
        return;
    keps_args_free(s->args);
    for (size_t i = 0; i < s->ntables; i++)
        keps_table_free(s->tables[i]);
    free(s->tables);
    if (s->have_result)
        keps_result_free(&s->result);
    for (size_t i = 0; i < s->nmsgs; i++)
        free(s->msgs[i].text);
    free(s->msgs);
    pthread_mutex_destroy(&s->mu);
    free(s);
}

static void state_finalizer(SEXP p)
{
    state_free(R_ExternalPtrAddr(p));
    R_ClearExternalPtr(p);
}

/* ---- host callbacks (called inside keps_run: no R allocation, no R error) ---- */

static void on_message(void *ud, keps_msg_kind kind, const char *text)
{
    run_state *s = ud;
    pthread_mutex_lock(&s->mu);
    if (s->nmsgs == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 8;
        run_msg *m = realloc(s->msgs, cap * sizeof *m);
        if (m) {
            s->msgs = m;
            s->cap = cap;
        }
    }
    char *t = s->nmsgs < s->cap ? strdup(text) : NULL;
    if (t) {
        s->msgs[s->nmsgs].kind = kind;
        s->msgs[s->nmsgs++].text = t;
    } else {
        s->msgs_lost = 1;
    }
    pthread_mutex_unlock(&s->mu);
}

/* R spells a parameter as its argument: dashes as underscores. */
static const char *spell(void *ud, const char *name, char *buf, size_t len)
{
    (void)ud;
    size_t i = 0;
    for (; name[i] && i + 1 < len; i++)
        buf[i] = name[i] == '-' ? '_' : name[i];
    buf[i] = 0;
    return buf;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void check_interrupt(void *unused)
{
    (void)unused;
    R_CheckUserInterrupt();
}

/* Draws "what: NN%" on stderr once the run has taken a second, and lets
 * Ctrl-C cancel it (keps_run then returns KEPS_ECANCEL). */
static int on_progress(void *ud, const char *what, double done, double total)
{
    run_state *s = ud;
    if (!pthread_equal(pthread_self(), s->thread))
        return 0;
    double t = now_s();
    if (t - s->last < 0.2)
        return 0;
    s->last = t;
    if (!R_ToplevelExec(check_interrupt, NULL)) {
        s->interrupted = 1;
        return 1;
    }
    if (s->show_progress && t - s->start >= 1 && total > 0) {
        REprintf("\r%s: %3.0f%%", what, 100 * (done < total ? done / total : 1));
        s->drawn = 1;
    }
    return 0;
}

/* ---- arguments ---- */

static keps_status add_values(run_state *s, const char *name, SEXP x, keps_error *err);

/* A list of values of parameter name, each one a string or a hierarchy
 * list(column, columns, names, source): the hierarchy goes in as an
 * in-memory table (keps_args_hierarchy, as "column:FILE"), in its place
 * among the others. */
static keps_status add_items(run_state *s, const char *name, SEXP x, keps_error *err)
{
    for (R_xlen_t i = 0; i < XLENGTH(x); i++) {
        SEXP item = VECTOR_ELT(x, i);
        if (TYPEOF(item) != VECSXP) {
            keps_status st = add_values(s, name, item, err);
            if (st)
                return st;
            continue;
        }
        keps_table *h = rk_table_from_list(VECTOR_ELT(item, 1), VECTOR_ELT(item, 2), NULL,
                                           rk_string(VECTOR_ELT(item, 3), "source"), err);
        if (!h)
            return err->code;
        s->tables[s->ntables++] = h;
        if (keps_args_hierarchy(s->args, rk_string(VECTOR_ELT(item, 0), "column"), h))
            return keps_error_set(err, KEPS_ENOMEM, "out of memory");
    }
    return KEPS_OK;
}

/* Adds every element of x (character, double, integer, logical) as one
 * value of parameter name: numbers as the shortest text that reads back
 * exactly (keps_format_number), logicals as "true"/"false"; a list holds
 * hierarchies too (add_items). */
static keps_status add_values(run_state *s, const char *name, SEXP x, keps_error *err)
{
    keps_args *a = s->args;
    if (TYPEOF(x) == VECSXP)
        return add_items(s, name, x, err);
    R_xlen_t n = XLENGTH(x);
    for (R_xlen_t i = 0; i < n; i++) {
        char buf[64];
        const char *v = buf;
        switch (TYPEOF(x)) {
        case STRSXP:
            if (STRING_ELT(x, i) == NA_STRING)
                goto na;
            v = Rf_translateCharUTF8(STRING_ELT(x, i));
            break;
        case REALSXP:
            if (ISNAN(REAL(x)[i]))
                goto na;
            if (keps_format_number(buf, sizeof buf, REAL(x)[i]) < 0)
                return keps_error_set(err, KEPS_EINPUT, "%s: %g is no finite number", name, REAL(x)[i]);
            break;
        case INTSXP:
            if (INTEGER(x)[i] == NA_INTEGER)
                goto na;
            snprintf(buf, sizeof buf, "%d", INTEGER(x)[i]);
            break;
        case LGLSXP:
            if (LOGICAL(x)[i] == NA_LOGICAL)
                goto na;
            v = LOGICAL(x)[i] ? "true" : "false";
            break;
        default:
            return keps_error_set(err, KEPS_EINPUT, "%s: expected text, numbers or TRUE/FALSE", name);
        }
        if (keps_args_add(a, name, v, NULL))
            return keps_error_set(err, KEPS_ENOMEM, "out of memory");
        continue;
    na:
        return keps_error_set(err, KEPS_EINPUT, "%s: NA is no value; leave the argument out instead", name);
    }
    return KEPS_OK;
}

/* ---- results ---- */

static SEXP str_or_null(const char *s)
{
    return s ? Rf_mkString(s) : R_NilValue;
}

static SEXP text_sexp(const char *s, size_t len)
{
    SEXP out = PROTECT(Rf_allocVector(STRSXP, 1));
    SET_STRING_ELT(out, 0, Rf_mkCharLenCE(s, (int)len, CE_UTF8));
    UNPROTECT(1);
    return out;
}

static SEXP table_sexp(const keps_table *t, const uint32_t *order)
{
    SEXP out = PROTECT(rk_list_from_table(t, order));
    rk_with_types(out, t);
    UNPROTECT(1);
    return out;
}

/* list(status, message, usage, finding, report, summary, printed, release,
 * outputs, messages, interrupted) */
static SEXP result_sexp(run_state *s, keps_status st, const keps_error *err)
{
    const keps_result *r = &s->result;
    const char *nm[] = {"status", "message", "usage", "finding", "report", "summary", "printed",
                        "release", "outputs", "message_kinds", "message_texts", "interrupted", ""};
    SEXP out = PROTECT(Rf_mkNamed(VECSXP, nm));
    SET_VECTOR_ELT(out, 0, Rf_ScalarInteger((int)st));
    SET_VECTOR_ELT(out, 1, st ? Rf_mkString(r->error ? r->error : err->msg) : R_NilValue);
    SET_VECTOR_ELT(out, 2, Rf_ScalarLogical(r->usage));
    SET_VECTOR_ELT(out, 3, Rf_ScalarLogical(r->finding));
    SET_VECTOR_ELT(out, 4, str_or_null(r->report));
    SET_VECTOR_ELT(out, 5, str_or_null(r->summary));
    SET_VECTOR_ELT(out, 6, str_or_null(r->printed));
    SET_VECTOR_ELT(out, 7, r->release ? table_sexp(r->release, r->order) : R_NilValue);
    SEXP outs = PROTECT(Rf_allocVector(VECSXP, (R_xlen_t)r->noutputs));
    SEXP onames = PROTECT(Rf_allocVector(STRSXP, (R_xlen_t)r->noutputs));
    for (size_t i = 0; i < r->noutputs; i++) {
        const keps_output *o = &r->outputs[i];
        SET_STRING_ELT(onames, (R_xlen_t)i, Rf_mkCharCE(o->param, CE_UTF8));
        if (o->table)
            SET_VECTOR_ELT(outs, (R_xlen_t)i, table_sexp(o->table, o->order));
        else if (o->text)
            SET_VECTOR_ELT(outs, (R_xlen_t)i, text_sexp(o->text, o->len));
    }
    Rf_setAttrib(outs, R_NamesSymbol, onames);
    SET_VECTOR_ELT(out, 8, outs);
    SEXP kinds = PROTECT(Rf_allocVector(INTSXP, (R_xlen_t)s->nmsgs));
    SEXP texts = PROTECT(Rf_allocVector(STRSXP, (R_xlen_t)s->nmsgs));
    for (size_t i = 0; i < s->nmsgs; i++) {
        INTEGER(kinds)[i] = (int)s->msgs[i].kind;
        SET_STRING_ELT(texts, (R_xlen_t)i, Rf_mkCharCE(s->msgs[i].text, CE_UTF8));
    }
    SET_VECTOR_ELT(out, 9, kinds);
    SET_VECTOR_ELT(out, 10, texts);
    SET_VECTOR_ELT(out, 11, Rf_ScalarLogical(s->interrupted));
    UNPROTECT(5);
    return out;
}

/* Runs command `name`. params: a named list, each element a vector of
 * values of that parameter (names may repeat; a list may hold hierarchies,
 * add_items); tables: a named list of
 * list(columns, names, source), each an in-memory table for the parameter
 * it is named by. quiet, progress: TRUE/FALSE; program: the keps
 * executable audit runs for its neighbours (NULL: none). Returns the list of
 * result_sexp; the R side signals errors and messages. */
SEXP rk_run(SEXP name, SEXP params, SEXP tables, SEXP quiet, SEXP progress, SEXP program)
{
    const char *cmd = rk_string(name, "command");
    const char *prog = rk_string(program, "program");
    run_state *s = calloc(1, sizeof *s);
    if (!s)
        rk_fail(KEPS_ENOMEM, "out of memory");
    pthread_mutex_init(&s->mu, NULL);
    SEXP owner = PROTECT(R_MakeExternalPtr(s, Rf_install("keps_run"), R_NilValue));
    R_RegisterCFinalizerEx(owner, state_finalizer, TRUE);
    keps_error err = {0};
    keps_status st = KEPS_OK;
    s->args = keps_args_new();
    /* room for every table: the inputs, and the hierarchies among the values */
    R_xlen_t nt = XLENGTH(tables), ntab = nt;
    for (R_xlen_t i = 0; i < XLENGTH(params); i++)
        if (TYPEOF(VECTOR_ELT(params, i)) == VECSXP)
            ntab += XLENGTH(VECTOR_ELT(params, i));
    s->tables = calloc(ntab ? (size_t)ntab : 1, sizeof *s->tables);
    if (!s->args || !s->tables)
        rk_fail(KEPS_ENOMEM, "out of memory");
    SEXP pnames = Rf_getAttrib(params, R_NamesSymbol);
    for (R_xlen_t i = 0; i < XLENGTH(params) && !st; i++)
        st = add_values(s, Rf_translateCharUTF8(STRING_ELT(pnames, i)), VECTOR_ELT(params, i), &err);
    SEXP tnames = Rf_getAttrib(tables, R_NamesSymbol);
    for (R_xlen_t i = 0; i < nt && !st; i++) {
        SEXP t = VECTOR_ELT(tables, i);
        keps_table *kt = rk_table_from_list(VECTOR_ELT(t, 0), VECTOR_ELT(t, 1), NULL,
                                            rk_string(VECTOR_ELT(t, 2), "source"), &err);
        if (!kt) {
            st = err.code;
            break;
        }
        s->tables[s->ntables++] = kt;
        if (keps_args_table(s->args, Rf_translateCharUTF8(STRING_ELT(tnames, i)), kt))
            st = keps_error_set(&err, KEPS_ENOMEM, "out of memory");
    }
    if (st) { /* nothing ran: a bad argument value or data frame */
        state_free(s);
        R_ClearExternalPtr(owner);
        rk_raise(&err);
    }
    keps_host host = {0};
    host.message = on_message;
    host.spell = spell;
    host.progress = on_progress;
    host.quiet = Rf_asLogical(quiet) == TRUE;
    host.program = prog;
    host.ud = s;
    s->thread = pthread_self();
    s->show_progress = Rf_asLogical(progress) == TRUE;
    s->start = s->last = now_s();
    st = keps_run(cmd, s->args, &host, &s->result, &err);
    s->have_result = 1;
    if (s->drawn)
        REprintf("\r%*s\r", 60, "");
    if (s->msgs_lost)
        on_message(s, KEPS_MSG_WARNING, "some of the command's messages were lost (out of memory)");
    SEXP out = result_sexp(s, st, &err);
    state_finalizer(owner);
    UNPROTECT(1);
    return out;
}

/* The shortest text that reads back as exactly x (keps_format_number). */
SEXP rk_format_number(SEXP x)
{
    char buf[64];
    if (keps_format_number(buf, sizeof buf, Rf_asReal(x)) < 0)
        rk_fail(KEPS_EINPUT, "%g is no finite number", Rf_asReal(x));
    return Rf_mkString(buf);
}

/* ---- catalog ---- */

static SEXP param_list(const keps_command_info *c)
{
    const char *nm[] = {"name", "short", "metavar", "flags", "help", "example", ""};
    SEXP out = PROTECT(Rf_mkNamed(VECSXP, nm));
    R_xlen_t n = (R_xlen_t)c->nparams;
    SEXP name = PROTECT(Rf_allocVector(STRSXP, n)), shortc = PROTECT(Rf_allocVector(STRSXP, n)),
         metavar = PROTECT(Rf_allocVector(STRSXP, n)), flags = PROTECT(Rf_allocVector(INTSXP, n)),
         help = PROTECT(Rf_allocVector(STRSXP, n)), example = PROTECT(Rf_allocVector(STRSXP, n));
    for (R_xlen_t i = 0; i < n; i++) {
        const keps_param_info *p = &c->params[i];
        char sc[2] = {p->shortc, 0};
        SET_STRING_ELT(name, i, Rf_mkCharCE(p->name, CE_UTF8));
        SET_STRING_ELT(shortc, i, p->shortc ? Rf_mkChar(sc) : NA_STRING);
        SET_STRING_ELT(metavar, i, p->metavar ? Rf_mkCharCE(p->metavar, CE_UTF8) : NA_STRING);
        INTEGER(flags)[i] = (int)p->flags;
        SET_STRING_ELT(help, i, p->help ? Rf_mkCharCE(p->help, CE_UTF8) : NA_STRING);
        SET_STRING_ELT(example, i, p->example ? Rf_mkCharCE(p->example, CE_UTF8) : NA_STRING);
    }
    SEXP cols[] = {name, shortc, metavar, flags, help, example};
    for (int j = 0; j < 6; j++)
        SET_VECTOR_ELT(out, j, cols[j]);
    UNPROTECT(7);
    return out;
}

/* The catalog: a list of commands, each list(name, summary, usage,
 * description, example, params), texts with their {name} markup. */
SEXP rk_catalog(void)
{
    const keps_command_info *const *list = NULL;
    size_t n = keps_commands(&list);
    SEXP out = PROTECT(Rf_allocVector(VECSXP, (R_xlen_t)n));
    const char *nm[] = {"name", "summary", "usage", "description", "example", "params", ""};
    for (size_t i = 0; i < n; i++) {
        const keps_command_info *c = list[i];
        SEXP e = PROTECT(Rf_mkNamed(VECSXP, nm));
        const char *texts[] = {c->name, c->summary, c->usage, c->description, c->example};
        for (int j = 0; j < 5; j++)
            SET_VECTOR_ELT(e, j, texts[j] ? Rf_ScalarString(Rf_mkCharCE(texts[j], CE_UTF8)) : R_NilValue);
        SET_VECTOR_ELT(e, 5, param_list(c));
        SET_VECTOR_ELT(out, (R_xlen_t)i, e);
        UNPROTECT(1);
    }
    UNPROTECT(1);
    return out;
}
