/* SPDX-License-Identifier: MIT
 * ccbp_loop.c - CCBP's issue-rate controllers and bandwidth monitor stepped in the GPU timing
 * loop in lockstep with the model (ccbp_loop.h; Lin thesis §4.5.1, digest §2.16, §3.14-3.15;
 * docs/blocks/ccbp.md "In the loop").
 */
#include "ccbp_loop.h"

#include "hw_ref.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>


struct ccbp_loop {
    const struct hd_hw_factory *const *hw;
    uint32_t nsms;
    unsigned napps;
    uint64_t fault;                /* [ccbp] blocks_fault (0: none) */
    bool made, failed;
    struct hd_hw_inst *irc;        /* [nsms] */
    struct hd_hw_inst mon;
    struct hd_hw_inst ctrl;
    /* counts */
    uint64_t irc_edges, irc_selects, irc_grants, mon_steps, mon_ticks, mon_reads;
    uint64_t ctrl_edges, ctrl_runs, ctrl_reads;
    char err[768];
};

unsigned ccbp_loop_reads(unsigned napps)
{
    return HD_CCBP_MON_KINDS * napps;
}

/* {==== Creation ==== */
struct ccbp_loop *ccbp_loop_create(const struct hd_gpu_timing_params *p, unsigned napps,
                                   const struct hd_hw_factory *const *hw, char *err,
                                   size_t errlen)
{
    if (napps > CCBP_IRC_A || napps > CCBP_MONITOR_A) {
        snprintf(err, errlen,
                 "key 'ccbp.blocks': the CCBP blocks are built for %d applications "
                 "(configs/rtl/ccbp_irc.ini, ccbp_monitor.ini A); the run has %u",
                 CCBP_IRC_A, napps);
        return NULL;
    }
    struct ccbp_loop *L = calloc(1, sizeof *L);
    if (!L || !(L->irc = calloc(p->num_sms, sizeof *L->irc))) {
        free(L);
        snprintf(err, errlen, "host out of memory (ccbp blocks)");
        return NULL;
    }
    L->hw = hw;
    L->nsms = p->num_sms;
    L->napps = napps ? napps : 1;
    L->fault = p->ccbp.blocks_fault;
    return L;
}

void ccbp_loop_destroy(struct ccbp_loop *L)
{
    if (!L)
        return;
    for (uint32_t i = 0; i < L->nsms; i++)
        hd_hw_destroy(&L->irc[i]);
    hd_hw_destroy(&L->mon);
    hd_hw_destroy(&L->ctrl);
    free(L->irc);
    free(L);
}

static int make(struct ccbp_loop *L, const char *block, const char *name, struct hd_hw_inst *x,
                size_t in_size, size_t out_size)
{
    const struct hd_hw_factory *f = L->hw && *L->hw ? *L->hw : hd_hw_ref_factory();
    char e[512];
    if (hd_hw_make_sized(f, block, name, x, in_size, out_size, e, sizeof e) != 0) {
        snprintf(L->err, sizeof L->err, "%s", e);
        return -1;
    }
    return 0;
}

int ccbp_loop_make(struct ccbp_loop *L, char *err, size_t errlen)
{
    if (!L->made) {
        L->made = true;
        char name[64];
        for (uint32_t i = 0; i < L->nsms && !L->failed; i++) {
            snprintf(name, sizeof name, "sm%u.ccbp_irc", i);
            L->failed = make(L, "ccbp_irc", name, &L->irc[i], sizeof(struct hd_ccbp_irc_in),
                             sizeof(struct hd_ccbp_irc_out)) != 0;
        }
        if (!L->failed)
            L->failed = make(L, "ccbp_monitor", "gpu.ccbp_monitor", &L->mon,
                             sizeof(struct hd_ccbp_monitor_in),
                             sizeof(struct hd_ccbp_monitor_out)) != 0;
        if (!L->failed)
            L->failed = make(L, "ccbp_ctrl", "gpu.ccbp_ctrl", &L->ctrl,
                             sizeof(struct hd_ccbp_ctrl_in),
                             sizeof(struct hd_ccbp_ctrl_out)) != 0;
    }
    if (L->failed) {
        snprintf(err, errlen, "%s", L->err);
        return -1;
    }
    return 0;
}
/* }==== */

static bool step(struct ccbp_loop *L, struct hd_hw_inst *x, const void *in, void *out,
                 uint64_t now)
{
    if (hd_hw_step(x, in, out, now) != 0) {
        L->failed = true;
        snprintf(L->err, sizeof L->err, "%s", x->ops->error(x->impl));
        return false;
    }
    return true;
}

/* {==== The issue-rate controllers ==== */
void ccbp_loop_irc(struct ccbp_loop *L, uint32_t sm, const struct hd_ccbp_irc_in *in,
                   struct hd_ccbp_irc_out *out, uint64_t now)
{
    if (L->failed || !L->made || sm >= L->nsms)
        return;
    struct hd_ccbp_irc_in x = *in;
    if (L->fault && now >= L->fault && (x.sel_v_i & 1u)) /* (test only: a wrong input) */
        for (unsigned c = 0; c <= CCBP_IRC_A; c++)
            x.head_idx_i = hd_ccbp_irc_field_set(
                x.head_idx_i, c, CCBP_IRC_IW, hd_ccbp_irc_field(x.head_idx_i, c, CCBP_IRC_IW) + 1);
    struct hd_ccbp_irc_out o;
    memset(&o, 0, sizeof o);
    if (!step(L, &L->irc[sm], &x, &o, now))
        return;
    L->irc_edges++;
    L->irc_selects += in->sel_v_i & 1u;
    const char *bad = NULL;
    uint64_t got = 0, exp = 0;
#define CMP(f)                                                                                    \
    if (!bad && o.f != out->f)                                                                    \
    bad = #f, got = o.f, exp = out->f
    CMP(sel_v_o);
    CMP(sel_hit_o);
    CMP(sel_app_o);
    CMP(sel_idx_o);
    CMP(atq_o);
    CMP(rd_v_o);
    CMP(rd_cnt_o);
#undef CMP
    if (bad) {
        snprintf(L->err, sizeof L->err,
                 "ccbp blocks: MISMATCH at cycle %" PRIu64 ", SM %u, block ccbp_irc, signal %s: "
                 "the block gives %" PRIu64 ", the model's issue-rate controller %" PRIu64
                 " (the model: select %s, class %" PRIu64 " at queue position %" PRIu64 ")",
                 now, sm, bad, got, exp, out->sel_hit_o ? "granted" : "held", out->sel_app_o,
                 out->sel_idx_o);
        L->failed = true;
        return;
    }
    L->irc_grants += o.sel_hit_o & 1u;
    *out = o; /* the decision the model uses: the instance's (--drive rtl: the RTL's) */
}
/* }==== */

/* {==== The bandwidth monitor ==== */
void ccbp_loop_mon(struct ccbp_loop *L, const struct hd_ccbp_monitor_in *in,
                   struct hd_ccbp_monitor_out *out, uint64_t now)
{
    if (L->failed || !L->made)
        return;
    struct hd_ccbp_monitor_out o;
    memset(&o, 0, sizeof o);
    if (!step(L, &L->mon, in, &o, now))
        return;
    L->mon_steps++;
    L->mon_ticks += in->tick_i & 1u;
    const char *bad = NULL;
    uint64_t got = 0, exp = 0;
#define CMP(f)                                                                                    \
    if (!bad && o.f != out->f)                                                                    \
    bad = #f, got = o.f, exp = out->f
    CMP(win_o);
    CMP(rd_v_o);
    CMP(rd_cnt_o);
#undef CMP
    if (bad) {
        snprintf(L->err, sizeof L->err,
                 "ccbp blocks: MISMATCH at cycle %" PRIu64 ", block ccbp_monitor, signal %s: the "
                 "block gives %" PRIu64 ", the model's bandwidth monitor %" PRIu64,
                 now, bad, got, exp);
        L->failed = true;
        return;
    }
    L->mon_reads += o.rd_v_o & 1u;
    *out = o;
}
/* }==== */

/* {==== The controller ==== */
void ccbp_loop_ctrl(struct ccbp_loop *L, const struct hd_ccbp_ctrl_in *in,
                    struct hd_ccbp_ctrl_out *out, uint64_t now)
{
    if (L->failed || !L->made)
        return;
    struct hd_ccbp_ctrl_out o;
    memset(&o, 0, sizeof o);
    if (!step(L, &L->ctrl, in, &o, now))
        return;
    L->ctrl_edges++;
    L->ctrl_runs += in->start_i & 1u;
    const char *bad = NULL;
    uint64_t got = 0, exp = 0;
#define CMP(f)                                                                                    \
    if (!bad && o.f != out->f)                                                                    \
    bad = #f, got = o.f, exp = out->f
    CMP(busy_o);
    CMP(done_o);
    CMP(steps_o);
    CMP(rd_v_o);
    CMP(rd_data_o);
#undef CMP
    if (bad) {
        snprintf(L->err, sizeof L->err,
                 "ccbp blocks: MISMATCH at cycle %" PRIu64 ", block ccbp_ctrl, signal %s: the "
                 "block gives %" PRIu64 ", the model's controller (Algorithm 1) %" PRIu64,
                 now, bad, got, exp);
        L->failed = true;
        return;
    }
    L->ctrl_reads += o.rd_v_o & 1u;
    *out = o;
}
/* }==== */

int ccbp_loop_cycle(struct ccbp_loop *L, uint64_t now, char *err, size_t errlen)
{
    (void)now;
    return ccbp_loop_make(L, err, errlen); /* (a kept mismatch: L->failed) */
}

void ccbp_loop_log(const struct ccbp_loop *L, FILE *f)
{
    fprintf(f,
            "blocks irc_edges %" PRIu64 " irc_selects %" PRIu64 " irc_grants %" PRIu64
            " monitor_edges %" PRIu64 " monitor_windows %" PRIu64 " monitor_reads %" PRIu64
            " ctrl_edges %" PRIu64 " ctrl_runs %" PRIu64 " ctrl_reads %" PRIu64 "\n",
            L->irc_edges, L->irc_selects, L->irc_grants, L->mon_steps, L->mon_ticks,
            L->mon_reads, L->ctrl_edges, L->ctrl_runs, L->ctrl_reads);
}
