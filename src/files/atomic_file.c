/*
 * atomic_file.c - write a file completely or not at all (atomic_file.h).
 *
 * Why a random temporary and not NAME.tmp: a fixed name can be pre-placed
 * by anyone who can write the directory (a symbolic link NAME.tmp ->
 * victim made the old writer overwrite victim), and two runs writing the
 * same target would share it.  O_EXCL|O_NOFOLLOW refuses whatever is
 * already there; the random part makes a collision with a live run
 * unlikely and a retry cheap.
 */
#define _DEFAULT_SOURCE /* flock(2) */
#include "slide/atomic_file.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "slide/file_kind.h"

/* Attempts at a fresh random name before giving up (each collides with
 * probability about 2^-64 unless someone floods the directory). */
#define NAME_TRIES 16

/*
 * The temporaries that exist now, for the signal handler: a name is
 * written before its flag is set and the flag cleared before the name is
 * reused, so the handler never reads a half-written name.
 */
static char temporaries[ATOMIC_FILE_MAX_OPEN][PATH_MAX];
static volatile sig_atomic_t registered[ATOMIC_FILE_MAX_OPEN];

void atomic_file_remove_all(void)
{
    for (int i = 0; i < ATOMIC_FILE_MAX_OPEN; i++)
        if (registered[i])
            unlink(temporaries[i]);
}

static void on_signal(int sig)
{
    atomic_file_remove_all();
    signal(sig, SIG_DFL);
    raise(sig);
}

/* Install on_signal for SIGINT and SIGTERM where nobody else handles them. */
static void catch_signals(void)
{
    static const int sigs[] = {SIGINT, SIGTERM};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        struct sigaction old, sa;
        if (sigaction(sigs[i], NULL, &old) != 0 || old.sa_handler != SIG_DFL)
            continue;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        sigaction(sigs[i], &sa, NULL);
    }
}

static int register_temporary(const char *name)
{
    for (int i = 0; i < ATOMIC_FILE_MAX_OPEN; i++)
        if (!registered[i]) {
            memcpy(temporaries[i], name, strlen(name) + 1);
            registered[i] = 1;
            return i;
        }
    return -1;
}

static void unregister(int slot)
{
    if (slot >= 0)
        registered[slot] = 0;
}

/* The directory part of path: "." for a bare name, "/" for "/x" (malloc'd). */
static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return strdup(".");
    size_t n = slash == path ? 1 : (size_t)(slash - path);
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, path, n);
        d[n] = '\0';
    }
    return d;
}

static int check_dir(const char *path, const char *dir, slide_error *err)
{
    struct stat sb;
    struct statvfs fs;
    if (stat(dir, &sb) != 0)
        return slide_fail(err, SLIDE_EIO, "cannot write %s: directory %s %s", path, dir,
                          errno == ENOENT ? "does not exist" : strerror(errno));
    if (!S_ISDIR(sb.st_mode))
        return slide_fail(err, SLIDE_EIO, "cannot write %s: %s is %s, not a directory",
                          path, dir, file_kind_name(sb.st_mode));
    if (statvfs(dir, &fs) == 0 && (fs.f_flag & ST_RDONLY))
        return slide_fail(err, SLIDE_EIO, "cannot write %s: directory %s is on a "
                          "read-only file system", path, dir);
    if (access(dir, W_OK | X_OK) != 0)
        return slide_fail(err, SLIDE_EIO, "cannot write %s: directory %s is not "
                          "writable (%s)", path, dir, strerror(errno));
    return SLIDE_OK;
}

/* Whether the text in head[0..n) is of a text kind: its header line comes
 * first, after any '#' lines. */
static int text_is_ours(const char *head, size_t n, const char *header)
{
    size_t h = strlen(header);
    for (size_t i = 0; i < n;) {
        if (n - i >= h && !memcmp(head + i, header, h))
            return 1;
        if (head[i] != '#')
            return 0;
        const char *nl = memchr(head + i, '\n', n - i);
        if (!nl)
            return 0;
        i = (size_t)(nl - head) + 1;
    }
    return 0;
}

/* An existing regular file at path is replaced only when it is of kind, or
 * empty. */
static int check_ours(const char *path, const struct atomic_file_kind *kind,
                      slide_error *err)
{
    static const char how[] = "slide replaces only its own files of that kind; remove "
                              "it or choose another name";
    unsigned char head[ATOMIC_FILE_HEAD];
    slide_error why;
    int fd = file_open_regular(path, 0, &why);
    if (fd < 0)
        return slide_fail(err, SLIDE_EIO, "cannot write %s: it exists and cannot be read "
                          "to check that it is %s (%s); %s", path, kind->name, why.msg, how);
    ssize_t n = read(fd, head, sizeof head);
    close(fd);
    /* an empty file holds nothing to lose (a name made by mktemp) */
    int ours = n == 0 || (n > 0 && kind->is_ours ? kind->is_ours(head, (size_t)n)
                                       : text_is_ours((const char *)head, (size_t)n,
                                                      kind->header));
    return ours ? SLIDE_OK
                : slide_fail(err, SLIDE_EIO, "cannot write %s: it exists and is not %s; %s",
                             path, kind->name, how);
}

/* path absent, or a regular file of kind (lstat: a link is never followed). */
static int check_target(const char *path, const struct atomic_file_kind *kind,
                        slide_error *err)
{
    struct stat sb;
    if (lstat(path, &sb) != 0)
        return errno == ENOENT ? SLIDE_OK
                               : slide_fail(err, SLIDE_EIO, "cannot write %s: %s", path,
                                            strerror(errno));
    if (!S_ISREG(sb.st_mode))
        return slide_fail(err, SLIDE_EIO, "cannot write %s: it is %s; slide replaces only "
                          "regular files", path, file_kind_name(sb.st_mode));
    return kind ? check_ours(path, kind, err) : SLIDE_OK;
}

int atomic_file_check(const char *path, const struct atomic_file_kind *kind,
                      slide_error *err)
{
    size_t n = strlen(path);
    if (n == 0)
        return slide_fail(err, SLIDE_EIO, "cannot write a file with an empty name");
    if (path[n - 1] == '/')
        return slide_fail(err, SLIDE_EIO, "cannot write %s: the name ends in '/', "
                          "which names a directory", path);
    if (n + 32 >= PATH_MAX)
        return slide_fail(err, SLIDE_EIO, "cannot write %.64s...: the name has %zu bytes, "
                          "at most %d are allowed", path, n, PATH_MAX - 33);
    char *dir = dir_of(path);
    if (!dir)
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for a file name");
    int rc = check_dir(path, dir, err);
    free(dir);
    return rc ? rc : check_target(path, kind, err);
}

/* "DIR/.BASE.<16 hex>.tmp" with fresh random bits (malloc'd). */
static char *temp_name(const char *path, const char *dir, slide_error *err)
{
    unsigned char r[8];
    const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
    if (getrandom(r, sizeof r, 0) != (ssize_t)sizeof r) {
        slide_fail(err, SLIDE_EIO, "cannot write %s: no random bits for a temporary "
                   "name: %s", path, strerror(errno));
        return NULL;
    }
    size_t len = strlen(dir) + strlen(base) + 32;
    char *t = malloc(len);
    if (!t) {
        slide_fail(err, SLIDE_ENOMEM, "out of memory for a file name");
        return NULL;
    }
    snprintf(t, len, "%s/.%s.%02x%02x%02x%02x%02x%02x%02x%02x.tmp", dir, base, r[0], r[1],
             r[2], r[3], r[4], r[5], r[6], r[7]);
    return t;
}

/* 1 if name (in dir, or a path when dirfd is AT_FDCWD) is still the
 * regular file open as fd: same device and inode (lstat: a link is never
 * taken for what it points to). */
static int still_named(int fd, int dirfd, const char *name)
{
    struct stat a, b;
    return fstat(fd, &a) == 0 && fstatat(dirfd, name, &b, AT_SYMLINK_NOFOLLOW) == 0 &&
           S_ISREG(b.st_mode) && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

/*
 * Create f->tmp anew (never an existing file or a link) as f->stream,
 * locked.  Between the create and the lock another run's cleanup may take
 * the unlocked, empty file for a dead run's and remove it: the name is
 * checked again once the lock is held, and a lost name is given up for a
 * fresh one (only this run can lock a temporary from then on).
 */
static int create_temporary(struct atomic_file *f, slide_error *err)
{
    for (int k = 0; k < NAME_TRIES; k++) {
        free(f->tmp);
        if (!(f->tmp = temp_name(f->path, f->dir, err)))
            return SLIDE_EIO;
        int fd = open(f->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
        if (fd < 0 && errno == EEXIST)
            continue;
        if (fd < 0)
            return slide_fail(err, SLIDE_EIO, "cannot create a temporary file in %s for "
                              "%s: %s", f->dir, f->path, strerror(errno));
        int locked = flock(fd, LOCK_EX | LOCK_NB) == 0;
        if (!locked && errno != EWOULDBLOCK) {
            int e = errno;
            close(fd);
            unlink(f->tmp);
            return slide_fail(err, SLIDE_EIO, "cannot write %s: cannot lock its temporary "
                              "in %s: %s", f->path, f->dir, strerror(e));
        }
        if (!locked || !still_named(fd, AT_FDCWD, f->tmp)) {
            close(fd); /* taken by a cleanup, which removes it */
            continue;
        }
        /* the lock marks it live (atomic_file_remove_stale); a dup holds
         * it after the stream is closed by sync */
        f->lock = fcntl(fd, F_DUPFD_CLOEXEC, 0);
        if (f->lock < 0 || (f->slot = register_temporary(f->tmp)) < 0 ||
            !(f->stream = fdopen(fd, "wb"))) {
            int e = errno;
            close(fd);
            unlink(f->tmp);
            return slide_fail(err, SLIDE_EIO, "cannot write %s: %s", f->path,
                              f->lock >= 0 && f->slot < 0
                                  ? "too many files open for writing at once"
                                  : strerror(e));
        }
        return SLIDE_OK;
    }
    return slide_fail(err, SLIDE_EIO, "cannot write %s: %d random temporary names in %s "
                      "were all taken", f->path, NAME_TRIES, f->dir);
}

static void release(struct atomic_file *f)
{
    if (f->lock >= 0)
        close(f->lock);
    f->lock = -1;
    free(f->path);
    free(f->tmp);
    free(f->dir);
    f->path = f->tmp = f->dir = NULL;
    f->stream = NULL;
    f->kind = NULL;
    f->slot = -1;
}

int atomic_file_open(struct atomic_file *f, const char *path,
                     const struct atomic_file_kind *kind, slide_error *err)
{
    memset(f, 0, sizeof *f);
    f->slot = -1;
    f->lock = -1;
    int rc = atomic_file_check(path, kind, err);
    if (rc)
        return rc;
    f->path = strdup(path);
    f->dir = dir_of(path);
    f->kind = kind;
    if (!f->path || !f->dir) {
        release(f);
        return slide_fail(err, SLIDE_ENOMEM, "out of memory for a file name");
    }
    /* what a killed run left for this target */
    const char *slash = strrchr(path, '/');
    const char *const names[] = {slash ? slash + 1 : path, NULL};
    atomic_file_remove_stale(f->dir, names, NULL);
    catch_signals();
    if ((rc = create_temporary(f, err)))
        release(f);
    return rc;
}

void atomic_file_abort(struct atomic_file *f)
{
    if (f->stream)
        fclose(f->stream);
    if (f->slot >= 0)
        unlink(f->tmp);
    unregister(f->slot);
    release(f);
}

/* Abort f and fail with "what PATH failed: errno". */
static int fail_abort(struct atomic_file *f, const char *what, slide_error *err)
{
    int e = errno;
    slide_fail(err, SLIDE_EIO, "%s %s failed: %s", what, f->path, strerror(e));
    atomic_file_abort(f);
    return SLIDE_EIO;
}

int atomic_file_sync(struct atomic_file *f, slide_error *err)
{
    if (!f->stream)
        return SLIDE_OK;
    int ok = fflush(f->stream) == 0 && !ferror(f->stream) && fsync(fileno(f->stream)) == 0;
    if (!ok)
        return fail_abort(f, "writing", err);
    FILE *s = f->stream;
    f->stream = NULL;
    return fclose(s) == 0 ? SLIDE_OK : fail_abort(f, "writing", err);
}

static int fsync_dir(const char *dir)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    int rc = fsync(fd);
    close(fd);
    return rc;
}

/*
 * EIO unless name (f->tmp, or f->path after the rename) is still the
 * regular file that f wrote (f->lock is open on it).  On a mismatch
 * whatever stands at name is removed when it is not a regular file (a
 * link made there by someone else: removing a link touches nothing it
 * points to; a regular file there may be someone's and stays), our file
 * is gone with its last descriptor, and f is released.
 */
static int check_written(struct atomic_file *f, const char *name, const char *what,
                         slide_error *err)
{
    struct stat sb;
    if (still_named(f->lock, AT_FDCWD, name))
        return SLIDE_OK;
    int found = lstat(name, &sb) == 0;
    slide_fail(err, SLIDE_EIO, "cannot write %s: %s %s was replaced by another program "
               "(it is now %s); %s was not written", f->path, what, name,
               found ? file_kind_name(sb.st_mode) : "gone", f->path);
    if (found && !S_ISREG(sb.st_mode) && !S_ISDIR(sb.st_mode))
        unlink(name);
    unregister(f->slot);
    f->slot = -1;
    release(f);
    return SLIDE_EIO;
}

int atomic_file_commit(struct atomic_file *f, slide_error *err)
{
    int rc = atomic_file_sync(f, err);
    if (rc)
        return rc;
    /* a special file put at the target while we wrote is refused still */
    if ((rc = check_target(f->path, f->kind, err))) {
        atomic_file_abort(f);
        return rc;
    }
    /* the name must still be the file written: a temporary swapped for a
     * link (or anything else) is not renamed to the target */
    if ((rc = check_written(f, f->tmp, "its temporary", err)))
        return rc;
    if (rename(f->tmp, f->path) != 0)
        return fail_abort(f, "renaming the finished file to", err);
    unregister(f->slot);
    f->slot = -1;
    /* a swap between that check and the rename put the other thing at
     * the target: take it away again */
    if ((rc = check_written(f, f->path, "the renamed file", err)))
        return rc;
    if (fsync_dir(f->dir) != 0) {
        rc = slide_fail(err, SLIDE_EIO, "%s was written but syncing directory %s failed: "
                        "%s", f->path, f->dir, strerror(errno));
    }
    release(f);
    return rc;
}

/* 1 if name is ".P.<16 lowercase hex>.tmp" for a P of names. */
static int stale_name(const char *name, const char *const *names)
{
    /* '.', P (plen bytes), '.', 16 hex digits, ".tmp" */
    size_t n = strlen(name), plen = n - 22;
    if (n < 23 || name[0] != '.' || strcmp(name + n - 4, ".tmp") || name[n - 21] != '.')
        return 0;
    for (size_t i = n - 20; i < n - 4; i++)
        if (!name[i] || !strchr("0123456789abcdef", name[i]))
            return 0;
    for (int k = 0; names[k]; k++) {
        size_t m = strlen(names[k]);
        int prefix = m > 0 && names[k][m - 1] == '*';
        if (prefix ? plen >= m - 1 && !strncmp(name + 1, names[k], m - 1)
                   : plen == m && !strncmp(name + 1, names[k], m))
            return 1;
    }
    return 0;
}

/*
 * Remove the entry name of directory dfd when it is a dead run's
 * temporary: a regular file of this user that no live run holds locked
 * (every writer locks its temporary right after creating it and checks
 * the name once it holds the lock: create_temporary), still the file
 * that was locked; its size into *size.  Its bytes prove nothing (a
 * database's header is written last, over zeros; a run killed at once
 * leaves an empty file), so they are not read.
 */
static int remove_if_stale(int dfd, const char *name, off_t *size)
{
    struct stat a;
    int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return 0; /* a link (ELOOP), gone, or not ours to read */
    int stale = fstat(fd, &a) == 0 && S_ISREG(a.st_mode) && a.st_uid == geteuid() &&
                flock(fd, LOCK_EX | LOCK_NB) == 0 && still_named(fd, dfd, name) &&
                unlinkat(dfd, name, 0) == 0;
    *size = stale ? a.st_size : 0;
    close(fd);
    return stale;
}

int atomic_file_remove_stale(const char *dir, const char *const *names,
                             unsigned long long *bytes)
{
    int removed = 0;
    unsigned long long freed = 0;
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *d = dfd < 0 ? NULL : fdopendir(dfd);
    if (!d && dfd >= 0)
        close(dfd);
    for (struct dirent *e; d && (e = readdir(d));) {
        off_t size;
        if (stale_name(e->d_name, names) && remove_if_stale(dirfd(d), e->d_name, &size)) {
            removed++;
            freed += (unsigned long long)size;
        }
    }
    if (d)
        closedir(d);
    if (bytes)
        *bytes = freed;
    return removed;
}

int atomic_file_write_all(const char *path, const void *buf, size_t len, slide_error *err)
{
    struct atomic_file f;
    int rc = atomic_file_open(&f, path, NULL, err);
    if (rc)
        return rc;
    if (len && fwrite(buf, 1, len, f.stream) != len)
        return fail_abort(&f, "writing", err);
    return atomic_file_commit(&f, err);
}
