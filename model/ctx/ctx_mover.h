/* SPDX-License-Identifier: MIT
 * ctx_mover.h - the on-chip context mover of one SM (issue 25 item 3; docs/mover.md): moves a
 * context, or any byte range of one (a warp's registers, a CTA's shared memory), between the
 * register file, shared memory and the L1D context region through one port of
 * `[context] mover_bytes_per_cycle` bytes (64/128/256 typical), at lower priority than the
 * pipeline: in a cycle in which the pipeline used the source or the destination array the
 * mover waits, and those cycles are counted per array (GPUDuet's warp switch into spare
 * on-chip storage; Zorua's on-chip moves; Virtual Thread's TB inactivation).
 *
 * The seam (what the warp-granular residency and the stress mode call):
 *   hd_ctx_mover_submit(mv, src, dst, bytes, tag, now)  queue one move between two unified
 *       space addresses (ctx_uspace.h); jobs are served one at a time in submission order;
 *   hd_ctx_mover_step(mv, busy, now)  one cycle: `busy` has bit (1 << HD_UA_x) set for every
 *       array the pipeline accessed this cycle (the SM computes it, ctx_mover_sm.c); the head
 *       job moves min(width, bytes left) bytes if neither of its arrays is busy, else waits;
 *   the done callback hears (tag, cycle) in the cycle of a job's last beat.
 * Cycle cost of a job of B bytes: ceil(B / width) move cycles plus its wait cycles (the
 * statistics have both, so a prediction can be checked exactly).
 *
 * Design: the mover moves no functional data (the context pool holds it, ctx_pool.h): it is
 * the timing of the on-chip copy. A move within one array is refused (one port per array).
 */
#ifndef HD_CTX_MOVER_H
#define HD_CTX_MOVER_H

#include "ctx_uspace.h"

#include <stdbool.h>
#include <stdint.h>

struct hd_mover_job {
    uint32_t src, dst;        /* unified space addresses */
    uint64_t bytes, moved;
    uint64_t tag;
    uint64_t t_submit;
};

struct hd_mover_stats {
    uint64_t jobs, bytes;                 /* completed */
    uint64_t move_cycles;                 /* cycles a beat moved */
    uint64_t wait_cycles;                 /* cycles the head job waited for the pipeline */
    uint64_t wait_by[HD_UA_COUNT];        /* ... because of this array (both may count) */
    uint64_t queue_cycles;                /* sum over cycles of the jobs behind the head */
    uint64_t latency;                     /* sum over jobs of (last beat's cycle - submission
                                             cycle): stepped every cycle from the one after
                                             the submission (as the SM does), latency =
                                             move_cycles + wait_cycles + queue_cycles */
};

typedef void (*hd_mover_done_fn)(void *arg, uint64_t tag, uint64_t now);

struct hd_ctx_mover {
    uint32_t width;                       /* bytes per cycle */
    struct hd_mover_job *q;               /* ring */
    uint32_t head, n, cap;
    hd_mover_done_fn done;
    void *arg;
    struct hd_mover_stats st;
};

/* width: bytes per cycle (> 0). Returns 0, or -1 on bad width or host OOM. */
int hd_ctx_mover_init(struct hd_ctx_mover *mv, uint32_t width, hd_mover_done_fn done, void *arg);
void hd_ctx_mover_free(struct hd_ctx_mover *mv);
/* Queue a move. Returns 0, or -1 (nothing queued) if an address is invalid, both lie in the
 * same array, bytes is 0, or the host is out of memory. */
int hd_ctx_mover_submit(struct hd_ctx_mover *mv, uint32_t src, uint32_t dst, uint64_t bytes,
                        uint64_t tag, uint64_t now);
/* One cycle; returns true if a beat moved or a job completed. */
bool hd_ctx_mover_step(struct hd_ctx_mover *mv, unsigned busy, uint64_t now);
static inline bool hd_ctx_mover_busy(const struct hd_ctx_mover *mv)
{
    return mv && mv->n > 0;
}
/* Cycles a job of `bytes` takes with no contention. */
static inline uint64_t hd_ctx_mover_cycles(const struct hd_ctx_mover *mv, uint64_t bytes)
{
    return (bytes + mv->width - 1) / mv->width;
}

#endif
