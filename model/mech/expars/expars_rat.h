/* SPDX-License-Identifier: MIT
 * expars_rat.h - EXPARS's Register Allocation Table (Yu et al. TACO 2018 §3.3.3, Fig. 7, eq.
 * 11-13; digest §2.4) and the bank arbitrator's RF-or-OC judgement (§3.3.5, Fig. 9; digest §2.7).
 *
 * Design: the paper's fields and widths (Fermi: Start_CTA 3 b, Start_Reg 6 b, Max_Reg 6 b,
 * Warps_Per_CTA 6 b, SBR table 8 x 16 b), one table per SM per kernel launch, set by the
 * resource allocator (expars_alloc.c) and read by the operand-location policy (expars_oloc.c).
 * The judgement uses the corrected rule of digest §8 item 4 (the text's step 3 is inverted):
 * a register is in the scratchpad iff its CTA is a mix CTA and Reg >= Start_Reg. Instead of
 * eq. 12's divider (CTA_ID = Warp_ID / Warps_Per_CTA, which needs slot-aligned warps), the RAT
 * keeps the CTA slot and the index in the CTA of every warp slot (digest §2.4 [CHOICE]), as the
 * SM does. Pure functions over a plain struct: the next session's RTL block follows them.
 */
#ifndef HD_EXPARS_RAT_H
#define HD_EXPARS_RAT_H

#include <stdbool.h>
#include <stdint.h>

#define HD_EXPARS_MAX_SLOTS 32 /* CTA slots (Fermi 8, Maxwell 32) */

struct hd_expars_rat {
    bool on;                   /* some CTA slot is a mix slot (CTA_Mix > 0) */
    uint32_t start_cta;        /* = CTA_RF: the first mix slot */
    uint32_t start_reg;        /* first register index in the scratchpad */
    uint32_t max_reg;          /* largest register index */
    uint32_t wpc;              /* Warps_Per_CTA */
    uint32_t sbr[HD_EXPARS_MAX_SLOTS]; /* byte address of mix CTA k's register region (eq. 11) */
};

/* Is register `reg` of a warp of CTA slot `slot` in the scratchpad? (slot_mix: the slot holds a
 * CTA of the planned kernel as a mix CTA) */
static inline bool hd_expars_rat_in_spm(const struct hd_expars_rat *r, bool slot_mix, uint32_t reg)
{
    return r->on && slot_mix && reg >= r->start_reg;
}

/* Eq. 13: byte address of thread 0's word of register `reg` of warp `lw` (its index in the CTA)
 * of mix CTA k (= slot - Start_CTA). Thread t's word is at + 4t (one line of the 32 banks). */
static inline uint32_t hd_expars_rat_addr(const struct hd_expars_rat *r, uint32_t k, uint32_t lw,
                                          uint32_t reg)
{
    const uint32_t n = r->max_reg - r->start_reg + 1;
    return r->sbr[k] + n * lw * 128 + (reg - r->start_reg) * 128;
}

#endif
