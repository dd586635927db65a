/* Hierarchy builders (keps/hierarchy.h): intervals, masking, runs of
 * ordered values, ISO dates, bottom and top coding, made from a column's
 * own values as ARX's builders make them (learned from ARX 3.9.2's
 * HierarchyBuilderIntervalBased, ...RedactionBased, ...OrderBased and
 * ...Date; labels follow theirs where keps had none: "<18", ">=90",
 * "[first, last]", "[2020, 2030["). */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keps/csv.h"
#include "keps/hierarchy.h"
#include "keps/release.h"
#include "internal.h"

/* ---- spec ---- */

static const char *const unit_names[] = {"day", "month", "quarter", "year", "decade", "century"};
static const char *const kind_names[] = {"bottom/top coding", "interval", "mask", "order", "date"};

int keps_hierarchy_is_spec(const char *text)
{
    static const char *const keys[] = {"interval=", "mask=", "order=", "date=", "bottom=", "top="};
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
        if (strncmp(text, keys[i], strlen(keys[i])) == 0)
            return 1;
    return 0;
}

static keps_status spec_error(keps_error *err, const char *text, const char *fmt, const char *item)
{
    char what[512];
    snprintf(what, sizeof what, fmt, item);
    return keps_error_set(err, KEPS_EINPUT,
                          "hierarchy builder '%s': %s (builders: interval=5,10,20, mask=1,2,3, order=2,4, "
                          "date=month,year,decade; bottom=B and top=T code the extremes, alone or with interval= "
                          "or date=)",
                          text, what);
}

/* A whole number >= lo written in decimal digits. */
static int whole(const char *s, unsigned lo, unsigned *out)
{
    if (!*s || strspn(s, "0123456789") != strlen(s) || strlen(s) > 9)
        return 0;
    *out = (unsigned)strtoul(s, NULL, 10);
    return *out >= lo;
}

/* One value of the list key in force (kind), or of bottom/top. */
static keps_status spec_value(const char *text, keps_hierarchy_spec *sp, const char *key, const char *val,
                              keps_error *err)
{
    if (!*val)
        return spec_error(err, text, "an empty value after '%s='", key);
    if (!strcmp(key, "bottom") || !strcmp(key, "top")) {
        char *dst = key[0] == 'b' ? sp->bottom : sp->top;
        if (*dst)
            return spec_error(err, text, "'%s' takes one value", key);
        if (strlen(val) >= sizeof sp->bottom)
            return spec_error(err, text, "the value of '%s' is too long", key);
        strcpy(dst, val);
        return KEPS_OK;
    }
    if (sp->nlevels == KEPS_BUILD_MAX_LEVELS)
        return spec_error(err, text, "more than 32 levels in '%s'", key);
    size_t i = sp->nlevels;
    switch (sp->kind) {
    case KEPS_BUILD_INTERVAL: {
        double w;
        if (keps_parse_number(val, &w) != KEPS_NUM_OK || !(w > 0))
            return spec_error(err, text, "interval widths are numbers above 0 written with '.', not '%s'", val);
        if (i > 0) {
            double ratio = w / sp->widths[i - 1];
            if (ratio < 1.5 || fabs(ratio - nearbyint(ratio)) > 1e-9) {
                char m[400];
                snprintf(m, sizeof m,
                         "width %g is not a multiple (>1) of %g; each width must be a multiple of the one before, "
                         "so that every interval is a union of the level below's ([5-10[ would straddle [0-7[ "
                         "and [7-14[)",
                         w, sp->widths[i - 1]);
                return spec_error(err, text, "%s", m);
            }
        }
        sp->widths[i] = w;
        break;
    }
    case KEPS_BUILD_MASK:
        if (!whole(val, 1, &sp->counts[i]))
            return spec_error(err, text, "mask= counts characters: whole numbers from 1, not '%s'", val);
        if (i > 0 && sp->counts[i] <= sp->counts[i - 1])
            return spec_error(err, text, "mask counts must increase level by level ('%s' does not)", val);
        break;
    case KEPS_BUILD_ORDER:
        if (!whole(val, 2, &sp->counts[i]))
            return spec_error(err, text, "order= counts values per run: whole numbers from 2, not '%s'", val);
        if (i > 0 && (sp->counts[i] <= sp->counts[i - 1] || sp->counts[i] % sp->counts[i - 1]))
            return spec_error(err, text,
                              "run length %s is not a multiple (>1) of the one before; runs must nest, so each "
                              "length is a multiple of the previous",
                              val);
        break;
    case KEPS_BUILD_DATE: {
        size_t u = 0;
        while (u < sizeof unit_names / sizeof *unit_names && strcmp(unit_names[u], val))
            u++;
        if (u == sizeof unit_names / sizeof *unit_names)
            return spec_error(err, text, "date units are day, month, quarter, year, decade, century; not '%s'",
                              val);
        if (i > 0 && u <= (size_t)sp->units[i - 1])
            return spec_error(err, text, "date units must grow coarser level by level ('%s' does not)", val);
        sp->units[i] = (keps_date_unit)u;
        break;
    }
    default:
        return spec_error(err, text, "'%s' follows no list key", val);
    }
    sp->nlevels++;
    return KEPS_OK;
}

keps_status keps_hierarchy_parse_spec(const char *text, keps_hierarchy_spec *sp, keps_error *err)
{
    memset(sp, 0, sizeof *sp);
    static const struct {
        const char *key;
        keps_build_kind kind;
    } lists[] = {{"interval", KEPS_BUILD_INTERVAL}, {"mask", KEPS_BUILD_MASK}, {"order", KEPS_BUILD_ORDER},
                 {"date", KEPS_BUILD_DATE}};
    char key[128] = "";
    int list_given = 0;
    for (const char *p = text;;) {
        size_t n = strcspn(p, ",");
        char item[128];
        if (n >= sizeof item)
            return spec_error(err, text, "an item is too long: '%.40s...'", p);
        memcpy(item, p, n);
        item[n] = '\0';
        char *eq = strchr(item, '=');
        const char *val = item;
        if (eq) {
            *eq = '\0';
            val = eq + 1;
            size_t k = 0;
            while (k < sizeof lists / sizeof *lists && strcmp(lists[k].key, item))
                k++;
            if (k < sizeof lists / sizeof *lists) {
                if (list_given)
                    return spec_error(err, text, "one builder at a time: '%s=' after another", item);
                list_given = 1;
                sp->kind = lists[k].kind;
            } else if (strcmp(item, "bottom") && strcmp(item, "top")) {
                return spec_error(err, text, "unknown key '%s'", item);
            }
            snprintf(key, sizeof key, "%s", item);
        } else if (!*key) {
            return spec_error(err, text, "'%s' follows no key", item);
        }
        keps_status st = spec_value(text, sp, key, val, err);
        if (st)
            return st;
        if (!p[n])
            break;
        p += n + 1;
    }
    if (list_given && sp->nlevels == 0)
        return spec_error(err, text, "%s", "no levels given");
    if (!list_given && !*sp->bottom && !*sp->top)
        return spec_error(err, text, "%s", "nothing to build");
    if ((*sp->bottom || *sp->top) && (sp->kind == KEPS_BUILD_MASK || sp->kind == KEPS_BUILD_ORDER))
        return spec_error(err, text, "bottom= and top= go with interval= or date= (or alone), not with %s=",
                          sp->kind == KEPS_BUILD_MASK ? "mask" : "order");
    return KEPS_OK;
}

/* ---- values ---- */

/* An ISO 8601 date or date-time, as comparable fields. */
typedef struct {
    int y, mo, d, h, mi, s;
} isodate;

static int two(const char *s, int *v)
{
    if (s[0] < '0' || s[0] > '9' || s[1] < '0' || s[1] > '9')
        return 0;
    *v = (s[0] - '0') * 10 + (s[1] - '0');
    return 1;
}

static int days_in(int y, int mo)
{
    static const int dm[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    return dm[mo - 1] + (mo == 2 && leap);
}

/* YYYY-MM-DD, then optionally [T ]HH:MM[:SS]; 1 if s is one. */
static int parse_iso(const char *s, isodate *t)
{
    int c1, c2;
    memset(t, 0, sizeof *t);
    if (strlen(s) < 10 || !two(s, &c1) || !two(s + 2, &c2) || s[4] != '-' || !two(s + 5, &t->mo) ||
        s[7] != '-' || !two(s + 8, &t->d))
        return 0;
    t->y = c1 * 100 + c2;
    if (t->y < 1 || t->mo < 1 || t->mo > 12 || t->d < 1 || t->d > days_in(t->y, t->mo))
        return 0;
    s += 10;
    if (!*s)
        return 1;
    if ((*s != 'T' && *s != ' ') || !two(s + 1, &t->h) || s[3] != ':' || !two(s + 4, &t->mi) || t->h > 23 ||
        t->mi > 59)
        return 0;
    s += 6;
    if (*s == ':' && two(s + 1, &t->s) && t->s <= 59 && !s[3])
        return 1;
    return *s == '\0';
}

static int cmp_iso(const isodate *a, const isodate *b)
{
    const int x[] = {a->y, a->mo, a->d, a->h, a->mi, a->s}, y[] = {b->y, b->mo, b->d, b->h, b->mi, b->s};
    for (int i = 0; i < 6; i++)
        if (x[i] != y[i])
            return x[i] < y[i] ? -1 : 1;
    return 0;
}

/* Exact decimal arithmetic for intervals: every number is an integer
 * count of 10^-dec, so boundaries and labels are the decimals the user
 * wrote. Scaled values stay below 2^49: a decimal read as a double and
 * multiplied by 10^dec is then within 0.25 of its integer, so llround
 * finds it. Falls back to doubles when that does not fit. */
typedef struct {
    int exact, dec;
    double scale;
} fixed;

static int fits(double v, const fixed *f)
{
    return fabs(v) * f->scale < 562949953421312.0; /* 2^49 */
}

static int decimals_of(double v)
{
    char b[40];
    keps_format_number(b, sizeof b, v);
    const char *p = strchr(b, '.'), *e = strpbrk(b, "eE");
    long d = (p ? (long)strspn(p + 1, "0123456789") : 0) - (e ? strtol(e + 1, NULL, 10) : 0);
    return d < 0 ? 0 : (int)d;
}

static int64_t floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

/* Writes the scaled integer x as a decimal with t's mark. */
static void fixed_label(char *buf, size_t len, int64_t x, const fixed *f, const keps_table *t)
{
    if (!f->dec) {
        snprintf(buf, len, "%lld", (long long)x);
        return;
    }
    uint64_t a = x < 0 ? (uint64_t)(-(x + 1)) + 1 : (uint64_t)x, p = 1;
    for (int i = 0; i < f->dec; i++)
        p *= 10;
    char frac[24];
    snprintf(frac, sizeof frac, "%0*llu", f->dec, (unsigned long long)(a % p));
    size_t n = strlen(frac);
    while (n > 0 && frac[n - 1] == '0')
        frac[--n] = '\0';
    snprintf(buf, len, "%s%llu%s%s", x < 0 ? "-" : "", (unsigned long long)(a / p), n ? (t->decimal_comma ? "," : ".") : "",
             frac);
}

static void double_label(char *buf, size_t len, double v, const keps_table *t)
{
    snprintf(buf, len, "%.15g", v);
    for (char *p = buf; t->decimal_comma && *p; p++)
        *p = *p == '.' ? ',' : *p;
}

/* ---- the builder ---- */

typedef struct {
    keps_table *t;
    size_t col;
    const keps_hierarchy_spec *sp;
    const keps_column *c;
    double *num;        /* numbers (interval, coding, numeric order) */
    isodate *date;      /* dates */
    uint32_t *rank;     /* order: position of each code among the sorted values */
    uint32_t *sorted;   /* codes in builder order (missing last) */
    uint32_t nsorted;   /* non-missing codes */
    size_t maxchars;    /* mask */
    fixed fx;
    int64_t *fv;        /* exact values, scaled */
    int64_t fw[KEPS_BUILD_MAX_LEVELS], fb, ft;
    double bottom, top; /* numbers; NaN: none */
    isodate dbottom, dtop;
    int has_bottom, has_top;
    size_t cellcap;
} build;

/* A leaf with its sort key: qsort has no context argument (C11), so each
 * element carries what its comparison needs. */
typedef struct {
    int by;        /* 0 bytes, 1 number, 2 date */
    double num;
    isodate date;
    const char *s;
    uint32_t v;
} leaf;

static int cmp_leaf(const void *pa, const void *pb)
{
    const leaf *a = pa, *b = pb;
    if (a->by == 1 && a->num != b->num)
        return a->num < b->num ? -1 : 1;
    if (a->by == 2) {
        int r = cmp_iso(&a->date, &b->date);
        if (r)
            return r;
    }
    return strcmp(a->s, b->s);
}

static size_t utf8_chars(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

/* Byte length of the first k characters of s (all of s if shorter). */
static size_t utf8_prefix(const char *s, size_t k)
{
    size_t i = 0;
    for (size_t n = 0; s[i]; i++) {
        if (((unsigned char)s[i] & 0xC0) != 0x80 && n++ == k)
            break;
    }
    return i;
}

static keps_status read_values(build *b, int numeric, keps_error *err)
{
    const keps_column *c = b->c;
    const keps_hierarchy_spec *sp = b->sp;
    keps_status st = KEPS_OK;
    if (sp->kind == KEPS_BUILD_INTERVAL || sp->kind == KEPS_BUILD_CODING ||
        (sp->kind == KEPS_BUILD_ORDER && numeric)) {
        if ((st = keps_table_numeric(b->t, b->col, err)))
            return st;
        b->num = c->num;
    }
    if (sp->kind == KEPS_BUILD_DATE) {
        b->date = calloc(c->nvalues + 1, sizeof *b->date);
        if (!b->date)
            return keps_error_set(err, KEPS_ENOMEM, "out of memory");
        for (uint32_t v = 0; v < c->nvalues; v++)
            if (v != c->missing && !parse_iso(c->values[v], &b->date[v]))
                return keps_table_cell_error(err, b->t, b->col, c->first_row[v],
                                             "'%s' is not an ISO 8601 date: the date builder reads YYYY-MM-DD "
                                             "(a real calendar date), optionally followed by 'T' or a space and "
                                             "HH:MM or HH:MM:SS, and nothing else (no time zone, no other layout)",
                                             c->values[v]);
    }
    for (uint32_t v = 0; v < c->nvalues; v++) {
        size_t n = strlen(c->values[v]);
        b->cellcap = n > b->cellcap ? n : b->cellcap;
        if (v != c->missing)
            b->maxchars = utf8_chars(c->values[v]) > b->maxchars ? utf8_chars(c->values[v]) : b->maxchars;
    }
    b->cellcap = b->cellcap * 2 + 160; /* "[first, last]" of two values, or numbers and marks */
    return KEPS_OK;
}

static keps_status read_bounds(build *b, keps_error *err)
{
    const keps_hierarchy_spec *sp = b->sp;
    b->has_bottom = sp->bottom[0] != '\0';
    b->has_top = sp->top[0] != '\0';
    const char *bad = NULL;
    if (sp->kind == KEPS_BUILD_DATE) {
        if (b->has_bottom && !parse_iso(sp->bottom, &b->dbottom))
            bad = sp->bottom;
        else if (b->has_top && !parse_iso(sp->top, &b->dtop))
            bad = sp->top;
        if (bad)
            return keps_error_set(err, KEPS_EINPUT,
                                  "date builder: bottom/top '%s' is not an ISO 8601 date (YYYY-MM-DD, optionally "
                                  "with a time)",
                                  bad);
        if (b->has_bottom && b->has_top && cmp_iso(&b->dbottom, &b->dtop) >= 0)
            return keps_error_set(err, KEPS_EINPUT, "date builder: bottom %s must come before top %s", sp->bottom,
                                  sp->top);
        return KEPS_OK;
    }
    if (b->has_bottom && keps_parse_number(sp->bottom, &b->bottom) != KEPS_NUM_OK)
        bad = sp->bottom;
    else if (b->has_top && keps_parse_number(sp->top, &b->top) != KEPS_NUM_OK)
        bad = sp->top;
    if (bad)
        return keps_error_set(err, KEPS_EINPUT, "%s builder: bottom/top '%s' is not a number written with '.'",
                              kind_names[sp->kind], bad);
    if (b->has_bottom && b->has_top && !(b->bottom < b->top))
        return keps_error_set(err, KEPS_EINPUT, "%s builder: bottom %s must lie below top %s", kind_names[sp->kind],
                              sp->bottom, sp->top);
    return KEPS_OK;
}

/* Exact decimal setup of an interval builder; fx.exact stays 0 when the
 * numbers do not fit. */
static keps_status setup_fixed(build *b, keps_error *err)
{
    const keps_hierarchy_spec *sp = b->sp;
    int dec = keps_table_decimals(b->t, b->col);
    for (size_t i = 0; i < sp->nlevels; i++)
        dec = decimals_of(sp->widths[i]) > dec ? decimals_of(sp->widths[i]) : dec;
    if (b->has_bottom)
        dec = decimals_of(b->bottom) > dec ? decimals_of(b->bottom) : dec;
    if (b->has_top)
        dec = decimals_of(b->top) > dec ? decimals_of(b->top) : dec;
    if (dec > 15)
        return KEPS_OK;
    b->fx.dec = dec;
    b->fx.scale = pow(10, dec);
    int ok = 1;
    for (uint32_t v = 0; v < b->c->nvalues; v++)
        ok = ok && (v == b->c->missing || fits(b->num[v], &b->fx));
    for (size_t i = 0; i < sp->nlevels; i++)
        ok = ok && fits(sp->widths[i], &b->fx);
    ok = ok && (!b->has_bottom || fits(b->bottom, &b->fx)) && (!b->has_top || fits(b->top, &b->fx));
    if (!ok)
        return KEPS_OK;
    b->fv = malloc((b->c->nvalues + 1) * sizeof *b->fv);
    if (!b->fv)
        return keps_error_set(err, KEPS_ENOMEM, "out of memory");
    for (uint32_t v = 0; v < b->c->nvalues; v++)
        b->fv[v] = v == b->c->missing ? 0 : llround(b->num[v] * b->fx.scale);
    for (size_t i = 0; i < sp->nlevels; i++) {
        b->fw[i] = llround(sp->widths[i] * b->fx.scale);
        if (i > 0 && b->fw[i] % b->fw[i - 1]) {
            char m[200];
            snprintf(m, sizeof m, "width %g is not a multiple of %g", sp->widths[i], sp->widths[i - 1]);
            return keps_error_set(err, KEPS_EINPUT,
                                  "interval builder: %s; each width must be a multiple of the one before, so that "
                                  "every interval is a union of the level below's",
                                  m);
        }
    }
    b->fb = b->has_bottom ? llround(b->bottom * b->fx.scale) : 0;
    b->ft = b->has_top ? llround(b->top * b->fx.scale) : 0;
    b->fx.exact = 1;
    return KEPS_OK;
}

/* "<bottom" or ">=top" when v is coded, else NULL. */
static const char *coded(const build *b, uint32_t v, char *buf, size_t len)
{
    int below, above;
    if (b->sp->kind == KEPS_BUILD_DATE) {
        below = b->has_bottom && cmp_iso(&b->date[v], &b->dbottom) < 0;
        above = b->has_top && cmp_iso(&b->date[v], &b->dtop) >= 0;
    } else if (b->fx.exact) {
        below = b->has_bottom && b->fv[v] < b->fb;
        above = b->has_top && b->fv[v] >= b->ft;
    } else {
        below = b->has_bottom && b->num[v] < b->bottom;
        above = b->has_top && b->num[v] >= b->top;
    }
    if (!below && !above)
        return NULL;
    char bound[64];
    const char *src = below ? b->sp->bottom : b->sp->top;
    if (b->sp->kind == KEPS_BUILD_DATE)
        snprintf(bound, sizeof bound, "%s", src);
    else if (b->fx.exact)
        fixed_label(bound, sizeof bound, below ? b->fb : b->ft, &b->fx, b->t);
    else
        double_label(bound, sizeof bound, below ? b->bottom : b->top, b->t);
    snprintf(buf, len, "%s%s", below ? "<" : ">=", bound);
    return buf;
}

static void interval_label(const build *b, uint32_t v, size_t i, char *buf, size_t len)
{
    char lo[64], hi[64];
    if (b->fx.exact) {
        int64_t w = b->fw[i], l = floor_div(b->fv[v], w) * w, h = l + w;
        if (b->has_bottom && l < b->fb)
            l = b->fb;
        if (b->has_top && h > b->ft)
            h = b->ft;
        fixed_label(lo, sizeof lo, l, &b->fx, b->t);
        fixed_label(hi, sizeof hi, h, &b->fx, b->t);
    } else {
        double w = b->sp->widths[i], l = floor(b->num[v] / w) * w, h = l + w;
        if (b->has_bottom && l < b->bottom)
            l = b->bottom;
        if (b->has_top && h > b->top)
            h = b->top;
        double_label(lo, sizeof lo, l, b->t);
        double_label(hi, sizeof hi, h, b->t);
    }
    snprintf(buf, len, "[%s-%s[", lo, hi);
}

static void date_label(const isodate *d, keps_date_unit u, char *buf, size_t len)
{
    switch (u) {
    case KEPS_DATE_DAY:
        snprintf(buf, len, "%04d-%02d-%02d", d->y, d->mo, d->d);
        break;
    case KEPS_DATE_MONTH:
        snprintf(buf, len, "%04d-%02d", d->y, d->mo);
        break;
    case KEPS_DATE_QUARTER:
        snprintf(buf, len, "%04d-Q%d", d->y, (d->mo - 1) / 3 + 1);
        break;
    case KEPS_DATE_YEAR:
        snprintf(buf, len, "%04d", d->y);
        break;
    case KEPS_DATE_DECADE:
    case KEPS_DATE_CENTURY: {
        int span = u == KEPS_DATE_DECADE ? 10 : 100, lo = d->y / span * span;
        snprintf(buf, len, "[%d, %d[", lo, lo + span);
        break;
    }
    }
}

/* The label of value v at builder level i (0-based, below the top). */
static void label(const build *b, uint32_t v, size_t i, char *buf, size_t len)
{
    const keps_hierarchy_spec *sp = b->sp;
    const char *s = b->c->values[v];
    if (v == b->c->missing) {
        snprintf(buf, len, "%s", s);
        return;
    }
    if ((sp->kind == KEPS_BUILD_CODING || sp->kind == KEPS_BUILD_INTERVAL || sp->kind == KEPS_BUILD_DATE) &&
        coded(b, v, buf, len))
        return;
    switch (sp->kind) {
    case KEPS_BUILD_CODING:
        snprintf(buf, len, "%s", s);
        break;
    case KEPS_BUILD_INTERVAL:
        interval_label(b, v, i, buf, len);
        break;
    case KEPS_BUILD_MASK: {
        size_t keep = b->maxchars - sp->counts[i], have = utf8_chars(s);
        size_t k = keep < have ? keep : have, bytes = utf8_prefix(s, k);
        size_t stars = b->maxchars - k;
        snprintf(buf, len, "%.*s%.*s", (int)bytes, s, (int)stars, "");
        memset(buf + bytes, '*', stars);
        buf[bytes + stars] = '\0';
        break;
    }
    case KEPS_BUILD_ORDER: {
        uint32_t run = sp->counts[i], first = b->rank[v] / run * run, last = first + run - 1;
        if (last >= b->nsorted)
            last = b->nsorted - 1;
        snprintf(buf, len, "[%s, %s]", b->c->values[b->sorted[first]], b->c->values[b->sorted[last]]);
        break;
    }
    case KEPS_BUILD_DATE:
        date_label(&b->date[v], sp->units[i], buf, len);
        break;
    }
}

static keps_status sort_leaves(build *b, keps_error *err)
{
    const keps_column *c = b->c;
    b->sorted = malloc((c->nvalues + 1) * sizeof *b->sorted);
    b->rank = malloc((c->nvalues + 1) * sizeof *b->rank);
    leaf *lv = malloc((c->nvalues + 1) * sizeof *lv);
    if (!b->sorted || !b->rank || !lv) {
        free(lv);
        return keps_error_set(err, KEPS_ENOMEM, "out of memory");
    }
    uint32_t n = 0;
    for (uint32_t v = 0; v < c->nvalues; v++)
        if (v != c->missing)
            lv[n++] = (leaf){.by = b->date ? 2 : b->num ? 1 : 0,
                             .num = b->num ? b->num[v] : 0,
                             .date = b->date ? b->date[v] : (isodate){0},
                             .s = c->values[v],
                             .v = v};
    qsort(lv, n, sizeof *lv, cmp_leaf);
    for (uint32_t i = 0; i < n; i++) {
        b->sorted[i] = lv[i].v;
        b->rank[lv[i].v] = i;
    }
    free(lv);
    b->nsorted = n;
    if (c->missing != KEPS_NONE)
        b->sorted[n] = c->missing;
    return KEPS_OK;
}

static keps_status check_mask(const build *b, keps_error *err)
{
    const keps_hierarchy_spec *sp = b->sp;
    if (sp->kind != KEPS_BUILD_MASK || sp->counts[sp->nlevels - 1] < b->maxchars)
        return KEPS_OK;
    return keps_error_set(err, KEPS_EINPUT,
                          "mask builder for '%s': %u characters is not below the longest value's length %zu; "
                          "masking them all is the top level '*' itself: use counts up to %zu",
                          b->c->name, sp->counts[sp->nlevels - 1], b->maxchars,
                          b->maxchars ? b->maxchars - 1 : 0);
}

static keps_status assemble(build *b, keps_hierarchy **out, keps_error *err)
{
    const keps_hierarchy_spec *sp = b->sp;
    size_t mid = sp->kind == KEPS_BUILD_CODING ? 1 : sp->nlevels, nl = mid + 2;
    const char **names = malloc(nl * sizeof *names), **row = malloc(nl * sizeof *row);
    char (*nb)[24] = malloc(nl * sizeof *nb), *cells = malloc(nl * b->cellcap);
    keps_table *L = NULL;
    keps_status st = KEPS_OK;
    if (!names || !row || !nb || !cells) {
        st = keps_error_set(err, KEPS_ENOMEM, "out of memory");
        goto done;
    }
    for (size_t l = 0; l < nl; l++) {
        snprintf(nb[l], sizeof nb[l], "%zu", l);
        names[l] = nb[l];
    }
    char src[300];
    snprintf(src, sizeof src, "%s hierarchy of '%.200s'", kind_names[sp->kind], b->c->name);
    if (!(L = keps_table_new(nl, names, "\x01", src, err))) {
        st = err ? err->code : KEPS_EINPUT;
        goto done;
    }
    L->decimal_comma = b->t->decimal_comma;
    uint32_t total = b->nsorted + (b->c->missing != KEPS_NONE);
    for (uint32_t r = 0; r < total && !st; r++) {
        uint32_t v = b->sorted[r];
        row[0] = b->c->values[v];
        for (size_t l = 1; l <= mid; l++) {
            char *cell = cells + l * b->cellcap;
            label(b, v, l - 1, cell, b->cellcap);
            row[l] = cell;
        }
        row[nl - 1] = "*";
        st = keps_table_append(L, row, NULL, 0, err);
    }
    if (!st) {
        st = keps_hierarchy_from_table(L, out, err);
        L = NULL;
    }
done:
    keps_table_free(L);
    free(names);
    free(row);
    free(nb);
    free(cells);
    return st;
}

keps_status keps_hierarchy_build(keps_table *t, size_t col, const keps_hierarchy_spec *sp, int numeric,
                                 keps_hierarchy **out, keps_error *err)
{
    *out = NULL;
    if (col >= t->ncols)
        return keps_error_set(err, KEPS_EINPUT, "column index %zu is out of range: %s has %zu columns", col,
                              t->source, t->ncols);
    if ((unsigned)sp->kind > KEPS_BUILD_DATE || sp->nlevels > KEPS_BUILD_MAX_LEVELS ||
        (sp->kind != KEPS_BUILD_CODING && sp->nlevels == 0))
        return keps_error_set(err, KEPS_EINPUT, "hierarchy builder: kind %d with %zu levels is not a builder",
                              (int)sp->kind, sp->nlevels);
    if (t->cols[col].nvalues == 0)
        return keps_error_set(err, KEPS_EINPUT, "%s: column '%s' holds no values: nothing to build a hierarchy of",
                              t->source, t->cols[col].name);
    build b = {.t = t, .col = col, .sp = sp, .c = &t->cols[col]};
    if (numeric < 0)
        numeric = keps_table_infer_type(t, col, NULL, NULL) == KEPS_TYPE_NUMERIC;
    keps_status st = read_values(&b, numeric, err);
    if (!st)
        st = read_bounds(&b, err);
    if (!st && sp->kind == KEPS_BUILD_INTERVAL)
        st = setup_fixed(&b, err);
    if (!st)
        st = check_mask(&b, err);
    if (!st)
        st = sort_leaves(&b, err);
    if (!st)
        st = assemble(&b, out, err);
    free(b.date);
    free(b.rank);
    free(b.sorted);
    free(b.fv);
    return st;
}

keps_status keps_hierarchy_build_text(keps_table *t, size_t col, const char *text, keps_hierarchy **out,
                                      keps_error *err)
{
    keps_hierarchy_spec sp;
    *out = NULL;
    keps_status st = keps_hierarchy_parse_spec(text, &sp, err);
    return st ? st : keps_hierarchy_build(t, col, &sp, -1, out, err);
}

/* A spec of one kind from a caller's array. */
static keps_status build_kind(keps_table *t, size_t col, keps_build_kind kind, size_t n, const void *levels,
                              int numeric, keps_hierarchy **out, keps_error *err)
{
    keps_hierarchy_spec sp;
    memset(&sp, 0, sizeof sp);
    *out = NULL;
    if (n == 0 || n > KEPS_BUILD_MAX_LEVELS)
        return keps_error_set(err, KEPS_EINPUT, "%s builder: give 1 to %d levels, not %zu", kind_names[kind],
                              KEPS_BUILD_MAX_LEVELS, n);
    sp.kind = kind;
    char text[40];
    keps_status st = KEPS_OK;
    for (size_t i = 0; i < n && !st; i++) {
        if (kind == KEPS_BUILD_INTERVAL) {
            snprintf(text, sizeof text, "%.17g", ((const double *)levels)[i]);
        } else if (kind == KEPS_BUILD_DATE) {
            unsigned u = (unsigned)((const keps_date_unit *)levels)[i];
            snprintf(text, sizeof text, "%s", u < 6 ? unit_names[u] : "?");
        } else {
            snprintf(text, sizeof text, "%u", ((const unsigned *)levels)[i]);
        }
        char key[16];
        snprintf(key, sizeof key, "%s", kind == KEPS_BUILD_INTERVAL ? "interval"
                                        : kind == KEPS_BUILD_MASK   ? "mask"
                                        : kind == KEPS_BUILD_ORDER  ? "order"
                                                                    : "date");
        st = spec_value(text, &sp, key, text, err);
    }
    return st ? st : keps_hierarchy_build(t, col, &sp, numeric, out, err);
}

keps_status keps_hierarchy_interval(keps_table *t, size_t col, const double *widths, size_t nw,
                                    keps_hierarchy **out, keps_error *err)
{
    return build_kind(t, col, KEPS_BUILD_INTERVAL, nw, widths, 1, out, err);
}

keps_status keps_hierarchy_mask(keps_table *t, size_t col, const unsigned *counts, size_t n,
                                keps_hierarchy **out, keps_error *err)
{
    return build_kind(t, col, KEPS_BUILD_MASK, n, counts, 0, out, err);
}

keps_status keps_hierarchy_order(keps_table *t, size_t col, const unsigned *runs, size_t n, int numeric,
                                 keps_hierarchy **out, keps_error *err)
{
    return build_kind(t, col, KEPS_BUILD_ORDER, n, runs, numeric, out, err);
}

keps_status keps_hierarchy_date(keps_table *t, size_t col, const keps_date_unit *units, size_t n,
                                keps_hierarchy **out, keps_error *err)
{
    return build_kind(t, col, KEPS_BUILD_DATE, n, units, 0, out, err);
}

keps_status keps_hierarchy_write_to(const keps_hierarchy *h, FILE *out, const char *name, char delimiter,
                                    keps_error *err)
{
    const keps_table *L = h->levels;
    const char **f = malloc((L->ncols ? L->ncols : 1) * sizeof *f);
    if (!f)
        return keps_error_set(err, KEPS_ENOMEM, "out of memory");
    int bad = 0;
    for (size_t r = 0; r < L->nrows && !bad; r++) {
        for (size_t j = 0; j < L->ncols; j++)
            f[j] = keps_table_str(L, j, r);
        bad = keps_csv_put_row(out, delimiter ? delimiter : ';', f, L->ncols);
    }
    free(f);
    return bad ? keps_error_at(err, KEPS_EIO, name, 0, 0, "write failed: %s", strerror(errno)) : KEPS_OK;
}

keps_status keps_hierarchy_write(const keps_hierarchy *h, const char *path, char delimiter, keps_error *err)
{
    const keps_table *L = h->levels;
    keps_csv_writer *w = keps_csv_writer_open(path, delimiter ? delimiter : ';', err);
    if (!w)
        return err ? err->code : KEPS_EIO;
    const char **f = malloc(L->ncols * sizeof *f);
    keps_status st = f ? KEPS_OK : KEPS_ENOMEM;
    for (size_t r = 0; r < L->nrows && !st; r++) {
        for (size_t j = 0; j < L->ncols; j++)
            f[j] = keps_table_str(L, j, r);
        st = keps_csv_write_row(w, f, L->ncols);
    }
    free(f);
    if (st) {
        keps_csv_writer_abort(w);
        return st == KEPS_ENOMEM ? keps_error_set(err, st, "out of memory")
                                 : keps_error_at(err, KEPS_EIO, path, 0, 0, "write failed: %s", strerror(errno));
    }
    return keps_csv_writer_commit(w, err);
}
