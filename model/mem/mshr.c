/* SPDX-License-Identifier: MIT
 * mshr.c - miss status holding registers (see mshr.h).
 */
#include "mshr.h"

#include <stdlib.h>
#include <string.h>

static uint32_t hslot(const struct hd_mshr *m, uint64_t line)
{
    uint64_t h = line * 0x9e3779b97f4a7c15ull;
    return (uint32_t)(h >> 32) & (m->hcap - 1);
}

int hd_mshr_init(struct hd_mshr *m, uint32_t entries, uint32_t merge)
{
    memset(m, 0, sizeof *m);
    m->entries = entries;
    m->merge = merge;
    m->hcap = 4;
    while (m->hcap < 2 * entries)
        m->hcap *= 2;
    m->line = calloc(entries, sizeof *m->line);
    m->count = calloc(entries, sizeof *m->count);
    m->waiter = calloc((size_t)entries * merge, sizeof *m->waiter);
    m->since = calloc(entries, sizeof *m->since);
    m->next_free = calloc(entries, sizeof *m->next_free);
    m->hash = malloc(m->hcap * sizeof *m->hash);
    if (!m->line || !m->count || !m->waiter || !m->since || !m->next_free || !m->hash) {
        hd_mshr_free(m);
        return -1;
    }
    hd_mshr_reset(m);
    return 0;
}

void hd_mshr_free(struct hd_mshr *m)
{
    free(m->line);
    free(m->count);
    free(m->waiter);
    free(m->since);
    free(m->next_free);
    free(m->hash);
    memset(m, 0, sizeof *m);
}

void hd_mshr_reset(struct hd_mshr *m)
{
    m->used = 0;
    m->free = HD_MSHR_NONE;
    for (uint32_t e = m->entries; e-- > 0;) {
        m->count[e] = 0;
        m->next_free[e] = m->free;
        m->free = e;
    }
    for (uint32_t i = 0; i < m->hcap; i++)
        m->hash[i] = HD_MSHR_NONE;
}

uint32_t hd_mshr_find(const struct hd_mshr *m, uint64_t line)
{
    for (uint32_t i = hslot(m, line);; i = (i + 1) & (m->hcap - 1)) {
        uint32_t e = m->hash[i];
        if (e == HD_MSHR_NONE)
            return HD_MSHR_NONE;
        if (m->line[e] == line)
            return e;
    }
}

uint32_t hd_mshr_alloc(struct hd_mshr *m, uint64_t line, uint64_t now)
{
    if (m->free == HD_MSHR_NONE)
        return HD_MSHR_NONE;
    uint32_t e = m->free;
    m->free = m->next_free[e];
    m->line[e] = line;
    m->count[e] = 0;
    m->since[e] = now;
    m->used++;
    uint32_t i = hslot(m, line);
    while (m->hash[i] != HD_MSHR_NONE)
        i = (i + 1) & (m->hcap - 1);
    m->hash[i] = e;
    return e;
}

void hd_mshr_release(struct hd_mshr *m, uint32_t e)
{
    const uint32_t mask = m->hcap - 1;
    uint32_t i = hslot(m, m->line[e]);
    while (m->hash[i] != e)
        i = (i + 1) & mask;
    /* backward-shift deletion */
    uint32_t j = i;
    for (;;) {
        j = (j + 1) & mask;
        uint32_t f = m->hash[j];
        if (f == HD_MSHR_NONE)
            break;
        uint32_t home = hslot(m, m->line[f]);
        /* can f move to i? yes if its home is not cyclically in (i, j] */
        bool in_range = i <= j ? (home > i && home <= j) : (home > i || home <= j);
        if (!in_range) {
            m->hash[i] = f;
            i = j;
        }
    }
    m->hash[i] = HD_MSHR_NONE;
    m->count[e] = 0;
    m->next_free[e] = m->free;
    m->free = e;
    m->used--;
}
