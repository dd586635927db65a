#include "keps/progress.h"

static keps_progress_fn hook;
static void *hook_data;

void keps_progress_hook(keps_progress_fn fn, void *userdata)
{
    hook = fn;
    hook_data = userdata;
}

void keps_progress(const char *what, double done, double total)
{
    if (hook)
        hook(what, done, total, hook_data);
}
