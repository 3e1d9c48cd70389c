/* SPDX-License-Identifier: MIT
 * expars_rat.h - EXPARS's Register Allocation Table (Yu et al. TACO 2018 §3.3.3, Fig. 7, eq.
 * 11-13; digest ../shared/reference/papers/expars.md §2.4, §3.2 (a)) and the bank arbitrator's
 * RF-or-scratchpad judgement (§3.3.5, Fig. 9; digest §2.7): the pure functions the timing model
 * uses (model/mech/expars/expars_sm.h, expars_alloc.c) and the bit-exact, cycle-exact C
 * reference of the block (RTL rtl/expars_rat/expars_rat.sv), one per SM, built on them.
 *
 * Fields: the paper's (Fermi: Start_CTA 3 b, Start_Reg 6 b, Max_Reg 6 b, Warps_Per_CTA 6 b, SBR
 * table 8 x 16 b), written when the resource allocator (expars_alloc.c) makes a plan. The
 * judgement uses the corrected rule of digest §8 item 4 (the text's step 3 is inverted): a
 * register is in the scratchpad iff its CTA is a mix CTA and Reg >= Start_Reg. Instead of eq.
 * 12's divider (CTA_ID = Warp_ID / Warps_Per_CTA, which needs slot-aligned warps) the block
 * keeps each warp slot's CTA slot and index in its CTA (digest §2.4 [CHOICE], the 48 x 3-bit
 * LUT of §3.2 (a)) and each CTA slot's used and mix bits, written at placement and release.
 *
 * The block, one edge: a configuration write (cfg_v_i: the scalars; the SBR table is cleared),
 * an SBR write, a CTA-slot write, a warp-slot write, then a lookup (q_v_i) that sees all of
 * them; the lookup's answer (in the scratchpad?, eq. 13's byte address of thread 0's word, the
 * warp's CTA slot) is registered one cycle later, 0 after an edge without a lookup.
 * The block does not hold Warps_Per_CTA (wpc below: the model's plan keeps it): it only feeds
 * eq. 12's divider, which the warp LUT replaces.
 * Storage (default 32 CTA slots, 64 warps): 1 + 5 + 8 + 8 + 32 x 17 (SBR) + 32 x 2 (used, mix)
 * + 64 x (5 + 6) (warp LUT) = 1,334 flops; at the paper's Fermi sizing ([fermi]: 8 slots, 48
 * warps, 6-bit registers, 16-bit addresses) 143 of the paper's 149 bits of RAT (§3.1: all but
 * Warps_Per_CTA) + 16 slot bits + 48 x 9 (the warp LUT). Interface:
 * rtl/expars_rat/expars_rat_ports.def.
 */
#ifndef HD_EXPARS_RAT_H
#define HD_EXPARS_RAT_H

#include "hd_block.h"

#include <stdbool.h>
#include <stdint.h>

#define HD_PORTS_DEF "expars_rat_ports.def"
#define HD_PORTS_DIR IN
struct hd_expars_rat_in {
#include "hd_ports_fields.h"
};
#define HD_PORTS_DIR OUT
struct hd_expars_rat_out {
#include "hd_ports_fields.h"
};
enum {
#include "hd_ports_latency.h"
};
#undef HD_PORTS_DEF

#define HD_EXPARS_MAX_SLOTS 32 /* CTA slots (Fermi 8, Maxwell 32) */
#define HD_EXPARS_RAT_MAX_WARPS 64

#ifndef __cplusplus
_Static_assert(EXPARS_RAT_Slots >= 1 && EXPARS_RAT_Slots <= HD_EXPARS_MAX_SLOTS &&
                   EXPARS_RAT_Slots <= (1u << EXPARS_RAT_SW),
               "expars_rat: Slots must be 1..32 and fit SW bits");
_Static_assert(EXPARS_RAT_Warps >= 1 && EXPARS_RAT_Warps <= HD_EXPARS_RAT_MAX_WARPS &&
                   EXPARS_RAT_Warps <= (1u << EXPARS_RAT_WW),
               "expars_rat: Warps must be 1..64 and fit WW bits");
_Static_assert(EXPARS_RAT_RW <= 16 && EXPARS_RAT_AW <= 32, "expars_rat: RW <= 16, AW <= 32");
#endif

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
    return r->sbr[k % HD_EXPARS_MAX_SLOTS] + n * lw * 128 + (reg - r->start_reg) * 128;
}

extern const struct hd_block_desc hd_expars_rat_block;

struct hd_expars_rat_state {
    struct hd_expars_rat rat;
    bool used[HD_EXPARS_MAX_SLOTS], mix[HD_EXPARS_MAX_SLOTS];
    uint8_t wcta[HD_EXPARS_RAT_MAX_WARPS], wlocal[HD_EXPARS_RAT_MAX_WARPS];
    struct hd_expars_rat_out q;
    uint64_t cycle;
};

void hd_expars_rat_ref_reset(struct hd_expars_rat_state *s);
/* One cycle: *out = the outputs during the cycle, then the rising edge samples *in. */
void hd_expars_rat_ref_step(struct hd_expars_rat_state *s, const struct hd_expars_rat_in *in,
                            struct hd_expars_rat_out *out);
bool hd_expars_rat_ref_idle(const struct hd_expars_rat_state *s, const struct hd_expars_rat_in *in);

#endif
