/* keps-mpi: the pipeline on a cluster (docs/scale.md). One process per
 * rank reads its share of the input, the ranks agree on the encoding of
 * the columns the search reads, count their distinct tuples, and merge
 * the frequency tables by a reduction; rank 0 searches the merged
 * (weighted) table with the library's own search and broadcasts the
 * result; every rank applies it to its rows, the rows are exchanged at
 * random between the ranks (all-to-all), and every rank writes its output
 * shard. Nothing here is method logic: that is libkeps's. */
#ifndef KEPS_MPI_H
#define KEPS_MPI_H

#include <jansson.h>
#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#include "keps/command.h"
#include "keps/error.h"
#include "keps/hierarchy.h"
#include "keps/metrics.h"
#include "keps/ola.h"
#include "keps/rng.h"
#include "keps/table.h"

struct kc_ctx;
typedef struct kmpi {
    int rank, size;
    unsigned long long bytes_sent; /* by this rank, all phases */
    const struct kc_ctx *args;     /* the command line as the CLI's parser read it (not count's) */
    const char *input_text;        /* -i as given, the report's input */
} kmpi;

/* ---- input.c: this rank's share of the input ---- */
typedef struct kmpi_input_opts {
    char **specs;       /* -i values: files or globs, in order */
    size_t nspecs;
    char delimiter;     /* 0: sniff */
    const char *missing;
} kmpi_input_opts;
/* Reads this rank's share: the listed shard files dealt in contiguous
 * blocks (rank order = input order), or, when the input is one file and
 * there are several ranks, a byte range of it cut at record boundaries.
 * Every rank gets a table with the same header (a rank without a shard
 * gets no rows). *mode_text says which ("shards", "byte ranges"). */
typedef struct kmpi_part {
    size_t row;   /* first row of the table read from path */
    char *path;
} kmpi_part;
keps_status kmpi_read_input(kmpi *m, const kmpi_input_opts *o, keps_table **out, const char **mode_text,
                            size_t *nfiles, kmpi_part **parts, size_t *nparts, keps_error *err);
/* The shard file holding row (its messages must name that file). */
const char *kmpi_part_of(const kmpi_part *parts, size_t nparts, size_t row);

/* ---- encode.c: codes every rank agrees on ---- */
/* The distinct values of column col over all ranks, in the order of their
 * first appearance in the concatenated input (rank 0's first, then the
 * new ones of rank 1, ...): a one-column table (the same on every rank)
 * and local[code of t] = row of that table. */
keps_status kmpi_agree_column(kmpi *m, const keps_table *t, size_t col, keps_table **dict, uint32_t **local,
                              keps_error *err);

/* ---- freq.c: frequency tables of distinct tuples ---- */
typedef struct kmpi_freq {
    size_t q;          /* codes per tuple */
    size_t n, cap;     /* distinct tuples */
    uint32_t *tuple;   /* [n*q] */
    uint64_t *count;   /* [n] */
    uint32_t *slot;    /* open addressing: index + 1, 0 = empty */
    size_t nslots;
} kmpi_freq;
int kmpi_freq_init(kmpi_freq *f, size_t q);
void kmpi_freq_free(kmpi_freq *f);
/* Adds count records of tuple; returns its index, or -1 out of memory. */
long kmpi_freq_add(kmpi_freq *f, const uint32_t *tuple, uint64_t count);
/* Index of tuple, or -1. */
long kmpi_freq_find(const kmpi_freq *f, const uint32_t *tuple);
/* Merges every rank's table into rank 0's by a binomial tree (log2 P
 * rounds; each rank sends its merged table once). Other ranks' tables are
 * emptied. */
int kmpi_freq_reduce(kmpi *m, kmpi_freq *f);
/* Rank root's table to every rank. */
int kmpi_freq_bcast(kmpi *m, kmpi_freq *f, int root);

/* ---- exchange.c: sending large buffers, the global shuffle ---- */
int kmpi_send(kmpi *m, const void *buf, size_t len, int dest, int tag);
int kmpi_recv(kmpi *m, void **buf, size_t *len, int src, int tag);
/* Rows as CSV text (keps_csv_format_row), each after its length (4 bytes). */
typedef struct kmpi_rows {
    char *buf;
    size_t len, cap;
    size_t n;
} kmpi_rows;
int kmpi_rows_add(kmpi_rows *r, const char *const *fields, size_t nf, char delimiter);
void kmpi_rows_free(kmpi_rows *r);
/* Sends every row of out[d] to rank d (all-to-all, in rounds that keep
 * each message below 1 GiB); *in gets the rows received, rank by rank. */
int kmpi_exchange(kmpi *m, kmpi_rows *out, kmpi_rows *in);
/* Writes rows (under header, nf fields) shuffled with rng to path
 * through the outfile module; the caller commits all ranks' files only
 * when every rank succeeded (kmpi_all_ok). */
keps_status kmpi_write_shard(const kmpi_rows *rows, size_t nf, const char *const *header, char delimiter,
                             keps_rng *rng, const char *path, void **handle, keps_error *err);
keps_status kmpi_commit_shard(void *handle, keps_error *err);
void kmpi_abort_shard(void *handle);

/* ---- main.c: the OLA node the ranks agreed on ---- */
enum { PH_READ, PH_ENCODE, PH_COUNT, PH_MERGE, PH_SEARCH, PH_APPLY, PH_SHUFFLE, PH_WRITE, PH_N };
/* A key column: agreed values, hierarchy spec. */
typedef struct keycol {
    size_t col;          /* in the local table */
    const char *rest;    /* hierarchy spec after NAME: (NULL: none) */
    keps_table *dict;    /* agreed values, one row each */
    uint32_t *local;     /* local code -> agreed code */
} keycol;

/* main.c's steps, for the commands in their own files: agree on the
 * values of the columns specs[0..n) (need_h: each must name a hierarchy);
 * the hierarchy of a key column built on its agreed values; the rank's QI
 * bound to its own values (a missing value named with its shard's line);
 * the merged table f as a table of distinct tuples (agreed codes) and their
 * weights. */
keps_status agree(const keps_table *t, char **specs, size_t n, int need_h, keycol *kc, keps_error *err);
keps_status make_hierarchy(const keycol *kc, keps_hierarchy **h, keps_error *err);
void keycols_free(keycol *kc, size_t n);
keps_status add_local_qi(keps_schema *s, keps_table *t, const keycol *kc, keps_hierarchy *h, const kmpi_part *parts,
                         size_t nparts, keps_error *err);
keps_status weighted_table(const keps_table *t, const keycol *kc, size_t q, const kmpi_freq *f, keps_table **out,
                           uint32_t **weight, keps_error *err);

/* What a command that releases by the node gets from main.c: this rank's
 * rows and schema (hierarchies bound to its values), the agreed codes, the
 * node's levels and the tuples suppressed at it (on every rank), rank 0's
 * search result, and the phases' clocks and byte counters so far. */
typedef struct kmpi_node {
    keps_table *t;
    keps_schema *s;
    const keycol *kc;
    size_t q;
    const int *levels;
    const kmpi_freq *sup;
    keps_rng *rng;        /* this rank's stream (kmpi_rng) */
    double *ph;           /* [PH_N] ms of this rank */
    double *bytes;        /* [5] encode, merge, broadcast, shuffle, classes (the
                             routing of whole classes; < 0: none): sums over ranks */
    const kmpi_part *parts;
    size_t nparts;
    const struct keps_ola_result *res; /* rank 0 only */
    const char *mode;
    size_t nfiles, distinct, suppressed_tuples;
    long k;
    double suppress;
    int remove_suppressed, quiet;
    const char *output, *report, *html, *seed;
    int json;             /* the report on stdout too */
    /* set by kmpi_shuffle_write */
    double phmax[PH_N];   /* rank 0: maxima over ranks */
    long rss;             /* rank 0: the largest max RSS of a rank, KiB */
    void *rep[2];         /* rank 0: the report file and the HTML page (keps_outfile), open */
} kmpi_node;
/* This rank's release by the node (nd: t, s, levels, sup): its rows with
 * keep[row] (NULL: every row; the others are counted not sampled), each QI
 * at its level, a row whose key tuple (the codes of kc[0..nk), agreed) is
 * in sup suppressed: '*' in every QI, or left out with remove_suppressed.
 * *rel: the release's columns (kmpi_release_new); n: the counts. */
keps_status kmpi_apply_node(const kmpi_node *nd, const keycol *kc, size_t nk, const uint8_t *keep,
                            int remove_suppressed, keps_table **rel, keps_counts *n, keps_error *err);
/* The global shuffle and the shards: this rank's release rows (rel, its
 * column names the header; NULL when st, this rank's status so far, failed
 * with err's message) each to a random rank, every rank's shard written
 * shuffled, and rank 0's report file opened; the shards go into place only
 * when every rank succeeded. n: this rank's counts, *all their sums (rank
 * 0). Sets the shuffle and write phases, bytes[3], phmax and rss.
 * Collective; 0 or the exit code (a failing rank says why). */
int kmpi_shuffle_write(kmpi *m, kmpi_node *nd, keps_status st, keps_error *err, const keps_table *rel,
                       const keps_counts *n, keps_counts *all);
/* Rank 0 writes the report text (NULL after an error: the report and page
 * are dropped) to the report file, as the HTML page, on stdout with json,
 * and a line on stderr; the exit code, the same on every rank. The report
 * gets what the single run's says of its input and run (kmpi_report_complete).
 * Collective. */
int kmpi_finish(kmpi *m, kmpi_node *nd, const char *text, const char *cmd, const keps_counts *all);
/* The "mpi" member of a report (rank 0): ranks, input, memory, bytes and
 * the phases' times (maxima over ranks). */
struct keps_json;
void kmpi_report_mpi(struct keps_json *j, const char *mode, size_t nfiles, size_t distinct, size_t suppressed_tuples,
                     const double *bytes, const double *phmax, long max_rss_kb);

/* ---- anonymize.c: the search of keps anonymize on rank 0 ---- */
struct kc_ctx;
typedef struct kmpi_anon_in {
    const struct kc_ctx *args; /* the command line as the CLI parsed it */
    const keps_table *t;       /* this rank's rows (names, missing token, delimiter) */
    const keycol *kc;          /* the q QIs, then the ns sensitive columns */
    size_t q, ns;
    char **role;               /* the columns whose role only keeps or drops them */
    size_t nrole;
    const char *input_text;    /* -i as given */
} kmpi_anon_in;
typedef struct kmpi_anon_out {
    json_t *report;              /* the search's report */
    uint64_t suppressed_records; /* by its node */
    int usage;                   /* after an error: a usage error */
} kmpi_anon_out;
/* Rank 0: keps anonymize --counts on the merged frequency table f (key:
 * in->kc), with every parameter the user gave; the node's levels (q) and
 * the QI tuples it suppresses (into sup, q codes each). */
keps_status kmpi_anonymize_search(const kmpi_anon_in *in, const kmpi_freq *f, int *levels, kmpi_freq *sup,
                                  kmpi_anon_out *out, keps_error *err);
/* Rank 0: the search's report with keps-mpi's mpi member, as text (free()
 * it); NULL when the ranks' counts are not the search's (an internal
 * error, said on stderr). */
char *kmpi_anonymize_text(const kmpi_anon_out *out, const kmpi_node *nd, const keps_counts *all);

/* ---- main.c: the parsed command line ---- */
/* The user's parameters (c: the CLI's parser's) as keps_args for the
 * command layer, every value given but those named in skip (NULL-ended;
 * NULL: none), with their job-file origins; NULL if out of memory. */
keps_args *kmpi_args(const struct kc_ctx *c, const char *const *skip);

/* ---- report.c ---- */
/* Completes a command's report as the single run writes it: parameters as
 * given (input: -i as given; a parameter the command's own report already
 * types is kept), seeded, the whole input's missing values per column
 * (missing: sums over ranks, in table order of t), and keps-mpi's timing
 * (total, load, search, write, from the phases' maxima). Rank 0. */
int kmpi_report_complete(const kmpi *m, json_t *root, const keps_table *t, const long long *missing,
                         const double *phmax);

/* ---- kepsilon.c ---- */
struct kmpi_kparams;
typedef struct kmpi_dp {
    double epsilon;           /* kepsilon's; safela's claimed one (0: the default) */
    const char *scale;        /* kepsilon: ec (NULL) | global | domain */
    const char *beta;         /* safela: as written, sampled exactly */
    double epsilon_prime, penalty;
    int interpolate;
    const char *interp_text, *eps_prime_text, *penalty_text;
    struct kmpi_kparams *kp;  /* what kmpi_kepsilon_check read; kmpi_kepsilon_free */
} kmpi_dp;
/* Option checks before any data is read (say: print the message); 0 or
 * the exit code. kepsilon's parameters are read as keps kepsilon reads them
 * (the same checks and messages). */
int kmpi_kepsilon_check(const kmpi *m, kmpi_dp *dp, int say);
/* Every rank, once the schema is built and before the search: --weight
 * against the QIs and --bounds against the noisy columns; *objective is
 * what OLA minimizes. A usage error's message is rank 0's (the others
 * fail with no message: it would be the same). */
keps_status kmpi_kepsilon_prepare(kmpi *m, const kmpi_dp *dp, const keps_schema *s,
                                  const keps_metric_config **objective, int *threads, keps_error *err);
void kmpi_kepsilon_free(kmpi_dp *dp);
/* Holohan et al.'s (k,epsilon)-anonymity by the node (docs/scale.md). */
int kmpi_kepsilon(kmpi *m, kmpi_node *nd, const kmpi_dp *dp);

/* ---- safela.c ---- */
int kmpi_safela_check(kmpi_dp *dp, int say);
/* Li, Qardaji and Su's safe lattice anonymization: nd as for kepsilon but
 * before any count (levels, sup and res unset). */
int kmpi_safela(kmpi *m, kmpi_node *nd, const kmpi_dp *dp);

/* ---- rr.c ---- */
typedef struct kmpi_rr_opts {
    const char *mechanism, *partition, *p, *pt, *epsilon, *t, *dp_k, *k; /* as given */
    char **domain;  /* --domain COL=V1,V2,...|COL=@FILE, as given (repeatable) */
    size_t ndomain;
} kmpi_rr_opts;
typedef struct kmpi_rr_in {
    keps_table *t;
    kmpi_rr_opts o;
    char **qi, **sensitive, **insensitive, **identifier;
    size_t nqi, nsensitive, ninsensitive, nidentifier;
    const char *others, *output, *report, *seed, *mode;
    size_t nfiles;
    int quiet;
    double *ph;
    const char *html; /* the report as an HTML page too */
    int json;         /* the report on stdout too */
    const kmpi_part *parts; /* this rank's shard files: messages name a cell's own */
    size_t nparts;
} kmpi_rr_in;
int kmpi_rr_check(const kmpi_rr_opts *o, int say);
/* Ekenstedt et al.'s randomized response record by record, --mechanism
 * ldp|tclose|both, --partition given|ola, --domain (docs/scale.md). */
int kmpi_rr(kmpi *m, const kmpi_rr_in *in);

/* ---- util ---- */
/* This rank's message, if it has one (a rank that stops because another
 * failed has none); the exit code for st (2 when this rank did not fail). */
int kmpi_fail(kmpi *m, keps_status st, const keps_error *err);
/* The release's columns of s (keps_schema_released, in table order) as an
 * empty table with their names, its missing token, source and delimiter;
 * cols[x]: the column of s->t behind release column x, qi[x]: its QI index
 * or -1. NULL with err set on error. */
keps_table *kmpi_release_new(const keps_schema *s, size_t **cols, int **qi, keps_error *err);
/* Bytes sent by all ranks since *mark (this rank's counter), which moves
 * to now. Collective. */
double kmpi_bytes_since(kmpi *m, unsigned long long *mark);
/* This rank's random stream (keps_rng_from_key): rank 0 makes the run's
 * key, from seed (a decimal; reproducible, NOT private) or from OS entropy,
 * and broadcasts it; rank r takes stream r + 1 (with a seed: the stream
 * keps_rng_split(keps_rng_new_seeded(seed), r + 1)). Collective; NULL on
 * every rank when rank 0 has no randomness or a rank is out of memory. */
keps_rng *kmpi_rng(kmpi *m, const char *seed);
/* 1 when st is KEPS_OK on every rank; a failing rank's message is
 * printed by that rank. */
int kmpi_all_ok(kmpi *m, keps_status st);
/* The path of rank r's output shard: pattern with %r replaced by r (%% a
 * percent sign); NULL if out of memory. */
char *kmpi_shard_path(const char *pattern, int rank);
double kmpi_now_ms(void);

#endif
