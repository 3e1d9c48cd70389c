/* SPDX-License-Identifier: MIT
 * cta_dist_locality.h - Gong's locality-aware block distributor (thesis ch.6, §6.3.1, Fig 6.8;
 * digest ../shared/reference/papers/gong-thesis-haws-locality.md §2.10, §3.7, §8 item 28).
 *
 * Design: [timing] cta_dist = locality. The launch's hint is Table 6.1's 2-bit locality class
 * (its low two bits; heddle run --hint, [timing] workload_hint). Hint 0 is the round-robin
 * distributor exactly (the same SM for every CTA as cta_dist = round_robin). Hints 1-3 give
 * adjacent CTAs to the same SM, in chunks of C = [timing] cta_dist_chunk CTAs (0: ceil(CTAs /
 * SMs)); the thesis says only "adjacent blocks to the same SM" (Fig 6.8 is lost), so the order
 * is [timing] cta_dist_order:
 *   linear  the CTA scheduler's own order (x fastest). The current chunk's SM takes each next
 *           CTA until it holds C of them (or has no room); then the next SM in round-robin
 *           order with room starts the next chunk. The distributor places one CTA per SM per
 *           cycle, so a chunk of C takes C cycles to place (the other SMs wait their turn).
 *   column  y fastest: CTA (x, y, z) has position x * gy + y + z * gx * gy, and its SM is
 *           (position / C) mod SMs, so vertical neighbours (hint 2's shared boundary rows) meet;
 *           when that SM has no room the next SM in ring order that has takes it.
 *   keep    each SM owns one range of consecutive linear CTA indices for the whole launch: SM i
 *           the CTAs [i * C, (i + 1) * C) with C = max(cta_dist_chunk, ceil(CTAs / SMs)). Every
 *           SM with room may take a CTA (round-robin over them, one per SM per cycle, as hint 0)
 *           and receives the next CTA of its own range, in the first wave and after it: a freed
 *           slot continues the SM's range instead of taking the next CTA in global order (the
 *           CTA scheduler asks the policy's cta()). An SM whose range is used up takes the last
 *           unplaced CTA of the first SM after it in ring order that has some (so no SM idles
 *           while CTAs wait; the victim keeps its front). A context coming back is placed
 *           round-robin. State per launch with CTAs left: each SM's next and end index.
 * A chunk never spans two launches. State: the SM that received the last CTA, how many CTAs of
 * the current chunk it received, and the chunk's launch.
 */
#ifndef HD_CTA_DIST_LOCALITY_H
#define HD_CTA_DIST_LOCALITY_H

#include "cta_dist.h"

/* The hint bits the locality policies read (Table 6.1: 0 none, 1-3 the classes). */
#define HD_LOCALITY_HINT(h) ((h) & 3u)

/* Returns 0, or -1 on allocation failure. */
int hd_cta_dist_locality_create(uint32_t nsms, uint32_t chunk, enum hd_cfg_chunkorder order,
                                struct hd_cta_dist *out);

#endif
