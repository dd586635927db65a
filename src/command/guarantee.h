/* Printing a method's keps_guarantee (include/keps/guarantee.h) on stderr:
 * docs/cli.md, "Guarantee labels". A parameter of a DP guarantee that was
 * read from the data (bounds, a domain, a distribution, a class size) is
 * said even with --quiet, and so is a released column the guarantee does
 * not cover. The report's object is keps_guarantee_json. */
#ifndef KEPS_CLI_GUARANTEE_H
#define KEPS_CLI_GUARANTEE_H

#include <stddef.h>

#include "command_internal.h"
#include "keps/guarantee.h"

#pragma GCC visibility push(hidden) /* private to libkeps */

/* g's {name} markup spelled as the report spells parameters, the same for
 * every front-end ("--name"; keps_guarantee_spell); returns 0, or an exit
 * code after saying the command ran out of memory. */
int cmd_guarantee_spell(const cmd_ctx *c, keps_guarantee *g);
/* One warning per data-dependent item of a DP guarantee (not silenced by
 * --quiet). */
void cmd_dd_warn(const cmd_ctx *c, const keps_guarantee *g);
/* The warning naming g's not_covered columns (not silenced by --quiet);
 * covered says what the guarantee covers ({name} markup). Returns how
 * many. */
size_t cmd_uncovered_warn(const cmd_ctx *c, const keps_guarantee *g, const char *covered);

#pragma GCC visibility pop
#endif
