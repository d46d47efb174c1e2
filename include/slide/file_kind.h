/*
 * file_kind.h - what kind of file a path names, and opening an input that
 * must be a regular file without blocking on a FIFO or a device.
 *
 * Representation: none; a file's kind is the S_IFMT part of its st_mode.
 * slide reads databases and checkpoints only from regular files: a FIFO
 * would block the open or the read forever, a device would be read without
 * end, and a symbolic link where a link is not expected (a checkpoint's own
 * files) is refused rather than followed.
 */
#ifndef SLIDE_FILE_KIND_H
#define SLIDE_FILE_KIND_H

#include <sys/types.h>

#include "slide/error.h"

/* "a directory", "a symbolic link", "a FIFO", "a socket", "a character
 * device", "a block device", "a regular file" or "a special file". */
const char *file_kind_name(mode_t mode);

/*
 * Open path for reading (O_RDONLY|O_NONBLOCK|O_CLOEXEC, and O_NOFOLLOW when
 * follow_links is 0), check with fstat that it is a regular file, and clear
 * O_NONBLOCK again.  Returns the descriptor (>= 0), or a negative status
 * with err set: SLIDE_EIO "cannot open PATH: ..." (missing, unreadable, or
 * a symbolic link when follow_links is 0), or SLIDE_EIO "PATH is a FIFO, not
 * a regular file" for anything else that is not a regular file.
 */
int file_open_regular(const char *path, int follow_links, slide_error *err);

#endif
