/* SPDX-License-Identifier: MIT
 * sm_spill.c - register spill code in the issue stage: the fills (LDL) before and the stores
 * (STL) after every instruction that reads or writes a register the allocator spilled to local
 * memory (issue 17; docs/robustness.md "Register spills", docs/timing.md).
 *
 * Design. The register allocator (model/compiler/regalloc.h) marks the values that do not fit
 * the register budget ([sm] max_regs_per_thread, or the kernel's .maxnreg) HD_RA_SPILLED; the
 * timing view (tkernel.h) lists per PC which of them the instruction reads (fills) and writes
 * (stores) and where each one's slot lies in the thread's local memory. Whether a launch runs
 * that code is hd_regs_spill_timed (regs_source.h): always when its register count is Heddle's
 * own, and for a compiler's count (ptxas) only when it exceeds the GPU's limit (a compiler for
 * this target must spill; ptxas's own spills within the limit cannot be placed). A warp then
 * issues, in program order and one issue slot each, as the spill code ptxas writes:
 *     fills of X   one LDL per spilled source: a memory collector unit, the LD/ST unit, one
 *                  request per 128-byte row of local memory (the 32 lanes' words of a slot are
 *                  one row, as the hardware interleaves local memory), a load tracker; the
 *                  register is pending (a long load) until the last request returns, so X
 *                  waits for it in the scoreboard like any load's consumer;
 *     X            itself (the functional step: values never leave the functional model's
 *                  registers, so results are unchanged);
 *     stores of X  one STL per spilled destination, once X's result is written back (the store
 *                  reads it), fire-and-forget like any store: counted so that a fence and the
 *                  warp's end wait for them.
 * Fills use the lanes active at X, stores the lanes that executed X (none: no store). A fill's
 * collector, tracker and writeback carry HD_PC_SPILL | register as their PC, so the scoreboard
 * release (hd_twarp_sb_release) frees that register alone, wherever the warp is by then (a
 * warp's spill state is part of its timing state and moves with its context). Counted in
 * sm.spill_fills / sm.spill_stores (warp-level) and, as local requests, in sm.lmem_requests;
 * spill code is not counted as warp instructions (those stay the PTX instructions executed).
 */
#include "sm_impl.h"

#include "regs_source.h"
#include "timing_stats.h"
#include "tkernel.h"

static const struct hd_tspill_pc *spill_at(const struct hd_sm *sm, const struct hd_twarp *w,
                                           uint32_t pc)
{
    const struct hd_tkernel *tk = sm->cta[w->cta].la->tk;
    return tk && tk->spill_pc && pc < tk->k->ncode ? &tk->spill_pc[pc] : NULL;
}

/* The next spill operation due for warp w: its op (NULL: none), and whether it is a store. */
static const struct hd_tspill_op *next_op(const struct hd_sm *sm, const struct hd_twarp *w,
                                          bool *store)
{
    const struct hd_sm_launch *la = sm->cta[w->cta].la;
    const struct hd_tkernel *tk = la->tk;
    if (!tk || !tk->spill_pc || !la->info ||
        !hd_regs_spill_timed(la->info->regs_source, la->l->regs_per_thread,
                             sm->p->max_regs_per_thread))
        return NULL;
    if (w->sp_store_pc) {
        const struct hd_tspill_pc *s = spill_at(sm, w, w->sp_store_pc - 1);
        if (s && w->sp_store < s->nstore) {
            *store = true;
            return &tk->spill_op[s->first + s->nfill + w->sp_store];
        }
    }
    if (w->ib_n == 0 || w->done)
        return NULL;
    const struct hd_tspill_pc *s = spill_at(sm, w, w->ib_pc);
    if (!s || !s->nfill)
        return NULL;
    const uint32_t done = w->sp_fill_pc == w->ib_pc + 1 ? w->sp_fill : 0;
    if (done >= s->nfill)
        return NULL;
    *store = false;
    return &tk->spill_op[s->first + done];
}

int hd_sm_spill_head(const struct hd_sm *sm, const struct hd_twarp *w)
{
    bool store = false;
    const struct hd_tspill_op *op = next_op(sm, w, &store);
    return op ? w->sb[op->reg] : -1;
}

int hd_sm_spill_issue(struct hd_sm *sm, struct hd_twarp *w, uint64_t now)
{
    bool store = false;
    const struct hd_tspill_op *op = next_op(sm, w, &store);
    if (!op)
        return -1;
    if (w->sb[op->reg] != HD_SB_FREE) /* cannot happen: the warp is not READY then */
        return 0;
    const uint32_t cu = hd_sm_cu_find(sm, HD_TU_MEM);
    if (cu == HD_SM_NONE)
        return 0;
    uint32_t mask = w->sp_store_mask, pc = w->sp_store_pc - 1;
    if (!store) {
        uint32_t next_pc = 0;
        if (!hd_func_warp_next(w->fw, &next_pc, &mask))
            return -1;
        pc = w->ib_pc;
    }
    static const struct hd_tinstr vti = {.cls = HD_TC_MEM, .unit = HD_TU_MEM};
    hd_sm_cu_alloc(sm, cu, w, store ? pc : HD_PC_SPILL | op->reg, &vti, !store, now);
    w->inflight++;
    struct hd_memop *m = &sm->memops[sm->cu[cu].memop];
    hd_sm_memop_spill(sm, w, mask, op->word, op->words, store, m);
    if (store) {
        sm->st->spill_stores++;
        w->sp_store++;
    } else {
        sm->st->spill_fills++;
        w->sp_fill = w->sp_fill_pc == pc + 1 ? (uint16_t)(w->sp_fill + 1) : 1;
        w->sp_fill_pc = pc + 1;
        w->sb[op->reg] = HD_SB_LONG; /* free before (checked above) */
        w->sb_pending++;
        w->sb_long++;
    }
    hd_sm_warp_eval(sm, w, now);
    return 1;
}

void hd_sm_spill_issued(struct hd_sm *sm, struct hd_twarp *w, uint32_t pc, uint32_t exec)
{
    w->sp_fill_pc = 0; /* the next time X comes round, its fills are issued again */
    w->sp_fill = 0;
    const struct hd_tspill_pc *s = spill_at(sm, w, pc);
    if (!s || !s->nstore || !exec) {
        w->sp_store_pc = 0;
        return;
    }
    w->sp_store_pc = pc + 1;
    w->sp_store = 0;
    w->sp_store_mask = exec;
}
