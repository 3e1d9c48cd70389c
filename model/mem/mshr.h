/* SPDX-License-Identifier: MIT
 * mshr.h - miss status holding registers: one entry per line being fetched, holding the
 * requests waiting for it (the miss itself and the ones merged into it).
 *
 * Design: `entries` entries of up to `merge` waiters each (32-bit ids of the owner's choosing),
 * found by line number through a small open-addressing hash (linear probing, deletion by
 * backward shift), so lookups cost the same with 2 or 256 entries. A request for a line that
 * has an entry merges while the entry has room; a request for a new line needs a free entry.
 * Allocation order is a free list, so entry numbers are deterministic. The owner reports
 * allocation events to the statistics (Gong ch.6 duplicate-MSHR monitor) itself.
 */
#ifndef HD_MSHR_H
#define HD_MSHR_H

#include <stdbool.h>
#include <stdint.h>

#define HD_MSHR_NONE 0xffffffffu

struct hd_mshr {
    uint32_t entries, merge, used;
    uint64_t *line;     /* [entries] */
    uint32_t *count;    /* [entries] waiters */
    uint32_t *waiter;   /* [entries * merge] */
    uint64_t *since;    /* [entries] allocation time (owner's clock) */
    uint32_t *next_free;
    uint32_t free;
    uint32_t *hash;     /* [hcap] entry index or NONE */
    uint32_t hcap;
};

int hd_mshr_init(struct hd_mshr *m, uint32_t entries, uint32_t merge);
void hd_mshr_free(struct hd_mshr *m);
uint32_t hd_mshr_find(const struct hd_mshr *m, uint64_t line);
/* A new entry for line with no waiters, or HD_MSHR_NONE if all are in use. */
uint32_t hd_mshr_alloc(struct hd_mshr *m, uint64_t line, uint64_t now);
static inline bool hd_mshr_full(const struct hd_mshr *m)
{
    return m->used >= m->entries;
}
static inline bool hd_mshr_has_room(const struct hd_mshr *m, uint32_t e)
{
    return m->count[e] < m->merge;
}
static inline void hd_mshr_add(struct hd_mshr *m, uint32_t e, uint32_t waiter)
{
    m->waiter[(uint64_t)e * m->merge + m->count[e]++] = waiter;
}
static inline const uint32_t *hd_mshr_waiters(const struct hd_mshr *m, uint32_t e)
{
    return &m->waiter[(uint64_t)e * m->merge];
}
void hd_mshr_release(struct hd_mshr *m, uint32_t e);
/* Release every entry. */
void hd_mshr_reset(struct hd_mshr *m);

#endif
