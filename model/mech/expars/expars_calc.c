/* SPDX-License-Identifier: MIT
 * expars_calc.c - EXPARS's maximum-CTA calculator and static metrics (expars_calc.h; Yu et al.
 * TACO 2018 §3.3.1, eq. 1-10; digest §2.2, §2.10, Appendix A). All arithmetic is integer: tau and
 * registers per thread are kept as fractions. The search itself is the RTL block's C reference
 * (tables/expars_cta_calc.c, rtl/expars_cta_calc/), stepped to its answer.
 */
#include "expars_calc.h"
#include "expars_cta_calc.h"

#include <string.h>

static uint32_t min_u32(uint32_t a, uint32_t b)
{
    return a < b ? a : b;
}

static bool usable(const struct hd_expars_in *in)
{
    return in->R && in->S && in->max_ctas && in->max_threads && in->r_cta && in->t_cta &&
           in->tau_den && in->tau_num && in->tau_num < in->tau_den && in->t_cta <= in->max_threads &&
           in->r_cta <= in->R && in->s_cta <= in->S;
}

/* Baseline CTAs per SM: the smallest of the slot, thread, register and scratchpad limits. */
static uint32_t hd_expars_baseline_ctas(const struct hd_expars_in *in)
{
    if (!in->r_cta || !in->t_cta)
        return 0;
    uint32_t n = min_u32(in->max_ctas, in->max_threads / in->t_cta);
    n = min_u32(n, in->R / in->r_cta);
    if (in->s_cta)
        n = min_u32(n, in->S / in->s_cta);
    return n;
}

/* The calculator block's C reference (tables/expars_cta_calc.h, the RTL's bit- and cycle-exact
 * twin) started with *in and stepped until its answer: *out, and the cycles from start_i to
 * done_o; 0 when an operand does not fit the block's widths (nothing run) or, which the block's
 * FSM cannot do, no answer came within a bound far above its longest search. */
static uint32_t calc_run(const struct hd_expars_cta_calc_in *in, struct hd_expars_cta_calc_out *out)
{
    const uint64_t rw = (1u << EXPARS_CTA_CALC_RW) - 1u, sw = (1u << EXPARS_CTA_CALC_SW) - 1u;
    const uint64_t tw = (1u << EXPARS_CTA_CALC_TW) - 1u, qw = (1u << EXPARS_CTA_CALC_QW) - 1u;
    memset(out, 0, sizeof *out);
    if (in->regs_i > rw || in->smem_i > sw || in->slots_i > (1u << EXPARS_CTA_CALC_CW) - 1u ||
        in->threads_i > tw || in->r_cta_i > rw || in->s_cta_i > sw || in->t_cta_i > tw ||
        in->tau_num_i > qw || in->tau_den_i > qw)
        return 0;
    struct hd_expars_cta_calc_state st;
    hd_expars_cta_calc_ref_reset(&st);
    hd_expars_cta_calc_ref_step(&st, in, out); /* the start edge */
    struct hd_expars_cta_calc_in idle;
    memset(&idle, 0, sizeof idle);
    const uint32_t bound = (1u << (2 * EXPARS_CTA_CALC_CW)) * (HD_EXPARS_CTA_CALC_DW + 2u) +
                           8u * (HD_EXPARS_CTA_CALC_DW + 1u);
    for (uint32_t c = 1; c <= bound; c++) {
        hd_expars_cta_calc_ref_step(&st, &idle, out);
        if (out->done_o & 1u)
            return c;
    }
    memset(out, 0, sizeof *out);
    return 0;
}

/* The search is the block's: one implementation for the model and the hardware. */
int hd_expars_plan(const struct hd_expars_in *in, struct hd_expars_plan *out)
{
    memset(out, 0, sizeof *out);
    if (!usable(in))
        return -1;
    const struct hd_expars_cta_calc_in x = {
        .start_i = 1, .regs_i = in->R, .smem_i = in->S, .slots_i = in->max_ctas,
        .threads_i = in->max_threads, .r_cta_i = in->r_cta, .s_cta_i = in->s_cta,
        .t_cta_i = in->t_cta, .tau_num_i = in->tau_num, .tau_den_i = in->tau_den};
    struct hd_expars_cta_calc_out y;
    const uint32_t cycles = calc_run(&x, &y);
    if (cycles == 0 || (y.err_o & 1u))
        return -1; /* an operand past the block's widths (configs/rtl/expars_cta_calc.ini) */
    out->lower = (uint32_t)y.lower_o;
    out->upper = (uint32_t)y.upper_o;
    out->cta_rf = (uint32_t)y.cta_rf_o;
    out->cta_mix = (uint32_t)y.cta_mix_o;
    out->start_reg = (uint32_t)y.start_reg_o;
    out->max_reg = (uint32_t)y.max_reg_o;
    out->wpc = (uint32_t)y.wpc_o;
    out->region_bytes = (uint32_t)y.region_o;
    out->on = y.on_o & 1u;
    out->calc_cycles = cycles;
    return 0;
}

static int64_t floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

int hd_expars_paper_form(const struct hd_expars_in *in, uint32_t *cta_rf, uint32_t *cta_mix,
                         bool *feasible)
{
    *cta_rf = *cta_mix = 0;
    *feasible = false;
    if (!usable(in))
        return -1;
    struct hd_expars_plan p;
    hd_expars_plan(in, &p);
    const int64_t R = in->R, S = in->S, rc = in->r_cta, sc = in->s_cta;
    const int64_t num = in->tau_num, den = in->tau_den;
    const int64_t lower = R / rc, upper = p.upper;
    int64_t rf, mix;
    int kase;
    const int64_t x = floor_div(R * den, rc * (den - num)); /* floor(R / (R_CTA (1 - tau))) */
    if (lower >= upper) {
        kase = 1;
        rf = lower, mix = 0; /* eq. 7 */
    } else if (x <= upper) {
        kase = 2; /* eq. 8 (not an integer as printed: its evident intent, floored) */
        mix = x;
        rf = floor_div(lower * den - x * (den - num), den);
    } else {
        kase = 3; /* eq. 9 */
        const int64_t a = floor_div(R * den, num * rc), b = floor_div(upper * den, num);
        rf = a + upper - b;
        mix = b - a;
    }
    *cta_rf = rf < 0 ? 0 : (uint32_t)rf;
    *cta_mix = mix < 0 ? 0 : (uint32_t)mix;
    /* constraints (1) and (2), times den (and times 4 for the SPM, in bytes) */
    *feasible = rf >= 0 && mix >= 0 && den * rf * rc + mix * rc * (den - num) <= den * R &&
                den * (rf + mix) * sc + mix * 4 * rc * num <= den * S;
    return kase;
}

static void finish(const struct hd_expars_in *in, uint64_t rf_used, uint64_t spm_used,
                   struct hd_expars_static *out)
{
    out->rf_util = (double)rf_used / in->R;
    out->spm_util = (double)spm_used / in->S;
    out->overall = (double)(4 * rf_used + spm_used) / (4.0 * in->R + in->S);
}

void hd_expars_static_baseline(const struct hd_expars_in *in, struct hd_expars_static *out)
{
    memset(out, 0, sizeof *out);
    const uint32_t n = hd_expars_baseline_ctas(in);
    out->ctas = n;
    out->warps = n * ((in->t_cta + 31) / 32);
    finish(in, (uint64_t)n * in->r_cta, (uint64_t)n * in->s_cta, out);
}

void hd_expars_static_warpman(const struct hd_expars_in *in, struct hd_expars_static *out)
{
    memset(out, 0, sizeof *out);
    const uint32_t base = hd_expars_baseline_ctas(in), wpc = (in->t_cta + 31) / 32;
    uint64_t partial = 0;
    if (in->t_cta && base < in->max_ctas && (uint64_t)(base + 1) * in->s_cta <= in->S) {
        const uint64_t rem = in->R - (uint64_t)base * in->r_cta;
        /* whole warps of the leftover registers: rem / (rpt * 32), rpt = r_cta / t_cta */
        partial = rem * in->t_cta / ((uint64_t)in->r_cta * 32);
        if (partial > wpc - 1)
            partial = wpc - 1;
        const uint64_t left = in->max_threads / 32 - (uint64_t)base * wpc;
        if (partial > left)
            partial = left;
    }
    out->ctas = base + (partial > 0);
    out->warps = base * wpc + (uint32_t)partial;
    /* a partial warp's registers: rpt * 32 each, as words (fractional rpt kept exact below) */
    const double rf = (double)base * in->r_cta + (double)partial * 32.0 * in->r_cta / in->t_cta;
    out->rf_util = rf / in->R;
    const double spm = (double)out->ctas * in->s_cta;
    out->spm_util = spm / in->S;
    out->overall = (4.0 * rf + spm) / (4.0 * in->R + in->S);
}

void hd_expars_static_expars(const struct hd_expars_in *in, const struct hd_expars_plan *p,
                             struct hd_expars_static *out)
{
    if (!p->on) {
        hd_expars_static_baseline(in, out);
        return;
    }
    memset(out, 0, sizeof *out);
    const uint32_t n = p->cta_rf + p->cta_mix;
    const uint64_t mix_rf = (uint64_t)p->start_reg * in->t_cta;
    const uint64_t mix_spm = in->r_cta > mix_rf ? in->r_cta - mix_rf : 0;
    out->ctas = n;
    out->warps = n * p->wpc;
    out->mix_rf_share = (double)mix_rf / in->r_cta;
    finish(in, (uint64_t)p->cta_rf * in->r_cta + p->cta_mix * mix_rf,
           (uint64_t)n * in->s_cta + p->cta_mix * mix_spm * 4, out);
}
