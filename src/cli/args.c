/* The CLI's argv parsing and job-file merging into a command's parameters
 * (the catalog, keps/command.h), its checks of the outputs, and help and
 * man page rendered from the catalog. */
#define _XOPEN_SOURCE 700 /* realpath(), XSI in glibc's headers */
#include <float.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "exit_code.h"
#include "param_lookup.h"
#include "job.h"
#include "keps/hierarchy.h"
#include "keps/outfile.h"
#include "keps/version.h"

/* ---- accessors ---- */

/* The same lookup as the command layer's (param_lookup.h). */
static int find_opt(const kc_ctx *c, const char *name)
{
    return param_index(c->opts, c->nopts, name);
}

const char *kc_str(const kc_ctx *c, const char *name)
{
    int i = find_opt(c, name);
    return i < 0 ? NULL : param_last(c->vals[i].v, c->vals[i].n);
}

int kc_flag(const kc_ctx *c, const char *name)
{
    return param_true(kc_str(c, name));
}

const char *kc_spell(void *ud, const char *name, char *buf, size_t len)
{
    const kc_ctx *c = ud;
    const keps_param_info *p = c ? keps_command_param(c->cmd, name) : NULL;
    const keps_command_info *const *all;
    size_t n = keps_commands(&all);
    for (size_t i = 0; !p && i < n; i++) /* a parameter of another command ("keps split -i ...") */
        p = keps_command_param(all[i], name);
    /* "-k" for a one-letter parameter with that short form; the short form
     * of the parameters docs/cli.md writes short ("-i FILE -o FILE", "-d ';'",
     * "-n COUNT"); else "--name" */
    static const char *const short_ones[] = {"input", "output", "delimiter", "count", "categories"};
    int brief = strlen(name) == 1 && (!p || p->shortc == name[0]);
    for (size_t i = 0; !brief && p && p->shortc && i < sizeof short_ones / sizeof *short_ones; i++)
        brief = strcmp(name, short_ones[i]) == 0;
    if (brief && strlen(name) > 1)
        snprintf(buf, len, "-%c", p->shortc);
    else
        snprintf(buf, len, "%s%s", brief ? "-" : "--", name);
    return buf;
}

int kc_usage_error(const kc_ctx *c, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "keps %s: ", c && c->cmd ? c->cmd->name : "");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n(see 'keps %s --help')\n", c && c->cmd ? c->cmd->name : "help");
    return 2;
}

int kc_fail(const kc_ctx *c, const keps_error *err)
{
    fprintf(stderr, "keps %s: %s\n", c && c->cmd ? c->cmd->name : "", err->msg[0] ? err->msg : "failed");
    return cli_exit_code(err->code ? err->code : KEPS_EINPUT);
}

/* ---- help ---- */

/* Prints text word-wrapped to 80 columns, each line indented. */
static void wrap(FILE *f, const char *text, int indent)
{
    const int width = 80;
    int col = 0;
    for (const char *p = text; *p;) {
        while (*p == ' ')
            p++;
        size_t n = strcspn(p, " ");
        if (!n)
            break;
        if (col > 0 && col + 1 + (int)n > width) {
            fputc('\n', f);
            col = 0;
        }
        if (col == 0)
            col = fprintf(f, "%*s", indent, "");
        else
            col += fprintf(f, " ");
        col += fprintf(f, "%.*s", (int)n, p);
        p += n;
    }
    fputc('\n', f);
}

/* A catalog text with its {name} markup in the CLI's spelling (malloc'd). */
static char *render(const keps_command_info *cmd, const char *text)
{
    kc_ctx c = {.cmd = cmd};
    char *r = keps_render(text, kc_spell, &c);
    return r ? r : strdup(text);
}

/* A parameter's example as a user types it: each value after the flag
 * (spelled as in messages), quoted for the shell where needed; an
 * example holding {name} markup is a whole fragment. Malloc'd. */
static char *example(const keps_command_info *cmd, const keps_param_info *o)
{
    if (strchr(o->example, '{'))
        return render(cmd, o->example);
    char *out = NULL, flag[96];
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    if (!f)
        return strdup(o->example);
    kc_ctx c = {.cmd = cmd};
    kc_spell(&c, o->name, flag, sizeof flag); /* as messages spell it */
    for (const char *v = o->example, *first = v;; v++) {
        size_t n = strcspn(v, "\n");
        fprintf(f, "%s%s", v == first ? "" : " ", flag);
        if (o->metavar) {
            int quote = n == 0 || strspn(v, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./:=,@%+-") < n;
            fprintf(f, quote ? " '%.*s'" : " %.*s", (int)n, v);
        }
        v += n;
        if (!*v)
            break;
    }
    fclose(f);
    return out;
}

static void print_opt(FILE *f, const keps_command_info *cmd, const keps_param_info *o)
{
    char head[96];
    if (o->shortc)
        snprintf(head, sizeof head, "-%c, --%s%s%s", o->shortc, o->name, o->metavar ? " " : "", o->metavar ? o->metavar : "");
    else
        snprintf(head, sizeof head, "--%s%s%s", o->name, o->metavar ? " " : "", o->metavar ? o->metavar : "");
    char help[1024], *h = render(cmd, o->help);
    snprintf(help, sizeof help, "%s%s", h ? h : "",
             o->flags & KEPS_PARAM_REPEAT && !strstr(o->help, "repeatable") ? " (repeatable)" : "");
    free(h);
    fprintf(f, "  %s\n", head);
    wrap(f, help, 6);
    char *ex = example(cmd, o);
    fprintf(f, "      example: %s\n", ex);
    free(ex);
}

void kc_print_help(FILE *f, const keps_command_info *cmd)
{
    char *usage = render(cmd, cmd->usage), *desc = render(cmd, cmd->description), *ex = render(cmd, cmd->example);
    fprintf(f, "usage: keps %s\n\n", usage);
    wrap(f, desc, 0);
    fputc('\n', f);
    fprintf(f, "options:\n");
    for (size_t i = 0; i < cmd->nparams; i++)
        if (!(cmd->params[i].flags & KEPS_PARAM_POSITIONAL))
            print_opt(f, cmd, &cmd->params[i]);
    fprintf(f, "\nexample:\n  keps %s\n\nexit codes: 0 success; 1 the job could not be done; 2 bad usage or bad input; 3 an "
               "I/O or resource failure (a full disk, a read-only file system, out of memory).\n",
            ex);
    free(usage);
    free(desc);
    free(ex);
}

/* roff needs backslashes and leading dots escaped. */
static void roff(FILE *f, const char *s)
{
    if (*s == '.' || *s == '\'')
        fputs("\\&", f);
    for (; *s; s++) {
        if (*s == '\\')
            fputs("\\e", f);
        else if (*s == '-')
            fputs("\\-", f);
        else if (*s == '\n' && (s[1] == '.' || s[1] == '\''))
            fputs("\n\\&", f);
        else
            putc(*s, f);
    }
}

static void man_opt(FILE *f, const keps_command_info *cmd, const keps_param_info *o)
{
    fputs(".TP\n.B ", f);
    if (o->shortc)
        fprintf(f, "\\-%c, ", o->shortc);
    fputs("\\-\\-", f);
    roff(f, o->name);
    if (o->metavar) {
        fputs(" \\fI", f);
        roff(f, o->metavar);
        fputs("\\fR", f);
    }
    fputs("\n", f);
    char *h = render(cmd, o->help);
    roff(f, h);
    size_t hl = strlen(h);
    fputs(hl && h[hl - 1] == '.' ? " Example: " : ". Example: ", f);
    free(h);
    char *ex = example(cmd, o);
    roff(f, ex);
    free(ex);
    fputs("\n", f);
}

void kc_print_man(FILE *f)
{
    fputs(".TH KEPS 1 \"\" \"keps " KEPS_VERSION "\" \"User Commands\"\n.SH NAME\nkeps \\- publish personal "
          "microdata safely: k\\-anonymity and differential privacy\n.SH SYNOPSIS\n.B keps\n.I command\n"
          "[\\fIoptions\\fR]\n.SH DESCRIPTION\n",
          f);
    roff(f, "keps generalizes, suppresses, microaggregates and randomizes microdata so that released records "
            "satisfy k-anonymity, (k,epsilon)-anonymity, differential privacy or t-closeness, and states the "
            "guarantee it gives in a JSON report. Every command also reads a YAML job file (--job).");
    fputs("\n.SH COMMANDS\n", f);
    const keps_command_info *const *cmds;
    size_t ncmds = keps_commands(&cmds);
    for (size_t k = 0; k < ncmds; k++) {
        const keps_command_info *c = cmds[k];
        char *usage = render(c, c->usage), *desc = render(c, c->description), *ex = render(c, c->example);
        fputs(".SS \"keps ", f);
        roff(f, usage);
        fputs("\"\n", f);
        roff(f, desc);
        fputs("\n.PP\nExample:\n.nf\nkeps ", f);
        roff(f, ex);
        fputs("\n.fi\n", f);
        for (size_t i = 0; i < c->nparams; i++)
            if (!(c->params[i].flags & (KEPS_PARAM_POSITIONAL | KEPS_PARAM_COMMON)))
                man_opt(f, c, &c->params[i]);
        free(usage);
        free(desc);
        free(ex);
    }
    fputs(".SH COMMON OPTIONS\n", f);
    for (size_t i = 0; ncmds && i < cmds[0]->nparams; i++)
        if (cmds[0]->params[i].flags & KEPS_PARAM_COMMON)
            man_opt(f, cmds[0], &cmds[0]->params[i]);
    fputs(".TP\n.B keps \\-\\-version\nprint the version and exit\n"
          ".TP\n.B keps \\-\\-man\nprint this manual page (roff) and exit\n",
          f);
    fputs(".SH EXIT STATUS\n0 success; 1 the job could not be done with these valid inputs (for example no "
          "transformation satisfies the constraints, or the noise of an extreme epsilon overflows); 2 bad usage or "
          "bad input (the message names file, line and column); 3 an I/O or resource failure (a full disk, a "
          "read\\-only file system, an I/O error, out of memory). No output file is left behind on exit 1, 2 or "
          "3.\n",
          f);
    fputs(".SH ENVIRONMENT\n.TP\n.B KEPS_MAX_FIELD\nthe longest CSV field read, in bytes (suffix K, M or G: "
          "binary units); default 1M. A longer field is an error naming file, line and column.\n.TP\n"
          ".B KEPS_MAX_LINE\nthe longest CSV record read (its fields' bytes, one more per field); default 8M.\n"
          ".SH FILES\n.TP\n.I .NAME.keps\\-lock\nbeside an output NAME while keps writes it: a lock that makes "
          "concurrent runs writing the same outputs commit one after the other; removed at the end (one left by "
          "a killed run is harmless and reused).\n.TP\n.I .NAME.keps\\-XXXXXXXX.tmp\nan output being "
          "written, where the file system cannot hold an unnamed temporary file; renamed to NAME at the end, and "
          "removed by the next run writing NAME if a killed run left it.\n"
          ".SH SEE ALSO\nREADME.md, docs/architecture.md in the keps sources.\n",
          f);
}

/* ---- "did you mean" ---- */


/* " (did you mean --name?)" for an unknown option of this command (a job
 * file's key: " (did you mean 'name'?)"), or "" (static buffer). */
static const char *option_hint(const kc_ctx *c, const char *word, int job_key)
{
    static char hint[128];
    const char **names = malloc(c->nopts * sizeof *names);
    hint[0] = '\0';
    if (!names)
        return hint;
    for (size_t i = 0; i < c->nopts; i++)
        names[i] = c->opts[i]->name;
    char key[80];
    snprintf(key, sizeof key, "%.*s", (int)strcspn(word, "="), word);
    const char *near = keps_nearest(key, names, c->nopts);
    if (near)
        snprintf(hint, sizeof hint, job_key ? " (did you mean '%s'?)" : " (did you mean --%s?)", near);
    free(names);
    return hint;
}

/* An abbreviation getopt_long refused because several options begin with
 * it: their names ("--input, --insensitive"), else NULL. */
static const char *ambiguous(const kc_ctx *c, const char *arg)
{
    static char list[256];
    if (strncmp(arg, "--", 2) != 0)
        return NULL;
    size_t len = strcspn(arg + 2, "="), n = 0, at = 0;
    for (size_t i = 0; i < c->nopts && at + 40 < sizeof list; i++)
        if (len && strncmp(c->opts[i]->name, arg + 2, len) == 0) {
            if (c->opts[i]->name[len] == '\0')
                return NULL; /* an exact name is no abbreviation */
            at += (size_t)snprintf(list + at, sizeof list - at, "%s--%s", n++ ? ", " : "", c->opts[i]->name);
        }
    return n > 1 ? list : NULL;
}

/* ---- parsing ---- */

static int add_value(kc_val *v, const char *s)
{
    char **n = realloc(v->v, (v->n + 1) * sizeof *n);
    if (!n)
        return -1;
    v->v = n;
    if (!(n[v->n] = strdup(s)))
        return -1;
    v->n++;
    return 0;
}

void kc_ctx_free(kc_ctx *c)
{
    for (size_t i = 0; i < c->nopts; i++) {
        for (size_t k = 0; k < c->vals[i].n; k++)
            free(c->vals[i].v[k]);
        free(c->vals[i].v);
        free(c->vals[i].origin);
    }
    free(c->vals);
    free(c->opts);
    free(c->pos);
    free(c->job_dir);
    keps_outfile_abort(c->out_file);
    keps_outfile_abort(c->report_file);
    for (size_t i = 0; i < c->nextra; i++)
        keps_outfile_abort(c->extra_file[i]);
    keps_outfile_abort(c->html_file);
    free(c->extra_text);
    free(c->html_stdout);
}

/* YAML's booleans (1.1 spellings included, as users write them): 1 true,
 * 0 false, -1 anything else (an empty value too: say which). */
static int yaml_bool(const char *v)
{
    static const char *const yes[] = {"true", "yes", "on", "y", "1"}, *const no[] = {"false", "no", "off", "n", "0"};
    for (size_t i = 0; i < sizeof yes / sizeof *yes; i++) {
        if (!strcasecmp(v, yes[i]))
            return 1;
        if (!strcasecmp(v, no[i]))
            return 0;
    }
    return -1;
}

/* Merges a job file: keys must be options of this command; values given on
 * the command line win. Relative paths in it resolve against its own
 * directory: FILE values here, the PATH of NAME:PATH values where the name
 * is resolved (kc_spec_path). */
static int merge_job(kc_ctx *c, const char *path)
{
    const char *slash = strrchr(path, '/');
    free(c->job_dir);
    c->job_dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : NULL;
    keps_error err = {0};
    keps_job *job;
    if (keps_job_load(path, &job, &err))
        return kc_fail(c, &err);
    int rc = 0;
    for (size_t e = 0; e < job->n && !rc; e++) {
        keps_job_entry *en = &job->entries[e];
        if (strcmp(en->key, "command") == 0) {
            if (en->nvalues == 1 && strcmp(en->values[0], c->cmd->name) != 0) {
                fprintf(stderr,
                        "keps %s: %s:%zu:%zu: this job is for 'keps %s', not 'keps %s'; run 'keps --job %s' "
                        "(or 'keps %s --job %s')\n",
                        c->cmd->name, path, en->line, en->col, en->values[0], c->cmd->name, path, en->values[0],
                        path);
                rc = 2;
            }
            continue;
        }
        int i = find_opt(c, en->key);
        if (i < 0 || strcmp(en->key, "job") == 0 || strcmp(en->key, "help") == 0) {
            const char *hint = i < 0 ? option_hint(c, en->key, 1) : "";
            fprintf(stderr, "keps %s: %s:%zu:%zu: unknown option '%s' for 'keps %s'%s; see 'keps %s --help'\n",
                    c->cmd->name, path, en->line, en->col, en->key, c->cmd->name, hint, c->cmd->name);
            rc = 2;
            break;
        }
        if (c->vals[i].n)
            continue; /* the command line overrides the job file */
        const keps_param_info *o = c->opts[i];
        if (en->nvalues > 1 && !(o->flags & KEPS_PARAM_REPEAT)) {
            fprintf(stderr, "keps %s: %s:%zu:%zu: option '%s' takes one value, not a list\n", c->cmd->name,
                    path, en->line, en->col, en->key);
            rc = 2;
            break;
        }
        if (!o->metavar) { /* a flag: stored as "true" or "false", whatever YAML spelling */
            int on = en->nvalues == 1 ? yaml_bool(en->values[0]) : -1;
            if (on < 0) {
                fprintf(stderr, "keps %s: %s:%zu:%zu: option '%s' is a flag: write '%s: true' or '%s: false'\n",
                        c->cmd->name, path, en->line, en->col, en->key, en->key, en->key);
                rc = 2;
                break;
            }
            add_value(&c->vals[i], on ? "true" : "false");
        } else {
            int file = strcmp(o->metavar, "FILE") == 0;
            for (size_t k = 0; k < en->nvalues; k++) {
                char *v = file ? param_job_path(c->job_dir, en->values[k]) : NULL;
                add_value(&c->vals[i], v ? v : en->values[k]);
                free(v);
            }
        }
        char where[4096];
        snprintf(where, sizeof where, "%s:%zu:%zu", path, en->line, en->col);
        free(c->vals[i].origin);
        c->vals[i].origin = strdup(where);
    }
    keps_job_free(job);
    return rc;
}

/* Reads the "command:" key of a job file, for `keps --job FILE`. */
char *kc_job_command(const char *path, int *rc)
{
    keps_error err = {0};
    keps_job *job;
    *rc = 0;
    if (keps_job_load(path, &job, &err)) {
        fprintf(stderr, "keps: %s\n", err.msg);
        *rc = 2;
        return NULL;
    }
    char *cmd = NULL;
    for (size_t e = 0; e < job->n; e++)
        if (strcmp(job->entries[e].key, "command") == 0 && job->entries[e].nvalues == 1)
            cmd = strdup(job->entries[e].values[0]);
    keps_job_free(job);
    if (!cmd) {
        fprintf(stderr, "keps: %s has no 'command:' key; add e.g. 'command: anonymize' or run 'keps COMMAND --job %s'\n",
                path, path);
        *rc = 2;
    }
    return cmd;
}

/* "--report --json" would otherwise write the report to a file called
 * "--json" and drop the flag: a value that is a separate word spelling one
 * of this command's options is refused (negative numbers are not options). */
static int looks_like_option(const kc_ctx *c, const char *val, const char *word)
{
    if (val != word || val[0] != '-' || val[1] == '\0')
        return 0;
    for (size_t i = 0; i < c->nopts; i++) {
        const keps_param_info *o = c->opts[i];
        if (val[1] == '-' && strncmp(val + 2, o->name, strcspn(val + 2, "=")) == 0 &&
            o->name[strcspn(val + 2, "=")] == '\0')
            return 1;
        if (val[1] != '-' && o->shortc && val[1] == o->shortc)
            return 1;
    }
    return 0;
}

/* Calls fn on every input path the options name: a FILE option's value,
 * and every suffix after a ':' of a NAME:HIERARCHY or NAME:FILE option
 * (where a name or path may hold ':' itself; from a job file, resolved
 * against its directory as kc_spec_path will). Only options that name
 * files count: "-k 5" must not match an output called 5. Stops at fn's
 * first nonzero. */
static const char *each_input(const kc_ctx *c, int (*fn)(const char *path, const char *opt, void *ud), void *ud)
{
    for (size_t i = 0; i < c->nopts; i++) {
        const char *name = c->opts[i]->name, *arg = c->opts[i]->metavar;
        int hier = arg && strchr(arg, ':') && (strstr(arg, "HIERARCHY") || strstr(arg, "FILE"));
        if (!arg || (!strstr(arg, "FILE") && !hier) || strcmp(name, "output") == 0 || strcmp(name, "report") == 0 ||
            strcmp(name, "html") == 0)
            continue;
        const char *dir = c->vals[i].origin ? c->job_dir : NULL;
        for (size_t k = 0; k < c->vals[i].n; k++) {
            const char *v = c->vals[i].v[k];
            if (!hier && fn(v, name, ud))
                return v;
            for (const char *p = hier ? strchr(v, ':') : NULL; p; p = strchr(p + 1, ':')) {
                char *path = param_job_path(dir, p + 1);
                int hit = path && fn(path, name, ud);
                free(path);
                if (hit)
                    return v;
            }
        }
    }
    return NULL;
}

static int names_file(const char *path, const char *opt, void *ud)
{
    const struct stat *out = ud;
    struct stat st;
    (void)opt;
    return strcmp(path, "-") != 0 && stat(path, &st) == 0 && st.st_dev == out->st_dev && st.st_ino == out->st_ino;
}

/* Records the options reading stdin; 1 at the second. */
static int second_stdin(const char *path, const char *opt, void *ud)
{
    const char **seen = ud;
    if (strcmp(path, "-") != 0)
        return 0;
    seen[seen[0] != NULL] = opt;
    return seen[1] != NULL;
}

/* Refuses outputs that would overwrite an input or each other, and checks
 * that the outputs' directories take a file before any work is done. An
 * output is compared as it resolves (keps/outfile.h): /dev/stdout is '-',
 * a symbolic link is its target, a new file is its resolved name. The
 * outputs: the release (-o), the report, the HTML page (--html). */
static int check_outputs(kc_ctx *c)
{
    const char *out = kc_str(c, "output"), *rep = kc_str(c, "report");
    const char *std_in[2] = {NULL, NULL}, *second = each_input(c, second_stdin, std_in);
    if (second)
        return kc_usage_error(c, "--%s and --%s %s both read stdin ('-'); only one input can: give the other as a "
                                  "file",
                               std_in[0], std_in[1], second);
    for (size_t i = 0; i < c->nopts && !out; i++) /* a release nobody asked to keep would be lost silently */
        if (c->opts[i]->flags & KEPS_PARAM_RELEASE)
            return kc_usage_error(c, "--output is required: -o FILE writes the release there, -o - to stdout");
    const char *path[3] = {out, rep, kc_str(c, "html")}, *flag[3] = {"--output", "--report", "--html"};
    const char *eg[3] = {"release.csv", "report.json", "report.html"}, *what[3] = {"release", "report", "page"};
    for (int i = 0; i < 3; i++) {
        if (!path[i])
            continue;
        size_t len = strlen(path[i]);
        struct stat st;
        if (len == 0 || path[i][len - 1] == '/')
            return kc_usage_error(c, "%s '%s' names no file; give a file name, e.g. %s out/%s", flag[i], path[i],
                                   flag[i], eg[i]);
        if (strcmp(path[i], "-") == 0 || stat(path[i], &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode))
            return kc_usage_error(c, "%s %s is a directory; give a file name inside it, e.g. %s %s/%s", flag[i],
                                   path[i], flag[i], path[i], eg[i]);
        const char *in = each_input(c, names_file, &st);
        if (in)
            return kc_usage_error(c, "%s %s is also an input ('%s'): writing it would destroy that input; choose "
                                      "another file",
                                   flag[i], path[i], in);
    }
    c->out_stdout = out && keps_output_fd(out) == 1;
    c->report_stdout = rep && keps_output_fd(rep) == 1;
    for (int i = 1; i < 3; i++)
        for (int k = 0; k < i; k++)
            if (path[k] && path[i] && keps_output_same(path[k], path[i]))
                return keps_output_fd(path[k]) == 1
                           ? kc_usage_error(c, "%s %s and %s %s both write to standard output; only one of them "
                                                "can: give the other a file",
                                             flag[k], path[k], flag[i], path[i])
                           : kc_usage_error(c, "%s and %s name the same %s; give the %s its own file", flag[k],
                                             flag[i], keps_output_fd(path[k]) >= 0 ? "stream" : "file", what[i]);
    /* Opening an output and discarding it finds a missing directory or a
     * read-only file system now; an output written in place (a FIFO would
     * see an end of file) is left alone. */
    const char *files[3];
    size_t n = 0;
    for (int i = 0; i < 3; i++)
        if (path[i] && !keps_output_in_place(path[i]))
            files[n++] = path[i];
    keps_outfile *o[3];
    keps_error err = {0};
    if (n && keps_outfile_open(files, n, o, &err)) {
        fprintf(stderr, "keps %s: %s\n", c->cmd->name, err.msg);
        return cli_exit_code(err.code);
    }
    for (size_t i = 0; i < n; i++)
        keps_outfile_abort(o[i]);
    return 0;
}

/* Parses argv (argv[0] = command name). Returns -1 to run, or an exit code. */
int kc_parse(kc_ctx *c, const keps_command_info *cmd, int argc, char **argv)
{
    memset(c, 0, sizeof *c);
    c->cmd = cmd;
    size_t n = cmd->nparams;
    c->opts = calloc(n, sizeof *c->opts);
    c->vals = calloc(n, sizeof *c->vals);
    c->pos = calloc((size_t)argc + 1, sizeof *c->pos);
    struct option *lo = calloc(n + 1, sizeof *lo);
    if (!c->opts || !c->vals || !c->pos || !lo) {
        free(lo);
        fprintf(stderr, "keps %s: out of memory\n", cmd->name);
        return 3;
    }
    size_t max_pos = 0; /* positional words taken: one per positional parameter, any for a repeatable one */
    for (size_t i = 0; i < n; i++) {
        const keps_param_info *o = &cmd->params[i];
        c->opts[c->nopts++] = o;
        if ((o->flags & KEPS_PARAM_POSITIONAL) && !(o->flags & KEPS_PARAM_REST))
            max_pos = (o->flags & KEPS_PARAM_REPEAT) || max_pos == (size_t)-1 ? (size_t)-1 : max_pos + 1;
    }
    char shorts[128] = ":";
    size_t sl = 1, nlo = 0;
    for (size_t i = 0; i < c->nopts; i++) {
        const keps_param_info *o = c->opts[i];
        if (o->flags & KEPS_PARAM_POSITIONAL)
            continue; /* no option: a bare word */
        lo[nlo].name = o->name;
        lo[nlo].has_arg = o->metavar ? required_argument : no_argument;
        lo[nlo++].val = 256 + (int)i;
        if (o->shortc && sl + 3 < sizeof shorts) {
            shorts[sl++] = o->shortc;
            if (o->metavar)
                shorts[sl++] = ':';
        }
    }
    shorts[sl] = '\0';
    /* The words after "--" are positional, as getopt makes them, but kept
     * after the others and counted apart ("keps audit ... -- COMMAND ARGS":
     * the audited command's own options must not be parsed here). */
    char **rest = NULL;
    size_t nrest = 0;
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--") == 0) {
            rest = argv + i + 1;
            nrest = (size_t)(argc - i - 1);
            argc = i;
            break;
        }
    optind = 1;
    opterr = 0;
    int rc = -1;
    for (;;) {
        int li = -1;
        int ch = getopt_long(argc, argv, shorts, lo, &li);
        if (ch == -1)
            break;
        int idx = -1;
        if (ch >= 256)
            idx = ch - 256;
        else if (ch == '?' || ch == ':') {
            const char *bad = argv[optind - 1], *amb = ch == '?' ? ambiguous(c, bad) : NULL;
            if (ch == ':')
                rc = kc_usage_error(c, "option '%s' needs a value", bad);
            else if (amb)
                rc = kc_usage_error(c, "option '%s' is ambiguous (%s); write the one you mean in full", bad, amb);
            else
                rc = kc_usage_error(c, "unknown option '%s'%s", bad,
                                     strncmp(bad, "--", 2) == 0 ? option_hint(c, bad + 2, 0) : "");
            break;
        } else {
            for (size_t i = 0; i < c->nopts; i++)
                if (c->opts[i]->shortc == ch)
                    idx = (int)i;
        }
        if (idx < 0)
            continue;
        const keps_param_info *o = c->opts[idx];
        if (c->vals[idx].n && !(o->flags & KEPS_PARAM_REPEAT) && o->metavar) {
            rc = kc_usage_error(c, "--%s is given twice; it takes one value", o->name);
            break;
        }
        if (o->metavar && looks_like_option(c, optarg, argv[optind - 1])) {
            rc = kc_usage_error(c, "--%s needs a value, but the next word is the option '%s' (a file whose name "
                                    "starts with '-' can be given as ./%s)",
                                 o->name, optarg, optarg);
            break;
        }
        add_value(&c->vals[idx], o->metavar ? optarg : "true");
    }
    for (int i = optind; rc < 0 && i < argc; i++)
        c->pos[c->npos++] = argv[i];
    c->rest = c->pos + c->npos;
    for (size_t i = 0; rc < 0 && i < nrest; i++)
        c->pos[c->npos++] = rest[i];
    c->nrest = rc < 0 ? nrest : 0;
    /* A word without its flag (a second QI after one --qi, say) must not be
     * dropped silently: the release would leave that column unprotected. */
    if (rc < 0 && c->npos > max_pos)
        rc = kc_usage_error(c, "unexpected argument '%s': every value needs its option (e.g. one --qi before each "
                                "quasi-identifier)",
                             c->pos[max_pos]);
    free(lo);
    if (rc >= 0)
        return rc;
    /* The positional words become the values of the positional parameters
     * (the calculator, the action, ...), the words after "--" the rest one. */
    size_t w = 0, nw = c->npos - c->nrest;
    for (size_t i = 0; i < c->nopts; i++) {
        unsigned f = c->opts[i]->flags;
        if (!(f & KEPS_PARAM_POSITIONAL))
            continue;
        if (f & KEPS_PARAM_REST) {
            for (size_t k = 0; k < c->nrest; k++)
                add_value(&c->vals[i], c->rest[k]);
            continue;
        }
        for (size_t take = (f & KEPS_PARAM_REPEAT) ? nw : 1; take && w < nw; take--)
            add_value(&c->vals[i], c->pos[w++]);
    }
    if (kc_flag(c, "help")) {
        kc_print_help(stdout, cmd);
        return 0;
    }
    const char *job = kc_str(c, "job");
    if (job && (rc = merge_job(c, job)) != 0)
        return rc;
    if ((rc = check_outputs(c)) != 0)
        return rc;
    c->json = kc_flag(c, "json");
    c->quiet = kc_flag(c, "quiet");
    return -1;
}
