/* SPDX-License-Identifier: MIT
 * expars_cta_calc.h - bit-exact, cycle-exact C reference of EXPARS's maximum-CTA calculator (Yu
 * et al. TACO 2018 §3.3.1, eq. 1-10, the "arithmetic circuit" of L236; digest
 * ../shared/reference/papers/expars.md §2.2, §3.2 (g), Appendix A; RTL
 * rtl/expars_cta_calc/expars_cta_calc.sv), one per SM, run once per kernel launch.
 *
 * What it computes (the exact integer search of the digest §2.2, not the paper's eq. 7-9, which
 * are wrong in general): CTA_Lower = min(slots, threads/T_CTA, R/R_CTA, S/S_CTA), CTA_Upper =
 * min(slots, threads/T_CTA, (4R + S)/(4 R_CTA + S_CTA)), rpt = ceil(R_CTA/T_CTA); then for N =
 * CTA_Upper down to CTA_Lower + 1 and M = 1..N the first (N, M) with (N-M) R_CTA <= R, Start_Reg
 * = min((R - (N-M) R_CTA) / (M T_CTA), rpt), Start_Reg T_CTA den >= (den - num) R_CTA (at most
 * tau of a CTA's registers in the scratchpad) and N S_CTA + 4 M (R_CTA - Start_Reg T_CTA) <= S.
 * tau = num/den exactly (4/5; the model passes thousandths).
 *
 * Hardware: one restoring divider (one quotient bit per cycle, DW = max(RW, SW) + 3 bits) shared
 * by the five set-up divisions and one division per search point; multipliers and comparators
 * for the point's checks. States: IDLE, DIV (DW cycles), PAIR (the register bound of a point,
 * one cycle), CHK (tau and scratchpad bounds, one cycle). The model's hd_expars_plan
 * (model/mech/expars/expars_calc.c) steps this reference from start to answer: one
 * implementation.
 * Timing: every output registered; the answer for one cycle with done_o (0 otherwise); busy_o
 * while calculating. Interface: rtl/expars_cta_calc/expars_cta_calc_ports.def.
 */
#ifndef HD_EXPARS_CTA_CALC_H
#define HD_EXPARS_CTA_CALC_H

#include "hd_block.h"

#include <stdbool.h>
#include <stdint.h>

#define HD_PORTS_DEF "expars_cta_calc_ports.def"
#define HD_PORTS_DIR IN
struct hd_expars_cta_calc_in {
#include "hd_ports_fields.h"
};
#define HD_PORTS_DIR OUT
struct hd_expars_cta_calc_out {
#include "hd_ports_fields.h"
};
enum {
#include "hd_ports_latency.h"
};
#undef HD_PORTS_DEF

/* the divider's width: 4R + S and 4 R_CTA + S_CTA fit */
#define HD_EXPARS_CTA_CALC_DW \
    ((EXPARS_CTA_CALC_RW > EXPARS_CTA_CALC_SW ? EXPARS_CTA_CALC_RW : EXPARS_CTA_CALC_SW) + 3)

#ifndef __cplusplus /* C++ (the testbenches) checks nothing here */
_Static_assert(EXPARS_CTA_CALC_RW >= 8 && EXPARS_CTA_CALC_RW <= 24 && EXPARS_CTA_CALC_SW >= 8 &&
                   EXPARS_CTA_CALC_SW <= 24 && EXPARS_CTA_CALC_CW >= 2 &&
                   EXPARS_CTA_CALC_CW <= 8 && EXPARS_CTA_CALC_TW >= 6 &&
                   EXPARS_CTA_CALC_TW <= EXPARS_CTA_CALC_RW &&
                   EXPARS_CTA_CALC_SW >= EXPARS_CTA_CALC_TW + 2 && EXPARS_CTA_CALC_QW >= 2 &&
                   EXPARS_CTA_CALC_QW <= 16 &&
                   EXPARS_CTA_CALC_CW + EXPARS_CTA_CALC_TW <= HD_EXPARS_CTA_CALC_DW,
               "expars_cta_calc: widths");
#endif

enum hd_expars_cta_calc_st { HD_ECC_IDLE = 0, HD_ECC_DIV = 1, HD_ECC_PAIR = 2, HD_ECC_CHK = 3 };
/* what the running division computes */
enum hd_expars_cta_calc_ph {
    HD_ECC_THR = 0, /* thread slots / T_CTA */
    HD_ECC_RF = 1,  /* R / R_CTA */
    HD_ECC_SM = 2,  /* S / S_CTA (skipped when S_CTA = 0) */
    HD_ECC_UP = 3,  /* (4R + S) / (4 R_CTA + S_CTA) */
    HD_ECC_RPT = 4, /* (R_CTA + T_CTA - 1) / T_CTA */
    HD_ECC_SR = 5   /* (R - (N-M) R_CTA) / (M T_CTA): a search point's Start_Reg */
};

extern const struct hd_block_desc hd_expars_cta_calc_block;

struct hd_expars_cta_calc_state {
    uint8_t st, ph;
    uint64_t r, s, slots, rc, sc, tc, num, den;  /* the operands sampled at start_i */
    uint64_t rem, quo, dvs, cnt;                 /* the divider */
    uint64_t lim, up, rpt, n, m, sr;             /* CTA_Lower, CTA_Upper, rpt, the point, Start_Reg */
    bool busy;
    struct hd_expars_cta_calc_out q;
    uint64_t cycle;
};

void hd_expars_cta_calc_ref_reset(struct hd_expars_cta_calc_state *s);
/* One cycle: *out = the outputs during the cycle, then the rising edge samples *in. */
void hd_expars_cta_calc_ref_step(struct hd_expars_cta_calc_state *s,
                                 const struct hd_expars_cta_calc_in *in,
                                 struct hd_expars_cta_calc_out *out);
/* Idle (hw_inst.h): no start, no calculation running and nothing in the output registers. */
bool hd_expars_cta_calc_ref_idle(const struct hd_expars_cta_calc_state *s,
                                 const struct hd_expars_cta_calc_in *in);

#endif
