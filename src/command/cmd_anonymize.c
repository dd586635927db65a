/* keps anonymize: k-anonymity by OLA (anon_ola.c), Mondrian (anon_mondrian.c)
 * or MDAV microaggregation (anon_mdav.c). */
#include <stdio.h>
#include <string.h>

#include "command_internal.h"
#include "crit.h"

static const cmd_opt opt_algorithm = {"algorithm", 'a', "ola|mondrian|mdav", 0,
                                      "ola: optimal full-domain generalization (El Emam et al. 2009, docs/spec.md section 2); mondrian: strict "
                                      "multidimensional partitioning; mdav: microaggregation of numeric columns",
                                      "ola"};
static const cmd_opt opt_insensitive_mdav = {"insensitive-mdav", 0, NULL, 0,
                                             "MDAV: use the insensitive variant (fixed group sizes along a total "
                                             "order), as DP microaggregation does",
                                             ""};
static const cmd_opt opt_columns = {"columns", 0, "NAME", CLI_REPEAT,
                                    "MDAV: numeric column to microaggregate, repeatable (alternative to {qi})",
                                    "FICA"};

static const cmd_opt opt_emit_sql = {
    "emit-sql", 0, "FILE", 0,
    "ola: also write a SQL script that applies the chosen transformation to the source table inside a database "
    "(hierarchy tables, classes below k suppressed by GROUP BY ... HAVING; it creates TABLE_release, the same rows "
    "as {output}); - for stdout",
    "release.sql"};
static const cmd_opt opt_sql_dialect = {"sql-dialect", 0, "ansi|postgresql|sqlite", 0,
                                        "SQL of {emit-sql} (default ansi; postgresql and sqlite also shuffle the "
                                        "rows)",
                                        "postgresql"};
static const cmd_opt opt_sql_table = {"sql-table", 0, "NAME", 0,
                                      "source table the {emit-sql} script reads (default: the input file's name "
                                      "without extension, adult for adult.csv)",
                                      "census"};

static const cmd_opt *const opts[] = {&opt_algorithm, &cmd_opt_input, &cmd_opt_output, &cmd_opt_qi, &cmd_opt_k, &cmd_opt_threads,
                                      &cmd_opt_suppress, &cmd_opt_metric, &cmd_opt_gs_factor,
                                      &cmd_opt_monotonic, &cmd_opt_aggregate, &cmd_opt_weight,
                                      &cmd_opt_remove_suppressed, &opt_emit_sql, &opt_sql_dialect, &opt_sql_table, &cmd_opt_counts,
                                      &opt_insensitive_mdav, &opt_columns, &crit_opt_sensitive, CRIT_OPTS,
                                      &cmd_opt_insensitive, &cmd_opt_identifier, &cmd_opt_others,
                                      &cmd_opt_delimiter, &cmd_opt_missing, &cmd_opt_decimal_comma, &cmd_opt_digits, &cmd_opt_report, &cmd_opt_seed,
                                      &cmd_opt_keep_order, NULL};

/* Options that belong to one algorithm. Ignoring one that names a column's
 * role (--columns) or another method (--insensitive-mdav) silently would
 * release something else than asked (a --columns column, with --others keep,
 * untouched), so those are refused; the rest cannot change the release and
 * get a note. */
static const cmd_mode_opt foreign[] = {
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
    {"counts", "ola", "Mondrian and MDAV split and average records, which a frequency table does not list", 1},
#define CRIT_FOREIGN(o) {o, "ola|mondrian", "mdav takes no privacy criterion besides {k}", 1}
#define LATTICE_ONLY(o) {o, "ola", "Mondrian checks a class by itself; this criterion needs the lattice search", 1}
    CRIT_FOREIGN("l-diversity"), CRIT_FOREIGN("entropy-l"), CRIT_FOREIGN("entropy-estimator"),
    CRIT_FOREIGN("recursive-l"), CRIT_FOREIGN("t-closeness"), CRIT_FOREIGN("sensitive-type"),
    CRIT_FOREIGN("beta-likeness"), CRIT_FOREIGN("beta-likeness-variant"), CRIT_FOREIGN("delta-disclosure"),
    CRIT_FOREIGN("multiplicative-t"), CRIT_FOREIGN("kt-closeness"), LATTICE_ONLY("delta-presence"),
    CRIT_FOREIGN("k-map"), CRIT_FOREIGN("population-size"), CRIT_FOREIGN("k-map-estimator"),
    CRIT_FOREIGN("significance"), LATTICE_ONLY("subset"), LATTICE_ONLY("average-risk"), LATTICE_ONLY("sample-uniqueness"),
#undef CRIT_FOREIGN
#undef LATTICE_ONLY
};

static keps_status run(cmd_ctx *c)
{
    const char *a = cmd_str(c, "algorithm");
    if (!a)
        return cmd_usage_error(c, "{algorithm} is required: ola, mondrian or mdav");
    if (strcmp(a, "ola") != 0 && strcmp(a, "mondrian") != 0 && strcmp(a, "mdav") != 0)
        return cmd_usage_error(c, "{algorithm} '%s': expected ola, mondrian or mdav", a);
    keps_status rc = cmd_mode_options(c, "{algorithm} ", a, foreign, sizeof foreign / sizeof *foreign);
    if (rc)
        return rc;
    if (strcmp(a, "ola") == 0)
        return cmd_anonymize_ola(c);
    if (strcmp(a, "mondrian") == 0)
        return cmd_anonymize_mondrian(c);
    return cmd_anonymize_mdav(c);
}

const cmd_cmd cmd_anonymize = {
    "anonymize",
    "k-anonymity: OLA lattice search, Mondrian partitioning or MDAV microaggregation",
    "anonymize {algorithm} ola|mondrian|mdav {input} FILE {output} FILE {qi} NAME[:HIERARCHY] {k} K [options]",
    "Makes every released record indistinguishable from at least K-1 others on the quasi-identifiers. "
    "ola searches the full-domain generalization lattice for the k-anonymous transformation with the least "
    "information loss (with up to {suppress} of the records suppressed); its time and memory grow with the "
    "lattice, the product of (hierarchy height + 1) over the QIs (on 2 cores: 9 Adult QIs, 12,960 nodes, well "
    "under a second; 500 rows with 16 three-level QIs, 43M nodes, ~6 s and 0.13 GB, with 18, 387M nodes, ~1 min "
    "and 0.8 GB); "
    "mondrian partitions the records "
    "multidimensionally; mdav replaces numeric values by group centroids. The report states the guarantee "
    "(k-anonymity with the k used), the transformation, suppressed rows and every metric.",
    "anonymize {algorithm} ola {input} data/adult/adult.csv {output} out.csv {qi} age:data/adult/adult_hierarchy_age.csv "
    "{qi} sex:data/adult/adult_hierarchy_sex.csv {k} 5 {suppress} 0.05 {others} keep {report} report.json",
    opts,
    run,
    0,
    NULL,
};
