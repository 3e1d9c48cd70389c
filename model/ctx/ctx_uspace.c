/* SPDX-License-Identifier: MIT
 * ctx_uspace.c - the unified on-chip space allocator of context storage (issue 25 item 3;
 * ctx_uspace.h has the address format; docs/mover.md): a bitmap per array, first fit.
 */
#include "ctx_uspace.h"

#include <stdlib.h>
#include <string.h>

int hd_uspace_init(struct hd_uspace *u, const uint32_t max_units[HD_UA_COUNT])
{
    memset(u, 0, sizeof *u);
    for (unsigned a = 0; a < HD_UA_COUNT; a++) {
        u->max[a] = u->cap[a] = max_units[a] < HD_UADDR_UNIT_MASK ? max_units[a]
                                                                   : HD_UADDR_UNIT_MASK;
        u->map[a] = calloc(u->max[a] / 64 + 1, sizeof *u->map[a]);
        if (!u->map[a]) {
            hd_uspace_free(u);
            return -1;
        }
    }
    return 0;
}

void hd_uspace_free(struct hd_uspace *u)
{
    for (unsigned a = 0; a < HD_UA_COUNT; a++) {
        free(u->map[a]);
        u->map[a] = NULL;
    }
}

static bool bit(const uint64_t *m, uint32_t i)
{
    return (m[i / 64] >> (i % 64)) & 1u;
}

static void set_bits(uint64_t *m, uint32_t i, uint32_t n, bool v)
{
    for (uint32_t k = i; k < i + n; k++) {
        if (v)
            m[k / 64] |= 1ull << (k % 64);
        else
            m[k / 64] &= ~(1ull << (k % 64));
    }
}

int hd_uspace_set_cap(struct hd_uspace *u, enum hd_uarray a, uint32_t units)
{
    if ((unsigned)a >= HD_UA_COUNT || units > u->max[a])
        return -1;
    for (uint32_t i = units; i < u->cap[a]; i++)
        if (bit(u->map[a], i))
            return -1;
    u->cap[a] = units;
    return 0;
}

uint32_t hd_uspace_alloc(struct hd_uspace *u, enum hd_uarray a, uint64_t bytes)
{
    if ((unsigned)a >= HD_UA_COUNT || bytes == 0)
        return HD_UADDR_NONE;
    const uint64_t n = (bytes + HD_UADDR_UNIT - 1) / HD_UADDR_UNIT;
    if (n > u->cap[a] - u->used[a])
        return HD_UADDR_NONE;
    uint32_t run = 0;
    for (uint32_t i = 0; i < u->cap[a]; i++) {
        run = bit(u->map[a], i) ? 0 : run + 1;
        if (run == n) {
            const uint32_t first = i + 1 - run;
            set_bits(u->map[a], first, run, true);
            u->used[a] += run;
            return hd_uaddr_make(a, first);
        }
    }
    return HD_UADDR_NONE;
}

int hd_uspace_release(struct hd_uspace *u, uint32_t ua, uint64_t bytes)
{
    const uint32_t a = hd_uaddr_array(ua), first = hd_uaddr_unit(ua);
    const uint64_t n = (bytes + HD_UADDR_UNIT - 1) / HD_UADDR_UNIT;
    if (!hd_uaddr_valid(ua) || n == 0 || first + n > u->cap[a])
        return -1;
    for (uint64_t i = first; i < first + n; i++)
        if (!bit(u->map[a], (uint32_t)i))
            return -1;
    set_bits(u->map[a], first, (uint32_t)n, false);
    u->used[a] -= (uint32_t)n;
    return 0;
}
