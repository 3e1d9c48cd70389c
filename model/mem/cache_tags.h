/* SPDX-License-Identifier: MIT
 * cache_tags.h - a set-associative tag array with LRU replacement and per-sector valid and
 * dirty masks (used by the L1 data cache, the constant cache and the L2 slices).
 *
 * Design: a line is divided into up to 64 sectors (32 bytes each for lines up to 2 KB). A line
 * is present when its tag matches; the bytes an access needs are present when all their sectors
 * are valid. This lets write-allocate caches (local stores at the L1, every write at the L2)
 * allocate a line on a write without fetching it ("write-validate" at sector granularity): a
 * later read of sectors that were never written misses and fetches the line, and the fill keeps
 * the dirty sectors. Tags store the whole line number, so the set-index function (linear, or an
 * xor of the next higher index-width groups as an approximation of GPGPU-Sim's Fermi hash)
 * cannot alias. LRU is a per-line stamp from a per-array counter (deterministic).
 */
#ifndef HD_CACHE_TAGS_H
#define HD_CACHE_TAGS_H

#include <stdbool.h>
#include <stdint.h>

#define HD_TAGS_NONE 0xffffffffu

struct hd_tags {
    uint32_t sets, ways, line, shift, set_bits, sector_shift;
    bool xor_index;
    uint64_t *tag;   /* [sets * ways] line number + 1; 0 = invalid */
    uint64_t *stamp; /* [sets * ways] LRU: larger = more recent */
    uint64_t *valid; /* [sets * ways] sector masks */
    uint64_t *dirty;
    uint64_t clock;
};

int hd_tags_init(struct hd_tags *t, uint32_t sets, uint32_t ways, uint32_t line, bool xor_index);
void hd_tags_free(struct hd_tags *t);
/* The sectors of [addr, addr + bytes) within addr's line (bytes beyond the line are ignored). */
uint64_t hd_tags_sectors(const struct hd_tags *t, uint64_t addr, uint32_t bytes);
/* All sectors of a line. */
uint64_t hd_tags_all(const struct hd_tags *t);
/* The entry holding addr's line, or HD_TAGS_NONE. */
uint32_t hd_tags_find(const struct hd_tags *t, uint64_t addr);
void hd_tags_touch(struct hd_tags *t, uint32_t e);
/* The entry to replace for addr's line: an invalid way, else the least recently used. */
uint32_t hd_tags_victim(const struct hd_tags *t, uint64_t addr);
/* The same, but never a reserved entry (a line installed with no valid sector: allocated on
 * a miss, its data not yet back); HD_TAGS_NONE if every way of the set is reserved. */
uint32_t hd_tags_victim_unreserved(const struct hd_tags *t, uint64_t addr);
/* The first byte address of the line in entry e (valid entries only). */
uint64_t hd_tags_addr(const struct hd_tags *t, uint32_t e);
/* Make e hold addr's line with no valid sectors, most recently used. */
void hd_tags_install(struct hd_tags *t, uint32_t e, uint64_t addr);
void hd_tags_invalidate(struct hd_tags *t, uint32_t e);

static inline uint64_t hd_tags_line(const struct hd_tags *t, uint64_t addr)
{
    return addr >> t->shift;
}

#endif
