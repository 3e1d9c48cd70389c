/* SPDX-License-Identifier: MIT
 * mem_fixed.c - fixed-latency memory with a per-SM bandwidth limit.
 *
 * Design: see mem_fixed.h. State per SM: a ring of in-flight requests (oldest at head) and the
 * cycle at which its link is free again.
 */
#include "mem_fixed.h"

#include <stdio.h>
#include <stdlib.h>

struct fixed_port {
    struct hd_mem_req *ring; /* [cap] */
    uint32_t head, count;
    uint64_t link_free;      /* first cycle the link may carry the next request */
    uint64_t sent, bytes;
};

struct fixed_state {
    struct hd_mem_fixed_params p;
    struct fixed_port *port; /* [num_sms] */
    uint64_t inflight;
};

static bool fixed_can_send(const void *impl, const struct hd_mem_req *r, uint64_t now)
{
    const struct fixed_state *s = impl;
    if (r->sm >= s->p.num_sms)
        return false;
    const struct fixed_port *pt = &s->port[r->sm];
    return pt->count < s->p.max_inflight && pt->link_free <= now;
}

static bool fixed_send(void *impl, const struct hd_mem_req *r, uint64_t now)
{
    struct fixed_state *s = impl;
    if (!fixed_can_send(impl, r, now))
        return false;
    struct fixed_port *pt = &s->port[r->sm];
    uint32_t slot = (pt->head + pt->count) % s->p.max_inflight;
    pt->ring[slot] = *r;
    pt->ring[slot].issue_cycle = now;
    pt->ring[slot].done_cycle = now + s->p.latency;
    pt->count++;
    uint64_t flits = (r->bytes + s->p.bytes_per_cycle - 1) / s->p.bytes_per_cycle;
    pt->link_free = now + (flits ? flits : 1);
    pt->sent++;
    pt->bytes += r->bytes;
    s->inflight++;
    return true;
}

static unsigned fixed_recv(void *impl, unsigned sm, struct hd_mem_req *out, unsigned max,
                           uint64_t now)
{
    struct fixed_state *s = impl;
    if (sm >= s->p.num_sms)
        return 0;
    struct fixed_port *pt = &s->port[sm];
    unsigned n = 0;
    while (n < max && pt->count && pt->ring[pt->head].done_cycle <= now) {
        out[n++] = pt->ring[pt->head];
        pt->head = (pt->head + 1) % s->p.max_inflight;
        pt->count--;
        s->inflight--;
    }
    return n;
}

static bool fixed_tick(void *impl, uint64_t now)
{
    (void)impl;
    (void)now;
    return false; /* nothing moves inside; completions are progress of the receiving SM */
}

static bool fixed_idle(const void *impl)
{
    const struct fixed_state *s = impl;
    return s->inflight == 0;
}

static unsigned fixed_pending(const void *impl, unsigned sm)
{
    const struct fixed_state *s = impl;
    return sm < s->p.num_sms ? s->port[sm].count : 0;
}

static uint64_t fixed_next_event(const void *impl, uint64_t now)
{
    const struct fixed_state *s = impl;
    uint64_t t = UINT64_MAX;
    if (s->inflight == 0)
        return t;
    for (uint32_t i = 0; i < s->p.num_sms; i++) {
        const struct fixed_port *pt = &s->port[i];
        if (pt->count && pt->ring[pt->head].done_cycle < t)
            t = pt->ring[pt->head].done_cycle;
    }
    return t > now ? t : now + 1;
}

static uint64_t fixed_next_event_sm(const void *impl, unsigned sm, uint64_t now)
{
    const struct fixed_state *s = impl;
    if (sm >= s->p.num_sms || s->port[sm].count == 0)
        return UINT64_MAX;
    uint64_t t = s->port[sm].ring[s->port[sm].head].done_cycle;
    return t > now ? t : now + 1;
}

static void fixed_describe(const void *impl, char *buf, size_t len)
{
    const struct fixed_state *s = impl;
    int n = snprintf(buf, len, "fixed-latency memory: %llu requests in flight",
                     (unsigned long long)s->inflight);
    for (uint32_t i = 0; i < s->p.num_sms && n > 0 && (size_t)n < len; i++) {
        const struct fixed_port *pt = &s->port[i];
        if (pt->count)
            n += snprintf(buf + n, len - (size_t)n, "; SM %u: %u (oldest done at cycle %llu)", i,
                          pt->count, (unsigned long long)pt->ring[pt->head].done_cycle);
    }
}

static void fixed_flush(void *impl)
{
    struct fixed_state *s = impl;
    for (uint32_t i = 0; i < s->p.num_sms; i++) {
        s->port[i].head = s->port[i].count = 0;
        s->port[i].link_free = 0;
    }
    s->inflight = 0;
}

static void fixed_destroy(void *impl)
{
    struct fixed_state *s = impl;
    if (!s)
        return;
    if (s->port)
        for (uint32_t i = 0; i < s->p.num_sms; i++)
            free(s->port[i].ring);
    free(s->port);
    free(s);
}

static const struct hd_mem_ops fixed_ops = {
    "fixed",       fixed_can_send, fixed_send,     fixed_recv,  fixed_tick,    fixed_idle,
    fixed_pending, fixed_next_event, fixed_describe, fixed_flush, fixed_destroy};

int hd_mem_fixed_create(const struct hd_mem_fixed_params *p, struct hd_mem *out, char *err,
                        size_t errlen)
{
    struct fixed_state *s = calloc(1, sizeof *s);
    if (!s)
        goto oom;
    s->p = *p;
    if (s->p.bytes_per_cycle == 0)
        s->p.bytes_per_cycle = 1;
    if (s->p.max_inflight == 0)
        s->p.max_inflight = 1;
    s->port = calloc(p->num_sms ? p->num_sms : 1, sizeof *s->port);
    if (!s->port)
        goto oom;
    for (uint32_t i = 0; i < p->num_sms; i++) {
        s->port[i].ring = malloc(s->p.max_inflight * sizeof *s->port[i].ring);
        if (!s->port[i].ring)
            goto oom;
    }
    out->ops = &fixed_ops;
    out->impl = s;
    out->next_event_sm = fixed_next_event_sm;
    out->const_line = 0; /* no constant cache: the SM times .const/.param loads itself */
    out->l1_notices_on = NULL; /* no L1: no miss notices */
    out->l1_miss_notices = NULL;
    return 0;
oom:
    fixed_destroy(s);
    snprintf(err, errlen, "host out of memory creating the fixed-latency memory model");
    return -1;
}
