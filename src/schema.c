#include "keps/schema.h"
#include "keps/release.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keps/csv.h"

keps_schema *keps_schema_new(const keps_table *t)
{
    keps_schema *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->t = t;
    s->role = calloc(t->ncols, sizeof *s->role);
    s->qi = calloc(t->ncols, sizeof *s->qi);
    s->noisy = calloc(t->ncols, sizeof *s->noisy);
    s->sensitive = calloc(t->ncols, sizeof *s->sensitive);
    s->type = calloc(t->ncols, sizeof *s->type);
    if (!s->role || !s->qi || !s->noisy || !s->sensitive || !s->type) {
        keps_schema_free(s);
        return NULL;
    }
    return s;
}

void keps_schema_free(keps_schema *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->nqi; i++) {
        if (s->qi[i].h) {
            keps_hierarchy_map_free(s->qi[i].map, s->qi[i].h);
            keps_hierarchy_free(s->qi[i].h);
        }
    }
    free(s->role);
    free(s->qi);
    free(s->noisy);
    free(s->sensitive);
    free(s->type);
    free(s);
}

const char *keps_role_name(keps_role r)
{
    static const char *n[] = {"unassigned", "identifier", "quasi", "noisy", "sensitive", "insensitive"};
    return n[r];
}

static keps_status claim(keps_schema *s, size_t col, keps_role r, keps_error *err)
{
    if (s->role[col] != KEPS_ROLE_NONE && s->role[col] != r)
        return keps_error_set(err, KEPS_EINPUT, "column '%s' is given two roles (%s and %s); give it one",
                              s->t->cols[col].name, keps_role_name(s->role[col]), keps_role_name(r));
    if (s->role[col] == r)
        return keps_error_set(err, KEPS_EINPUT, "column '%s' is given the role %s twice",
                              s->t->cols[col].name, keps_role_name(r));
    s->role[col] = r;
    return KEPS_OK;
}

keps_status keps_schema_add_qi_hierarchy(keps_schema *s, size_t col, keps_hierarchy *h,
                                         keps_error *err)
{
    uint32_t **map = NULL;
    keps_status st = col < s->t->ncols
                         ? claim(s, col, KEPS_ROLE_QUASI, err)
                         : keps_error_set(err, KEPS_EINPUT, "column index %zu is out of range: %s has %zu columns",
                                          col, s->t->source, s->t->ncols);
    if (st) {
        keps_hierarchy_free(h);
        return st;
    }
    if (h && (st = keps_hierarchy_bind(h, s->t, col, &map, err))) {
        s->role[col] = KEPS_ROLE_NONE;
        keps_hierarchy_free(h);
        return st;
    }
    keps_qi *q = &s->qi[s->nqi++];
    q->col = col;
    q->h = h;
    q->map = map;
    q->height = h ? keps_hierarchy_height(h) : 0;
    return KEPS_OK;
}

keps_status keps_schema_add_qi(keps_schema *s, keps_table *t, const char *spec, keps_error *err)
{
    if (!*spec || *spec == ':')
        return keps_error_set(err, KEPS_EINPUT,
                              "QI spec '%s': expected NAME, NAME:HIERARCHY.csv, NAME:BUILDER (e.g. "
                              "NAME:interval=W1,W2,...) or NAME:numeric",
                              spec);
    const char *rest;
    int col = keps_table_column_spec(t, spec, &rest);
    if (col < 0)
        return keps_table_no_column_spec(err, t, spec);
    keps_hierarchy *h = NULL;
    keps_status st = KEPS_OK;
    if (rest && strcmp(rest, "numeric") == 0)
        s->type[col] = KEPS_TYPE_NUMERIC;
    else if (rest && keps_hierarchy_is_spec(rest))
        st = keps_hierarchy_build_text(t, (size_t)col, rest, &h, err);
    else if (rest)
        st = keps_hierarchy_load(rest, 0, &h, err);
    if (st)
        return st;
    return keps_schema_add_qi_hierarchy(s, (size_t)col, h, err);
}

keps_status keps_schema_numeric(const keps_schema *s, keps_table *t, size_t col, const char *use, keps_error *err)
{
    if (col >= t->ncols)
        return keps_error_set(err, KEPS_EINPUT, "column index %zu is out of range: %s has %zu columns", col,
                              t->source, t->ncols);
    size_t row;
    const char *why;
    if (s->type[col] != KEPS_TYPE_NUMERIC && keps_table_infer_type(t, col, &row, &why) != KEPS_TYPE_NUMERIC) {
        const char *name = t->cols[col].name;
        if (row == (size_t)-1)
            return keps_error_set(err, KEPS_EINPUT, "%s: column '%s' %s; %s", t->source, name, why, use);
        const char *v = keps_table_str(t, col, row);
        double x;
        if (keps_table_parse(t, v, &x) != KEPS_NUM_OK) { /* no declaration helps: the parser says what is wrong */
            keps_status st = keps_table_numeric(t, col, err);
            if (st == KEPS_EINPUT && err) {
                size_t used = strlen(err->msg);
                snprintf(err->msg + used, sizeof err->msg - used, "; %s%s", use,
                         !t->decimal_comma && strchr(v, ',')
                             ? " (if ',' is the decimal mark, read the data with a decimal comma)"
                             : "");
            }
            return st;
        }
        return keps_table_cell_error(err, t, col, row,
                                     "'%s' %s, so the column holds codes, not numbers (docs/spec.md, section 1); "
                                     "%s. If its values are numbers all the same, declare it: '%s:numeric'",
                                     v, why, use, name);
    }
    return keps_table_numeric(t, col, err);
}

keps_status keps_schema_set_role(keps_schema *s, const char *name, keps_role role, keps_error *err)
{
    /* a QI needs its entry in s->qi (keps_schema_add_qi); other values have no name to print */
    if (role == KEPS_ROLE_NONE || role == KEPS_ROLE_QUASI || (unsigned)role > KEPS_ROLE_INSENSITIVE)
        return keps_error_set(err, KEPS_EINPUT,
                              "role %d: expected identifier, noisy, sensitive or insensitive (a QI is added with "
                              "keps_schema_add_qi)",
                              (int)role);
    int col = keps_table_column(s->t, name);
    size_t len = strlen(name);
    int declared = 0;
    if (col < 0 && len > 8 && strcmp(name + len - 8, ":numeric") == 0) {
        char *base = strndup(name, len - 8);
        if (!base)
            return keps_error_set(err, KEPS_ENOMEM, "out of memory");
        col = keps_table_column(s->t, base);
        free(base);
        declared = col >= 0;
    }
    if (col < 0)
        return keps_table_no_column(err, s->t, name);
    keps_status st = claim(s, (size_t)col, role, err);
    if (!st && declared)
        s->type[col] = KEPS_TYPE_NUMERIC;
    if (st)
        return st;
    if (role == KEPS_ROLE_NOISY)
        s->noisy[s->nnoisy++] = (size_t)col;
    else if (role == KEPS_ROLE_SENSITIVE)
        s->sensitive[s->nsensitive++] = (size_t)col;
    return KEPS_OK;
}

keps_status keps_schema_check(const keps_schema *s, keps_error *err)
{
    if (s->others != KEPS_OTHERS_ERROR)
        return KEPS_OK;
    /* whole names while they fit the message, then how many more */
    char list[600] = "";
    size_t n = 0, count = 0, shown = 0;
    for (size_t j = 0; j < s->t->ncols; j++) {
        if (s->role[j] != KEPS_ROLE_NONE)
            continue;
        count++;
        if (shown + 1 == count && n + strlen(s->t->cols[j].name) + 2 < sizeof list - 32) {
            n += (size_t)snprintf(list + n, sizeof list - n, "%s%s", n ? ", " : "", s->t->cols[j].name);
            shown++;
        }
    }
    if (!count)
        return KEPS_OK;
    if (shown && shown < count)
        snprintf(list + n, sizeof list - n, " and %zu more", count - shown);
    else if (!shown)
        snprintf(list, sizeof list, "%s too long to list here", count > 1 ? "their names are" : "its name is");
    return keps_error_set(err, KEPS_EINPUT,
                          "%zu column%s ha%s no role: %s; give each a role (quasi-identifier, sensitive, "
                          "insensitive, identifier, ...) or keep or drop the columns without one",
                          count, count > 1 ? "s" : "", count > 1 ? "ve" : "s", list);
}

int keps_schema_released(const keps_schema *s, size_t j)
{
    if (s->role[j] == KEPS_ROLE_IDENTIFIER)
        return 0;
    if (s->role[j] == KEPS_ROLE_NONE)
        return s->others == KEPS_OTHERS_KEEP;
    return 1;
}

keps_table *keps_release_new(const keps_schema *s, keps_error *err)
{
    const keps_table *t = s->t;
    const char **names = malloc(t->ncols * sizeof *names);
    if (!names) {
        keps_error_set(err, KEPS_ENOMEM, "out of memory");
        return NULL;
    }
    size_t n = 0;
    for (size_t j = 0; j < t->ncols; j++)
        if (keps_schema_released(s, j))
            names[n++] = t->cols[j].name;
    keps_table *r = NULL;
    if (n == 0)
        keps_error_set(err, KEPS_EINPUT, "no column would be released: every column is an identifier or dropped");
    else
        r = keps_table_new(n, names, "\x01", "<release>", err);
    free(names);
    return r;
}

/* The release's row order: shuffled unless keep_order (*order NULL then). */
static keps_status release_order(const keps_table *release, keps_rng *rng, int keep_order, uint32_t **order,
                                 keps_error *err)
{
    *order = NULL;
    if (!keep_order && !rng)
        return keps_error_set(err, KEPS_EINPUT, "shuffling the release needs a random generator (rng is NULL); "
                                                "pass one, or keep_order = 1");
    if (!keep_order && !(*order = keps_rng_permutation(rng, release->nrows)))
        return keps_error_set(err, KEPS_ENOMEM, "out of memory");
    return KEPS_OK;
}

keps_status keps_release_write(const keps_table *release, const char *path, char delimiter,
                               keps_rng *rng, int keep_order, keps_error *err)
{
    uint32_t *order;
    keps_status st = release_order(release, rng, keep_order, &order, err);
    if (!st)
        st = keps_csv_write_table(release, path, delimiter, order, err);
    free(order);
    return st;
}

keps_status keps_release_write_to(const keps_table *release, FILE *f, const char *name, char delimiter,
                                  keps_rng *rng, int keep_order, keps_error *err)
{
    uint32_t *order;
    keps_status st = release_order(release, rng, keep_order, &order, err);
    if (!st)
        st = keps_csv_write_table_to(release, f, name, delimiter, order, err);
    free(order);
    return st;
}
