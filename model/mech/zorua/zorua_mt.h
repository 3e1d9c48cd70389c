/* SPDX-License-Identifier: MIT
 * zorua_mt.h - one of Zorua's resource mapping tables with its free list (Vijaykumar et al.,
 * Zorua Sec. 4.2-4.3, digest Sec. 2.6-2.7 and 3.2-3.5): the register mapping table (RMT,
 * 64 logical warps x 16 register sets of 4 x 32 registers, 9-bit entries on Fermi), the
 * scratchpad mapping table (SMT, 16 logical CTAs x 48 sets of 1 KB, 7-bit entries) and the
 * thread-slot mapping table (TMT, 64 logical warps x 1 warp slot, 7-bit entries) are the same
 * structure with other sizes.
 *
 * Design. Rows are logical ids (warp or CTA), columns logical sets; an entry is the paper's
 * {valid, physical set} word: valid = mapped on chip, else the set is in the swap space. A 1-bit
 * valid cannot tell "in swap" from "not allocated" (digest Sec. 8 item 8), so the model keeps an
 * `alloc` bit per entry as well (in hardware: the per-warp allocated-set count the coordinator
 * holds from the phase specifier). The free list of physical units is a FIFO, initialised
 * 0, 1, ..., nphys-1 (a circular buffer in hardware): allocation takes from its head, release
 * appends to its tail. The two counters per resource of Sec. 4.2 are `nfree` (free in physical
 * space) and `swap_used` (mapped in swap space). Growth is all or nothing: a row grows to n sets
 * taking physical units for as many as the free list has and putting the rest in swap, allowed
 * only while swap_used stays within the caller's limit (o_thresh); the sets placed in swap are
 * the highest-numbered new ones (new sets hold no live data, so nothing moves: digest Sec. 8
 * item 4 (a)). Spill (swap out) and fill (swap in) of one set are separate calls.
 * Deterministic: only indices decide. No globals.
 */
#ifndef HD_ZORUA_MT_H
#define HD_ZORUA_MT_H

#include <stdbool.h>
#include <stdint.h>

#define ZMT_NONE 0xFFFFu /* a lookup of a set that is not allocated */
#define ZMT_SWAP 0xFFFEu /* a lookup of a set that is in the swap space */

struct zmt {
    uint32_t nids, nsets, nphys; /* rows, columns, physical units */
    uint32_t pbits;              /* bits of the physical index: entry word = 1 + pbits bits */
    uint16_t *pset;              /* [nids * nsets]: physical unit (valid entries) */
    uint8_t *valid, *alloc;      /* [nids * nsets] */
    uint16_t *fl;                /* [nphys] the free list, FIFO */
    uint32_t fl_head, nfree;
    uint32_t swap_used;          /* sets mapped in swap */
    /* statistics */
    uint64_t allocs, swapped_allocs, releases, spills, fills;
};

/* Make a table of nids x nsets entries over nphys physical units (at most 0xFFF0).
 * Returns 0, or -1 on host out of memory or bad sizes. */
int zmt_init(struct zmt *t, uint32_t nids, uint32_t nsets, uint32_t nphys);
void zmt_free(struct zmt *t);
/* Sets allocated to row id (its first unallocated column: rows grow and shrink at the top). */
uint32_t zmt_held(const struct zmt *t, uint32_t id);
/* How many of n more sets would go to swap now (0: they fit on chip). */
uint32_t zmt_over(const struct zmt *t, uint32_t n);
/* Grow row id to `to` sets, all or nothing: those the free list lacks go to swap if
 * swap_used + them <= swap_limit (or `force`). Returns the sets placed in swap, or -1 (nothing
 * changed: too many for swap, or `to` > nsets). */
int zmt_grow(struct zmt *t, uint32_t id, uint32_t to, uint32_t swap_limit, bool force);
/* Shrink row id to `to` sets (release the columns >= to: their physical units go to the tail of
 * the free list, their swap sets off swap_used). */
void zmt_shrink(struct zmt *t, uint32_t id, uint32_t to);
/* Where set `set` of row id is: a physical unit, ZMT_SWAP or ZMT_NONE. */
uint32_t zmt_lookup(const struct zmt *t, uint32_t id, uint32_t set);
/* Spill an on-chip set to swap (its unit to the free list's tail): false if it is not on chip. */
bool zmt_spill(struct zmt *t, uint32_t id, uint32_t set);
/* Fill a swapped set back on chip from the free list's head: false if not in swap or no unit. */
bool zmt_fill(struct zmt *t, uint32_t id, uint32_t set);
/* The paper's entry word: bit pbits = valid, bits [pbits-1:0] = physical set (0 when invalid). */
uint32_t zmt_word(const struct zmt *t, uint32_t id, uint32_t set);
/* Bits of the whole table as the paper counts them (entries x (1 + pbits)). */
uint32_t zmt_bits(const struct zmt *t);

#endif
