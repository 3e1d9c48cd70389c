/* SPDX-License-Identifier: MIT
 * zorua_slots.h - the thread-slot mapping table as the timing model keeps it (Zorua Sec. 4.2,
 * digest Sec. 2.7; the TMT, 64 logical warps x 1 warp slot, 7-bit entries on Fermi): logical warp
 * -> warp slot.
 *
 * Design. The TMT is the zorua_map block's C reference at the TMT's sizes (zorua_mt.h: rows =
 * logical warps, one set, units = warp slots), like the RMT and SMT: one copy of the logic, so
 * the table can be the zorua_map block "zorua_map:tmt" in the timing loop (zorua_maploop.h). Its
 * free list is the block's: the lowest free warp slot first. (The model once kept a FIFO free list
 * here because the slot sets the warp's register-bank offset, [timing] bank_warp_offset, and the
 * lowest free slot changes cycles; docs/zorua.md gives the difference. The block decides now.)
 * A warp holds one slot or none; slots are never oversubscribed in the loop (a warp without one
 * waits absent: the substrate's logical warps), so the table's swap limit is 0.
 * Deterministic. No globals.
 */
#ifndef HD_ZORUA_SLOTS_H
#define HD_ZORUA_SLOTS_H

#include "zorua_mt.h"

#include <stdbool.h>
#include <stdint.h>

#define ZSL_NONE ZMT_NONE /* no slot */

struct zslots {
    struct zmt t; /* nwarps x 1 entries over the warp slots */
};

/* Returns 0, or -1 (sizes: nwarps 1..2048, nphys 2..512; host memory). */
int zsl_init(struct zslots *t, uint32_t nwarps, uint32_t nphys);
void zsl_free(struct zslots *t);
/* Warp w takes the lowest free slot (false: none free, or it holds one already). */
bool zsl_take(struct zslots *t, uint32_t w);
/* Warp w gives its slot back; nothing if it holds none. */
void zsl_give(struct zslots *t, uint32_t w);
/* Its slot, or ZSL_NONE. */
uint32_t zsl_of(const struct zslots *t, uint32_t w);

#endif
