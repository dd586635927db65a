/* keps: the full-domain generalization lattice over a schema's QIs (docs/spec.md 2).
 *
 * A node is a level vector (l_1..l_q), 0 <= l_i <= h_i. Node ids are
 * mixed-radix: id = sum_i l_i * stride_i with stride_0 = 1, so the bottom
 * node (all zeros) is id 0 and the top node is nnodes-1.
 *
 * Evaluating a node = counting its equivalence classes on integer codes.
 * The lattice first groups the rows once into the distinct level-0 tuples
 * (the bottom node's classes, which keep their column codes per QI). Every
 * class keeps its row count and a representative bottom class; its
 * generalized key at any coarser node is map[i][l_i][rep_i] (hierarchies
 * are consistent, so every member maps to the same value). A node's classes
 * are thus derived from the classes of any finer node (roll-up) without
 * touching the rows; keps_lattice_rollup picks up only the coordinates that
 * change when they are few.
 *
 * keps_lattice_scan evaluates every node (e.g. for the exponential
 * mechanism of docs/spec.md 6) with roll-ups along a spanning tree of the lattice
 * (each node from the finer neighbour with the fewest classes by estimate),
 * spread over nthreads pthreads; keps_lattice_scan_even only the nodes
 * with an even level sum. */
#ifndef KEPS_LATTICE_H
#define KEPS_LATTICE_H

#include <stddef.h>
#include <stdint.h>

#include "keps/criteria.h" /* keps_class_hist */
#include "keps/error.h"
#include "keps/schema.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Equivalence classes of one node. */
typedef struct keps_node_classes {
    size_t n;          /* number of classes */
    size_t cap;
    size_t q;          /* QIs per representative */
    uint32_t *count;   /* [n] released rows in the class (the research subset's, if any) */
    uint32_t *bot;     /* [n] the class's first bottom class, whose first row is the
                          class's first row (its representative) */
    uint32_t *rep;     /* bottom only: [n*q] column codes of the class, per QI;
                          others use keps_node_classes_rep() */
    uint64_t *key;     /* [n] generalized key at the node (internal) */
    uint64_t node;     /* id of the node these are the classes of */
    uint32_t *pcount;  /* [n] rows of the population (the input), when the
                          lattice has a research subset; else NULL */
    size_t nhist;      /* sensitive columns with histograms (the lattice's) */
    keps_class_hist *hist; /* [nhist] */
    int no_hist;       /* 1: rolled up without histograms (keps_lattice_rollup_keys);
                          hist holds nothing of these classes */
    uint8_t *sup;      /* [n] 1 = suppressed (set by the caller, e.g. from privacy
                          criteria); NULL: the classes smaller than k are */
} keps_node_classes;

/* Is class i suppressed: its flag, or (no flags) fewer than k rows? */
static inline int keps_node_class_suppressed(const keps_node_classes *c, size_t i, size_t k)
{
    return c->sup ? c->sup[i] != 0 : c->count[i] < k;
}

void keps_node_classes_init(keps_node_classes *c);
void keps_node_classes_free(keps_node_classes *c);

typedef struct keps_lattice_work keps_lattice_work;

typedef struct keps_lattice {
    const keps_schema *s;
    size_t nrows;        /* records: the table's rows, or the sum of their weights */
    size_t nrows_table;  /* rows of the schema's table */
    const uint32_t *weight; /* [nrows_table] records each row stands for (borrowed), or NULL: 1 each */
    size_t q;
    int *height;         /* [q] h_i */
    uint64_t nnodes;     /* prod (h_i + 1) */
    uint64_t *stride;    /* [q] */
    uint32_t **card;     /* [q][level] number of distinct values at the level (hierarchy size) */
    keps_node_classes bottom; /* classes of the bottom node (distinct level-0 tuples) */
    uint32_t *row_class; /* [nrows_table] bottom class of each table row */
    /* private */
    const uint32_t **codes;      /* [q] table codes per row */
    uint32_t ***map;     /* [q] schema map[level][code] (borrowed) */
    int packed;          /* generalized keys fit a 64-bit mixed-radix number */
    uint64_t *mult;      /* [q] its multipliers (packed mode) */
    uint32_t *repcol;    /* [q * bottom.n] the bottom classes' codes by QI: an
                            incremental roll-up reads one code per changed QI,
                            from an array that stays in cache */
    size_t nreleased;    /* rows released: the research subset's, or every row */
    int has_pcount;      /* classes carry population counts (a research subset) */
    size_t nhist;        /* sensitive columns whose histograms classes carry */
    size_t *hist_m;      /* [nhist] values per column */
} keps_lattice;

/* Column codes (per QI) of a row in class i of c. */
static inline const uint32_t *keps_node_classes_rep(const keps_lattice *L, const keps_node_classes *c, size_t i)
{
    return L->bottom.rep + (size_t)c->bot[i] * L->q;
}

/* Builds the lattice of s's QIs (every QI needs a hierarchy) and groups the
 * rows into the bottom node's classes (one pass over the rows). */
keps_status keps_lattice_new(const keps_schema *s, keps_lattice **out, keps_error *err);

/* The same, for privacy criteria: released[r] != 0 marks the research
 * subset (NULL: every row is released; with a subset, count = subset rows
 * and pcount = all rows); with hist_codes, every class carries per column
 * j < nhist a histogram of hist_codes[j][r] over its released rows (values
 * below hist_m[j]; KEPS_NONE = not counted). Classes keep their first row's
 * bottom class as representative. Roll-ups merge counts and histograms. */
keps_status keps_lattice_new_ex(const keps_schema *s, const uint8_t *released, const uint32_t *const *hist_codes,
                                const size_t *hist_m, size_t nhist, keps_lattice **out, keps_error *err);
/* keps_lattice_new on a frequency table: table row r stands for weight[r] records
 * (a distinct tuple and its count; weight is borrowed and must outlive L).
 * The bottom classes, and so every node's classes, suppression, search and
 * metric, are those of the table with each row repeated weight[r] times.
 * More than 2^32 - 1 records in all is KEPS_EINPUT (class sizes are
 * 32-bit). A row of weight 0 stands for no record. */
keps_status keps_lattice_new_weighted(const keps_schema *s, const uint32_t *weight, keps_lattice **out,
                                      keps_error *err);
/* Both: a frequency table (weight, NULL = 1 per row) with the research
 * subset and histograms of keps_lattice_new_ex, all counted in records. A
 * frequency table grouped by the QIs and the sensitive columns (one
 * sensitive value per row, a QI tuple on several rows) gives every class
 * the histograms of the expanded rows. */
keps_status keps_lattice_new_weighted_ex(const keps_schema *s, const uint32_t *weight, const uint8_t *released,
                                         const uint32_t *const *hist_codes, const size_t *hist_m, size_t nhist,
                                         keps_lattice **out, keps_error *err);
void keps_lattice_free(keps_lattice *L);

uint64_t keps_lattice_id(const keps_lattice *L, const int *levels);
void keps_lattice_levels(const keps_lattice *L, uint64_t id, int *levels);
/* Sum of levels (the node's height in the lattice). */
int keps_lattice_level_sum(const keps_lattice *L, const int *levels);

/* Scratch space for roll-ups (hash table); one per thread. */
keps_lattice_work *keps_lattice_work_new(const keps_lattice *L);
void keps_lattice_work_free(keps_lattice_work *w);

/* Classes of node `levels` derived from `from`, the classes of a node
 * <= levels (NULL = the bottom node). If assign is not NULL, assign[c] =
 * index in out of from's class c. out must not alias from. Population
 * counts and histograms are merged when from carries them (from->no_hist
 * = 0). out's flags (sup) are dropped. Returns KEPS_OK or KEPS_ENOMEM. */
keps_status keps_lattice_rollup(const keps_lattice *L, keps_lattice_work *w, const keps_node_classes *from,
                                const int *levels, keps_node_classes *out, uint32_t *assign);
/* The same without the histograms (out->no_hist = 1): cheaper when only
 * the class sizes are read. A roll-up from such classes has no histograms
 * either. keps_lattice_rollup_hist adds them afterwards: from and assign
 * must be those of the keps_lattice_rollup_keys call that made out (assign
 * not NULL there), from with histograms. */
keps_status keps_lattice_rollup_keys(const keps_lattice *L, keps_lattice_work *w, const keps_node_classes *from,
                                     const int *levels, keps_node_classes *out, uint32_t *assign);
keps_status keps_lattice_rollup_hist(const keps_lattice *L, keps_lattice_work *w, const keps_node_classes *from,
                                     keps_node_classes *out, const uint32_t *assign);

/* Rows in suppressed classes (keps_node_class_suppressed: flagged, or
 * without flags smaller than k), and, if small is not NULL, the number of
 * such classes. */
size_t keps_node_classes_suppressed(const keps_node_classes *c, size_t k, size_t *small);

/* What keps_lattice_scan reports for each node. */
typedef struct keps_node_info {
    uint64_t id;
    const int *levels;            /* [q] */
    size_t nclasses;              /* all classes, including those < k */
    size_t small_classes;         /* classes smaller than k */
    size_t suppressed;            /* rows in classes smaller than k */
    const keps_node_classes *classes;  /* class sizes in classes->count[0..n) */
} keps_node_info;

/* Called once per node, concurrently from up to nthreads threads (thread
 * = 0..nthreads-1 tells which; the pointers are valid during the call only).
 * Return nonzero to stop the scan. */
typedef int (*keps_lattice_cb)(const keps_node_info *node, int thread, void *userdata);

/* Evaluates every node of the lattice for k and calls cb for each, in no
 * particular order. nthreads <= 0 means 2. Returns KEPS_OK, KEPS_ENOMEM,
 * KEPS_EJOB if a callback stopped the scan, or KEPS_ECANCEL when the
 * calling thread's progress hook cancelled (keps/progress.h). */
keps_status keps_lattice_scan(const keps_lattice *L, size_t k, keps_lattice_cb cb, void *userdata,
                              int nthreads, keps_error *err);

/* As keps_lattice_scan, but only the nodes with an even level sum are
 * evaluated (and passed to cb), each rolled up from a node two levels below
 * it; the odd nodes' classes are never counted (level interpolation,
 * docs/spec.md 6). Same thread/task engine, same results on the nodes it visits. */
keps_status keps_lattice_scan_even(const keps_lattice *L, size_t k, keps_lattice_cb cb, void *userdata,
                                   int nthreads, keps_error *err);

#ifdef __cplusplus
}
#endif
#endif
