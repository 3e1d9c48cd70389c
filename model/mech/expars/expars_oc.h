/* SPDX-License-Identifier: MIT
 * expars_oc.h - EXPARS's operand cache (Yu et al. TACO 2018 §3.3.4 and §3.3.7, Fig. 8; digest
 * §2.6): lines of one warp register (128 B), a tag of {warp, register} with valid and dirty bits,
 * direct-mapped by the register's low bits (the paper's Reg[3:0] with 16 lines: bank = Reg[1:0],
 * set = Reg[3:2]; digest §2.6 [DERIVED]), write-back to the scratchpad on eviction.
 *
 * Design: plain state and small functions, no timing (the policy, expars_oloc.c, gives the ports
 * and latencies). Each line carries a version: the data-carrying stand-in the checker compares
 * (expars_oloc.c): a fill copies the scratchpad copy's version into the line, a write sets the
 * line's version to the register's newest one, a dirty eviction copies it back. The paper's tag
 * is 10 bits (6-bit warp, Reg[5:4], V, D); here the full register number is kept, which is the
 * same information for 16 lines and <= 63 registers.
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
};

struct hd_expars_oc {
    uint32_t nlines, nbanks;
    struct hd_expars_oc_line line[HD_EXPARS_OC_MAX_LINES];
};

/* The line register `reg` maps to (direct-mapped) and its bank. */
static inline uint32_t hd_expars_oc_index(const struct hd_expars_oc *oc, uint32_t reg)
{
    return reg % oc->nlines;
}
static inline uint32_t hd_expars_oc_bank(const struct hd_expars_oc *oc, uint32_t reg)
{
    return hd_expars_oc_index(oc, reg) % oc->nbanks;
}

void hd_expars_oc_init(struct hd_expars_oc *oc, uint32_t nlines, uint32_t nbanks);
/* The line holding (warp, reg), or -1 (a tag lookup). */
int hd_expars_oc_find(const struct hd_expars_oc *oc, uint32_t warp, uint32_t reg);
/* Put (warp, reg, ver) in its line; *victim is what the line held before (valid = false: it
 * was free). The caller writes a dirty victim back. */
void hd_expars_oc_put(struct hd_expars_oc *oc, uint32_t warp, uint32_t reg, uint32_t ver,
                      bool dirty, struct hd_expars_oc_line *victim);
/* Drop every line of warp slot `warp` (its CTA left: the registers are dead, no write-back). */
void hd_expars_oc_drop_warp(struct hd_expars_oc *oc, uint32_t warp);

#endif
