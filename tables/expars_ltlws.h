/* SPDX-License-Identifier: MIT
 * expars_ltlws.h - bit-exact, cycle-exact C reference of the counters of EXPARS's Lazy Two-Level
 * Warp Scheduler (Yu et al. TACO 2018 §3.3.6, eq. 14; digest ../shared/reference/papers/
 * expars.md §2.9, §3.1; RTL rtl/expars_ltlws/expars_ltlws.sv), one per warp scheduler. The
 * model's LTLWS scheduler (model/policy/sm_sched_ltlws.c) takes its counter decisions from these
 * functions: the block's answers are the model's.
 *
 * What it holds: per warp of the scheduler a resident bit and an issued-instruction counter (the
 * paper's 32-bit counter per warp, stopping at 2^CW - 1), the number of resident warps, the
 * running sum of the resident warps' counters, the phase (lazy: phase 2) and W_Opt (the paper's
 * 6-bit register). Events, one request per edge:
 *   ADD w     w joins: its counter cleared (a warp taken again without a removal gives its count
 *             back to the sum);
 *   ISSUE w   in phase 1, a resident w's counter and the sum + 1 (not past 2^CW - 1);
 *   REMOVE w  w leaves. The first removal of phase 1 is the first warp to finish: W_Opt =
 *             floor(sum / Inst_Max) (eq. 14, Inst_Max = w's counter; the sum counts w too),
 *             clamped to max_i, then to at least 1; with Inst_Max = 0 it is the resident warps (w included).
 *             Phase 2 follows. The scheduler left empty (no resident warp) starts a new phase 1
 *             (once per kernel: digest §8 item 20);
 *   PEEK w    its counter.
 * The division is sequential (the digest's [CHOICE]: "one-shot, tens of cycles is fine"): a
 * restoring divider, one quotient bit per edge from bit QW-1 down, QW edges. A quotient of
 * 2^QW or more (sum >= Inst_Max << QW) comes out as all ones (every step subtracts), which the
 * clamp makes max_i (< 2^QW); Inst_Max = 0 gives the resident warps and still takes the QW edges
 * (one latency). While it runs busy is high and requests are ignored.
 * The sum is kept running (one adder) instead of adding the W counters at the trigger.
 *
 * Geometry: the block's is the configuration's (W counters of CW bits, QW-bit W_Opt); the model
 * runs the same functions at its own geometry (hd_expars_ltlws_unit_init: the scheduler's warps).
 * Interface: rtl/expars_ltlws/expars_ltlws_ports.def.
 */
#ifndef HD_EXPARS_LTLWS_H
#define HD_EXPARS_LTLWS_H

#include "hd_block.h"

#include <stdbool.h>
#include <stdint.h>

#define HD_PORTS_DEF "expars_ltlws_ports.def"
#define HD_PORTS_DIR IN
struct hd_expars_ltlws_in {
#include "hd_ports_fields.h"
};
#define HD_PORTS_DIR OUT
struct hd_expars_ltlws_out {
#include "hd_ports_fields.h"
};
enum {
#include "hd_ports_latency.h"
};
#undef HD_PORTS_DEF

#ifndef __cplusplus
_Static_assert(EXPARS_LTLWS_W >= 2 && EXPARS_LTLWS_W <= (1 << EXPARS_LTLWS_WW) &&
                   EXPARS_LTLWS_WW <= 7 && EXPARS_LTLWS_QW == EXPARS_LTLWS_WW + 1 &&
                   EXPARS_LTLWS_CW >= 4 && EXPARS_LTLWS_CW <= 32,
               "expars_ltlws: widths");
#endif

enum hd_expars_ltlws_op { HD_EXPARS_LTLWS_ADD, HD_EXPARS_LTLWS_ISSUE, HD_EXPARS_LTLWS_REMOVE,
                          HD_EXPARS_LTLWS_PEEK };

extern const struct hd_block_desc hd_expars_ltlws_block;

/* One unit's registers but the per-warp arrays (which the caller owns: cnt[nw], res[nw]). */
struct hd_expars_ltlws_unit {
    uint32_t nw;     /* counters */
    unsigned cw, qw; /* counter bits, W_Opt bits */
    uint64_t sum;    /* sum of the resident warps' counters (meaningful in phase 1) */
    uint32_t nres;   /* resident warps */
    bool lazy;       /* phase 2 */
    uint32_t wopt;
    /* the divider */
    bool busy, direct;
    unsigned k;      /* quotient bits left */
    uint64_t rem;
    uint32_t d, q, dres, max;
};

/* An answer (the block's outputs but busy_o). */
struct hd_expars_ltlws_ans {
    bool v, trig, lazy;
    uint32_t wopt, cnt, nres;
};

/* A unit of nw (>= 1) counters of cw bits (1..32: the caller's contract, not checked) and a
 * qw-bit W_Opt (qw = bits of nw, + 1); cnt and res cleared by the caller. */
void hd_expars_ltlws_unit_init(struct hd_expars_ltlws_unit *u, uint32_t nw, unsigned cw);
/* A request and the edges until its answer (the model's use: the block clocked at the
 * decision). Returns the edges taken (1, or 1 + qw for the division). */
unsigned hd_expars_ltlws_apply(struct hd_expars_ltlws_unit *u, uint32_t *cnt, bool *res,
                               unsigned op, uint32_t warp, uint32_t max,
                               struct hd_expars_ltlws_ans *a);

struct hd_expars_ltlws_state {
    struct hd_expars_ltlws_unit u;
    uint32_t cnt[EXPARS_LTLWS_W];
    bool res[EXPARS_LTLWS_W];
    struct hd_expars_ltlws_out q;
    uint64_t cycle;
};

void hd_expars_ltlws_ref_reset(struct hd_expars_ltlws_state *s);
/* One cycle: *out = the outputs during the cycle, then the rising edge samples *in. */
void hd_expars_ltlws_ref_step(struct hd_expars_ltlws_state *s, const struct hd_expars_ltlws_in *in,
                              struct hd_expars_ltlws_out *out);
/* Idle (hw_inst.h): no request, the divider stopped and no answer in the output registers. */
bool hd_expars_ltlws_ref_idle(const struct hd_expars_ltlws_state *s,
                              const struct hd_expars_ltlws_in *in);

#endif
