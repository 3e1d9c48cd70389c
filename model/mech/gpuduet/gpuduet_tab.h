/* SPDX-License-Identifier: MIT
 * gpuduet_tab.h - GPUDuet's warp context table and TB context table of one SM as the model uses
 * them: the gpuduet_wct and gpuduet_tbct blocks (tables/gpuduet_wct.h, tables/gpuduet_tbct.h,
 * rtl/gpuduet_wct/, rtl/gpuduet_tbct/; Lin thesis §3.6.4, Fig 3.9, Table 3.4; digest §2.11,
 * §3.8, §3.9; issue 28 item 4; docs/blocks/gpuduet.md "In the GPU") are the only copy of the
 * tables' fields (Valid, State, Regaddr, Metaaddr; Valid, Absmask, Smemaddr), and the context
 * switching logic decides from their outputs.
 *
 * Design. An instance of each per SM made through a block factory: the C references (hw_ref.h)
 * in a plain run, the GPU's factory with [gpuduet] blocks (under cosim the RTL beside them, or
 * driving with --drive rtl). The model's events (a TB placed or gone, a warp stalled, ran on,
 * left, came back or became ready) are writes on the blocks' ports (WCT finish, launch, stall
 * detector, memory response, CSL; TBCT finish, launch, TB move, warp move), queued in the order
 * they happen and presented at the cycle's end, one per port per edge and one per entry per
 * edge (so that two writes of one entry apply in the order they were made, not in the block's
 * port order). Every entry written is read back through the block's read port (one read per
 * table per edge, round robin over the entries waiting), and the registered result (rd_valid_o,
 * rd_state_o, rd_reg_o, rd_meta_o; rd_valid_o, rd_abs_o, rd_smem_o) is the model's view of that
 * entry. What the CSL and the hooks see of an entry (gd_tab_w / gd_tab_t) is that view with the
 * writes made since the read's edge applied by the block's write rules (the write port's
 * latency: a registered table answers one edge after the write); an entry with none in flight is
 * the block's read alone. (Kept per entry for speed: each write is applied as it is made, and
 * each read that comes back rebuilds the entry's view from the block's output and the writes
 * still in flight.) Each read must show what the writes sent up to its edge give, with the
 * table's vectors (valid count, schedulable / stalled / ready warps; valid / shared-memory
 * present / whole TBs): otherwise the run stops with a located MISMATCH (cycle, SM, block,
 * signal, both values). The model keeps beside the blocks only what names a warp to the SM (its
 * context, TB, warp slot, queue flags: gpuduet.h), not a field of the 27 or 45 bits.
 * Deterministic; nothing here depends on host state.
 */
#ifndef HD_GPUDUET_TAB_H
#define HD_GPUDUET_TAB_H

#include "hw_inst.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* One WCT entry's fields (27 bits), one TBCT entry's (45 bits). */
struct gd_wf {
    uint8_t valid, state;
    uint16_t reg, meta;
};
struct gd_tf {
    uint8_t valid;
    uint32_t abs;
    uint16_t smem;
};

struct gd_tab;
struct hd_hw_factory;

/* The tables of SM sm through factory f (NULL: the C references); fault: the test-only
 * [gpuduet] blocks_fault cycle (0: none). NULL with a message. */
struct gd_tab *gd_tab_create(const struct hd_hw_factory *f, uint32_t sm, uint64_t fault,
                             char *err, size_t errlen);
void gd_tab_destroy(struct gd_tab *T);

/* The view (see above) of the WCT's 128 and the TBCT's 32 entries: the first member of struct
 * gd_tab, read through gd_tab_w / gd_tab_t (inline: the CSL's scans read it every cycle). */
#define GD_TAB_NW 128u
#define GD_TAB_NT 32u
struct gd_tab_view {
    struct gd_wf w[GD_TAB_NW];
    struct gd_tf t[GD_TAB_NT];
};
static inline struct gd_wf gd_tab_w(const struct gd_tab *T, uint32_t e)
{
    const struct gd_tab_view *v = (const struct gd_tab_view *)(const void *)T;
    return e < GD_TAB_NW ? v->w[e] : (struct gd_wf){0, 0, 0, 0};
}
static inline struct gd_tf gd_tab_t(const struct gd_tab *T, uint32_t t)
{
    const struct gd_tab_view *v = (const struct gd_tab_view *)(const void *)T;
    return t < GD_TAB_NT ? v->t[t] : (struct gd_tf){0, 0, 0};
}

/* The WCT's writes. */
void gd_tab_w_launch(struct gd_tab *T, uint32_t e, uint8_t state, uint32_t reg, uint32_t meta);
void gd_tab_w_finish(struct gd_tab *T, uint32_t e);
/* Entry e's state becomes st (addresses unchanged): the stall detector (running -> stalled),
 * the memory response (stalled -> running, absent -> ready) or else the CSL port. */
void gd_tab_w_state(struct gd_tab *T, uint32_t e, uint8_t st);
/* The CSL's write after a move: state and both addresses. */
void gd_tab_w_move(struct gd_tab *T, uint32_t e, uint8_t st, uint32_t reg, uint32_t meta);

/* The TBCT's writes. */
void gd_tab_t_launch(struct gd_tab *T, uint32_t t, uint32_t abs, uint32_t smem);
void gd_tab_t_finish(struct gd_tab *T, uint32_t t);
/* Warp k of TB t left (abs) or came back; smem: the TB's shared-memory base after it (a change
 * makes it a TB move of Absmask and Smemaddr). */
void gd_tab_t_warp(struct gd_tab *T, uint32_t t, uint32_t k, bool abs, uint32_t smem);

/* TB t's shared memory moved to smem (a TB move: Absmask unchanged, Smemaddr written). */
void gd_tab_t_smem(struct gd_tab *T, uint32_t t, uint32_t smem);

/* The end of cycle `now`: present the queued writes and a read on each block's edge and check
 * the read that came back. 0, or -1 with a located message. *busy: writes or a read in flight. */
int gd_tab_cycle(struct gd_tab *T, uint64_t now, bool *busy, char *err, size_t errlen);

/* Counts: writes presented, reads checked, per table. */
void gd_tab_counts(const struct gd_tab *T, uint64_t c[4]);

#endif
