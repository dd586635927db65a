/* The chores every method command shares. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "command_internal.h"
#include "keps/before_after.h"
#include "keps/ola.h"
#include "keps/search.h"
#include "keps/csv.h"
#include "keps/hierarchy.h"
#include "keps/progress.h"
#include "keps/version.h"

static keps_status parse_delim(const cmd_ctx *c, char *out)
{
    const char *d = cmd_str(c, "delimiter");
    *out = 0;
    if (!d)
        return KEPS_OK;
    if (strcmp(d, "tab") == 0 || strcmp(d, "\\t") == 0)
        *out = '\t';
    else if (strlen(d) == 1 && d[0] != '"' && d[0] != '\n' && d[0] != '\r')
        *out = d[0];
    else
        return cmd_usage_error(c, "{delimiter} '%s': give one character such as ',' ';' '|' or 'tab'", d);
    return KEPS_OK;
}

/* The separator the reader will sniff from a file's header, 0 when it
 * cannot be read ahead (stdin: the loaded table says it afterwards). */
static char sniff_file(const char *path)
{
    struct stat st; /* a FIFO or device cannot be read twice */
    if (strcmp(path, "-") == 0 || stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    char buf[65536];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    size_t skip = n >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0; /* a UTF-8 BOM */
    return keps_csv_sniff(buf + skip, n - skip);
}

/* A decimal comma needs another field separator. */
static keps_status comma_clash(const cmd_ctx *c, const char *path, char delim, int sniffed)
{
    if (delim != ',')
        return KEPS_OK;
    return cmd_usage_error(c,
                           "{decimal-comma}: the field separator of %s is ',' (%s), the decimal mark as well, so "
                           "170,5 would be two fields; give the file's separator with {delimiter} (e.g. {delimiter} ';', or {delimiter} tab; "
                           "for a file of one column any {delimiter} but ',' works)",
                           strcmp(path, "-") ? path : "stdin", sniffed ? "sniffed from its header" : CMD_SPELL(c, "delimiter"));
}

/* The in-memory table given for the parameter whose value is path
 * (keps_args_table), or NULL. */
static const keps_table *given_table(const cmd_ctx *c, const char *path)
{
    for (size_t i = 0; i < c->nopts; i++)
        for (size_t k = 0; c->vals[i].tables && k < c->vals[i].n; k++)
            if (c->vals[i].v[k] == path)
                return c->vals[i].tables[k];
    return NULL;
}

/* A copy of the caller's table t (the commands change theirs). */
static keps_table *copy_table(const keps_table *t, keps_error *err)
{
    size_t *rows = malloc((t->nrows ? t->nrows : 1) * sizeof *rows);
    if (!rows) {
        keps_error_set(err, KEPS_ENOMEM, "out of memory");
        return NULL;
    }
    for (size_t i = 0; i < t->nrows; i++)
        rows[i] = i;
    keps_table *r = keps_table_rows(t, rows, t->nrows, err);
    free(rows);
    return r;
}

/* A --qi value given with an in-memory hierarchy (keps_args_hierarchy):
 * "NAME:SOURCE", the hierarchy h. */
static keps_status add_given_qi(keps_schema *s, keps_table *t, const char *spec, const keps_table *h,
                                keps_error *err)
{
    size_t sl = strlen(h->source ? h->source : "<memory>"), n = strlen(spec);
    char *name = strndup(spec, n > sl ? n - sl - 1 : n); /* spec is NAME:SOURCE */
    if (!name)
        return keps_error_set(err, KEPS_ENOMEM, "out of memory");
    int col = keps_table_column(t, name);
    keps_status st = col < 0 ? keps_table_no_column(err, t, name) : KEPS_OK;
    free(name);
    keps_table *levels = st ? NULL : copy_table(h, err);
    keps_hierarchy *hh = NULL;
    if (!st && !levels)
        st = err ? err->code : KEPS_ENOMEM;
    if (!st && !(st = keps_hierarchy_from_table(levels, &hh, err)))
        st = keps_schema_add_qi_hierarchy(s, (size_t)col, hh, err);
    return st;
}

keps_status cmd_load_table(cmd_ctx *c, const char *path, keps_table **t)
{
    const keps_table *given = given_table(c, path);
    if (given) { /* the caller's table stays as it is: the command works on a copy */
        keps_error err = {0};
        *t = copy_table(given, &err);
        return *t ? KEPS_OK : cmd_fail(c, &err);
    }
    keps_csv_options o = {0};
    keps_status rc = parse_delim(c, &o.delimiter);
    if (rc)
        return rc;
    int dc = cmd_flag(c, "decimal-comma");
    if (dc && (rc = comma_clash(c, path, o.delimiter ? o.delimiter : sniff_file(path), !o.delimiter)))
        return rc;
    o.missing = cmd_str(c, "missing");
    keps_error err = {0};
    if (keps_csv_read(path, &o, t, &err))
        return cmd_fail(c, &err);
    if (keps_progress_cancelled()) { /* the host cancelled while it was read: stop here */
        keps_table_free(*t);
        *t = NULL;
        return KEPS_EINPUT;
    }
    if (dc && (rc = comma_clash(c, path, (*t)->delimiter, !o.delimiter))) {
        keps_table_free(*t);
        *t = NULL;
        return rc;
    }
    (*t)->decimal_comma = dc;
    return KEPS_OK;
}

keps_status cmd_digits(const cmd_ctx *c, const keps_table *t, const size_t *cols, size_t m, int **digits)
{
    const char *v = cmd_str(c, "digits");
    long n = -2;
    if (v && strcmp(v, "exact") != 0) {
        char *end;
        errno = 0;
        n = strtol(v, &end, 10);
        if (end == v || *end || errno || n < 0 || n > KEPS_DIGITS_MAX)
            return cmd_usage_error(c, "%s--digits '%s': expected a whole number of decimals in [0, %d] or 'exact'",
                                   cmd_origin(c, "digits"), v, KEPS_DIGITS_MAX);
    } else if (v) {
        n = -1;
    }
    if (!(*digits = malloc((m ? m : 1) * sizeof **digits)))
        return cmd_usage_error(c, "out of memory");
    for (size_t j = 0; j < m; j++)
        (*digits)[j] = n >= -1 ? (int)n : keps_table_decimals(t, cols[j]);
    return KEPS_OK;
}

void cmd_report_digits(keps_json *j, const keps_table *t, const size_t *cols, size_t m, const int *digits)
{
    keps_json_object(j, "digits");
    for (size_t a = 0; a < m; a++) {
        if (digits[a] < 0)
            keps_json_str(j, t->cols[cols[a]].name, "exact");
        else
            keps_json_int(j, t->cols[cols[a]].name, digits[a]);
    }
    keps_json_end(j);
}

keps_status cmd_load_input(cmd_ctx *c, keps_table **t)
{
    if (cmd_require(c, "input"))
        return KEPS_EINPUT;
    keps_status rc = cmd_load_table(c, cmd_str(c, "input"), t);
    if (!rc)
        c->input = *t;
    return rc;
}

keps_status cmd_load_records(cmd_ctx *c, keps_table **t)
{
    keps_status rc = cmd_load_input(c, t);
    if (!rc && (*t)->nrows == 0) { /* a failed load leaves no table to the caller */
        keps_error err = {0};
        keps_error_set(&err, KEPS_EINPUT, "%s: no records after the header: nothing to release", (*t)->source);
        cmd_fail(c, &err);
        keps_table_free(*t);
        *t = NULL;
        c->input = NULL;
        rc = KEPS_EINPUT;
    }
    return rc;
}

keps_status cmd_build_schema(cmd_ctx *c, keps_table *t, keps_schema **out)
{
    return cmd_build_schema_extra(c, t, NULL, 0, out);
}

/* A role value that failed: when it came from a job file, say where, and
 * that a YAML flow list splits "age:interval=5,10,20" at its commas. */
static void schema_value_origin(const cmd_ctx *c, const char *opt, const char *value)
{
    const char *o = cmd_origin(c, opt);
    if (!*o)
        return;
    char fl[128], *m;
    if ((m = cmd_strf("%sthe %s value '%s' came from here%s", o, cmd_spell(c, opt, fl, sizeof fl), value,
                 strspn(value, "0123456789.") == strlen(value)
                     ? "; YAML splits a [...] list at every comma: quote a value that holds commas, e.g. "
                       "[\"age:interval=5,10,20\"]"
                     : ""))) {
        cmd_error_text(c, c->status, m, 0);
        free(m);
    }
}

keps_status cmd_build_schema_extra(cmd_ctx *c, keps_table *t, char **extra_qi, size_t nextra, keps_schema **out)
{
    keps_error err = {0};
    keps_schema *s = keps_schema_new(t);
    if (!s) {
        return cmd_oom(c);
    }
    const char *others = cmd_str(c, "others");
    if (others && strcmp(others, "keep") == 0)
        s->others = KEPS_OTHERS_KEEP;
    else if (others && strcmp(others, "drop") == 0)
        s->others = KEPS_OTHERS_DROP;
    else if (others) {
        keps_schema_free(s);
        return cmd_usage_error(c, "{others} '%s': expected keep or drop", others);
    }
    char **v;
    size_t n = cmd_list(c, "qi", &v);
    keps_status st = KEPS_OK;
    const char *bad_opt = NULL, *bad_val = NULL;
    for (size_t i = 0; i < n && !st; i++) {
        const keps_table *h = given_table(c, v[i]);
        char *spec = h ? NULL : cmd_spec_path(c, "qi", t, v[i]); /* a job file's paths are relative to it */
        if ((st = h ? add_given_qi(s, t, v[i], h, &err) : keps_schema_add_qi(s, t, spec ? spec : v[i], &err))) {
            bad_opt = "qi";
            bad_val = v[i];
        }
        free(spec);
    }
    for (size_t i = 0; i < nextra && !st; i++)
        st = keps_schema_add_qi(s, t, extra_qi[i], &err);
    static const struct {
        const char *opt;
        keps_role role;
    } roles[] = {{"noisy", KEPS_ROLE_NOISY},
                 {"sensitive", KEPS_ROLE_SENSITIVE},
                 {"insensitive", KEPS_ROLE_INSENSITIVE},
                 {"identifier", KEPS_ROLE_IDENTIFIER}};
    for (size_t r = 0; r < sizeof roles / sizeof *roles && !st; r++) {
        n = cmd_list(c, roles[r].opt, &v);
        for (size_t i = 0; i < n && !st; i++) {
            const char *name = v[i], *rest = NULL; /* --sensitive NAME:HIERARCHY (t-closeness's) */
            int col = roles[r].role == KEPS_ROLE_SENSITIVE ? keps_table_column_spec(t, v[i], &rest) : -1;
            if (col >= 0 && rest)
                name = t->cols[col].name;
            if ((st = keps_schema_set_role(s, name, roles[r].role, &err))) {
                bad_opt = roles[r].opt;
                bad_val = v[i];
            }
        }
    }
    if (!st)
        st = cmd_counts_role(c, s, &err); /* --counts COL is released with the tuples */
    if (!st && (st = keps_schema_check(s, &err))) { /* the schema names roles; these are their parameters */
        char *hint = cmd_strf(" (%s, %s, ...; %s keep|drop)", cmd_spell(c, "qi", (char[128]){0}, 128),
                              cmd_spell(c, "sensitive", (char[128]){0}, 128), cmd_spell(c, "others", (char[128]){0}, 128));
        if (hint)
            strncat(err.msg, hint, sizeof err.msg - strlen(err.msg) - 1);
        free(hint);
    }
    if (st) {
        keps_schema_free(s);
        keps_status rc = cmd_fail(c, &err);
        if (bad_opt)
            schema_value_origin(c, bad_opt, bad_val);
        return rc;
    }
    *out = s;
    c->schema = s; /* for the release's comparison with its input */
    return KEPS_OK;
}

keps_rng *cmd_rng(cmd_ctx *c)
{
    if (c->rng)
        return c->rng;
    long seed;
    int given = cmd_long(c, "seed", 0, __LONG_MAX__, 0, &seed);
    if (given < 0)
        return NULL;
    if (given) { /* cmd_parse has warned that the output is not private */
        c->rng = keps_rng_new_seeded((uint64_t)seed);
    } else {
        c->rng = keps_rng_new();
    }
    if (!c->rng)
        cmd_error_text(c, KEPS_EIO, "cannot initialize the random number generator (libsodium)", 0);
    return c->rng;
}

/* The attributes a method changes: QIs, noisy and sensitive columns. */
static const char **schema_names(const keps_schema *s, size_t *nq, size_t *na)
{
    size_t n = s->nqi + s->nnoisy + s->nsensitive;
    const char **v = malloc((n ? n : 1) * sizeof *v);
    if (!v)
        return NULL;
    const keps_table *t = s->t;
    size_t k = 0;
    for (size_t i = 0; i < s->nqi; i++)
        v[k++] = t->cols[s->qi[i].col].name;
    *nq = k;
    for (size_t i = 0; i < s->nnoisy; i++)
        v[k++] = t->cols[s->noisy[i]].name;
    for (size_t i = 0; i < s->nsensitive; i++)
        v[k++] = t->cols[s->sensitive[i]].name;
    *na = k;
    return v;
}

/* The release against its input (keps/before_after.h), kept for the
 * report (cmd_report_begin); only when someone will see the report. */
static keps_status compare_release(cmd_ctx *c, const keps_table *release)
{
    if (!c->schema || !c->json) /* c->json: the host looks at the report */
        return KEPS_OK;
    size_t nq = 0, na = 0;
    const char **names = schema_names(c->schema, &nq, &na);
    keps_json j;
    keps_json_init(&j);
    keps_error err = {0};
    keps_before_after_opts opts = {0, 0, 0, c->schema->t == c->input ? c->offered : NULL};
    keps_status st = names ? keps_before_after_json(&j, NULL, c->schema->t, release, names, nq, names, na, &opts, &err)
                           : KEPS_ENOMEM;
    const char *text = keps_json_text(&j);
    if (!st && text)
        c->before_after = strdup(text);
    keps_json_free(&j);
    free(names);
    if (!st && !c->before_after)
        st = keps_error_set(&err, KEPS_ENOMEM, "out of memory comparing the release with its input");
    return st ? cmd_fail(c, &err) : KEPS_OK;
}

/* The release goes into the result with its row order, drawn now. */
static keps_status write_release(cmd_ctx *c, keps_table **release, int keep);

keps_status cmd_write_release(cmd_ctx *c, keps_table **release)
{
    int keep = cmd_flag(c, "keep-order");
    if (keep) /* a privacy warning: sent even when quiet */
        cmd_msg(c, KEPS_MSG_PRIVACY, "warning: {keep-order} writes rows in input order; row order can leak which "
                                     "record is which");
    return write_release(c, release, keep);
}

keps_status cmd_write_release_ordered(cmd_ctx *c, keps_table **release)
{
    return write_release(c, release, 1);
}

static keps_status write_release(cmd_ctx *c, keps_table **release, int keep)
{
    char delim;
    keps_status rc = parse_delim(c, &delim);
    if (rc)
        return rc;
    keps_rng *rng = keep ? NULL : cmd_rng(c);
    if (!keep && !rng)
        return KEPS_EINPUT;
    uint32_t *order = NULL;
    if (!keep && !(order = keps_rng_permutation(rng, (*release)->nrows)))
        return cmd_oom(c);
    if (!delim) /* the input's own separator, sniffed or given (CLI.md: -d is both sides') */
        delim = c->input && c->input->delimiter ? c->input->delimiter : ',';
    if ((rc = compare_release(c, *release))) {
        free(order);
        return rc;
    }
    keps_output *o = cmd_output_new(c, "output");
    if (!o) {
        free(order);
        return cmd_oom(c);
    }
    o->table = *release;
    o->order = order;
    o->delimiter = delim;
    *release = NULL;
    cmd_output_sync(c);
    return KEPS_OK;
}

keps_status cmd_stage_text(cmd_ctx *c, const char *param, const char *text, size_t len)
{
    keps_output *o = cmd_output_new(c, param);
    if (!o || !(o->text = malloc(len + 1)))
        return cmd_oom(c);
    memcpy(o->text, text, len);
    o->text[len] = '\0';
    o->len = len;
    return KEPS_OK;
}

keps_status cmd_stage_table(cmd_ctx *c, const char *param, keps_table **t, char delimiter)
{
    keps_output *o = cmd_output_new(c, param);
    if (!o)
        return cmd_oom(c);
    o->table = *t;
    o->delimiter = delimiter;
    *t = NULL;
    cmd_output_sync(c);
    return KEPS_OK;
}

keps_status cmd_oom(const cmd_ctx *c)
{
    cmd_error_text(c, KEPS_ENOMEM, "out of memory", 0);
    return KEPS_ENOMEM;
}

keps_status cmd_k_above_records(const cmd_ctx *c, size_t k, size_t n)
{
    if (k <= n)
        return KEPS_OK;
    keps_error err = {0};
    keps_error_set(&err, KEPS_EJOB, "k = %zu is larger than the number of records (%zu): every record would be "
                                    "suppressed whatever the generalization; lower k",
                   k, n);
    return cmd_fail(c, &err);
}

keps_status cmd_over_limit(const cmd_ctx *c, const char *what, size_t k, size_t limit, size_t need, size_t n)
{
    int has_suppress = 0;
    for (size_t i = 0; i < c->nopts; i++)
        has_suppress |= c->opts[i] == &cmd_opt_suppress;
    char *m, fs[128], fk[128];
    cmd_spell(c, "suppress", fs, sizeof fs);
    cmd_spell(c, "k", fk, sizeof fk);
    if (has_suppress) /* rounded up so that floor(s * n) >= need still holds */
        m = cmd_strf("no partition is %zu-anonymous with at most %zu of %zu rows suppressed: %s leaves %zu rows in "
                         "classes smaller than %zu. The lowest suppression that works is %s %.6f; or lower %s or "
                         "use fewer QIs.",
                     k, limit, n, what, need, k, fs, ceil((double)need / (double)n * 1e6) / 1e6, fk);
    else
        m = cmd_strf("no partition is %zu-anonymous with at most %zu of %zu rows suppressed: %s leaves %zu rows in "
                         "classes smaller than %zu. Lower %s or use fewer QIs.",
                     k, limit, n, what, need, k, fk);
    cmd_error_text(c, KEPS_EJOB, m ? m : "out of memory", 0);
    free(m);
    return KEPS_EJOB;
}

void cmd_report_total(const cmd_ctx *c, keps_json *j)
{
    keps_json_object(j, "timing_ms");
    keps_json_num(j, "total", cmd_now_ms() - c->t_start);
    keps_json_end(j);
}

/* The report with the release's comparison with its input as its last
 * member (after the method's own figures); NULL when out of memory. */
static char *with_before_after(const char *js, const char *ba)
{
    size_t n = strlen(js);
    if (n < 2 || js[n - 1] != '}') /* not an object: nothing to add to */
        return strdup(js);
    size_t len = n + strlen(ba) + 32;
    char *s = malloc(len);
    if (s)
        snprintf(s, len, "%.*s%s\"before_after\":%s}", (int)(n - 1), js, n > 2 ? "," : "", ba);
    return s;
}

keps_status cmd_emit_report(cmd_ctx *c, keps_json *j, const char *text)
{
    keps_result *r = c->res;
    const char *js = keps_json_text(j);
    char *joined = c->before_after && js ? with_before_after(js, c->before_after) : js ? strdup(js) : NULL;
    if (!joined)
        return cmd_oom(c);
    free(r->report);
    r->report = joined;
    if (text && !(r->summary = strdup(text)))
        return cmd_oom(c);
    return KEPS_OK;
}

keps_status cmd_emit_finding(cmd_ctx *c, keps_json *j, const char *text, int failed)
{
    c->res->finding = failed != 0;
    return cmd_emit_report(c, j, text);
}

void cmd_report_counts(keps_json *j, const keps_counts *n)
{
    keps_json_int(j, "input_rows", (long long)n->input_rows);
    keps_json_int(j, "output_rows", (long long)n->output_rows);
    keps_json_int(j, "released_rows",
                  (long long)(n->input_rows - n->suppressed_rows - n->unsampled_rows));
    keps_json_int(j, "suppressed_rows", (long long)n->suppressed_rows);
    keps_json_int(j, "removed_rows", (long long)n->removed_rows);
    keps_json_int(j, "unsampled_rows", (long long)n->unsampled_rows);
}

/* A number in JSON's own grammar: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
static int json_number(const char *s)
{
    if (*s == '-')
        s++;
    if (*s == '0')
        s++;
    else if (*s >= '1' && *s <= '9')
        while (*s >= '0' && *s <= '9')
            s++;
    else
        return 0;
    if (*s == '.') {
        if (!(*++s >= '0' && *s <= '9'))
            return 0;
        while (*s >= '0' && *s <= '9')
            s++;
    }
    if (*s == 'e' || *s == 'E') {
        s++;
        if (*s == '+' || *s == '-')
            s++;
        if (!(*s >= '0' && *s <= '9'))
            return 0;
        while (*s >= '0' && *s <= '9')
            s++;
    }
    return *s == '\0';
}

static int strtod_whole(const char *s, double *x)
{
    char *end;
    errno = 0;
    *x = strtod(s, &end);
    return end != s && !*end && !errno && isfinite(*x);
}

/* Parameters keep their types: a script compares "k" with 5, not "5". A
 * number is written as the user spelled it (0.05 stays 0.05, a 20-digit
 * seed keeps its digits), one JSON cannot spell (.5, 05) as its value; a
 * value that is no number (1/3) stays a string, exactly as given. */
static void report_param(keps_json *j, const char *key, const cmd_opt *o, const char *v)
{
    double x;
    if (!o->metavar && (!strcmp(v, "true") || !strcmp(v, "false")))
        keps_json_bool(j, key, !strcmp(v, "true"));
    else if ((o->flags & CLI_NUMBER) && json_number(v) && strtod_whole(v, &x))
        keps_json_raw(j, key, v); /* finite: 1e999 is JSON's grammar but no double */
    else if ((o->flags & CLI_NUMBER) && strtod_whole(v, &x))
        keps_json_num(j, key, x);
    else
        keps_json_str(j, key, v);
}

void cmd_report_parameters(const cmd_ctx *c, keps_json *j)
{
    keps_json_object(j, "parameters");
    for (size_t i = 0; i < c->nopts; i++) {
        const cmd_opt *o = c->opts[i];
        if (!c->vals[i].n || !strcmp(o->name, "json") || !strcmp(o->name, "quiet") || !strcmp(o->name, "help") ||
            (o->flags & KEPS_PARAM_POSITIONAL)) /* the positional ones are the report's own keys */
            continue;
        if (o->flags & CLI_REPEAT) {
            keps_json_array(j, o->name);
            for (size_t k = 0; k < c->vals[i].n; k++)
                report_param(j, NULL, o, c->vals[i].v[k]);
            keps_json_end(j);
        } else {
            report_param(j, o->name, o, c->vals[i].v[c->vals[i].n - 1]);
        }
    }
    keps_json_end(j);
}

void cmd_report_begin(cmd_ctx *c, keps_json *j, const char *method)
{
    keps_json_init(j);
    keps_json_object(j, NULL);
    keps_json_str(j, "keps_version", keps_version());
    keps_json_str(j, "method", method);
    cmd_report_parameters(c, j);
    keps_json_bool(j, "seeded", cmd_str(c, "seed") != NULL); /* seeded output is not private */
    if (c->counts_rows) /* --counts: the report's counts are records */
        cmd_counts_json(c, j);
    if (c->input) {
        /* Missing values are a value of their own; say how many there were. */
        keps_json_object(j, "missing_values");
        for (size_t k = 0; k < c->input->ncols; k++) {
            size_t n = c->counts_missing ? c->counts_missing[k] : c->input->cols[k].missing_count;
            if (n)
                keps_json_int(j, c->input->cols[k].name, (long long)n);
        }
        keps_json_end(j);
    }
}

double cmd_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

void cmd_progress(cmd_ctx *c, const char *what, double done, double total)
{
    (void)c;
    keps_progress(what, done, total);
}

const char *cmd_spell(const cmd_ctx *c, const char *name, char *buf, size_t len)
{
    const keps_host *h = c ? c->host : NULL;
    if (h && h->spell)
        return h->spell(h->ud, name, buf, len);
    snprintf(buf, len, "%s", name);
    return buf;
}

/* "a", "a or b", "a, b or c" from "a|b|c". */
static const char *mode_list(const char *modes, char *buf, size_t len)
{
    size_t n = 0, at = 0, parts = 1;
    for (const char *p = modes; *p; p++)
        parts += *p == '|';
    for (const char *p = modes; *p && at + 1 < len; p += *p == '|') {
        size_t w = strcspn(p, "|");
        const char *sep = n == 0 ? "" : n + 1 == parts ? " or " : ", ";
        int r = snprintf(buf + at, len - at, "%s%.*s", sep, (int)w, p);
        at = r > 0 && at + (size_t)r < len ? at + (size_t)r : len - 1;
        p += w;
        n++;
    }
    return buf;
}

static int mode_in(const char *mode, const char *modes)
{
    size_t m = strlen(mode);
    for (const char *p = modes; *p; p += *p == '|') {
        size_t w = strcspn(p, "|");
        if (w == m && strncmp(p, mode, m) == 0)
            return 1;
        p += w;
    }
    return 0;
}

/* Whether option o's value asks for something: a flag unless false/no/0;
 * for a note also any value but the number 0 (--suppress 0, a script's
 * generic default, asks for nothing); for a refusal any value. */
static int asks(const cmd_opt *o, const char *v, int refuse)
{
    if (!v)
        return 0;
    if (!o->metavar || !refuse) {
        if (!strcmp(v, "false") || !strcmp(v, "no") || !strcmp(v, "0"))
            return 0;
        char *end;
        double d = strtod(v, &end);
        if (o->metavar && end != v && !*end && d == 0)
            return 0;
    }
    return 1;
}

keps_status cmd_mode_options(const cmd_ctx *c, const char *sel, const char *mode, const cmd_mode_opt *tbl, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const cmd_opt *o = NULL;
        for (size_t k = 0; k < c->nopts && !o; k++)
            o = strcmp(c->opts[k]->name, tbl[i].opt) == 0 ? c->opts[k] : NULL;
        if (!o || mode_in(mode, tbl[i].modes) || !asks(o, cmd_str(c, o->name), tbl[i].refuse))
            continue;
        char fb[64], mb[256];
        cmd_spell(c, o->name, fb, sizeof fb);
        mode_list(tbl[i].modes, mb, sizeof mb);
        /* sel, the modes and why hold {name} markup */
        const keps_host *h = c->host;
        char *rs = keps_render(sel, h->spell, h->ud), *rm = keps_render(mb, h->spell, h->ud);
        char *rmode = keps_render(mode, h->spell, h->ud), *rw = keps_render(tbl[i].why, h->spell, h->ud);
        keps_status rc = KEPS_OK;
        if (!rs || !rm || !rmode || !rw)
            rc = cmd_oom(c);
        else if (tbl[i].refuse)
            rc = cmd_usage_error(c, "%s%s applies to %s%s only, not %s: %s", cmd_origin(c, o->name), fb, rs, rm, rmode,
                                 rw);
        else if (!c->quiet)
            cmd_msg(c, KEPS_MSG_NOTE, "note: %s%s applies to %s%s only and is ignored: %s", cmd_origin(c, o->name), fb,
                    rs, rm, rw);
        free(rs);
        free(rm);
        free(rmode);
        free(rw);
        if (rc)
            return rc;
    }
    return KEPS_OK;
}

void cmd_note_lattice(const cmd_ctx *c, const keps_lattice *L)
{
    if (L->nnodes < 10000000)
        return;
    /* measured peaks above a 14 MB base (bench/ola_qis.py): 4.2 bytes per
     * node at 14M nodes, 2.8 at 43M, 2.2 at 129M, 2.0 at 387M (the tags
     * are one; the Kmin memo grows more slowly than the lattice) */
    double need = 4.0 * (double)L->nnodes, have = (double)sysconf(_SC_PHYS_PAGES) * (double)sysconf(_SC_PAGESIZE);
    int short_of_memory = have > 0 && need > have;
    if (c->quiet && !short_of_memory)
        return;
    cmd_msg(c, short_of_memory ? KEPS_MSG_WARNING : KEPS_MSG_NOTE,
            "%s: the generalization lattice has %llu nodes (%zu QIs); OLA's time and memory grow with "
            "it: expect up to about %.*f %s%s (measured on 2 cores, 500 rows: 43M nodes 6 s and 0.13 GB, 387M nodes "
            "52 s and 0.8 GB); fewer QIs or shorter hierarchies shrink it",
            short_of_memory ? "warning" : "note", (unsigned long long)L->nnodes, L->q,
            need < 1e9 ? 0 : 1, need < 1e9 ? need / 1e6 : need / 1e9, need < 1e9 ? "MB" : "GB",
            short_of_memory ? ", more than this machine's memory, so the search will likely fail" : "");
}

size_t cmd_print_columns(FILE *f, const keps_table *t, int (*pick)(const void *ctx, size_t col), const void *ctx)
{
    size_t n = 0;
    for (size_t j = 0; j < t->ncols; j++) {
        if (!pick(ctx, j))
            continue;
        if (f)
            fprintf(f, "%s%s", n ? ", " : "", t->cols[j].name);
        n++;
    }
    return n;
}

/* A QI column with a hierarchy. */
static int has_hierarchy(const void *ctx, size_t col)
{
    const keps_schema *s = ctx;
    for (size_t q = 0; q < s->nqi; q++)
        if (s->qi[q].col == col && s->qi[q].h)
            return 1;
    return 0;
}

void cmd_note_unused_hierarchies(const cmd_ctx *c, const keps_schema *s, const char *why)
{
    if (c->quiet || !cmd_print_columns(NULL, s->t, has_hierarchy, s))
        return;
    char *cols = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&cols, &len);
    if (!f)
        return;
    cmd_print_columns(f, s->t, has_hierarchy, s);
    char *w = keps_render(why, c->host->spell, c->host->ud); /* why holds {name} markup */
    if (fclose(f) == 0)
        cmd_msg(c, KEPS_MSG_NOTE, "note: the hierarchy of {qi} %s is not used: %s", cols, w ? w : why);
    free(cols);
    free(w);
}

void cmd_ola_debug(const cmd_ctx *c, const keps_ola_result *r)
{
    if (!c->host->debug)
        return;
    const keps_ola_stats *s = &r->stats;
    if (s->thread_evaluated[0] || s->thread_evaluated[1])
        cmd_msg(c, KEPS_MSG_NOTE, "threads: %llu + %llu evaluated, %llu + %llu classes rolled up",
                (unsigned long long)s->thread_evaluated[0], (unsigned long long)s->thread_evaluated[1],
                (unsigned long long)s->thread_rolled_up[0], (unsigned long long)s->thread_rolled_up[1]);
    cmd_msg(c, KEPS_MSG_NOTE, "kmin phase: %llu evaluated, %llu classes rolled up, %zu calls, %llu of %llu nodes tagged",
            (unsigned long long)s->kmin_evaluated, (unsigned long long)s->kmin_rolled_up, s->kmin_calls,
            (unsigned long long)s->nodes_tagged, (unsigned long long)r->nodes_total);
    cmd_msg(c, KEPS_MSG_NOTE, "after optimum: %llu evaluated, %llu classes rolled up into %llu",
            (unsigned long long)s->evaluated, (unsigned long long)s->rolled_up, (unsigned long long)s->classes_made);
}

void cmd_search_debug(const cmd_ctx *c, const keps_search_result *r)
{
    if (!c->host->debug)
        return;
    const keps_search_stats *s = &r->stats;
    cmd_msg(c, KEPS_MSG_NOTE,
            "search: %llu popped, %llu climbs, %llu evaluated, %llu scored, %llu fail the bounds, %llu pass them "
            "but fail, best %.17g",
            (unsigned long long)s->popped, (unsigned long long)s->climbs, (unsigned long long)r->nodes_evaluated,
            (unsigned long long)s->scored, (unsigned long long)s->fails, (unsigned long long)s->falsepass,
            r->found && r->score_len ? r->score[0] : INFINITY);
}
