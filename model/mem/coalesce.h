/* SPDX-License-Identifier: MIT
 * coalesce.h - transaction sizes for the SM's coalescer: the 32-, 64- or 128-byte rule and the
 * split into 32-byte sectors.
 *
 * Design: the LD/ST unit (model/timing/sm_ldst.c) finds the segments (aligned blocks of
 * seg_bytes, a power of two >= 32) that a warp access touches; for each it can record which
 * 32-byte sectors were touched (bit i = bytes [32 i, 32 i + 32) of the segment; up to 64
 * sectors). From that:
 *   trim     GPGPU-Sim's (and CUDA compute capability 1.2/1.3's) rule: while the touched
 *            sectors fit in one half of the block, halve it, down to 32 bytes: one transaction
 *            of 32, 64, ... or seg_bytes bytes per segment;
 *   sectors  one 32-byte transaction per touched sector (sectored caches, Volta and later).
 * Pure functions.
 */
#ifndef HD_COALESCE_H
#define HD_COALESCE_H

#include <stdint.h>

#define HD_SECTOR_BYTES 32u

/* The sectors of segment seg_addr (seg_bytes) that [a, a + bytes) touches. */
uint64_t hd_mem_sector_mask(uint64_t seg_addr, uint32_t seg_bytes, uint64_t a, uint32_t bytes);
/* The smallest aligned power-of-two block (>= 32 bytes) of the segment holding every touched
 * sector (mask != 0). */
void hd_mem_segment_trim(uint64_t seg_addr, uint32_t seg_bytes, uint64_t mask, uint64_t *addr,
                         uint32_t *bytes);
/* The address of each touched sector, in order, into out (at most max). Returns the count. */
unsigned hd_mem_segment_sectors(uint64_t seg_addr, uint32_t seg_bytes, uint64_t mask,
                                uint64_t *out, unsigned max);

#endif
