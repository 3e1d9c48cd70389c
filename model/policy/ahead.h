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

#include <stdbool.h>
#include <stdint.h>

#define HD_AHEAD_MAX_WINDOW 64

/* One stall point's hint window (what its format-1/format-2 hints encode). */
struct hd_ahead_hints {
    uint32_t stall_pc;
    uint32_t first, len; /* the window: PCs [first, first + len), first = stall_pc + 1; or
                            first < stall_pc ([haws] back_edges): the loop's PCs before the
                            stall point too, reached through its back edge; the stall point's
                            own bit is never reachable (the walk ends there) */
    uint64_t sel;        /* bit i: PC first + i may run ahead (an independent instruction) */
    uint64_t ren;        /* bit i: ... and its destination is renamed (WAR/WAW with a skipped
                            older instruction): returns through a copy, not a skip */
    uint64_t reach;      /* bit i: PC first + i is reachable from the stall point without
                            passing an instruction that ends the chain (skippable if not sel) */
    uint8_t nsel, nren;
};

/* An RCU event of one warp slot (hd_ahead_ops.event). */
enum hd_ahead_ev {
    HD_AHEV_CLEAR,  /* an episode is triggered or the RCU discarded: empty */
    HD_AHEV_ALLOC,  /* a hint-mode instruction issued into entry idx */
    HD_AHEV_READY,  /* entry idx's load was written back */
    HD_AHEV_RETURN, /* the warp returns to in-order execution (the rename table is cleared) */
    HD_AHEV_POP,    /* in-order execution reached the head: committed, or a branch popped */
    /* (the shadow SIMT stack and the warp controller in the loop, docs/blocks/haws.md §10) */
    HD_AHEV_RESET,   /* the warp slot got a (new or restored) warp: no episode */
    HD_AHEV_TRIGGER, /* hint mode began at stall point stall_pc (h, the real top copied) */
    HD_AHEV_WALK,    /* one hint-mode walk (try_issue): skips, a run-ahead issue, the chain end */
    HD_AHEV_STEPPED  /* return mode: the warp executed its next instruction in order */
};
struct hd_ahead_event {
    uint8_t ev;
    uint8_t idx;       /* ALLOC, READY: the entry */
    uint8_t ndst;      /* ALLOC: destinations (0: a branch) */
    bool renamed;      /* ALLOC: its destination is renamed (returns through a copy) */
    bool ctrl;         /* ALLOC: a branch */
    uint32_t off;      /* ALLOC: in-order steps from the stall point */
    int32_t dst[2];    /* ALLOC: the destination registers */
    uint64_t ready_at; /* ALLOC: its write-back cycle (UINT64_MAX: a load; READY follows) */
    /* {==== The shadow stack and the warp controller (appended; docs/blocks/haws.md §10) ==== */
    uint32_t rcu_n;                 /* TRIGGER, WALK, STEPPED: RCU entries held (WALK: before
                                       its issue) */
    const struct hd_ahead_hints *h; /* TRIGGER: the stall point's window */
    uint32_t stall_pc;              /* TRIGGER: the stall point */
    uint32_t top_pc, top_rpc, top_mask; /* TRIGGER: the real stack's top (rpc -1: none) */
    uint32_t skips;                 /* WALK: instructions skipped (the walk step advanced) */
    bool issued, park;              /* WALK: a run-ahead issue (then off, renamed, ctrl, idx =
                                       its entry); the chain ended */
    uint32_t pc, gen;               /* WALK: the issued PC; the episode (its load tag) */
    uint32_t taken, target, reconv; /* WALK, an issued branch: lanes taken, target, reconvergence
                                       PC */
    /* }==== */
};
/* The warp controller's state as the engine decides from it (hd_ahead_ops.ctl). */
struct hd_ahead_ctl_view {
    uint8_t mode; /* 0 normal, 1 hint, 2 return */
    bool parked, branch_due;
    uint32_t stall_pc, step, io_step, gen; /* (compared outside normal mode; gen: its low
                                              16 bits) */
};
/* A fetch-filter request and its answer (hd_ahead_ops.filter). */
struct hd_ahead_filter_req {
    /* the request: the in-order instruction and the RCU head */
    uint32_t pc;
    bool mask_ok; /* the in-order top's mask and state accept the head's commit */
    uint32_t rcu_n, head_step, head_pc;
    bool head_br, head_ready, head_ren;
    /* the answer: the engine's in, the blocks' out */
    uint8_t ans;            /* enum hd_ahead_filter: none, wait, skip, copy */
    bool pop, clear, mism;  /* the head popped; the episode ends; it ends by a discard */
};
/* The shadow SIMT stack's top (hd_ahead_ops.top). */
struct hd_ahead_top {
    uint32_t depth;         /* entries above the stall point's, the copied one included (0: the
                               walk left the stall point's lanes) */
    uint32_t pc, rpc, mask; /* the top (depth > 0) */
};
/* The RCU as the engine decides from it (hd_ahead_ops.rcu). */
struct hd_ahead_rcu_view {
    bool full;       /* no free entry: the chain stops */
    bool head_v;     /* an entry is held */
    bool head_ready; /* the head is written back */
    bool head_ctrl;  /* the head is a branch */
    bool head_copy;  /* the head's destination is renamed: a copy, else a skip */
    uint32_t head_off;
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
    /* {==== The HAWS blocks in the loop (issue 30 item 4; model/mech/haws/haws_loop.h,
     * docs/blocks/haws.md "The blocks in the loop"). All NULL when [haws] blocks is off; all
     * set otherwise. `sm` is the SM's id, `slot` the warp slot. ==== */
    /* Something happened to warp slot's RCU (struct hd_ahead_event). */
    void (*event)(void *impl, uint32_t sm, uint32_t slot, const struct hd_ahead_event *e,
                  uint64_t now);
    /* The engine's RCU decision for warp slot: *v holds the model's view, the hook replaces it
     * with the blocks' (what the engine then uses; a difference is a mismatch the hook reports
     * at the end of the cycle). */
    void (*rcu)(void *impl, uint32_t sm, uint32_t slot, struct hd_ahead_rcu_view *v,
                uint64_t now);
    /* The RAW check of a hint-mode instruction's n sources src[]: bit j of *mapped = source j
     * is the destination of an RCU entry (through the rename table), of *ready = and that entry
     * is written back; model's values in, blocks' out (as rcu). */
    void (*raw)(void *impl, uint32_t sm, uint32_t slot, const int32_t *src, unsigned n,
                uint32_t *mapped, uint32_t *ready, uint64_t now);
    /* The warp controller's state (no block step: its registered outputs after its last edge);
     * model's view in, blocks' out (as rcu). */
    void (*ctl)(void *impl, uint32_t sm, uint32_t slot, struct hd_ahead_ctl_view *v,
                uint64_t now);
    /* The return's fetch filter: *f holds the request and the engine's answer; the warp
     * controller's answer out. */
    void (*filter)(void *impl, uint32_t sm, uint32_t slot, struct hd_ahead_filter_req *f,
                   uint64_t now);
    /* The shadow stack's top after adv more advances of the walk (skipped instructions, the
     * last run-ahead non-branch): *t the model's in, the block's out. */
    void (*top)(void *impl, uint32_t sm, uint32_t slot, uint32_t adv, struct hd_ahead_top *t,
                uint64_t now);
    /* }==== */
};

#endif
