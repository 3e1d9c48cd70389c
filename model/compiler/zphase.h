/* SPDX-License-Identifier: MIT
 * zphase.h - Zorua's phase specifiers (Vijaykumar et al., Zorua Sec. 3.6 / digest Sec. 2.9):
 * the compiler pass that cuts a kernel into phases, each with the registers and scratchpad it
 * needs, so the coordinator can allocate and release them at phase boundaries.
 *
 * The rule (Sec. 3.6): a new phase starts at an instruction where (i) the live registers differ
 * by at least 25 % from the current phase's (or the live scratchpad changes), (ii) at least 10
 * instructions passed since the last boundary, and (iii) the warp cannot be diverged (the
 * annotation store's may-diverge flag is clear). Barriers are boundaries too, without a phase
 * specifier (the needs do not change, L314): a phase a barrier begins belongs to the group of
 * the specifier before it, rule (i) is measured from that specifier's phase (session 17: it
 * was measured from the barrier, and each barrier's phase had its own need), and a barrier
 * where rules (i) and (ii) hold also gets a specifier (rule (iii) holds at any barrier: every
 * thread of the CTA reaches it, whatever the static may-diverge flag says). Choices where the paper is silent (docs/zorua.md):
 *   - the entry function, in PC order; live registers = the annotation store's live-in 32-bit
 *     words of values that occupy a register, the 25 % against the count at the phase's start;
 *   - no boundary inside a loop except at the head of an outermost loop (a specifier in a loop
 *     body would be an event per iteration): phases are loop-granular;
 *   - a phase needs the largest live count over its instructions; a group (a specifier's phase
 *     and the barrier phases after it) the largest of its phases' (zorua_phase_loop.c);
 *   - live scratchpad: the pass cannot follow shared-array contents through addresses, so the
 *     scratchpad is "live" from the first shared-memory store to the last shared-memory load or
 *     atomic in PC order (a loop holding one covers the whole loop), all of the CTA's scratchpad
 *     then, none before and after.
 * Computed once per kernel image over its annotation store (shared by every launch); the store
 * gets a column "zphase": 1 + the phase index at each PC of the entry function.
 * Deterministic: only PCs and counts decide.
 */
#ifndef HD_ZPHASE_H
#define HD_ZPHASE_H

#include "annot.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct hd_zphase {
    uint32_t start, end;     /* kernel-wide PCs [start, end) */
    uint32_t live_start;     /* live words at its first instruction */
    uint32_t live_max;       /* the most live words at any of its instructions: its need */
    bool smem;               /* scratchpad live in it */
    bool barrier;            /* it begins at a barrier (no specifier: the needs do not change) */
    bool specifier;          /* a phase specifier instruction begins it (not the first phase) */
    uint32_t group;          /* the phase whose specifier (or the kernel start) states its needs:
                                itself, or for a phase a barrier begins (no specifier) the
                                group of the phase before it (L314: the needs do not change) */
};

struct hd_zphases {
    uint32_t n, cap;
    struct hd_zphase *ph;
    uint32_t specifiers;     /* phase specifiers inserted */
    uint32_t min_instrs;     /* rule (ii): 10 */
    double change;           /* rule (i): 0.25 */
};

/* The phases of the entry function of a's kernel image. Returns 0, or -1 with a message. */
int hd_zphase_build(struct hd_annot *a, struct hd_zphases **out, char *err, size_t errlen);
void hd_zphase_free(struct hd_zphases *z);

#endif
