/* SPDX-License-Identifier: MIT
 * ctx_uspace.h - unified on-chip space addresses for context storage (issue 25 item 3;
 * docs/mover.md): where each piece of a context lives on the SM - the register file, shared
 * memory or a region of the L1 data cache reserved for contexts - named in 128-byte units,
 * with a small first-fit allocator per array (Zorua §4's unified physical resource space;
 * GPUDuet's spare on-chip storage; Virtual Thread's inactive TBs kept on chip).
 *
 * Address format (a 32-bit word):
 *   bits 31..29  array: 0 register file, 1 shared memory, 2 L1D context region (3..7 invalid)
 *   bits 28..0   offset in 128-byte units from the start of that array (up to 64 GiB)
 * HD_UADDR_NONE (all ones: array 7) is "no address". 128 bytes is one warp-wide 32-bit
 * register (32 lanes x 4 bytes), an L1D sector group of a 128-byte line and Lin's packer
 * segment, so every piece the engines move is a whole number of units.
 *
 * Design: the allocator knows only capacities and its own allocations (a bitmap per array, one
 * bit per unit); which parts of the register file and shared memory are free of CTAs is the
 * caller's business (sm_alloc.h hands out those arrays); the L1D region's capacity follows the
 * ways reserved from the cache (l1_reserve.h). Deterministic first fit, no host allocation per
 * call after init.
 */
#ifndef HD_CTX_USPACE_H
#define HD_CTX_USPACE_H

#include <stdbool.h>
#include <stdint.h>

enum hd_uarray { HD_UA_RF = 0, HD_UA_SMEM = 1, HD_UA_L1D = 2, HD_UA_COUNT = 3 };

#define HD_UADDR_NONE 0xffffffffu
#define HD_UADDR_UNIT 128u
#define HD_UADDR_ARRAY_SHIFT 29
#define HD_UADDR_UNIT_MASK ((1u << HD_UADDR_ARRAY_SHIFT) - 1u)

static inline uint32_t hd_uaddr_make(enum hd_uarray a, uint32_t unit)
{
    return (uint32_t)a << HD_UADDR_ARRAY_SHIFT | (unit & HD_UADDR_UNIT_MASK);
}
static inline uint32_t hd_uaddr_array(uint32_t ua)
{
    return ua >> HD_UADDR_ARRAY_SHIFT;
}
static inline uint32_t hd_uaddr_unit(uint32_t ua)
{
    return ua & HD_UADDR_UNIT_MASK;
}
static inline bool hd_uaddr_valid(uint32_t ua)
{
    return hd_uaddr_array(ua) < HD_UA_COUNT;
}
/* Units of 128 bytes covering `bytes`. */
static inline uint32_t hd_uaddr_units(uint64_t bytes)
{
    return (uint32_t)((bytes + HD_UADDR_UNIT - 1) / HD_UADDR_UNIT);
}

struct hd_uspace {
    uint32_t cap[HD_UA_COUNT];   /* capacity in units */
    uint32_t used[HD_UA_COUNT];  /* units allocated */
    uint64_t *map[HD_UA_COUNT];  /* [(max + 63) / 64] allocation bitmaps */
    uint32_t max[HD_UA_COUNT];   /* units the bitmaps can describe */
};

/* max_units[a]: the most units array a can ever hold (the bitmap's size); capacities start at
 * those maxima. Returns 0, or -1 on host OOM. */
int hd_uspace_init(struct hd_uspace *u, const uint32_t max_units[HD_UA_COUNT]);
void hd_uspace_free(struct hd_uspace *u);
/* Set array a's capacity (<= its maximum; e.g. the L1D region after a reservation). Returns -1
 * if allocations lie beyond the new capacity (it is then unchanged). */
int hd_uspace_set_cap(struct hd_uspace *u, enum hd_uarray a, uint32_t units);
/* First fit of `bytes` (rounded up to units) in array a: the address, or HD_UADDR_NONE. */
uint32_t hd_uspace_alloc(struct hd_uspace *u, enum hd_uarray a, uint64_t bytes);
/* Give back what hd_uspace_alloc(.., bytes) returned. Returns -1 (nothing changed) if any unit
 * of the range was not allocated. */
int hd_uspace_release(struct hd_uspace *u, uint32_t ua, uint64_t bytes);

#endif
