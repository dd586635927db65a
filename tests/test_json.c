/* The report writer's numbers: whole numbers written whole, others as the
 * shortest text that reads back to the same double, non-finite as null. */
#include <math.h>
#include <string.h>

#include "keps/json.h"
#include "testutil.h"

/* The text keps_json_num writes for v, as the only member of an array. */
static void expect_num(double v, const char *want)
{
    keps_json j;
    keps_json_init(&j);
    keps_json_array(&j, NULL);
    keps_json_num(&j, NULL, v);
    keps_json_end(&j);
    char buf[64];
    snprintf(buf, sizeof buf, "[%s]", want);
    assert_string_equal(keps_json_text(&j), buf);
    keps_json_free(&j);
}

static void numbers(void **state)
{
    (void)state;
    expect_num(20, "20");                 /* %.1g alone would give 2e+01 */
    expect_num(3996000, "3996000");
    expect_num(-7, "-7");
    expect_num(0, "0");
    expect_num(0.1, "0.1");               /* shortest round trip, not 0.10000000000000001 */
    expect_num(1.0 / 3, "0.3333333333333333");
    expect_num(2.5e-12, "2.5e-12");
    expect_num(9007199254740991.0, "9007199254740991"); /* 2^53 - 1: still whole */
    expect_num(9007199254740992.0, "9007199254740992"); /* 2^53: shortest %g reads back */
    expect_num(1e300, "1e+300");
    expect_num(NAN, "null");
    expect_num(INFINITY, "null");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(numbers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
