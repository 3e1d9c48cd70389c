/* SPDX-License-Identifier: MIT
 * coalesce.c - transaction sizes for the coalescer (see coalesce.h).
 */
#include "coalesce.h"

static uint64_t span_mask(uint32_t lo, uint32_t n)
{
    uint64_t m = n >= 64 ? ~0ull : (1ull << n) - 1;
    return m << lo;
}

uint64_t hd_mem_sector_mask(uint64_t seg_addr, uint32_t seg_bytes, uint64_t a, uint32_t bytes)
{
    const uint64_t end = a + (bytes ? bytes : 1);
    const uint64_t lo = a > seg_addr ? a - seg_addr : 0;
    const uint64_t hi = end < seg_addr + seg_bytes ? end - seg_addr : seg_bytes;
    if (end <= seg_addr || lo >= seg_bytes)
        return 0;
    const uint32_t s0 = (uint32_t)(lo / HD_SECTOR_BYTES), s1 = (uint32_t)((hi - 1) / HD_SECTOR_BYTES);
    return span_mask(s0, s1 - s0 + 1);
}

void hd_mem_segment_trim(uint64_t seg_addr, uint32_t seg_bytes, uint64_t mask, uint64_t *addr,
                         uint32_t *bytes)
{
    uint32_t first = 0, n = seg_bytes / HD_SECTOR_BYTES; /* the block: sectors [first, first+n) */
    while (n > 1) {
        const uint32_t h = n / 2;
        if (!(mask & span_mask(first + h, h)))
            n = h; /* all in the lower half */
        else if (!(mask & span_mask(first, h))) {
            first += h;
            n = h; /* all in the upper half */
        } else {
            break;
        }
    }
    *addr = seg_addr + (uint64_t)first * HD_SECTOR_BYTES;
    *bytes = n * HD_SECTOR_BYTES;
}

unsigned hd_mem_segment_sectors(uint64_t seg_addr, uint32_t seg_bytes, uint64_t mask,
                                uint64_t *out, unsigned max)
{
    unsigned k = 0;
    for (uint32_t i = 0; i < seg_bytes / HD_SECTOR_BYTES && i < 64 && k < max; i++)
        if (mask >> i & 1u)
            out[k++] = seg_addr + (uint64_t)i * HD_SECTOR_BYTES;
    return k;
}
