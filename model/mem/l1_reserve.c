/* SPDX-License-Identifier: MIT
 * l1_reserve.c - L1D ways reserved for contexts and given back (issue 25 item 3;
 * l1_reserve.h; docs/mover.md).
 */
#include "l1_reserve.h"

uint32_t hd_tags_reserved(const struct hd_tags *t)
{
    uint32_t n = 0;
    for (uint32_t w = 0; w < t->ways; w++)
        n += hd_tags_pinned(t, w);
    return n;
}

uint32_t hd_tags_reserve(struct hd_tags *t, uint32_t ways, void (*wb)(void *arg, uint32_t e),
                         void *arg)
{
    if (ways >= t->ways)
        ways = t->ways - 1;
    for (uint32_t s = 0; s < t->sets; s++)
        for (uint32_t w = 0; w < t->ways; w++) {
            const uint32_t e = s * t->ways + w;
            const bool want = w >= t->ways - ways;
            if (want == hd_tags_pinned(t, e))
                continue;
            if (want) {
                if (t->tag[e] && t->dirty[e] && wb)
                    wb(arg, e);
                t->tag[e] = UINT64_MAX - e;
                t->stamp[e] = UINT64_MAX;
            } else {
                t->tag[e] = 0;
                t->stamp[e] = 0;
            }
            t->valid[e] = t->dirty[e] = 0;
        }
    return ways;
}

struct wb_ctx {
    struct hd_l1 *l;
    uint32_t kernel, n;
    uint64_t now;
};

static void write_back(void *arg, uint32_t e)
{
    struct wb_ctx *c = arg;
    hd_l1_write_back_entry(c->l, e, c->kernel, HD_MCLASS_CONTEXT, c->now);
    c->n++;
}

uint32_t hd_l1_reserve_ways(struct hd_l1 *l, uint32_t ways, uint32_t kernel, uint64_t now,
                            uint32_t *writebacks)
{
    struct wb_ctx c = {l, kernel, 0, now};
    const uint32_t r = hd_tags_reserve(&l->d, ways, write_back, &c);
    if (writebacks)
        *writebacks = c.n;
    return r;
}
