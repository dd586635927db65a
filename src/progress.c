#include "keps/progress.h"

#include <stddef.h>

static keps_progress_fn hook;
static void *hook_data;
/* The calling thread's hook (keps_run's host) and whether it cancelled. */
static _Thread_local keps_progress_cb thread_hook;
static _Thread_local void *thread_data;
static _Thread_local int thread_cancelled;

void keps_progress_hook(keps_progress_fn fn, void *userdata)
{
    hook = fn;
    hook_data = userdata;
}

keps_progress_cb keps_progress_push(keps_progress_cb fn, void *ud, void **prev_ud)
{
    keps_progress_cb prev = thread_hook;
    *prev_ud = thread_data;
    thread_hook = fn;
    thread_data = ud;
    thread_cancelled = 0;
    return prev;
}

int keps_progress_pop(keps_progress_cb prev, void *prev_ud)
{
    int c = thread_cancelled;
    thread_hook = prev;
    thread_data = prev_ud;
    thread_cancelled = 0;
    return c;
}

int keps_progress(const char *what, double done, double total)
{
    if (thread_hook) {
        if (!thread_cancelled && thread_hook(thread_data, what, done, total))
            thread_cancelled = 1;
        return thread_cancelled;
    }
    if (hook)
        hook(what, done, total, hook_data);
    return 0;
}

int keps_progress_cancelled(void)
{
    return thread_cancelled;
}
