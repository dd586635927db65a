/* One command through the library's command layer (keps_run), as a
 * binding calls it: OLA on Adult with its nine hierarchies, k = 5, 5%
 * suppression, the full report (not lean), the release asked for.
 * Usage: bench_command [RUNS [K [SUPPRESS]]]. One JSON object per run:
 * wall and CPU time of keps_run, and the report's own timing_ms.total;
 * the R package's benchmark (bench/r_overhead.R) compares its call with
 * these. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_clock.h"
#include "keps/command.h"

static const char *const qis[] = {"sex", "age", "race", "marital-status", "education", "native-country",
                                  "workclass", "occupation", "salary-class"};

int main(int argc, char **argv)
{
    int runs = argc > 1 ? atoi(argv[1]) : 5;
    const char *k = argc > 2 ? argv[2] : "5", *s = argc > 3 ? argv[3] : "0.05";
    char path[4096];
    keps_args *a = keps_args_new();
    if (!a)
        return 3;
    snprintf(path, sizeof path, "%s/data/adult/adult.csv", KEPS_SOURCE_DIR);
    keps_args_add(a, "algorithm", "ola", NULL);
    keps_args_add(a, "input", path, NULL);
    keps_args_add(a, "output", "-", NULL);
    for (size_t i = 0; i < sizeof qis / sizeof *qis; i++) {
        snprintf(path, sizeof path, "%s:%s/data/adult/adult_hierarchy_%s.csv", qis[i], KEPS_SOURCE_DIR, qis[i]);
        keps_args_add(a, "qi", path, NULL);
    }
    keps_args_add(a, "k", k, NULL);
    keps_args_add(a, "suppress", s, NULL);
    for (int r = 0; r < runs; r++) {
        keps_result res;
        keps_error err = {0};
        keps_host host = {0};
        host.quiet = 1;
        double w = now_ms(), c = cpu_ms();
        keps_status st = keps_run("anonymize", a, &host, &res, &err);
        w = now_ms() - w;
        c = cpu_ms() - c;
        if (st) {
            fprintf(stderr, "%s\n", err.msg);
            return (int)st;
        }
        const char *t = res.report ? strstr(res.report, "\"timing_ms\":{\"total\":") : NULL;
        printf("{\"bench\":\"command\",\"command\":\"anonymize\",\"k\":%s,\"suppress\":%s,\"run\":%d,"
               "\"wall_ms\":%.1f,\"cpu_ms\":%.1f,\"report_total_ms\":%.1f,\"release_rows\":%zu}\n",
               k, s, r, w, c, t ? atof(t + strlen("\"timing_ms\":{\"total\":")) : -1.0,
               res.release ? res.release->nrows : (size_t)0);
        fflush(stdout);
        keps_result_free(&res);
    }
    keps_args_free(a);
    return 0;
}
