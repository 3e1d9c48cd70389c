/* SPDX-License-Identifier: MIT
 * ccbp_mon.c - CCBP's bandwidth monitor as the controller sees it (Lin ch.4 §4.5.1, §4.5.4;
 * digest §2.16, §3.15): the block's C reference (tables/ccbp_monitor.c) fed each cycle, and the
 * controller firmware's reads of its snapshot, whose values Algorithm 1's re-run uses.
 *
 * Design: used when Algorithm 1 re-runs ([ccbp] profile and period) or the blocks are in the
 * loop ([ccbp] blocks). A one-cycle monitor subscription (monitor.h) gives, at the end of each
 * cycle, every launch's warp instructions, L1D-miss requests, NoC flits each way and DRAM data
 * cycles; summed per application they are the block's increments of that cycle (ccbp_mon_cycle).
 * The tick comes at the end of every [ccbp] monitor_window (the cycle the CCBP monitor window
 * closes with); from the next cycle the firmware reads the 5 measures of every application,
 * one per cycle, application by application (ccbp_loop_reads()). The values read are summed
 * until the firmware takes them (ccbp_mon_take). With the blocks, the GPU's instance takes the
 * same edges (ccbp_loop_mon) and each read must also equal the sums of the model's monitor
 * window (ccbp_mon_window), else the run stops with a located message. An increment the block
 * cannot take (over 2^NW - 1 in one cycle) stops the run too.
 */
#include "ccbp.h"
#include "ccbp_loop.h"

#include <inttypes.h>
#include <string.h>

#define K HD_CCBP_MON_KINDS
#define NMAX ((1u << CCBP_MONITOR_NW) - 1u)
#define MMAX ((1u << CCBP_MONITOR_MW) - 1u)

static const char *const kname[K] = {"warp instructions", "L1D-miss requests",
                                     "NoC flits toward the L2", "NoC flits back",
                                     "DRAM data cycles"};

void ccbp_mon_window(struct ccbp *c, const uint64_t want[K][CCBP_APPS], uint64_t now)
{
    memcpy(c->mw.want, want, sizeof c->mw.want);
    c->mw.want_end = now;
}

int ccbp_mon_cycle(struct ccbp *c, const uint64_t inc[K][CCBP_APPS], uint64_t now, char *err,
                   size_t errlen)
{
    struct ccbp_mon *m = &c->mw;
    const unsigned nreads = ccbp_loop_reads(c->napps);
    struct hd_ccbp_monitor_in in;
    memset(&in, 0, sizeof in);
    uint64_t *const f[K] = {&in.inc_iss_i, &in.inc_req_i, &in.inc_fq_i, &in.inc_fr_i,
                            &in.inc_dram_i};
    for (unsigned k = 0; k < K; k++)
        for (unsigned a = 0; a < c->napps; a++) {
            if (inc[k][a] > NMAX) {
                snprintf(err, errlen,
                         "ccbp: at cycle %" PRIu64 " application %u had %" PRIu64 " %s in one "
                         "cycle; the bandwidth monitor takes at most %u (NW = %d bits, "
                         "configs/rtl/ccbp_monitor.ini)",
                         now, a + 1, inc[k][a], kname[k], NMAX, CCBP_MONITOR_NW);
                return -1;
            }
            *f[k] = hd_ccbp_monitor_field_set(*f[k], a, CCBP_MONITOR_NW, inc[k][a]);
        }
    const bool tick = now && now % c->cfg.monitor_window == 0;
    in.tick_i = tick;
    if (m->rd_next < nreads) {
        in.rd_v_i = 1;
        in.rd_kind_i = m->rd_next % K;
        in.rd_app_i = m->rd_next / K;
    }
    const bool due = m->rd_due;
    if (!due && hd_ccbp_monitor_ref_idle(&m->s, &in))
        return 0;
    struct hd_ccbp_monitor_out out;
    hd_ccbp_monitor_ref_step(&m->s, &in, &out);
    if (c->loop)
        ccbp_loop_mon(c->loop, &in, &out, now);
    if (due) {
        const uint64_t w = m->want[m->rd_k][m->rd_a];
        if (c->loop && (!(out.rd_v_o & 1u) || out.rd_cnt_o != w)) {
            snprintf(err, errlen,
                     "ccbp blocks: MISMATCH at cycle %" PRIu64 ", block ccbp_monitor, signal %s: "
                     "the snapshot gives %" PRIu64 " %s of application %u, the model's monitor "
                     "window ending with cycle %" PRIu64 " has %" PRIu64 "%s",
                     now, (out.rd_v_o & 1u) ? "rd_cnt_o" : "rd_v_o", out.rd_cnt_o,
                     kname[m->rd_k], m->rd_a + 1, m->want_end, w,
                     w > MMAX ? " (more than the block's MW-bit counter holds)" : "");
            return -1;
        }
        m->got[m->rd_k][m->rd_a] += out.rd_cnt_o;
    }
    m->rd_due = in.rd_v_i & 1u;
    if (m->rd_due) {
        m->rd_k = (unsigned)in.rd_kind_i;
        m->rd_a = (unsigned)in.rd_app_i;
        m->rd_next++;
    }
    if (tick) {
        if (m->rd_next < nreads || m->rd_due) { /* (configure() keeps the window long enough) */
            snprintf(err, errlen,
                     "ccbp: at cycle %" PRIu64 " a monitor window closed before the firmware "
                     "had read the previous one",
                     now);
            return -1;
        }
        m->rd_next = 0; /* the reads start next cycle */
    }
    return 0;
}

void ccbp_mon_take(struct ccbp *c, uint64_t got[K][CCBP_APPS])
{
    for (unsigned k = 0; k < K; k++)
        for (unsigned a = 0; a < CCBP_APPS; a++)
            got[k][a] += c->mw.got[k][a];
    memset(c->mw.got, 0, sizeof c->mw.got);
}
