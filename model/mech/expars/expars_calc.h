/* SPDX-License-Identifier: MIT
 * expars_calc.h - EXPARS's maximum-CTA calculator (Yu et al., TACO 2018, §3.3.1 eq. 1-10; digest
 * ../shared/reference/papers/expars.md §2.2, §2.4 eq. 10, §2.10, Appendix A) and the static
 * occupancy metrics of §4.2-4.3 (Fig. 10-12) for Baseline, Warpman and EXPARS.
 *
 * Design: a pure unit (no state, no allocation) so that the resource allocator, `heddle
 * ptx-info` and the experiment share it; hd_expars_plan runs the RTL block's C reference
 * (tables/expars_cta_calc.h: the "arithmetic circuit" of L236, rtl/expars_cta_calc/) to its
 * answer, so the model and the hardware have one implementation of the search.
 * The paper's closed forms (eq. 7-9) are wrong in general (digest §8 item 5: eq. 8 is not an
 * integer; eq. 9 breaks constraint (1) for SGE, BT, MERG and QUA), so the answer is the exact
 * integer search of the digest (§2.2): for N = CTA_Upper down to CTA_Lower+1, the fewest mix CTAs
 * M (most RF-only CTAs) for which one Start_Reg shared by every mix CTA keeps at least (1 - tau)
 * of a thread's registers in the RF and the SPM holds every CTA's data and the mix CTAs'
 * register regions. The literal eq. 7-9 are kept (hd_expars_paper_form) with their feasibility.
 * tau is a rational (tau_num / tau_den: 4/5 for the paper's 0.8) so that every test is exact.
 * Registers per thread may be fractional (Table 3's ST: 14,436 registers for 512 threads), as
 * Appendix A's word-granular reconstruction needs; the timing model gives whole numbers.
 */
#ifndef HD_EXPARS_CALC_H
#define HD_EXPARS_CALC_H

#include <stdbool.h>
#include <stdint.h>

/* One SM's capacities and one kernel's per-CTA demand. */
struct hd_expars_in {
    uint32_t R;          /* registers per SM (32-bit words) */
    uint32_t S;          /* scratchpad bytes per SM */
    uint32_t max_ctas;   /* CTA slots */
    uint32_t max_threads;/* thread slots */
    uint32_t r_cta;      /* registers of one CTA (may be a non-multiple of t_cta: ST) */
    uint32_t s_cta;      /* scratchpad bytes of one CTA */
    uint32_t t_cta;      /* threads of one CTA (warp-padded) */
    uint32_t tau_num, tau_den; /* tau = num/den, 0 < tau < 1 (0.8 = 4/5) */
};

/* EXPARS's answer for one kernel: the RAT's static fields (§2.4). */
struct hd_expars_plan {
    uint32_t lower, upper;   /* CTA_Lower = floor(R/R_CTA) (and the other limits), CTA_Upper */
    uint32_t cta_rf, cta_mix;/* CTAs all in the RF; CTAs with registers >= start_reg in SPM */
    uint32_t start_reg;      /* first register index in the SPM (a mix CTA); = max_reg+1 if none */
    uint32_t max_reg;        /* ceil(regs/thread) - 1 */
    uint32_t wpc;            /* warps per CTA */
    uint32_t region_bytes;   /* one mix CTA's register region: (max_reg-start_reg+1)*wpc*128 */
    bool on;                 /* cta_mix > 0: EXPARS is used (else the baseline, no overhead) */
    uint32_t calc_cycles;    /* the calculator block's latency, start to answer (expars_cta_calc) */
};

/* Static metrics of one configuration (§5.3 of the digest). */
struct hd_expars_static {
    uint32_t ctas;           /* CTAs per SM (a partial Warpman CTA counts as one) */
    uint32_t warps;          /* warps per SM */
    double rf_util, spm_util, overall; /* fractions of R, S and R*4+S */
    double mix_rf_share;     /* EXPARS: fraction of a mix CTA's registers in the RF (else 0) */
};

/* The exact search. Returns 0, or -1 when the input is not usable (zero sizes, tau outside
 * (0,1), a CTA larger than the SM, or an operand past the calculator block's widths,
 * configs/rtl/expars_cta_calc.ini: R or S >= 2^17, more than 63 CTA slots or 4,095 threads,
 * tau's terms >= 1,024): the plan is then all zeros. */
int hd_expars_plan(const struct hd_expars_in *in, struct hd_expars_plan *out);
/* The literal closed forms eq. 7-9 (case 1/2/3). *feasible: the answer meets constraints (1) and
 * (2) (false for SGE, BT, MERG, QUA). Returns the case number, or -1 on unusable input. */
int hd_expars_paper_form(const struct hd_expars_in *in, uint32_t *cta_rf, uint32_t *cta_mix,
                         bool *feasible);
/* Static metrics: Baseline, Warpman's one partial CTA (§2.10 of the digest) and EXPARS. */
void hd_expars_static_baseline(const struct hd_expars_in *in, struct hd_expars_static *out);
void hd_expars_static_warpman(const struct hd_expars_in *in, struct hd_expars_static *out);
void hd_expars_static_expars(const struct hd_expars_in *in, const struct hd_expars_plan *p,
                             struct hd_expars_static *out);
/* Eq. 11: the byte address of mix CTA k's register region (k = CTA slot - Start_CTA), counted
 * down from the top of the scratchpad. */
static inline uint32_t hd_expars_sbr(uint32_t S, const struct hd_expars_plan *p, uint32_t k)
{
    return S - (k + 1) * p->region_bytes;
}

#endif
