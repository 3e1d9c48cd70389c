/* SPDX-License-Identifier: MIT
 * cta.h - one cooperative thread array: its shared memory, its named barriers and its warps.
 *
 * Design: a CTA owns its shared memory (static + dynamic bytes of the launch), the register and
 * local-memory storage of its warps (handed to each warp as pointers, so an allocation layer can
 * later provide them instead), and 16 named barriers. Barrier semantics are warp-granular, as on
 * the hardware the papers model: a warp arrives as a whole (bar.sync / barrier.sync / bar.red
 * wait, bar.arrive does not); a barrier without a thread count completes when every warp that
 * still has live threads has arrived, one with a count when count/32 warps have arrived.
 * bar.red accumulates the predicate of the arriving lanes and the result is written to each
 * waiting warp's destination at release. A warp that exits may complete a barrier.
 */
#ifndef HD_FUNC_CTA_H
#define HD_FUNC_CTA_H

#include "launch.h"
#include "warp.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HD_FUNC_NUM_BARRIERS 16

struct hd_func_barrier {
    uint32_t expected_warps; /* 0: every warp with live threads */
    uint32_t arrived;        /* warps arrived in the current phase */
    uint32_t red_popc;       /* bar.red accumulators */
    bool red_and, red_or;
    int32_t last_pc;         /* PC of the latest arrival (for deadlock reports) */
};

struct hd_func_cta {
    const struct hd_func_launch *l;
    uint64_t linear;         /* CTA index in the grid */
    uint32_t ctaid[3];
    uint32_t smid;
    uint8_t *smem;           /* [l->smem_bytes] */
    uint64_t *regs;          /* storage of all warps' registers */
    uint8_t *local;          /* storage of all warps' local memory */
    struct hd_func_warp *warps;
    uint32_t nwarps;
    uint32_t live_warps;     /* warps that are not done */
    struct hd_func_barrier bar[HD_FUNC_NUM_BARRIERS];
    uint64_t bar_releases;   /* barrier completions so far (observers detect TB-wide points) */
};

/* Create CTA `linear` of launch `l` on SM `smid`. Returns 0 or HD_FUNC_ERR_MEMORY. */
int hd_func_cta_init(struct hd_func_cta *c, const struct hd_func_launch *l, uint64_t linear,
                     uint32_t smid, char *err, size_t errlen);
void hd_func_cta_destroy(struct hd_func_cta *c);
/* Reuse the storage of `c` (same launch) for CTA `linear` on SM `smid`: shared memory zeroed,
 * barriers reset, every warp at the kernel's first instruction; registers and local memory keep
 * their old contents (undefined in PTX; fresh storage from hd_func_cta_init is zeroed). */
void hd_func_cta_reset(struct hd_func_cta *c, uint64_t linear, uint32_t smid);
static inline bool hd_func_cta_done(const struct hd_func_cta *c)
{
    return c->live_warps == 0;
}

/* Warp `w` arrives at barrier `id` with `lanes` executing. `count_threads` 0 means all threads.
 * `wait` false for bar.arrive. For bar.red, `red` is the mode (HD_MODE_BAR_RED_*), `pred_lanes`
 * the arriving lanes whose predicate is true and `dst` the destination register. Returns true if
 * this arrival completed the barrier (all waiting warps were released). */
bool hd_func_cta_bar_arrive(struct hd_func_cta *c, struct hd_func_warp *w, uint32_t id,
                            uint32_t count_threads, bool wait, uint8_t red, uint32_t lanes,
                            uint32_t pred_lanes, int32_t dst, int32_t pc);
/* Account for warp `w` having finished; may release barriers that waited only for it.
 * Returns true if a barrier was released. */
bool hd_func_cta_warp_done(struct hd_func_cta *c, struct hd_func_warp *w);

#endif
