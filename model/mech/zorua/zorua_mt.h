/* SPDX-License-Identifier: MIT
 * zorua_mt.h - one of Zorua's resource mapping tables with its free list (Vijaykumar et al.,
 * Zorua Sec. 4.2-4.3, digest Sec. 2.6-2.7 and 3.2-3.5): the register mapping table (RMT,
 * 64 logical warps x 16 register sets of 4 x 32 registers, 9-bit entries on Fermi), the
 * scratchpad mapping table (SMT, 16 logical CTAs x 48 sets of 1 KB, 7-bit entries) and the
 * thread-slot mapping table (TMT, 64 logical warps x 1 warp slot, 7-bit entries) are the same
 * structure with other sizes.
 *
 * Design. The table's state is the hardware block's C reference (tables/zorua_map.h, block
 * zorua_map, docs/blocks/zorua.md) at this table's sizes: one copy of the logic, so the model's
 * tables are the block's. Rows are logical ids (warp or CTA), columns logical sets; an entry is
 * the paper's {valid, physical set} word, the block telling "in swap" from "not allocated" by the
 * unused index field. Its free list is the block's: the lowest free physical unit first. The two
 * counters per resource of Sec. 4.2 are the block's (`nfree`, `swap_used` here mirror them).
 * Every change is one of the block's update ops (allocate, release, swap out, swap in), applied
 * to the reference the way a cycle of the block applies it. Growth is all or nothing: a row grows
 * to n sets, allocating them lowest set first (on chip while units are free, then in swap), only
 * when swap_used stays within the caller's limit (o_thresh) or `force`; the sets placed in swap
 * are the highest-numbered new ones (they hold no live data, so nothing moves: digest Sec. 8
 * item 4 (a)). Spill (swap out) and fill (swap in) of one set are separate calls.
 * The journal (zmt_journal_on; zorua_maploop.h) records each op with the outputs the block must
 * give for it, and, when nothing else waits, one lookup, for the block in the timing loop to be
 * checked against. Deterministic: only indices decide. No globals.
 */
#ifndef HD_ZORUA_MT_H
#define HD_ZORUA_MT_H

#include "zorua_map.h"

#include <stdbool.h>
#include <stdint.h>

#define ZMT_NONE 0xFFFFu /* a lookup of a set that is not allocated */
#define ZMT_SWAP 0xFFFEu /* a lookup of a set that is in the swap space */

/* One step of the block the model made: its inputs and the outputs they must give a cycle later. */
struct zmt_rec {
    struct hd_zorua_map_in in;
    struct hd_zorua_map_out out;
};

struct zmt {
    uint32_t nids, nsets, nphys; /* rows, columns, physical units */
    uint32_t pbits;              /* bits of the physical index: entry word = 1 + pbits bits */
    struct hd_zorua_map_state *m; /* the table: the block's C reference at these sizes */
    uint32_t nfree;              /* units free on chip (m->nfree) */
    uint32_t swap_used;          /* sets mapped in swap (m->nswap) */
    /* the journal (NULL: off) */
    struct zmt_rec *jr;
    uint32_t jhead, jn, jcap;
    bool joom;                   /* a record was lost (host memory): the check fails */
    /* statistics */
    uint64_t allocs, swapped_allocs, releases, spills, fills;
};

/* Make a table of nids x nsets entries over nphys physical units (the block reference's maxima:
 * nids x nsets <= 2048, 2 <= nphys <= 512). Returns 0, or -1 on host out of memory or bad sizes. */
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
/* Shrink row id to `to` sets (release the columns >= to, highest first: their physical units go
 * back to the free list, their swap sets off swap_used). */
void zmt_shrink(struct zmt *t, uint32_t id, uint32_t to);
/* Where set `set` of row id is: a physical unit, ZMT_SWAP or ZMT_NONE. */
uint32_t zmt_lookup(const struct zmt *t, uint32_t id, uint32_t set);
/* The same as the compute units' translation through the block's lookup port: with the journal
 * on and nothing waiting in it, the lookup and its result are recorded for the check. */
uint32_t zmt_translate(struct zmt *t, uint32_t id, uint32_t set);
/* Spill an on-chip set to swap (its unit back to the free list): false if it is not on chip. */
bool zmt_spill(struct zmt *t, uint32_t id, uint32_t set);
/* Fill a swapped set back on chip into the lowest free unit: false if not in swap or no unit. */
bool zmt_fill(struct zmt *t, uint32_t id, uint32_t set);
/* The paper's entry word: bit pbits = valid, bits [pbits-1:0] = physical set (0 when invalid). */
uint32_t zmt_word(const struct zmt *t, uint32_t id, uint32_t set);
/* Bits of the whole table as the paper counts them (entries x (1 + pbits)). */
uint32_t zmt_bits(const struct zmt *t);

/* {==== The journal (the block in the loop, zorua_maploop.h) ==== */
/* Record from now on. Returns 0, or -1 (host memory). */
int zmt_journal_on(struct zmt *t);
/* The oldest record not yet taken (NULL: none); zmt_journal_pop takes it. */
const struct zmt_rec *zmt_journal_peek(const struct zmt *t);
void zmt_journal_pop(struct zmt *t);
/* }==== */

#endif
