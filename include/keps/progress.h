/* keps: progress of long computations. The library calls keps_progress()
 * from its long loops (on the calling thread only); an application installs
 * a hook to show it (the CLI draws a percentage on stderr when it is a
 * terminal and the work has run for more than a second). Without a hook the
 * calls cost one load and a branch. */
#ifndef KEPS_PROGRESS_H
#define KEPS_PROGRESS_H

#ifdef __cplusplus
extern "C" {
#endif

typedef void (*keps_progress_fn)(const char *what, double done, double total, void *userdata);

/* Installs fn (NULL removes it). Not thread-safe: call before starting work. */
void keps_progress_hook(keps_progress_fn fn, void *userdata);
/* Reports that done of total units of `what` are finished. */
void keps_progress(const char *what, double done, double total);

#ifdef __cplusplus
}
#endif
#endif
