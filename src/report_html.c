/* A report as one self-contained HTML page (keps/report_html.h).
 *
 * The template (src/report_html/: page, style sheet, drawing script) is
 * joined at build time into one text compiled into the library
 * (report_template.h); it holds two markers, the page title and the
 * report. The report is parsed with jansson and written back with keps's
 * own JSON writer (shortest round-trip numbers), so that a report and any
 * reformatting of it embed as the same text. */
#include "keps/report_html.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keps/json.h"
#include "report_template.h"

#define MARK_TITLE "@KEPS_TITLE@"
#define MARK_REPORT "@KEPS_REPORT@"
#define MAX_DEPTH 60 /* keps_json nests up to 63 levels */

/* Writes v under key with keps's writer; returns -1 past MAX_DEPTH. Every
 * number was decoded as a double (JSON_DECODE_INT_AS_REAL), so a whole
 * number is written whole and a count beyond long long still reads. */
static int canon(keps_json *j, const char *key, json_t *v, int depth)
{
    if (depth > MAX_DEPTH)
        return -1;
    switch (json_typeof(v)) {
    case JSON_OBJECT: {
        const char *k;
        json_t *m;
        keps_json_object(j, key);
        json_object_foreach (v, k, m)
            if (canon(j, k, m, depth + 1))
                return -1;
        keps_json_end(j);
        break;
    }
    case JSON_ARRAY: {
        size_t i;
        json_t *m;
        keps_json_array(j, key);
        json_array_foreach (v, i, m)
            if (canon(j, NULL, m, depth + 1))
                return -1;
        keps_json_end(j);
        break;
    }
    case JSON_STRING: keps_json_str(j, key, json_string_value(v)); break;
    case JSON_INTEGER: keps_json_int(j, key, (long long)json_integer_value(v)); break;
    case JSON_REAL: keps_json_num(j, key, json_real_value(v)); break;
    case JSON_TRUE: keps_json_bool(j, key, 1); break;
    case JSON_FALSE: keps_json_bool(j, key, 0); break;
    case JSON_NULL: keps_json_null(j, key); break;
    }
    return 0;
}

/* JSON text safe inside <script>: '<', '>', '&' only occur inside strings,
 * where \u escapes mean the same; U+2028/U+2029 are escaped as well. */
static void put_script_json(FILE *b, const char *s)
{
    for (const char *p = s; *p; p++) {
        const unsigned char *u = (const unsigned char *)p;
        if (*p == '<')
            fputs("\\u003c", b);
        else if (*p == '>')
            fputs("\\u003e", b);
        else if (*p == '&')
            fputs("\\u0026", b);
        else if (u[0] == 0xE2 && u[1] == 0x80 && (u[2] == 0xA8 || u[2] == 0xA9)) {
            fputs(u[2] == 0xA8 ? "\\u2028" : "\\u2029", b);
            p += 2;
        } else
            fputc(*p, b);
    }
}

/* Text as HTML character data. */
static void put_html_text(FILE *b, const char *s)
{
    for (const char *p = s; *p; p++) {
        switch (*p) {
        case '<': fputs("&lt;", b); break;
        case '>': fputs("&gt;", b); break;
        case '&': fputs("&amp;", b); break;
        case '"': fputs("&quot;", b); break;
        default: fputc(*p, b);
        }
    }
}

/* What the page is about, for its title: the method, or for a calculator
 * (keps privacy) its "result". */
static void put_title(FILE *b, json_t *root)
{
    json_t *m = json_object_get(root, "method");
    fputs("keps report", b);
    if (json_is_string(m)) {
        fputs(": ", b);
        put_html_text(b, json_string_value(m));
    }
}

keps_status keps_report_html(const char *json, size_t len, const char *source, char **html, size_t *html_len,
                             keps_error *err)
{
    *html = NULL;
    if (html_len)
        *html_len = 0;
    if (!source)
        source = "<report>";
    if (len >= 3 && memcmp(json, "\xEF\xBB\xBF", 3) == 0) { /* a UTF-8 byte order mark, as some editors save */
        json += 3;
        len -= 3;
    }
    json_error_t je;
    json_t *root = json_loadb(json, len, JSON_REJECT_DUPLICATES | JSON_DECODE_INT_AS_REAL, &je);
    if (!root)
        return keps_error_at(err, KEPS_EINPUT, source, je.line > 0 ? (size_t)je.line : 0,
                             je.column > 0 ? (size_t)je.column : 0, "not a JSON report: %s", je.text);
    if (!json_is_object(root)) {
        json_decref(root);
        return keps_error_at(err, KEPS_EINPUT, source, 0, 0,
                             "not a keps report: the JSON is not an object (a report is {\"method\": ...})");
    }
    keps_json j;
    keps_json_init(&j);
    int deep = canon(&j, NULL, root, 0);
    const char *text = keps_json_text(&j);
    keps_status st = KEPS_OK;
    if (deep)
        st = keps_error_at(err, KEPS_EINPUT, source, 0, 0, "not a keps report: nested deeper than %d levels",
                           MAX_DEPTH);
    else if (!text)
        st = keps_error_set(err, KEPS_ENOMEM, "out of memory rendering the report");
    if (!st) {
        const char *tpl = keps_report_template;
        const char *t1 = strstr(tpl, MARK_TITLE), *t2 = t1 ? strstr(t1, MARK_REPORT) : NULL;
        char *page = NULL;
        size_t n = 0;
        FILE *b = t1 && t2 ? open_memstream(&page, &n) : NULL;
        if (b) { /* the template with its two markers filled in */
            fwrite(tpl, 1, (size_t)(t1 - tpl), b);
            put_title(b, root);
            t1 += strlen(MARK_TITLE);
            fwrite(t1, 1, (size_t)(t2 - t1), b);
            put_script_json(b, text);
            fputs(t2 + strlen(MARK_REPORT), b);
        }
        if (!t1 || !t2) /* the build checks both markers */
            st = keps_error_set(err, KEPS_EINPUT, "the HTML template lacks its markers (a build error)");
        else if (!b || ferror(b) | fclose(b)) {
            free(page);
            st = keps_error_set(err, KEPS_ENOMEM, "out of memory rendering the report");
        } else {
            *html = page;
            if (html_len)
                *html_len = n;
        }
    }
    keps_json_free(&j);
    json_decref(root);
    return st;
}
