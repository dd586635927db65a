/* keps dpmicro: not implemented yet. */
#include <stdio.h>

#include "cli.h"

static const cli_opt *const opts[] = {NULL};

static int run(cli_ctx *c)
{
    fprintf(stderr, "keps %s: not implemented yet\n", c->cmd->name);
    return 2;
}

const cli_cmd cmd_dpmicro = {
    "dpmicro",
    "differentially private microaggregation (insensitive MDAV + Laplace)",
    "dpmicro --mode multivariate|univariate -i FILE -o FILE -k K --epsilon E --bounds NAME=LO:HI ... [options]",
    "Not implemented yet.",
    "keps dpmicro --help",
    opts,
    run,
};
