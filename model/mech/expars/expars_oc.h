/* SPDX-License-Identifier: MIT
 * expars_oc.h - EXPARS's operand cache in the timing model (Yu et al. TACO 2018 §3.3.4 and
 * §3.3.7, Fig. 8; digest §2.6, §8 item 10): lines of one warp register (128 B), a tag of {warp,
 * register} with valid, dirty and pinned bits, write-back to the scratchpad on eviction.
 *
 * Organisation ([expars] oc_ways): sets = lines / ways, set = register mod sets, bank = register
 * mod banks. ways = 1 is the paper's literal reading (digest §2.6 [DERIVED]): 16 lines indexed by
 * Reg[3:0] (bank Reg[1:0], set Reg[3:2]), 10-bit tags; two warps needing one register number
 * can then never both hold it. ways = 4 is the bank-fixed 4-way alternative (any line of the
 * bank Reg[1:0], 12-bit tags), ways = lines fully associative. The victim in a set: an invalid
 * line, else the least recently used unpinned clean one, else unpinned dirty, else any.
 *
 * Design: the tags, replacement, fills and evictions are the block's C reference
 * (tables/expars_oc_tags.[ch]: one implementation for the model and the RTL's reference); this
 * layer names the operations the policy (expars_oloc.c) and the prefetcher (expars_rp.c) use,
 * each one of the block's operations, and hands each to the blocks in the loop when they are on
 * (expars_loop.h: the block's answer is compared with this one and, with --drive rtl, used). No
 * timing here. Each line carries a version: the data-carrying stand-in the checker compares
 * (expars_oloc.c): a fill copies the scratchpad copy's version into the line, a write sets the
 * line's version to the register's newest one, a dirty eviction copies it back.
 */
#ifndef HD_EXPARS_OC_H
#define HD_EXPARS_OC_H

#include "expars_oc_tags.h"

#include <stdbool.h>
#include <stdint.h>

struct hd_expars_loop;

struct hd_expars_oc {
    struct hd_expars_oc_tags t;  /* the tag array (tables/expars_oc_tags.h) */
    struct hd_expars_loop *loop; /* the blocks in the loop, or NULL */
    uint32_t sm;                 /* (for the loop) */
};

/* The set register `reg` maps to, and its bank. */
static inline uint32_t hd_expars_oc_set(const struct hd_expars_oc *oc, uint32_t reg)
{
    return hd_expars_oc_tags_set(&oc->t, reg);
}
static inline uint32_t hd_expars_oc_bank(const struct hd_expars_oc *oc, uint32_t reg)
{
    return hd_expars_oc_tags_bank(&oc->t, reg);
}

void hd_expars_oc_init(struct hd_expars_oc *oc, uint32_t nlines, uint32_t nbanks, uint32_t ways);
/* PEEK: the line holding (warp, reg), or -1 (a tag lookup). */
int hd_expars_oc_find(struct hd_expars_oc *oc, uint32_t warp, uint32_t reg);
/* PEEK: the line a fill of (warp, reg) would take (its own if present). */
uint32_t hd_expars_oc_victim(struct hd_expars_oc *oc, uint32_t warp, uint32_t reg);
/* READ: the line holding (warp, reg), now the most recent of its set, with *ver its version, or
 * -1 with *victim the line a fill would take. */
int hd_expars_oc_read(struct hd_expars_oc *oc, uint32_t warp, uint32_t reg, uint32_t *victim,
                      uint32_t *ver);
/* WRITE: (warp, reg) gets version ver, dirty: in its line (*hit), else in its victim line,
 * *evicted what that line held (valid = false: nothing). Returns the line. */
uint32_t hd_expars_oc_write(struct hd_expars_oc *oc, uint32_t warp, uint32_t reg, uint32_t ver,
                            bool *hit, struct hd_expars_oc_line *evicted);
/* PUT: (warp, reg, ver) in its victim line; *victim is what the line held before (valid =
 * false: nothing left). The caller writes a dirty victim back. Returns the line. */
uint32_t hd_expars_oc_put(struct hd_expars_oc *oc, uint32_t warp, uint32_t reg, uint32_t ver,
                          bool dirty, struct hd_expars_oc_line *victim);
/* A read or write of line i (replacement age; not an operation of the block: tests). */
static inline void hd_expars_oc_touch(struct hd_expars_oc *oc, uint32_t i)
{
    hd_expars_oc_tags_touch(&oc->t, i);
}
/* PIN the line of (warp, reg) if present (true). */
bool hd_expars_oc_pin(struct hd_expars_oc *oc, uint32_t warp, uint32_t reg);
/* UNPIN every line of warp slot `warp`; STEAL: unpin the pinned lines of other warps in reg's
 * set. Both return the lines unpinned. */
uint32_t hd_expars_oc_unpin_warp(struct hd_expars_oc *oc, uint32_t warp);
uint32_t hd_expars_oc_steal(struct hd_expars_oc *oc, uint32_t warp, uint32_t reg);
/* DROP every line of warp slot `warp` (its CTA left: the registers are dead, no write-back). */
void hd_expars_oc_drop_warp(struct hd_expars_oc *oc, uint32_t warp);

#endif
