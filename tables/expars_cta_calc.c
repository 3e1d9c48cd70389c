/* SPDX-License-Identifier: MIT
 * expars_cta_calc.c - EXPARS's maximum-CTA calculator's C reference (expars_cta_calc.h).
 *
 * Design: the fields of struct hd_expars_cta_calc_state are the RTL's flops; one call of the
 * step function is one clock edge, the states in the order of the RTL's case statement. All
 * arithmetic is on masked unsigned words of the RTL's widths (uint64_t is wide enough for every
 * product: at most CW + RW + 3 bits, or RW + 1 + QW for the tau check).
 */
#include "expars_cta_calc.h"

#include <string.h>

#define HD_PORTS_DEF "expars_cta_calc_ports.def"
#define HD_PORTS_IN_T struct hd_expars_cta_calc_in
#define HD_PORTS_OUT_T struct hd_expars_cta_calc_out
#define HD_PORTS_BLOCK_VAR hd_expars_cta_calc_block
#include "hd_ports_table.h"

#define M(w) (((uint64_t)1 << (w)) - 1u)
#define RW EXPARS_CTA_CALC_RW
#define SW EXPARS_CTA_CALC_SW
#define CW EXPARS_CTA_CALC_CW
#define TW EXPARS_CTA_CALC_TW
#define QW EXPARS_CTA_CALC_QW
#define DW HD_EXPARS_CTA_CALC_DW

static uint64_t min_u64(uint64_t a, uint64_t b)
{
    return a < b ? a : b;
}

void hd_expars_cta_calc_ref_reset(struct hd_expars_cta_calc_state *s)
{
    memset(s, 0, sizeof *s);
    hd_block_reset_values(&hd_expars_cta_calc_block, HD_DIR_OUT, &s->q);
}

static void load_div(struct hd_expars_cta_calc_state *s, uint64_t dividend, uint64_t divisor,
                     unsigned ph)
{
    s->rem = 0;
    s->quo = dividend & M(DW);
    s->dvs = divisor & M(DW);
    s->cnt = 0;
    s->ph = (uint8_t)ph;
    s->st = HD_ECC_DIV;
}

/* The answer on the outputs (one cycle), back to IDLE. on: the point (n, m) with Start_Reg sr. */
static void finish(struct hd_expars_cta_calc_state *s, bool on)
{
    struct hd_expars_cta_calc_out *q = &s->q;
    const uint64_t wpc = (s->tc + 31u) >> 5;
    s->st = HD_ECC_IDLE;
    q->done_o = 1;
    q->lower_o = s->lim;
    q->upper_o = s->up;
    q->max_reg_o = (s->rpt - 1u) & M(RW);
    q->wpc_o = wpc & M(TW - 4);
    if (on) {
        q->on_o = 1;
        q->cta_rf_o = (s->n - s->m) & M(CW);
        q->cta_mix_o = s->m;
        q->start_reg_o = s->sr;
        q->region_o = ((s->rpt - s->sr) * wpc * 128u) & M(SW + 6);
    } else {
        q->cta_rf_o = s->lim;
        q->start_reg_o = s->rpt;
    }
}

/* The next search point: M + 1, or N - 1 with M = 1; below CTA_Lower + 1 the baseline. */
static void advance(struct hd_expars_cta_calc_state *s)
{
    if (s->m < s->n) {
        s->m = (s->m + 1u) & M(CW);
        s->st = HD_ECC_PAIR;
        return;
    }
    s->n = (s->n - 1u) & M(CW);
    s->m = 1;
    if (s->n <= s->lim)
        finish(s, false);
    else
        s->st = HD_ECC_PAIR;
}

/* 4R + S and 4 R_CTA + S_CTA: the combined capacity and demand in bytes */
static void load_upper(struct hd_expars_cta_calc_state *s)
{
    load_div(s, (s->r << 2) + s->s, (s->rc << 2) + s->sc, HD_ECC_UP);
}

static void division_done(struct hd_expars_cta_calc_state *s, uint64_t quot)
{
    switch (s->ph) {
    case HD_ECC_THR:
        s->lim = min_u64(s->slots, quot);
        s->up = s->lim;
        load_div(s, s->r, s->rc, HD_ECC_RF);
        break;
    case HD_ECC_RF:
        s->lim = min_u64(s->lim, quot);
        if (s->sc != 0)
            load_div(s, s->s, s->sc, HD_ECC_SM);
        else
            load_upper(s);
        break;
    case HD_ECC_SM:
        s->lim = min_u64(s->lim, quot);
        load_upper(s);
        break;
    case HD_ECC_UP:
        s->up = min_u64(s->up, quot);
        load_div(s, s->rc + s->tc - 1u, s->tc, HD_ECC_RPT);
        break;
    case HD_ECC_RPT:
        s->rpt = quot & M(RW);
        if (s->up <= s->lim) {
            finish(s, false);
        } else {
            s->n = s->up;
            s->m = 1;
            s->st = HD_ECC_PAIR;
        }
        break;
    default: /* HD_ECC_SR */
        s->sr = min_u64(quot, s->rpt) & M(RW);
        s->st = HD_ECC_CHK;
        break;
    }
}

void hd_expars_cta_calc_ref_step(struct hd_expars_cta_calc_state *s,
                                 const struct hd_expars_cta_calc_in *in,
                                 struct hd_expars_cta_calc_out *out)
{
    *out = s->q;
    s->cycle++;
    memset(&s->q, 0, sizeof s->q);
    switch (s->st) {
    case HD_ECC_IDLE: {
        if (!(in->start_i & 1u))
            break;
        s->r = in->regs_i & M(RW);
        s->s = in->smem_i & M(SW);
        s->slots = in->slots_i & M(CW);
        s->rc = in->r_cta_i & M(RW);
        s->sc = in->s_cta_i & M(SW);
        s->tc = in->t_cta_i & M(TW);
        s->num = in->tau_num_i & M(QW);
        s->den = in->tau_den_i & M(QW);
        const uint64_t thr = in->threads_i & M(TW);
        const bool ok = s->r && s->s && s->slots && thr && s->rc && s->tc && s->num &&
                        s->num < s->den && s->tc <= thr && s->rc <= s->r && s->sc <= s->s;
        if (!ok) {
            s->q.done_o = 1;
            s->q.err_o = 1;
        } else {
            load_div(s, thr, s->tc, HD_ECC_THR);
        }
        break;
    }
    case HD_ECC_DIV: {
        /* one restoring step: shift the dividend's top bit into the remainder */
        const uint64_t t = (s->rem << 1) | ((s->quo >> (DW - 1)) & 1u);
        const bool ge = t >= s->dvs;
        s->rem = (ge ? t - s->dvs : t) & M(DW);
        s->quo = ((s->quo << 1) | (ge ? 1u : 0u)) & M(DW);
        if (s->cnt == DW - 1u)
            division_done(s, s->quo);
        else
            s->cnt++;
        break;
    }
    case HD_ECC_PAIR: {
        const uint64_t rf = (s->n - s->m) & M(CW);
        const uint64_t used = rf * s->rc;
        if (used > s->r)
            advance(s);
        else
            load_div(s, s->r - used, s->m * s->tc, HD_ECC_SR);
        break;
    }
    default: { /* HD_ECC_CHK */
        const uint64_t a = s->sr * s->tc; /* a thread's RF registers, times the threads */
        const bool tau_ok = a * s->den >= (s->den - s->num) * s->rc;
        const uint64_t spill = s->rc > a ? s->rc - a : 0;
        const bool spm_ok = s->n * s->sc + ((s->m * spill) << 2) <= s->s;
        if (tau_ok && spm_ok)
            finish(s, true);
        else
            advance(s);
        break;
    }
    }
    s->q.busy_o = s->st != HD_ECC_IDLE;
}

bool hd_expars_cta_calc_ref_idle(const struct hd_expars_cta_calc_state *s,
                                 const struct hd_expars_cta_calc_in *in)
{
    return !(in->start_i & 1u) && s->st == HD_ECC_IDLE && !(s->q.done_o & 1u) &&
           !(s->q.busy_o & 1u);
}
