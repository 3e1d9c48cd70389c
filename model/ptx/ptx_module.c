/* SPDX-License-Identifier: MIT
 * ptx_module.c - queries over a parsed module (function lookup, kernel parameter layout), reading
 * a PTX file, and freeing a module.
 *
 * Parameter layout follows the CUDA kernel ABI: parameters in declaration order, each at the next
 * multiple of its alignment (the explicit .align, else the element type's natural size); the
 * buffer's size is the end of the last parameter. The parser stores each parameter's offset, so
 * a lookup is O(1) (100k parameters used to cost a rescan per lookup). A file is read with a cap
 * (HD_PTX_MAX_INPUT) whatever it is: a regular file is refused by its size before reading, a
 * device or pipe after HD_PTX_MAX_INPUT + 1 bytes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ptx_arena.h"
#include "ptx_parse.h"
#include "ptx_parser.h"

int hd_ptx_find_func(const struct hd_module *m, const char *name)
{
    if (!m || !name)
        return -1;
    for (uint32_t i = 0; i < m->nfuncs; i++)
        if (strcmp(m->funcs[i].name, name) == 0)
            return (int)i;
    return -1;
}

uint64_t hd_ptx_param_offset(const struct hd_func *f, uint32_t param_index)
{
    if (param_index < f->nparams)
        return f->params[param_index].offset; /* computed by the parser: O(1) */
    return hd_ptx_param_bytes(f);
}

uint64_t hd_ptx_param_bytes(const struct hd_func *f)
{
    if (f->nparams == 0)
        return 0;
    const struct hd_var *last = &f->params[f->nparams - 1];
    return last->offset + last->size;
}

char *hd_ptx_read_file(const char *path, size_t *len, char *err, size_t errlen)
{
    FILE *fp = fopen(path, "rb");
    struct stat st;
    int e = 0;
    if (!fp) {
        e = errno;
        snprintf(err, errlen, "%s: cannot read: %s", path, strerror(e));
        errno = e;
        return NULL;
    }
    if (fstat(fileno(fp), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(fp);
        snprintf(err, errlen, "%s: is a directory, not a PTX file", path);
        errno = EISDIR;
        return NULL;
    }
    if (fstat(fileno(fp), &st) == 0 && S_ISREG(st.st_mode) &&
        (uint64_t)st.st_size > HD_PTX_MAX_INPUT) { /* refused before reading */
        fclose(fp);
        snprintf(err, errlen, "%s: cannot read: larger than %u MiB", path, HD_PTX_MAX_INPUT >> 20);
        errno = EFBIG;
        return NULL;
    }
    /* read at most HD_PTX_MAX_INPUT + 1 bytes, whatever the file is (/dev/zero, a pipe) */
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        if (n == cap) {
            if (cap > HD_PTX_MAX_INPUT)
                break;
            size_t ncap = cap * 2 > (size_t)HD_PTX_MAX_INPUT + 1 ? (size_t)HD_PTX_MAX_INPUT + 1
                                                                 : cap * 2;
            char *nb = realloc(buf, ncap);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap = ncap;
        }
        size_t got = fread(buf + n, 1, cap - n, fp);
        n += got;
        if (got == 0)
            break;
    }
    if (ferror(fp))
        e = errno ? errno : EIO;
    fclose(fp);
    if (!buf || e || n > HD_PTX_MAX_INPUT) {
        if (!buf)
            snprintf(err, errlen, "%s: cannot read: out of memory", path);
        else if (e)
            snprintf(err, errlen, "%s: cannot read: %s", path, strerror(e));
        else
            snprintf(err, errlen, "%s: cannot read: larger than %u MiB", path,
                     HD_PTX_MAX_INPUT >> 20);
        free(buf);
        errno = !buf ? ENOMEM : e ? e : EFBIG;
        return NULL;
    }
    *len = n;
    return buf;
}

struct hd_module *hd_ptx_parse_file(const char *path, char *err, size_t errlen)
{
    char scratch[1];
    if (!err || !errlen)
        err = scratch, errlen = sizeof scratch;
    size_t len = 0;
    char *buf = hd_ptx_read_file(path, &len, err, errlen);
    if (!buf)
        return NULL;
    struct hd_module *m = hd_ptx_parse(buf, len, path, err, errlen);
    free(buf);
    return m;
}

void hd_ptx_module_free(struct hd_module *m)
{
    if (m)
        hd_ptx_arena_destroy(m->arena);
}
