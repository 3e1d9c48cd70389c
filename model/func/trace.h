/* SPDX-License-Identifier: MIT
 * trace.h - the record one functional warp step hands to its caller (the timing model).
 *
 * Design: execute-at-issue. The timing model decides when a warp issues, calls
 * hd_func_warp_step() for it, and times the instruction from this record: which instruction
 * (static facts such as opcode, class, registers read/written are in `in`), which lanes were
 * active and which executed, the per-lane addresses and size of a memory access and its state
 * space, and what happened to control flow (branch taken/divergence, barrier arrival/release,
 * exit). Only the fields that the `flags` announce are written, so filling a record costs
 * little; the per-lane arrays are valid for the lanes in `exec`.
 */
#ifndef HD_FUNC_TRACE_H
#define HD_FUNC_TRACE_H

#include "func_instr.h"

#include <stdint.h>

enum hd_func_trace_flag {
    HD_TR_MEM = 1u << 0,         /* a memory access: space, bytes, addr[] valid */
    HD_TR_LOAD = 1u << 1,
    HD_TR_STORE = 1u << 2,
    HD_TR_ATOMIC = 1u << 3,      /* atom / red (read-modify-write) */
    HD_TR_BRANCH = 1u << 4,      /* a bra: taken valid */
    HD_TR_DIVERGED = 1u << 5,    /* the branch split the warp */
    HD_TR_BARRIER = 1u << 6,     /* the warp arrived at a CTA barrier (bar_id valid) */
    HD_TR_BAR_WAIT = 1u << 7,    /* ... and now waits (bar.sync/bar.red, not yet released) */
    HD_TR_BAR_RELEASE = 1u << 8, /* this arrival completed the barrier: its waiters run again */
    HD_TR_EXIT = 1u << 9,        /* some lanes exited */
    HD_TR_WARP_DONE = 1u << 10,  /* every thread of the warp has exited */
    HD_TR_CALL = 1u << 11,
    HD_TR_RET = 1u << 12,
    HD_TR_MIXED_SPACE = 1u << 13 /* generic access whose lanes resolved to different spaces */
};

struct hd_func_trace {
    const struct hd_func_instr *in; /* the instruction executed (static facts) */
    uint32_t pc;        /* its kernel-wide PC */
    uint32_t next_pc;   /* the warp's next PC after the step (0xffffffff when done) */
    uint32_t active;    /* lanes active on the SIMT stack */
    uint32_t exec;      /* lanes that executed it (active and guard true) */
    uint32_t flags;     /* enum hd_func_trace_flag */
    /* memory (HD_TR_MEM) */
    uint8_t space;      /* enum hd_space resolved: GLOBAL, SHARED, LOCAL, PARAM, CONST; for a
                           mixed generic access the space of the lowest lane (lane_space[] has
                           each lane's) */
    uint8_t bytes;      /* bytes per lane (element size x vector length) */
    uint8_t bar_id;     /* HD_TR_BARRIER */
    uint32_t taken;     /* HD_TR_BRANCH: lanes that took the branch */
    uint64_t addr[32];  /* per lane: address in `space` (shared/local: offset in that space) */
    uint8_t lane_space[32]; /* HD_TR_MIXED_SPACE only */
};

#endif
