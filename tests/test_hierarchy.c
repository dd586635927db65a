/* Hierarchies: the bundled ARX files load with the level counts the data
 * README lists; unbalanced trees (paths of different lengths) load; interval hierarchies nest and print as [lo-hi[; binding maps
 * table codes to level codes. */
#include <string.h>

#include "keps/csv.h"
#include "keps/hierarchy.h"
#include "job.h"
#include "testutil.h"

static keps_hierarchy *load(const char *attr)
{
    char rel[128];
    snprintf(rel, sizeof rel, "data/adult/adult_hierarchy_%s.csv", attr);
    keps_hierarchy *h;
    keps_error err = {0};
    keps_status s = keps_hierarchy_load(src_path(rel), 0, &h, &err);
    if (s)
        fprintf(stderr, "%s\n", err.msg);
    assert_int_equal(s, KEPS_OK);
    return h;
}

static void adult_hierarchies_match_readme(void **state)
{
    (void)state;
    /* ARX's Adult hierarchies (data/adult): levels incl. level 0 / hierarchy rows */
    static const struct {
        const char *attr;
        int levels;
        size_t rows;
    } want[] = {{"sex", 2, 2},           {"age", 5, 100},          {"race", 2, 5},
                {"marital-status", 3, 7}, {"education", 4, 16},    {"native-country", 3, 41},
                {"workclass", 3, 8},      {"occupation", 3, 14},   {"salary-class", 2, 2}};
    size_t lattice = 1;
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        keps_hierarchy *h = load(want[i].attr);
        assert_int_equal(keps_hierarchy_height(h) + 1, want[i].levels);
        assert_int_equal(keps_hierarchy_leaves(h), want[i].rows);
        assert_int_equal(keps_hierarchy_size(h, keps_hierarchy_height(h)), 1); /* all tops are '*' */
        assert_string_equal(keps_hierarchy_label(h, keps_hierarchy_height(h), 0), "*");
        lattice *= (size_t)want[i].levels;
        keps_hierarchy_free(h);
    }
    assert_int_equal(lattice, 12960);
}

static void bind_maps_codes_through_levels(void **state)
{
    (void)state;
    keps_table *t = table_from_csv("age;sex\n3;Male\n7;Female\n3;Female\n");
    keps_hierarchy *h = load("age");
    uint32_t **map;
    keps_error err = {0};
    assert_int_equal(keps_hierarchy_bind(h, t, 0, &map, &err), KEPS_OK);
    /* adult_hierarchy_age.csv rows: 3;0-4;0-9;0-19;*  and 7;5-9;0-9;0-19;* */
    assert_string_equal(keps_hierarchy_label(h, 1, map[1][t->cols[0].codes[0]]), "0-4");
    assert_string_equal(keps_hierarchy_label(h, 1, map[1][t->cols[0].codes[1]]), "5-9");
    assert_int_equal(map[2][t->cols[0].codes[0]], map[2][t->cols[0].codes[1]]);
    assert_string_equal(keps_hierarchy_label(h, 2, map[2][t->cols[0].codes[1]]), "0-9");
    /* the file puts 6,7,8,9,10 under "5-9" (ARX shifts each band by one): 5 leaves */
    uint32_t *cnt = keps_hierarchy_leaf_counts(h, 1);
    assert_int_equal(cnt[map[1][t->cols[0].codes[1]]], 5);
    free(cnt);
    keps_hierarchy_map_free(map, h);
    keps_hierarchy_free(h);
    keps_table_free(t);
}

static void interval_hierarchy(void **state)
{
    (void)state;
    /* the last value is an explicit empty field: a blank last line would be no record */
    keps_table *t = table_from_csv("age\n20\n24\n25\n39\n-3\n\"\"\n");
    double w[3];
    keps_error err = {0};
    assert_int_equal(keps_hierarchy_parse_widths("5,10,20", w, 3, &err), 3);
    keps_hierarchy *h;
    assert_int_equal(keps_hierarchy_interval(t, 0, w, 3, &h, &err), KEPS_OK);
    assert_int_equal(keps_hierarchy_height(h), 4); /* 5, 10, 20, * */
    uint32_t **map;
    assert_int_equal(keps_hierarchy_bind(h, t, 0, &map, &err), KEPS_OK);
    const char *want[][5] = {{"20", "[20-25[", "[20-30[", "[20-40[", "*"},
                             {"24", "[20-25[", "[20-30[", "[20-40[", "*"},
                             {"25", "[25-30[", "[20-30[", "[20-40[", "*"},
                             {"39", "[35-40[", "[30-40[", "[20-40[", "*"},
                             {"-3", "[-5-0[", "[-10-0[", "[-20-0[", "*"},
                             {"", "", "", "", "*"}}; /* missing stays missing up to the top */
    for (size_t r = 0; r < 6; r++)
        for (int l = 0; l <= 4; l++)
            assert_string_equal(keps_hierarchy_label(h, l, map[l][t->cols[0].codes[r]]), want[r][l]);
    assert_int_equal(t->cols[0].missing_count, 1);
    keps_hierarchy_map_free(map, h);
    keps_hierarchy_free(h);
    /* widths must nest */
    assert_int_equal(keps_hierarchy_parse_widths("5,7", w, 3, &err), -1);
    assert_non_null(strstr(err.msg, "not a multiple"));
    assert_int_equal(keps_hierarchy_parse_widths("5,x", w, 3, &err), -1);
    keps_table_free(t);
}

/* Rows of different lengths: leaf-to-root paths of an unbalanced tree (the
 * layout of e.g. Basic Mondrian's files). By hand: the longest path has 4
 * fields, so levels 0..3; Federal-gov;public;* becomes
 * Federal-gov;Federal-gov;public;*, Self-emp-inc;Self-emp-inc;self;*,
 * Private;* becomes Private x3;*. */
static void unbalanced_tree(void **state)
{
    (void)state;
    const char *d = "Private;*\r\nSelf-emp-inc;self;*\r\nSelf-emp-not-inc;self;*\r\nState-gov;gov;public;*\r\n"
                    "Federal-gov;public;*";  /* CRLF and no final line end */
    keps_hierarchy *h;
    keps_error err = {0};
    assert_int_equal(keps_hierarchy_load_buffer(d, strlen(d), "w.hier", 0, &h, &err), KEPS_OK);
    assert_int_equal(keps_hierarchy_height(h), 3);
    assert_int_equal(keps_hierarchy_leaves(h), 5);
    /* level 1: Private, Self-emp-inc, Self-emp-not-inc, gov, Federal-gov;
     * level 2: Private, self, public; level 3: * */
    assert_int_equal(keps_hierarchy_size(h, 1), 5);
    assert_int_equal(keps_hierarchy_size(h, 2), 3);
    assert_int_equal(keps_hierarchy_size(h, 3), 1);
    keps_table *t = table_from_csv("w\nFederal-gov\nState-gov\nPrivate\nSelf-emp-inc\n");
    uint32_t **map;
    assert_int_equal(keps_hierarchy_bind(h, t, 0, &map, &err), KEPS_OK);
    const char *want[][4] = {{"Federal-gov", "Federal-gov", "public", "*"},
                             {"State-gov", "gov", "public", "*"},
                             {"Private", "Private", "Private", "*"},
                             {"Self-emp-inc", "Self-emp-inc", "self", "*"}};
    for (size_t r = 0; r < 4; r++)
        for (int l = 0; l <= 3; l++)
            assert_string_equal(keps_hierarchy_label(h, l, map[l][t->cols[0].codes[r]]), want[r][l]);
    uint32_t *cnt = keps_hierarchy_leaf_counts(h, 2);
    assert_int_equal(cnt[map[2][t->cols[0].codes[0]]], 2); /* public: State-gov, Federal-gov */
    assert_int_equal(cnt[map[2][t->cols[0].codes[2]]], 1); /* Private */
    free(cnt);
    keps_hierarchy_map_free(map, h);
    keps_hierarchy_free(h);
    keps_table_free(t);
    /* paths that do not share the root are a malformed file, not a tree */
    d = "a;x;*\nb;*\nc;x;top\n";
    assert_int_equal(keps_hierarchy_load_buffer(d, strlen(d), "w.hier", 0, &h, &err), KEPS_EINPUT);
    assert_null(h);
    assert_non_null(strstr(err.msg, "w.hier:2:3: row has 2 fields but the first row has 3"));
    assert_non_null(strstr(err.msg, "'*' but 'top' on line 3"));
}

/* A header row above the paths (hierarchies have none) is refused at its
 * line 1, column 1; forests that merely have a lone tree first are not. */
static void header_row_refused(void **state)
{
    (void)state;
    const char *bad[] = {
        "age;l1;l2\n1;0-4;*\n2;0-4;*\n5;5-9;*\n",          /* same width, '*' root */
        "value;level\r\n1;0-4;*\r\n2;0-4;*\r\n",            /* narrower header, CRLF */
        "AGE;L1;L2;L3\n1;10;20;30\n2;10;20;30\n3;11;20;30\n", /* numeric leaves, root 30 */
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        keps_hierarchy *h = (keps_hierarchy *)1;
        keps_error err = {0};
        assert_int_equal(keps_hierarchy_load_buffer(bad[i], strlen(bad[i]), "h.csv", 0, &h, &err), KEPS_EINPUT);
        assert_null(h);
        if (!strstr(err.msg, "h.csv:1:1: the first row looks like a header"))
            fprintf(stderr, "got: %s\n", err.msg);
        assert_non_null(strstr(err.msg, "h.csv:1:1: the first row looks like a header"));
        assert_non_null(strstr(err.msg, "hierarchy files have no header row"));
    }
    /* not headers: a forest of two roots with a lone first tree (labels,
     * not '*'), a lone tree listed later, and a two-row file */
    const char *good[] = {"v0;g0\nv1;g1\nv2;g1\n", "1;0-4;*\n2;0-4;*\nx;y;z\n", "h;l\n1;*\n"};
    const uint32_t tops[] = {2, 2, 2};
    for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
        keps_hierarchy *h;
        keps_error err = {0};
        keps_status st = keps_hierarchy_load_buffer(good[i], strlen(good[i]), "h.csv", 0, &h, &err);
        if (st)
            fprintf(stderr, "%s\n", err.msg);
        assert_int_equal(st, KEPS_OK);
        assert_int_equal(keps_hierarchy_size(h, keps_hierarchy_height(h)), tops[i]);
        keps_hierarchy_free(h);
    }
}

/* Blank lines in a hierarchy: an error at the line (a row with an empty
 * value), except a blank last line. */
static void blank_lines(void **state)
{
    (void)state;
    const char *d = "a;*\n\nb;*\n";
    keps_hierarchy *h;
    keps_error err = {0};
    assert_int_equal(keps_hierarchy_load_buffer(d, strlen(d), "h.csv", 0, &h, &err), KEPS_EINPUT);
    assert_non_null(strstr(err.msg, "h.csv:2:1: blank line"));
    d = "a;*\r\nb;*\r\n\r\n";
    assert_int_equal(keps_hierarchy_load_buffer(d, strlen(d), "h.csv", 0, &h, &err), KEPS_OK);
    assert_int_equal(keps_hierarchy_leaves(h), 2);
    keps_hierarchy_free(h);
}

static void job_file_values(void **state)
{
    (void)state;
    const char *y = "# a job\ncommand: anonymize\n--k: 5\nqi: [\"age:interval=5,10\", sex]\nkeep-order: true\n"
                    "sensitive:\n  - salary-class\n";
    keps_job *job;
    keps_error err = {0};
    assert_int_equal(keps_job_load_buffer(y, strlen(y), "j.yml", &job, &err), KEPS_OK);
    assert_int_equal(job->n, 5);
    assert_string_equal(job->entries[1].key, "k"); /* leading dashes are dropped */
    assert_string_equal(job->entries[1].values[0], "5");
    assert_int_equal(job->entries[2].nvalues, 2);
    assert_string_equal(job->entries[2].values[0], "age:interval=5,10");
    assert_int_equal(job->entries[2].line, 4);
    assert_string_equal(job->entries[4].values[0], "salary-class");
    keps_job_free(job);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(adult_hierarchies_match_readme),
        cmocka_unit_test(bind_maps_codes_through_levels),
        cmocka_unit_test(interval_hierarchy),
        cmocka_unit_test(unbalanced_tree),
        cmocka_unit_test(job_file_values),
        cmocka_unit_test(header_row_refused),
        cmocka_unit_test(blank_lines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
