/* SPDX-License-Identifier: MIT
 * ccbp_ctrl.h - bit-exact, cycle-exact C reference of CCBP's controller (Lin thesis §4.5.2,
 * digest §2.17 Algorithm 1, §3.15; RTL rtl/ccbp_ctrl/ccbp_ctrl.sv), one per GPU in the CCBP
 * logic: Algorithm 1 (Dominant Resource Fairness over CTAs, NoC and DRAM bandwidth) as an FSM
 * over its profile tables, and the bandwidth-share to issue-rate quota conversion.
 *
 * The firmware (model/mech/ccbp/ccbp_ctrl_fw.c) writes the tables once per profile: per
 * application and CTA count n = 1..NM its own curve (NBI: NoC use, DBI: DRAM use, LS: NoC use)
 * and three resource tables, the other one (NBI: DRAM, DBI: NoC, LS: DRAM), the request
 * crossbar's and the reply crossbar's; a resource table's entry at n is the ratio resource /
 * own (Q8.24) for NBI / DBI where the own curve at n is not 0, else the resource's curve (Q8.16:
 * it is only read where a ratio is not). Then the class, nmax, the divisor D of its dominant
 * share, its per-CTA static demands; the SM's capacities, the sustainable NoC share (of each
 * crossbar) and DRAM share, the applications and the cycles per iteration. Before each run it writes the quota factors
 * (its costs: what co-running changes). start_i runs the loop of Algorithm 1, one iteration per
 * `step` cycles (the last cycle of each period takes the iteration; an iteration is data
 * dependent, so the logic has the whole period: a multicycle path):
 *   argmin     the unfinished application with the smallest dominant share x / D (x: NBI its
 *              NoC share, DBI its DRAM share, LS its CTAs; compared by cross products,
 *              x_j * D_k < x_k * D_j; a tie keeps the lower index)
 *   step       NBI / DBI: its own share + 1 percentage point, a CTA more when the own curve at
 *              the current CTAs is below it; each resource share (other, request crossbar,
 *              reply crossbar) = the new own share x its ratio at the new CTAs (its curve
 *              when own is 0 there). LS: a CTA more, every share from the curves.
 *   CanAlloc   the new CTAs <= nmax; per resource sum of CTAs x demand <= capacity; the sum
 *              of the request-crossbar shares and the sum of the reply-crossbar shares each
 *              <= the sustainable NoC share, the sum of the DRAM shares <= the sustainable
 *              DRAM share. Committed, or the application is finished. The run ends when none
 *              is left.
 * A read gives CTAs, the shares (NoC: the own curve's measure for NBI, the other table's for
 * DBI; DRAM; each crossbar's), or the quota: NBI / DBI with a quota factor f:
 * max(1, min(2^20 - 1, round(share x f))); LS or f = 0: 0 (unlimited).
 * Number formats (fixed): shares, curves, D and the sustainable shares Q8.16 in 24 bits
 * (saturating), resource-table entries 32 bits (a Q8.24 ratio or a Q8.16 curve point), quota
 * factors Q16.16 in 32 bits, demands and capacities 24 bits. Storage: per application and n
 * 24 + 3 x 32 = 120 table bits (before session 26's per-crossbar CanAlloc: own, other curve
 * and ratio, 24 + 24 + 32 = 80) + per application 8 words; the run 4 shares per application.
 *
 * Timing: every output is registered, one cycle after its cause; 0 in a cycle without a result
 * (busy_o: a run in progress). Interface: rtl/ccbp_ctrl/ccbp_ctrl_ports.def. Use: reset once,
 * one step per cycle with a zeroed struct hd_ccbp_ctrl_in.
 */
#ifndef HD_CCBP_CTRL_H
#define HD_CCBP_CTRL_H

#include "hd_block.h"

#include <stdbool.h>
#include <stdint.h>

#define HD_PORTS_DEF "ccbp_ctrl_ports.def"
#define HD_PORTS_DIR IN
struct hd_ccbp_ctrl_in {
#include "hd_ports_fields.h"
};
#define HD_PORTS_DIR OUT
struct hd_ccbp_ctrl_out {
#include "hd_ports_fields.h"
};
enum {
#include "hd_ports_latency.h"
};
#undef HD_PORTS_DEF

#ifndef __cplusplus /* C++ (the testbenches) checks nothing here */
_Static_assert(CCBP_CTRL_A >= 2 && CCBP_CTRL_A <= 8 && (1u << CCBP_CTRL_AW) == CCBP_CTRL_A &&
                   CCBP_CTRL_NM >= 2 && CCBP_CTRL_NM <= 62 &&
                   (1u << CCBP_CTRL_NW) >= CCBP_CTRL_NM + 2u &&
                   (1u << (CCBP_CTRL_NW - 1)) < CCBP_CTRL_NM + 2u,
               "ccbp_ctrl: A = 2^AW in 2..8, NW = $clog2(NM + 2)");
#endif

/* The formats (ccbp_ctrl.sv's localparams). */
#define CCBP_CTRL_VF 16  /* fraction bits of a share, curve point, D, limit (Q8.16) */
#define CCBP_CTRL_VW 24
#define CCBP_CTRL_RF 24  /* fraction bits of a ratio (Q8.24) */
#define CCBP_CTRL_FF 16  /* fraction bits of a quota factor (Q16.16) */
#define CCBP_CTRL_DW 24  /* demand, capacity */
#define CCBP_CTRL_QW 20  /* quota */
#define CCBP_CTRL_SW 12  /* iterations */
#define CCBP_CTRL_TW 16  /* cycles per iteration */

enum { HD_CCBP_CTRL_OWN, HD_CCBP_CTRL_OTH, HD_CCBP_CTRL_REQ, HD_CCBP_CTRL_TYPE,
       HD_CCBP_CTRL_NMAX, HD_CCBP_CTRL_D, HD_CCBP_CTRL_QF, HD_CCBP_CTRL_DEM, HD_CCBP_CTRL_CAP,
       HD_CCBP_CTRL_NLIM, HD_CCBP_CTRL_DLIM, HD_CCBP_CTRL_NK, HD_CCBP_CTRL_STEP,
       HD_CCBP_CTRL_REP };
enum { HD_CCBP_CTRL_RD_CTA, HD_CCBP_CTRL_RD_NBW, HD_CCBP_CTRL_RD_DBW, HD_CCBP_CTRL_RD_QUOTA,
       HD_CCBP_CTRL_RD_REQ, HD_CCBP_CTRL_RD_REP };
/* Classes (enum ccbp_type of model/mech/ccbp/ccbp_alg1.h; 3 counts as LS). */
enum { HD_CCBP_CTRL_LS, HD_CCBP_CTRL_NBI, HD_CCBP_CTRL_DBI };
/* What the last iteration did (coverage only; not a register of the RTL). */
enum { HD_CCBP_CTRL_EV_NONE, HD_CCBP_CTRL_EV_SHARE, HD_CCBP_CTRL_EV_CTA, HD_CCBP_CTRL_EV_NMAX,
       HD_CCBP_CTRL_EV_STATIC, HD_CCBP_CTRL_EV_REQ, HD_CCBP_CTRL_EV_DRAM, HD_CCBP_CTRL_EV_TIE,
       HD_CCBP_CTRL_EV_AT0, HD_CCBP_CTRL_EV_REP };

extern const struct hd_block_desc hd_ccbp_ctrl_block;

struct hd_ccbp_ctrl_state {
    /* the tables: [application][n - 1] */
    uint32_t own[CCBP_CTRL_A][CCBP_CTRL_NM];
    uint32_t tab[3][CCBP_CTRL_A][CCBP_CTRL_NM]; /* resource tables: other, request, reply */
    uint8_t type[CCBP_CTRL_A], nmax[CCBP_CTRL_A];
    uint32_t d[CCBP_CTRL_A], qf[CCBP_CTRL_A], dem[CCBP_CTRL_A][4], cap[4];
    uint32_t nlim, dlim, nk, step;
    /* the run */
    uint8_t run, live;
    uint32_t cnt, steps;
    uint8_t cta[CCBP_CTRL_A];
    uint32_t nbw[CCBP_CTRL_A], dbw[CCBP_CTRL_A], req[CCBP_CTRL_A], rep[CCBP_CTRL_A];
    uint8_t ev;  /* coverage: what the last iteration did (HD_CCBP_CTRL_EV_*), with evs a mask */
    uint16_t evs;
    struct hd_ccbp_ctrl_out q;
    uint64_t cycle;
};

void hd_ccbp_ctrl_ref_reset(struct hd_ccbp_ctrl_state *s);
/* One cycle: *out = the outputs during the cycle, then the rising edge samples *in. */
void hd_ccbp_ctrl_ref_step(struct hd_ccbp_ctrl_state *s, const struct hd_ccbp_ctrl_in *in,
                           struct hd_ccbp_ctrl_out *out);
/* Idle (hw_inst.h): not running, no write, start or read, nothing in the output registers. */
bool hd_ccbp_ctrl_ref_idle(const struct hd_ccbp_ctrl_state *s, const struct hd_ccbp_ctrl_in *in);

#endif
