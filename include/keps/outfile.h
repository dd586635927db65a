/* keps: output files that appear whole or not at all.
 *
 * An output path is resolved first, symbolic links followed:
 *   - "-", /dev/stdout, /dev/stderr, /dev/fd/N and /proc/self/fd/N name an
 *     open descriptor of the process; the output is written through it, in
 *     place (with stdout's stdio stream for descriptor 1);
 *   - an existing file that is not a regular file (a device such as
 *     /dev/null or /dev/full, a FIFO, a socket) is written in place;
 *   - anything else is written to a temporary file in the directory of the
 *     resolved target and renamed onto it at commit, so that a failed or
 *     killed run leaves the file as it was. A symbolic link stays a link:
 *     its target is replaced. The temporary file is unnamed (O_TMPFILE,
 *     linked in only at commit) where the file system allows it, else
 *     ".NAME.keps-XXXXXXXX.tmp" beside the target; a later open of the same
 *     target removes such files that a killed run left behind (those of
 *     this naming whose writer is gone: no process holds their lock).
 *   - a replaced file's permission bits, owner and group carry over to the
 *     new one (as far as the process may set them: a group it cannot give
 *     loses the group's bits); a new file gets 0666 less the umask.
 * While a target is written, its lock file ".NAME.keps-lock" in the same
 * directory is held (flock), from the open until the commit or abort: two
 * processes writing the same outputs commit one after the other, never
 * interleaved. The lock file is removed at the end (safely: a waiting
 * process notices and locks the new one); one left by a killed process is
 * harmless and reused.
 *
 * Errors: KEPS_EINPUT when the path itself is wrong (a missing directory,
 * a directory, no permission, a descriptor that is not open), KEPS_EIO when
 * the system fails (a full disk, a read-only file system, an I/O error),
 * KEPS_ENOMEM when memory runs out. */
#ifndef KEPS_OUTFILE_H
#define KEPS_OUTFILE_H

#include <stddef.h>
#include <stdio.h>

#include "keps/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct keps_outfile keps_outfile;

/* Opens n outputs together (their locks taken in one fixed order, so that
 * runs naming the same files never wait for each other in a circle).
 * Two paths that resolve to the same file or stream are refused
 * (KEPS_EINPUT), except the null device. On failure nothing is left open. */
keps_status keps_outfile_open(const char *const *paths, size_t n, keps_outfile **out, keps_error *err);
/* The stream to write the output to. */
FILE *keps_outfile_stream(keps_outfile *o);
/* The path as given, for messages. */
const char *keps_outfile_path(const keps_outfile *o);
/* Flushes the n outputs and puts them into place together, with SIGINT,
 * SIGTERM, SIGHUP and SIGPIPE held: all or nothing for the renamed ones (a
 * file one of them replaced returns if a later rename fails). Frees them
 * and releases their locks whatever the result. NULL entries are skipped. */
keps_status keps_outfile_commit(keps_outfile **o, size_t n, keps_error *err);
/* Discards an output (its temporary file goes, the target stays as it
 * was) and releases its lock. NULL is fine. */
void keps_outfile_abort(keps_outfile *o);

/* The descriptor a path names ("-" is 1, /dev/stdout 1, /dev/fd/3 3), or
 * -1 when it names none. */
int keps_output_fd(const char *path);
/* 1 if path is written in place (a descriptor, a device, a FIFO, a
 * socket), 0 if through a temporary file (or if it cannot be resolved). */
int keps_output_in_place(const char *path);
/* 1 if the two paths resolve to the same file or stream (a file that does
 * not exist yet counts by its resolved name); 0 if not, or if either
 * cannot be resolved. The null device is never "the same". */
int keps_output_same(const char *a, const char *b);
/* Unlinks the named temporary files of outputs not yet committed. Only
 * calls unlink(): for a SIGINT/SIGTERM handler, which should then die of
 * the signal. */
void keps_outfile_cleanup(void);

#ifdef __cplusplus
}
#endif
#endif
