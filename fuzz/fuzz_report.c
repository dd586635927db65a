/* Fuzzes keps report's reading (keps_report_html): any bytes are either
 * refused with a message or drawn into a page whose embedded report (the
 * canonical form) holds no '<', '>' or '&' and leaves the template's two
 * script elements the only ones; drawing the embedded report again gives
 * the same page (the canonical form is a fixed point). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "keps/report_html.h"

static const char OPEN[] = "<script type=\"application/json\" id=\"keps-report\">";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *html = NULL;
    size_t len = 0;
    keps_error err = {0};
    if (keps_report_html((const char *)data, size, "fuzz.json", &html, &len, &err) != KEPS_OK) {
        if (err.msg[0] == '\0' || html)
            __builtin_trap();
        return 0;
    }
    size_t ends = 0;
    for (const char *p = html; (p = strstr(p, "</script")); p++)
        ends++;
    const char *a = strstr(html, OPEN);
    const char *b = a ? strstr(a, "</script>") : NULL;
    if (ends != 2 || !a || !b || strlen(html) != len)
        __builtin_trap();
    a += sizeof OPEN - 1;
    for (const char *p = a; p < b; p++)
        if (*p == '<' || *p == '>' || *p == '&')
            __builtin_trap();
    char *again = NULL;
    if (keps_report_html(a, (size_t)(b - a), "embedded", &again, NULL, &err) != KEPS_OK || strcmp(again, html) != 0)
        __builtin_trap();
    free(again);
    free(html);
    return 0;
}
