/* SPDX-License-Identifier: MIT
 * hd_outfile.c - atomic output files (temporary file + rename); see hd_outfile.h.
 */
#define _XOPEN_SOURCE 700 /* realpath, fchmod */
#include "hd_outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int fail(char *why, size_t whylen, const char *what, int e)
{
    if (what && e)
        snprintf(why, whylen, "%s: %s", what, strerror(e));
    else
        snprintf(why, whylen, "%s", what ? what : strerror(e));
    return -1;
}

/* "dir/name" -> "dir/.name.tmp-XXXXXX" (malloc'd), NULL when out of memory */
static char *temp_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0;
    size_t n = strlen(path) + 16;
    char *t = malloc(n);
    if (t)
        snprintf(t, n, "%.*s.%s.tmp-XXXXXX", (int)dirlen, path, path + dirlen);
    return t;
}

int hd_outfile_open(struct hd_outfile *o, const char *path, bool by_name, char *why,
                    size_t whylen)
{
    memset(o, 0, sizeof *o);
    o->path = path;
    if (!path || !path[0])
        return fail(why, whylen, "empty path", 0);
    if (path[strlen(path) - 1] == '/')
        return fail(why, whylen, "names a directory, not a file", 0);
    struct stat st;
    mode_t mode;
    if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode) && (o->real = realpath(path, NULL)) != NULL)
        path = o->real; /* replace the file the link names, keep the link */
    if (stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            hd_outfile_discard(o);
            return fail(why, whylen, "is a directory", 0);
        }
        if (!S_ISREG(st.st_mode)) { /* /dev/null, a FIFO, a terminal: write in place */
            o->name = path;
            if (by_name)
                return 0;
            o->f = fopen(path, "wb");
            if (o->f)
                return 0;
            int e = errno;
            hd_outfile_discard(o);
            return fail(why, whylen, NULL, e);
        }
        mode = st.st_mode & 07777;
    } else {
        mode_t mask = umask(0);
        umask(mask);
        mode = 0666 & ~mask;
    }
    o->tmp = temp_name(path);
    if (!o->tmp) {
        hd_outfile_discard(o);
        return fail(why, whylen, "out of memory", 0);
    }
    int fd = mkstemp(o->tmp);
    if (fd < 0) {
        int e = errno;
        free(o->tmp);
        o->tmp = NULL;
        hd_outfile_discard(o);
        return fail(why, whylen, "cannot write", e);
    }
    o->name = o->tmp;
    if (fchmod(fd, mode) != 0) { /* keep going: only the permissions differ */
    }
    if (by_name) {
        close(fd);
        return 0;
    }
    o->f = fdopen(fd, "wb");
    if (!o->f) {
        int e = errno;
        close(fd);
        hd_outfile_discard(o);
        return fail(why, whylen, NULL, e);
    }
    return 0;
}

int hd_outfile_commit(struct hd_outfile *o, char *why, size_t whylen)
{
    if (!o->name)
        return fail(why, whylen, "not open", 0);
    int bad = 0, e = 0;
    if (o->f) {
        errno = 0;
        bad = fflush(o->f) != 0 || ferror(o->f);
        e = errno;
        if (!bad && o->tmp && fsync(fileno(o->f)) != 0)
            bad = 1, e = errno;
        if (fclose(o->f) != 0 && !bad)
            bad = 1, e = errno;
        o->f = NULL;
    } else if (o->tmp) { /* written by name: make it durable before it replaces the target */
        int fd = open(o->tmp, O_RDONLY);
        if (fd < 0)
            bad = 1, e = errno;
        else {
            if (fsync(fd) != 0)
                bad = 1, e = errno;
            close(fd);
        }
    }
    if (!bad && o->tmp && rename(o->tmp, o->real ? o->real : o->path) != 0)
        bad = 1, e = errno;
    if (bad) {
        hd_outfile_discard(o);
        return fail(why, whylen, e ? "cannot write" : "cannot write: write error", e);
    }
    free(o->tmp);
    free(o->real);
    o->tmp = o->real = NULL;
    o->name = NULL;
    return 0;
}

void hd_outfile_discard(struct hd_outfile *o)
{
    if (o->f)
        fclose(o->f);
    o->f = NULL;
    if (o->tmp) {
        unlink(o->tmp);
        free(o->tmp);
        o->tmp = NULL;
    }
    free(o->real);
    o->real = NULL;
    o->name = NULL;
}
