/* SPDX-License-Identifier: MIT
 * bundles.h - EXPARS's compiler-assisted annotation (Yu et al. TACO 2018 §3.2, L93, L111-L115;
 * digest §2.1, §8 item 1): register ordering by static weight, instruction bundles and the PREF
 * bit-vector at the start of each bundle, over a kernel image's annotation store (annot.h).
 *
 * What is computed, once per kernel image, in the entry function (physical registers of the
 * register allocator; a 64-bit value counts as its two registers):
 *   - weight of a register = its static references (reads + writes) in the entry function;
 *     rank = its position when sorted by weight, heaviest first, ties by register number (stable).
 *     The hardware then puts ranks >= Start_Reg in the scratchpad: the coldest registers (L115).
 *   - bundles: the instructions of each basic block in PC order are cut into bundles. Only the
 *     paper's rule (5) survives the source ("a bundle does not span beyond a basic block");
 *     rules (1)-(4) are lost (digest §8 item 1). Reconstructed [CHOICE], each a parameter:
 *     (L1/L2) at most oc_ways registers of a bundle map to one operand-cache set (rank mod
 *     oc_lines/oc_ways; direct-mapped: no two on one line), which also bounds the bundle's
 *     registers by the lines, so a bundle's scratchpad set always fits the cache whatever
 *     Start_Reg is; (L1') at most max_regs registers (fewer than the lines lets several warps
 *     hold their bundles in the cache at once); (L3) at most
 *     max_instrs instructions; (L4) a barrier ends its bundle. An instruction whose own
 *     registers collide on a line cannot be split: it forms a bundle alone (flagged `conflict`).
 *   - PREF: one per bundle, before its first instruction, carrying the bundle's registers as a
 *     bit-vector over ranks (bit i = rank i; Fermi's 63 bits, digest §2.1). hd_bundles_annotate
 *     gives the store a column "expars_bundle": 1 + the bundle's index at every PC of it.
 *     by_weight false keeps rank = register number (the timing model's RAT compares register
 *     numbers, so its warp pool asks for bundles in that numbering).
 * Without a register allocation (annot.h ra_ok false) there are no bundles (n = 0, a note).
 * Deterministic: only PCs and counts decide.
 */
#ifndef HD_BUNDLES_H
#define HD_BUNDLES_H

#include "annot.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HD_BUNDLE_MAX_REGS 256

struct hd_bundle_params {
    uint32_t oc_lines;    /* operand-cache lines (16: the paper's 2 KB) */
    uint32_t oc_ways;     /* lines per set (1: direct-mapped, the paper's reading) */
    uint32_t max_instrs;  /* L3 (0: no limit) */
    bool cut_barrier;     /* L4 */
    bool by_weight;       /* ranks by weight (false: rank = register number, no reordering) */
    uint32_t max_regs;    /* L1': at most this many registers per bundle (0: the lines) */
};

struct hd_bundle {
    uint32_t pc, n;       /* kernel-wide first PC, instructions */
    uint64_t vec[HD_BUNDLE_MAX_REGS / 64]; /* PREF bit-vector over ranks */
    uint32_t nregs;       /* bits set */
    bool conflict;        /* a single instruction whose registers share a line */
};

struct hd_bundles {
    uint32_t n;
    struct hd_bundle *b;
    uint32_t nphys;                       /* physical registers of the entry function */
    uint16_t rank[HD_BUNDLE_MAX_REGS];    /* physical register -> rank */
    uint16_t order[HD_BUNDLE_MAX_REGS];   /* rank -> physical register */
    uint32_t weight[HD_BUNDLE_MAX_REGS];  /* by physical register */
    uint32_t instrs;                      /* instructions bundled */
    uint32_t *of_pc;                      /* [ncode] bundle of each kernel-wide PC (UINT32_MAX:
                                             none) */
    uint32_t ncode;
    char note[240];                       /* why there are none, or "" */
};

/* Build the bundles of store a (entry function). Returns 0, or -1 with a message on host
 * allocation failure. */
int hd_bundles_build(const struct hd_annot *a, const struct hd_bundle_params *p,
                     struct hd_bundles **out, char *err, size_t errlen);
/* Fill a's column "expars_bundle" (1 + bundle index, 0 outside any bundle). Returns 0, or -1 on
 * host allocation failure. */
int hd_bundles_annotate(struct hd_annot *a, const struct hd_bundles *b);
void hd_bundles_free(struct hd_bundles *b);

#endif
