/* keps report: draws a saved JSON report as one self-contained HTML page
 * (library: keps/report_html.h), the same page --html writes. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "command_internal.h"
#include "keps/report_html.h"

static const cmd_opt opt_out = {"output", 'o', "FILE", 0,
                                "the HTML page (required; '-' = stdout). Written to a temporary file and renamed "
                                "at the end, so a failed run leaves nothing",
                                "report.html"};

static const cmd_opt *const opts[] = {&opt_out, NULL};
static const cmd_opt opt_in = {"input", 0, "REPORT", KEPS_PARAM_POSITIONAL | KEPS_PARAM_PATH,
                               "the JSON report to draw ('-' reads stdin)", "report.json"};
static const cmd_opt *const pos_opts[] = {&opt_in, NULL};

/* The whole of f, NUL-terminated; NULL with errno set on failure. */
static char *slurp(FILE *f, size_t *len)
{
    size_t cap = 1 << 16, n = 0;
    char *b = malloc(cap);
    while (b) {
        n += fread(b + n, 1, cap - n - 1, f);
        if (ferror(f)) {
            free(b);
            return NULL;
        }
        if (feof(f))
            break;
        if (n + 1 == cap) {
            char *q = realloc(b, cap *= 2);
            if (!q)
                free(b);
            b = q;
        }
    }
    if (b) {
        b[n] = '\0';
        *len = n;
    }
    return b;
}

static keps_status run(cmd_ctx *c)
{
    const char *out = cmd_str(c, "output");
    if (c->npos != 1)
        return cmd_usage_error(c, c->npos ? "give one report" : "which report? keps report REPORT.json {output} FILE.html");
    if (!out)
        return cmd_usage_error(c, "{output} is required: {output} FILE.html writes the page there, {output} - to stdout");
    const char *in = c->pos[0];
    int std_in = strcmp(in, "-") == 0;
    if (!std_in && strcmp(in, out) == 0)
        return cmd_usage_error(c, "{output} %s is the report itself: writing it would destroy the report; choose another "
                                  "file",
                               out);
    FILE *f = std_in ? stdin : fopen(in, "rb");
    if (!f) {
        cmd_error(c, KEPS_EINPUT, "%s: cannot read the report: %s", in, strerror(errno));
        return KEPS_EINPUT;
    }
    size_t len = 0;
    char *json = slurp(f, &len);
    int e = errno;
    if (!std_in)
        fclose(f);
    if (!json) {
        cmd_error(c, KEPS_EINPUT, "%s: cannot read the report: %s", std_in ? "<stdin>" : in, strerror(e));
        return KEPS_EINPUT;
    }
    char *html;
    size_t n;
    keps_error err = {0};
    keps_status rc = keps_report_html(json, len, std_in ? "<stdin>" : in, &html, &n, &err) ? cmd_fail(c, &err) : KEPS_OK;
    free(json);
    if (!rc) {
        rc = cmd_stage_text(c, "output", html, n);
        free(html);
    }
    return rc;
}

const cmd_cmd cmd_report = {
    "report",
    "draw a saved JSON report as one self-contained HTML page",
    "report REPORT.json {output} FILE.html",
    "Reads a JSON report written by any command's {report} (or {report} -, or {json}) and writes it as one "
    "HTML page a reviewer can read without reading JSON: the guarantee in words and numbers (what it covers, "
    "what it does not, what came from the data), the parameters, the row accounting, and every section the "
    "report holds as tables and charts (risk before and after, distributions of the input and the release, "
    "suppression per value, the generalization lattice, noise scales and the privacy budget, classifier "
    "accuracy, ...). The page needs no network: its style and drawing script are inside it, and so is the "
    "report. It is the same page, byte for byte, as the command's {html} wrote in the same run. '-' reads "
    "the report from stdin. A file that is not a JSON object is bad input (exit 2) naming its line and column.",
    "report adult-k5.json {output} adult-k5.html",
    opts,
    run,
    1,
    pos_opts,
};
