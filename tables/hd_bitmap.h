/* SPDX-License-Identifier: MIT
 * hd_bitmap.h - tables/: the C references of table-like hardware blocks (context tables,
 * allocation bitmaps, mapping tables of Lin ch.2, GPUDuet, Zorua, EXPARS), each beside its RTL
 * in rtl/<block>/ and registered by model/hw/hw_blocks.cmake. This file is the first generic
 * helper they share: a fixed-size allocation bitmap (one bit per unit: a register bank row, a
 * warp slot, a scratchpad chunk) with the first-fit search an allocator's priority encoder does.
 *
 * Design: the caller owns the words (uint64_t[HD_BITMAP_WORDS(n)]); bit i of the map is bit
 * i % 64 of word i / 64; bits at or above n are kept 0. No allocation, no globals. A region whose
 * base is a multiple of 64 is a view of the same words ({w + base / 64, units}): GPUDuet's
 * unified storage (Lin thesis §3.7, issue 28) is one 3,072-bit map whose RF (0x000), shared
 * memory (0x800) and L1D (0xB00) regions are such views, each with its own first fit and count
 * (tests/unit/test_hd_bitmap.c).
 */
#ifndef HD_BITMAP_H
#define HD_BITMAP_H

#include <stdbool.h>
#include <stdint.h>

#define HD_BITMAP_WORDS(n) (((n) + 63u) / 64u)

struct hd_bitmap {
    uint64_t *w;
    uint32_t n; /* bits */
};

/* All bits clear. */
void hd_bitmap_clear_all(struct hd_bitmap *m);
bool hd_bitmap_test(const struct hd_bitmap *m, uint32_t i);
/* Set or clear bits [first, first + count) (count may be 0; the range must fit in n). */
void hd_bitmap_set_range(struct hd_bitmap *m, uint32_t first, uint32_t count);
void hd_bitmap_clear_range(struct hd_bitmap *m, uint32_t first, uint32_t count);
/* Bits set. */
uint32_t hd_bitmap_count(const struct hd_bitmap *m);
/* The lowest first index of `count` consecutive clear bits starting at a multiple of `align`
 * (>= 1), or UINT32_MAX if none (first fit, what a priority encoder over free runs finds). */
uint32_t hd_bitmap_find_clear_run(const struct hd_bitmap *m, uint32_t count, uint32_t align);

#endif
