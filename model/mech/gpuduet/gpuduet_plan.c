/* SPDX-License-Identifier: MIT
 * gpuduet_plan.c - GPUDuet's per-kernel plan (Lin thesis ch.3; digest §2.8, §2.10, §2.12):
 * the native number of TBs per SM (MC) and the resources that cap it, the switching level the
 * limiting resources choose (§2.8's table), which context leaves the arrays when a warp or TB is
 * switched out (only the limiting one), the upper bound of the extra TBs ME (§2.10), and the
 * reduced register allocation per warp computed from the kernel's liveness (§2.12).
 *
 * Design: pure functions of counts in 128-byte units; gpuduet_alloc.c and the ME controller use
 * the plan, tests/unit/test_gpuduet.c checks it on hand-made shapes.
 *   MC       min(warp slots / n, TB slots, register units / (n R), shared units / S)
 *   level    registers and shared memory both limit -> off; shared memory limits -> TB level;
 *            otherwise (registers and/or warp or TB slots) -> warp level. GPUDuet_TB: TB level
 *            unless both limit. Virtual Thread: TB level, nothing leaves the arrays.
 *   leaving  the limiting context (§2.10: the one that must leave to host the ME extra TBs):
 *            registers when they limit MC, or (session 27) when the RF cannot hold the extra
 *            TBs' registers at full size and leaving them hosts more (not with shared memory
 *            leaving: both leaving is excluded, §2.8); shared memory when it limits MC.
 *            Decided once per launch: the L1D rule later recomputes only the bound.
 *   ME_ub    min(128 / n - MC (warp context table), 32 - MC (TB context table), the unified
 *            capacity: what the MC resident TBs leave of RF + shared memory + L1D context units,
 *            over one extra TB's context: n (R' + ST) + S with R' = r when registers leave the
 *            register file, else R), and, for a context that stays in its own array, what that
 *            array holds. Virtual Thread: bounded by the register file and shared memory.
 *   reduced  max over switch-out points of the live registers there (divergence-aware rows of
 *            the annotation store, held values only), compressed by their static pattern
 *            classes (gpuduet_regpat.c): barriers, and every instruction that reads a register
 *            a global, local or generic load (or atomic) writes (a superset of the first uses,
 *            so the maximum is never below the first uses' one).
 */
#include "gpuduet.h"

#include "annot.h"
#include "func_instr.h"
#include "module.h"

#include <stdlib.h>

static uint32_t min_u(uint32_t a, uint32_t b)
{
    return a < b ? a : b;
}

/* The extra TBs' upper bound of a plan whose leaving contexts are set (§2.10 items 1-3). */
static uint32_t plan_ub(const struct gd_caps *c, uint8_t mode, const struct gd_plan *p)
{
    const uint32_t n = p->n, mc = p->mc, R = p->R, S = p->S;
    uint32_t ub = GD_WCT_ENTRIES / n > mc ? GD_WCT_ENTRIES / n - mc : 0;
    ub = min_u(ub, GD_TBCT_ENTRIES > mc ? GD_TBCT_ENTRIES - mc : 0);
    if (!p->spill_regs && R) { /* registers stay in the register file */
        const uint32_t by_r = c->rf_units / (n * R);
        ub = min_u(ub, by_r > mc ? by_r - mc : 0);
    }
    if (!p->spill_smem && S) {
        const uint32_t by_s = c->smem_units / S;
        ub = min_u(ub, by_s > mc ? by_s - mc : 0);
    }
    if (mode != GD_MODE_VT) {
        const uint64_t total = (uint64_t)c->rf_units + c->smem_units + c->l1_units;
        const uint64_t used = (uint64_t)mc * ((uint64_t)n * R + S);
        const uint64_t per = (uint64_t)n * ((p->spill_regs ? p->r : R) + GD_ST_UNITS) + S;
        const uint64_t cap = total > used ? (total - used) / per : 0;
        ub = (uint32_t)(cap < ub ? cap : ub);
    }
    return ub;
}

void gd_plan_make(const struct gd_caps *c, uint8_t mode, uint32_t n, uint32_t R, uint32_t r,
                  uint32_t S, struct gd_plan *out)
{
    *out = (struct gd_plan){0};
    out->n = n ? n : 1;
    out->R = R;
    out->r = r < R ? r : R;
    out->S = S;
    n = out->n;
    const uint32_t by_w = c->warps / n, by_c = c->ctas;
    const uint32_t by_r = R ? c->rf_units / (n * R) : UINT32_MAX;
    const uint32_t by_s = S ? c->smem_units / S : UINT32_MAX;
    const uint32_t mc = min_u(min_u(by_w, by_c), min_u(by_r, by_s));
    out->mc = mc;
    out->lim = (by_r == mc ? GD_LIM_REGS : 0u) | (by_s == mc ? GD_LIM_SMEM : 0u) |
               (by_w == mc ? GD_LIM_WARPS : 0u) | (by_c == mc ? GD_LIM_CTAS : 0u);
    const bool both = (out->lim & GD_LIM_REGS) && (out->lim & GD_LIM_SMEM);
    if (mc == 0 || both) {
        out->level = GD_LEVEL_OFF;
        return;
    }
    if (mode == GD_MODE_VT) {
        out->level = GD_LEVEL_TB;
    } else if (mode == GD_MODE_TB || (out->lim & GD_LIM_SMEM)) {
        out->level = GD_LEVEL_TB;
        out->spill_smem = (out->lim & GD_LIM_SMEM) != 0;
        out->spill_regs = (out->lim & GD_LIM_REGS) != 0;
    } else {
        out->level = GD_LEVEL_WARP;
        out->spill_regs = (out->lim & GD_LIM_REGS) != 0;
    }
    out->me_ub = plan_ub(c, mode, out);
    /* §2.10: the limiting context is the one that must leave to host the ME extra TBs. When the
     * RF cannot hold the extra TBs' registers at full size (a warp- or TB-slot-limited kernel),
     * registers leave too, as a register-limited kernel's do, if that hosts more extra TBs.
     * Not when shared memory leaves: registers and shared memory both leaving is §2.8's and
     * §2.10 item 4's excluded case, so such a kernel keeps the bound with registers home. */
    if (mode != GD_MODE_VT && !out->spill_regs && !out->spill_smem && R) {
        struct gd_plan leave = *out;
        leave.spill_regs = true;
        leave.me_ub = plan_ub(c, mode, &leave);
        if (leave.me_ub > out->me_ub) {
            *out = leave;
            out->regs_room = true;
        }
    }
}

uint32_t gd_plan_ub(const struct gd_caps *c, uint8_t mode, const struct gd_plan *p)
{
    return p->level == GD_LEVEL_OFF ? 0 : plan_ub(c, mode, p);
}

static bool is_load(const struct hd_func_instr *d)
{
    return (d->op == HD_OP_LD || d->op == HD_OP_LDU || d->op == HD_OP_ATOM) &&
           (d->as == HD_AS_GLOBAL || d->as == HD_AS_LOCAL || d->as == HD_AS_GENERIC);
}

uint32_t gd_reduced_units(const struct hd_func_kernel *k, const struct hd_annot *an,
                          const uint8_t *cls, uint32_t *points, uint32_t *live)
{
    *points = *live = 0;
    if (!k || !an || !k->nregs)
        return 0;
    uint8_t *loaded = calloc(k->nregs, 1);
    if (!loaded)
        return 0;
    for (uint32_t pc = 0; pc < k->ncode; pc++) {
        const struct hd_func_instr *d = &k->code[pc];
        if (!is_load(d))
            continue;
        for (uint32_t i = 0; i < d->nwrite; i++)
            if (d->write[i] >= 0 && (uint32_t)d->write[i] < k->nregs)
                loaded[d->write[i]] = 1;
    }
    uint32_t best = 0;
    for (uint32_t pc = 0; pc < k->ncode; pc++) {
        const struct hd_func_instr *d = &k->code[pc];
        bool point = (hd_annot_flags(an, pc) & HD_AN_BARRIER) != 0;
        for (uint32_t i = 0; !point && i < d->nread; i++)
            point = d->read[i] >= 0 && (uint32_t)d->read[i] < k->nregs && loaded[d->read[i]];
        if (!point)
            continue;
        (*points)++;
        uint32_t words;
        const uint32_t units = cls ? gd_regpat_point_units(an, cls, k->nregs, pc, &words)
                                   : (words = hd_annot_live_words(an, pc, true, true));
        if (words > *live)
            *live = words;
        if (units > best)
            best = units;
    }
    free(loaded);
    return best;
}
