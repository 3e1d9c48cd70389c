/* SPDX-License-Identifier: MIT
 * preempt_tables.c - the policy view from Shieh's tables' reads (preempt_tables.h).
 */
#include "preempt_tables.h"

#include <string.h>

bool hd_preempt_tables_view(struct hd_shieh_loop *L, const struct hd_preempt_sm *v,
                            const struct hd_preempt_need *need, struct hd_preempt_cta *ctas,
                            struct hd_preempt_sm *out, struct hd_shieh_snap *snap)
{
    const struct hd_shieh_footprint f = {need->demand.regs, need->demand.smem};
    if (hd_shieh_loop_read(L, v->sm, need->launch, &f, need->now, snap) != HD_SHL_READY)
        return false;
    *out = *v;
    out->cta = ctas;
    uint64_t held = 0;
    for (uint32_t i = 0; i < v->ncta; i++) {
        struct hd_preempt_cta *c = &ctas[i];
        *c = v->cta[i];
        if (c->slot >= HD_SHL_TBS)
            return false;
        held |= 1ull << c->slot;
        if (c->launch == need->launch)
            continue; /* (the asking launch's TBs: the allocation status says where) */
        if (!snap->valid[c->slot] || snap->ctx[c->slot] != c->ctx) {
            hd_shieh_loop_read(L, v->sm, need->launch, &f, need->now, snap); /* read again */
            return false;
        }
        c->warp_instrs = snap->instr[c->slot];
        c->placed = snap->issue[c->slot];
        c->flushable = snap->flush[c->slot];
        struct hd_shieh_kstats_acc k; /* its launch's statistics from the exit reports */
        hd_shieh_loop_kstats(L, c->launch, &k);
        c->done_ctas = k.n;
        c->done_instrs = k.instrs;
        c->done_cycles = k.cycles;
        c->done_cpi_n = k.cpi_n;
        c->done_cpi_sum = k.cpi_sum;
        c->done_cpi_sq = k.cpi_sq;
    }
    for (uint32_t p = 0; p < snap->k && p < HD_SHIEH_MAX_POS; p++)
        snap->cand[p] &= held; /* TBs that left after the row was read */
    return true;
}
