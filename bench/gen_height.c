/* gen_height: adds a synthetic `height` column (cm) to the Adult data, as
 * Holohan et al. (2017, section VI) did for their experiments: each
 * record's height is drawn independently from a normal distribution chosen
 * by its sex and age group, fitted to the US reference data they cite:
 *
 *   [30] C. D. Fryar, Q. Gu, C. L. Ogden, "Anthropometric reference data for
 *   children and adults: United States, 2007-2010", Vital and Health
 *   Statistics, Series 11, no. 252, NCHS, October 2012.
 *   https://www.cdc.gov/nchs/data/series/sr_11/sr11_252.pdf
 *
 * Means per age group: Table 11 (females aged 20 and over, height in cm)
 * and Table 13 (males aged 20 and over, height in cm) of that report. The
 * report gives means, standard errors of the mean and percentiles, not
 * standard deviations; the SD per sex is derived from the all-ages
 * 5th/95th percentiles (Tables 10/12, inches): males 64.3 in and 74.1 in
 * -> (188.2 - 163.3) cm / (2 x 1.645) = 7.57 cm; females 59.3 in and
 * 68.4 in -> (173.7 - 150.6) cm / 3.29 = 7.02 cm. The all-ages rows (males
 * 175.9 cm, females 162.1 cm and those percentiles) were cross-checked
 * against a secondary copy of the tables; the per-age-group means below are
 * our transcription of Tables 11/13 and could not be re-checked against the
 * PDF on the offline build machine (see docs/experiments.md). Adult has ages
 * 17..90: ages 17-19 use the 20-29 row (growth is essentially complete).
 *
 * Randomness: keps_rng seeded with --seed (default 20170001) so the bundled
 * data/adult/adult_height.csv is reproducible; Box-Muller on
 * keps_rng_uniform_open. Heights are written with one decimal (cm).
 *
 * Usage: gen_height [-s SEED] INPUT.csv OUTPUT.csv
 * Input: `;`-separated Adult with a header holding `sex` and `age`; the
 * output is the same file with `;height` appended to every line, keeping the
 * input's line endings. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keps/rng.h"

typedef struct {
    int min_age;          /* group covers ages >= min_age (up to the next row) */
    double mean_m, mean_f; /* cm, Fryar et al. 2012 Tables 13 (m) and 11 (f) */
} age_row;

static const age_row rows[] = {
    {0, 176.4, 162.8},  /* 20-29 (also used for ages 17-19) */
    {30, 176.6, 163.1}, /* 30-39 */
    {40, 176.4, 163.0}, /* 40-49 */
    {50, 176.0, 162.2}, /* 50-59 */
    {60, 175.1, 161.1}, /* 60-69 */
    {70, 173.2, 158.9}, /* 70-79 */
    {80, 170.4, 155.9}, /* 80 and over */
};
#define SD_MALE 7.57   /* from the 5th/95th percentiles, see above */
#define SD_FEMALE 7.02

static double normal(keps_rng *rng)
{
    double u1 = keps_rng_uniform_open(rng), u2 = keps_rng_uniform_open(rng);
    return sqrt(-2.0 * log(u1)) * cos(2.0 * 3.14159265358979323846 * u2);
}

static int field_index(const char *header, const char *name)
{
    int idx = 0;
    size_t n = strlen(name);
    for (const char *p = header;; idx++) {
        const char *e = p + strcspn(p, ";\r\n");
        if ((size_t)(e - p) == n && strncmp(p, name, n) == 0)
            return idx;
        if (*e != ';')
            return -1;
        p = e + 1;
    }
}

/* Copies field idx of line into buf (NUL-terminated). */
static void get_field(const char *line, int idx, char *buf, size_t cap)
{
    const char *p = line;
    for (int i = 0; i < idx && p; i++) {
        p = strchr(p, ';');
        if (p)
            p++;
    }
    size_t n = p ? strcspn(p, ";\r\n") : 0;
    if (n >= cap)
        n = cap - 1;
    memcpy(buf, p ? p : "", n);
    buf[n] = '\0';
}

int main(int argc, char **argv)
{
    unsigned long long seed = 20170001ULL;
    int a = 1;
    if (a + 1 < argc && strcmp(argv[a], "-s") == 0) {
        seed = strtoull(argv[a + 1], NULL, 10);
        a += 2;
    }
    if (argc - a != 2) {
        fprintf(stderr, "usage: gen_height [-s SEED] INPUT.csv OUTPUT.csv\n");
        return 2;
    }
    FILE *in = fopen(argv[a], "rb");
    if (!in) {
        fprintf(stderr, "gen_height: cannot open %s\n", argv[a]);
        return 2;
    }
    FILE *out = fopen(argv[a + 1], "wb");
    if (!out) {
        fprintf(stderr, "gen_height: cannot create %s\n", argv[a + 1]);
        fclose(in);
        return 2;
    }
    keps_rng *rng = keps_rng_new_seeded(seed);
    char line[4096];
    int sex_i = -1, age_i = -1, rc = 0;
    unsigned long lineno = 0;
    while (rng && fgets(line, sizeof line, in)) {
        lineno++;
        size_t len = strcspn(line, "\r\n");
        const char *eol = line + len; /* keeps CRLF or LF as in the input */
        char value[64];
        if (lineno == 1) {
            sex_i = field_index(line, "sex");
            age_i = field_index(line, "age");
            if (sex_i < 0 || age_i < 0) {
                fprintf(stderr, "gen_height: %s:1: header needs columns 'sex' and 'age'\n", argv[a]);
                rc = 2;
                break;
            }
            snprintf(value, sizeof value, "height");
        } else if (len == 0) {
            continue;
        } else {
            char sex[32], age_s[32];
            get_field(line, sex_i, sex, sizeof sex);
            get_field(line, age_i, age_s, sizeof age_s);
            char *end;
            long age = strtol(age_s, &end, 10);
            int male = strcmp(sex, "Male") == 0;
            if (*end || end == age_s || (!male && strcmp(sex, "Female") != 0)) {
                fprintf(stderr, "gen_height: %s:%lu: expected sex Male/Female and a numeric age\n", argv[a],
                        lineno);
                rc = 2;
                break;
            }
            size_t r = 0;
            while (r + 1 < sizeof rows / sizeof *rows && age >= rows[r + 1].min_age)
                r++;
            double mean = male ? rows[r].mean_m : rows[r].mean_f;
            double sd = male ? SD_MALE : SD_FEMALE;
            snprintf(value, sizeof value, "%.1f", mean + sd * normal(rng));
        }
        fprintf(out, "%.*s;%s%s", (int)len, line, value, eol);
    }
    if (!rng) {
        fprintf(stderr, "gen_height: cannot initialize keps_rng\n");
        rc = 2;
    }
    keps_rng_free(rng);
    fclose(in);
    if (fclose(out) != 0)
        rc = 2;
    if (rc)
        remove(argv[a + 1]);
    return rc;
}
