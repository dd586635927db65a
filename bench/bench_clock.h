/* Clocks for the benchmarks: wall time and process CPU time (all threads;
 * the honest figure on a loaded machine), in milliseconds. */
#ifndef KEPS_BENCH_CLOCK_H
#define KEPS_BENCH_CLOCK_H

#include <time.h>

static inline double bench_clock_ms(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}
static inline double now_ms(void)
{
    return bench_clock_ms(CLOCK_MONOTONIC);
}
static inline double cpu_ms(void)
{
    return bench_clock_ms(CLOCK_PROCESS_CPUTIME_ID);
}

#endif
