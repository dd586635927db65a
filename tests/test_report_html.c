/* The HTML page of a report (keps/report_html.h): the report embedded so
 * that no string in it can end the script element, one canonical form for
 * any spelling of the same JSON, the title escaped, bad reports refused
 * with their line and column. */
#include <string.h>

#include "keps/report_html.h"
#include "testutil.h"

static char *render(const char *json, keps_status want)
{
    char *html = NULL;
    size_t len = 0;
    keps_error err = {0};
    keps_status st = keps_report_html(json, strlen(json), "r.json", &html, &len, &err);
    assert_int_equal(st, want);
    if (st == KEPS_OK) {
        assert_non_null(html);
        assert_int_equal(strlen(html), len);
    } else {
        assert_null(html);
    }
    return html;
}

/* The text between <script type="application/json" id="keps-report"> and
 * the next </script>: what the browser hands to JSON.parse. */
static char *embedded(const char *html)
{
    const char *open = "<script type=\"application/json\" id=\"keps-report\">";
    const char *a = strstr(html, open);
    assert_non_null(a);
    a += strlen(open);
    const char *b = strstr(a, "</script>");
    assert_non_null(b);
    char *s = malloc((size_t)(b - a) + 1);
    memcpy(s, a, (size_t)(b - a));
    s[b - a] = '\0';
    return s;
}

static void script_cannot_be_closed(void **state)
{
    (void)state;
    /* A column named like markup: '</script>' must not end the element,
     * '<!--' must not open a comment (which would hide the end tag). */
    char *html = render("{\"method\":\"ola\",\"transformation\":{\"</script><script>alert(1)</script>\":1,"
                        "\"<!--\":2,\"a&b>c\":3}}",
                        KEPS_OK);
    char *js = embedded(html);
    assert_string_equal(js, "{\"method\":\"ola\",\"transformation\":{"
                            "\"\\u003c/script\\u003e\\u003cscript\\u003ealert(1)\\u003c/script\\u003e\":1,"
                            "\"\\u003c!--\":2,\"a\\u0026b\\u003ec\":3}}");
    /* the page holds the template's two scripts and nothing more */
    size_t n = 0;
    for (const char *p = html; (p = strstr(p, "</script>")); p++)
        n++;
    assert_int_equal(n, 2);
    free(js);
    free(html);
}

static void line_separators_escaped(void **state)
{
    (void)state;
    /* U+2028 and U+2029 (JSON allows them raw, old JavaScript did not) */
    char *html = render("{\"method\":\"rr\",\"note\":\"a\xe2\x80\xa8" "b\xe2\x80\xa9" "c\"}", KEPS_OK);
    char *js = embedded(html);
    assert_string_equal(js, "{\"method\":\"rr\",\"note\":\"a\\u2028b\\u2029c\"}");
    free(js);
    free(html);
}

static void one_form_for_any_spelling(void **state)
{
    (void)state;
    /* keps's own writing, and the same report pretty-printed with escapes
     * and other number spellings (as jq or python -m json.tool write it) */
    const char *compact = "{\"method\":\"safela\",\"k\":75,\"beta\":0.7,\"delta\":2.5278930337909323e-06,"
                          "\"name\":\"é\",\"list\":[1,2.5,null,true,false],\"o\":{}}";
    const char *pretty = "{\n  \"method\": \"safela\",\n  \"k\": 75.0,\n  \"beta\": 7e-1,\n"
                         "  \"delta\": 2.5278930337909323E-6,\n  \"name\": \"\\u00e9\",\n"
                         "  \"list\": [ 1, 2.50, null, true, false ],\n  \"o\": { }\n}\n";
    char *a = render(compact, KEPS_OK), *b = render(pretty, KEPS_OK);
    assert_string_equal(a, b);
    char *js = embedded(a);
    /* key order kept; numbers as keps writes them; UTF-8 as is */
    assert_string_equal(js, compact);
    free(js);
    free(a);
    free(b);
    /* a byte order mark (an editor's) is skipped */
    char *bom = render("\xEF\xBB\xBF{\"method\":\"safela\",\"k\":75,\"beta\":0.7,\"delta\":2.5278930337909323e-06,"
                       "\"name\":\"\xc3\xa9\",\"list\":[1,2.5,null,true,false],\"o\":{}}\r\n",
                       KEPS_OK);
    js = embedded(bom);
    assert_string_equal(js, compact);
    free(js);
    free(bom);
    /* a count beyond 2^63 still reads (as a number) */
    char *big = render("{\"method\":\"x\",\"n\":123456789012345678901234567890}", KEPS_OK);
    js = embedded(big);
    assert_string_equal(js, "{\"method\":\"x\",\"n\":1.2345678901234568e+29}");
    free(js);
    free(big);
}

static void title_escaped(void **state)
{
    (void)state;
    char *html = render("{\"method\":\"<b>x</b> & y\"}", KEPS_OK);
    assert_non_null(strstr(html, "<title>keps report: &lt;b&gt;x&lt;/b&gt; &amp; y</title>"));
    free(html);
    html = render("{\"result\":2}", KEPS_OK); /* a calculator's report has no method */
    assert_non_null(strstr(html, "<title>keps report</title>"));
    /* no network: the page names no http(s) resource and forbids any */
    assert_null(strstr(html, "src=\"http"));
    assert_null(strstr(html, "href=\"http"));
    assert_non_null(strstr(html, "default-src 'none'"));
    free(html);
}

static void bad_reports(void **state)
{
    (void)state;
    char *html = NULL;
    keps_error err = {0};
    const char *bad = "{\"method\": \"ola\",\n  \"k\": 5,,\n}";
    assert_int_equal(keps_report_html(bad, strlen(bad), "r.json", &html, NULL, &err), KEPS_EINPUT);
    assert_non_null(strstr(err.msg, "r.json:2:"));
    assert_non_null(strstr(err.msg, "not a JSON report"));
    assert_null(html);
    render("[1, 2]", KEPS_EINPUT);
    render("\"a string\"", KEPS_EINPUT);
    render("{\"k\": 1, \"k\": 2}", KEPS_EINPUT); /* which k would the page show? */
    render("", KEPS_EINPUT);
    render("{} trailing", KEPS_EINPUT);
    /* nested deeper than keps writes: refused, not a crash of the writer */
    char deep[400] = "{\"a\":";
    for (int i = 0; i < 70; i++)
        strcat(deep, "[");
    for (int i = 0; i < 70; i++)
        strcat(deep, "]");
    strcat(deep, "}");
    render(deep, KEPS_EINPUT);
    char ok[400] = "{\"a\":";
    for (int i = 0; i < 50; i++)
        strcat(ok, "[");
    for (int i = 0; i < 50; i++)
        strcat(ok, "]");
    strcat(ok, "}");
    free(render(ok, KEPS_OK));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(script_cannot_be_closed), cmocka_unit_test(line_separators_escaped),
        cmocka_unit_test(one_form_for_any_spelling), cmocka_unit_test(title_escaped),
        cmocka_unit_test(bad_reports),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
