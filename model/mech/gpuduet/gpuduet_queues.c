/* SPDX-License-Identifier: MIT
 * gpuduet_queues.c - GPUDuet's stalled and ready queues of one SM as the model uses them: the
 * gpuduet_queues block (tables/gpuduet_queues.h, rtl/gpuduet_queues/; Lin thesis §3.6.4,
 * Table 3.4; digest §3.10) is the only copy of the queues, and the CSL (gpuduet_csl.c) decides
 * from its outputs. Queue 0 stalled warps and 1 ready warps (16 x 7 b: WCT entries), 2 stalled
 * TBs and 3 ready TBs (8 x 5 b: TBCT entries).
 *
 * Design. An instance per SM made through a block factory: the C reference (hw_ref.h) in a
 * plain run, the GPU's factory with [gpuduet] blocks (under cosim the RTL beside it or driving
 * it). Each cycle the CSL may pop each queue's head and push one id onto each queue (the block's
 * one pop and one push per queue per cycle, pop first: a rotation is a pop and a push of the
 * head); at the cycle's end gd_queues_step() presents them with a read (rd_v_i) on one edge.
 * The block's registered read result is the CSL's view: during cycle t it shows the queues
 * after cycle t-2's operations, so a queue popped in cycle t-1 has no known head in cycle t (the
 * popped entry still shows), and an id pushed onto an empty queue shows from cycle t+2. Every
 * pop's pop_id_o must be the head the view showed (a located MISMATCH otherwise); a push the
 * block dropped (the queue was full) is reported to the caller, whose warp then stays where it
 * is and is pushed again later (the thesis leaves the overflow open). The block is stepped only
 * in a cycle with a request or right after one (to refresh the view); otherwise its state and
 * its registered read are unchanged.
 */
#include "gpuduet.h"

#include "gpuduet_queues.h"
#include "hw_ref.h"

#include <inttypes.h>
#include <string.h>

#define IW GPUDUET_QUEUES_IW
#define CW GPUDUET_QUEUES_CW

int gd_queues_make(struct gd_queues *q, const struct hd_hw_factory *f, uint32_t sm, char *err,
                   size_t errlen)
{
    memset(q, 0, sizeof *q);
    char name[64];
    snprintf(name, sizeof name, "sm%u.gpuduet_queues", sm);
    if (hd_hw_make_sized(f ? f : hd_hw_ref_factory(), "gpuduet_queues", name, &q->x,
                         sizeof(struct hd_gpuduet_queues_in),
                         sizeof(struct hd_gpuduet_queues_out), err, errlen) != 0)
        return -1;
    q->made = true;
    return 0;
}

void gd_queues_destroy(struct gd_queues *q)
{
    if (q->made)
        hd_hw_destroy(&q->x);
    q->made = false;
}

uint32_t gd_queues_head(const struct gd_queues *q, unsigned k)
{
    if (k >= GD_NQ || !q->cnt[k] || ((q->last_pop | q->pop) >> k & 1u))
        return GD_NONE;
    return q->head[k];
}

bool gd_queues_unknown(const struct gd_queues *q, unsigned k)
{
    if (k >= GD_NQ || gd_queues_head(q, k) != GD_NONE)
        return false;
    /* no head shown: an entry may still be there (the view lags a pop) or be arriving (a push
     * the view does not show yet) */
    return q->cnt[k] > 0 || ((q->last_push | q->push) >> k & 1u);
}

uint32_t gd_queues_count(const struct gd_queues *q, unsigned k)
{
    return k < GD_NQ ? q->cnt[k] : 0;
}

bool gd_queues_pop(struct gd_queues *q, unsigned k)
{
    const uint32_t h = gd_queues_head(q, k);
    if (h == GD_NONE)
        return false;
    q->pop |= (uint8_t)(1u << k);
    q->pop_id[k] = h;
    return true;
}

bool gd_queues_push(struct gd_queues *q, unsigned k, uint32_t id)
{
    if (k >= GD_NQ || (q->push >> k & 1u))
        return false;
    q->push |= (uint8_t)(1u << k);
    q->push_id[k] = id;
    return true;
}

bool gd_queues_push_free(const struct gd_queues *q, unsigned k)
{
    return k < GD_NQ && !(q->push >> k & 1u);
}

bool gd_queues_full(const struct gd_queues *q, unsigned k)
{
    if (k >= GD_NQ)
        return false;
    /* the view's count with the last edge's and this cycle's operations (a push of the last
     * edge counted although the block may have dropped it: at worst a push waits a cycle) */
    const uint32_t add = (q->last_push >> k & 1u) + (q->push >> k & 1u);
    const uint32_t sub = (q->last_pop >> k & 1u) + (q->pop >> k & 1u);
    return q->cnt[k] + add >= hd_gpuduet_queues_depth(k) + sub;
}

bool gd_queues_rotate(struct gd_queues *q, unsigned k)
{
    const uint32_t h = gd_queues_head(q, k);
    if (h == GD_NONE || !gd_queues_push_free(q, k))
        return false;
    gd_queues_pop(q, k);
    gd_queues_push(q, k, h);
    return true;
}

bool gd_queues_busy(const struct gd_queues *q)
{
    return q->pop || q->push || q->last_pop || q->last_push || q->cnt[0] || q->cnt[1] ||
           q->cnt[2] || q->cnt[3];
}

int gd_queues_step(struct gd_queues *q, uint32_t sm, uint64_t now, uint32_t dropped[GD_NQ],
                   char *err, size_t errlen)
{
    for (unsigned k = 0; k < GD_NQ; k++)
        dropped[k] = GD_NONE;
    if (!q->made || !(q->pop | q->push | q->last_pop | q->last_push))
        return 0;
    struct hd_gpuduet_queues_in in;
    struct hd_gpuduet_queues_out out;
    memset(&in, 0, sizeof in);
    memset(&out, 0, sizeof out);
    in.pop_v_i = q->pop;
    in.push_v_i = q->push;
    for (unsigned k = 0; k < GD_NQ; k++)
        if (q->push >> k & 1u)
            in.push_id_i = hd_gpuduet_queues_field_set(in.push_id_i, k, IW, q->push_id[k]);
    in.rd_v_i = 1;
    q->steps++;
    if (hd_hw_step(&q->x, &in, &out, now) != 0) {
        snprintf(err, errlen, "%s", q->x.ops->error(q->x.impl));
        return -1;
    }
    /* the last edge's pops and pushes, answered now */
    for (unsigned k = 0; k < GD_NQ; k++) {
        const bool got = out.pop_v_o >> k & 1u;
        const uint64_t id = hd_gpuduet_queues_field(out.pop_id_o, k, IW);
        if ((q->last_pop >> k & 1u) && (!got || id != q->last_pop_id[k])) {
            snprintf(err, errlen,
                     "gpuduet blocks: MISMATCH at cycle %" PRIu64 ", SM %u, block gpuduet_queues, "
                     "signal pop_id_o field %u: the block gives %s%" PRIu64 ", the CSL popped the "
                     "head its read showed, %u",
                     now, sm, k, got ? "" : "no pop, ", id, q->last_pop_id[k]);
            return -1;
        }
        if ((q->last_push >> k & 1u) && (out.drop_o >> k & 1u)) {
            dropped[k] = q->last_push_id[k];
            q->drops++;
        }
    }
    if (out.rd_v_o & 1u)
        for (unsigned k = 0; k < GD_NQ; k++) {
            q->cnt[k] = (uint32_t)hd_gpuduet_queues_field(out.rd_cnt_o, k, CW);
            q->head[k] = (uint32_t)hd_gpuduet_queues_field(out.rd_head_o, k, IW);
        }
    q->pops += (uint64_t)__builtin_popcount(q->pop);
    q->pushes += (uint64_t)__builtin_popcount(q->push);
    q->last_pop = q->pop;
    q->last_push = q->push;
    memcpy(q->last_pop_id, q->pop_id, sizeof q->pop_id);
    memcpy(q->last_push_id, q->push_id, sizeof q->push_id);
    q->pop = q->push = 0;
    return 0;
}
