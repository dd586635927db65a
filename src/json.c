#include "keps/json.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void keps_json_init(keps_json *j)
{
    memset(j, 0, sizeof *j);
    j->first[0] = 1;
}

void keps_json_free(keps_json *j)
{
    free(j->buf);
    memset(j, 0, sizeof *j);
}

static void put(keps_json *j, const char *s, size_t n)
{
    if (j->oom)
        return;
    if (j->len + n + 1 > j->cap) {
        size_t c = j->cap ? j->cap : 256;
        while (c < j->len + n + 1)
            c *= 2;
        char *b = realloc(j->buf, c);
        if (!b) {
            j->oom = 1;
            return;
        }
        j->buf = b;
        j->cap = c;
    }
    memcpy(j->buf + j->len, s, n);
    j->len += n;
    j->buf[j->len] = '\0';
}

static void puts_(keps_json *j, const char *s)
{
    put(j, s, strlen(s));
}

/* Length of the well-formed UTF-8 sequence at s (RFC 3629: no overlong
 * forms, no surrogates, nothing above U+10FFFF), or 0. */
static size_t utf8_len(const unsigned char *s)
{
    unsigned char c = s[0];
    size_t n = c >= 0xF0 && c <= 0xF4 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 && c <= 0xDF ? 2 : 0;
    if (c >= 0xF5)
        n = 0;
    for (size_t i = 1; i < n; i++)
        if ((s[i] & 0xC0) != 0x80)
            return 0;
    if ((c == 0xE0 && s[1] < 0xA0) || (c == 0xED && s[1] > 0x9F) || (c == 0xF0 && s[1] < 0x90) ||
        (c == 0xF4 && s[1] > 0x8F))
        return 0;
    return n;
}

/* A JSON string. Data need not be UTF-8 (Latin-1 CSVs are common); a byte
 * that does not start a well-formed sequence is written as the code point
 * of the same value (its Latin-1 reading), so the report stays valid JSON. */
static void quoted(keps_json *j, const char *str)
{
    const unsigned char *s = (const unsigned char *)str;
    put(j, "\"", 1);
    while (*s) {
        unsigned char c = *s;
        char esc[8];
        size_t n;
        if (c == '"' || c == '\\') {
            esc[0] = '\\';
            esc[1] = (char)c;
            put(j, esc, 2);
            s++;
        } else if (c < 0x20 || c == 0x7F || (c >= 0x80 && !utf8_len(s))) {
            snprintf(esc, sizeof esc, "\\u%04x", c);
            put(j, esc, 6);
            s++;
        } else {
            n = c < 0x80 ? 1 : utf8_len(s);
            put(j, (const char *)s, n);
            s += n;
        }
    }
    put(j, "\"", 1);
}

static void member(keps_json *j, const char *key)
{
    if (!j->first[j->depth])
        put(j, ",", 1);
    j->first[j->depth] = 0;
    if (key) {
        quoted(j, key);
        put(j, ":", 1);
    }
}

static void open_(keps_json *j, const char *key, const char *bracket)
{
    member(j, key);
    puts_(j, bracket);
    if (j->depth < 63) {
        j->first[++j->depth] = 1;
        j->close[j->depth] = bracket[0] == '{' ? '}' : ']';
    }
}

void keps_json_object(keps_json *j, const char *key) { open_(j, key, "{"); }
void keps_json_array(keps_json *j, const char *key) { open_(j, key, "["); }

void keps_json_end(keps_json *j)
{
    if (j->depth == 0)
        return;
    put(j, &j->close[j->depth], 1);
    j->depth--;
}

void keps_json_str(keps_json *j, const char *key, const char *v)
{
    member(j, key);
    if (v)
        quoted(j, v);
    else
        puts_(j, "null");
}

void keps_json_num(keps_json *j, const char *key, double v)
{
    member(j, key);
    if (!isfinite(v)) {
        puts_(j, "null");
        return;
    }
    char b[40];
    snprintf(b, sizeof b, "%.17g", v);
    /* A whole number below 2^53 is written whole (20, not %g's 2e+01). */
    if (v == floor(v) && fabs(v) < 9007199254740992.0) {
        snprintf(b, sizeof b, "%.0f", v);
        puts_(j, b);
        return;
    }
    /* Shortest text that reads back to the same double. */
    for (int p = 1; p <= 17; p++) {
        char t[40];
        snprintf(t, sizeof t, "%.*g", p, v);
        if (strtod(t, NULL) == v) {
            memcpy(b, t, sizeof t);
            break;
        }
    }
    puts_(j, b);
}

void keps_json_int(keps_json *j, const char *key, long long v)
{
    member(j, key);
    char b[32];
    snprintf(b, sizeof b, "%lld", v);
    puts_(j, b);
}

void keps_json_bool(keps_json *j, const char *key, int v)
{
    member(j, key);
    puts_(j, v ? "true" : "false");
}

void keps_json_null(keps_json *j, const char *key)
{
    member(j, key);
    puts_(j, "null");
}

void keps_json_raw(keps_json *j, const char *key, const char *json)
{
    member(j, key);
    puts_(j, json);
}

const char *keps_json_text(const keps_json *j)
{
    return j->oom ? NULL : (j->buf ? j->buf : "");
}
