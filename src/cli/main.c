/* keps: command-line entry point. Parses the command's parameters, runs it
 * through the library's command layer (keps_run) and writes its result. */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "exit_code.h"
#include "keps/outfile.h"
#include <unistd.h>

#include "keps/version.h"

static const keps_command_info *lookup(const char *name)
{
    return keps_command(name);
}

/* "no command 'NAME'", with the command it most likely meant. */
static void no_command(const char *where, const char *name)
{
    const keps_command_info *const *cmds;
    size_t n = keps_commands(&cmds);
    const char *names[64];
    for (size_t i = 0; i < n && i < 64; i++)
        names[i] = cmds[i]->name;
    const char *near = keps_nearest(name, names, n < 64 ? n : 64);
    fprintf(stderr, "keps: %sno command '%s'%s%s%s; 'keps help' lists them\n", where, name, near ? " (did you mean '" : "",
            near ? near : "", near ? "'?)" : "");
}

static void overview(FILE *f)
{
    fprintf(f, "keps %s: publish personal microdata safely (k-anonymity and differential privacy)\n\n"
               "usage: keps COMMAND [options]    keps help COMMAND    keps --job FILE.yml\n\ncommands:\n",
            keps_version());
    const keps_command_info *const *cmds;
    size_t n = keps_commands(&cmds);
    for (size_t i = 0; i < n; i++)
        fprintf(f, "  %-10s %s\n", cmds[i]->name, cmds[i]->summary);
    fprintf(f, "\n'keps COMMAND --help' lists every option with an example; 'keps --man' prints the manual page, "
               "'keps --version' the version. Exit codes: 0 success, 1 the job could not be done, 2 bad usage or "
               "bad input, 3 an I/O or resource failure (a full disk, a read-only file system, out of memory).\n");
}

/* The parsed values as the command's parameters (with their job-file
 * origins), run by the library; its result written. */
static int run_parsed(kc_ctx *c)
{
    keps_args *a = keps_args_new();
    int ok = a != NULL && keps_args_base_dir(a, c->job_dir) == KEPS_OK;
    for (size_t i = 0; ok && i < c->nopts; i++)
        for (size_t k = 0; ok && k < c->vals[i].n; k++)
            ok = keps_args_add(a, c->opts[i]->name, c->vals[i].v[k], c->vals[i].origin) == KEPS_OK;
    if (!ok) {
        keps_args_free(a);
        fprintf(stderr, "keps %s: out of memory\n", c->cmd->name);
        return 3;
    }
    static char exe[PATH_MAX]; /* audit --neighbours runs this very executable */
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[n > 0 ? n : 0] = '\0';
    keps_host host = {.message = kc_message, .spell = kc_spell, .quiet = c->quiet, .program = n > 0 ? exe : NULL, .ud = c};
    host.lean = !(c->json || kc_str(c, "report") || kc_str(c, "html"));
    if (!c->quiet && isatty(STDERR_FILENO))
        host.progress = kc_progress;
    /* OLA's and the criteria search's statistics (docs/cli.md, "Environment") */
    host.debug = getenv("KEPS_OLA_DEBUG") != NULL || getenv("KEPS_SEARCH_DEBUG") != NULL;
    host.tmpdir = getenv("TMPDIR");
    keps_result r;
    keps_error err;
    keps_status st = keps_run(c->cmd->name, a, &host, &r, &err);
    kc_progress_end();
    int rc;
    if (st) {
        fprintf(stderr, "keps %s: %s\n", c->cmd->name, r.error ? r.error : err.msg);
        if (r.usage)
            fprintf(stderr, "(see 'keps %s --help')\n", c->cmd->name);
        rc = cli_exit_code(st);
    } else {
        rc = kc_emit(c, &r);
    }
    keps_result_free(&r);
    keps_args_free(a);
    return rc;
}

static int run(const keps_command_info *cmd, int argc, char **argv)
{
    kc_ctx c;
    if (kc_env_limits(cmd->name))
        return 2;
    int rc = kc_parse(&c, cmd, argc, argv);
    if (rc < 0)
        rc = run_parsed(&c);
    kc_ctx_free(&c);
    if ((fflush(stdout) != 0 || ferror(stdout)) && rc < 2) { /* an I/O failure (exit 3) */
        fprintf(stderr, "keps %s: cannot write to standard output: %s\n", cmd->name, strerror(errno));
        rc = cli_exit_code(KEPS_EIO);
    }
    return rc;
}

/* Ctrl-C or a kill while an output is being written must not leave its
 * temporary file behind: remove it, then die of the signal as usual. */
static void on_signal(int sig)
{
    keps_outfile_cleanup();
    signal(sig, SIG_DFL);
    raise(sig);
}

static void install_signal_cleanup(void)
{
    const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
    for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        sigaction(sigs[i], &sa, NULL);
    }
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        overview(stderr);
        return 2;
    }
    install_signal_cleanup();
    const char *name = argv[1];
    if (!strcmp(name, "help") || !strcmp(name, "--help") || !strcmp(name, "-h")) {
        if (argc > 2 && strcmp(name, "help") == 0) {
            const keps_command_info *cmd = lookup(argv[2]);
            if (!cmd) {
                no_command("", argv[2]);
                return 2;
            }
            kc_print_help(stdout, cmd);
            return 0;
        }
        overview(stdout);
        return 0;
    }
    if (!strcmp(name, "--version") || !strcmp(name, "version")) {
        printf("keps %s\n", keps_version());
        return 0;
    }
    if (!strcmp(name, "--man")) {
        kc_print_man(stdout);
        return 0;
    }
    if (!strcmp(name, "--job") && argc >= 3) {
        /* keps --job FILE [flags]: the command comes from the file. */
        int rc;
        char *cmdname = kc_job_command(argv[2], &rc);
        if (!cmdname)
            return rc;
        const keps_command_info *cmd = lookup(cmdname);
        if (!cmd) {
            char where[4200];
            snprintf(where, sizeof where, "%s: ", argv[2]);
            no_command(where, cmdname);
            free(cmdname);
            return 2;
        }
        free(cmdname);
        argv[1] = (char *)cmd->name;
        /* re-parse as: keps CMD --job FILE rest... */
        char **av = malloc(((size_t)argc + 2) * sizeof *av);
        if (!av)
            return 3; /* out of memory */
        av[0] = (char *)cmd->name;
        av[1] = "--job";
        av[2] = argv[2];
        for (int i = 3; i < argc; i++)
            av[i] = argv[i];
        av[argc] = NULL;
        int r = run(cmd, argc, av);
        free(av);
        return r;
    }
    if (!strcmp(name, "--job")) {
        fprintf(stderr, "keps: --job needs a file: keps --job FILE.yml [flags]\n");
        return 2;
    }
    const keps_command_info *cmd = lookup(name);
    if (!cmd) {
        no_command("", name);
        return 2;
    }
    return run(cmd, argc - 1, argv + 1);
}
