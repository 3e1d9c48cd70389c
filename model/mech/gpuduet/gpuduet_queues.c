/* SPDX-License-Identifier: MIT
 * gpuduet_queues.c - GPUDuet's stalled and ready queues (Lin thesis §3.6.4, Table 3.4; digest
 * §3.10): a stalled-warp and a ready-warp queue of 16 entries of 7 bits (WCT index), and a
 * stalled-TB and a ready-TB queue of 8 entries of 5 bits (TBCT index), one push and one pop per
 * cycle each in hardware. A warp that finds its queue full is not queued (it stays stalled in
 * its slot, or absent until a later cycle's scan finds it ready): the digest's overflow choice.
 * Design: circular FIFOs of fixed capacity; remove() takes an entry out of the middle (a warp
 * that ran on before it was switched, or a TB that finished).
 */
#include "gpuduet.h"

void gd_queue_init(struct gd_queue *q, uint32_t cap)
{
    q->cap = cap <= 16 ? cap : 16;
    q->head = q->n = 0;
}

bool gd_queue_push(struct gd_queue *q, uint32_t v)
{
    if (q->n >= q->cap)
        return false;
    q->e[(q->head + q->n++) % q->cap] = v;
    return true;
}

bool gd_queue_pop(struct gd_queue *q, uint32_t *v)
{
    if (!q->n)
        return false;
    *v = q->e[q->head];
    q->head = (q->head + 1) % q->cap;
    q->n--;
    return true;
}

uint32_t gd_queue_at(const struct gd_queue *q, uint32_t i)
{
    return i < q->n ? q->e[(q->head + i) % q->cap] : GD_NONE;
}

void gd_queue_remove(struct gd_queue *q, uint32_t v)
{
    uint32_t keep = 0;
    for (uint32_t i = 0; i < q->n; i++) {
        const uint32_t x = q->e[(q->head + i) % q->cap];
        if (x != v)
            q->e[(q->head + keep++) % q->cap] = x;
    }
    q->n = keep;
}
