/* SPDX-License-Identifier: MIT
 * exec.h - the functional executor: run one instruction of one warp.
 *
 * Design: execute-at-issue. hd_func_warp_step() takes the warp's next instruction (the top of its
 * SIMT stack), evaluates the guard, runs the pre-decoded semantic handler for the lanes that
 * execute, advances the SIMT stack and fills the trace record. It never allocates. A fault
 * (out-of-bounds or misaligned access, trap, unsupported feature) stops with a status and a
 * report in l->err that names kernel, PC, PTX line, thread, block, address and size; the warp is
 * then left at the faulting instruction. A warp waiting at a barrier must not be stepped (the
 * step returns HD_FUNC_ERR_INTERNAL); hd_func_warp_ready() tells whether it may be.
 */
#ifndef HD_FUNC_EXEC_H
#define HD_FUNC_EXEC_H

#include "cta.h"
#include "launch.h"
#include "trace.h"
#include "warp.h"

#include <stdbool.h>
#include <stdint.h>

/* Execute the next instruction of warp `w` of CTA `c`. `cycle` is what %clock/%clock64 read.
 * `tr` may be NULL. Returns HD_FUNC_OK or a negative HD_FUNC_ERR_* with the report in l->err. */
int hd_func_warp_step(struct hd_func_launch *l, struct hd_func_cta *c, struct hd_func_warp *w,
                      uint64_t cycle, struct hd_func_trace *tr);

/* May the warp be stepped (not done, not waiting at a barrier)? */
static inline bool hd_func_warp_ready(const struct hd_func_warp *w)
{
    return !w->done && !w->at_barrier;
}

/* The instruction the warp will execute next (NULL when done). For scoreboarding before issue. */
const struct hd_func_instr *hd_func_warp_peek(const struct hd_func_launch *l,
                                              const struct hd_func_warp *w, uint32_t *active);

#endif
