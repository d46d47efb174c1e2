/*
 * file_kind.c - file kinds and regular-file inputs (file_kind.h).
 */
#include "slide/file_kind.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *file_kind_name(mode_t mode)
{
    return S_ISREG(mode)    ? "a regular file"
           : S_ISDIR(mode)  ? "a directory"
           : S_ISLNK(mode)  ? "a symbolic link"
           : S_ISFIFO(mode) ? "a FIFO"
           : S_ISSOCK(mode) ? "a socket"
           : S_ISCHR(mode)  ? "a character device"
           : S_ISBLK(mode)  ? "a block device"
                            : "a special file";
}

int file_open_regular(const char *path, int follow_links, slide_error *err)
{
    /* O_NONBLOCK: opening a FIFO with no writer would wait forever */
    int flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC | (follow_links ? 0 : O_NOFOLLOW);
    int fd = open(path, flags);
    if (fd < 0) {
        if (errno == ELOOP && !follow_links)
            return slide_fail(err, SLIDE_EIO, "cannot open %s: it is a symbolic link, "
                              "and slide reads only regular files here", path);
        return slide_fail(err, SLIDE_EIO, "cannot open %s: %s", path, strerror(errno));
    }
    struct stat sb;
    if (fstat(fd, &sb) != 0) {
        int e = errno;
        close(fd);
        return slide_fail(err, SLIDE_EIO, "cannot examine %s: %s", path, strerror(e));
    }
    if (!S_ISREG(sb.st_mode)) {
        close(fd);
        return slide_fail(err, SLIDE_EIO, "%s is %s, not a regular file", path,
                          file_kind_name(sb.st_mode));
    }
    if (fcntl(fd, F_SETFL, flags & ~O_NONBLOCK & ~O_CLOEXEC & ~O_NOFOLLOW) != 0) {
        int e = errno;
        close(fd);
        return slide_fail(err, SLIDE_EIO, "cannot read %s: %s", path, strerror(e));
    }
    return fd;
}
