/* keps as a library: any keps command through keps_run (keps/command.h),
 * the same parameters as the CLI's long options. This one makes a
 * k-anonymous release with Mondrian and writes it with its JSON report:
 *
 *   run IN.csv OUT.csv K QI [QI...]
 *
 * Messages (notes, and the privacy warnings every front-end must show)
 * arrive through the host's callback; parameters in them are spelled as
 * this program names them ("parameter 'k'"). */
#include <stdio.h>
#include <stdlib.h>

#include <keps.h>

static void message(void *ud, keps_msg_kind kind, const char *text)
{
    (void)ud;
    fprintf(stderr, "%s: %s\n", kind == KEPS_MSG_PRIVACY ? "privacy" : "note", text);
}

static const char *spell(void *ud, const char *name, char *buf, size_t len)
{
    (void)ud;
    snprintf(buf, len, "parameter '%s'", name);
    return buf;
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: %s IN.csv OUT.csv K QI [QI...]\n", argv[0]);
        return 2;
    }
    keps_args *a = keps_args_new();
    keps_args_add(a, "input", argv[1], NULL);
    keps_args_add(a, "algorithm", "mondrian", NULL);
    keps_args_add(a, "k", argv[3], NULL);
    for (int i = 4; i < argc; i++)
        keps_args_add(a, "qi", argv[i], NULL);
    keps_args_add(a, "others", "keep", NULL);
    keps_args_add(a, "output", argv[2], NULL); /* for the report's parameters; the release comes back in memory */
    keps_host host = {.message = message, .spell = spell};
    keps_result r;
    keps_error err;
    keps_status st = keps_run("anonymize", a, &host, &r, &err);
    if (st == KEPS_OK) { /* the release in its (shuffled) output order, then the report */
        const keps_output *o = keps_result_output(&r, "output");
        st = keps_csv_write_table(o->table, argv[2], o->delimiter, o->order, &err);
        if (st == KEPS_OK)
            printf("%s\n", r.report);
    }
    if (st != KEPS_OK)
        fprintf(stderr, "%s\n", err.msg);
    keps_result_free(&r);
    keps_args_free(a);
    /* the exit codes of the keps CLI (docs/cli.md) */
    return st == KEPS_OK ? 0 : st == KEPS_EJOB ? 1 : st == KEPS_EINPUT ? 2 : 3;
}
