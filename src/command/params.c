/* The parameters every command shares (the catalog's entries) and their
 * accessors: values, numbers, usage errors. */
#include <float.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "command_internal.h"
#include "param_lookup.h"
#include "keps/mdav.h"
#include "keps/csv.h"
#include "keps/hierarchy.h"
#include "keps/outfile.h"
#include "keps/sample.h"

/* ---- common options (CLI.md) ---- */
const cmd_opt cmd_opt_input = {"input", 'i', "FILE", 0, "input CSV with a header row; '-' reads stdin",
                               "data/adult/adult.csv"};
const cmd_opt cmd_opt_output = {"output", 'o', "FILE", KEPS_PARAM_PATH | KEPS_PARAM_OUTPUT | KEPS_PARAM_RELEASE,
                                "released CSV (required); '-' or /dev/stdout writes stdout; a device, FIFO or "
                                "/dev/fd/N is written in place. A file (a symbolic link: its target) is written "
                                "to a temporary file and renamed with the report at the end, keeping the mode, "
                                "owner and group of the file it replaces, so a failed run leaves nothing; "
                                "concurrent runs writing it take turns (a lock file .FILE.keps-lock beside it)",
                                "out.csv"};
const cmd_opt cmd_opt_delimiter = {"delimiter", 'd', "C", 0,
                                   "field separator of the input and output; default: sniffed from the header "
                                   "(',' ';' tab '|'); 'tab' for a tab",
                                   ";"};
const cmd_opt cmd_opt_report = {"report", 0, "FILE", 0,
                                 "write the JSON report to FILE ('-' = stdout, the summary then goes to stderr), "
                                 "written as {output} is and renamed into place together with the release; it may not "
                                 "name the same file or stream as {output}",
                                 "report.json"};
const cmd_opt cmd_opt_html = {"html", 0, "FILE", 0,
                               "also write the report as one self-contained HTML page (tables and charts, no "
                               "network needed) to FILE ('-' = stdout); the same page as 'keps report' draws "
                               "from the {report} file",
                               "report.html"};
const cmd_opt cmd_opt_qi = {"qi", 0, "NAME[:HIERARCHY]", CLI_REPEAT,
                            "quasi-identifier, repeatable; HIERARCHY is an ARX hierarchy CSV (rows of different lengths: "
                            "paths of an unbalanced tree ending at one root; the missing value as the empty field "
                            "gets a row ';;*'), a builder made from the column's values (interval=5,10,20 with "
                            "optional bottom=18,top=90; mask=1,2,3; order=2,4; date=month,year,decade; 'keps "
                            "hierarchy build' writes one to a file), or 'numeric': no hierarchy, and the column "
                            "read as numbers even if it holds codes such as 01097 (which make it categorical "
                            "otherwise). A NAME holding ':' (\"Q1: age:q1.csv\") is matched whole first",
                            "age:interval=5,10,20\nzip:mask=1,2,3\nsex:data/adult/adult_hierarchy_sex.csv"};
const cmd_opt cmd_opt_noisy = {"noisy", 0, "NAME", CLI_REPEAT,
                               "numeric quasi-identifier that receives Laplace noise, repeatable (NAME:numeric "
                               "reads a column of codes such as 0170 as numbers)",
                               "height"};
const cmd_opt cmd_opt_sensitive = {"sensitive", 0, "NAME", CLI_REPEAT,
                                   "sensitive attribute, released as is (used by l-diversity, t-closeness, RR)",
                                   "salary-class"};
const cmd_opt cmd_opt_insensitive = {"insensitive", 0, "NAME", CLI_REPEAT, "attribute released as is",
                                     "workclass"};
const cmd_opt cmd_opt_identifier = {"identifier", 0, "NAME", CLI_REPEAT, "direct identifier, dropped from the output",
                                    "name"};
const cmd_opt cmd_opt_others = {"others", 0, "keep|drop", 0,
                                 "what to do with columns given no role; without it they are an error",
                                 "keep"};
const cmd_opt cmd_opt_k = {"k", 'k', "K", CLI_NUMBER,
                           "every released record hides among at least K (k-anonymity); 1 to 1,000,000,000", "5"};
const cmd_opt cmd_opt_suppress = {"suppress", 0, "FRACTION", CLI_NUMBER,
                                  "largest fraction of records that may be suppressed (0..1, default 0)",
                                  "0.05"};
const cmd_opt cmd_opt_suppressed = {"suppressed", 0, "exclude|class", 0,
                                    "rows whose every QI is '*' (suppressed records): leave them out (default, "
                                    "as ARX) or treat them as one ordinary class",
                                    "class"};
const cmd_opt cmd_opt_epsilon = {"epsilon", 0, "E", CLI_NUMBER, "privacy budget epsilon (> 0)", "1.0"};
const cmd_opt cmd_opt_delta = {"delta", 0, "D", CLI_NUMBER, "privacy parameter delta (0..1)", "1e-6"};
const cmd_opt cmd_opt_beta = {"beta", 0, "B", CLI_NUMBER, "sampling probability beta (0..1]", "0.7"};
const cmd_opt cmd_opt_seed = {"seed", 0, "N", CLI_NUMBER,
                              "reproducible randomness for tests and papers; the output is then NOT private "
                              "(a warning says so on stderr)",
                              "42"};
const cmd_opt cmd_opt_missing = {"missing", 0, "TOKEN", 0,
                                 "token that marks a missing value (default: the empty field)", "?"};
const cmd_opt cmd_opt_decimal_comma = {"decimal-comma", 0, NULL, 0,
                                        "numbers in the data use ',' as the decimal mark (170,5 is 170.5): read so "
                                        "in numeric columns and written so in computed ones; a '.' in a number is "
                                        "then an error. The field separator must then be another character than "
                                        "',' (give {delimiter} ';' if it is not sniffed)",
                                        ""};
const cmd_opt cmd_opt_digits = {"digits", 0, "N|exact", CLI_NUMBER,
                                "decimals of the numbers this command computes and writes (noisy values, "
                                "centroids); default: each column's input precision, the most decimals any of "
                                "its cells is written with (170 and 170.5 give 1); 'exact' writes the exact "
                                "double. Rounding is post-processing: the guarantee stands, and the report's "
                                "metrics describe the rounded values",
                                "1"};
const cmd_opt cmd_opt_keep_order = {"keep-order", 0, NULL, 0,
                                    "write released rows in input order instead of shuffling them (row order "
                                    "can leak; a warning says so)",
                                    ""};
const cmd_opt cmd_opt_threads = {"threads", 0, "N", CLI_NUMBER,
                                 "worker threads, 1 to 64 (default: the cores available): the lattice scan and "
                                 "MDAV's distance scans use up to N (MDAV at most 8), and OLA's search N "
                                 "({threads} 1: a sequential search). The result is the same whatever N",
                                 "2"};
const cmd_opt cmd_opt_remove_suppressed = {"remove-suppressed", 0, NULL, 0,
                                           "leave suppressed records out instead of starring their QIs",
                                           ""};

/* The front-end's own parameters (KEPS_PARAM_COMMON): every command lists
 * them, keps_run ignores them. */
static const cmd_opt opt_help = {"help", 'h', NULL, KEPS_PARAM_COMMON, "show this help and exit", ""};
static const cmd_opt opt_json = {"json", 0, NULL, KEPS_PARAM_COMMON, "print the result as JSON on stdout instead of text", ""};
static const cmd_opt opt_quiet = {"quiet", 'q', NULL, KEPS_PARAM_COMMON,
                                  "no progress, notes or text summary (errors, and warnings that weaken the "
                                  "privacy guarantee, still print on stderr; {json}, {report} - and {output} - still "
                                  "write what they ask for)",
                                  ""};
static const cmd_opt opt_job = {"job", 0, "FILE", KEPS_PARAM_COMMON,
                                "YAML job file holding any of these options (long names as keys); flags given "
                                "on the command line override it. Relative paths in the file are relative to "
                                "the file's own directory",
                                "examples/adult-ola.yml"};
const cmd_opt *const cmd_common_opts[] = {&opt_job, &opt_json, &opt_quiet, &opt_help, NULL};

/* ---- accessors ---- */

/* Parameter name as the host spells it (a buffer of the calling line). */
#define SPELL(name) CMD_SPELL(c, name)

static int find_opt(const cmd_ctx *c, const char *name)
{
    return param_index(c->opts, c->nopts, name);
}

const char *cmd_str(const cmd_ctx *c, const char *name)
{
    int i = find_opt(c, name);
    return i < 0 ? NULL : param_last(c->vals[i].v, c->vals[i].n);
}

size_t cmd_list(const cmd_ctx *c, const char *name, char ***vals)
{
    int i = find_opt(c, name);
    if (i < 0) {
        *vals = NULL;
        return 0;
    }
    *vals = c->vals[i].v;
    return c->vals[i].n;
}

int cmd_flag(const cmd_ctx *c, const char *name)
{
    return param_true(cmd_str(c, name));
}

keps_status cmd_usage_error(const cmd_ctx *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *m = cmd_vformat(c, fmt, ap);
    va_end(ap);
    cmd_error_text(c, KEPS_EINPUT, m ? m : "out of memory", 1);
    free(m);
    return KEPS_EINPUT;
}

keps_status cmd_fail(const cmd_ctx *c, const keps_error *err)
{
    keps_status st = err->code ? err->code : KEPS_EINPUT;
    cmd_error_text(c, st, err->msg[0] ? err->msg : "failed", 0);
    return st;
}

int cmd_require(const cmd_ctx *c, const char *name)
{
    if (cmd_str(c, name))
        return 0;
    int i = find_opt(c, name);
    const cmd_opt *o = i >= 0 ? c->opts[i] : NULL;
    char sp[128];
    int n = o && o->metavar && !strchr(o->example, '{') ? (int)strcspn(o->example, "\n") : -1; /* its first example */
    cmd_usage_error(c, "%s is required%s%s%s%.*s", SPELL(name), n >= 0 ? ", e.g. " : "",
                    n >= 0 ? cmd_spell(c, name, sp, sizeof sp) : "", n >= 0 ? " " : "", n >= 0 ? n : 0,
                    n >= 0 ? o->example : "");
    return -1;
}

const char *cmd_origin(const cmd_ctx *c, const char *name)
{
    static _Thread_local char buf[4200]; /* one per thread: hosts may run commands on several */
    int i = find_opt(c, name);
    if (i < 0 || !c->vals[i].origin)
        return "";
    snprintf(buf, sizeof buf, "%s: ", c->vals[i].origin);
    return buf;
}

int cmd_double(const cmd_ctx *c, const char *name, double lo, double hi, double dflt, double *out)
{
    const char *s = cmd_str(c, name);
    *out = dflt;
    if (!s)
        return 0;
    char *end;
    double v = strtod(s, &end);
    if (end > s && !*end && strpbrk(s, "xX")) { /* strtod reads hex floats; keps's numbers are decimal */
        cmd_usage_error(c, "%s%s '%s': hexadecimal numbers are not accepted; write it in decimal (%.17g)",
                        cmd_origin(c, name), SPELL(name), s, v);
        return -1;
    }
    if (end == s || *end || !(v >= lo && v <= hi)) {
        /* DBL_MIN and DBL_MAX stand for "above 0" and "finite": say so, not their digits. */
        char range[80];
        if (hi == DBL_MAX && lo == DBL_MIN)
            snprintf(range, sizeof range, "a finite number above 0");
        else if (hi == DBL_MAX)
            snprintf(range, sizeof range, "a finite number >= %.15g", lo);
        else
            snprintf(range, sizeof range, "a number in [%.15g, %.15g]", lo, hi);
        cmd_usage_error(c, "%s%s '%s': expected %s", cmd_origin(c, name), SPELL(name), s, range);
        return -1;
    }
    *out = v;
    return 1;
}

int cmd_long(const cmd_ctx *c, const char *name, long lo, long hi, long dflt, long *out)
{
    const char *s = cmd_str(c, name);
    *out = dflt;
    if (!s)
        return 0;
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10); /* clamps on overflow: ERANGE says so */
    if (end == s || *end || errno == ERANGE || v < lo || v > hi) {
        cmd_usage_error(c, "%s%s '%s': expected a whole number in [%ld, %ld]", cmd_origin(c, name), SPELL(name), s,
                        lo, hi);
        return -1;
    }
    *out = v;
    return 1;
}

int cmd_probability(const cmd_ctx *c, const char *name, double *p)
{
    const char *s = cmd_str(c, name);
    uint64_t num, den;
    keps_error err = {0};
    *p = NAN;
    if (!s)
        return 0;
    if (keps_parse_probability(s, &num, &den, &err)) {
        cmd_usage_error(c, "%s%s: %s", cmd_origin(c, name), SPELL(name), err.msg);
        return -1;
    }
    *p = (double)num / (double)den;
    if (!(*p > 0.0 && *p < 1.0)) {
        cmd_usage_error(c, "%s%s %s: expected a probability strictly between 0 and 1", cmd_origin(c, name),
                        SPELL(name), s);
        return -1;
    }
    return 1;
}

keps_status cmd_suppressed_mode(const cmd_ctx *c, keps_suppressed_mode *mode)
{
    const char *s = cmd_str(c, "suppressed");
    if (!s || !strcmp(s, "exclude"))
        *mode = KEPS_SUPPRESSED_EXCLUDE;
    else if (!strcmp(s, "class"))
        *mode = KEPS_SUPPRESSED_CLASS;
    else
        return cmd_usage_error(c, "{suppressed} '%s': expected exclude or class", s);
    return KEPS_OK;
}

/* ---- "did you mean" ---- */

/* Optimal string alignment distance (Levenshtein with adjacent swaps) of
 * a and b, at most 64 bytes each (longer words get no suggestion). */
static size_t edit_distance(const char *a, const char *b)
{
    size_t n = strlen(a), m = strlen(b);
    if (n > 64 || m > 64)
        return (size_t)-1;
    size_t d[65][65];
    for (size_t i = 0; i <= n; i++)
        d[i][0] = i;
    for (size_t j = 0; j <= m; j++)
        d[0][j] = j;
    for (size_t i = 1; i <= n; i++)
        for (size_t j = 1; j <= m; j++) {
            size_t best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < best)
                best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best)
                best = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[n][m];
}

const char *keps_nearest(const char *word, const char *const *cands, size_t n)
{
    const char *best = NULL;
    size_t bd = (size_t)-1, len = strlen(word);
    for (size_t i = 0; i < n; i++) {
        size_t e = edit_distance(word, cands[i]);
        if (e < bd) {
            bd = e;
            best = cands[i];
        }
    }
    /* a typo, not another word: 1 edit in a short name, 2 in a longer one */
    return best && bd <= (len <= 4 ? 1u : 2u) && bd < len ? best : NULL;
}

char *cmd_job_file(const cmd_ctx *c, const char *opt, const char *path)
{
    int i = find_opt(c, opt);
    return param_job_path(i >= 0 && c->vals[i].origin ? c->job_dir : NULL, path);
}

char *cmd_spec_path(const cmd_ctx *c, const char *opt, const keps_table *t, const char *spec)
{
    const char *rest;
    int i = find_opt(c, opt);
    if (i < 0 || !c->vals[i].origin || !c->job_dir || keps_table_column_spec(t, spec, &rest) < 0 || !rest ||
        !strcmp(rest, "numeric") || keps_hierarchy_is_spec(rest))
        return strdup(spec);
    char *path = param_job_path(c->job_dir, rest), *out = NULL;
    size_t n = path ? (size_t)(rest - spec) + strlen(path) + 1 : 0;
    if (path && (out = malloc(n)))
        snprintf(out, n, "%.*s%s", (int)(rest - spec), spec, path);
    free(path);
    return out;
}

/* Merges a job file: keys must be options of this command; values given on
 * the command line win. Relative paths in it resolve against its own
 * directory: FILE values here, the PATH of NAME:PATH values where the name
 * is resolved (cmd_spec_path). */

keps_status cmd_run_checked(cmd_ctx *c)
{
    long seed;
    /* Checked here, not at the first draw: a run that draws nothing (OLA
     * with keep-order) must still refuse a bad seed. */
    int rc = cmd_long(c, "seed", 0, __LONG_MAX__, 0, &seed);
    if (rc < 0)
        return KEPS_EINPUT;
    /* Said once, whether or not a draw follows. Commands that release
     * nothing (evaluate, audit) carry their own seed parameter: their
     * output is a measurement, so there is no privacy to lose, only a note. */
    if (rc > 0 && c->opts[find_opt(c, "seed")] != &cmd_opt_seed) {
        if (!c->quiet)
            cmd_msg(c, KEPS_MSG_NOTE,
                    "note: {seed} %ld makes the run reproducible; %s releases no data, so no privacy depends on it",
                    seed, c->cmd->name);
    } else if (rc > 0)
        cmd_msg(c, KEPS_MSG_PRIVACY,
                "warning: {seed} %ld makes the randomness reproducible; the output is NOT private. Use it for tests "
                "and experiments only.",
                seed);
    long th;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    if (cmd_long(c, "threads", 1, 64, cores < 1 ? 1 : cores > 64 ? 64 : cores, &th) < 0)
        return KEPS_EINPUT;
    c->threads = (int)th;
    if (find_opt(c, "threads") >= 0)
        keps_mdav_threads(c->threads); /* MDAV's setting is process-wide (keps/mdav.h) */
    return c->cmd->run(c);
}

keps_status cmd_error(const cmd_ctx *c, keps_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *m = cmd_vformat(c, fmt, ap);
    va_end(ap);
    cmd_error_text(c, st, m ? m : "out of memory", 0);
    free(m);
    return st;
}

const char *cmd_nearest(const char *word, const char *const *cands, size_t n)
{
    return keps_nearest(word, cands, n);
}
