/* SPDX-License-Identifier: MIT
 * ctx_wsave.h - the per-warp save pipeline ([context] save_order = warp; Lin thesis §2.7, Fig
 * 2.13 step 5: "for each warp of a TB to spill" its live registers go through the compressor
 * and the packer into 128-byte segments as soon as that warp is drained; issue 24).
 *
 * With `tb` (the default) a CTA's save starts when every warp of it is drained, and the SM's
 * engine saves its CTAs one after another, so a warp waits for the slowest warp of its CTA and
 * for the CTAs ahead of it. With `warp` the SM keeps a FIFO of warps in the order they were
 * drained at their points: a switched CTA's warp is queued as soon as it has stopped (at its
 * preemption point, or at once without points) and nothing of it is in flight (the same test
 * as the CTA's quiescence, per warp); the engine feeds the queue's warps' live registers to the
 * codec one per cycle, across CTAs, and sends each warp's segments and pattern vector from the
 * queue's head, `requests_per_cycle` per cycle shared with the CTA operations. The CTA's
 * shared memory, SIMT stacks and CCB entry are written once its last warp has gone: when the
 * CTA is quiet, start_save queues the warps still not queued (finished warps, warps waiting at
 * a barrier that is not their point, whose registers may still change while their CTA runs to
 * its points) and pushes the CTA operation, whose controller (ctx_ctl, unchanged) waits in
 * SAVE_REGS until the queue has sent the CTA's records, then sequences shared memory, stacks
 * and the CCB entry as before. Restores are the CTA's, as in `tb`: the records are read back in
 * the order they were written. TB-level compression (save = compressed_tb) needs every warp of
 * the CTA at one barrier, so it keeps `tb` order.
 *
 * Fig 2.14 as time: each save counts, per part (registers, shared memory, stacks), the cycles in
 * which the engine sent or waited to send a request of that part (hd_ctx_part_cycle).
 */
#ifndef HD_CTX_WSAVE_H
#define HD_CTX_WSAVE_H

#include "ctx_image.h"
#include "ctx_pool.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct hd_sm;
struct hd_tcta;
struct hd_twarp;

/* Does this SM save warp by warp? */
bool hd_sm_wsave_on(const struct hd_sm *sm);
/* Queue the warps of suspending CTA c that are drained at their points (warp order only).
 * Returns a status (host memory). */
int hd_sm_wsave_scan(struct hd_sm *sm, struct hd_tcta *c, uint64_t now, char *err, size_t errlen);
/* CTA c is quiet: queue its remaining warps; its shared memory, stacks and CCB entry follow its
 * last record (start_save, instead of hd_sm_ctx_plan). Returns a status. */
int hd_sm_wsave_all(struct hd_sm *sm, struct hd_tcta *c, char *err, size_t errlen);
/* Offer this cycle's register of the queue to the codec (before its tick). */
void hd_sm_wsave_offer(struct hd_sm *sm);
/* The codec's save-path results of this cycle (after its tick). Returns a status. */
int hd_sm_wsave_collect(struct hd_sm *sm, char *err, size_t errlen);
/* Send the queue's register requests, at most budget of them; returns the budget left. */
uint32_t hd_sm_wsave_send(struct hd_sm *sm, uint32_t budget, uint64_t now, bool *progress);
/* CTA slot's operation is over: forget any entry of it (none is left in a consistent run). */
void hd_sm_wsave_forget(struct hd_sm *sm, uint32_t slot);

/* Is warp w drained: nothing of it in flight but, with quiesce = pipeline, loads waiting in
 * load trackers (ctx_engine.c)? */
bool hd_sm_warp_quiet(const struct hd_sm *sm, const struct hd_twarp *w);

/* ctx_pack.c: the items (live words) of warp wi of CTA c appended to its context; the bytes of
 * its unfinished warps' SIMT stacks; the 32 lanes of an item; is item i its record's last? */
bool hd_sm_ctx_warp_items(struct hd_sm *sm, struct hd_tcta *c, uint32_t wi);
uint64_t hd_sm_ctx_stack_bytes(const struct hd_tcta *c);
void hd_sm_ctx_item_lanes(const struct hd_ctx *x, const struct hd_ctx_item *it, uint32_t lanes[32]);
bool hd_sm_ctx_record_last(const struct hd_ctx *x, uint32_t i);
/* ctx_engine.c: storage for nwarps warps' spill cycles (x->wspill), zeroed; false: host OOM. */
bool hd_sm_ctx_wspill_storage(struct hd_ctx *x, uint32_t nwarps);
/* ctx_engine.c: send the next request of CTA c's context (false: the memory refused it). */
bool hd_sm_ctx_send(struct hd_sm *sm, struct hd_tcta *c, uint64_t now);

/* Count cycle `now` for the part of request kind `part` (enum hd_ctx_part) of save x. */
static inline void hd_ctx_part_cycle(struct hd_ctx *x, unsigned part, uint64_t now)
{
    const unsigned i = part == HD_CTXP_REGS || part == HD_CTXP_PV ? 0u
                       : part == HD_CTXP_SMEM                     ? 1u
                                                                  : 2u;
    if (x->pc_last[i] != now + 1) {
        x->pc_last[i] = now + 1;
        x->pc_cycles[i]++;
    }
}

/* Count cycle `now` as busy for save x, once per SM cycle (ce: the SM's engine), whichever
 * part or path: the save pipeline's busy time (Lin's drain is the rest of the latency). */
static inline void hd_ctx_busy_cycle(uint64_t *busy_last, struct hd_ctx *x, uint64_t now)
{
    if (*busy_last != now + 1) {
        *busy_last = now + 1;
        x->pc_busy++;
    }
}

#endif
