/* SPDX-License-Identifier: MIT
 * gpuduet_me.c - GPUDuet's throughput monitor classes and ME controller (Lin thesis §3.6.3,
 * Table 3.3; digest §2.10, §3.13).
 *
 * Table 3.3, with the comparisons done by multiplication as the hardware would (§3.13):
 *   underutilised  sched < 60 % and icnt < 60 % and DRAM < 50 % and L1 < 60 % and L2 < 60 %
 *   saturated      sched > 80 % or  icnt > 90 % or  DRAM > 70 % or  L1 > 80 % or  L2 > 80 %
 *   moderate       otherwise
 * (icnt measured against the crossbar's sustainable throughput, which the caller folds into
 * icnt_cap.)
 * Update rule (§2.10): ME = 0 at launch; after the warm-up the first window classifies the
 * kernel: underutilised -> ME = upper bound; saturated -> ME = 0 (GPUDuet off); moderate ->
 * ME += 1 per window until the upper bound, or until a window shows a saturated resource.
 * Where the thesis is silent (digest §8.2 item 21) we choose: the class is the first window's
 * and is kept (no re-classification at phase changes); a moderate kernel whose window shows a
 * saturated resource backs ME off by one and stops there.
 * L1D as context storage (§2.10, L2058-L2061): "if there is no extra space in the register file
 * or shared memory and the L1-D cache bandwidth utilization is low (less than 3%), the L1-D cache
 * is entirely bypassed and used to store the spilled context". The ME upper bound counts the
 * L1D (L2021-L2025), so the L1D is wanted when the ME the controller sets has reached what the
 * register file and shared memory hold (ub, without the L1D) and the L1D would hold more TBs
 * (ub_l1 > ub); the controller then climbs on to the bound with the L1D (session 24: before, the
 * trigger was a TB refused for room, which a transient shortage met at an ME the register file
 * and shared memory held, and a moderate kernel's ME never rose into the L1D it was given).
 */
#include "gpuduet.h"

/* busy * 100 < pct * cap, and busy * 100 > pct * cap (cap 0: nothing to measure -> idle). */
static bool below(uint64_t busy, uint64_t cap, uint64_t pct)
{
    return !cap || busy * 100u < pct * cap;
}
static bool above(uint64_t busy, uint64_t cap, uint64_t pct)
{
    return cap && busy * 100u > pct * cap;
}

uint8_t gd_classify(const struct gd_util *u)
{
    if (above(u->sched, u->sched_cap, 80) || above(u->icnt, u->icnt_cap, 90) ||
        above(u->dram, u->dram_cap, 70) || above(u->l1, u->l1_cap, 80) ||
        above(u->l2, u->l2_cap, 80))
        return GD_CLASS_SATURATED;
    if (below(u->sched, u->sched_cap, 60) && below(u->icnt, u->icnt_cap, 60) &&
        below(u->dram, u->dram_cap, 50) && below(u->l1, u->l1_cap, 60) &&
        below(u->l2, u->l2_cap, 60))
        return GD_CLASS_UNDER;
    return GD_CLASS_MODERATE;
}

void gd_me_init(struct gd_me *m, uint32_t ub)
{
    *m = (struct gd_me){0, ub, GD_CLASS_NONE, false, 0};
}

uint32_t gd_me_window(struct gd_me *m, const struct gd_util *u)
{
    const uint8_t c = gd_classify(u);
    m->windows++;
    if (m->cls == GD_CLASS_NONE) {
        m->cls = c;
        if (c == GD_CLASS_UNDER)
            m->me = m->ub;
        else if (c == GD_CLASS_SATURATED)
            m->me = 0;
        else
            m->me = m->ub ? 1 : 0;
        m->done = c != GD_CLASS_MODERATE || m->me >= m->ub;
        return m->me;
    }
    if (m->done)
        return m->me;
    if (c == GD_CLASS_SATURATED) {
        m->me = m->me ? m->me - 1 : 0;
        m->done = true;
    } else if (++m->me >= m->ub) {
        m->me = m->ub;
        m->done = true;
    }
    return m->me;
}

bool gd_me_wants_l1d(const struct gd_me *m, uint32_t ub_l1, const struct gd_util *u,
                     bool tbs_left)
{
    return (m->cls == GD_CLASS_UNDER || m->cls == GD_CLASS_MODERATE) && tbs_left &&
           m->me >= m->ub && ub_l1 > m->ub && u->l1_cap && u->l1 * 100u < 3u * u->l1_cap;
}

void gd_me_raise_ub(struct gd_me *m, uint32_t ub)
{
    if (ub <= m->ub)
        return;
    m->ub = ub;
    if (m->cls == GD_CLASS_UNDER)
        m->me = ub;
    else if (m->cls == GD_CLASS_MODERATE && m->me < ub)
        m->done = false; /* (the search goes on: +1 per window into the L1D's room) */
}
