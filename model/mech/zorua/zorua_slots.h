/* SPDX-License-Identifier: MIT
 * zorua_slots.h - the thread-slot mapping table as the timing model keeps it (Zorua Sec. 4.2,
 * digest Sec. 2.7; the TMT, 64 logical warps x 1 warp slot, 7-bit entries on Fermi): logical warp
 * -> warp slot, with a FIFO free list of slots.
 *
 * Design. The register and scratchpad mapping tables are the zorua_map block's C reference
 * (zorua_mt.h), which takes the lowest free unit. The TMT's unit is the warp slot the substrate
 * runs the warp in, and the slot decides the warp's register-bank offset ([timing]
 * bank_warp_offset) and so the cycles: the lowest free slot changed them (reduction 24 x 1024
 * +1.6 %, docs/zorua.md), so the model keeps the order it had, a FIFO free list (initialised
 * 0, 1, ..., slots - 1; a slot taken from the head, given back to the tail). A warp holds one
 * slot or none; slots are never oversubscribed in the loop (a warp without one waits absent).
 * Deterministic. No globals.
 */
#ifndef HD_ZORUA_SLOTS_H
#define HD_ZORUA_SLOTS_H

#include <stdbool.h>
#include <stdint.h>

#define ZSL_NONE 0xFFFFu /* no slot (= ZMT_NONE) */

struct zslots {
    uint32_t nwarps, nphys;  /* logical warps, warp slots */
    uint16_t *slot;          /* [nwarps] its slot or ZSL_NONE */
    uint16_t *fl;            /* [nphys] the free list, FIFO */
    uint32_t fl_head, nfree;
};

/* Returns 0, or -1 (sizes: nwarps, nphys 1..0xFFF0; host memory). */
int zsl_init(struct zslots *t, uint32_t nwarps, uint32_t nphys);
void zsl_free(struct zslots *t);
/* Warp w takes the free list's head (false: none free, or it holds one already). */
bool zsl_take(struct zslots *t, uint32_t w);
/* Warp w gives its slot back (to the free list's tail); nothing if it holds none. */
void zsl_give(struct zslots *t, uint32_t w);
/* Its slot, or ZSL_NONE. */
uint32_t zsl_of(const struct zslots *t, uint32_t w);

#endif
