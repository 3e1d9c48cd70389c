/* SPDX-License-Identifier: MIT
 * expars_loop_pref.c - EXPARS's register prefetcher (the block expars_pref: BVT, prefetching
 * queue, set probe, fetch in flight; Yu et al. TACO 2018 §3.3.4; digest §2.5, §2.8) stepped in
 * the GPU timing loop (expars_loop.h; docs/blocks/expars_units.md "expars_pref").
 *
 * Events: each request the model's prefetcher (expars_rp.c) applies to the block's C reference
 * (its state in struct hd_expars_sm) is stepped into the SM's instance as well: the PREF
 * vector's words and the PUSH when a warp enters a bundle (hd_expars_pool_hold), the DROP when
 * it leaves one queued or its CTA leaves, the TICK of each prefetcher cycle with the operand
 * cache's line status, and the DONE with the fetch's transfers. Clock: as the other EXPARS
 * blocks, the edge that takes the request then a read-out edge, both stamped with the model
 * cycle. Check: every output against the model's answer at the block's widths; a difference
 * stops the run with a located message; the block's answer is then the one used (with
 * --drive rtl the RTL's).
 */
#include "expars_loop.h"
#include "expars_sm.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define M(w) ((uint64_t)((1ull << (w)) - 1u))

static const char *const pref_name[5] = {"BVT write", "PUSH", "DROP", "TICK", "DONE"};

void hd_expars_loop_pref(struct hd_expars_loop *L, const struct hd_expars_sm *s,
                         const struct hd_expars_pref_req *r, struct hd_expars_pref_ans *a,
                         uint64_t now)
{
    const uint32_t sm = s->id;
    struct hd_hw_inst *x = hd_expars_loop_pref_inst(L, sm, now);
    if (!x)
        return;
    struct hd_expars_pref_in in;
    memset(&in, 0, sizeof in);
    in.op_v_i = 1;
    in.op_i = r->op & 7u;
    in.warp_i = r->warp & M(EXPARS_PREF_WW);
    in.idx_i = r->idx & M(EXPARS_PREF_IW);
    in.word_i = r->word;
    in.front_i = r->front;
    in.start_i = r->start > M(EXPARS_PREF_RW) ? M(EXPARS_PREF_RW) : r->start;
    in.now_i = r->now & M(EXPARS_PREF_NW);
    in.n_i = r->n & M(EXPARS_PREF_KW);
    in.lat_i = r->lat & M(EXPARS_PREF_LW);
    if (r->op == HD_EXPARS_PREF_TICK && r->lines)
        hd_expars_pref_pack_lines(&in, r->lines, s->pref.nlines);
    if (r->op == HD_EXPARS_PREF_BVT && hd_expars_pref_queued(&s->pref, r->warp)) {
        /* the block's contract (expars_pref.h): the list of a queued warp is made from its
         * vector when it becomes the head, so the vector is not rewritten while it is queued */
        char msg[256];
        snprintf(msg, sizeof msg,
                 "sm%u.expars_pref at cycle %" PRIu64 ": BVT write of warp slot %u word %u while "
                 "it is queued (the block's contract: drop it first)",
                 sm, hd_expars_loop_now(L), r->warp, r->idx);
        hd_expars_loop_mismatch(L, msg);
        return;
    }
    struct hd_expars_pref_out out, want;
    if (hd_expars_loop_step(L, sm, x, &in, &out, r->warp) != 0)
        return;
    struct hd_expars_pref_in idle;
    memset(&idle, 0, sizeof idle); /* the read-out edge: the registered answer */
    if (hd_expars_loop_step(L, sm, x, &idle, &out, r->warp) != 0)
        return;
    hd_expars_pref_pack_ans(&want, a); /* the model's answer at the block's widths */
    want.rel_warp_o &= M(EXPARS_PREF_WW);
    want.warp_o &= M(EXPARS_PREF_WW);
    want.n_o &= M(EXPARS_PREF_KW);
    if (hd_expars_loop_faulted(L))
        want.res_v_o ^= 1u; /* test only: a wrong expectation */
    if (memcmp(&want, &out, sizeof out) != 0) {
        char msg[1024];
        snprintf(msg, sizeof msg,
                 "sm%u.expars_pref at cycle %" PRIu64 ": %s of warp slot %u (Start_Reg %u): "
                 "res_v_o=%u busy_o=%u rel_v_o=%u rel_warp_o=%u conflict_o=%u steal_o=%u "
                 "start_v_o=%u warp_o=%u n_o=%u dropped_o=%u qn_o=%u need_o[0]=%u; the model "
                 "(expars_rp.c) has %u %u %u %u %u %u %u %u %u %u %u %u",
                 sm, hd_expars_loop_now(L), pref_name[r->op < 5 ? r->op : 0], r->warp, r->start,
                 (unsigned)out.res_v_o, (unsigned)out.busy_o, (unsigned)out.rel_v_o,
                 (unsigned)out.rel_warp_o, (unsigned)out.conflict_o, (unsigned)out.steal_o,
                 (unsigned)out.start_v_o, (unsigned)out.warp_o, (unsigned)out.n_o,
                 (unsigned)out.dropped_o, (unsigned)out.qn_o,
                 (unsigned)(out.need_o[0] & M(EXPARS_PREF_RW)), (unsigned)want.res_v_o,
                 (unsigned)want.busy_o, (unsigned)want.rel_v_o, (unsigned)want.rel_warp_o,
                 (unsigned)want.conflict_o, (unsigned)want.steal_o, (unsigned)want.start_v_o,
                 (unsigned)want.warp_o, (unsigned)want.n_o, (unsigned)want.dropped_o,
                 (unsigned)want.qn_o, (unsigned)(want.need_o[0] & M(EXPARS_PREF_RW)));
        hd_expars_loop_mismatch(L, msg);
        return;
    }
    /* the block's answer is the one used (equal here; with --drive rtl the RTL's) */
    a->busy = out.busy_o & 1u;
    a->rel = out.rel_v_o & 1u;
    a->rel_warp = (uint32_t)out.rel_warp_o;
    a->conflict = out.conflict_o & 1u;
    a->steal = out.steal_o & 1u;
    a->start = out.start_v_o & 1u;
    a->warp = (uint32_t)out.warp_o;
    a->n = (uint32_t)out.n_o;
    for (uint32_t i = 0; i < a->n && i < EXPARS_PREF_Need; i++) {
        const uint32_t at = i * EXPARS_PREF_RW;
        uint32_t v = 0;
        for (uint32_t b = 0; b < EXPARS_PREF_RW; b++)
            v |= (out.need_o[(at + b) / 32] >> ((at + b) % 32) & 1u) << b;
        a->need[i] = (uint16_t)v;
    }
    a->dropped = (uint32_t)out.dropped_o;
    a->qn = (uint32_t)out.qn_o;
}
