/* SPDX-License-Identifier: MIT
 * zorua_coord.h - bit-exact, cycle-exact C reference of Zorua's coordinator, one per SM (digest
 * zorua.md §2.2-§2.5 and the §2.11 pseudo-code, §3.6; paper L220-L286, Figure 11, Algorithm 1,
 * Table 1; RTL rtl/zorua_coord/zorua_coord.sv).
 *
 * What it holds: per logical warp (64 on Fermi, 96 on Kepler and Maxwell) its block, its queue (thread/barrier, scratchpad,
 * register; L233), whether it waits in one (pending), is held at a barrier, is schedulable (the
 * one extra bit per warp slot, L222 fn 5), holds a thread slot, and its register sets needed
 * and held; per logical block (16) its scratchpad sets needed and held, its live warps and its
 * warps at the barrier; per resource the amount allocated in the virtual space (physical +
 * swap); the o_thresh controller (Algorithm 1: % of each physical resource, the epoch counter,
 * c_idle and c_mem of this and the previous epoch).
 *
 * What it does (the three events of L229 and the admission of L233/L239; one edge, every part
 * on the state at the start of the cycle, ports.def):
 *   arrival  (tb_v_i, step 1) the block gets the lowest free logical block, its kwarps_i warps
 *            the lowest free logical warps, all pending in the thread queue with the first phase
 *            specifier's register and scratchpad sets
 *   phase    (ev_kind 0, step 8) the warp leaves the schedulable set; register sets past the new
 *            phase's are released at once (steps 9, 10); the block's scratchpad need grows to the
 *            new phase's (released only when the block ends, L237); the warp waits in the
 *            scratchpad queue if its block needs more scratchpad, else in the register queue
 *   barrier  (ev_kind 1) the warp waits in the thread/barrier queue, held, until every live warp
 *            of its block is there; then they all return (rl_bar_o) with what they hold
 *   exit     (ev_kind 2) the warp releases its slot and register sets; the last warp of a block
 *            releases the block's scratchpad; a barrier its block-mates wait at may complete
 *   admission one warp per cycle, from those to try (every waiting warp not held at a barrier,
 *            after each accepted event or arrival; each tried once until the next): register
 *            queue first (closest to schedulable, L239), then scratchpad, then thread, lowest
 *            logical warp first; it takes everything it misses (slot, its block's scratchpad,
 *            its register sets) only if every resource fits its virtual space, allocated + need
 *            <= physical + o_thresh (L233, L255; all or nothing: deadlock rule 1, L249), or
 *            when fewer than Floor warps are schedulable (the 20% floor, rule 3; with fbar_i
 *            the warps held at a barrier of a block none of whose warps waits in a queue count
 *            too: they resume without new resources, session 19); then it is
 *            schedulable (steps 5-7, gr_*: the mapping-table entries to allocate)
 *   epoch    every Epoch active cycles: Algorithm 1 on the epoch's c_idle and c_mem against the
 *            previous epoch's; o_thresh_r = pct x physical_r / 100 (floor)
 *   request  tb_req_o: room for a block of kwarps_i warps (hd_zorua_coord_room; with vreq_i
 *            within the thread slots' virtual space, physical + o_thresh, session 19)
 * Where on chip and where in swap the sets go is the mapping tables' business (zorua_map: on
 * chip while units are free); the coordinator bounds the total.
 *
 * Timing: latency 1, every output registered and 0 in a cycle without a result, except
 * sched_o (the schedulable bits, state). Interface: rtl/zorua_coord/zorua_coord_ports.def.
 * Sizes: the built configuration's for hd_zorua_coord_ref_reset; any named configuration of
 * configs/rtl/zorua_coord.ini (within the maxima below) at run time with hd_zorua_coord_ref_init
 * (session 15: one model steps Fermi's block and Kepler's and Maxwell's of 96 logical warps).
 */
#ifndef HD_ZORUA_COORD_H
#define HD_ZORUA_COORD_H

#include "hd_block.h"

#include <stdbool.h>
#include <stdint.h>

/* Maxima of the sizes one build's C reference holds (every named configuration of
 * configs/rtl/zorua_coord.ini: Fermi's 64 logical warps, Kepler's and Maxwell's 96); the warp
 * masks arr_wmask_o and sched_o are HD_PORT_W rows, HD_ZCO_MWORDS words each whatever the
 * configuration's width (hd_ports_fields.h HD_PORTS_WIDE_WORDS). */
#define HD_ZCO_WARPS_MAX 128u
#define HD_ZCO_BLOCKS_MAX 32u
#define HD_ZCO_MWORDS 4u /* HD_WORDS(HD_ZCO_WARPS_MAX) */

#define HD_PORTS_DEF "zorua_coord_ports.def"
#define HD_PORTS_WIDE_WORDS HD_ZCO_MWORDS
#define HD_PORTS_DIR IN
struct hd_zorua_coord_in {
#include "hd_ports_fields.h"
};
#define HD_PORTS_DIR OUT
struct hd_zorua_coord_out {
#include "hd_ports_fields.h"
};
#undef HD_PORTS_WIDE_WORDS
enum {
#include "hd_ports_latency.h"
};
#undef HD_PORTS_DEF

#ifndef __cplusplus /* C++ (the testbenches) checks nothing here */
_Static_assert(ZORUA_COORD_Warps >= 1 && ZORUA_COORD_Warps <= HD_ZCO_WARPS_MAX &&
                   ZORUA_COORD_Warps <= (1u << ZORUA_COORD_WW) &&
                   ZORUA_COORD_Warps < (1u << ZORUA_COORD_KwW),
               "zorua_coord: 1..128 logical warps, fitting WW and KwW bits");
_Static_assert(ZORUA_COORD_Blocks >= 1 && ZORUA_COORD_Blocks <= HD_ZCO_BLOCKS_MAX &&
                   ZORUA_COORD_Blocks <= (1u << ZORUA_COORD_BW) &&
                   ZORUA_COORD_RegSets < (1u << ZORUA_COORD_RsW) &&
                   ZORUA_COORD_SmemSets < (1u << ZORUA_COORD_SsW),
               "zorua_coord: block, register-set and scratchpad-set widths");
_Static_assert(ZORUA_COORD_Warps * ZORUA_COORD_RegSets < (1u << ZORUA_COORD_CW) &&
                   ZORUA_COORD_Blocks * ZORUA_COORD_SmemSets < (1u << ZORUA_COORD_CW) &&
                   ZORUA_COORD_PctMax < (1u << ZORUA_COORD_PctW),
               "zorua_coord: counter and percentage widths");
#endif

enum hd_zorua_coord_ev { HD_ZCO_PHASE = 0, HD_ZCO_BARRIER = 1, HD_ZCO_EXIT = 2 };
enum hd_zorua_coord_res { HD_ZCO_SLOT = 0, HD_ZCO_SMEM = 1, HD_ZCO_REG = 2 }; /* = queue order */

/* The built configuration's sizes (the [default] of the build: Fermi). */
#define HD_ZCO_WARPS ZORUA_COORD_Warps
#define HD_ZCO_BLOCKS ZORUA_COORD_Blocks

extern const struct hd_block_desc hd_zorua_coord_block;

/* A configuration's parameters (configs/rtl/zorua_coord.ini's keys, in its order). */
struct hd_zorua_coord_cfg {
    unsigned warps, ww, kww, blocks, bw, reg_sets, rsw, smem_sets, ssw;
    unsigned phys_reg, phys_smem, phys_slot, cw, epoch, epw;
    unsigned pct_init, pct_step, pct_max, pctw, delta_th, floor;
};
/* The configuration of the ZORUA_COORD_<Param>-style macros with prefix P (ZORUA_COORD_ for the
 * built one, ZORUA_COORD__KEPLER_ for a [block] loop_configs one, hd_rtl_params.h). */
#define HD_ZCO_CFG(P)                                                                              \
    {P##Warps,    P##WW,       P##KwW,      P##Blocks,  P##BW,      P##RegSets, P##RsW,          \
     P##SmemSets, P##SsW,      P##PhysReg,  P##PhysSmem, P##PhysSlot, P##CW,    P##Epoch,        \
     P##EpW,      P##PctInit,  P##PctStep,  P##PctMax,  P##PctW,    P##DeltaTh, P##Floor}

struct hd_zorua_coord_warp {
    bool live, pend, bar, sched, slot;
    uint8_t queue, blk, rneed, rheld;
};

struct hd_zorua_coord_blk {
    bool live;
    uint8_t sneed, sheld, nlive, nbar;
};

struct hd_zorua_coord_state {
    struct hd_zorua_coord_cfg cfg;
    struct hd_zorua_coord_warp w[HD_ZCO_WARPS_MAX];
    struct hd_zorua_coord_blk b[HD_ZCO_BLOCKS_MAX];
    uint32_t try_mask[HD_ZCO_MWORDS]; /* warps to try before the next event */
    uint32_t alloc[3], oth[3];  /* per resource (enum hd_zorua_coord_res), in units */
    uint32_t pct, ecnt, cidle, cmem, pidle, pmem;
    struct hd_zorua_coord_out q; /* the output registers */
    uint64_t cycle;
};

/* Bit w of a warp mask (arr_wmask_o, sched_o: HD_ZCO_MWORDS words, bit w in word w / 32). */
static inline bool hd_zco_bit(const uint32_t *m, unsigned w)
{
    return w < HD_ZCO_WARPS_MAX && ((m[w / 32u] >> (w % 32u)) & 1u);
}
/* Its low 64 bits (Fermi's 64 logical warps: the whole mask). */
static inline uint64_t hd_zco_low64(const uint32_t *m)
{
    return (uint64_t)m[0] | (uint64_t)m[1] << 32;
}
/* Its set bits. */
static inline unsigned hd_zco_count(const uint32_t *m)
{
    unsigned n = 0;
    for (unsigned i = 0; i < HD_ZCO_MWORDS; i++)
        n += (unsigned)__builtin_popcount(m[i]);
    return n;
}

/* Why configuration c does not fit the maxima or its own widths (the header's static checks of
 * the built one, at run time), or NULL. A contract on the parameters, not the block's logic
 * (the RTL's counterpart is its elaboration assertion): here rather than in zorua_coord.c, whose
 * mutants the testbench must kill; tests/unit/test_zorua_coord_block.c checks the refusals. */
static inline const char *hd_zorua_coord_cfg_check(const struct hd_zorua_coord_cfg *c)
{
    if (c->warps < 1 || c->warps > HD_ZCO_WARPS_MAX || c->ww > 16 || c->warps > (1u << c->ww) ||
        c->kww > 16 || c->warps >= (1u << c->kww))
        return "1..128 logical warps, fitting WW and KwW bits";
    if (c->blocks < 1 || c->blocks > HD_ZCO_BLOCKS_MAX || c->bw > 16 ||
        c->blocks > (1u << c->bw) || c->rsw > 7 || c->reg_sets >= (1u << c->rsw) || c->ssw > 7 ||
        c->smem_sets >= (1u << c->ssw))
        return "block, register-set and scratchpad-set widths";
    if (c->cw > 31 || c->warps * c->reg_sets >= (1u << c->cw) ||
        c->blocks * c->smem_sets >= (1u << c->cw) || c->pctw > 16 ||
        c->pct_max >= (1u << c->pctw) || c->epoch < 1 || c->epw > 31 ||
        c->epoch > (1u << c->epw) || c->pct_init > c->pct_max)
        return "counter, epoch and percentage widths";
    return NULL;
}

/* Reset with the built configuration (hd_rtl_params.h). */
void hd_zorua_coord_ref_reset(struct hd_zorua_coord_state *s);
/* Reset with the configuration of the ZORUA_COORD_<Param> macros in effect where it expands: the
 * reset of the instance kinds "zorua_coord:kepler" and "zorua_coord:maxwell" ([block]
 * loop_configs; generated by model/hw/hw_blocks.cmake with that configuration's macros). */
#define HD_ZORUA_COORD_REF_RESET_CFG(s)                                                            \
    do {                                                                                           \
        const struct hd_zorua_coord_cfg hd_zcc_ = HD_ZCO_CFG(ZORUA_COORD_);                        \
        (void)hd_zorua_coord_ref_init((s), &hd_zcc_, NULL, 0);                                     \
    } while (0)
/* Reset with configuration cfg; -1 (and a message in err) when it exceeds the maxima or its
 * own widths (as the header's static checks of the built one). */
int hd_zorua_coord_ref_init(struct hd_zorua_coord_state *s, const struct hd_zorua_coord_cfg *cfg,
                            char *err, unsigned errlen);
/* One cycle: *out = the outputs during the cycle, then the rising edge samples *in. */
void hd_zorua_coord_ref_step(struct hd_zorua_coord_state *s, const struct hd_zorua_coord_in *in,
                             struct hd_zorua_coord_out *out);
/* Idle (hw_inst.h): no input, nothing to try, no warp schedulable, nothing in the outputs. */
bool hd_zorua_coord_ref_idle(const struct hd_zorua_coord_state *s,
                             const struct hd_zorua_coord_in *in);

/* {==== The admission rule, one copy: the block's step above and the model's coordinator
 * (model/mech/zorua/zorua_coordinator.c) both decide with these two (docs/zorua.md "One rule").
 */
#define HD_ZCO_NOQ 0xFFu /* qof[] of a warp not to try */
/* The warp the admission tries next (L239: "starting from the register queue", the warps
 * closest to schedulable, then the scratchpad and the thread/barrier queue; the paper gives no
 * order inside a queue: the lowest logical warp first). qof[w] (w < n) is the queue (enum
 * hd_zorua_coord_res) of a warp still to try, HD_ZCO_NOQ for any other. Returns it, or -1. */
int hd_zorua_coord_pick(const uint8_t *qof, uint32_t n);
/* The virtual-space test (L233: "the total (physical + swap) may not exceed the virtual space
 * size", L255): every resource r the warp needs (need[r] > 0) fits, alloc[r] + need[r] <=
 * phys[r] + oth[r] (alloc: the units allocated on chip and in swap; oth: o_thresh in units).
 * Failing it, a warp is admitted only by the deadlock floor (L249 rule 3). */
bool hd_zorua_coord_fits(const uint32_t alloc[3], const uint32_t need[3], const uint32_t phys[3],
                         const uint32_t oth[3]);
/* Room for a block of kw warps (tb_req_o, L237: "when the coordinator has free warp slots for a
 * new thread block"): live of the warps logical warps are live (in a block: pending or
 * schedulable), and a logical block is free (blk_free). With vreq the block's warps must also
 * fit the thread slots' virtual space beside the live ones, live + kw <= phys_slot + tth
 * (tth: o_thresh of the warp slots; L206: "all active threads have thread slots allocated to
 * them in the virtual space", L255: o_thresh sets its size); without, free logical warps
 * suffice (the TMT's entries). The block's tb_req_o and the model's block scheduler side
 * (model/mech/zorua/zorua_blkdrive.c zbd_room, zorua_alloc.c can_accept) both decide with it. */
bool hd_zorua_coord_room(uint32_t live, uint32_t kw, uint32_t warps, bool blk_free,
                         uint32_t phys_slot, uint32_t tth, bool vreq);
/* Algorithm 1's decision at an epoch's end (L259-L269, Table 1): di and dm are c_idle and c_mem
 * of the epoch minus those of the previous epoch (`*_prev`: "the statistics for the previous
 * epoch"); more idleness by over delta raises the percentage by step (clamped to max), more
 * memory stalls by over delta lower it (clamped to 0). Returns the new percentage. The block's
 * epoch and the model's controller (model/mech/zorua/zorua_othresh.c) both decide with it. */
uint32_t hd_zorua_coord_alg1(uint32_t pct, int32_t di, int32_t dm, uint32_t step, uint32_t max,
                             uint32_t delta);
/* }==== */

#endif
