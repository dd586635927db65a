/* -k, read the same way by every command that takes the k of k-anonymity
 * (see cli.h). */
#include "command_internal.h"

int cmd_k(const cmd_ctx *c, int required, long dflt, long *k)
{
    if (required && cmd_require(c, "k"))
        return -1;
    return cmd_long(c, "k", 1, CLI_K_MAX, dflt, k);
}
