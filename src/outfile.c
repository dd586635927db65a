/* Output files that appear whole or not at all (keps/outfile.h). */
#define _GNU_SOURCE /* O_TMPFILE, flock, getrandom */
#include "keps/outfile.h"
#include "internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

KEPS_INTERNAL int keps_outfile_named_only = 0; /* tests: no O_TMPFILE */

/* ---- where an output goes ---- */

enum { K_FD, K_SPECIAL, K_FILE };

typedef struct where {
    int kind;
    int fd;           /* K_FD: the descriptor */
    char *dir, *base; /* K_SPECIAL, K_FILE: resolved directory, name in it */
    char *target;     /* dir/base */
    struct stat st;   /* of the descriptor or the existing target */
    int exists;
} where;

static void where_free(where *w)
{
    free(w->dir);
    free(w->base);
    free(w->target);
    memset(w, 0, sizeof *w);
}

/* d is the fd directory of this process (/proc/self/fd and
 * /proc/thread-self/fd resolve to /proc/PID/fd, /proc/PID/task/TID/fd). */
static int own_fd_dir(const char *d)
{
    char pre[48];
    int n = snprintf(pre, sizeof pre, "/proc/%ld/", (long)getpid());
    if (strncmp(d, pre, (size_t)n) != 0)
        return 0;
    d += n;
    if (strcmp(d, "fd") == 0)
        return 1;
    if (strncmp(d, "task/", 5) != 0)
        return 0;
    d += 5;
    size_t digits = strspn(d, "0123456789");
    return digits > 0 && strcmp(d + digits, "/fd") == 0;
}

static int all_digits(const char *s)
{
    return *s && strspn(s, "0123456789") == strlen(s) && strlen(s) < 10;
}

/* Splits p into its directory (resolved) and last component. */
static int split_resolve(const char *p, char **dir, char **base)
{
    const char *slash = strrchr(p, '/');
    const char *b = slash ? slash + 1 : p;
    size_t dl = slash ? (slash == p ? 1 : (size_t)(slash - p)) : 1;
    char *d = malloc(dl + 1);
    if (!d)
        return ENOMEM;
    memcpy(d, slash ? p : ".", dl);
    d[dl] = '\0';
    *dir = realpath(d, NULL);
    int e = errno;
    free(d);
    if (!*dir)
        return e;
    if (!*b || strcmp(b, ".") == 0 || strcmp(b, "..") == 0) {
        free(*dir);
        *dir = NULL;
        return EISDIR;
    }
    if (!(*base = strdup(b))) {
        free(*dir);
        *dir = NULL;
        return ENOMEM;
    }
    return 0;
}

static char *join(const char *dir, const char *base)
{
    size_t n = strlen(dir) + strlen(base) + 2;
    char *s = malloc(n);
    if (s)
        snprintf(s, n, "%s%s%s", dir, strcmp(dir, "/") == 0 ? "" : "/", base);
    return s;
}

/* Resolves path, following symbolic links one at a time so that a link
 * into this process's fd directory is seen as the descriptor it names.
 * Returns 0 or an errno value. */
static int resolve(const char *path, where *w)
{
    memset(w, 0, sizeof *w);
    w->fd = -1;
    if (strcmp(path, "-") == 0) {
        w->kind = K_FD;
        w->fd = 1;
        return fstat(1, &w->st) == 0 ? 0 : EBADF;
    }
    char *p = strdup(path);
    if (!p)
        return ENOMEM;
    int e = ELOOP;
    for (int hop = 0; hop < 40; hop++) {
        char *dir = NULL, *base = NULL;
        if ((e = split_resolve(p, &dir, &base)) != 0)
            break;
        if (own_fd_dir(dir) && all_digits(base)) {
            w->kind = K_FD;
            w->fd = atoi(base);
            free(dir);
            free(base);
            e = fstat(w->fd, &w->st) == 0 ? 0 : EBADF;
            break;
        }
        char *full = join(dir, base);
        struct stat st;
        if (!full) {
            e = ENOMEM;
        } else if (lstat(full, &st) != 0) {
            e = errno;
            /* a new file; but /dev holds devices: a mistyped /dev/stdot
             * must not become a file there (/dev/shm is a file system) */
            if (e == ENOENT && (strcmp(dir, "/dev") == 0 ||
                                (strncmp(dir, "/dev/", 5) == 0 && strncmp(dir, "/dev/shm", 8) != 0)))
                e = ENODEV;
            else if (e == ENOENT) {
                w->kind = K_FILE;
                e = 0;
            }
        } else if (S_ISLNK(st.st_mode) && strncmp(dir, "/proc/", 6) != 0) {
            char link[PATH_MAX];
            ssize_t n = readlink(full, link, sizeof link - 1);
            if (n < 0) {
                e = errno;
            } else {
                link[n] = '\0';
                char *next = link[0] == '/' ? strdup(link) : join(dir, link);
                free(p);
                p = next;
                free(full);
                free(dir);
                free(base);
                if (!p)
                    return ENOMEM;
                continue;
            }
        } else {
            /* a link in /proc (another process's descriptor) is written
             * through, whatever it is */
            if (S_ISLNK(st.st_mode) && stat(full, &st) != 0)
                e = errno;
            else if (S_ISDIR(st.st_mode))
                e = EISDIR;
            else {
                e = 0;
                w->kind = S_ISREG(st.st_mode) && strncmp(dir, "/proc/", 6) != 0 ? K_FILE : K_SPECIAL;
                w->exists = 1;
                w->st = st;
            }
        }
        if (e) {
            free(full);
            free(dir);
            free(base);
        } else {
            w->dir = dir;
            w->base = base;
            w->target = full;
        }
        break;
    }
    free(p);
    return e;
}

static int is_null_device(const struct stat *st)
{
    struct stat n;
    return S_ISCHR(st->st_mode) && stat("/dev/null", &n) == 0 && S_ISCHR(n.st_mode) && n.st_rdev == st->st_rdev;
}

static int same_place(const where *a, const where *b)
{
    int ha = a->kind == K_FD || a->exists, hb = b->kind == K_FD || b->exists;
    if (ha && hb)
        return a->st.st_dev == b->st.st_dev && a->st.st_ino == b->st.st_ino && !is_null_device(&a->st);
    return !ha && !hb && strcmp(a->target, b->target) == 0;
}

int keps_output_fd(const char *path)
{
    where w;
    if (resolve(path, &w) != 0)
        return -1;
    int fd = w.kind == K_FD ? w.fd : -1;
    where_free(&w);
    return fd;
}

int keps_output_in_place(const char *path)
{
    where w;
    if (resolve(path, &w) != 0)
        return 0;
    int in_place = w.kind != K_FILE;
    where_free(&w);
    return in_place;
}

int keps_output_same(const char *a, const char *b)
{
    where wa, wb;
    if (resolve(a, &wa) != 0)
        return 0;
    int same = resolve(b, &wb) == 0 && same_place(&wa, &wb);
    where_free(&wa);
    where_free(&wb);
    return same;
}

/* ---- names beside the target: lock, temporary files, kept old file ---- */

/* ".NAME.keps-" in the target's directory: a name too long for one more
 * suffix is cut and given a hash of the whole, so distinct targets keep
 * distinct names. */
static char *aux_prefix(const where *w)
{
    size_t bl = strlen(w->base);
    char tail[24] = "";
    int cut = bl > NAME_MAX - 32;
    if (cut) {
        uint64_t h = 1469598103934665603ull; /* FNV-1a */
        for (const char *s = w->base; *s; s++)
            h = (h ^ (unsigned char)*s) * 1099511628211ull;
        snprintf(tail, sizeof tail, "~%016llx", (unsigned long long)h);
        bl = NAME_MAX - 32 - 17;
    }
    size_t n = strlen(w->dir) + bl + 32;
    char *s = malloc(n);
    if (s)
        snprintf(s, n, "%s%s.%.*s%s.keps-", w->dir, strcmp(w->dir, "/") == 0 ? "" : "/", (int)bl, w->base, tail);
    return s;
}

/* prefix + 8 random hex digits + suffix */
static char *aux_random(const char *prefix, const char *suffix)
{
    uint32_t r;
    if (getrandom(&r, sizeof r, GRND_NONBLOCK) != (ssize_t)sizeof r) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        static unsigned counter;
        r = (uint32_t)ts.tv_nsec ^ (uint32_t)getpid() * 2654435761u ^ ++counter * 40503u;
    }
    size_t n = strlen(prefix) + 8 + strlen(suffix) + 1;
    char *s = malloc(n);
    if (s)
        snprintf(s, n, "%s%08x%s", prefix, (unsigned)r, suffix);
    return s;
}

/* Named files in flight, for keps_outfile_cleanup() from a signal handler:
 * fixed buffers (no allocation there), a slot's flag set only once its
 * path is complete. A path that finds no slot is not cleaned up on a
 * signal, only by a later run. */
enum { SLOTS = 16, SLOT_PATH = 4096 };
static char slot_path[SLOTS][SLOT_PATH];
static volatile sig_atomic_t slot_used[SLOTS];

static void remember(const char *p)
{
    size_t n = strlen(p);
    for (int i = 0; i < SLOTS && n < SLOT_PATH; i++)
        if (!slot_used[i]) {
            memcpy(slot_path[i], p, n + 1);
            slot_used[i] = 1;
            return;
        }
}

static void forget(const char *p)
{
    for (int i = 0; i < SLOTS; i++)
        if (slot_used[i] && strcmp(slot_path[i], p) == 0) {
            slot_used[i] = 0;
            return;
        }
}

void keps_outfile_cleanup(void)
{
    for (int i = 0; i < SLOTS; i++)
        if (slot_used[i]) {
            unlink(slot_path[i]);
            slot_used[i] = 0;
        }
}

/* The signals the CLI cleans up on are held while a named file exists but
 * is not yet remembered, or is renamed but not yet forgotten. */
static void hold_signals(sigset_t *old)
{
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGHUP);
    sigaddset(&set, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &set, old);
}

static void release_signals(const sigset_t *old)
{
    pthread_sigmask(SIG_SETMASK, old, NULL);
}

/* Takes the lock file "PREFIXlock" (flock, waiting for another holder).
 * A holder removes the file before it unlocks, so the file locked must
 * still be the one at that name; else the lock is taken again. */
static int lock_take(const char *prefix, char **name, int *fd)
{
    size_t n = strlen(prefix) + 5;
    if (!(*name = malloc(n)))
        return ENOMEM;
    snprintf(*name, n, "%slock", prefix);
    for (;;) {
        /* read-only suffices for flock and works on another user's lock file */
        int f = open(*name, O_RDONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0666);
        if (f < 0) {
            int e = errno;
            free(*name);
            *name = NULL;
            return e;
        }
        while (flock(f, LOCK_EX) != 0)
            if (errno != EINTR) {
                int e = errno;
                close(f);
                free(*name);
                *name = NULL;
                return e;
            }
        struct stat a, b;
        if (fstat(f, &a) == 0 && lstat(*name, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino) {
            *fd = f;
            return 0;
        }
        close(f); /* removed by its last holder: lock the new one */
    }
}

static void lock_drop(char *name, int fd)
{
    if (!name)
        return;
    unlink(name);
    close(fd);
    free(name);
}

/* Removes "PREFIXxxxxxxxx.tmp" and ".old" files in dir whose lock no one
 * holds: left by a run that was killed (SIGKILL, a crash, a power cut). */
static void remove_stale(const where *w, const char *prefix)
{
    const char *pb = prefix + strlen(w->dir) + (strcmp(w->dir, "/") != 0); /* ".NAME.keps-" */
    size_t pl = strlen(pb);
    DIR *d = opendir(w->dir);
    if (!d)
        return;
    for (struct dirent *e; (e = readdir(d));) {
        const char *s = e->d_name;
        if (strncmp(s, pb, pl) != 0 || strlen(s) != pl + 12 || strspn(s + pl, "0123456789abcdef") != 8 ||
            (strcmp(s + pl + 8, ".tmp") != 0 && strcmp(s + pl + 8, ".old") != 0))
            continue;
        char *full = join(w->dir, s);
        int f = full ? open(full, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK) : -1;
        struct stat st;
        if (f >= 0 && fstat(f, &st) == 0 && S_ISREG(st.st_mode) && flock(f, LOCK_EX | LOCK_NB) == 0)
            unlink(full);
        if (f >= 0)
            close(f);
        free(full);
    }
    closedir(d);
}

/* ---- outputs ---- */

struct keps_outfile {
    char *path; /* as given */
    where w;
    FILE *f;
    int fd;        /* under f; -1 for stdout's and stderr's own streams */
    int unnamed;   /* fd is an O_TMPFILE, linked in at commit */
    char *prefix;  /* K_FILE: ".NAME.keps-" with its directory */
    char *tmpname; /* K_FILE: the named temporary file (from the start, or from commit) */
    char *oldname; /* during commit: a link to the file being replaced */
    char *lockname;
    int lockfd;
};

static void outfile_free(keps_outfile *o)
{
    if (o->tmpname) {
        unlink(o->tmpname);
        forget(o->tmpname);
    }
    if (o->f && o->fd >= 0)
        fclose(o->f);
    else if (o->f)
        fflush(o->f);
    lock_drop(o->lockname, o->lockfd);
    free(o->tmpname);
    free(o->oldname);
    free(o->prefix);
    free(o->path);
    where_free(&o->w);
    free(o);
}

void keps_outfile_abort(keps_outfile *o)
{
    if (o)
        outfile_free(o);
}

FILE *keps_outfile_stream(keps_outfile *o)
{
    return o->f;
}

const char *keps_outfile_path(const keps_outfile *o)
{
    return o->path;
}

/* The mode, owner and group of the file being replaced, on the new one.
 * A group the process cannot give loses its permission bits rather than
 * passing them to the process's own group. */
static void copy_owner_mode(int fd, const struct stat *old)
{
    mode_t mode = old->st_mode & 0777;
    struct stat now;
    if (fstat(fd, &now) == 0 && (now.st_uid != old->st_uid || now.st_gid != old->st_gid)) {
        if (fchown(fd, old->st_uid, old->st_gid) != 0 && fchown(fd, (uid_t)-1, old->st_gid) != 0)
            mode &= ~(mode_t)070;
    }
    fchmod(fd, mode);
}

/* A temporary file in the target's directory: unnamed where the file system
 * can link one in later, else named (and remembered for the signal
 * handler). Locked, so that no later run takes it for a stale one. */
static int make_temp(keps_outfile *o)
{
    int fd = -1;
#ifdef O_TMPFILE
    if (!keps_outfile_named_only) {
        fd = open(o->w.dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0666); /* the umask applies */
        char proc[64];
        snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
        if (fd >= 0 && access(proc, F_OK) != 0) { /* no /proc: it could not be linked in */
            close(fd);
            fd = -1;
        }
        o->unnamed = fd >= 0;
    }
#endif
    for (int tries = 0; fd < 0 && tries < 100; tries++) {
        free(o->tmpname);
        if (!(o->tmpname = aux_random(o->prefix, ".tmp")))
            return ENOMEM;
        sigset_t old;
        hold_signals(&old);
        fd = open(o->tmpname, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0666);
        if (fd >= 0)
            remember(o->tmpname);
        int e = errno;
        release_signals(&old);
        if (fd < 0 && e != EEXIST) {
            free(o->tmpname);
            o->tmpname = NULL;
            return e;
        }
    }
    if (fd < 0)
        return EEXIST;
    flock(fd, LOCK_EX | LOCK_NB);
    if (o->w.exists)
        copy_owner_mode(fd, &o->w.st);
    o->fd = fd;
    return 0;
}

static int open_in_place(keps_outfile *o)
{
    if (o->w.kind == K_FD) {
        int fl = fcntl(o->w.fd, F_GETFL);
        if (fl < 0)
            return EBADF;
        if ((fl & O_ACCMODE) == O_RDONLY)
            return EBADF;
        if (o->w.fd == 1 || o->w.fd == 2) {
            o->f = o->w.fd == 1 ? stdout : stderr;
            o->fd = -1;
            return 0;
        }
        o->fd = fcntl(o->w.fd, F_DUPFD_CLOEXEC, 3);
    } else {
        /* a device or FIFO; a regular file only through another process's
         * descriptor in /proc, which is then truncated like any output */
        o->fd = open(o->w.target, O_WRONLY | O_CLOEXEC | (S_ISREG(o->w.st.st_mode) ? O_TRUNC : 0));
    }
    return o->fd < 0 ? errno : 0;
}

static int cmp_lock_order(const void *a, const void *b)
{
    const keps_outfile *x = *(keps_outfile *const *)a, *y = *(keps_outfile *const *)b;
    return strcmp(x->prefix, y->prefix);
}

static keps_status path_error(keps_error *err, const char *path, int e, const char *what)
{
    const char *hint = "";
    if (e == ENOENT)
        hint = " (the directory must exist)";
    else if (e == EBADF)
        hint = " (that descriptor is not open for writing)";
    else if (e == EISDIR)
        hint = "; give a file name";
    else if (e == ENODEV)
        hint = " (no such device; keps writes no new file in /dev)";
    return keps_error_at(err, keps_status_of_errno(e), path, 0, 0, "%s: %s%s", what, strerror(e), hint);
}

keps_status keps_outfile_open(const char *const *paths, size_t n, keps_outfile **out, keps_error *err)
{
    keps_outfile **sorted = calloc(n ? n : 1, sizeof *sorted);
    keps_status st = KEPS_OK;
    size_t made = 0;
    for (size_t i = 0; i < n; i++)
        out[i] = NULL;
    if (!sorted)
        return keps_error_set(err, KEPS_ENOMEM, "out of memory");
    for (; made < n && !st; made++) {
        keps_outfile *o = calloc(1, sizeof *o);
        if (!o || !(o->path = strdup(paths[made]))) {
            free(o);
            st = keps_error_set(err, KEPS_ENOMEM, "out of memory");
            break;
        }
        o->fd = -1;
        o->lockfd = -1;
        out[made] = o;
        int e = resolve(paths[made], &o->w);
        if (e)
            st = path_error(err, paths[made], e, "cannot write the output there");
        for (size_t j = 0; j < made && !st; j++)
            if (same_place(&out[j]->w, &o->w))
                st = keps_error_at(err, KEPS_EINPUT, paths[made], 0, 0,
                                   "this output is also written as '%s' (the same %s); give each output its own "
                                   "file",
                                   out[j]->path, o->w.kind == K_FD ? "stream" : "file");
        if (!st && o->w.kind == K_FILE && !(o->prefix = aux_prefix(&o->w)))
            st = keps_error_set(err, KEPS_ENOMEM, "out of memory");
    }
    /* Locks in one order for every process; then the files. */
    size_t nf = 0;
    for (size_t i = 0; i < made && !st; i++)
        if (out[i]->w.kind == K_FILE)
            sorted[nf++] = out[i];
    qsort(sorted, nf, sizeof *sorted, cmp_lock_order);
    for (size_t i = 0; i < nf && !st; i++) {
        int e = lock_take(sorted[i]->prefix, &sorted[i]->lockname, &sorted[i]->lockfd);
        if (e)
            st = path_error(err, sorted[i]->path, e, "cannot lock the output (its directory must take a file)");
        else
            remove_stale(&sorted[i]->w, sorted[i]->prefix);
    }
    for (size_t i = 0; i < made && !st; i++) {
        keps_outfile *o = out[i];
        int e = o->w.kind == K_FILE ? make_temp(o) : open_in_place(o);
        if (e)
            st = path_error(err, o->path, e, "cannot create the output");
        else if (!o->f && !(o->f = fdopen(o->fd, "w")))
            st = keps_error_set(err, KEPS_ENOMEM, "out of memory");
    }
    free(sorted);
    if (st) {
        for (size_t i = 0; i < made; i++) {
            keps_outfile_abort(out[i]);
            out[i] = NULL;
        }
    }
    return st;
}

/* Everything written reaches the file (or the device); for a temporary
 * file, its data reach the disk before it replaces the target. */
static keps_status flush_out(keps_outfile *o, keps_error *err)
{
    errno = 0;
    int bad = fflush(o->f) != 0 || ferror(o->f);
    if (!bad && o->w.kind == K_FILE && fsync(o->fd) != 0)
        bad = 1;
    if (!bad && o->fd >= 0 && o->w.kind != K_FILE) {
        bad = fclose(o->f) != 0;
        o->f = NULL;
    }
    if (!bad)
        return KEPS_OK;
    int e = errno ? errno : EIO;
    return keps_error_at(err, keps_status_of_errno(e) == KEPS_ENOMEM ? KEPS_ENOMEM : KEPS_EIO, o->path, 0, 0,
                         "cannot write the output: %s", strerror(e));
}

/* Gives an unnamed temporary file its name, to be renamed over the target. */
static int link_in(keps_outfile *o)
{
    char proc[64];
    snprintf(proc, sizeof proc, "/proc/self/fd/%d", o->fd);
    for (int tries = 0; tries < 100; tries++) {
        char *name = aux_random(o->prefix, ".tmp");
        if (!name)
            return ENOMEM;
        if (linkat(AT_FDCWD, proc, AT_FDCWD, name, AT_SYMLINK_FOLLOW) == 0) {
            o->tmpname = name;
            remember(name);
            return 0;
        }
        int e = errno;
        free(name);
        if (e != EEXIST)
            return e;
    }
    return EEXIST;
}

/* A hard link to the file a rename is about to replace, so that a failed
 * later rename can put it back: "all or nothing" must not cost the user the
 * output of an earlier run. NULL when there is nothing to keep or no link
 * can be made; the rollback then only removes what was renamed. */
static void keep_old(keps_outfile *o)
{
    struct stat st;
    if (lstat(o->w.target, &st) != 0 || !S_ISREG(st.st_mode))
        return;
    char *old = aux_random(o->prefix, ".old");
    if (old && linkat(AT_FDCWD, o->w.target, AT_FDCWD, old, 0) == 0) {
        o->oldname = old;
        remember(old);
    } else {
        free(old);
    }
}

/* Ends what keep_old began: with restore, the renamed file makes way for
 * the one it replaced or, when that cannot return, at least goes. */
static void drop_old(keps_outfile *o, int restore)
{
    if (restore && !(o->oldname && rename(o->oldname, o->w.target) == 0))
        unlink(o->w.target);
    if (o->oldname) {
        unlink(o->oldname); /* gone already when it was renamed back */
        forget(o->oldname);
        free(o->oldname);
        o->oldname = NULL;
    }
}

keps_status keps_outfile_commit(keps_outfile **o, size_t n, keps_error *err)
{
    keps_status st = KEPS_OK;
    for (size_t i = 0; i < n && !st; i++)
        if (o[i])
            st = flush_out(o[i], err);
    sigset_t old;
    hold_signals(&old);
    for (size_t i = 0; i < n && !st; i++)
        if (o[i] && o[i]->unnamed) {
            int e = link_in(o[i]);
            if (e)
                st = keps_error_at(err, keps_status_of_errno(e) == KEPS_EINPUT ? KEPS_EIO : keps_status_of_errno(e), o[i]->path, 0,
                                   0, "cannot put the output into place: %s", strerror(e));
        }
    /* the renames: all or nothing */
    size_t last = 0, done = 0;
    for (size_t i = 0; i < n; i++)
        if (o[i] && o[i]->w.kind == K_FILE)
            last = i;
    size_t i = 0;
    for (; i < n && !st; i++) {
        if (!o[i] || o[i]->w.kind != K_FILE)
            continue;
        if (i != last) /* the last rename has nothing after it to fail */
            keep_old(o[i]);
        if (rename(o[i]->tmpname, o[i]->w.target) != 0) {
            int e = errno;
            st = keps_error_at(err, keps_status_of_errno(e) == KEPS_EINPUT ? KEPS_EIO : keps_status_of_errno(e), o[i]->path, 0, 0,
                               "cannot put the output into place: %s", strerror(e));
            break;
        }
        forget(o[i]->tmpname);
        free(o[i]->tmpname);
        o[i]->tmpname = NULL;
        done = i + 1;
    }
    for (size_t j = 0; j < n; j++)
        if (o[j] && o[j]->w.kind == K_FILE)
            drop_old(o[j], st && j < done);
    for (size_t j = 0; j < n; j++)
        if (o[j]) {
            outfile_free(o[j]); /* removes what was not renamed, unlocks */
            o[j] = NULL;
        }
    release_signals(&old);
    return st;
}
