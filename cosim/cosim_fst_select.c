/* SPDX-License-Identifier: MIT
 * cosim_fst_select.c - which blocks' RTL-internal signals go in the FST (`--fst-internal`,
 * cosim_fst.h; issue 16 item 5): the name list and its check against the block registry and
 * this build's internal-signal models. Apart from cosim_fst.c so that programs which only write
 * FST files (the SystemC testbenches) need no RTL registry.
 */
#include "cosim_fst.h"

#include <stdio.h>
#include <string.h>

bool hd_cosim_fst_names(const char *list, const char *block)
{
    if (!list)
        return false;
    if (strcmp(list, "all") == 0)
        return true;
    size_t n = strlen(block);
    for (const char *p = list; *p;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len == n && strncmp(p, block, n) == 0)
            return true;
        if (!e)
            break;
        p = e + 1;
    }
    return false;
}

/* 0 if block b has an internal-signal model, else -1 with a message. */
static int has_internal(const char *b, char *err, size_t errlen)
{
    if (hd_cosim_rtl_find_internal(b))
        return 0;
    snprintf(err, errlen, "--fst-internal %s: this build has no RTL model of it with internal "
                          "signals (%s; configure with Verilator and -DHD_COSIM_INTERNAL=ON)", b,
             hd_cosim_rtl_kind());
    return -1;
}

int hd_cosim_fst_internal_check(const char *list, char *err, size_t errlen)
{
    if (strcmp(list, "all") == 0) {
        for (unsigned i = 0; i < hd_hw_ref_count(); i++)
            if (has_internal(hd_hw_ref_at(i)->b->name, err, errlen) != 0)
                return -1;
        return 0;
    }
    char names[512];
    hd_hw_ref_names(names, sizeof names);
    for (const char *p = list;;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        char b[64];
        if (len == 0 || len >= sizeof b) {
            snprintf(err, errlen, "--fst-internal needs 'all' or block names separated by "
                                  "commas, not '%s'", list);
            return -1;
        }
        memcpy(b, p, len);
        b[len] = '\0';
        if (!hd_hw_ref_find(b)) {
            snprintf(err, errlen, "--fst-internal: no hardware block '%s' (blocks: %s)", b, names);
            return -1;
        }
        if (has_internal(b, err, errlen) != 0)
            return -1;
        if (!e)
            return 0;
        p = e + 1;
    }
}
