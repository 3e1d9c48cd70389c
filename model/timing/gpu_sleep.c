/* SPDX-License-Identifier: MIT
 * gpu_sleep.c - sleeping SMs, the GPU top's idle skip per SM (docs/timing.md "The GPU top").
 *
 * Design: an SM whose tick made no progress cannot change before its next scheduled event, the
 * completion of one of its memory requests (known only if the memory model provides
 * next_event_sm; otherwise SMs sleep only when the whole GPU skips), or a CTA placed on it. It
 * is not ticked until then;
 * the cycles in between are accounted later as the stalls of its last tick (hd_sm_skip), which
 * are exactly what ticking it would have counted (a test compares with [timing] skip_idle off).
 */
#include "gpu_impl.h"

#include "sm_policy.h"

uint64_t hd_gpu_sm_wake_time(const struct hd_gpu_timing *g, uint32_t s)
{
    uint64_t t = hd_sm_next_event(g->sm[s], g->now);
    uint64_t mt = g->mem.next_event_sm(g->mem.impl, s, g->now);
    t = mt < t ? mt : t;
    if (g->alloc_timed) { /* the allocator's timers (sm_policy.h) */
        uint64_t at = hd_sm_alloc_next_event(g->sm[s], g->now);
        t = at < t ? at : t;
    }
    return t;
}

void hd_gpu_sm_sleep(struct hd_gpu_timing *g, uint32_t s, uint64_t until)
{
    g->sleep_until[s] = until;
    g->acct[s] = g->now;
}

/* Account a sleeping SM's cycles up to and including `upto`; it stays asleep. */
static void sm_account(struct hd_gpu_timing *g, uint32_t s, uint64_t upto)
{
    if (g->sleep_until[s] && upto > g->acct[s]) {
        hd_sm_skip(g->sm[s], upto - g->acct[s]);
        g->acct[s] = upto;
    }
}

void hd_gpu_sm_wake(struct hd_gpu_timing *g, uint32_t s, uint64_t upto)
{
    sm_account(g, s, upto);
    g->sleep_until[s] = 0;
}

void hd_gpu_wake_sm(struct hd_gpu_timing *g, uint32_t s)
{
    if (g->sleep_until[s])
        hd_gpu_sm_wake(g, s, g->now ? g->now - 1 : 0);
}

void hd_gpu_account_all(struct hd_gpu_timing *g, uint64_t upto)
{
    for (uint32_t s = 0; s < g->p.num_sms; s++)
        sm_account(g, s, upto);
}
