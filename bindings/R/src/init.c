/* keps for R: registration of the .Call entry points. */
#include <R_ext/Rdynload.h>

#include "rkeps.h"

SEXP rk_read_csv(SEXP path, SEXP delimiter, SEXP missing);
SEXP rk_roundtrip(SEXP cols, SEXP names, SEXP missing, SEXP source);
SEXP rk_table_in(SEXP cols, SEXP names, SEXP missing, SEXP source);
SEXP rk_table_out(SEXP owner);
SEXP rk_hierarchy_check(SEXP cols, SEXP name);
SEXP rk_hierarchy_read(SEXP path, SEXP delimiter);
SEXP rk_hierarchy_build(SEXP cols, SEXP names, SEXP spec, SEXP numeric, SEXP missing, SEXP source);
SEXP rk_version(void);
SEXP rk_run(SEXP name, SEXP params, SEXP tables, SEXP quiet, SEXP progress, SEXP program);
SEXP rk_catalog(void);
SEXP rk_format_number(SEXP x);

static const R_CallMethodDef calls[] = {
    {"rk_read_csv", (DL_FUNC)&rk_read_csv, 3},
    {"rk_roundtrip", (DL_FUNC)&rk_roundtrip, 4},
    {"rk_table_in", (DL_FUNC)&rk_table_in, 4},
    {"rk_table_out", (DL_FUNC)&rk_table_out, 1},
    {"rk_hierarchy_check", (DL_FUNC)&rk_hierarchy_check, 2},
    {"rk_hierarchy_read", (DL_FUNC)&rk_hierarchy_read, 2},
    {"rk_hierarchy_build", (DL_FUNC)&rk_hierarchy_build, 6},
    {"rk_version", (DL_FUNC)&rk_version, 0},
    {"rk_run", (DL_FUNC)&rk_run, 6},
    {"rk_catalog", (DL_FUNC)&rk_catalog, 0},
    {"rk_format_number", (DL_FUNC)&rk_format_number, 1},
    {NULL, NULL, 0},
};

void R_init_keps(DllInfo *dll)
{
    R_registerRoutines(dll, NULL, calls, NULL, NULL);
    R_useDynamicSymbols(dll, FALSE);
    R_forceSymbols(dll, TRUE);
}
