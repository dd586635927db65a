/* keps: command-line entry point. Dispatches to one cmd_*.c per subcommand. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "keps/outfile.h"
#include "keps/progress.h"
#include "keps/version.h"

int cli_parse(cli_ctx *c, const cli_cmd *cmd, int argc, char **argv);
void cli_ctx_free(cli_ctx *c);
void cli_print_help(FILE *f, const cli_cmd *cmd);
void cli_print_man(FILE *f, const cli_cmd *const *cmds);
char *cli_job_command(const char *path, int *rc);

static const cli_cmd *const commands[] = {
    &cmd_anonymize, &cmd_kepsilon, &cmd_dpmicro, &cmd_safela, &cmd_rr,        &cmd_privacy, &cmd_verify,
    &cmd_risk,      &cmd_evaluate, &cmd_split,   &cmd_hierarchy, &cmd_noise,  &cmd_audit,   &cmd_report, NULL};

static const cli_cmd *lookup(const char *name)
{
    for (const cli_cmd *const *c = commands; *c; c++)
        if (strcmp((*c)->name, name) == 0)
            return *c;
    return NULL;
}

/* "no command 'NAME'", with the command it most likely meant. */
static void no_command(const char *where, const char *name)
{
    const char *names[sizeof commands / sizeof *commands];
    size_t n = 0;
    for (const cli_cmd *const *c = commands; *c; c++)
        names[n++] = (*c)->name;
    const char *near = cli_nearest(name, names, n);
    fprintf(stderr, "keps: %sno command '%s'%s%s%s; 'keps help' lists them\n", where, name, near ? " (did you mean '" : "",
            near ? near : "", near ? "'?)" : "");
}

static void overview(FILE *f)
{
    fprintf(f, "keps %s: publish personal microdata safely (k-anonymity and differential privacy)\n\n"
               "usage: keps COMMAND [options]    keps help COMMAND    keps --job FILE.yml\n\ncommands:\n",
            keps_version());
    for (const cli_cmd *const *c = commands; *c; c++)
        fprintf(f, "  %-10s %s\n", (*c)->name, (*c)->summary);
    fprintf(f, "\n'keps COMMAND --help' lists every option with an example; 'keps --man' prints the manual page, "
               "'keps --version' the version. Exit codes: 0 success, 1 the job could not be done, 2 bad usage or "
               "bad input, 3 an I/O or resource failure (a full disk, a read-only file system, out of memory).\n");
}

static int run(const cli_cmd *cmd, int argc, char **argv)
{
    cli_ctx c;
    if (cli_env_limits(cmd->name))
        return 2;
    int rc = cli_parse(&c, cmd, argc, argv);
    if (rc < 0) {
        cli_progress_install(&c);
        rc = cmd->run(&c);
        if (c.out_file || c.report_file || c.extra_file || c.extra_text || c.html_file || c.html_stdout) /* outputs no report has committed yet */
            rc = cli_commit_release(&c, rc);
        cli_progress_end(&c);
        keps_progress_hook(NULL, NULL);
    }
    cli_ctx_free(&c);
    if ((fflush(stdout) != 0 || ferror(stdout)) && rc < 2) { /* an I/O failure (exit 3) */
        fprintf(stderr, "keps %s: cannot write to standard output: %s\n", cmd->name, strerror(errno));
        rc = keps_exit_code(KEPS_EIO);
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
            const cli_cmd *cmd = lookup(argv[2]);
            if (!cmd) {
                no_command("", argv[2]);
                return 2;
            }
            cli_print_help(stdout, cmd);
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
        cli_print_man(stdout, commands);
        return 0;
    }
    if (!strcmp(name, "--job") && argc >= 3) {
        /* keps --job FILE [flags]: the command comes from the file. */
        int rc;
        char *cmdname = cli_job_command(argv[2], &rc);
        if (!cmdname)
            return rc;
        const cli_cmd *cmd = lookup(cmdname);
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
    const cli_cmd *cmd = lookup(name);
    if (!cmd) {
        no_command("", name);
        return 2;
    }
    return run(cmd, argc - 1, argv + 1);
}
