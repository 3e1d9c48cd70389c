/* SPDX-License-Identifier: MIT
 * ptx_module.c - queries over a parsed module (function lookup, kernel parameter layout), reading
 * a PTX file, and freeing a module.
 *
 * Parameter layout follows the CUDA kernel ABI: parameters in declaration order, each at the next
 * multiple of its alignment (the explicit .align, else the element type's natural size); the
 * buffer's size is the end of the last parameter.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static uint64_t align_up(uint64_t v, uint64_t a)
{
    return a > 1 ? (v + a - 1) / a * a : v;
}

uint64_t hd_ptx_param_offset(const struct hd_func *f, uint32_t param_index)
{
    uint64_t off = 0;
    for (uint32_t k = 0; k < f->nparams; k++) {
        off = align_up(off, f->params[k].align);
        if (k == param_index)
            return off;
        off += f->params[k].size;
    }
    return off;
}

uint64_t hd_ptx_param_bytes(const struct hd_func *f)
{
    if (f->nparams == 0)
        return 0;
    const struct hd_var *last = &f->params[f->nparams - 1];
    return hd_ptx_param_offset(f, f->nparams - 1) + last->size;
}

struct hd_module *hd_ptx_parse_file(const char *path, char *err, size_t errlen)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        if (err && errlen)
            snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    while (buf) {
        if (len == cap) {
            if (cap > HD_PTX_MAX_INPUT) {
                free(buf);
                fclose(fp);
                if (err && errlen)
                    snprintf(err, errlen, "%s: cannot read: larger than %u MiB", path,
                             HD_PTX_MAX_INPUT >> 20);
                return NULL;
            }
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
        size_t n = fread(buf + len, 1, cap - len, fp);
        len += n;
        if (n == 0)
            break;
    }
    int read_error = ferror(fp);
    fclose(fp);
    if (!buf || read_error) {
        const char *why = buf ? "I/O error" : "out of memory";
        free(buf);
        if (err && errlen)
            snprintf(err, errlen, "%s: cannot read: %s", path, why);
        return NULL;
    }
    struct hd_module *m = hd_ptx_parse(buf, len, path, err, errlen);
    free(buf);
    return m;
}

void hd_ptx_module_free(struct hd_module *m)
{
    if (m)
        hd_ptx_arena_destroy(m->arena);
}
