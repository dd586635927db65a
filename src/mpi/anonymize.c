/* keps-mpi anonymize: the search is the single run's own. Rank 0 holds the
 * merged frequency table of the tuples the search reads (QIs, sensitive
 * columns: agreed codes, records per tuple) and runs the command layer's
 * `anonymize --counts` on it (keps_run) with every parameter the user
 * gave: criteria, quality model, suppression limit. By construction (docs/
 * cli.md, "Frequency tables") that run finds the node, score, counts,
 * metrics and guarantee of `keps anonymize` on the concatenated input, and
 * its report is the single run's but for the frequency-table bookkeeping,
 * which kmpi_anonymize_text takes out (kmpi_finish then writes the
 * parameters, missing values and timing of the whole run).
 *
 * What the ranks need back is the node's levels and which QI tuples it
 * suppresses. Suppression takes whole classes, and a suppressed record
 * shows '*' in every QI, so a class is released exactly when its
 * generalized QI tuple is a row of the release with some QI not '*'; the
 * one class whose labels are all '*' (at the top of every hierarchy) is
 * released when the release's all-'*' rows hold more records than were
 * suppressed. The ranks check that their suppressed records add up to the
 * report's (main.c). */
#include "kmpi.h"

#include "cli/cli.h"
#include "keps/command.h"
#include "keps/json.h"
#include "keps/schema.h"
#include "table_internal.h"

#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The user's parameters rank 0 does not hand to the command: the input is
 * the frequency table in memory and the release goes to the ranks, so the
 * paths, the output's format and the seed (the command's own randomness
 * only orders a release nobody sees) are keps-mpi's; kmpi_finish writes
 * them into the report's parameters as given. */
static const char *const own_params[] = {"input", "output", "report", "html",      "json",    "quiet",
                                         "help",  "seed",   "job",    "delimiter", "missing", NULL};

/* The frequency table as the command's input: the key columns (agreed
 * codes, in the order of their values' first appearance), the columns
 * whose role only drops or keeps them (one constant value: they do not
 * split tuples) and the records per tuple in column cname. */
static keps_status frequency_input(const keps_table *t, const keycol *kc, size_t nk, char **role, size_t nrole,
                                   const char *cname, const kmpi_freq *f, const char *source, keps_table **out,
                                   keps_error *err)
{
    size_t nc = nk + nrole + 1;
    const char **names = calloc(nc, sizeof *names);
    uint32_t *codes = malloc(nc * sizeof *codes);
    if (!names || !codes) {
        free(names), free(codes);
        return keps_error_set(err, KEPS_ENOMEM, "out of memory");
    }
    for (size_t i = 0; i < nk; i++)
        names[i] = t->cols[kc[i].col].name;
    for (size_t i = 0; i < nrole; i++)
        names[nk + i] = role[i];
    names[nc - 1] = cname;
    keps_table *W = keps_table_new(nc, names, t->missing_token, source, err);
    keps_status st = W ? KEPS_OK : err->code;
    for (size_t i = 0; !st && i < nk; i++) {
        const keps_column *d = &kc[i].dict->cols[0];
        for (uint32_t v = 0; v < d->nvalues && !st; v++)
            if (keps_table_intern(W, i, d->values[v], strlen(d->values[v])) != v)
                st = keps_error_set(err, KEPS_ENOMEM, "out of memory");
    }
    for (size_t i = 0; !st && i < nrole; i++)
        if ((codes[nk + i] = keps_table_intern(W, nk + i, "x", 1)) == KEPS_NONE)
            st = keps_error_set(err, KEPS_ENOMEM, "out of memory");
    char num[32];
    for (size_t r = 0; !st && r < f->n; r++) {
        memcpy(codes, f->tuple + r * nk, nk * sizeof *codes);
        int len = snprintf(num, sizeof num, "%" PRIu64, f->count[r]);
        if ((codes[nc - 1] = keps_table_intern(W, nc - 1, num, (size_t)len)) == KEPS_NONE)
            st = keps_error_set(err, KEPS_ENOMEM, "out of memory");
        else
            st = keps_table_append_codes(W, codes, 0, err);
    }
    free(names), free(codes);
    if (st) {
        keps_table_free(W);
        return st;
    }
    W->delimiter = t->delimiter;
    W->decimal_comma = t->decimal_comma;
    *out = W;
    return KEPS_OK;
}

/* A name for the records column that no input column has. */
static void records_column(const keps_table *t, char *buf, size_t len)
{
    snprintf(buf, len, "records");
    for (int i = 2; keps_table_column(t, buf) >= 0; i++)
        snprintf(buf, len, "records_%d", i);
}

static void message(void *ud, keps_msg_kind kind, const char *text)
{
    (void)ud;
    if (kind != KEPS_MSG_NOTE) /* notes speak of the frequency table, which is keps-mpi's own */
        fprintf(stderr, "keps-mpi anonymize: %s\n", text);
}

/* Key of a generalized QI tuple: its labels joined by a unit separator. */
static int key_add(char **buf, size_t *cap, size_t *len, const char *s)
{
    size_t n = strlen(s);
    if (*len + n + 2 > *cap) {
        size_t c = (*len + n + 2) * 2;
        char *b = realloc(*buf, c);
        if (!b)
            return -1;
        *buf = b, *cap = c;
    }
    memcpy(*buf + *len, s, n);
    *len += n;
    (*buf)[(*len)++] = '\x1f';
    return 0;
}

/* The released classes: the keys of the release's generalized QI tuples
 * (rel: the grouped release of the frequency table) as the dictionary of
 * set's one column. */
static keps_status released_classes(const keps_table *rel, const keps_table *W, size_t q, const char *cname,
                                    uint64_t suppressed, keps_table *set, keps_error *err)
{
    int *col = malloc((q ? q : 1) * sizeof *col), cc = keps_table_column(rel, cname);
    char *key = NULL;
    size_t cap = 0, len = 0;
    uint64_t stars = 0;
    keps_status st = col ? KEPS_OK : keps_error_set(err, KEPS_ENOMEM, "out of memory");
    for (size_t i = 0; !st && i < q; i++)
        if ((col[i] = keps_table_column(rel, W->cols[i].name)) < 0)
            st = keps_error_set(err, KEPS_EINPUT, "the release lacks quasi-identifier %s", W->cols[i].name);
    if (!st && cc < 0)
        st = keps_error_set(err, KEPS_EINPUT, "the release lacks its records column");
    for (size_t r = 0; !st && r < rel->nrows; r++) {
        int all_star = 1;
        len = 0;
        for (size_t i = 0; i < q && !st; i++) {
            const char *v = rel->cols[col[i]].values[rel->cols[col[i]].codes[r]];
            all_star &= !strcmp(v, "*");
            if (key_add(&key, &cap, &len, v))
                st = keps_error_set(err, KEPS_ENOMEM, "out of memory");
        }
        if (st)
            break;
        if (all_star) { /* suppressed records, or the class at the top of every hierarchy */
            stars += strtoull(rel->cols[cc].values[rel->cols[cc].codes[r]], NULL, 10);
            continue;
        }
        if (keps_table_intern(set, 0, key, len) == KEPS_NONE)
            st = keps_error_set(err, KEPS_ENOMEM, "out of memory");
    }
    if (!st && stars > suppressed) {
        len = 0;
        for (size_t i = 0; i < q && !st; i++)
            if (key_add(&key, &cap, &len, "*"))
                st = keps_error_set(err, KEPS_ENOMEM, "out of memory");
        if (!st && keps_table_intern(set, 0, key, len) == KEPS_NONE)
            st = keps_error_set(err, KEPS_ENOMEM, "out of memory");
    }
    free(col), free(key);
    return st;
}

/* The QI tuples of f that the node suppresses, into sup: those whose
 * generalized tuple is not a released class. */
static keps_status suppressed_tuples(const keps_table *W, const keycol *kc, size_t q, size_t nk, const int *levels,
                                     const kmpi_freq *f, const keps_table *set, kmpi_freq *sup, keps_error *err)
{
    keps_schema *S = keps_schema_new((keps_table *)W);
    keps_status st = S ? KEPS_OK : keps_error_set(err, KEPS_ENOMEM, "out of memory");
    for (size_t i = 0; !st && i < q; i++) {
        keps_hierarchy *h = NULL;
        if (!(st = make_hierarchy(&kc[i], &h, err)))
            st = keps_schema_add_qi_hierarchy(S, i, h, err);
    }
    char *key = NULL;
    size_t cap = 0, len = 0;
    for (size_t r = 0; !st && r < f->n; r++) {
        const uint32_t *tu = f->tuple + r * nk;
        len = 0;
        for (size_t i = 0; i < q && !st; i++)
            if (key_add(&key, &cap, &len, keps_hierarchy_label(S->qi[i].h, levels[i], S->qi[i].map[levels[i]][tu[i]])))
                st = keps_error_set(err, KEPS_ENOMEM, "out of memory");
        if (!st && keps_table_lookup(set, 0, key, len) == KEPS_NONE && kmpi_freq_add(sup, tu, f->count[r]) < 0)
            st = keps_error_set(err, KEPS_ENOMEM, "out of memory");
    }
    free(key);
    keps_schema_free(S);
    return st;
}

/* The node's levels from the report's transformation, in QI order. */
static keps_status report_levels(json_t *root, const keps_table *W, size_t q, int *levels, uint64_t *suppressed,
                                 keps_error *err)
{
    json_t *tr = json_object_get(root, "transformation"), *sr = json_object_get(root, "suppressed_rows");
    if (!json_is_object(tr) || !json_is_integer(sr))
        return keps_error_set(err, KEPS_EINPUT, "the search's report has no transformation");
    for (size_t i = 0; i < q; i++) {
        json_t *l = json_object_get(tr, W->cols[i].name);
        if (!json_is_integer(l))
            return keps_error_set(err, KEPS_EINPUT, "the search's report has no level for %s", W->cols[i].name);
        levels[i] = (int)json_integer_value(l);
    }
    *suppressed = (uint64_t)json_integer_value(sr);
    return KEPS_OK;
}

keps_status kmpi_anonymize_search(const kmpi_anon_in *in, const kmpi_freq *f, int *levels, kmpi_freq *sup,
                                  kmpi_anon_out *out, keps_error *err)
{
    const kc_ctx *c = in->args;
    char cname[64];
    records_column(in->t, cname, sizeof cname);
    keps_table *W = NULL, *set = NULL;
    keps_args *a = NULL;
    keps_result r;
    memset(&r, 0, sizeof r);
    size_t nk = in->q + in->ns;
    keps_status st = frequency_input(in->t, in->kc, nk, in->role, in->nrole, cname, f, in->input_text, &W, err);
    if (!st && !(a = kmpi_args(c, own_params)))
        st = keps_error_set(err, KEPS_ENOMEM, "out of memory");
    if (!st)
        st = keps_args_table(a, "input", W);
    if (!st)
        st = keps_args_add(a, "counts", cname, NULL);
    if (!st)
        st = keps_args_add(a, "output", "-", NULL);
    if (st) {
        if (!err->msg[0])
            keps_error_set(err, st, "out of memory");
        goto done;
    }
    keps_host host = {.message = message, .spell = kc_spell, .quiet = 1, .ud = (void *)c};
    if ((st = keps_run("anonymize", a, &host, &r, err))) {
        out->usage = r.usage;
        goto done;
    }
    json_error_t je;
    out->report = json_loadb(r.report ? r.report : "", r.report ? strlen(r.report) : 0, 0, &je);
    const keps_output *o = keps_result_output(&r, "output");
    if (!out->report || !o || !o->table) {
        st = keps_error_set(err, KEPS_EINPUT, "the search gave no report or release");
        goto done;
    }
    uint64_t suppressed = 0;
    const char *one = "k";
    if ((st = report_levels(out->report, W, in->q, levels, &suppressed, err)))
        goto done;
    out->suppressed_records = suppressed;
    if (!(set = keps_table_new(1, &one, NULL, "classes", err))) {
        st = err->code;
        goto done;
    }
    st = released_classes(o->table, W, in->q, cname, suppressed, set, err);
    if (!st)
        st = suppressed_tuples(W, in->kc, in->q, nk, levels, f, set, sup, err);
done:
    keps_table_free(set);
    keps_result_free(&r);
    keps_args_free(a);
    keps_table_free(W);
    return st;
}

char *kmpi_anonymize_text(const kmpi_anon_out *out, const kmpi_node *nd, const keps_counts *all)
{
    json_t *root = out->report;
    json_t *ir = json_object_get(root, "input_rows");
    /* what the ranks did is what the search decided */
    if (!json_is_integer(ir) || (uint64_t)json_integer_value(ir) != all->input_rows ||
        out->suppressed_records != all->suppressed_rows) {
        fprintf(stderr, "keps-mpi anonymize: internal error: the ranks suppressed %zu of %zu records, the search "
                        "%" PRIu64 " of %lld\n",
                all->suppressed_rows, all->input_rows, out->suppressed_records,
                json_is_integer(ir) ? (long long)json_integer_value(ir) : -1LL);
        return NULL;
    }
    /* the frequency table's bookkeeping is the search's, not the run's */
    json_object_del(root, "frequency_table");
    json_object_del(root, "release_table_rows");
    keps_json j; /* the mpi member, as the other commands write it */
    keps_json_init(&j);
    keps_json_object(&j, NULL);
    kmpi_report_mpi(&j, nd->mode, nd->nfiles, nd->distinct, nd->suppressed_tuples, nd->bytes, nd->phmax, nd->rss);
    keps_json_end(&j);
    json_error_t je;
    json_t *mj = json_loads(keps_json_text(&j), 0, &je);
    keps_json_free(&j);
    json_t *mpi = json_object_get(mj, "mpi");
    if (!mpi) {
        json_decref(mj);
        return NULL;
    }
    /* the single run's report compares the release with its input row by
     * row; across ranks that comparison is not made */
    json_object_set_new(mpi, "not_in_report", json_string("before_after"));
    json_object_set(root, "mpi", mpi);
    json_decref(mj);
    return json_dumps(root, JSON_COMPACT | JSON_REAL_PRECISION(17));
}
