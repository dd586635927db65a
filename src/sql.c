/* A lattice transformation as a SQL script (see include/keps/sql.h). */
#include "keps/sql.h"

#include "keps/hierarchy.h"
#include "keps/version.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* hierarchy rows per INSERT statement */
#define SQL_BATCH 256

typedef struct sbuf {
    char *p;
    size_t n, cap;
    int oom;
} sbuf;

static void put_n(sbuf *b, const char *s, size_t n)
{
    if (b->oom)
        return;
    if (b->n + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->n + n + 1)
            cap *= 2;
        char *p = realloc(b->p, cap);
        if (!p) {
            b->oom = 1;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = 0;
}

static void put(sbuf *b, const char *s)
{
    put_n(b, s, strlen(s));
}

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void putf(sbuf *b, const char *fmt, ...)
{
    char tmp[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof tmp)
        b->oom = 1; /* only short formats are used */
    else
        put_n(b, tmp, (size_t)n);
}

/* s between q's, each q inside doubled: 'it''s' and "a ""b""" */
static void put_quoted(sbuf *b, const char *s, char q)
{
    put_n(b, &q, 1);
    for (const char *e; (e = strchr(s, q)); s = e + 1) {
        put_n(b, s, (size_t)(e - s + 1));
        put_n(b, &q, 1);
    }
    put(b, s);
    put_n(b, &q, 1);
}

static void ident(sbuf *b, const char *s)
{
    put_quoted(b, s, '"');
}

static void literal(sbuf *b, const char *s)
{
    put_quoted(b, s, '\'');
}

/* The identifier a followed by c, quoted as one. */
static void ident_cat(sbuf *b, const char *a, const char *c)
{
    size_t la = strlen(a), lc = strlen(c);
    char *name = malloc(la + lc + 1);
    if (!name) {
        b->oom = 1;
        return;
    }
    memcpy(name, a, la);
    memcpy(name + la, c, lc + 1);
    ident(b, name);
    free(name);
}

/* "keps_h<i>_<table>": the distinguishing part first, as PostgreSQL cuts
 * identifiers at 63 bytes */
static void helper_table(sbuf *b, size_t qi, const char *table)
{
    char pre[32];
    snprintf(pre, sizeof pre, "keps_h%zu_", qi + 1);
    ident_cat(b, pre, table);
}

int keps_sql_dialect_parse(const char *name, keps_sql_dialect *out)
{
    static const char *names[] = {"ansi", "postgresql", "sqlite"};
    for (int d = 0; d < 3; d++)
        if (name && strcmp(name, names[d]) == 0) {
            *out = (keps_sql_dialect)d;
            return 0;
        }
    return -1;
}

static size_t max_len(size_t a, const char *s)
{
    size_t n = strlen(s);
    return n > a ? n : a;
}

/* The longest string the script compares or stores: data values of the
 * released columns, hierarchy leaves and labels, the token, '*'. */
static size_t longest(const keps_schema *s, const int *levels)
{
    const keps_table *t = s->t;
    size_t n = max_len(1, t->missing_token ? t->missing_token : "");
    for (size_t j = 0; j < t->ncols; j++)
        if (keps_schema_released(s, j))
            for (uint32_t v = 0; v < t->cols[j].nvalues; v++)
                n = max_len(n, t->cols[j].values[v]);
    for (size_t i = 0; i < s->nqi; i++) {
        const keps_table *h = s->qi[i].h->levels;
        for (size_t r = 0; r < h->nrows; r++)
            n = max_len(max_len(n, keps_table_str(h, 0, r)), keps_table_str(h, (size_t)levels[i], r));
    }
    return n;
}

typedef struct sql_ctx {
    sbuf *b;
    const keps_schema *s;
    const int *levels;
    const keps_sql_options *o;
    char type[32]; /* the text type */
    const char *token;
    int *qi_of;    /* [ncols] QI index or -1 */
} sql_ctx;

/* Is column j released? If so, writes the list separator before it: lead
 * for the first, "," and lead for the others. */
static int next_released(sql_ctx *x, size_t j, int *first, const char *lead)
{
    if (!keps_schema_released(x->s, j))
        return 0;
    if (!*first)
        put(x->b, ",");
    put(x->b, lead);
    *first = 0;
    return 1;
}

/* COALESCE(CAST("keps_t"."col" AS T), 'token') */
static void source_value(sql_ctx *x, size_t col)
{
    put(x->b, "COALESCE(CAST(\"keps_t\".");
    ident(x->b, x->s->t->cols[col].name);
    putf(x->b, " AS %s), ", x->type);
    literal(x->b, x->token);
    put(x->b, ")");
}

/* The helper table of QI i: leaf -> label at its level. */
static void hierarchy_table(sql_ctx *x, size_t i)
{
    sbuf *b = x->b;
    const keps_table *h = x->s->qi[i].h->levels;
    put(b, "CREATE TABLE ");
    helper_table(b, i, x->o->table);
    putf(b, " (\"v\" %s NOT NULL PRIMARY KEY, \"g\" %s NOT NULL);\n", x->type, x->type);
    for (size_t r = 0; r < h->nrows; r++) {
        if (r % SQL_BATCH == 0) {
            put(b, "INSERT INTO ");
            helper_table(b, i, x->o->table);
            put(b, " (\"v\", \"g\") VALUES\n");
        }
        put(b, "  (");
        literal(b, keps_table_str(h, 0, r));
        put(b, ", ");
        literal(b, keps_table_str(h, (size_t)x->levels[i], r));
        put(b, r + 1 == h->nrows || (r + 1) % SQL_BATCH == 0 ? ");\n" : "),\n");
    }
}

/* "keps_g": every released column, QIs generalized (aliases q<i>, c<j>). */
static void generalized(sql_ctx *x)
{
    sbuf *b = x->b;
    const keps_table *t = x->s->t;
    put(b, "WITH \"keps_g\" AS (\n  SELECT");
    int first = 1;
    for (size_t j = 0; j < t->ncols; j++) {
        if (!next_released(x, j, &first, "\n    "))
            continue;
        int i = x->qi_of[j];
        if (i >= 0 && x->levels[i] > 0) {
            putf(b, "COALESCE(\"keps_h%d\".\"g\", '*') AS \"q%d\"", i + 1, i + 1);
            continue;
        }
        source_value(x, j);
        if (i >= 0)
            putf(b, " AS \"q%d\"", i + 1);
        else
            putf(b, " AS \"c%zu\"", j + 1);
    }
    put(b, "\n  FROM ");
    ident(b, x->o->table);
    put(b, " AS \"keps_t\"");
    for (size_t i = 0; i < x->s->nqi; i++) {
        if (x->levels[i] == 0)
            continue;
        put(b, "\n  LEFT JOIN ");
        helper_table(b, i, x->o->table);
        putf(b, " AS \"keps_h%zu\" ON \"keps_h%zu\".\"v\" = ", i + 1, i + 1);
        source_value(x, x->s->qi[i].col);
    }
    put(b, "\n),\n");
}

/* "keps_small": the classes of fewer than k rows. */
static void small_classes(sql_ctx *x)
{
    sbuf *b = x->b;
    size_t q = x->s->nqi;
    put(b, "\"keps_small\" AS (\n  SELECT ");
    for (size_t i = 0; i < q; i++)
        putf(b, "\"q%zu\", ", i + 1);
    put(b, "1 AS \"keps_x\"\n  FROM \"keps_g\"\n  GROUP BY ");
    for (size_t i = 0; i < q; i++)
        putf(b, i ? ", \"q%zu\"" : "\"q%zu\"", i + 1);
    putf(b, "\n  HAVING COUNT(*) < %zu\n)\n", x->o->k);
}

static void release(sql_ctx *x)
{
    sbuf *b = x->b;
    const keps_table *t = x->s->t;
    put(b, "CREATE TABLE ");
    ident_cat(b, x->o->table, "_release");
    put(b, " (");
    int first = 1;
    for (size_t j = 0; j < t->ncols; j++)
        if (next_released(x, j, &first, "\n  ")) {
            ident(b, t->cols[j].name);
            putf(b, " %s", x->type);
        }
    put(b, "\n);\nINSERT INTO ");
    ident_cat(b, x->o->table, "_release");
    put(b, " (");
    first = 1;
    for (size_t j = 0; j < t->ncols; j++)
        if (next_released(x, j, &first, first ? "" : " "))
            ident(b, t->cols[j].name);
    put(b, ")\n");
    generalized(x);
    small_classes(x);
    put(b, "SELECT");
    first = 1;
    for (size_t j = 0; j < t->ncols; j++) {
        if (!next_released(x, j, &first, "\n  "))
            continue;
        int i = x->qi_of[j];
        if (i < 0)
            putf(b, "\"keps_g\".\"c%zu\"", j + 1);
        else if (x->o->remove_suppressed)
            putf(b, "\"keps_g\".\"q%d\"", i + 1);
        else
            putf(b, "CASE WHEN \"keps_s\".\"keps_x\" IS NULL THEN \"keps_g\".\"q%d\" ELSE '*' END", i + 1);
    }
    put(b, "\nFROM \"keps_g\"\nLEFT JOIN \"keps_small\" AS \"keps_s\" ON ");
    for (size_t i = 0; i < x->s->nqi; i++)
        putf(b, "%s\"keps_s\".\"q%zu\" = \"keps_g\".\"q%zu\"", i ? " AND " : "", i + 1, i + 1);
    if (x->o->remove_suppressed)
        put(b, "\nWHERE \"keps_s\".\"keps_x\" IS NULL");
    if (x->o->dialect != KEPS_SQL_ANSI)
        put(b, "\nORDER BY RANDOM()");
    put(b, ";\n");
}

/* Text inside a "--" comment: a line break would end the comment and let
 * the rest of a name or value run as SQL, so breaks become blanks. */
static void comment_text(sbuf *b, const char *s)
{
    for (; *s; s++)
        put_n(b, *s == '\n' || *s == '\r' ? " " : s, 1);
}

static void comment_quoted(sbuf *b, const char *s, char q)
{
    put_n(b, &q, 1);
    comment_text(b, s);
    put_n(b, &q, 1);
}

static void header(sql_ctx *x)
{
    sbuf *b = x->b;
    const keps_schema *s = x->s;
    static const char *dn[] = {"ansi", "postgresql", "sqlite"};
    putf(b, "-- keps %s: a lattice transformation as SQL (dialect %s).\n", keps_version(), dn[x->o->dialect]);
    if (x->o->comment) {
        put(b, "-- ");
        comment_text(b, x->o->comment);
        put(b, "\n");
    }
    put(b, "-- Reads table ");
    comment_quoted(b, x->o->table, '"');
    put(b, " (columns named as in the CSV header, values as text; NULL reads as the missing value ");
    comment_quoted(b, x->token, '\'');
    put(b, ")\n-- and creates \"");
    comment_text(b, x->o->table);
    put(b, "_release\": the released columns, each quasi-identifier at its level:\n");
    for (size_t i = 0; i < s->nqi; i++) {
        put(b, "--   ");
        comment_quoted(b, s->t->cols[s->qi[i].col].name, '"');
        putf(b, ": level %d of %d\n", x->levels[i], s->qi[i].height);
    }
    putf(b,
         "-- Classes (equal quasi-identifiers) of fewer than %zu rows are %s. A value a hierarchy\n"
         "-- lacks is released as '*'. The helper tables keps_h<i>_* are dropped at the end.\n",
         x->o->k, x->o->remove_suppressed ? "left out" : "suppressed ('*' in every quasi-identifier)");
    if (x->o->dialect == KEPS_SQL_ANSI)
        put(b, "-- ANSI SQL cannot shuffle: export the release in a random order (row order can link rows).\n");
}

keps_status keps_sql_lattice(const keps_schema *s, const int *levels, const keps_sql_options *o, char **sql,
                             size_t *len, keps_error *err)
{
    *sql = NULL;
    if (len)
        *len = 0;
    if (!o || !o->table || !*o->table)
        return keps_error_set(err, KEPS_EINPUT, "SQL script: give the source table's name");
    if (o->k < 1)
        return keps_error_set(err, KEPS_EINPUT, "SQL script: k must be at least 1");
    if ((int)o->dialect < 0 || o->dialect > KEPS_SQL_SQLITE)
        return keps_error_set(err, KEPS_EINPUT, "SQL script: unknown dialect %d", (int)o->dialect);
    if (s->nqi == 0)
        return keps_error_set(err, KEPS_EINPUT, "SQL script: the schema has no quasi-identifier");
    for (size_t i = 0; i < s->nqi; i++) {
        const char *name = s->t->cols[s->qi[i].col].name;
        if (!s->qi[i].h)
            return keps_error_set(err, KEPS_EINPUT, "SQL script: quasi-identifier '%s' has no hierarchy", name);
        if (levels[i] < 0 || levels[i] > s->qi[i].height)
            return keps_error_set(err, KEPS_EINPUT, "SQL script: level %d of '%s' is outside 0..%d", levels[i],
                                  name, s->qi[i].height);
    }
    sbuf b = {0};
    sql_ctx x = {&b, s, levels, o, "TEXT", s->t->missing_token ? s->t->missing_token : "",
                 malloc(s->t->ncols * sizeof(int))};
    if (!x.qi_of)
        return keps_error_set(err, KEPS_ENOMEM, "out of memory");
    for (size_t j = 0; j < s->t->ncols; j++)
        x.qi_of[j] = -1;
    for (size_t i = 0; i < s->nqi; i++)
        x.qi_of[s->qi[i].col] = (int)i;
    if (o->dialect == KEPS_SQL_ANSI)
        snprintf(x.type, sizeof x.type, "VARCHAR(%zu)", longest(s, levels));
    header(&x);
    if (o->dialect == KEPS_SQL_POSTGRESQL)
        put(&b, "SET client_encoding = 'UTF8';\nSET standard_conforming_strings = on;\n");
    put(&b, o->dialect == KEPS_SQL_ANSI ? "START TRANSACTION;\n" : "BEGIN;\n");
    for (size_t i = 0; i < s->nqi; i++)
        if (levels[i] > 0)
            hierarchy_table(&x, i);
    release(&x);
    for (size_t i = 0; i < s->nqi; i++)
        if (levels[i] > 0) {
            put(&b, "DROP TABLE ");
            helper_table(&b, i, o->table);
            put(&b, ";\n");
        }
    put(&b, "COMMIT;\n");
    free(x.qi_of);
    if (b.oom || !b.p) {
        free(b.p);
        return keps_error_set(err, KEPS_ENOMEM, "out of memory writing the SQL script");
    }
    *sql = b.p;
    if (len)
        *len = b.n;
    return KEPS_OK;
}
