/* SPDX-License-Identifier: MIT
 * monitor.c - the windowed utilisation monitor (model/policy/monitor.h; issue 25 item 6): at
 * each close, the cumulative counters read once and differenced against the subscription's
 * previous close.
 *
 * Design: per subscription, the counts at its previous close (per SM, per launch id, total,
 * per class) and its last window; the arrays of launches grow as launch records appear (a
 * launch first seen in a window counts from 0). A counter that went down (statistics zeroed
 * between the warm-up and the measured part of a study) counts from 0 as well. Everything is
 * read at the close, so nothing is added to the pipeline's or the memory system's paths.
 */
#include "monitor_core.h"

#include "mem_full.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct mon_sub {
    uint64_t len, next;                /* window length; the cycle its current window ends */
    uint64_t last_end;                 /* the cycle its previous window ended (0: none yet) */
    int owner;                         /* hook index, or -1 */
    struct hd_mon_counts *prev_sm, *last_sm;   /* [nsm] */
    uint32_t nk, cap_k;
    uint32_t *kid;                     /* [cap_k] launch ids */
    struct hd_mon_counts *prev_k, *last_k;     /* [cap_k] */
    struct hd_mon_counts prev_total;
    uint64_t prev_cls[HD_MCLASS_COUNT];
    struct hd_mon_window win;
    bool have;
};

struct hd_monitor {
    const struct hd_timing_stats *ts;
    const struct hd_mem *mem;
    const struct hd_hooks *hooks;
    uint32_t nsm;
    int owner;
    unsigned n;
    uint64_t next;
    struct mon_sub s[HD_MON_MAX_SUBS];
};

struct hd_monitor *hd_monitor_create(const struct hd_timing_stats *ts, const struct hd_mem *mem,
                                     const struct hd_hooks *hooks)
{
    struct hd_monitor *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->ts = ts;
    m->mem = mem;
    m->hooks = hooks;
    m->nsm = ts->num_sms;
    m->owner = -1;
    m->next = UINT64_MAX;
    return m;
}

void hd_monitor_destroy(struct hd_monitor *m)
{
    if (!m)
        return;
    for (unsigned i = 0; i < m->n; i++) {
        free(m->s[i].prev_sm);
        free(m->s[i].last_sm);
        free(m->s[i].kid);
        free(m->s[i].prev_k);
        free(m->s[i].last_k);
    }
    free(m);
}

void hd_monitor_set_owner(struct hd_monitor *m, int hook)
{
    m->owner = hook;
}

uint64_t hd_monitor_next(const struct hd_monitor *m)
{
    return m->next;
}

int hd_monitor_subscribe(struct hd_monitor *m, uint64_t cycles, char *err, size_t errlen)
{
    if (cycles == 0 || m->n == HD_MON_MAX_SUBS) {
        snprintf(err, errlen,
                 cycles == 0 ? "monitor: a window of 0 cycles"
                             : "monitor: more than %d subscriptions (monitor.h HD_MON_MAX_SUBS)",
                 HD_MON_MAX_SUBS);
        return -1;
    }
    struct mon_sub *s = &m->s[m->n];
    memset(s, 0, sizeof *s);
    s->prev_sm = calloc(m->nsm, sizeof *s->prev_sm);
    s->last_sm = calloc(m->nsm, sizeof *s->last_sm);
    if (!s->prev_sm || !s->last_sm) {
        free(s->prev_sm);
        free(s->last_sm);
        snprintf(err, errlen, "monitor: host out of memory");
        return -1;
    }
    s->len = cycles;
    s->next = cycles; /* windows end at multiples of the length (the first one at cycle L) */
    s->owner = m->owner;
    m->next = s->next < m->next ? s->next : m->next;
    return (int)m->n++;
}

const struct hd_mon_window *hd_monitor_last(const struct hd_monitor *m, int sub)
{
    return sub >= 0 && (unsigned)sub < m->n && m->s[sub].have ? &m->s[sub].win : NULL;
}

const struct hd_mon_counts *hd_mon_window_kernel(const struct hd_mon_window *w, uint32_t launch)
{
    for (uint32_t i = 0; i < w->nkernel; i++)
        if (w->kernel[i] == launch)
            return &w->kern[i];
    return NULL;
}

/* {==== Reading the counters ==== */
static void from_mem(struct hd_mon_counts *c, const struct hd_mem_acct *a)
{
    c->l1d_port = a->l1d_read_hits + a->l1d_writes + a->l1d_mshr_allocs;
    c->l2_port = a->l2_reads + a->l2_writes + a->l2_atomics;
    c->flits_req = a->icnt_req_flits;
    c->flits_rep = a->icnt_rep_flits;
    c->dram_data = a->dram_data;
    c->l1d_hit = a->l1d_hit_port;
    c->l2_hit = a->l2_hit_port;
}

static uint64_t dif(uint64_t cur, uint64_t prev)
{
    return cur >= prev ? cur - prev : cur; /* (zeroed since: counts from 0) */
}

static void diff(struct hd_mon_counts *out, const struct hd_mon_counts *cur,
                 const struct hd_mon_counts *prev)
{
    out->issue = dif(cur->issue, prev->issue);
    out->requests = dif(cur->requests, prev->requests);
    out->l1d_port = dif(cur->l1d_port, prev->l1d_port);
    out->l2_port = dif(cur->l2_port, prev->l2_port);
    out->flits_req = dif(cur->flits_req, prev->flits_req);
    out->flits_rep = dif(cur->flits_rep, prev->flits_rep);
    out->dram_data = dif(cur->dram_data, prev->dram_data);
    out->l1d_hit = dif(cur->l1d_hit, prev->l1d_hit);
    out->l2_hit = dif(cur->l2_hit, prev->l2_hit);
}

static void add(struct hd_mon_counts *t, const struct hd_mon_counts *c)
{
    t->issue += c->issue;
    t->requests += c->requests;
    t->l1d_port += c->l1d_port;
    t->l2_port += c->l2_port;
    t->flits_req += c->flits_req;
    t->flits_rep += c->flits_rep;
    t->dram_data += c->dram_data;
    t->l1d_hit += c->l1d_hit;
    t->l2_hit += c->l2_hit;
}

/* The cumulative counts of launch record li. */
static void launch_counts(const struct hd_monitor *m, const struct hd_mem_stats *ms, uint32_t li,
                          struct hd_mon_counts *c)
{
    const struct hd_launch_info *l = &m->ts->launch[li];
    memset(c, 0, sizeof *c);
    c->issue = l->c.warp_instrs;
    c->requests = l->c.gmem_requests;
    for (uint32_t k = 0; ms && k < ms->nkernels; k++)
        if (ms->kernel_id[k] == l->id) {
            from_mem(c, &ms->kernel[k]);
            break;
        }
}

/* Slot of launch id `id` in s's arrays (added with zero previous counts); -1 out of memory. */
static int kernel_slot(struct mon_sub *s, uint32_t id)
{
    for (uint32_t i = 0; i < s->nk; i++)
        if (s->kid[i] == id)
            return (int)i;
    if (s->nk == s->cap_k) {
        const uint32_t cap = s->cap_k ? 2 * s->cap_k : 8;
        uint32_t *kid = realloc(s->kid, cap * sizeof *kid);
        if (kid)
            s->kid = kid;
        struct hd_mon_counts *p = realloc(s->prev_k, cap * sizeof *p);
        if (p)
            s->prev_k = p;
        struct hd_mon_counts *l = realloc(s->last_k, cap * sizeof *l);
        if (l)
            s->last_k = l;
        if (!kid || !p || !l)
            return -1;
        s->cap_k = cap;
    }
    s->kid[s->nk] = id;
    memset(&s->prev_k[s->nk], 0, sizeof s->prev_k[s->nk]);
    return (int)s->nk++;
}
/* }==== */

static void close_one(struct hd_monitor *m, struct mon_sub *s, uint64_t now)
{
    const struct hd_mem_stats *ms = hd_mem_is_full(m->mem) ? hd_mem_full_stats(m->mem) : NULL;
    struct hd_mon_counts total = {0}, cur_total = {0};
    for (uint32_t i = 0; i < m->nsm; i++) {
        struct hd_mon_counts cur = {0};
        if (ms)
            from_mem(&cur, &ms->sm[i]);
        cur.issue = m->ts->sm[i].warp_instrs;
        cur.requests = m->ts->sm[i].gmem_requests;
        diff(&s->last_sm[i], &cur, &s->prev_sm[i]);
        s->prev_sm[i] = cur;
        add(&total, &s->last_sm[i]);
        add(&cur_total, &cur);
    }
    s->prev_total = cur_total;
    for (uint32_t li = 0; li < m->ts->nlaunch; li++) {
        const int k = kernel_slot(s, m->ts->launch[li].id);
        if (k < 0)
            break; /* host out of memory: the window lists the launches it could */
        struct hd_mon_counts cur;
        launch_counts(m, ms, li, &cur);
        diff(&s->last_k[k], &cur, &s->prev_k[k]);
        s->prev_k[k] = cur;
    }
    for (unsigned c = 0; c < HD_MCLASS_COUNT; c++) {
        const uint64_t cur = ms ? ms->cls[c].mq_requests : 0;
        s->win.cls_requests[c] = dif(cur, s->prev_cls[c]);
        s->prev_cls[c] = cur;
    }
    s->win.start = s->last_end; /* (now - len unless a close was missed: see below) */
    s->win.end = s->last_end = now;
    s->win.nsm = m->nsm;
    s->win.sm = s->last_sm;
    s->win.nkernel = s->nk;
    s->win.kernel = s->kid;
    s->win.kern = s->last_k;
    s->win.total = total;
    s->have = true;
    if (s->owner >= 0 && (unsigned)s->owner < m->hooks->n) {
        const struct hd_hook *h = &m->hooks->h[s->owner];
        if (h->ops->window)
            h->ops->window(h->impl, &s->win, now);
    }
}

void hd_monitor_close(struct hd_monitor *m, uint64_t now)
{
    m->next = UINT64_MAX;
    for (unsigned i = 0; i < m->n; i++) {
        struct mon_sub *s = &m->s[i];
        if (now >= s->next) {
            /* (the GPU never skips a close while it runs; a close that fell between two runs
             * is dropped, and the next window covers the cycles since the previous one) */
            s->next = now - now % s->len;
            if (s->next == now)
                close_one(m, s, now);
            s->next += s->len;
        }
        m->next = s->next < m->next ? s->next : m->next;
    }
}
