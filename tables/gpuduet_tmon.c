/* SPDX-License-Identifier: MIT
 * gpuduet_tmon.c - the throughput monitor and ME controller's C reference (gpuduet_tmon.h).
 *
 * Design: the phase, cycle counter, window counts and ME registers mirror the RTL's; one edge
 * applies start, stop, the warm-up count or the window's count and, at its last cycle, the
 * classification and ME update.
 */
#include "gpuduet_tmon.h"

#include <string.h>

#define HD_PORTS_DEF "gpuduet_tmon_ports.def"
#define HD_PORTS_IN_T struct hd_gpuduet_tmon_in
#define HD_PORTS_OUT_T struct hd_gpuduet_tmon_out
#define HD_PORTS_BLOCK_VAR hd_gpuduet_tmon_block
#include "hd_ports_table.h"

#define WIN_MASK (((uint64_t)1 << GPUDUET_TMON_WinW) - 1u)
#define MW_MASK (((uint64_t)1 << GPUDUET_TMON_MW) - 1u)
#define IN_MASK (((uint64_t)1 << GPUDUET_TMON_InW) - 1u)
#define CNT_MASK (((uint64_t)1 << GPUDUET_TMON_CntW) - 1u)

unsigned hd_gpuduet_tmon_cap(unsigned k)
{
    static const unsigned cap[HD_TMON_NRES] = {GPUDUET_TMON_NSched, GPUDUET_TMON_L1Cap,
                                               GPUDUET_TMON_IcntCap, GPUDUET_TMON_L2Cap,
                                               GPUDUET_TMON_DramCap};
    return k < HD_TMON_NRES ? cap[k] : 0;
}

unsigned hd_gpuduet_tmon_pct(unsigned k)
{
    return k == HD_TMON_ICNT ? 60u : 100u;
}

static unsigned hd_gpuduet_tmon_low_pct(unsigned k)
{
    return k == HD_TMON_DRAM ? 50u : 60u;
}

static unsigned hd_gpuduet_tmon_sat_pct(unsigned k)
{
    return k == HD_TMON_ICNT ? 90u : k == HD_TMON_DRAM ? 70u : 80u;
}

const char *hd_gpuduet_tmon_class_name(unsigned cls)
{
    static const char *const names[] = {"none", "underutilized", "moderate", "saturated"};
    return cls < 4 ? names[cls] : "?";
}

void hd_gpuduet_tmon_ref_reset(struct hd_gpuduet_tmon_state *s)
{
    memset(s, 0, sizeof *s);
    hd_block_reset_values(&hd_gpuduet_tmon_block, HD_DIR_OUT, &s->q);
}

/* The window's last cycle: classify (counts include this cycle) and update ME. */
static void window_end(struct hd_gpuduet_tmon_state *s, const uint64_t *cnt)
{
    unsigned low = 0, sat = 0;
    for (unsigned k = 0; k < HD_TMON_NRES; k++) {
        uint64_t lhs = cnt[k] * 10000u;
        uint64_t wc = (uint64_t)s->win * (hd_gpuduet_tmon_pct(k) * hd_gpuduet_tmon_cap(k));
        low |= (unsigned)(lhs < wc * hd_gpuduet_tmon_low_pct(k)) << k;
        sat |= (unsigned)(lhs > wc * hd_gpuduet_tmon_sat_pct(k)) << k;
    }
    unsigned cls = low == 31u ? HD_TMON_UNDER : sat ? HD_TMON_SATURATED : HD_TMON_MODERATE;
    bool l1low = cnt[HD_TMON_L1] * 10000u < (uint64_t)s->win * (3u * 100u * GPUDUET_TMON_L1Cap);
    if (s->first) {
        s->first = 0;
        s->search = cls == HD_TMON_MODERATE;
        s->me = cls == HD_TMON_UNDER ? s->ub : cls == HD_TMON_SATURATED ? 0 : s->ub != 0;
    } else if (s->search) {
        if (cls == HD_TMON_SATURATED) {
            s->search = 0;
            s->me = s->me ? s->me - 1u : 0;
        } else if (s->me < s->ub) {
            s->me++;
        }
    }
    s->q.upd_v_o = 1;
    s->q.cls_o = cls;
    s->q.me_o = s->me;
    s->q.l1ctx_o = cls != HD_TMON_SATURATED && l1low;
    s->q.sat_o = sat;
    s->q.low_o = low;
}

void hd_gpuduet_tmon_ref_step(struct hd_gpuduet_tmon_state *s, const struct hd_gpuduet_tmon_in *in,
                              struct hd_gpuduet_tmon_out *out)
{
    *out = s->q;
    s->cycle++;
    memset(&s->q, 0, sizeof s->q);
    if (in->start_i & 1u) {
        s->warm = (uint32_t)(in->warm_i & WIN_MASK);
        s->win = (uint32_t)(in->win_i & WIN_MASK);
        if (s->win == 0)
            s->win = 1;
        s->ub = (uint32_t)(in->me_ub_i & MW_MASK);
        s->me = 0;
        s->first = 1;
        s->search = 0;
        memset(s->cnt, 0, sizeof s->cnt);
        s->cyc = 0;
        s->phase = s->warm == 0 ? HD_TMON_WIN : HD_TMON_WARM;
        return;
    }
    if (in->stop_i & 1u) {
        s->phase = HD_TMON_OFF;
        return;
    }
    if (s->phase == HD_TMON_WARM) {
        if (((s->cyc + 1u) & WIN_MASK) == s->warm) {
            s->cyc = 0;
            s->phase = HD_TMON_WIN;
        } else {
            s->cyc = (uint32_t)((s->cyc + 1u) & WIN_MASK);
        }
        return;
    }
    if (s->phase != HD_TMON_WIN)
        return;
    const uint64_t inc[HD_TMON_NRES] = {in->iss_i, in->l1_i, in->icnt_i, in->l2_i, in->dram_i};
    for (unsigned k = 0; k < HD_TMON_NRES; k++)
        s->cnt[k] = (s->cnt[k] + (inc[k] & IN_MASK)) & CNT_MASK;
    if (((s->cyc + 1u) & WIN_MASK) == s->win) {
        window_end(s, s->cnt);
        memset(s->cnt, 0, sizeof s->cnt);
        s->cyc = 0;
    } else {
        s->cyc = (uint32_t)((s->cyc + 1u) & WIN_MASK);
    }
}

bool hd_gpuduet_tmon_ref_idle(const struct hd_gpuduet_tmon_state *s,
                              const struct hd_gpuduet_tmon_in *in)
{
    return !((in->start_i | in->stop_i) & 1u) && s->phase == HD_TMON_OFF && !(s->q.upd_v_o & 1u);
}
