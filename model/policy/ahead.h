/* SPDX-License-Identifier: MIT
 * ahead.h - the run-ahead contract between the SM core's HAWS runtime (model/timing/sm_ahead.c)
 * and the mechanism that supplies the compiler hints (model/mech/haws, Gong thesis ch. 5 §5.2;
 * docs/blocks/haws.md).
 *
 * Design: a hint source answers, per stall point of a kernel image, its run-ahead window: the
 * PCs after the stall point, which of them may run ahead (selected) and which of those need a
 * renamed destination. The core walks the warp's shadow SIMT stack through the window; it never
 * decides what is independent itself. The window is computed once per kernel image and shared
 * (the source owns it; the pointer stays valid for the run).
 */
#ifndef HD_AHEAD_H
#define HD_AHEAD_H

#include "annot.h"
#include "module.h"

#include <stdint.h>

#define HD_AHEAD_MAX_WINDOW 64

/* One stall point's hint window (what its format-1/format-2 hints encode). */
struct hd_ahead_hints {
    uint32_t stall_pc;
    uint32_t first, len; /* the window: PCs [first, first + len), first = stall_pc + 1 */
    uint64_t sel;        /* bit i: PC first + i may run ahead (an independent instruction) */
    uint64_t ren;        /* bit i: ... and its destination is renamed (WAR/WAW with a skipped
                            older instruction): returns through a copy, not a skip */
    uint64_t reach;      /* bit i: PC first + i is reachable from the stall point without
                            passing an instruction that ends the chain (skippable if not sel) */
    uint8_t nsel, nren;
};

struct hd_ahead_ops {
    /* The window of stall point pc of kernel image k (an: its annotation store; regs_free:
     * registers per thread the kernel leaves unused, the renaming budget), or NULL when pc is not
     * a stall point with a chain. */
    const struct hd_ahead_hints *(*hints)(void *impl, const struct hd_func_kernel *k,
                                          const struct hd_annot *an, uint32_t regs_free,
                                          uint32_t pc);
    uint32_t rcu_depth;         /* RCU entries per warp */
    uint32_t hint_fetch_cycles; /* cycles a hint-mode fetch costs on top of the slot */
    uint32_t scan_cycles;       /* cycles the walk spends on each instruction it skips: 0 with
                                   hints (their offsets jump), 1 for warped pre-execution, which
                                   fetches and decodes every instruction to find independent
                                   ones */
};

#endif
