/* SPDX-License-Identifier: MIT
 * locality_group_sched.h - bit-exact, cycle-exact C reference of Gong's warp-group scheduler's
 * group table and selection (thesis ch.6 §6.3.2; RTL rtl/locality_group_sched/
 * locality_group_sched.sv), one per warp scheduler.
 *
 * What it holds, per warp slot (NW): a resident bit and a group id (GW bits), written when the
 * warp becomes resident (its group from the launch's Table 6.1 hint and the warp's CTA
 * coordinates: hd_locality_group in model/policy/sm_sched_ext.h); the active group and the last
 * issued slot. The selection each cycle: the active group if one of its ready warps is
 * resident, else the smallest id above the active one with a ready warp, else the smallest id
 * with one; inside it the first ready warp after the last issued slot, else its lowest. The
 * granted warp's group becomes active. This is the first warp of the policy
 * model/policy/sm_sched_locality.c's order when the ids follow its group keys' order.
 *
 * Storage: NW x (GW + 1) + GW + WW + 2 bits (Kepler sizing, 16 warps per scheduler, 6-bit ids:
 * 124 bits per scheduler). Timing: every output is registered, one cycle after ready_i; within
 * an edge the selection sees the table before it, then clear, write and issue apply in that
 * order. Interface: rtl/locality_group_sched/locality_group_sched_ports.def.
 */
#ifndef HD_LOCALITY_GROUP_SCHED_H
#define HD_LOCALITY_GROUP_SCHED_H

#include "hd_block.h"

#include <stdbool.h>
#include <stdint.h>

#define HD_PORTS_DEF "locality_group_sched_ports.def"
#define HD_PORTS_DIR IN
struct hd_locality_group_sched_in {
#include "hd_ports_fields.h"
};
#define HD_PORTS_DIR OUT
struct hd_locality_group_sched_out {
#include "hd_ports_fields.h"
};
enum {
#include "hd_ports_latency.h"
};
#undef HD_PORTS_DEF

#ifndef __cplusplus /* C++ (the testbenches) checks nothing here */
_Static_assert(LOCALITY_GROUP_SCHED_NW >= 1 && LOCALITY_GROUP_SCHED_NW <= 64 &&
                   LOCALITY_GROUP_SCHED_NW <= (1u << LOCALITY_GROUP_SCHED_WW),
               "locality_group_sched: NW must be 1..64 and fit WW bits");
_Static_assert(LOCALITY_GROUP_SCHED_GW >= 1 && LOCALITY_GROUP_SCHED_GW <= 16,
               "locality_group_sched: GW 1..16");
#endif

#define HD_LGS_NW LOCALITY_GROUP_SCHED_NW

extern const struct hd_block_desc hd_locality_group_sched_block;

struct hd_locality_group_sched_state {
    bool res[HD_LGS_NW];
    uint32_t gid[HD_LGS_NW];
    bool act_v, last_v;
    uint32_t act, last;
    struct hd_locality_group_sched_out q;
    uint64_t cycle;
};

void hd_locality_group_sched_ref_reset(struct hd_locality_group_sched_state *s);
/* One cycle: *out = the outputs during the cycle, then the rising edge samples *in. */
void hd_locality_group_sched_ref_step(struct hd_locality_group_sched_state *s,
                                      const struct hd_locality_group_sched_in *in,
                                      struct hd_locality_group_sched_out *out);
/* Idle (hw_inst.h): no ready warp, no table update, and nothing in the output registers. */
bool hd_locality_group_sched_ref_idle(const struct hd_locality_group_sched_state *s,
                                      const struct hd_locality_group_sched_in *in);

#endif
