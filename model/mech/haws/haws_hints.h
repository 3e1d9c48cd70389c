/* SPDX-License-Identifier: MIT
 * haws_hints.h - the HAWS hint pass (Gong thesis ch. 5 §5.2.1-5.2.3, digest §2.3-2.5;
 * docs/blocks/haws.md §3): per stall point of a kernel image, the later instructions that may
 * run ahead while the warp waits on a long-latency load, which of them need a renamed
 * destination, and the hint encoding's size.
 *
 * Design: computed once per kernel image from its decoded code (register read/write lists, ops,
 * state spaces, branch targets) and shared by every launch, SM and warp. A stall point is a
 * non-control instruction that reads or writes a register some global/local load or atomic of
 * the kernel writes. Its window is the next `window` PCs (with back_edges, when the stall point
 * is in a loop whose back edge lies in them: also the loop's PCs before the stall point, entered
 * only through that back edge and ended by the stall point itself); a forward data-flow pass in
 * walk order over the CFG edges inside the window (a DAG: no other backward branch is selected) carries
 * the registers skipped instructions wrote (taint) and read or wrote (touched). Selected (R1,
 * R2): reachable, register-to-register (or bra, or with `loads` a load no skipped store,
 * atomic, barrier or fence precedes on any path), reads nothing tainted; at most rcu_depth per
 * window. Renamed (R3): writes a touched register; at most min(rcu_depth, regs_free) renamed,
 * a candidate beyond the budget is skipped. A control instruction that is not selected ends the
 * chain (its successors are not reached through it).
 */
#ifndef HD_HAWS_HINTS_H
#define HD_HAWS_HINTS_H

#include "ahead.h"
#include "module.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct hd_haws_hint_params {
    uint32_t window;    /* PCs after a stall point (<= HD_AHEAD_MAX_WINDOW) */
    uint32_t rcu_depth; /* selected instructions per window */
    uint32_t regs_free; /* renaming budget: registers per thread the kernel leaves unused */
    bool loads;         /* loads may run ahead (R2m: after no skipped store, atomic, barrier,
                           fence; not volatile or with a memory-order qualifier) */
    bool back_edges;    /* windows follow the innermost loop's back edge into the next
                           iteration's PCs before the stall point (Fig. 5.1, L952) */
};

struct hd_haws_kernel_hints {
    const struct hd_func_kernel *k;
    struct hd_haws_hint_params p;
    uint32_t *at;                  /* [k->ncode] 1 + index in h, or 0: no window */
    struct hd_ahead_hints *h;      /* [nh] in PC order */
    uint32_t nh;
    uint32_t stall_points;         /* static stall points (with or without a chain) */
    uint64_t hint_bits;            /* format 1 (18 b) on each stall point with a chain and each
                                      selected non-branch, format 2 (23 b) on selected branches */
    uint32_t hinted_instrs;        /* distinct PCs carrying a hint */
};

/* Build the hints of kernel image k. Returns NULL on host memory failure. */
struct hd_haws_kernel_hints *hd_haws_hints_build(const struct hd_func_kernel *k,
                                                 const struct hd_haws_hint_params *p);
void hd_haws_hints_free(struct hd_haws_kernel_hints *kh);
/* The window of stall point pc, or NULL. */
const struct hd_ahead_hints *hd_haws_hints_at(const struct hd_haws_kernel_hints *kh, uint32_t pc);
/* Print the hints (heddle ptx-info --haws): one line per stall point with a chain. */
void hd_haws_hints_print(const struct hd_haws_kernel_hints *kh, FILE *out);

#endif
