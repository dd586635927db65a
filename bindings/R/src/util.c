/* keps for R: errors as R conditions, ownership of library objects. */
#include <stdarg.h>
#include <stdio.h>

#include "rkeps.h"

void rk_raise(const keps_error *err)
{
    SEXP ns = PROTECT(R_FindNamespace(Rf_mkString("keps")));
    SEXP msg = PROTECT(Rf_allocVector(STRSXP, 1));
    SET_STRING_ELT(msg, 0, Rf_mkCharCE(err->msg, CE_UTF8));
    SEXP call = PROTECT(Rf_lang3(Rf_install(".keps_raise"), Rf_ScalarInteger((int)err->code), msg));
    Rf_eval(call, ns);
    Rf_error("%s", err->msg); /* not reached: .keps_raise signals */
}

void rk_fail(keps_status code, const char *fmt, ...)
{
    keps_error err;
    err.code = code;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err.msg, sizeof err.msg, fmt, ap);
    va_end(ap);
    rk_raise(&err);
}

static void table_finalizer(SEXP p)
{
    keps_table_free(R_ExternalPtrAddr(p));
    R_ClearExternalPtr(p);
}

static void hierarchy_finalizer(SEXP p)
{
    keps_hierarchy_free(R_ExternalPtrAddr(p));
    R_ClearExternalPtr(p);
}

SEXP rk_own_table(keps_table *t)
{
    SEXP p = PROTECT(R_MakeExternalPtr(t, Rf_install("keps_table"), R_NilValue));
    R_RegisterCFinalizerEx(p, table_finalizer, TRUE);
    UNPROTECT(1);
    return p;
}

SEXP rk_own_hierarchy(keps_hierarchy *h)
{
    SEXP p = PROTECT(R_MakeExternalPtr(h, Rf_install("keps_hierarchy"), R_NilValue));
    R_RegisterCFinalizerEx(p, hierarchy_finalizer, TRUE);
    UNPROTECT(1);
    return p;
}

void rk_release(SEXP owner)
{
    if (R_ExternalPtrTag(owner) == Rf_install("keps_table"))
        table_finalizer(owner);
    else
        hierarchy_finalizer(owner);
}

const char *rk_string(SEXP x, const char *what)
{
    if (Rf_isNull(x))
        return NULL;
    if (TYPEOF(x) != STRSXP || XLENGTH(x) != 1)
        rk_fail(KEPS_EINPUT, "%s: expected one string", what);
    SEXP s = STRING_ELT(x, 0);
    return s == NA_STRING ? NULL : Rf_translateCharUTF8(s);
}

#include "keps/version.h"

SEXP rk_version(void)
{
    return Rf_mkString(keps_version());
}
