/* keps: every keps command as one library call.
 *
 * The command layer is what the keps CLI runs: parameter checks, reading
 * the inputs, calling the methods, the JSON report, the summary and the
 * messages. A C, Python or R caller gets exactly what the CLI gets:
 *
 *   keps_args *a = keps_args_new();
 *   keps_args_add(a, "input", "adult.csv", NULL);
 *   keps_args_add(a, "qi", "age:interval=5,10,20", NULL);
 *   keps_args_add(a, "k", "5", NULL);
 *   keps_args_add(a, "output", "-", NULL);    (asks for the release)
 *   keps_result r; keps_error err;
 *   if (keps_run("anonymize", a, &host, &r, &err) == KEPS_OK) ... r.release, r.report ...
 *   keps_result_free(&r); keps_args_free(a);
 *
 * Parameters are named as the CLI's long options without the dashes
 * ("epsilon", "keep-order", "qi"); the catalog (keps_commands) lists every
 * command's parameters with help text and an example. keps_run writes no
 * file: the outputs come back in the result (the release as a table, the
 * report as JSON text, other outputs as text or tables) and the caller
 * writes them where the parameters say (the CLI: -o, --report, --html,
 * atomically, keps/outfile.h). Inputs are read from the paths the
 * parameters name, or given in memory (keps_args_table). Messages (notes,
 * warnings, the privacy warnings that print even when quiet) go to the
 * host's callback; parameters in messages and help texts are written as
 * {name} markup and rendered by the host's spell callback (the CLI:
 * "--epsilon", "-k"; Python: "epsilon"), so the library never spells a
 * front-end's flag. docs/architecture.md shows where this sits. */
#ifndef KEPS_COMMAND_H
#define KEPS_COMMAND_H

#include <stddef.h>
#include <stdint.h>

#include "keps/error.h"
#include "keps/progress.h"
#include "keps/table.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- arguments ---- */

typedef struct keps_args keps_args;

keps_args *keps_args_new(void);
void keps_args_free(keps_args *a);
/* One value of parameter `name`. Repeatable parameters (KEPS_PARAM_REPEAT)
 * accumulate; a non-repeatable one given twice keeps the last value. Flags
 * take "true" or "false". Positional parameters (KEPS_PARAM_POSITIONAL:
 * privacy's calculator, hierarchy's action, ...) are added by name too.
 * origin (may be NULL) says where the value came from, for messages
 * ("job.yml:3:5"). Unknown names are refused by keps_run, not here.
 * Values are copied. */
keps_status keps_args_add(keps_args *a, const char *name, const char *value, const char *origin);
/* Relative paths inside values that came with an origin (a job file's
 * NAME:PATH hierarchies) resolve against dir; NULL: the current directory.
 * (Whole-path values such as input are the caller's to resolve.) */
keps_status keps_args_base_dir(keps_args *a, const char *dir);
/* An in-memory table instead of a path for parameter `name` (input,
 * original, release, population, test, ...): as if the parameter named a
 * file holding t. t is borrowed (not freed, not changed: the command works
 * on a copy); it must outlive keps_run. Also counts as giving the
 * parameter (its value in the report is t->source). */
keps_status keps_args_table(keps_args *a, const char *name, const keps_table *t);
/* An in-memory hierarchy for column `column`, as if "qi" were given the
 * value "column:FILE" with h in FILE: h holds the ARX layout (row = a leaf,
 * column j = its level-j label; the header row's names do not matter). h
 * is borrowed as for keps_args_table. */
keps_status keps_args_hierarchy(keps_args *a, const char *column, const keps_table *h);
/* Is parameter name given? How many values? */
size_t keps_args_count(const keps_args *a, const char *name);

/* ---- host: how the caller hears from a command ---- */

typedef enum {
    KEPS_MSG_NOTE = 0,    /* a note; commands send none when quiet */
    KEPS_MSG_WARNING = 1, /* a warning about the result */
    KEPS_MSG_PRIVACY = 2  /* a warning that weakens the privacy guarantee (a seed, row
                             order): sent even when quiet, to be shown always */
} keps_msg_kind;

typedef struct keps_host {
    /* One message (without a trailing newline; a message may hold several
     * lines). NULL: messages are dropped. */
    void (*message)(void *ud, keps_msg_kind kind, const char *text);
    /* How this front-end spells parameter `name` in messages, written into
     * buf (len bytes); returns buf. The CLI: "--epsilon", "-k"; Python:
     * "epsilon" (dashes as underscores). NULL: the bare name. */
    const char *(*spell)(void *ud, const char *name, char *buf, size_t len);
    /* Progress of long steps (keps/progress.h); return nonzero to cancel:
     * keps_run then returns KEPS_ECANCEL with an empty result (the step
     * stops at its next report, or the command at its end). NULL: none. */
    keps_progress_cb progress;
    int quiet;                 /* no notes (privacy warnings still come) */
    /* 1: the caller will not look at the report (the CLI without --json,
     * --report or --html): sections that only describe the release for the
     * report (before_after, the list of noisy releases) are skipped. */
    int lean;
    /* The keps executable `audit` with the neighbours parameter runs as a
     * subprocess for each release it audits (the CLI: itself); NULL: the
     * caller must give the binary parameter. */
    const char *program;
    void *ud;
    int debug; /* 1: tuning statistics as notes (OLA's search: keps_ola_stats) */
    /* Where audit with neighbours keeps its runs' files (a directory made
     * and removed inside it); NULL or "": /tmp. The CLI: $TMPDIR. */
    const char *tmpdir;
} keps_host;

/* ---- result ---- */

/* An output other than the report, for the parameter naming its path:
 * a table written as CSV (with a header row, rows in order) or a text. */
typedef struct keps_output {
    char *param;        /* "output", "test-output", "emit-sql", ... */
    keps_table *table;  /* a CSV output, or NULL */
    uint32_t *order;    /* table row order: row i of the file is table row
                           order[i]; NULL: as stored (the release is already
                           shuffled unless keep-order) */
    char delimiter;     /* the field separator to write the table with */
    char *text;         /* a text output (a SQL script, an HTML page, a
                           hierarchy file), or NULL */
    size_t len;
} keps_output;

typedef struct keps_result {
    int finding;          /* 1 when a check failed (verify, audit): the front-end
                             exits 1 and writes no output file */
    int usage;            /* after an error: it is a usage error (the front-end
                             points to the command's help) */
    char *error;          /* after an error: the whole message (err->msg holds
                             its first 1023 bytes); several lines possible */
    keps_table *release;  /* the released table (outputs[] entry "output"), or NULL */
    const uint32_t *order;/* its row order (see keps_output), NULL: as stored */
    char *report;         /* the JSON report (NUL-terminated), or NULL */
    char *summary;        /* the human-readable summary (the CLI prints it without
                             --json unless quiet), or NULL */
    char *printed;        /* what the command prints as its output whatever quiet
                             says (noise's releases, one a line), or NULL */
    keps_output *outputs; /* every output for a path parameter, in the order
                             the command made them: the release ("output"),
                             risk's per-record figures ("output", a table),
                             split's two parts ("output", "test-output"),
                             anonymize's SQL script ("emit-sql", a text),
                             hierarchy build's file and report's HTML page
                             ("output", texts) */
    size_t noutputs;
} keps_result;

void keps_result_free(keps_result *r);
/* The output for parameter param, or NULL. */
const keps_output *keps_result_output(const keps_result *r, const char *param);

/* Runs command `name` ("anonymize", "kepsilon", "dpmicro", "safela", "rr",
 * "privacy", "verify", "risk", "evaluate", "split", "hierarchy", "noise",
 * "audit", "report"). host may be NULL (messages dropped). out is always
 * initialized (free it with keps_result_free, also after an error).
 * Returns KEPS_OK (check out->finding), or: KEPS_EINPUT bad usage or
 * input (exit 2), KEPS_EJOB the job cannot be done (exit 1), KEPS_ENOMEM
 * or KEPS_EIO (exit 3), KEPS_ECANCEL when the progress callback cancelled;
 * err->msg and out->error say what, where and how to fix it.
 * Thread-safe: two threads may run commands at once (their hosts apart;
 * the progress hook is the calling thread's). One exception: MDAV's thread
 * count (the threads parameter of anonymize and dpmicro) is process-wide
 * (keps_mdav_threads), so two concurrent MDAV runs share the last one set. */
keps_status keps_run(const char *name, const keps_args *a, const keps_host *host, keps_result *out,
                     keps_error *err);

/* ---- catalog ---- */

#define KEPS_PARAM_REPEAT 1u     /* may be given several times */
#define KEPS_PARAM_NUMBER 2u     /* a number: the report's parameters show it as one */
#define KEPS_PARAM_PATH 4u       /* names a file read (or written: KEPS_PARAM_OUTPUT) */
#define KEPS_PARAM_OUTPUT 8u     /* names a file the command's result is written to */
#define KEPS_PARAM_POSITIONAL 16u /* given without its name on a command line */
#define KEPS_PARAM_REST 32u      /* the words after "--" (audit: the audited command) */
#define KEPS_PARAM_RELEASE 128u  /* names the release's file: the command releases data */
#define KEPS_PARAM_COMMON 64u    /* a front-end's own parameter, same in every command
                                    (job, json, quiet, help): keps_run ignores it */

typedef struct keps_param_info {
    const char *name;    /* "epsilon" */
    char shortc;         /* the CLI's short letter, 0 if none */
    const char *metavar; /* "E"; NULL for a flag */
    unsigned flags;      /* KEPS_PARAM_* */
    const char *help;    /* other parameters written as {name} */
    const char *example; /* example value(s), "1.0"; "" for a flag; several
                            values of a repeatable one separated by '\n' */
} keps_param_info;

typedef struct keps_command_info {
    const char *name;
    const char *summary;     /* one line */
    const char *usage;       /* the synopsis after the program's name, with {name}
                                markup: "split {input} FILE ..." */
    const char *description; /* paragraphs with {name} markup */
    const char *example;     /* one call after the program's name, with {name}
                                markup: "split {input} data.csv ...": a front-end
                                renders it in its own form (the CLI: "keps split
                                -i data.csv ...") */
    const keps_param_info *params;
    size_t nparams;
} keps_command_info;

/* Every command, in the order the CLI lists them; returns how many. */
size_t keps_commands(const keps_command_info *const **list);
/* The command called name, or NULL. */
const keps_command_info *keps_command(const char *name);
/* Its parameter called name, or NULL. */
const keps_param_info *keps_command_param(const keps_command_info *cmd, const char *name);
/* The candidate a mistyped word most likely meant (1 edit in a word of up
 * to 4 bytes, 2 in a longer one; adjacent swaps count 1), or NULL: for
 * "did you mean" in messages. */
const char *keps_nearest(const char *word, const char *const *cands, size_t n);
/* text with every {name} markup rendered through spell (NULL: the bare
 * name), into a new string (malloc'd; NULL when out of memory). */
char *keps_render(const char *text, const char *(*spell)(void *ud, const char *name, char *buf, size_t len),
                  void *ud);

#ifdef __cplusplus
}
#endif
#endif
