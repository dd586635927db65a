/* Private: the command layer (keps/command.h). Each command is one cmd_*.c
 * file that declares its parameters (with help text and an example each)
 * and a run function; the common chores (input, roles, rng, release,
 * report, messages) live in common.c and params.c. Internal functions
 * take the cmd_ prefix; they run inside keps_run, read keps_args and put
 * what they make into a keps_result. They speak keps_status (KEPS_OK, or
 * the status of the error they recorded in the result); exit codes belong
 * to the front-ends (src/cli/exit_code.h). */
#ifndef KEPS_COMMAND_INTERNAL_H
#define KEPS_COMMAND_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#include "keps/command.h"
#include "keps/error.h"
#include "keps/json.h"
#include "keps/lattice.h"
#include "keps/metrics.h"
#include "keps/models.h"
#include "keps/outfile.h"
#include "keps/rng.h"
#include "keps/schema.h"
#include "keps/table.h"

/* Everything declared here stays out of libkeps.so's dynamic symbols. */
#pragma GCC visibility push(hidden)

#define CLI_REPEAT KEPS_PARAM_REPEAT /* option may be given several times */
#define CLI_NUMBER KEPS_PARAM_NUMBER /* its value is a number: the report's parameters show it as one */

/* A parameter: the catalog's entry (metavar NULL for a flag). */
typedef keps_param_info cmd_opt;

typedef struct cmd_ctx cmd_ctx;

typedef struct cmd_cmd {
    const char *name;
    const char *summary;      /* one line for `keps help` */
    const char *usage;        /* after "keps " */
    const char *description;  /* paragraph(s) for --help and the man page */
    const char *example;      /* one full command line */
    const cmd_opt *const *opts; /* NULL-terminated */
    keps_status (*run)(cmd_ctx *c);
    size_t max_pos;           /* positional arguments accepted (privacy: the calculator) */
    const cmd_opt *const *pos_opts; /* positional parameters (NULL-terminated; KEPS_PARAM_POSITIONAL) */
} cmd_cmd;

typedef struct cmd_val {
    char **v;
    size_t n;
    char *origin; /* "FILE:LINE:COL" when the values came from a job file */
    const keps_table *const *tables; /* [n]: an in-memory table given for value k (keps_args_table,
                                        keps_args_hierarchy), or NULL; or tables is NULL */
} cmd_val;

struct cmd_ctx {
    const cmd_cmd *cmd;
    const cmd_opt **opts;  /* this command's parameters incl. the common ones */
    cmd_val *vals;         /* parallel to opts */
    size_t nopts;
    char **pos;            /* positional arguments */
    size_t npos;
    char **rest;           /* the words after "--": the last nrest of pos (audit: the command audited) */
    size_t nrest;
    int json, quiet;       /* json: the report is wanted (keps_host.lean off) */
    keps_rng *rng;         /* made on first use by cmd_rng() */
    const keps_table *input; /* set by cmd_load_input, for the report */
    double t_start;        /* cmd_now_ms() when the command started, for timing_ms.total */
    char *job_dir;         /* base directory of values with an origin (keps_args_base_dir) */
    const keps_schema *schema; /* set by cmd_build_schema: the roles, for the report */
    char *before_after;    /* the release compared with its input (cmd_write_release) */
    size_t counts_rows, counts_records; /* --counts: the frequency table's rows and records (0: none) */
    uint64_t *counts_missing;           /* --counts: the input's missing values per column, in records */
    uint8_t *offered;                   /* [input rows] the research subset (before_after), or NULL */
    const keps_host *host;
    keps_result *res;      /* what the command makes */
    keps_status status;    /* the status of the last error (cmd_fail) */
    int threads;           /* the threads parameter (default: the cores available) */
};


/* Common options (CLI.md); commands list the ones they take. */
extern const cmd_opt cmd_opt_input, cmd_opt_output, cmd_opt_delimiter, cmd_opt_report,
    cmd_opt_qi, cmd_opt_noisy, cmd_opt_sensitive, cmd_opt_insensitive, cmd_opt_identifier,
    cmd_opt_others, cmd_opt_k, cmd_opt_suppress, cmd_opt_epsilon, cmd_opt_delta, cmd_opt_beta,
    cmd_opt_seed, cmd_opt_threads, cmd_opt_missing, cmd_opt_keep_order, cmd_opt_remove_suppressed, cmd_opt_suppressed,
    cmd_opt_decimal_comma, cmd_opt_digits;
/* --html FILE: every command that lists --report takes it too (cmd_parse). */
extern const cmd_opt cmd_opt_html;
/* --counts COL (counts.c): the input as a frequency table. cmd_counts_column
 * finds COL (-1 without --counts); cmd_counts_read gives each row's records
 * (*weight NULL without --counts, *records = t's rows then); cmd_counts_expand
 * replaces *t by its rows repeated COL times; cmd_counts_group makes the
 * release its own frequency table (the rows of a tuple merged, COL summed). */
extern const cmd_opt cmd_opt_counts;
keps_status cmd_counts_column(cmd_ctx *c, const keps_table *t, int *col);
keps_status cmd_counts_read(cmd_ctx *c, const keps_table *t, uint32_t **weight, uint64_t *records);
keps_status cmd_counts_expand(cmd_ctx *c, keps_table **t);
keps_status cmd_counts_group(cmd_ctx *c, keps_table **release);
/* The counts column keeps its numbers in the release (role insensitive);
 * any other role is an error. */
keps_status cmd_counts_role(const cmd_ctx *c, keps_schema *s, keps_error *err);
/* The report's "frequency_table": the column, rows read, records. */
void cmd_counts_json(const cmd_ctx *c, keps_json *j);

/* Values: the last one given, all of them, presence of a flag. */
const char *cmd_str(const cmd_ctx *c, const char *name);
size_t cmd_list(const cmd_ctx *c, const char *name, char ***vals);
int cmd_flag(const cmd_ctx *c, const char *name);
/* Numeric options: return 1 if given (and valid, *out set), 0 if absent
 * (*out = dflt), -1 after printing a usage error. */
int cmd_double(const cmd_ctx *c, const char *name, double lo, double hi, double dflt, double *out);
int cmd_long(const cmd_ctx *c, const char *name, long lo, long hi, long dflt, long *out);
/* A sampling probability (--beta): a decimal or fraction the samplers draw
 * exactly (keps_parse_probability), strictly between 0 and 1. Returns as
 * cmd_double (*p NAN when absent). */
int cmd_probability(const cmd_ctx *c, const char *name, double *p);
/* -k of k-anonymity, the same in every command that releases or checks it:
 * a whole number in [1, CLI_K_MAX] (a larger or overflowing one is a usage
 * error, never clamped). A billion is far beyond any useful k and keeps k*n
 * products of the algorithms far below 2^63. Required (error if absent) or
 * *k = dflt. Returns as cmd_long: 1 given, 0 absent, -1 after an error. */
#define CLI_K_MAX 1000000000L
int cmd_k(const cmd_ctx *c, int required, long dflt, long *k);
/* --suppressed exclude|class (default exclude); returns KEPS_EINPUT after a usage error. */
keps_status cmd_suppressed_mode(const cmd_ctx *c, keps_suppressed_mode *mode);
/* OLA with k above the n records (keps_ola_run finds the release that
 * suppresses every row when the limit allows it): KEPS_EJOB with the message
 * Mondrian and MDAV give, rather than a release of stars. Returns KEPS_EJOB
 * after the message, else KEPS_OK. */
keps_status cmd_k_above_records(const cmd_ctx *c, size_t k, size_t n);
/* KEPS_EJOB when the best partition (what, e.g. "even the top node") leaves
 * need of n rows in classes smaller than k, more than limit: says which
 * --suppress would work, or only -k for commands without --suppress. */
keps_status cmd_over_limit(const cmd_ctx *c, const char *what, size_t k, size_t limit, size_t need, size_t n);
/* A NAME:PATH value of option opt (--qi NAME:HIERARCHY.csv, --hierarchy
 * NAME:FILE) with its PATH resolved against the job file's directory when
 * the value came from a job file (t resolves NAME; builders and "numeric"
 * are no paths). Malloc'd; NULL when out of memory. */
char *cmd_spec_path(const cmd_ctx *c, const char *opt, const keps_table *t, const char *spec);
/* The same for a PATH already cut from its NAME. */
char *cmd_job_file(const cmd_ctx *c, const char *opt, const char *path);
/* "FILE:LINE:COL: " when option name's values came from a job file, else "". */
const char *cmd_origin(const cmd_ctx *c, const char *name);
/* Required option: prints the error and returns -1 if absent. */
int cmd_require(const cmd_ctx *c, const char *name);

/* An option that only some modes of a command read (an --algorithm, a
 * --mode, a calculator). Outside them it would be ignored, which must not
 * pass unsaid: refuse = 1 when ignoring it could release something else than
 * asked or misstate the method (KEPS_EINPUT), else one note on stderr (--quiet
 * silences it). modes: '|'-separated, e.g. "ola|given"; why: why it does not
 * apply or what to give instead. */
typedef struct cmd_mode_opt {
    const char *opt, *modes, *why;
    int refuse;
} cmd_mode_opt;
/* Checks tbl[0..n) against mode; sel says how a mode is chosen, for the
 * messages ("--algorithm ", "keps privacy "). A flag set to false, and a
 * note's value 0, ask for nothing and pass. Returns KEPS_OK, or KEPS_EINPUT after the error. */
keps_status cmd_mode_options(const cmd_ctx *c, const char *sel, const char *mode, const cmd_mode_opt *tbl, size_t n);
/* A note that the hierarchies of the --qi columns are not used (why says
 * by what), one line naming those columns; nothing if none has one. */
void cmd_note_unused_hierarchies(const cmd_ctx *c, const keps_schema *s, const char *why);
/* A note (unless --quiet) before OLA searches a lattice of 10M nodes or
 * more: its time and memory grow with the lattice. */
void cmd_note_lattice(const cmd_ctx *c, const keps_lattice *L);
/* Prints "a, b, c" to f (NULL: prints nothing): the names of t's columns
 * for which pick(ctx, column) holds, however long; returns how many. */
size_t cmd_print_columns(FILE *f, const keps_table *t, int (*pick)(const void *ctx, size_t col), const void *ctx);

/* --metric with ARX's quality-model options (opt_metric.c), for the
 * commands whose OLA search minimizes it. cmd_objective_read parses them
 * (before the data is read); cmd_objective_weights resolves --weight NAME=W
 * against the schema's QIs. Both return 0 or 2 after a usage error. */
extern const cmd_opt cmd_opt_metric, cmd_opt_gs_factor, cmd_opt_monotonic, cmd_opt_aggregate, cmd_opt_weight;
typedef struct cmd_objective {
    keps_metric_config cfg;
    double *weights; /* [nqi] raw --weight values (0.5 unnamed); NULL if none */
} cmd_objective;
keps_status cmd_objective_read(cmd_ctx *c, cmd_objective *o);
keps_status cmd_objective_weights(cmd_ctx *c, const keps_schema *s, cmd_objective *o);
void cmd_objective_free(cmd_objective *o);
/* Report keys "objective" (the quality model as used), "score" (a number,
 * or a list for rank aggregation) and "score_attributes" (per QI, if not
 * NULL). */
void cmd_objective_json(keps_json *j, const keps_schema *s, const cmd_objective *o, const double *score,
                        size_t score_len, const double *attributes);
/* "entropy, gs-factor 0.5, sum: 123.4" into buf; returns the length it needs. */
int cmd_objective_text(char *buf, size_t len, const cmd_objective *o, const double *score, size_t score_len);

/* The candidate a mistyped word most likely meant (a small edit distance),
 * or NULL: for "did you mean" in messages. */
const char *cmd_nearest(const char *word, const char *const *cands, size_t n);
/* The error "out of memory"; returns KEPS_ENOMEM. */
keps_status cmd_oom(const cmd_ctx *c);
/* The error err (its message becomes the result's error; a second error
 * adds a line); returns err->code (KEPS_EINPUT if unset). */
keps_status cmd_fail(const cmd_ctx *c, const keps_error *err);
/* "timing_ms": {"total": ms since the command started}, for reports that
 * time nothing else. */
void cmd_report_total(const cmd_ctx *c, keps_json *j);
keps_status cmd_usage_error(const cmd_ctx *c, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* An error (not a usage error) with {name} markup; returns st. */
keps_status cmd_error(const cmd_ctx *c, keps_status st, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* A message for the host (keps_host.message): kind, printf-style text
 * with {name} markup for parameters. */
void cmd_msg(const cmd_ctx *c, keps_msg_kind kind, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* --digits for the computed columns cols[0..m) of t: digits[j] decimals
 * (-1: the exact double), by default the column's input precision
 * (keps_table_decimals). Returns KEPS_OK or the status of the error; *digits is malloc'd. */
keps_status cmd_digits(const cmd_ctx *c, const keps_table *t, const size_t *cols, size_t m, int **digits);
/* "digits": {"COL": d, ...} ("exact" for -1). */
void cmd_report_digits(keps_json *j, const keps_table *t, const size_t *cols, size_t m, const int *digits);

/* Common chores. Each returns KEPS_OK or the status of the error (recorded in the result). */
keps_status cmd_load_input(cmd_ctx *c, keps_table **t);
/* The same for the commands that release data: an input without records
 * is bad input (KEPS_EINPUT), the same in every method. */
keps_status cmd_load_records(cmd_ctx *c, keps_table **t);
keps_status cmd_load_table(cmd_ctx *c, const char *path, keps_table **t);
keps_status cmd_build_schema(cmd_ctx *c, keps_table *t, keps_schema **s);
/* The same with more QI specs (e.g. MDAV's --columns) after the --qi ones. */
keps_status cmd_build_schema_extra(cmd_ctx *c, keps_table *t, char **extra_qi, size_t nextra, keps_schema **s);
keps_rng *cmd_rng(cmd_ctx *c);  /* NULL after the error */
/* The release: the result takes it (*release becomes NULL), shuffled
 * (its order drawn now) unless keep-order, for the output parameter. */
keps_status cmd_write_release(cmd_ctx *c, keps_table **release);
/* The same in input order whatever keep-order says, for a release whose
 * row i depends on input row i alone (keps noise -i): the order then tells
 * nothing the neighbouring relation does not already fix. */
keps_status cmd_write_release_ordered(cmd_ctx *c, keps_table **release);
/* Another output: a copy of text[0..len) for the path parameter param. */
keps_status cmd_stage_text(cmd_ctx *c, const char *param, const char *text, size_t len);
/* Another CSV output: the result takes t (*t becomes NULL). */
keps_status cmd_stage_table(cmd_ctx *c, const char *param, keps_table **t, char delimiter);
/* The report (and the summary text, may be NULL) into the result. */
keps_status cmd_emit_report(cmd_ctx *c, keps_json *report, const char *text);
/* The same for a check's result (verify, audit): failed != 0 makes it a
 * finding (the front-end exits 1 and writes no output file). Returns KEPS_OK. */
keps_status cmd_emit_finding(cmd_ctx *c, keps_json *report, const char *text, int failed);
/* The row accounting every release reports: input_rows, output_rows (rows
 * written), released_rows, suppressed_rows, removed_rows, unsampled_rows,
 * with released + suppressed + unsampled = input. */
void cmd_report_counts(keps_json *j, const keps_counts *n);
/* The "parameters" member: every parameter given, as given (a flag as a
 * boolean, a number as the user spelled it). keps-mpi writes its reports'
 * with it too. */
void cmd_report_parameters(const cmd_ctx *c, keps_json *j);
/* Starts a report object with the keys every method shares. */
void cmd_report_begin(cmd_ctx *c, keps_json *j, const char *method);
/* Milliseconds since an arbitrary origin (monotonic). */
double cmd_now_ms(void);
/* Progress of the command's own loops (keps/progress.h). */
void cmd_progress(cmd_ctx *c, const char *what, double done, double total);

/* Parts of commands that live in their own files. */
keps_status cmd_audit_neighbours(cmd_ctx *c);
keps_status cmd_anonymize_ola(cmd_ctx *c);
keps_status cmd_anonymize_mondrian(cmd_ctx *c);
keps_status cmd_anonymize_mdav(cmd_ctx *c);
/* Opens a calculator's report object: {"calculator": the calculator's
 * name (keps report reads which one), ...}; the caller adds "result". */
void cmd_calculator_begin(const cmd_ctx *c, keps_json *j);
keps_status cmd_privacy_delta(cmd_ctx *c);
keps_status cmd_privacy_min_k(cmd_ctx *c);
keps_status cmd_privacy_rr_epsilon(cmd_ctx *c);
keps_status cmd_privacy_rr_t(cmd_ctx *c);
keps_status cmd_privacy_implies(cmd_ctx *c);

/* OLA's search statistics as notes when the host asks for them (debug). */
struct keps_ola_result;
void cmd_ola_debug(const cmd_ctx *c, const struct keps_ola_result *r);
/* The criteria search's statistics as a note when the host asks (debug). */
struct keps_search_result;
void cmd_search_debug(const cmd_ctx *c, const struct keps_search_result *r);
/* How the host spells parameter name (keps_host.spell), into buf. */
const char *cmd_spell(const cmd_ctx *c, const char *name, char *buf, size_t len);
/* The same in a buffer that lives to the end of the enclosing block: for a
 * parameter named in a text that is no {name} markup (an argument of a
 * message, a summary line, an error from another module). */
#define CMD_SPELL(c, name) cmd_spell((c), (name), (char[128]){0}, 128)
/* The command called name, or NULL. */
const cmd_cmd *cmd_command(const char *name);
/* The context of command name with a's values (an unknown parameter: the
 * usage error is in res) for a front-end that runs the command's steps
 * itself (keps-mpi reads kepsilon's parameters through kepsilon's own
 * functions); errors go into res. NULL when out of memory or name is no
 * command. */
cmd_ctx *cmd_ctx_new(const char *name, const keps_args *a, const keps_host *host, keps_result *res);
void cmd_ctx_free(cmd_ctx *c);
/* The checks every command makes first (seed), then its run function. */
keps_status cmd_run_checked(cmd_ctx *c);
/* The front-end's own parameters (job, json, quiet, help), NULL-terminated. */
extern const cmd_opt *const cmd_common_opts[];
/* printf into a new string with {name} markup in fmt rendered through the
 * host's spelling (the arguments are not scanned); NULL when out of memory. */
char *cmd_vformat(const cmd_ctx *c, const char *fmt, va_list ap);
/* printf into a new string (no markup); NULL when out of memory. */
char *cmd_strf(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
/* Records an error message in the result (a second one adds a line). */
void cmd_error_text(const cmd_ctx *c, keps_status st, const char *text, int usage);
/* A new output entry of the result for parameter param; NULL when out of memory. */
keps_output *cmd_output_new(cmd_ctx *c, const char *param);
/* Points the result's release and order at its "output" table. */
void cmd_output_sync(cmd_ctx *c);

/* Commands (one cmd_*.c each). */
extern const cmd_cmd cmd_anonymize, cmd_kepsilon, cmd_dpmicro, cmd_safela, cmd_rr, cmd_privacy,
    cmd_verify, cmd_risk, cmd_evaluate, cmd_noise, cmd_audit, cmd_hierarchy, cmd_split, cmd_report;

#pragma GCC visibility pop
#endif
