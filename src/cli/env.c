/* What the CLI reads from the environment (docs/cli.md, "Environment"): the
 * CSV reader's limits (KEPS_MAX_FIELD, KEPS_MAX_LINE), handed to the
 * library with keps_csv_set_limits; KEPS_OLA_DEBUG (main.c) turns on the
 * host's debug notes (OLA's search statistics). The library reads no
 * environment. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "keps/csv.h"

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

int kc_env_limits(const char *cmd)
{
    static keps_csv_limits l = {0, 0, "(KEPS_MAX_FIELD in the environment, e.g. KEPS_MAX_FIELD=64M)",
                                "(KEPS_MAX_LINE in the environment, e.g. KEPS_MAX_LINE=256M)"};
    if (env_size(cmd, "KEPS_MAX_FIELD", &l.max_field) || env_size(cmd, "KEPS_MAX_LINE", &l.max_line))
        return 2;
    keps_csv_set_limits(&l);
    return 0;
}
