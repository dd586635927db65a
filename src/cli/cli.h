/* keps CLI: a thin layer over libkeps's command layer (keps/command.h).
 * It parses argv and job files into keps_args, runs the command with
 * keps_run, writes the result's outputs (atomically, keps/outfile.h),
 * prints messages, the summary or the JSON, draws progress, and renders
 * help and the man page from the catalog. */
#ifndef KEPS_CLI_H
#define KEPS_CLI_H

#include <stddef.h>
#include <stdio.h>

#include "keps/command.h"
#include "keps/error.h"
#include "keps/outfile.h"

typedef struct kc_val {
    char **v;
    size_t n;
    char *origin; /* "FILE:LINE:COL" when the values came from a job file */
} kc_val;

#define KC_MAX_EXTRA 4

typedef struct kc_ctx {
    const keps_command_info *cmd;
    const keps_param_info **opts; /* the catalog's parameters of cmd */
    kc_val *vals;                 /* parallel to opts */
    size_t nopts;
    char **pos;                   /* positional words, then the words after "--" */
    size_t npos;
    char **rest;                  /* the words after "--": the last nrest of pos */
    size_t nrest;
    int json, quiet;
    char *job_dir;                /* directory of the --job file when it is not the current one */
    double t_start;
    /* outputs, put into place together (kc_commit) */
    keps_outfile *out_file;       /* -o */
    keps_outfile *report_file;    /* --report */
    keps_outfile *extra_file[KC_MAX_EXTRA]; /* other outputs (--emit-sql, --test-output) */
    size_t nextra;
    keps_outfile *html_file;      /* --html */
    char *extra_text;             /* outputs for stdout, printed once everything is in place */
    char *html_stdout;
    int out_stdout, report_stdout;
    int no_report_file;           /* a finding: no --report file */
} kc_ctx;

/* args.c */
int kc_parse(kc_ctx *c, const keps_command_info *cmd, int argc, char **argv);
void kc_ctx_free(kc_ctx *c);
void kc_print_help(FILE *f, const keps_command_info *cmd);
void kc_print_man(FILE *f);
char *kc_job_command(const char *path, int *rc);
const char *kc_str(const kc_ctx *c, const char *name);
int kc_flag(const kc_ctx *c, const char *name);
int kc_usage_error(const kc_ctx *c, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
int kc_fail(const kc_ctx *c, const keps_error *err);
/* How the CLI spells a parameter: "-k" for a one-letter name, else "--name". */
const char *kc_spell(void *ud, const char *name, char *buf, size_t len);

/* env.c: the CSV limits from KEPS_MAX_FIELD/KEPS_MAX_LINE (2 after a
 * message if one is not a size). */
int kc_env_limits(const char *cmd);

/* output.c */
/* Writes what keps_run made: outputs, report, HTML page, summary; returns
 * the exit code. */
int kc_emit(kc_ctx *c, const keps_result *r);
/* Discards (rc != 0) or puts into place the open outputs; returns rc or
 * the exit code of a failed commit. */
int kc_commit(kc_ctx *c, int rc);
/* The host's callbacks: messages on stderr, progress on a terminal. */
void kc_message(void *ud, keps_msg_kind kind, const char *text);
int kc_progress(void *ud, const char *what, double done, double total);
void kc_progress_end(void);

#endif
