/* keps: progress of long computations. The library calls keps_progress()
 * from its long loops (on the calling thread only). A caller hears of it
 * through the hook of the command it runs (keps_host.progress,
 * keps/command.h: a context pointer, and it can cancel), installed for the
 * calling thread while keps_run runs, so two threads running commands
 * each hear their own; or through the process-wide keps_progress_hook.
 * Without a hook the calls cost a load and a branch. */
#ifndef KEPS_PROGRESS_H
#define KEPS_PROGRESS_H

#ifdef __cplusplus
extern "C" {
#endif

/* done of total units of `what` are finished; return nonzero to cancel. */
typedef int (*keps_progress_cb)(void *ud, const char *what, double done, double total);

typedef void (*keps_progress_fn)(const char *what, double done, double total, void *userdata);

/* Installs a process-wide fn (NULL removes it), heard when the calling
 * thread has no hook of its own. Not thread-safe: call before starting work. */
void keps_progress_hook(keps_progress_fn fn, void *userdata);
/* Installs fn (with ud) for the calling thread; returns the previous one
 * (*prev_ud its ud) to give back to keps_progress_pop. */
keps_progress_cb keps_progress_push(keps_progress_cb fn, void *ud, void **prev_ud);
/* Restores the previous hook; returns 1 if the work was cancelled since the push. */
int keps_progress_pop(keps_progress_cb prev, void *prev_ud);
/* Reports that done of total units of `what` are finished. Returns 1 when
 * the hook asked to cancel (then and on every later call until the pop):
 * a loop may stop early; the command then reports KEPS_ECANCEL. */
int keps_progress(const char *what, double done, double total);
/* 1 when the calling thread's work was cancelled (keps_progress). */
int keps_progress_cancelled(void);

#ifdef __cplusplus
}
#endif
#endif
