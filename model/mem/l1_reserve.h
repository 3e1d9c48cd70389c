/* SPDX-License-Identifier: MIT
 * l1_reserve.h - L1 data-cache ways reserved for contexts (issue 25 item 3; docs/mover.md):
 * the top `ways` ways of every set are taken out of the cache for the context mover's L1D
 * region (GPUDuet §4 keeps switched-out warps in spare L1 capacity; Zorua §4 maps contexts onto
 * any on-chip array) and given back later.
 *
 * Design: a reserved way is a pinned tag entry: a tag no line can have (all ones minus the
 * entry), no valid or dirty sector and the largest LRU stamp, so lookups never hit it and
 * neither replacement rule (cache_tags.h: an invalid way, else the least recently used; a way
 * not awaiting data) ever picks it while one way of the set is not reserved, and a launch's
 * L1 flush skips it. Reserving writes back the dirty sectors of the lines it displaces as real
 * transactions through the miss queue (class CONTEXT, the launch named by the caller); clean
 * lines are dropped. A fill that returns for a displaced line installs it in another way.
 * Giving back leaves the ways invalid (the cache refills them on demand).
 */
#ifndef HD_L1_RESERVE_H
#define HD_L1_RESERVE_H

#include "cache_tags.h"
#include "l1.h"

#include <stdbool.h>
#include <stdint.h>

static inline bool hd_tags_pinned(const struct hd_tags *t, uint32_t e)
{
    return t->tag[e] == UINT64_MAX - e;
}

/* Ways of every set of t taken out (the top ones) by pinning or releasing; calls wb(arg, e)
 * for each displaced entry with dirty sectors before dropping it. Keeps at least one way.
 * Returns the ways reserved afterwards (what was asked, clipped to ways - 1). */
uint32_t hd_tags_reserve(struct hd_tags *t, uint32_t ways, void (*wb)(void *arg, uint32_t e),
                         void *arg);
/* Ways of t reserved now (counted in set 0). */
uint32_t hd_tags_reserved(const struct hd_tags *t);
/* The L1D of l: reserve `ways` ways (0 gives every way back); dirty lines written back as
 * transactions of launch `kernel`. Returns the ways reserved and sets *writebacks. */
uint32_t hd_l1_reserve_ways(struct hd_l1 *l, uint32_t ways, uint32_t kernel, uint64_t now,
                            uint32_t *writebacks);

#endif
