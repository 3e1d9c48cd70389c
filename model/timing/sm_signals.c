/* SPDX-License-Identifier: MIT
 * sm_signals.c - what the SM tells policies beyond placement and issue (issue 25 item 6;
 * mech.h, docs/hooks.md): a warp that began to wait for a long-latency load or at a barrier,
 * the L1D miss of a load while its warp may still wait for it, and a load's return with its
 * L1D hit or miss. GPUDuet switches out warps that wait on loads that missed the L1D; Zorua and
 * Virtual Thread act on warps that wait at barriers or on long loads.
 *
 * Design. The memory system sends a notice when a load's request misses the L1D at its lookup
 * (mem_iface.h l1_miss_notices; turned on by the GPU when some hook takes stall events); the
 * SM marks the load tracker and turns the scoreboard marks of the load's destination registers
 * from HD_SB_LONG into HD_SB_MISS, which every scoreboard test treats like LONG (so cycles do
 * not change). A warp whose next instruction waits on a MISS register is "stalled at the first
 * use of a register whose load missed the L1D": the stall event says so when the warp begins
 * to wait, or, if it waited already, when the notice comes. A response carries where it was
 * served (hd_mem_req.served); a load whose requests all came from the L1D hit it. A notice for
 * a warp that is not in a warp slot (its context moved) marks only the tracker. Nothing here
 * runs while no hook has the callbacks: the callers test the hooks' any_* flags.
 */
#include "sm_impl.h"

/* The worst scoreboard mark of the registers w waits on to issue its next instruction (its due
 * spill code first, as hd_sm_warp_eval decides). */
static uint8_t head_mark(const struct hd_sm *sm, const struct hd_twarp *w)
{
    const int sp = hd_sm_spill_head(sm, w);
    if (sp >= 0)
        return (uint8_t)sp;
    if (w->ib_n == 0 || w->sb_pending == 0)
        return HD_SB_FREE;
    const struct hd_func_instr *d = &hd_sm_warp_kernel(sm, w)->code[w->ib_pc];
    uint8_t worst = HD_SB_FREE;
    for (unsigned i = 0; i < d->nread; i++)
        worst = w->sb[d->read[i]] > worst ? w->sb[d->read[i]] : worst;
    for (unsigned i = 0; i < d->nwrite; i++)
        worst = w->sb[d->write[i]] > worst ? w->sb[d->write[i]] : worst;
    return worst;
}

static void fire_stall(struct hd_sm *sm, const struct hd_twarp *w, uint8_t why)
{
    const struct hd_tcta *c = &sm->cta[w->cta];
    const struct hd_hook_warp hw = {sm->id, w->slot, c->la->id, c->ctx->id, w->fw->id, w->ib_pc};
    hd_hooks_stalled(sm->hooks, &hw, why, sm->last_tick);
}

void hd_sm_sig_state(struct hd_sm *sm, struct hd_twarp *w, uint8_t os, uint8_t ns)
{
    if (ns == HD_WS_BARRIER && os != HD_WS_BARRIER) {
        fire_stall(sm, w, HD_HSTALL_BARRIER);
    } else if (ns == HD_WS_SB_MEM && os != HD_WS_SB_MEM) {
        const uint8_t m = head_mark(sm, w);
        if (m >= HD_SB_LONG)
            fire_stall(sm, w, m == HD_SB_MISS ? HD_HSTALL_LOAD_MISS : HD_HSTALL_LOAD);
    }
}

/* Load tracker idx missed the L1D. */
static void notice(struct hd_sm *sm, uint32_t idx)
{
    struct hd_load_tracker *t = &sm->lt[idx];
    if (t->l1_miss)
        return; /* (another request of the same load) */
    t->l1_miss = true;
    struct hd_twarp *w = hd_sm_wref_local(sm, hd_wref_unpack(t->ref));
    if (!w)
        return;
    bool marked = false;
    if (t->pc & HD_PC_AHEAD) { /* a HAWS run-ahead load marks nothing (sm_ahead.c) */
    } else if (t->pc & HD_PC_SPILL) {
        uint8_t *m = &w->sb[t->pc & ~HD_PC_SPILL];
        if (*m == HD_SB_LONG) {
            *m = HD_SB_MISS;
            marked = true;
        }
    } else {
        const struct hd_func_instr *d = &hd_sm_warp_kernel(sm, w)->code[t->pc];
        for (unsigned i = 0; i < d->nwrite; i++)
            if (w->sb[d->write[i]] == HD_SB_LONG) {
                w->sb[d->write[i]] = HD_SB_MISS;
                marked = true;
            }
    }
    if (marked && w->state == HD_WS_SB_MEM && head_mark(sm, w) == HD_SB_MISS)
        fire_stall(sm, w, HD_HSTALL_LOAD_MISS); /* it waited already: now it knows why */
}

void hd_sm_sig_notices(struct hd_sm *sm, uint64_t now)
{
    (void)now;
    uint64_t tags[32];
    unsigned n;
    while ((n = sm->mem->l1_miss_notices(sm->mem->impl, sm->id, tags, 32)) > 0)
        for (unsigned i = 0; i < n; i++)
            if (hd_tag_type(tags[i]) == HD_TAG_LOAD)
                notice(sm, (uint32_t)hd_tag_payload(tags[i]));
}

void hd_sm_sig_load_returned(struct hd_sm *sm, struct hd_wref ref, uint32_t pc, bool l1_miss,
                             uint64_t now)
{
    struct hd_hook_warp hw = {sm->id, HD_HOOK_NO_SLOT, 0, ref.ctx, ref.warp,
                              pc & HD_PC_SPILL ? HD_HOOK_PC_SPILL | (pc & ~HD_PC_SPILL) : pc};
    const struct hd_ctx *x = hd_ctx_get(sm->pool, ref.ctx);
    if (x && x->la)
        hw.launch = x->la->id;
    const struct hd_twarp *w = hd_sm_wref_local(sm, ref);
    if (w)
        hw.slot = w->slot;
    hd_hooks_load_returned(sm->hooks, &hw, !l1_miss, now);
}
