/* SPDX-License-Identifier: MIT
 * ctx_mover.c - the on-chip context mover's queue and port (issue 25 item 3; ctx_mover.h;
 * docs/mover.md): one job at a time, `width` bytes per cycle, waiting whenever the pipeline
 * uses the job's source or destination array in that cycle.
 */
#include "ctx_mover.h"

#include <stdlib.h>
#include <string.h>

int hd_ctx_mover_init(struct hd_ctx_mover *mv, uint32_t width, hd_mover_done_fn done, void *arg)
{
    memset(mv, 0, sizeof *mv);
    if (width == 0)
        return -1;
    mv->width = width;
    mv->done = done;
    mv->arg = arg;
    mv->cap = 8;
    mv->q = calloc(mv->cap, sizeof *mv->q);
    return mv->q ? 0 : -1;
}

void hd_ctx_mover_free(struct hd_ctx_mover *mv)
{
    free(mv->q);
    mv->q = NULL;
    mv->n = mv->cap = 0;
}

int hd_ctx_mover_submit(struct hd_ctx_mover *mv, uint32_t src, uint32_t dst, uint64_t bytes,
                        uint64_t tag, uint64_t now)
{
    if (!hd_uaddr_valid(src) || !hd_uaddr_valid(dst) || bytes == 0 ||
        hd_uaddr_array(src) == hd_uaddr_array(dst))
        return -1;
    if (mv->n == mv->cap) { /* grow the ring, oldest first */
        struct hd_mover_job *q = malloc(2 * (size_t)mv->cap * sizeof *q);
        if (!q)
            return -1;
        for (uint32_t i = 0; i < mv->n; i++)
            q[i] = mv->q[(mv->head + i) % mv->cap];
        free(mv->q);
        mv->q = q;
        mv->head = 0;
        mv->cap *= 2;
    }
    mv->q[(mv->head + mv->n++) % mv->cap] =
        (struct hd_mover_job){src, dst, bytes, 0, tag, now};
    return 0;
}

bool hd_ctx_mover_step(struct hd_ctx_mover *mv, unsigned busy, uint64_t now)
{
    if (!mv->n)
        return false;
    mv->st.queue_cycles += mv->n - 1;
    struct hd_mover_job *j = &mv->q[mv->head];
    const unsigned sa = hd_uaddr_array(j->src), da = hd_uaddr_array(j->dst);
    const unsigned need = 1u << sa | 1u << da;
    if (busy & need) { /* the pipeline has the array this cycle */
        mv->st.wait_cycles++;
        for (unsigned a = 0; a < HD_UA_COUNT; a++)
            mv->st.wait_by[a] += (busy & need) >> a & 1u;
        return false;
    }
    const uint64_t left = j->bytes - j->moved;
    j->moved += left < mv->width ? left : mv->width;
    mv->st.move_cycles++;
    if (j->moved < j->bytes)
        return true;
    const struct hd_mover_job d = *j;
    mv->head = (mv->head + 1) % mv->cap;
    mv->n--;
    mv->st.jobs++;
    mv->st.bytes += d.bytes;
    mv->st.latency += now - d.t_submit;
    if (mv->done)
        mv->done(mv->arg, d.tag, now);
    return true;
}
