/* SPDX-License-Identifier: MIT
 * mem_full.c - the full memory system: units, clock domains, the tick order, the interface
 * operations (see mem_full.h).
 */
#include "mem_full.h"

#include "addrmap.h"
#include "cache_tags.h"
#include "clock_domain.h"
#include "dram.h"
#include "l1.h"
#include "l1_reserve.h"
#include "l2.h"
#include "mem_params.h"
#include "xbar.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct full_state {
    struct hd_mem_params p;
    struct hd_txn_pool pool;
    struct hd_mem_stats st;
    struct hd_clock icnt, l2c, dramc;
    struct hd_l1 *l1;     /* [num_sms] */
    struct hd_l2 *l2;     /* [nslices] */
    struct hd_dram *dram; /* [channels] */
    struct hd_xbar req, rep;
    const struct hd_mq_policy_ops *mq_ops;
    void *mq_impl;
    struct hd_mq_view *mq_view; /* [miss_queue + slack] scratch */
    uint32_t *mq_map;           /* [mq_view_cap] view entry -> miss-queue position */
    uint32_t mq_view_cap;
    struct hd_mem_observer obs;
    bool has_obs;
    uint8_t *kbypass;           /* [kernel index] */
    uint32_t kbypass_cap;
    uint32_t *dram_rr;    /* [channels] the slice a bounded L2-to-DRAM queue served last */
    uint64_t last_now;
    bool started;
};

/* {==== Per-kernel bypass ==== */
static bool kernel_bypass(void *ctx, uint32_t kidx)
{
    const struct full_state *s = ctx;
    return kidx < s->kbypass_cap && s->kbypass[kidx];
}

static void set_bypass(struct full_state *s, uint32_t kernel, bool on)
{
    uint32_t k = hd_mem_stats_kernel(&s->st, kernel);
    if (k >= s->kbypass_cap) {
        uint32_t ncap = s->kbypass_cap ? s->kbypass_cap : 16;
        while (ncap <= k)
            ncap *= 2;
        uint8_t *n = realloc(s->kbypass, ncap);
        if (!n)
            return;
        memset(n + s->kbypass_cap, 0, ncap - s->kbypass_cap);
        s->kbypass = n;
        s->kbypass_cap = ncap;
    }
    s->kbypass[k] = on;
}
/* }==== */

/* {==== Interconnect glue ==== */
static bool req_dest_ok(void *ctx, unsigned out, unsigned in_flight)
{
    const struct full_state *s = ctx;
    return hd_l2_can_accept(&s->l2[out], in_flight);
}

static bool rep_dest_ok(void *ctx, unsigned out, unsigned in_flight)
{
    const struct full_state *s = ctx;
    return s->l1[out].eject.count + in_flight < s->l1[out].eject.limit;
}

static void req_granted(void *ctx, uint32_t id, unsigned out, uint64_t wait, uint32_t cycles,
                        uint64_t arrive)
{
    struct full_state *s = ctx;
    const struct hd_txn *t = hd_txn_get(&s->pool, id);
    HD_ACCT(&s->st, t, icnt_req_packets, 1);
    HD_ACCT(&s->st, t, icnt_req_flits, t->flits);
    HD_ACCT(&s->st, t, icnt_req_wait, wait);
    s->st.slice[out].icnt_req_packets++;
    s->st.slice[out].icnt_req_flits += t->flits;
    s->st.xbar_req_busy[out] += cycles;
    hd_hist_add(&s->st.hist[HD_HIST_ICNT_REQ], arrive - (s->icnt.now - wait));
}

static void rep_granted(void *ctx, uint32_t id, unsigned out, uint64_t wait, uint32_t cycles,
                        uint64_t arrive)
{
    struct full_state *s = ctx;
    const struct hd_txn *t = hd_txn_get(&s->pool, id);
    HD_ACCT(&s->st, t, icnt_rep_packets, 1);
    HD_ACCT(&s->st, t, icnt_rep_flits, t->flits);
    HD_ACCT(&s->st, t, icnt_rep_wait, wait);
    s->st.slice[t->slice].icnt_rep_packets++;
    s->st.slice[t->slice].icnt_rep_flits += t->flits;
    s->st.xbar_rep_busy[out] += cycles;
    hd_hist_add(&s->st.hist[HD_HIST_ICNT_REP], arrive - (s->icnt.now - wait));
}

static const struct hd_xbar_ops req_ops = {req_dest_ok, req_granted};
static const struct hd_xbar_ops rep_ops = {rep_dest_ok, rep_granted};

/* Payload bytes a request packet carries. */
static uint32_t req_payload(const struct hd_txn *t)
{
    return t->type == HD_TXN_READ ? 0 : t->bytes;
}

static uint32_t rep_payload(const struct hd_txn *t)
{
    return t->type == HD_TXN_READ || t->type == HD_TXN_ATOMIC ? t->bytes : 0;
}

/* Offer SM sm's miss queue to the request network. */
static bool inject_missq(struct full_state *s, unsigned sm, uint64_t now_core)
{
    struct hd_l1 *l = &s->l1[sm];
    const uint32_t n = l->missq.count;
    if (!n)
        return false;
    if (n > s->mq_view_cap) {
        struct hd_mq_view *v = realloc(s->mq_view, n * 2 * sizeof *v);
        uint32_t *m = realloc(s->mq_map, n * 2 * sizeof *m);
        if (v)
            s->mq_view = v;
        if (m)
            s->mq_map = m;
        if (!v || !m)
            return false;
        s->mq_view_cap = n * 2;
    }
    /* With [context] priority = low the policy sees only the demand requests while there are
     * any: context save/restore traffic waits behind them (Lin §2.7). */
    uint32_t nv = 0;
    const bool demand_only = s->p.context_low && l->missq_other && l->missq_other < n;
    for (uint32_t i = 0; i < n; i++) {
        const struct hd_txn *t = hd_txn_get(&s->pool, hd_ring_peek(&l->missq, i));
        if (demand_only) {
            if (t->cls != HD_MCLASS_DEMAND)
                continue;
            s->mq_map[nv] = i;
        }
        s->mq_view[nv++] = (struct hd_mq_view){t->kernel, t->bytes,
                                               (uint16_t)hd_xbar_flits(&s->p.icnt, req_payload(t)),
                                               t->type, t->origin, t->cls,
                                               now_core - t->t_queue};
    }
    int k = s->mq_ops->select(s->mq_impl, sm, s->mq_view, nv, now_core);
    if (k < 0 || (uint32_t)k >= nv) {
        s->st.sm[sm].mq_held++;
        return false;
    }
    if (!hd_xbar_can_inject(&s->req, sm, s->mq_view[k].flits))
        return false;
    const uint32_t id = hd_ring_take(&l->missq, demand_only ? s->mq_map[k] : (uint32_t)k);
    struct hd_txn *t = hd_txn_get(&s->pool, id);
    l->missq_other -= t->cls != HD_MCLASS_DEMAND;
    t->flits = (uint8_t)(s->mq_view[k].flits < 255 ? s->mq_view[k].flits : 255);
    HD_ACCT(&s->st, t, mq_requests, 1);
    HD_ACCT(&s->st, t, mq_bytes, t->bytes);
    HD_ACCT(&s->st, t, mq_wait, now_core - t->t_queue);
    hd_xbar_inject(&s->req, sm, t->slice, id, s->mq_view[k].flits, s->icnt.now);
    if (s->mq_ops->issued)
        s->mq_ops->issued(s->mq_impl, sm, &s->mq_view[k], now_core);
    return true;
}

static bool icnt_cycle(struct full_state *s, uint64_t now_core)
{
    const uint64_t now = s->icnt.now;
    bool progress = false;
    uint32_t id;
    for (uint32_t o = 0; o < s->p.num_sms; o++)
        while ((id = hd_xbar_pop(&s->rep, o, now)) != HD_TXN_NONE) {
            hd_ring_push(&s->l1[o].eject, id);
            progress = true;
        }
    for (uint32_t o = 0; o < s->p.l2.nslices; o++)
        while ((id = hd_xbar_pop(&s->req, o, now)) != HD_TXN_NONE) {
            hd_l2_arrive(&s->l2[o], id, s->l2c.now);
            progress = true;
        }
    for (uint32_t i = 0; i < s->p.l2.nslices; i++) {
        struct hd_l2 *l2 = &s->l2[i];
        if (!l2->outq.count)
            continue;
        id = hd_ring_peek(&l2->outq, 0);
        struct hd_txn *t = hd_txn_get(&s->pool, id);
        const uint32_t parts = hd_l2_reply_parts(&s->p, t); /* sector packets ([l2] */
        uint32_t pay = rep_payload(t);                      /* sector_replies) or one */
        if (pay && parts > 1)
            pay = hd_l2_part_bytes(t, parts, t->rep_sent);
        uint32_t f = hd_xbar_flits(&s->p.icnt, pay);
        if (!hd_xbar_can_inject(&s->rep, i, f))
            continue;
        if (parts <= 1 || ++t->rep_sent >= parts)
            hd_ring_pop(&l2->outq);
        t->flits = (uint8_t)(f < 255 ? f : 255);
        hd_xbar_inject(&s->rep, i, t->sm, id, f, now);
        progress = true;
    }
    for (uint32_t sm = 0; sm < s->p.num_sms; sm++)
        progress |= inject_missq(s, sm, now_core);
    progress |= hd_xbar_cycle(&s->req, now) > 0;
    progress |= hd_xbar_cycle(&s->rep, now) > 0;
    return progress;
}
/* }==== */

/* {==== Tick ==== */
static bool l2_cycle(struct full_state *s)
{
    bool progress = false;
    for (uint32_t i = 0; i < s->p.l2.nslices; i++) {
        struct hd_l2 *l2 = &s->l2[i];
        progress |= hd_l2_tick(l2, s->l2c.now);
        while (!s->p.l2.dram_queue && l2->to_dram.count) { /* unbounded: all at once */
            uint32_t id = hd_ring_pop(&l2->to_dram);
            hd_dram_push(&s->dram[hd_txn_get(&s->pool, id)->channel], id, s->dramc.now);
        }
    }
    return progress;
}

/* Bounded L2-to-DRAM queues ([l2] dram_queue): channel c takes one request per DRAM cycle from
 * its slices' queues, round-robin from the slice after the last one served, and only while its
 * controller queue has room for it (GPGPU-Sim memory_partition_unit::dram_cycle: one request
 * per cycle into the DRAM latency queue while !m_dram->full()). */
static bool dram_take(struct full_state *s, uint32_t c)
{
    const uint32_t per = s->p.l2.per_channel;
    for (uint32_t k = 1; k <= per; k++) {
        const uint32_t j = (s->dram_rr[c] + k) % per;
        struct hd_l2 *l2 = &s->l2[c * per + j];
        if (!l2->to_dram.count)
            continue;
        const uint32_t id = hd_ring_peek(&l2->to_dram, 0);
        if (!hd_dram_has_room(&s->dram[c], hd_txn_get(&s->pool, id)))
            return false;
        hd_ring_pop(&l2->to_dram);
        hd_dram_push(&s->dram[c], id, s->dramc.now);
        s->dram_rr[c] = j;
        return true;
    }
    return false;
}

static bool dram_cycle(struct full_state *s)
{
    bool progress = false;
    for (uint32_t c = 0; c < s->p.dram.channels; c++) {
        if (s->p.l2.dram_queue)
            progress |= dram_take(s, c);
        progress |= hd_dram_tick(&s->dram[c], s->dramc.now);
        uint32_t id;
        while ((id = hd_dram_pop_done(&s->dram[c], s->dramc.now)) != HD_TXN_NONE) {
            hd_l2_fill(&s->l2[hd_txn_get(&s->pool, id)->slice], id);
            progress = true;
        }
    }
    return progress;
}

static bool full_tick(void *impl, uint64_t now)
{
    struct full_state *s = impl;
    if (s->started && now > s->last_now + 1) { /* cycles the GPU skipped: nothing happened */
        const uint64_t gap = now - s->last_now - 1;
        const uint64_t i0 = s->icnt.now, l0 = s->l2c.now, d0 = s->dramc.now;
        hd_clock_skip(&s->icnt, gap);
        hd_clock_skip(&s->l2c, gap);
        hd_clock_skip(&s->dramc, gap);
        s->st.core_cycles += gap;
        s->st.icnt_cycles += s->icnt.now - i0;
        s->st.l2_cycles += s->l2c.now - l0;
        s->st.dram_cycles += s->dramc.now - d0;
    }
    s->started = true;
    s->last_now = now;
    s->st.core_cycles++;
    bool progress = false;
    for (uint32_t i = 0; i < s->p.num_sms; i++)
        progress |= hd_l1_fill(&s->l1[i], now);
    for (uint32_t n = hd_clock_step(&s->icnt); n; n--) {
        s->icnt.now++;
        s->st.icnt_cycles++;
        progress |= icnt_cycle(s, now);
    }
    for (uint32_t n = hd_clock_step(&s->l2c); n; n--) {
        s->l2c.now++;
        s->st.l2_cycles++;
        progress |= l2_cycle(s);
    }
    for (uint32_t n = hd_clock_step(&s->dramc); n; n--) {
        s->dramc.now++;
        s->st.dram_cycles++;
        progress |= dram_cycle(s);
    }
    for (uint32_t i = 0; i < s->p.num_sms; i++)
        progress |= hd_l1_access(&s->l1[i], now);
    return progress;
}
/* }==== */

/* {==== Interface operations ==== */
static bool full_can_send(const void *impl, const struct hd_mem_req *r, uint64_t now)
{
    const struct full_state *s = impl;
    (void)now;
    return r->sm < s->p.num_sms && hd_l1_can_send(&s->l1[r->sm]);
}

static bool full_send(void *impl, const struct hd_mem_req *r, uint64_t now)
{
    struct full_state *s = impl;
    return r->sm < s->p.num_sms && hd_l1_send(&s->l1[r->sm], r, now);
}

static unsigned full_recv(void *impl, unsigned sm, struct hd_mem_req *out, unsigned max,
                          uint64_t now)
{
    struct full_state *s = impl;
    return sm < s->p.num_sms ? hd_l1_recv(&s->l1[sm], out, max, now) : 0;
}

static void full_notices_on(void *impl)
{
    struct full_state *s = impl;
    for (uint32_t i = 0; i < s->p.num_sms; i++)
        s->l1[i].notify = true;
}

static unsigned full_miss_notices(void *impl, unsigned sm, uint64_t *tags, unsigned max)
{
    struct full_state *s = impl;
    return sm < s->p.num_sms ? hd_l1_miss_notices(&s->l1[sm], tags, max) : 0;
}

static bool full_idle(const void *impl)
{
    const struct full_state *s = impl;
    if (s->pool.used)
        return false;
    for (uint32_t i = 0; i < s->p.num_sms; i++)
        if (s->l1[i].pending)
            return false;
    return true;
}

static unsigned full_pending(const void *impl, unsigned sm)
{
    const struct full_state *s = impl;
    return sm < s->p.num_sms ? s->l1[sm].pending : 0;
}

/* Core cycle at which clock c reaches domain time t. */
static uint64_t core_at(const struct full_state *s, const struct hd_clock *c, uint64_t t)
{
    return t == UINT64_MAX ? t : s->last_now + hd_clock_core_delay(c, t);
}

static uint64_t full_next_event(const void *impl, uint64_t now)
{
    const struct full_state *s = impl;
    const uint64_t soon = now + 1;
    if (s->req.queued || s->rep.queued)
        return soon;
    uint64_t t = UINT64_MAX, u;
    for (uint32_t i = 0; i < s->p.num_sms; i++) {
        const struct hd_l1 *l = &s->l1[i];
        if (hd_l1_active(l) || l->oom)
            return soon;
        u = hd_l1_next_time(l);
        t = u < t ? u : t;
    }
    for (uint32_t i = 0; i < s->p.l2.nslices; i++) {
        if (hd_l2_active(&s->l2[i]))
            return soon;
        u = core_at(s, &s->l2c, hd_delay_head_time(&s->l2[i].rop));
        t = u < t ? u : t;
    }
    for (uint32_t c = 0; c < s->p.dram.channels; c++) {
        if (hd_dram_active(&s->dram[c]))
            return soon;
        u = core_at(s, &s->dramc, hd_dram_next_time(&s->dram[c]));
        t = u < t ? u : t;
    }
    u = core_at(s, &s->icnt, hd_xbar_next_arrival(&s->req));
    t = u < t ? u : t;
    u = core_at(s, &s->icnt, hd_xbar_next_arrival(&s->rep));
    t = u < t ? u : t;
    return t == UINT64_MAX ? t : t > now ? t : soon;
}

static void full_describe(const void *impl, char *buf, size_t len)
{
    const struct full_state *s = impl;
    int n = snprintf(buf, len, "memory system: %u transactions below the L1, %u + %u packets "
                     "in the crossbars (queued + moving)", s->pool.used,
                     s->req.queued + s->rep.queued, s->req.moving + s->rep.moving);
    for (uint32_t i = 0; i < s->p.num_sms && n > 0 && (size_t)n < len; i++) {
        if (s->l1[i].oom)
            n += snprintf(buf + n, len - (size_t)n, "; SM %u: host out of memory", i);
        else
            n += hd_l1_describe(&s->l1[i], buf + n, len - (size_t)n);
    }
    for (uint32_t i = 0; i < s->p.l2.nslices && n > 0 && (size_t)n < len; i++)
        n += hd_l2_describe(&s->l2[i], buf + n, len - (size_t)n);
    for (uint32_t c = 0; c < s->p.dram.channels && n > 0 && (size_t)n < len; c++)
        n += hd_dram_describe(&s->dram[c], buf + n, len - (size_t)n);
}

static void full_flush(void *impl)
{
    struct full_state *s = impl;
    for (uint32_t i = 0; i < s->p.num_sms; i++)
        hd_l1_reset(&s->l1[i]);
    for (uint32_t i = 0; i < s->p.l2.nslices; i++)
        hd_l2_reset(&s->l2[i]);
    for (uint32_t c = 0; c < s->p.dram.channels; c++) {
        hd_dram_reset(&s->dram[c]);
        s->dram_rr[c] = 0;
    }
    hd_xbar_reset(&s->req);
    hd_xbar_reset(&s->rep);
    /* every transaction is dropped: rebuild the free list */
    s->pool.free = HD_TXN_NONE;
    for (uint32_t i = s->pool.cap; i-- > 0;) {
        s->pool.t[i].next = s->pool.free;
        s->pool.free = i;
    }
    s->pool.used = 0;
}

static void full_destroy(void *impl)
{
    struct full_state *s = impl;
    if (!s)
        return;
    if (s->l1)
        for (uint32_t i = 0; i < s->p.num_sms; i++)
            hd_l1_free(&s->l1[i]);
    if (s->l2)
        for (uint32_t i = 0; i < s->p.l2.nslices; i++)
            hd_l2_free(&s->l2[i]);
    if (s->dram)
        for (uint32_t c = 0; c < s->p.dram.channels; c++)
            hd_dram_free(&s->dram[c]);
    free(s->l1);
    free(s->l2);
    free(s->dram);
    free(s->dram_rr);
    hd_xbar_free(&s->req);
    hd_xbar_free(&s->rep);
    if (s->mq_ops && s->mq_ops->destroy)
        s->mq_ops->destroy(s->mq_impl);
    free(s->mq_view);
    free(s->mq_map);
    free(s->kbypass);
    hd_mem_stats_free(&s->st);
    hd_txn_pool_free(&s->pool);
    free(s);
}

static const struct hd_mem_ops full_ops = {
    "full",       full_can_send, full_send,       full_recv,     full_tick,  full_idle,
    full_pending, full_next_event, full_describe, full_flush,    full_destroy};
/* }==== */

/* {==== Creation and control ==== */
static int build(struct full_state *s)
{
    const struct hd_mem_params *p = &s->p;
    if (hd_txn_pool_init(&s->pool, 4096) ||
        hd_mem_stats_init(&s->st, p->num_sms, p->l2.nslices, p->dram.channels, p->dup_window))
        return -1;
    s->l1 = calloc(p->num_sms, sizeof *s->l1);
    s->l2 = calloc(p->l2.nslices, sizeof *s->l2);
    s->dram = calloc(p->dram.channels, sizeof *s->dram);
    s->dram_rr = calloc(p->dram.channels, sizeof *s->dram_rr);
    if (!s->l1 || !s->l2 || !s->dram || !s->dram_rr)
        return -1;
    for (uint32_t i = 0; i < p->num_sms; i++)
        if (hd_l1_init(&s->l1[i], p, i, &s->pool, &s->st, &s->obs, kernel_bypass, s))
            return -1;
    for (uint32_t i = 0; i < p->l2.nslices; i++)
        if (hd_l2_init(&s->l2[i], p, i, &s->pool, &s->st))
            return -1;
    for (uint32_t c = 0; c < p->dram.channels; c++)
        if (hd_dram_init(&s->dram[c], &p->dram, c, &s->pool, &s->st))
            return -1;
    if (hd_xbar_init(&s->req, p->num_sms, p->l2.nslices, &p->icnt, &req_ops, s) ||
        hd_xbar_init(&s->rep, p->l2.nslices, p->num_sms, &p->icnt, &rep_ops, s))
        return -1;
    hd_clock_init(&s->icnt, p->icnt_khz, p->core_khz);
    hd_clock_init(&s->l2c, p->l2_khz, p->core_khz);
    hd_clock_init(&s->dramc, p->dram_khz, p->core_khz);
    s->mq_ops = &hd_mq_policy_fifo;
    return 0;
}

int hd_mem_full_create(const struct hd_config *cfg, struct hd_mem *out, char *err,
                       size_t errlen)
{
    struct full_state *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "host out of memory creating the memory system");
        return -1;
    }
    if (hd_mem_params_init(cfg, &s->p, err, errlen) != 0) {
        free(s);
        return -1;
    }
    if (build(s) != 0 || hd_mq_policy_create(cfg->l1d_missq_policy, cfg->l1d_missq_age_limit,
                                              &s->mq_ops, &s->mq_impl) != 0) {
        full_destroy(s);
        snprintf(err, errlen, "host out of memory creating the memory system");
        return -1;
    }
    out->ops = &full_ops;
    out->impl = s;
    out->next_event_sm = NULL;
    out->const_line = s->p.l1c.line; /* .const/.param loads come as requests */
    out->l1_notices_on = full_notices_on;
    out->l1_miss_notices = full_miss_notices;
    return 0;
}

bool hd_mem_is_full(const struct hd_mem *m)
{
    return m && m->ops == &full_ops;
}

void hd_mem_full_launch(struct hd_mem *m, uint32_t kernel, const char *name)
{
    if (!hd_mem_is_full(m))
        return;
    struct full_state *s = m->impl;
    if (name && hd_mem_params_kernel_listed(s->p.l1d.bypass_kernels, name))
        set_bypass(s, kernel, true);
    if (s->p.l1d.flush_at_launch) /* GPGPU-Sim gpgpu_flush_l1_cache: the clean lines go; a */
        for (uint32_t i = 0; i < s->p.num_sms; i++) { /* dirty (local) line stays, as no */
            struct hd_tags *t = &s->l1[i].d;          /* write-back is timed here */
            for (uint32_t e = 0; e < t->sets * t->ways; e++)
                if (t->tag[e] && !t->dirty[e] && !hd_tags_pinned(t, e))
                    hd_tags_invalidate(t, e);
        }
}

void hd_mem_full_preload(struct hd_mem *m, uint64_t addr, uint64_t bytes)
{
    if (!hd_mem_is_full(m) || !bytes)
        return;
    struct full_state *s = m->impl;
    if (!s->p.l2_preload_copies)
        return;
    const uint64_t end = addr + bytes;
    const uint32_t line = s->p.l2.c.line;
    for (uint64_t a = addr - addr % line; a < end; a += line) {
        struct hd_addr_loc loc;
        hd_addrmap_decode(&s->p.map, s->p.l2.per_channel, a, &loc);
        struct hd_tags *t = &s->l2[loc.slice].tags;
        const uint64_t lo = a > addr ? a : addr, hi = a + line < end ? a + line : end;
        const uint64_t sectors = hd_tags_sectors(t, loc.local + (lo - a), (uint32_t)(hi - lo));
        uint32_t e = hd_tags_find(t, loc.local);
        if (e == HD_TAGS_NONE) { /* the victim goes silently: copies are not timed */
            e = hd_tags_victim(t, loc.local);
            hd_tags_install(t, e, loc.local);
        }
        t->valid[e] |= sectors;
        t->dirty[e] &= ~sectors; /* the fill leaves the copied sectors clean */
        hd_tags_touch(t, e);
    }
}

void hd_mem_full_set_bypass(struct hd_mem *m, uint32_t kernel, bool bypass)
{
    if (hd_mem_is_full(m))
        set_bypass(m->impl, kernel, bypass);
}

void hd_mem_full_set_mq_policy(struct hd_mem *m, const struct hd_mq_policy_ops *ops, void *impl)
{
    if (!hd_mem_is_full(m))
        return;
    struct full_state *s = m->impl;
    if (s->mq_ops && s->mq_ops->destroy)
        s->mq_ops->destroy(s->mq_impl);
    s->mq_ops = ops ? ops : &hd_mq_policy_fifo;
    s->mq_impl = ops ? impl : NULL;
}

void hd_mem_full_set_observer(struct hd_mem *m, const struct hd_mem_observer *obs)
{
    if (!hd_mem_is_full(m))
        return;
    struct full_state *s = m->impl;
    if (obs)
        s->obs = *obs;
    else
        memset(&s->obs, 0, sizeof s->obs);
}

const struct hd_mem_stats *hd_mem_full_stats(const struct hd_mem *m)
{
    return hd_mem_is_full(m) ? &((const struct full_state *)m->impl)->st : NULL;
}

void hd_mem_full_reset_stats(struct hd_mem *m)
{
    if (hd_mem_is_full(m))
        hd_mem_stats_reset(&((struct full_state *)m->impl)->st);
}

const struct hd_mem_params *hd_mem_full_params(const struct hd_mem *m)
{
    return hd_mem_is_full(m) ? &((const struct full_state *)m->impl)->p : NULL;
}
/* }==== */

struct hd_l1 *hd_mem_full_l1(struct hd_mem *m, uint32_t sm)
{
    if (!hd_mem_is_full(m))
        return NULL;
    struct full_state *s = m->impl;
    return sm < s->p.num_sms ? &s->l1[sm] : NULL;
}
