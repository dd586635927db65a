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
SEXP rk_noise(SEXP values, SEXP epsilon, SEXP sensitivity, SEXP geometric, SEXP seed);
SEXP rk_safela_delta(SEXP k, SEXP beta, SEXP gap);
SEXP rk_safela_min_k(SEXP target, SEXP beta, SEXP gap, SEXP max_k);
SEXP rk_rr_ldp(SEXP p, SEXP epsilon, SEXP n);
SEXP rk_rr_t(SEXP pt, SEXP t, SEXP freq);
SEXP rk_rr_implies(SEXP from, SEXP level, SEXP k, SEXP to, SEXP to_k, SEXP records);
SEXP rk_version(void);

static const R_CallMethodDef calls[] = {
    {"rk_read_csv", (DL_FUNC)&rk_read_csv, 3},
    {"rk_roundtrip", (DL_FUNC)&rk_roundtrip, 4},
    {"rk_table_in", (DL_FUNC)&rk_table_in, 4},
    {"rk_table_out", (DL_FUNC)&rk_table_out, 1},
    {"rk_hierarchy_check", (DL_FUNC)&rk_hierarchy_check, 2},
    {"rk_hierarchy_read", (DL_FUNC)&rk_hierarchy_read, 2},
    {"rk_hierarchy_build", (DL_FUNC)&rk_hierarchy_build, 6},
    {"rk_noise", (DL_FUNC)&rk_noise, 5},
    {"rk_safela_delta", (DL_FUNC)&rk_safela_delta, 3},
    {"rk_safela_min_k", (DL_FUNC)&rk_safela_min_k, 4},
    {"rk_rr_ldp", (DL_FUNC)&rk_rr_ldp, 3},
    {"rk_rr_t", (DL_FUNC)&rk_rr_t, 3},
    {"rk_rr_implies", (DL_FUNC)&rk_rr_implies, 6},
    {"rk_version", (DL_FUNC)&rk_version, 0},
    {NULL, NULL, 0},
};

void R_init_keps(DllInfo *dll)
{
    R_registerRoutines(dll, NULL, calls, NULL, NULL);
    R_useDynamicSymbols(dll, FALSE);
    R_forceSymbols(dll, TRUE);
}
