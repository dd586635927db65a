/* keps_version(): the version string a report carries, for callers that
 * cannot see the build's KEPS_VERSION define. */
#include <stdio.h>
#include <string.h>

#include "keps/version.h"
#include "testutil.h"

/* The version is the project VERSION of CMakeLists.txt, which the build
 * hands to the sources, and what `keps --version` prints. */
static void test_version(void **state)
{
    (void)state;
    FILE *f = fopen(src_path("CMakeLists.txt"), "r");
    assert_non_null(f);
    char line[256], want[64] = "";
    while (fgets(line, sizeof line, f) && !want[0])
        if (sscanf(line, "project(keps VERSION %63[0-9.]", want) != 1)
            want[0] = '\0';
    fclose(f);
    assert_true(strlen(want) >= 5);
    assert_string_equal(keps_version(), want);
    char out[128], expect[128];
    assert_int_equal(run_keps("--version", out, sizeof out, NULL, 0), 0);
    snprintf(expect, sizeof expect, "keps %s\n", want);
    assert_string_equal(out, expect);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_version),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
