/* keps anonymize: not implemented yet. */
#include <stdio.h>

#include "cli.h"

static const cli_opt *const opts[] = {NULL};

static int run(cli_ctx *c)
{
    fprintf(stderr, "keps %s: not implemented yet\n", c->cmd->name);
    return 2;
}

const cli_cmd cmd_anonymize = {
    "anonymize",
    "k-anonymity: OLA lattice search, Mondrian or MDAV microaggregation",
    "anonymize --algorithm ola|mondrian|mdav -i FILE -o FILE --qi NAME[:HIERARCHY] -k K [options]",
    "Not implemented yet.",
    "keps anonymize --help",
    opts,
    run,
};
