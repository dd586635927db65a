/* -k, read the same way by every command that takes the k of k-anonymity
 * (see cli.h). */
#include "command_internal.h"

int cli_k(const cli_ctx *c, int required, long dflt, long *k)
{
    if (required && cli_require(c, "k"))
        return -1;
    return cli_long(c, "k", 1, CLI_K_MAX, dflt, k);
}
