/* SPDX-License-Identifier: MIT
 * cosim_family.c - look-ups in the generated family table (cosim_family.h; the table itself is
 * written by cosim/block_meta.cmake from configs/rtl/<b>.ini).
 */
#include "cosim_family.h"

#include <stdio.h>
#include <string.h>

const struct hd_cosim_family *hd_cosim_family_find(const char *name)
{
    for (unsigned i = 0; i < hd_cosim_nfamilies; i++)
        if (strcmp(hd_cosim_families[i].name, name) == 0)
            return &hd_cosim_families[i];
    return NULL;
}

const char *hd_cosim_family_names(char *buf, size_t len, bool observer_only)
{
    size_t at = 0;
    if (len == 0)
        return buf;
    buf[0] = '\0';
    for (unsigned i = 0; i < hd_cosim_nfamilies; i++) {
        const struct hd_cosim_family *f = &hd_cosim_families[i];
        if (observer_only && f->loop_only)
            continue;
        int n = snprintf(buf + at, len - at, "%s%s", at ? ", " : "", f->name);
        if (n < 0 || (size_t)n >= len - at)
            break; /* truncated: the message stays a prefix */
        at += (size_t)n;
    }
    return buf;
}

unsigned hd_cosim_family_nsettings(const char *list)
{
    if (!list || !*list)
        return 0;
    unsigned n = 1;
    for (const char *p = list; *p; p++)
        n += *p == ',';
    return n;
}

const char *hd_cosim_family_setting(const char *list, unsigned n, char *buf, size_t len,
                                    size_t *keylen)
{
    if (!list || !*list)
        return NULL;
    const char *p = list;
    for (unsigned k = 0; k < n; k++) {
        p = strchr(p, ',');
        if (!p)
            return NULL;
        p++;
    }
    const char *end = strchr(p, ',');
    size_t l = end ? (size_t)(end - p) : strlen(p);
    const char *eq = memchr(p, '=', l);
    if (l + 1 > len || !eq)
        return NULL;
    memcpy(buf, p, l);
    buf[l] = '\0';
    *keylen = (size_t)(eq - p);
    return buf;
}
