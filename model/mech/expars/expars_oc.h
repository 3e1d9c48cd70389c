/* SPDX-License-Identifier: MIT
 * expars_oc.h - EXPARS's operand cache (Yu et al. TACO 2018 §3.3.4 and §3.3.7, Fig. 8; digest
 * §2.6, §8 item 10): lines of one warp register (128 B), a tag of {warp, register} with valid and
 * dirty bits, write-back to the scratchpad on eviction.
 *
 * Organisation ([expars] oc_ways): sets = lines / ways, set = register mod sets, bank = register
 * mod banks. ways = 1 is the paper's literal reading (digest §2.6 [DERIVED]): 16 lines indexed by
 * Reg[3:0] (bank Reg[1:0], set Reg[3:2]), 10-bit tags; two warps needing one register number
 * can then never both hold it. ways = 4 is the bank-fixed 4-way alternative (any line of the
 * bank Reg[1:0], 12-bit tags), ways = lines fully associative. The victim in a set: an invalid
 * line, else the least recently used unpinned clean one, else unpinned dirty, else any.
 *
 * Design: plain state and small functions, no timing (the policy, expars_oloc.c, and the
 * prefetcher, expars_rp.c, give the ports and latencies). Each line carries a version: the
 * data-carrying stand-in the checker compares (expars_oloc.c): a fill copies the scratchpad
 * copy's version into the line, a write sets the line's version to the register's newest one,
 * a dirty eviction copies it back. The full register number is kept as the tag.
 */
#ifndef HD_EXPARS_OC_H
#define HD_EXPARS_OC_H

#include <stdbool.h>
#include <stdint.h>

#define HD_EXPARS_OC_MAX_LINES 64

struct hd_expars_oc_line {
    bool valid, dirty;
    bool pinned;     /* held for its warp's bundle (the register prefetcher, expars_rp.c) */
    uint16_t warp;   /* warp slot */
    uint16_t reg;
    uint32_t ver;    /* the version of the register the line holds */
    uint64_t used;   /* last fill, write or read (replacement) */
};

struct hd_expars_oc {
    uint32_t nlines, nbanks, ways, nsets;
    uint64_t clock;
    struct hd_expars_oc_line line[HD_EXPARS_OC_MAX_LINES];
};

/* The set register `reg` maps to, its first line, and its bank. */
static inline uint32_t hd_expars_oc_set(const struct hd_expars_oc *oc, uint32_t reg)
{
    return reg % oc->nsets;
}
static inline uint32_t hd_expars_oc_bank(const struct hd_expars_oc *oc, uint32_t reg)
{
    return reg % oc->nbanks;
}

void hd_expars_oc_init(struct hd_expars_oc *oc, uint32_t nlines, uint32_t nbanks, uint32_t ways);
/* The line holding (warp, reg), or -1 (a tag lookup). */
int hd_expars_oc_find(const struct hd_expars_oc *oc, uint32_t warp, uint32_t reg);
/* The line a fill of (warp, reg) would take (its own if present). */
uint32_t hd_expars_oc_victim(const struct hd_expars_oc *oc, uint32_t warp, uint32_t reg);
/* Put (warp, reg, ver) in its victim line; *victim is what the line held before (valid =
 * false: nothing left). The caller writes a dirty victim back. Returns the line. */
uint32_t hd_expars_oc_put(struct hd_expars_oc *oc, uint32_t warp, uint32_t reg, uint32_t ver,
                          bool dirty, struct hd_expars_oc_line *victim);
/* A read or write of line i (replacement age). */
static inline void hd_expars_oc_touch(struct hd_expars_oc *oc, uint32_t i)
{
    oc->line[i].used = ++oc->clock;
}
/* Drop every line of warp slot `warp` (its CTA left: the registers are dead, no write-back). */
void hd_expars_oc_drop_warp(struct hd_expars_oc *oc, uint32_t warp);

#endif
