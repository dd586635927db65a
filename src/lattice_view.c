/* A generalization lattice as a report draws it (keps/lattice_view.h). */
#include "keps/lattice_view.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct view_node {
    uint64_t id;
    size_t suppressed;
    double *score; /* [score_len], when anonymous */
    int anonymous, frontier;
} view_node;

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static int in_sorted(const uint64_t *v, size_t n, uint64_t id)
{
    return n && bsearch(&id, v, n, sizeof *v, cmp_u64) != NULL;
}

/* The ids to draw, ascending: every node, or the frontier and the chosen. */
static uint64_t *pick(const keps_lattice *L, const keps_lattice_view_params *p, const uint64_t *front, size_t max,
                      size_t *n, size_t *left_off)
{
    *left_off = 0;
    int all = L->nnodes <= max;
    size_t cap = all ? (size_t)L->nnodes : max;
    uint64_t *ids = malloc((cap ? cap : 1) * sizeof *ids);
    if (!ids)
        return NULL;
    *n = 0;
    if (all) {
        for (uint64_t id = 0; id < L->nnodes; id++)
            ids[(*n)++] = id;
        return ids;
    }
    uint64_t chosen = p->chosen ? keps_lattice_id(L, p->chosen) : UINT64_MAX;
    size_t room = p->chosen && !in_sorted(front, p->nfrontier, chosen) ? max - 1 : max;
    for (size_t i = 0; i < p->nfrontier; i++) {
        if (*n < room)
            ids[(*n)++] = front[i];
        else
            (*left_off)++;
    }
    if (p->chosen && !in_sorted(ids, *n, chosen)) {
        ids[(*n)++] = chosen;
        qsort(ids, *n, sizeof *ids, cmp_u64);
    }
    return ids;
}

/* Evaluates v[0..n): rows suppressed, anonymous, and the objective's score
 * (score_len values each, into scores) when anonymous. */
static keps_status evaluate(const keps_lattice *L, const keps_lattice_view_params *p, const uint64_t *front,
                            view_node *v, size_t n, double **scores, size_t *score_len, keps_error *err)
{
    keps_metric_config dflt = keps_metric_config_default(KEPS_METRIC_LOSS);
    keps_metrics *m = keps_metrics_new_objective(L, p->objective ? p->objective : &dflt, err);
    if (!m)
        return err && err->code ? err->code : KEPS_ENOMEM;
    *score_len = keps_metrics_score_len(m);
    keps_lattice_work *w = keps_lattice_work_new(L);
    int *levels = malloc((L->q ? L->q : 1) * sizeof *levels);
    *scores = malloc((n ? n : 1) * *score_len * sizeof **scores);
    keps_node_classes cls;
    keps_node_classes_init(&cls);
    keps_status st = w && levels && *scores ? KEPS_OK : KEPS_ENOMEM;
    for (size_t i = 0; i < n && !st; i++) {
        keps_lattice_levels(L, v[i].id, levels);
        if ((st = keps_lattice_rollup(L, w, NULL, levels, &cls, NULL)))
            break;
        v[i].suppressed = keps_node_classes_suppressed(&cls, p->k, NULL);
        v[i].anonymous = v[i].suppressed <= p->suppress_limit;
        v[i].score = *scores + i * *score_len;
        if (v[i].anonymous)
            keps_metrics_objective(m, levels, &cls, p->k, v[i].score);
        v[i].frontier = in_sorted(front, p->nfrontier, v[i].id);
    }
    keps_node_classes_free(&cls);
    free(levels);
    keps_metrics_free(m);
    keps_lattice_work_free(w);
    if (st == KEPS_ENOMEM)
        keps_error_set(err, KEPS_ENOMEM, "out of memory drawing the lattice");
    return st;
}

static void write_levels(keps_json *j, const char *key, const int *levels, size_t q)
{
    keps_json_array(j, key);
    for (size_t i = 0; i < q; i++)
        keps_json_int(j, NULL, levels[i]);
    keps_json_end(j);
}

keps_status keps_lattice_view_json(keps_json *j, const char *key, const keps_lattice *L,
                                   const keps_lattice_view_params *p, keps_error *err)
{
    size_t max = p->max_nodes ? p->max_nodes : KEPS_LATTICE_VIEW_MAX, n = 0, left_off = 0;
    if (max < 2)
        max = 2; /* room for a frontier node and the chosen one */
    uint64_t *front = malloc((p->nfrontier ? p->nfrontier : 1) * sizeof *front);
    uint64_t *ids = NULL;
    view_node *v = NULL;
    double *scores = NULL;
    size_t score_len = 1;
    int *levels = malloc((L->q ? L->q : 1) * sizeof *levels);
    keps_status st = front && levels ? KEPS_OK : KEPS_ENOMEM;
    if (!st) {
        if (p->nfrontier)
            memcpy(front, p->frontier, p->nfrontier * sizeof *front);
        qsort(front, p->nfrontier, sizeof *front, cmp_u64);
        ids = pick(L, p, front, max, &n, &left_off);
        v = ids ? calloc(n ? n : 1, sizeof *v) : NULL;
        st = v ? KEPS_OK : KEPS_ENOMEM;
    }
    for (size_t i = 0; i < n && !st; i++)
        v[i].id = ids[i];
    if (!st)
        st = evaluate(L, p, front, v, n, &scores, &score_len, err);
    if (!st) {
        const keps_schema *s = L->s;
        keps_json_object(j, key);
        keps_json_array(j, "qis");
        for (size_t i = 0; i < L->q; i++)
            keps_json_str(j, NULL, s->t->cols[s->qi[i].col].name);
        keps_json_end(j);
        write_levels(j, "heights", L->height, L->q);
        keps_json_num(j, "nodes_total", (double)L->nnodes);
        keps_json_int(j, "max_nodes", (long long)max);
        keps_json_str(j, "drawn", L->nnodes <= max ? "all" : "frontier");
        keps_json_int(j, "frontier_left_off", (long long)left_off);
        keps_json_str(j, "score", keps_metric_name(p->objective ? p->objective->metric : KEPS_METRIC_LOSS));
        if (p->chosen)
            write_levels(j, "chosen", p->chosen, L->q);
        else
            keps_json_null(j, "chosen");
        keps_json_array(j, "nodes");
        for (size_t i = 0; i < n; i++) {
            keps_json_object(j, NULL);
            keps_lattice_levels(L, v[i].id, levels);
            write_levels(j, "levels", levels, L->q);
            keps_json_bool(j, "anonymous", v[i].anonymous);
            keps_json_bool(j, "frontier", v[i].frontier);
            keps_json_int(j, "suppressed", (long long)v[i].suppressed);
            if (v[i].anonymous && score_len == 1)
                keps_json_num(j, "score", v[i].score[0]);
            else if (v[i].anonymous) { /* rank aggregation: the sorted vector */
                keps_json_array(j, "score");
                for (size_t e = 0; e < score_len; e++)
                    keps_json_num(j, NULL, v[i].score[e]);
                keps_json_end(j);
            }
            keps_json_end(j);
        }
        keps_json_end(j);
        keps_json_end(j);
    }
    free(front);
    free(ids);
    free(v);
    free(scores);
    free(levels);
    if (st == KEPS_ENOMEM)
        return keps_error_set(err, KEPS_ENOMEM, "out of memory drawing the lattice");
    return st;
}

typedef struct prob_id {
    double p;
    uint64_t id;
} prob_id;

/* Most likely first (ties: by id). */
static int by_prob(const void *a, const void *b)
{
    const prob_id *x = a, *y = b;
    if (x->p != y->p)
        return x->p > y->p ? -1 : 1;
    return (x->id > y->id) - (x->id < y->id);
}

/* The max - 1 likeliest node ids and the chosen one, into ids[0..max). */
static keps_status likeliest(const double *prob, uint64_t nn, uint64_t chosen, int has_chosen, uint64_t *ids,
                             size_t max)
{
    prob_id *v = malloc((size_t)nn * sizeof *v);
    if (!v)
        return KEPS_ENOMEM;
    for (uint64_t id = 0; id < nn; id++)
        v[id] = (prob_id){prob[id], id};
    qsort(v, (size_t)nn, sizeof *v, by_prob);
    int in = 0;
    for (size_t i = 0; i < max; i++) {
        ids[i] = v[i].id;
        in |= i + 1 < max && v[i].id == chosen;
    }
    if (has_chosen && !in)
        ids[max - 1] = chosen;
    free(v);
    qsort(ids, max, sizeof *ids, cmp_u64);
    return KEPS_OK;
}

keps_status keps_lattice_view_scores_json(keps_json *j, const char *key, const keps_schema *s,
                                          const keps_safela_scores *sc, const double *prob, const int *chosen,
                                          size_t max_nodes, keps_error *err)
{
    size_t max = max_nodes ? max_nodes : KEPS_LATTICE_VIEW_MAX, q = s->nqi < sc->q ? s->nqi : sc->q;
    if (max < 2)
        max = 2;
    uint64_t nn = sc->nnodes, chosen_id = 0, stride = 1;
    for (size_t i = 0; i < q && chosen; i++) {
        chosen_id += (uint64_t)chosen[i] * stride;
        stride *= (uint64_t)sc->height[i] + 1;
    }
    int all = nn <= max;
    size_t n = all ? (size_t)nn : max;
    uint64_t *ids = malloc((n ? n : 1) * sizeof *ids);
    int *levels = malloc((sc->q ? sc->q : 1) * sizeof *levels);
    keps_status st = ids && levels ? KEPS_OK : KEPS_ENOMEM;
    for (uint64_t id = 0; all && !st && id < nn; id++)
        ids[id] = id;
    if (!all && !st)
        st = likeliest(prob, nn, chosen_id, chosen != NULL, ids, n);
    if (st) {
        free(ids);
        free(levels);
        return keps_error_set(err, KEPS_ENOMEM, "out of memory drawing the lattice");
    }
    keps_json_object(j, key);
    keps_json_array(j, "qis");
    for (size_t i = 0; i < q; i++)
        keps_json_str(j, NULL, s->t->cols[s->qi[i].col].name);
    keps_json_end(j);
    write_levels(j, "heights", sc->height, q);
    keps_json_num(j, "nodes_total", (double)nn);
    keps_json_int(j, "max_nodes", (long long)max);
    keps_json_str(j, "drawn", all ? "all" : "likeliest");
    keps_json_int(j, "frontier_left_off", 0);
    keps_json_str(j, "score", "utility");
    if (chosen)
        write_levels(j, "chosen", chosen, q);
    else
        keps_json_null(j, "chosen");
    keps_json_array(j, "nodes");
    for (size_t i = 0; i < n; i++) {
        uint64_t id = ids[i], rest = id;
        for (size_t l = 0; l < sc->q; l++) {
            levels[l] = (int)(rest % ((uint64_t)sc->height[l] + 1));
            rest /= (uint64_t)sc->height[l] + 1;
        }
        keps_json_object(j, NULL);
        write_levels(j, "levels", levels, q);
        keps_json_null(j, "anonymous");
        keps_json_bool(j, "frontier", 0);
        keps_json_num(j, "score", sc->u[id]);
        keps_json_num(j, "probability", prob[id]);
        keps_json_num(j, "generalization", sc->gen[id]);
        keps_json_num(j, "suppression", sc->supp[id]);
        keps_json_bool(j, "good", keps_safela_good(sc, id));
        keps_json_end(j);
    }
    keps_json_end(j);
    keps_json_end(j);
    free(ids);
    free(levels);
    return KEPS_OK;
}
