/* What the CLI reads from the environment (docs/cli.md, "Environment"): the
 * CSV reader's limits (KEPS_MAX_FIELD, KEPS_MAX_LINE), handed to the
 * library with keps_csv_set_limits, KEPS_OLA_DEBUG, which prints OLA's
 * search statistics (keps_ola_stats), and KEPS_SEARCH_DEBUG, the criteria
 * search's (keps_search_stats). The library reads no environment. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "keps/csv.h"
#include "keps/ola.h"
#include "keps/search.h"

/* A size from the environment: bytes, or with K, M or G (binary units).
 * 0 when unset or empty; -1 (with a message) when not a size. */
static int env_size(const char *cmd, const char *name, size_t *out)
{
    const char *v = getenv(name);
    *out = 0;
    if (!v || !*v)
        return 0;
    char *end;
    errno = 0;
    unsigned long long n = strtoull(v, &end, 10);
    int shift = *end == 'K' || *end == 'k' ? 10 : *end == 'M' || *end == 'm' ? 20 : *end == 'G' || *end == 'g' ? 30 : 0;
    if (shift)
        end++;
    if (end == v || *end || errno || n == 0 || *v == '-' || n > (SIZE_MAX >> 1) >> shift) {
        fprintf(stderr, "keps %s: %s='%s' in the environment: expected a size in bytes above 0, e.g. 1048576, 64K, "
                        "16M or 1G\n",
                cmd, name, v);
        return -1;
    }
    *out = (size_t)n << shift;
    return 0;
}

int cli_env_limits(const char *cmd)
{
    static keps_csv_limits l = {0, 0, "(KEPS_MAX_FIELD in the environment, e.g. KEPS_MAX_FIELD=64M)",
                                "(KEPS_MAX_LINE in the environment, e.g. KEPS_MAX_LINE=256M)"};
    if (env_size(cmd, "KEPS_MAX_FIELD", &l.max_field) || env_size(cmd, "KEPS_MAX_LINE", &l.max_line))
        return 2;
    keps_csv_set_limits(&l);
    return 0;
}

void cli_ola_debug(const keps_ola_result *r)
{
    if (!getenv("KEPS_OLA_DEBUG"))
        return;
    const keps_ola_stats *s = &r->stats;
    if (s->thread_evaluated[0] || s->thread_evaluated[1])
        fprintf(stderr, "threads: %llu + %llu evaluated, %llu + %llu classes rolled up\n",
                (unsigned long long)s->thread_evaluated[0], (unsigned long long)s->thread_evaluated[1],
                (unsigned long long)s->thread_rolled_up[0], (unsigned long long)s->thread_rolled_up[1]);
    fprintf(stderr, "kmin phase: %llu evaluated, %llu classes rolled up, %zu calls, %llu of %llu nodes tagged\n",
            (unsigned long long)s->kmin_evaluated, (unsigned long long)s->kmin_rolled_up, s->kmin_calls,
            (unsigned long long)s->nodes_tagged, (unsigned long long)r->nodes_total);
    fprintf(stderr, "after optimum: %llu evaluated, %llu classes rolled up into %llu\n",
            (unsigned long long)s->evaluated, (unsigned long long)s->rolled_up, (unsigned long long)s->classes_made);
}

void cli_search_debug(const keps_search_result *r)
{
    if (!getenv("KEPS_SEARCH_DEBUG"))
        return;
    const keps_search_stats *s = &r->stats;
    fprintf(stderr,
            "search: %llu popped, %llu climbs, %llu evaluated, %llu scored, %llu fail the bounds, %llu pass them "
            "but fail, best %.17g\n",
            (unsigned long long)s->popped, (unsigned long long)s->climbs, (unsigned long long)r->nodes_evaluated,
            (unsigned long long)s->scored, (unsigned long long)s->fails, (unsigned long long)s->falsepass,
            r->found && r->score_len ? r->score[0] : INFINITY);
}
