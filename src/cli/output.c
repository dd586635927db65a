/* The CLI's side of a command's result: its outputs written where the
 * parameters say, each to a temporary file renamed into place together
 * with the others at the end (keps/outfile.h), or printed on stdout; the
 * report, the HTML page, the summary; messages and progress on stderr. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "keps/csv.h"
#include "keps/report_html.h"

/* ---- messages and progress ---- */

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static double progress_start = -1;
static int progress_shown = 0;

void kc_progress_end(void)
{
    if (progress_shown)
        fputs("\r\033[K", stderr);
    progress_shown = 0;
    progress_start = -1;
}

void kc_message(void *ud, keps_msg_kind kind, const char *text)
{
    const kc_ctx *c = ud;
    (void)kind; /* the library sends notes only when not quiet */
    kc_progress_end();
    fprintf(stderr, "keps %s: %s\n", c->cmd->name, text);
}

/* Progress on stderr when it is a terminal, the work has run for more than
 * a second, and --quiet is off (the host's callback is set only then). */
int kc_progress(void *ud, const char *what, double done, double total)
{
    (void)ud;
    double now = now_ms();
    if (progress_start < 0)
        progress_start = now;
    static double last;
    if (now - progress_start < 1000 || now - last < 100)
        return 0;
    last = now;
    fprintf(stderr, "\r%s: %5.1f%%\033[K", what, total > 0 ? 100.0 * done / total : 0.0);
    progress_shown = 1;
    return 0;
}

/* ---- outputs ---- */

/* Opens the release (-o) and the report (--report) together, so that their
 * locks are held from before the first byte until both are renamed into
 * place (keps/outfile.h). */
static int open_outputs(kc_ctx *c, int release)
{
    const char *path[2];
    keps_outfile **slot[2];
    size_t n = 0;
    const char *out = kc_str(c, "output"), *rep = kc_str(c, "report");
    if (release && out && !c->out_file) {
        path[n] = out;
        slot[n++] = &c->out_file;
    }
    if (rep && !c->report_stdout && !c->no_report_file && !c->report_file) {
        path[n] = rep;
        slot[n++] = &c->report_file;
    }
    keps_outfile *o[2] = {NULL, NULL};
    keps_error err = {0};
    if (n && keps_outfile_open(path, n, o, &err))
        return kc_fail(c, &err);
    for (size_t i = 0; i < n; i++)
        *slot[i] = o[i];
    return 0;
}

/* Keeps text for stdout, printed once everything else is in place. */
static int keep_for_stdout(kc_ctx *c, char **slot, const char *text, size_t len)
{
    size_t old = *slot ? strlen(*slot) : 0;
    char *s = realloc(*slot, old + len + 1);
    if (!s) {
        fprintf(stderr, "keps %s: out of memory\n", c->cmd->name);
        return 3;
    }
    memcpy(s + old, text, len);
    s[old + len] = '\0';
    *slot = s;
    return 0;
}

/* One output of the result: the release's -o with the report, the others
 * in files of their own (or kept for stdout). */
static int write_output(kc_ctx *c, const keps_output *o)
{
    const char *path = kc_str(c, o->param);
    if (!path)
        return 0; /* not asked for */
    keps_error err = {0};
    FILE *f = NULL;
    int release = strcmp(o->param, "output") == 0, rc;
    if (!o->table && keps_output_fd(path) == 1 && !release)
        return keep_for_stdout(c, &c->extra_text, o->text, o->len);
    if (release) {
        if ((rc = open_outputs(c, 1)))
            return rc;
        f = keps_outfile_stream(c->out_file);
    } else {
        if (c->nextra == KC_MAX_EXTRA) {
            fprintf(stderr, "keps %s: too many outputs\n", c->cmd->name);
            return 3;
        }
        if (keps_outfile_open(&path, 1, &c->extra_file[c->nextra], &err))
            return kc_fail(c, &err);
        f = keps_outfile_stream(c->extra_file[c->nextra++]);
    }
    if (o->table)
        return keps_csv_write_table_to(o->table, f, path, o->delimiter, o->order, &err) ? kc_fail(c, &err) : 0;
    fwrite(o->text, 1, o->len, f); /* a failed write is found by the commit's flush */
    return 0;
}

int kc_commit(kc_ctx *c, int rc)
{
    keps_outfile *o[3 + KC_MAX_EXTRA];
    size_t n = 0;
    o[n++] = c->out_file;
    for (size_t i = 0; i < c->nextra; i++)
        o[n++] = c->extra_file[i];
    o[n++] = c->report_file;
    o[n++] = c->html_file;
    c->out_file = c->report_file = c->html_file = NULL;
    c->nextra = 0;
    char *extra = c->extra_text, *page = c->html_stdout;
    c->extra_text = c->html_stdout = NULL;
    keps_error err = {0};
    if (rc) {
        for (size_t i = 0; i < n; i++)
            keps_outfile_abort(o[i]);
    } else if (keps_outfile_commit(o, n, &err)) {
        rc = kc_fail(c, &err);
    } else {
        if (extra)
            fputs(extra, stdout);
        if (page)
            fputs(page, stdout);
    }
    free(extra);
    free(page);
    return rc;
}

/* Renders the report as an HTML page (keps/report_html.h) for path ('-':
 * stdout), put into place with the other outputs. */
static int stage_html(kc_ctx *c, const char *path, const char *json, size_t len, const char *source)
{
    keps_error err = {0};
    char *html;
    size_t n;
    if (keps_report_html(json, len, source, &html, &n, &err))
        return kc_fail(c, &err);
    if (keps_output_fd(path) == 1) { /* stdout: printed once everything else is in place */
        c->html_stdout = html;
        return 0;
    }
    int rc = keps_outfile_open(&path, 1, &c->html_file, &err) ? kc_fail(c, &err) : 0;
    if (!rc)
        fwrite(html, 1, n, keps_outfile_stream(c->html_file)); /* a failed write is found by the commit */
    free(html);
    return rc;
}

/* The report to --report, the page to --html, all outputs into place, then
 * the report (--json, --report -) or the summary printed. */
static int emit_report(kc_ctx *c, const char *js, const char *text)
{
    kc_progress_end(); /* the summary must not land on a progress line */
    if (c->no_report_file && c->report_file) { /* a failed check keeps no report file */
        keps_outfile_abort(c->report_file);
        c->report_file = NULL;
    }
    int rc = open_outputs(c, 0);
    if (rc)
        return kc_commit(c, rc);
    if (c->report_file) {
        FILE *f = keps_outfile_stream(c->report_file);
        fputs(js, f);
        fputc('\n', f); /* a failed write is found by the commit's flush */
    }
    const char *hp = kc_str(c, "html");
    int html_stdout = hp && keps_output_fd(hp) == 1; /* --html - still prints after a failed check */
    if (hp && (html_stdout || !c->no_report_file) && (rc = stage_html(c, hp, js, strlen(js), "the report")))
        return kc_commit(c, rc);
    int extra_stdout = c->extra_text != NULL; /* printed by the commit */
    if ((rc = kc_commit(c, 0)))
        return rc;
    if (c->report_stdout)
        printf("%s\n", js);
    /* When the release, the report, the page or the extra output owns
     * stdout, the summary goes to stderr. */
    FILE *f = c->out_stdout || c->report_stdout || html_stdout || extra_stdout ? stderr : stdout;
    if (c->json && !(c->report_stdout && f == stdout))
        fprintf(f, "%s\n", js);
    else if (text && !c->quiet) /* --quiet: nothing but what was asked for (--json, --report -, -o -) */
        fputs(text, f);
    return 0;
}

int kc_emit(kc_ctx *c, const keps_result *r)
{
    if (r->finding) {
        const char *rp = kc_str(c, "report"), *hp = kc_str(c, "html");
        const char *file = rp && keps_output_fd(rp) != 1 ? rp : hp && keps_output_fd(hp) != 1 ? hp : NULL;
        if (file) /* not silenced by --quiet: it explains a file the caller asked for */
            fprintf(stderr, "keps %s: %s not written: the check failed (exit 1), and exit 1 leaves no output file; "
                            "the result is on stdout (--json prints it as JSON, --report - as the report)\n",
                    c->cmd->name, file);
        c->no_report_file = 1;
    }
    if (r->printed && !c->json) { /* noise's releases, one a line: stderr when the report owns stdout */
        const char *rp = kc_str(c, "report");
        fputs(r->printed, rp && strcmp(rp, "-") == 0 ? stderr : stdout);
    }
    int rc = 0;
    for (size_t i = 0; i < r->noutputs && !rc; i++)
        rc = write_output(c, &r->outputs[i]);
    if (rc)
        return kc_commit(c, rc);
    rc = r->report ? emit_report(c, r->report, r->summary) : kc_commit(c, 0);
    return rc ? rc : r->finding ? 1 : 0;
}
