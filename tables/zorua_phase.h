/* SPDX-License-Identifier: MIT
 * zorua_phase.h - bit-exact, cycle-exact C reference of Zorua's phase-specifier decoder (digest
 * zorua.md §2.9; paper L195, L310-L319; RTL rtl/zorua_phase/zorua_phase.sv), one per SM.
 *
 * What it does: each decoded warp instruction that is a phase boundary becomes the coordinator's
 * event (tables/zorua_coord.h, ev_*): a phase specifier (the next phase's live registers and
 * scratchpad bytes; Figure 13's encoding is unavailable, so two plain fields) a phase event in
 * table units, register sets ceil(regs / 4) and scratchpad sets ceil(bytes / 1024), refused
 * (err_o, no event) past the tables; a barrier a barrier event; a fence a phase event with the
 * warp's current phase (a boundary with no change, L314); an exit an exit event. It keeps each
 * warp's current phase (L316), set at its block's arrival (init_*), replaced by each accepted
 * phase specifier, cleared at the exit.
 * Timing: latency 1, registered outputs, 0 in a cycle without an event or error.
 * Interface: rtl/zorua_phase/zorua_phase_ports.def.
 */
#ifndef HD_ZORUA_PHASE_H
#define HD_ZORUA_PHASE_H

#include "hd_block.h"

#include <stdbool.h>
#include <stdint.h>

#define HD_PORTS_DEF "zorua_phase_ports.def"
#define HD_PORTS_DIR IN
struct hd_zorua_phase_in {
#include "hd_ports_fields.h"
};
#define HD_PORTS_DIR OUT
struct hd_zorua_phase_out {
#include "hd_ports_fields.h"
};
enum {
#include "hd_ports_latency.h"
};
#undef HD_PORTS_DEF

#ifndef __cplusplus /* C++ (the testbenches) checks nothing here */
_Static_assert(ZORUA_PHASE_Warps >= 1 && ZORUA_PHASE_Warps <= 64 &&
                   ZORUA_PHASE_Warps <= (1u << ZORUA_PHASE_WW) &&
                   ZORUA_PHASE_RegSets < (1u << ZORUA_PHASE_RsW) &&
                   ZORUA_PHASE_SmemSets < (1u << ZORUA_PHASE_SsW) && ZORUA_PHASE_SmW <= 30 &&
                   ZORUA_PHASE_RegW <= 30,
               "zorua_phase: sizes and widths");
#endif

enum hd_zorua_phase_cls {
    HD_ZPH_OTHER = 0,
    HD_ZPH_PHASE = 1,
    HD_ZPH_BARRIER = 2,
    HD_ZPH_FENCE = 3,
    HD_ZPH_EXIT = 4
};

extern const struct hd_block_desc hd_zorua_phase_block;

struct hd_zorua_phase_state {
    uint8_t rsets[ZORUA_PHASE_Warps], ssets[ZORUA_PHASE_Warps]; /* each warp's current phase */
    struct hd_zorua_phase_out q;
    uint64_t cycle;
};

void hd_zorua_phase_ref_reset(struct hd_zorua_phase_state *s);
/* One cycle: *out = the outputs during the cycle, then the rising edge samples *in. */
void hd_zorua_phase_ref_step(struct hd_zorua_phase_state *s, const struct hd_zorua_phase_in *in,
                             struct hd_zorua_phase_out *out);
/* Idle (hw_inst.h): no instruction, no arrival, nothing in the output registers. */
bool hd_zorua_phase_ref_idle(const struct hd_zorua_phase_state *s,
                             const struct hd_zorua_phase_in *in);

#endif
