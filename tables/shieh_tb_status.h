/* SPDX-License-Identifier: MIT
 * shieh_tb_status.h - bit-exact, cycle-exact C reference of the Running TB Status table (Shieh
 * thesis §3.4.4, Fig 3.10; RTL rtl/shieh_tb_status/shieh_tb_status.sv), one per SM.
 *
 * What it holds, per running-TB slot (MaxTb): the warp instructions the TB has executed (CW
 * bits, counted per warp instruction issued, not per thread, so divergence does not skew it;
 * §2.4), the cycle it was issued to the SM (CW bits) and its flush bit (relaxed idempotence,
 * §2.7: set at placement when the kernel may be flushed, cleared by the first instruction that
 * breaks idempotence: an atomic or a global store). Each of the Iss issue ports adds one to its
 * slot's count per cycle (saturating at 2^CW - 1; two ports may name the same slot: +2). When a
 * TB leaves, its entry is reported on fin_* for the finished-TB statistics of the cost model
 * (model/mech/shieh/shieh_cost.h) and the slot becomes free. The block scheduler reads the slots one
 * per cycle when a request arrives (§2.1 step 4).
 *
 * Storage: MaxTb x (2 CW + 2) bits (Kepler sizing: 16 x 66 bits = 132 B; Table 3.1: 130 B, no
 * valid bit). Timing: every output is registered; fin_* one cycle after free_v_i, a read's result
 * one cycle after rd_v_i showing the table after that cycle's updates (order in the ports.def);
 * every output is 0 in a cycle without a result. Interface:
 * rtl/shieh_tb_status/shieh_tb_status_ports.def.
 */
#ifndef HD_SHIEH_TB_STATUS_H
#define HD_SHIEH_TB_STATUS_H

#include "hd_block.h"

#include <stdbool.h>
#include <stdint.h>

#define HD_PORTS_DEF "shieh_tb_status_ports.def"
#define HD_PORTS_DIR IN
struct hd_shieh_tb_status_in {
#include "hd_ports_fields.h"
};
#define HD_PORTS_DIR OUT
struct hd_shieh_tb_status_out {
#include "hd_ports_fields.h"
};
enum {
#include "hd_ports_latency.h"
};
#undef HD_PORTS_DEF

#ifndef __cplusplus /* C++ (the testbenches) checks nothing here */
_Static_assert(SHIEH_TB_STATUS_MaxTb >= 1 && SHIEH_TB_STATUS_MaxTb <= 64 &&
                   SHIEH_TB_STATUS_MaxTb <= (1u << SHIEH_TB_STATUS_TbW),
               "shieh_tb_status: MaxTb must be 1..64 and fit TbW bits");
_Static_assert(SHIEH_TB_STATUS_CW >= 8 && SHIEH_TB_STATUS_CW <= 64, "shieh_tb_status: CW 8..64");
_Static_assert(SHIEH_TB_STATUS_Iss >= 1 && SHIEH_TB_STATUS_Iss * SHIEH_TB_STATUS_TbW <= 64,
               "shieh_tb_status: Iss ports of TbW bits must fit 64 bits");
#endif

#define HD_SHIEH_TBS_SLOTS SHIEH_TB_STATUS_MaxTb
#define HD_SHIEH_TBS_ISS SHIEH_TB_STATUS_Iss

extern const struct hd_block_desc hd_shieh_tb_status_block;

struct hd_shieh_tb_entry {
    bool valid, flush;
    uint64_t instr, issue; /* CW bits each */
};

struct hd_shieh_tb_status_state {
    struct hd_shieh_tb_entry e[HD_SHIEH_TBS_SLOTS];
    struct hd_shieh_tb_status_out q;
    uint64_t cycle;
};

void hd_shieh_tb_status_ref_reset(struct hd_shieh_tb_status_state *s);
/* One cycle: *out = the outputs during the cycle, then the rising edge samples *in. */
void hd_shieh_tb_status_ref_step(struct hd_shieh_tb_status_state *s,
                                 const struct hd_shieh_tb_status_in *in,
                                 struct hd_shieh_tb_status_out *out);
/* Idle (hw_inst.h): no request on any input and nothing in the output registers. */
bool hd_shieh_tb_status_ref_idle(const struct hd_shieh_tb_status_state *s,
                                 const struct hd_shieh_tb_status_in *in);

#endif
