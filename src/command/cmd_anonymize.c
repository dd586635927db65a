/* keps anonymize: k-anonymity by OLA (anon_ola.c), Mondrian (anon_mondrian.c)
 * or MDAV microaggregation (anon_mdav.c). */
#include <stdio.h>
#include <string.h>

#include "command_internal.h"

static const cli_opt opt_algorithm = {"algorithm", 'a', "ola|mondrian|mdav", 0,
                                      "ola: optimal full-domain generalization (El Emam et al. 2009, docs/spec.md section 2); mondrian: strict "
                                      "multidimensional partitioning; mdav: microaggregation of numeric columns",
                                      "ola"};
static const cli_opt opt_insensitive_mdav = {"insensitive-mdav", 0, NULL, 0,
                                             "MDAV: use the insensitive variant (fixed group sizes along a total "
                                             "order), as DP microaggregation does",
                                             ""};
static const cli_opt opt_columns = {"columns", 0, "NAME", CLI_REPEAT,
                                    "MDAV: numeric column to microaggregate, repeatable (alternative to {qi})",
                                    "FICA"};

static const cli_opt opt_emit_sql = {
    "emit-sql", 0, "FILE", 0,
    "ola: also write a SQL script that applies the chosen transformation to the source table inside a database "
    "(hierarchy tables, classes below k suppressed by GROUP BY ... HAVING; it creates TABLE_release, the same rows "
    "as -o); - for stdout",
    "release.sql"};
static const cli_opt opt_sql_dialect = {"sql-dialect", 0, "ansi|postgresql|sqlite", 0,
                                        "SQL of {emit-sql} (default ansi; postgresql and sqlite also shuffle the "
                                        "rows)",
                                        "postgresql"};
static const cli_opt opt_sql_table = {"sql-table", 0, "NAME", 0,
                                      "source table the {emit-sql} script reads (default: the input file's name "
                                      "without extension, adult for adult.csv)",
                                      "census"};

static const cli_opt *const opts[] = {&opt_algorithm, &cli_opt_input, &cli_opt_output, &cli_opt_qi, &cli_opt_k, &cli_opt_threads,
                                      &cli_opt_suppress, &cli_opt_metric, &cli_opt_gs_factor,
                                      &cli_opt_monotonic, &cli_opt_aggregate, &cli_opt_weight,
                                      &cli_opt_remove_suppressed, &opt_emit_sql, &opt_sql_dialect, &opt_sql_table,
                                      &opt_insensitive_mdav, &opt_columns, &cli_opt_sensitive,
                                      &cli_opt_insensitive, &cli_opt_identifier, &cli_opt_others,
                                      &cli_opt_delimiter, &cli_opt_missing, &cli_opt_decimal_comma, &cli_opt_digits, &cli_opt_report, &cli_opt_seed,
                                      &cli_opt_keep_order, NULL};

/* Options that belong to one algorithm. Ignoring one that names a column's
 * role (--columns) or another method (--insensitive-mdav) silently would
 * release something else than asked (a --columns column, with --others keep,
 * untouched), so those are refused; the rest cannot change the release and
 * get a note. */
static const cli_mode_opt foreign[] = {
    {"columns", "mdav", "give the column as {qi} NAME (numeric, mondrian) or {qi} NAME:HIERARCHY.csv", 1},
    {"insensitive-mdav", "mdav", "it selects MDAV's insensitive variant", 1},
    {"suppress", "ola", "mondrian and mdav suppress nothing (every class already has at least k rows)", 0},
    {"remove-suppressed", "ola", "mondrian and mdav suppress nothing", 0},
    {"metric", "ola", "mondrian reports NCP, mdav SSE; neither picks a node by a metric", 0},
    {"digits", "mdav", "ola and mondrian compute no numbers (Mondrian's ranges are the input's own values)", 0},
    {"gs-factor", "ola", "it weighs OLA's metric; mondrian and mdav pick no node by a metric", 0},
    {"monotonic", "ola", "it selects a variant of OLA's metric; mondrian and mdav pick no node by a metric", 0},
    {"aggregate", "ola", "it combines OLA's metric over the QIs; mondrian and mdav pick no node by a metric", 0},
    {"weight", "ola", "it weighs the QIs in OLA's metric; mondrian and mdav pick no node by a metric", 0},
    {"emit-sql", "ola", "only OLA's full-domain generalization is written as SQL", 1},
    {"sql-dialect", "ola", "it is for {emit-sql}", 0},
    {"sql-table", "ola", "it is for {emit-sql}", 0},
};

static int run(cli_ctx *c)
{
    const char *a = cli_str(c, "algorithm");
    if (!a)
        return cli_usage_error(c, "{algorithm} is required: ola, mondrian or mdav");
    if (strcmp(a, "ola") != 0 && strcmp(a, "mondrian") != 0 && strcmp(a, "mdav") != 0)
        return cli_usage_error(c, "{algorithm} '%s': expected ola, mondrian or mdav", a);
    int rc = cli_mode_options(c, "{algorithm} ", a, foreign, sizeof foreign / sizeof *foreign);
    if (rc)
        return rc;
    if (strcmp(a, "ola") == 0)
        return cli_anonymize_ola(c);
    if (strcmp(a, "mondrian") == 0)
        return cli_anonymize_mondrian(c);
    return cli_anonymize_mdav(c);
}

const cli_cmd cmd_anonymize = {
    "anonymize",
    "k-anonymity: OLA lattice search, Mondrian partitioning or MDAV microaggregation",
    "anonymize {algorithm} ola|mondrian|mdav -i FILE -o FILE {qi} NAME[:HIERARCHY] {k} K [options]",
    "Makes every released record indistinguishable from at least K-1 others on the quasi-identifiers. "
    "ola searches the full-domain generalization lattice for the k-anonymous transformation with the least "
    "information loss (with up to {suppress} of the records suppressed); its time and memory grow with the "
    "lattice, the product of (hierarchy height + 1) over the QIs (on 2 cores: 9 Adult QIs, 12,960 nodes, well "
    "under a second; 500 rows with 16 three-level QIs, 43M nodes, ~6 s and 0.13 GB, with 18, 387M nodes, ~1 min "
    "and 0.8 GB); "
    "mondrian partitions the records "
    "multidimensionally; mdav replaces numeric values by group centroids. The report states the guarantee "
    "(k-anonymity with the k used), the transformation, suppressed rows and every metric.",
    "keps anonymize {algorithm} ola -i data/adult/adult.csv -o out.csv {qi} age:data/adult/adult_hierarchy_age.csv "
    "{qi} sex:data/adult/adult_hierarchy_sex.csv {k} 5 {suppress} 0.05 {others} keep {report} report.json",
    opts,
    run,
    0,
    NULL,
};
