/*
 * atomic_file.h - the one way slide writes an output file: a new file
 * appears complete at its name or not at all, and nothing that is not a
 * regular file (a device, a FIFO, a socket, a directory, a symbolic link) is
 * ever written through or replaced.
 *
 * Only slide's own files are replaced: a target that exists must be a
 * regular file whose first bytes show it is a slide file of the kind being
 * written (struct atomic_file_kind: a database's magic, a text file's
 * header line) or empty; anything else is refused, so a mistyped name never
 * destroys a user's file.  Files inside a directory slide owns and has
 * locked (a checkpoint's state and store) are written with kind NULL: any
 * regular file there is replaced.
 *
 * Representation: a struct atomic_file is one output in progress.  It owns a
 * temporary in the target's directory, named ".NAME.XXXXXXXXXXXXXXXX.tmp"
 * (16 hex digits from getrandom(2), so a name cannot be guessed and
 * pre-placed), created with O_CREAT|O_EXCL|O_NOFOLLOW and mode 0644 less
 * the umask, open for writing as `stream`, and locked (flock(2), held by
 * `lock` until the temporary is renamed or removed), so that another run
 * can tell a live temporary from one that a killed run left.  The lock is
 * taken right after the create, and the name checked again once it is
 * held (a cleanup may have taken the empty, not yet locked file for a dead
 * run's): from then on the lock is the proof of life, whatever the bytes.
 *
 * Leftovers: a run killed by SIGKILL (or a power loss) leaves its
 * temporary, in any state: empty, a database whose header is still the
 * zeros it is written over last, or complete.  atomic_file_open removes
 * every one of its own target that is provably a dead slide run's: named
 * .NAME.<16 hex>.tmp, a regular file (never a link, a FIFO, a directory)
 * owned by this user, and not locked by a live run (atomic_file_remove_stale).
 * Its contents are not looked at: they prove nothing.  Directories that
 * slide owns and locks (checkpoints) clear theirs with
 * atomic_file_remove_stale too.
 *
 * Life cycle: atomic_file_check (before any long work) -> atomic_file_open
 * -> writes to stream -> atomic_file_sync (flush, fsync, close) ->
 * atomic_file_commit (rename over the target, fsync of the directory), or
 * atomic_file_abort at any point (close, remove the temporary).  commit
 * syncs first when sync was not called; sync is separate so that a caller
 * writing several files (checkpoint.c) can make all of them durable before
 * renaming any.
 *
 * Invariants: while a temporary exists its name is in a process-wide table
 * that a SIGINT/SIGTERM handler reads (the only global state: a signal
 * handler can reach nothing else); on any error the temporary is removed
 * before the function returns; the target is re-examined just before the
 * rename, so a special file put there during the work is still refused;
 * the temporary's name is checked to be still the file written (same
 * device and inode as the locked descriptor, a regular file) before the
 * rename and the target's after it, so a temporary swapped for a symbolic
 * link during the work never becomes the output.
 *
 * Signals: atomic_file_open installs, for SIGINT and SIGTERM whose
 * disposition is still the default, a handler that removes every registered
 * temporary and then dies by the same signal (exit status 128 + signal).  A
 * program with its own handler calls atomic_file_remove_all before dying.
 * Not thread-safe: open, commit and abort from one thread (writes into
 * stream may come from any one thread at a time).
 */
#ifndef SLIDE_ATOMIC_FILE_H
#define SLIDE_ATOMIC_FILE_H

#include <stdio.h>

#include "slide/error.h"

/* Temporaries that may exist at once in one process. */
#define ATOMIC_FILE_MAX_OPEN 16

/* Bytes of an existing target read to recognise its kind. */
#define ATOMIC_FILE_HEAD 4096

/*
 * A kind of output file, as slide recognises an existing one it may
 * replace.  Binary kinds set is_ours; text kinds set header instead: the
 * file's lines are read from the start, lines starting with '#' (a
 * provenance block) are passed over, and the file is of the kind when a
 * line starts with header before any other line does.
 */
struct atomic_file_kind {
    const char *name;  /* in messages: "a slide distance database" */
    /* 1 when head[0..n) (n <= ATOMIC_FILE_HEAD, less for a short file) is
     * the start of a file of this kind */
    int (*is_ours)(const unsigned char *head, size_t n);
    const char *header; /* text kinds: "distance,h,count", "# antipodes of the " */
};

struct atomic_file {
    const struct atomic_file_kind *kind; /* what an existing target must be */
    FILE *stream;  /* the temporary, open for writing ("wb"); NULL once synced */
    char *path;    /* the target, as given */
    char *tmp;     /* the temporary's name */
    char *dir;     /* the target's directory ("." for a bare name) */
    int slot;      /* index in the signal table, -1 when not registered */
    int lock;      /* a descriptor of the temporary holding its flock; -1 none */
};

/*
 * Check that path can be written: the name is not empty and does not end
 * in '/'; its directory exists, is a directory and is writable and
 * searchable; path does not exist, or is a regular file (never a symbolic
 * link, even one to a regular file, nor a dangling one) of the given kind
 * (any regular file when kind is NULL: only for files inside a directory
 * slide owns).  Creates nothing.
 * Call it before the work whose result is written, so that a bad name fails
 * in a second and not after hours.
 * Errors: SLIDE_EIO with one line naming the path and what it is (for
 * example "x: it is a FIFO; slide writes only regular files", or "x: it
 * exists and is not a slide distance database; ...remove it or choose
 * another name").
 */
int atomic_file_check(const char *path, const struct atomic_file_kind *kind,
                      slide_error *err);

/*
 * Check path as atomic_file_check, then create its temporary and open it
 * for writing (f->stream).  f is filled in; free it with atomic_file_commit
 * or atomic_file_abort.  Errors: those of atomic_file_check, SLIDE_ENOMEM,
 * SLIDE_EIO (create, or ATOMIC_FILE_MAX_OPEN temporaries already open).
 */
int atomic_file_open(struct atomic_file *f, const char *path,
                     const struct atomic_file_kind *kind, slide_error *err);

/*
 * Flush and fsync the temporary and close its stream (f->stream becomes
 * NULL); the temporary stays, registered, until commit or abort.  On
 * failure the temporary is removed and f released (as abort).
 * Errors: SLIDE_EIO naming the target and the system error (ENOSPC, EIO...).
 */
int atomic_file_sync(struct atomic_file *f, slide_error *err);

/*
 * Sync (if not done), check the target again, check that the temporary's
 * name is still the file written, rename it over the target, check the
 * target is that file, and fsync the directory; f is released.  On failure
 * the temporary is removed and the target is left as it was, except that
 * a temporary replaced by another program (a symbolic link, say) is
 * refused: "cannot write X: its temporary T was replaced by another
 * program (it is now a symbolic link); X was not written", and what stands
 * at that name is removed when it is not a regular file; the same when the
 * swap lands between the check and the rename (then X, a link, is removed).
 * Errors: SLIDE_EIO naming the target and what failed.
 */
int atomic_file_commit(struct atomic_file *f, slide_error *err);

/* Close and remove the temporary, release f.  Safe on a released f. */
void atomic_file_abort(struct atomic_file *f);

/*
 * Write len bytes to a new file at path through the steps above (open,
 * write, commit), with kind NULL: for the files of a directory slide owns
 * (checkpoints).  Errors: as atomic_file_open and atomic_file_commit, and
 * SLIDE_EIO for a failed write.
 */
int atomic_file_write_all(const char *path, const void *buf, size_t len, slide_error *err);

/*
 * Remove the temporaries that dead runs left in dir: the regular files
 * (never a link, a FIFO or a directory) of this user (the effective uid)
 * named ".P.<16 hex>.tmp" for a name P in names (NULL-terminated; an entry
 * ending in '*' stands for every P that starts with the rest, "layer-*"
 * for layer-3 and layer-12) that no live run holds locked, whatever they
 * hold (empty, zeros, a part).  *bytes (may be NULL) receives the bytes
 * freed.  Returns the number of files removed; errors (an unreadable
 * directory) remove nothing.
 */
int atomic_file_remove_stale(const char *dir, const char *const *names,
                             unsigned long long *bytes);

/*
 * Remove every registered temporary.  Async-signal-safe (unlink only): for
 * a signal handler that is about to end the process.
 */
void atomic_file_remove_all(void);

#endif
