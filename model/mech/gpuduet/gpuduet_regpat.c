/* SPDX-License-Identifier: MIT
 * gpuduet_regpat.c - GPUDuet's reduced register allocation: live and compressed (Lin thesis
 * §3.6.5 "register context reduction", L2207-L2225; Ch.2 §2.3 liveness and §2.4 register value
 * compression; digest §2.3, §2.4, §2.12).
 *
 * The thesis's compiler evaluates, at every switch-out point (the first uses of global-load
 * destinations, and barriers), the size of a warp's live registers after warp-level compression
 * and takes the maximum as the kernel's register allocation size for spilled warps. Compression
 * stores a vector register as 4 B when its 32 lanes are uniform, 8 B (base, stride) when they
 * are strided, 128 B otherwise (per 32-lane group; §2.4). A compiler knows the pattern of a
 * register from how it is computed, so this file does it statically:
 *   class    flow-insensitive abstract interpretation over the kernel's code, one class per
 *            register (uniform < strided < random; the join of all its definitions, iterated to a
 *            fixed point): immediates, %ntid, %ctaid, %nctaid, kernel parameters, %tid.y/.z (one
 *            value per 32-lane row when blockDim.x is a multiple of 32, PAG = 32) and loads from
 *            a uniform address are uniform; %tid.x and %laneid are strided; integer add/sub of
 *            strided and uniform, integer mul/shl of strided by uniform, mad, mov and integer
 *            cvt keep an affine value affine; floating-point arithmetic keeps only uniform;
 *            anything else with a non-uniform operand is random, and so is a value written
 *            under a guard that may differ between lanes or where the warp may be diverged
 *            (the lanes that do not write it keep older values).
 *   size     at a point: live registers (annotation store, divergence-aware, held values only)
 *            times 4 B / 8 B / 128 B per 32-bit word by class, in 128 B units, rounded up.
 * The checker (gd_regpat_measure) reads the live registers of a warp the CSL switched out
 * (hd_mech_act.warp_lanes) and runs the regpat compressor's C reference (compressors/
 * regpat_comp.h, Fig 2.10) on each word: the words it stores are what the hardware would have
 * spilled, and a word the static class called uniform or strided that the compressor finds
 * random is an underestimate (counted; tests/gpuduet require none).
 */
#include "gpuduet.h"

#include "annot.h"
#include "func_instr.h"
#include "module.h"
#include "regpat_comp.h"

#include <stdlib.h>
#include <string.h>

enum { C_NONE = 0, C_UNI = 1, C_STR = 2, C_RND = 3 };

static uint8_t join(uint8_t a, uint8_t b)
{
    return a > b ? a : b;
}

static uint8_t src_class(const struct hd_func_src *s, const uint8_t *cls, uint32_t nregs)
{
    switch (s->kind) {
    case HD_SRC_IMM:
        return C_UNI;
    case HD_SRC_REG:
        return s->reg >= 0 && (uint32_t)s->reg < nregs ? (cls[s->reg] ? cls[s->reg] : C_UNI)
                                                       : C_RND;
    case HD_SRC_SREG:
        if (s->sreg == HD_SREG_TID)
            return s->dim == 0 ? C_STR : C_UNI;
        if (s->sreg == HD_SREG_LANEID)
            return C_STR;
        if (s->sreg == HD_SREG_NTID || s->sreg == HD_SREG_CTAID || s->sreg == HD_SREG_NCTAID ||
            s->sreg == HD_SREG_WARPID || s->sreg == HD_SREG_NWARPID || s->sreg == HD_SREG_SMID ||
            s->sreg == HD_SREG_NSMID || s->sreg == HD_SREG_GRIDID ||
            s->sreg == HD_SREG_DYNAMIC_SMEM_SIZE || s->sreg == HD_SREG_TOTAL_SMEM_SIZE)
            return C_UNI;
        return C_RND;
    default:
        return C_UNI;
    }
}

/* The class an instruction gives its destinations. */
static uint8_t def_class(const struct hd_func_instr *d, const uint8_t *cls, uint32_t nregs)
{
    uint8_t all = C_UNI, c[HD_FUNC_MAX_SRCS] = {0};
    for (uint32_t i = 0; i < d->nsrc && i < HD_FUNC_MAX_SRCS; i++) {
        c[i] = src_class(&d->src[i], cls, nregs);
        all = join(all, c[i]);
    }
    if (d->op == HD_OP_LD || d->op == HD_OP_LDU) { /* a uniform address reads one value */
        const uint8_t a = d->addr_reg < 0 ? C_UNI
                          : (uint32_t)d->addr_reg < nregs && cls[d->addr_reg] ? cls[d->addr_reg]
                                                                              : C_UNI;
        return a == C_UNI && d->as != HD_AS_LOCAL ? C_UNI : C_RND;
    }
    if (all == C_UNI && d->op != HD_OP_ATOM && d->op != HD_OP_SHFL && d->op != HD_OP_MATCH)
        return C_UNI;
    const uint8_t mode = d->ir ? d->ir->mode : 0;
    if (d->flt)
        return C_RND; /* float arithmetic on lane-varying values is not affine in its bits */
    switch (d->op) {
    case HD_OP_MOV:
    case HD_OP_CVTA:
        return all;
    case HD_OP_CVT: /* integer widening/narrowing of an affine value stays affine (mod 2^32) */
        return all == C_STR ? C_STR : C_RND;
    case HD_OP_ADD:
    case HD_OP_SUB:
        return all == C_STR ? C_STR : C_RND;
    case HD_OP_MUL:
    case HD_OP_SHL:
        if (mode == HD_MODE_HI || d->nsrc < 2)
            return C_RND;
        if (d->op == HD_OP_SHL)
            return c[0] == C_STR && c[1] == C_UNI ? C_STR : C_RND;
        return (c[0] == C_STR && c[1] == C_UNI) || (c[0] == C_UNI && c[1] == C_STR) ? C_STR
                                                                                : C_RND;
    case HD_OP_MAD:
        if (mode == HD_MODE_HI || d->nsrc < 3)
            return C_RND;
        if (!((c[0] == C_STR && c[1] == C_UNI) || (c[0] == C_UNI && c[1] <= C_STR)))
            return C_RND;
        return c[2] <= C_STR ? C_STR : C_RND;
    case HD_OP_VOTE: /* one value for the warp (all, any, uni, ballot) */
    case HD_OP_ACTIVEMASK:
        return C_UNI;
    default:
        return C_RND;
    }
}

/* Does d's guard (if any) possibly differ between the lanes? */
static bool lane_varying_guard(const struct hd_func_instr *d, const uint8_t *cls, uint32_t nregs)
{
    return d->guard >= 0 && ((uint32_t)d->guard >= nregs || cls[d->guard] > C_UNI);
}

/* The PCs a warp may reach with only some of its lanes, given the classes so far: the body of a
 * forward branch whose predicate may differ between lanes (to its reconvergence point; to the
 * end when it has none), the loop of such a backward branch, and everything after an exit or
 * return some lanes may take alone (the exited lanes keep their registers' old values). */
static void mark_divergent(const struct hd_func_kernel *k, const uint8_t *cls, uint8_t *div)
{
    for (uint32_t pc = 0; pc < k->ncode; pc++) {
        const struct hd_func_instr *d = &k->code[pc];
        const bool exits = d->op == HD_OP_EXIT || d->op == HD_OP_RET;
        if ((d->op != HD_OP_BRA && !exits) || !lane_varying_guard(d, cls, k->nregs))
            continue;
        uint32_t lo = pc + 1, hi = k->ncode; /* [lo, hi) */
        if (!exits && d->target >= 0 && (uint32_t)d->target <= pc) {
            lo = (uint32_t)d->target;
            hi = pc + 1;
        } else if (!exits && d->reconv >= 0 && (uint32_t)d->reconv > pc) {
            hi = (uint32_t)d->reconv;
            if (d->target >= 0 && (uint32_t)d->target > hi)
                hi = (uint32_t)d->target;
        }
        for (uint32_t i = lo; i < hi && i < k->ncode; i++)
            div[i] = 1;
    }
}

uint8_t *gd_regpat_classes(const struct hd_func_kernel *k, const struct hd_annot *an)
{
    (void)an;
    if (!k || !k->nregs)
        return NULL;
    uint8_t *cls = calloc(k->nregs, 1);
    uint8_t *div = calloc(k->ncode ? k->ncode : 1, 1);
    if (!cls || !div) {
        free(cls);
        free(div);
        return NULL;
    }
    for (bool changed = true; changed;) { /* monotone: classes and divergence only rise */
        changed = false;
        mark_divergent(k, cls, div);
        for (uint32_t pc = 0; pc < k->ncode; pc++) {
            const struct hd_func_instr *d = &k->code[pc];
            if (!d->ndst)
                continue;
            uint8_t c = def_class(d, cls, k->nregs);
            /* Written by only some lanes (a guard that may differ between lanes, or a PC the
             * warp may reach diverged): the other lanes keep older values. */
            const bool partial = lane_varying_guard(d, cls, k->nregs) || div[pc];
            if (partial && c < C_RND)
                c = C_RND;
            for (uint32_t i = 0; i < d->ndst && i < HD_FUNC_MAX_DSTS; i++) {
                const int32_t r = d->dst[i];
                if (r < 0 || (uint32_t)r >= k->nregs)
                    continue;
                const uint8_t n = join(cls[r], c);
                if (n != cls[r]) {
                    cls[r] = n;
                    changed = true;
                }
            }
        }
    }
    free(div);
    return cls;
}

/* Bytes word `word` of a register of class c takes compressed. The high word of a strided
 * 64-bit value is random for the compressor whenever a carry or a sign crosses the group
 * (base + tid - 1 at tid 0, an address crossing 4 GiB), which a compiler cannot rule out:
 * counted as random. */
static uint32_t word_bytes(uint8_t c, uint32_t word)
{
    if (c == C_STR && word > 0)
        return 128u;
    return c == C_UNI || c == C_NONE ? 4u : c == C_STR ? 8u : 128u;
}

uint32_t gd_regpat_point_units(const struct hd_annot *an, const uint8_t *cls, uint32_t nregs,
                               uint32_t pc, uint32_t *live_words)
{
    uint32_t regs[256];
    const unsigned n = hd_annot_live_regs(an, pc, true, true, regs, 256);
    uint64_t bytes = 0, words = 0;
    for (unsigned i = 0; i < n; i++) {
        const uint32_t w = hd_annot_reg_words(an, regs[i]);
        const uint8_t c = cls && regs[i] < nregs ? cls[regs[i]] : C_RND;
        words += w;
        for (uint32_t k = 0; k < w; k++)
            bytes += word_bytes(c, k);
    }
    if (n > 256) { /* (more live registers than the row holds: count the rest as random) */
        const uint32_t all = hd_annot_live_words(an, pc, true, true);
        bytes += (uint64_t)(all > words ? all - words : 0) * 128u;
        words = all;
    }
    *live_words = (uint32_t)words;
    return (uint32_t)((bytes + GD_UNIT - 1) / GD_UNIT);
}

void gd_regpat_measure(struct gd *g, uint32_t sm, struct gd_launch *L, uint32_t ctx,
                       uint32_t warp, uint32_t pc)
{
    if (!L || !L->an || !g->act->warp_lanes)
        return;
    uint32_t regs[256];
    const unsigned n = hd_annot_live_regs(L->an, pc, true, true, regs, 256);
    uint64_t hw_bytes = 0, st_bytes = 0;
    for (unsigned i = 0; i < n && i < 256; i++) {
        const uint32_t w = hd_annot_reg_words(L->an, regs[i]);
        const uint8_t c = L->cls && regs[i] < L->nregs ? L->cls[regs[i]] : C_RND;
        for (uint32_t k = 0; k < w; k++) {
            struct hd_regpat_comp_in ci;
            struct hd_regpat_comp_out co;
            memset(&ci, 0, sizeof ci);
            uint32_t lanes[HD_REGPAT_LANES];
            unsigned pag = HD_REGPAT_PAG32;
            if (!g->act->warp_lanes(g->act->gpu, sm, ctx, warp, regs[i], k, lanes, &pag))
                return;
            ci.valid_i = 1;
            ci.live_i = 1;
            ci.pag_i = pag;
            memcpy(ci.data_i, lanes, sizeof ci.data_i);
            hd_regpat_comp_eval(&ci, &co);
            const uint32_t b = 4u * (uint32_t)co.words_o;
            hw_bytes += b;
            st_bytes += word_bytes(c, k);
            L->cp_words++;
            L->cp_under += word_bytes(c, k) < b && b == 128u;
        }
    }
    const uint32_t hw = (uint32_t)((hw_bytes + GD_UNIT - 1) / GD_UNIT);
    L->cp_points++;
    L->cp_hw_sum += hw;
    if (hw > L->cp_hw_max)
        L->cp_hw_max = hw;
    (void)st_bytes;
}
