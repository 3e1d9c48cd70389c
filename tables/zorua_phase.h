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
 * Sizes: the built configuration's for hd_zorua_phase_ref_reset; any named configuration of
 * configs/rtl/zorua_phase.ini (within the maxima below) at run time with hd_zorua_phase_ref_init
 * (session 20: one model steps Fermi's decoder and Kepler's and Maxwell's of 96 logical warps).
 */
#ifndef HD_ZORUA_PHASE_H
#define HD_ZORUA_PHASE_H

#include "hd_block.h"

#include <stdbool.h>
#include <stdint.h>

/* Maxima of the sizes one build's C reference holds (every named configuration of
 * configs/rtl/zorua_phase.ini: Fermi's 64 logical warps, Kepler's and Maxwell's 96); the warp mask
 * init_mask_i is a HD_PORT_W row, HD_ZPH_MWORDS words whatever the configuration's width
 * (hd_ports_fields.h HD_PORTS_WIDE_WORDS). */
#define HD_ZPH_WARPS_MAX 128u
#define HD_ZPH_MWORDS 4u /* HD_WORDS(HD_ZPH_WARPS_MAX) */

#define HD_PORTS_DEF "zorua_phase_ports.def"
#define HD_PORTS_WIDE_WORDS HD_ZPH_MWORDS
#define HD_PORTS_DIR IN
struct hd_zorua_phase_in {
#include "hd_ports_fields.h"
};
#define HD_PORTS_DIR OUT
struct hd_zorua_phase_out {
#include "hd_ports_fields.h"
};
#undef HD_PORTS_WIDE_WORDS
enum {
#include "hd_ports_latency.h"
};
#undef HD_PORTS_DEF

#ifndef __cplusplus /* C++ (the testbenches) checks nothing here */
_Static_assert(ZORUA_PHASE_Warps >= 1 && ZORUA_PHASE_Warps <= HD_ZPH_WARPS_MAX &&
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

/* A configuration's parameters (configs/rtl/zorua_phase.ini's keys, in its order). */
struct hd_zorua_phase_cfg {
    unsigned warps, ww, regw, smw, reg_sets, rsw, smem_sets, ssw;
};
/* The configuration of the ZORUA_PHASE_<Param>-style macros with prefix P (ZORUA_PHASE_ for the
 * built one, ZORUA_PHASE__KEPLER_ for a [block] loop_configs one, hd_rtl_params.h). */
#define HD_ZPH_CFG(P)                                                                              \
    {P##Warps, P##WW, P##RegW, P##SmW, P##RegSets, P##RsW, P##SmemSets, P##SsW}

struct hd_zorua_phase_state {
    struct hd_zorua_phase_cfg cfg;
    uint8_t rsets[HD_ZPH_WARPS_MAX], ssets[HD_ZPH_WARPS_MAX]; /* each warp's current phase */
    struct hd_zorua_phase_out q;
    uint64_t cycle;
};

/* Bit w of the warp mask init_mask_i (HD_ZPH_MWORDS words, bit w in word w / 32). */
static inline bool hd_zph_bit(const uint32_t *m, unsigned w)
{
    return w < HD_ZPH_WARPS_MAX && ((m[w / 32u] >> (w % 32u)) & 1u);
}

/* Why configuration c does not fit the maxima or its own widths (the header's static checks of
 * the built one, at run time), or NULL. A contract on the parameters, not the block's logic (the
 * RTL's counterpart is its elaboration assertion): here rather than in zorua_phase.c, whose
 * mutants the testbench must kill; tests/unit/test_zorua_decloop.c checks the refusals. */
static inline const char *hd_zorua_phase_cfg_check(const struct hd_zorua_phase_cfg *c)
{
    if (c->warps < 1 || c->warps > HD_ZPH_WARPS_MAX || c->ww > 16 || c->warps > (1u << c->ww))
        return "1..128 logical warps, fitting WW bits";
    if (c->rsw > 7 || c->reg_sets >= (1u << c->rsw) || c->ssw > 7 ||
        c->smem_sets >= (1u << c->ssw) || c->regw < 1 || c->regw > 30 || c->smw < 1 ||
        c->smw > 30)
        return "register-set, scratchpad-set and field widths";
    return NULL;
}

/* Reset with the built configuration (hd_rtl_params.h). */
void hd_zorua_phase_ref_reset(struct hd_zorua_phase_state *s);
/* Reset with the configuration of the ZORUA_PHASE_<Param> macros in effect where it expands: the
 * reset of the instance kinds "zorua_phase:kepler" and "zorua_phase:maxwell" ([block]
 * loop_configs; generated by model/hw/hw_blocks.cmake with that configuration's macros). */
#define HD_ZORUA_PHASE_REF_RESET_CFG(s)                                                            \
    do {                                                                                           \
        const struct hd_zorua_phase_cfg hd_zpc_ = HD_ZPH_CFG(ZORUA_PHASE_);                        \
        (void)hd_zorua_phase_ref_init((s), &hd_zpc_, NULL, 0);                                     \
    } while (0)
/* Reset with configuration cfg; -1 (and a message in err, if err is not NULL) when it exceeds
 * the maxima or its own widths (as the header's static checks of the built one). */
int hd_zorua_phase_ref_init(struct hd_zorua_phase_state *s, const struct hd_zorua_phase_cfg *cfg,
                            char *err, unsigned errlen);
/* One cycle: *out = the outputs during the cycle, then the rising edge samples *in. */
void hd_zorua_phase_ref_step(struct hd_zorua_phase_state *s, const struct hd_zorua_phase_in *in,
                             struct hd_zorua_phase_out *out);
/* Idle (hw_inst.h): no instruction, no arrival, nothing in the output registers. */
bool hd_zorua_phase_ref_idle(const struct hd_zorua_phase_state *s,
                             const struct hd_zorua_phase_in *in);

#endif
