/* SPDX-License-Identifier: MIT
 * dram.c - a GDDR5 channel with an FR-FCFS controller, optionally with a separate write queue
 * drained in batches (see dram.h).
 */
#include "dram.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t max64(uint64_t a, uint64_t b)
{
    return a > b ? a : b;
}

int hd_dram_init(struct hd_dram *d, const struct hd_dram_params *p, unsigned ch,
                 struct hd_txn_pool *pool, struct hd_mem_stats *st)
{
    memset(d, 0, sizeof *d);
    d->p = p;
    d->ch = ch;
    d->pool = pool;
    d->st = st;
    d->q = calloc(p->queue, sizeof *d->q);
    d->wq = p->write_queue ? calloc(p->write_queue, sizeof *d->wq) : NULL;
    d->bank = calloc(p->banks, sizeof *d->bank);
    if (!d->q || (p->write_queue && !d->wq) || !d->bank || hd_delay_init(&d->pipe, 64) != 0 || hd_delay_init(&d->done, 64) != 0) {
        hd_dram_free(d);
        return -1;
    }
    d->next_ref = p->trefi;
    return 0;
}

void hd_dram_free(struct hd_dram *d)
{
    free(d->q);
    free(d->wq);
    free(d->bank);
    hd_delay_free(&d->pipe);
    hd_delay_free(&d->done);
    memset(d, 0, sizeof *d);
}

void hd_dram_reset(struct hd_dram *d)
{
    d->nq = d->nwq = 0;
    d->write_mode = false;
    d->pipe.head = d->pipe.count = 0;
    d->done.head = d->done.count = 0;
}

bool hd_dram_push(struct hd_dram *d, uint32_t id, uint64_t now)
{
    return hd_delay_push(&d->pipe, now + d->p->latency, id);
}

/* {==== Command legality ==== */
static uint32_t group_of(const struct hd_dram *d, uint32_t bank)
{
    return bank % d->p->groups;
}

static bool col_ok(const struct hd_dram *d, const struct hd_dram_entry *e, uint64_t now)
{
    const struct hd_dram_params *p = d->p;
    const struct hd_dram_bank *b = &d->bank[e->bank];
    if (!b->open || b->row != e->row || now < b->t_col)
        return false;
    if (d->any_col) {
        uint32_t gap = group_of(d, e->bank) == d->last_group ? p->tccdl : p->tccd;
        if (now < d->last_col + gap)
            return false;
    }
    if (e->write)
        return now >= d->t_wr && now + p->twl >= d->data_free;
    return now >= d->t_rd && now + p->tcl >= d->data_free;
}

/* Does a request of the n in q hit the open row of `bank` (FR-FCFS keeps such a row open)? */
static bool hit_pending(const struct hd_dram *d, const struct hd_dram_entry *q, uint32_t n,
                        uint32_t bank, uint32_t row)
{
    if (!d->p->frfcfs)
        return false;
    for (uint32_t k = 0; k < n; k++)
        if (q[k].bank == bank && q[k].row == row)
            return true;
    return false;
}
/* }==== */

/* {==== Commands ==== */
static void remove_entry(struct hd_dram_entry *q, uint32_t *n, uint32_t k)
{
    memmove(&q[k], &q[k + 1], (*n - k - 1) * sizeof *q);
    (*n)--;
}

static void issue_col(struct hd_dram *d, struct hd_dram_entry *q, uint32_t *n, uint32_t k,
                      uint64_t now)
{
    const struct hd_dram_params *p = d->p;
    struct hd_dram_entry *e = &q[k];
    struct hd_dram_bank *b = &d->bank[e->bank];
    struct hd_txn *t = hd_txn_get(d->pool, e->id);
    if (!e->started) {
        e->started = true;
        HD_ACCT(d->st, t, dram_wait, now - e->t_arrive);
        d->st->channel[d->ch].dram_wait += now - e->t_arrive;
        if (e->acted) {
            HD_ACCT(d->st, t, dram_row_misses, 1);
            d->st->channel[d->ch].dram_row_misses++;
        } else {
            HD_ACCT(d->st, t, dram_row_hits, 1);
            d->st->channel[d->ch].dram_row_hits++;
        }
    }
    if (d->any_col && d->last_write != e->write) {
        HD_ACCT(d->st, t, dram_rw_turnarounds, 1);
        d->st->channel[d->ch].dram_rw_turnarounds++;
    }
    d->last_write = e->write;
    const uint64_t start = now + (e->write ? p->twl : p->tcl);
    d->data_free = start + p->burst_cycles;
    d->st->dram_data_cycles[d->ch] += p->burst_cycles;
    HD_ACCT(d->st, t, dram_data, p->burst_cycles); /* per SM, kernel, class (monitor.h) */
    if (e->write) {
        b->t_pre = max64(b->t_pre, d->data_free + p->twr);
        d->t_rd = max64(d->t_rd, d->data_free + p->twtr);
    } else {
        b->t_pre = max64(b->t_pre, now + p->trtp);
        const uint64_t rtw = p->tcl + p->burst_cycles + 2;
        d->t_wr = max64(d->t_wr, now + (rtw > p->twl ? rtw - p->twl : 0));
    }
    d->last_col = now;
    d->last_group = group_of(d, e->bank);
    d->any_col = true;
    if (--e->bursts)
        return;
    if (e->write && hd_txn_get(d->pool, e->id)->type == HD_TXN_WRITEBACK) {
        hd_txn_release(d->pool, e->id);
    } else if (e->write) { /* a written-through write miss: its slice acknowledges it */
        hd_delay_push(&d->done, d->data_free, e->id);
    } else {
        hd_delay_push(&d->done, d->data_free, e->id);
        hd_hist_add(&d->st->hist[HD_HIST_DRAM_SVC], d->data_free - e->t_arrive);
    }
    remove_entry(q, n, k);
}

static void issue_act(struct hd_dram *d, struct hd_dram_entry *e, uint64_t now)
{
    const struct hd_dram_params *p = d->p;
    struct hd_dram_bank *b = &d->bank[e->bank];
    b->open = true;
    b->row = e->row;
    b->t_col = now + p->trcd;
    b->t_pre = max64(b->t_pre, now + p->tras);
    b->t_act = now + p->trc;
    d->t_rrd = now + p->trrd;
    e->acted = true;
    d->st->dram_acts[d->ch]++;
}

static void issue_pre(struct hd_dram *d, uint32_t bank, uint64_t now)
{
    struct hd_dram_bank *b = &d->bank[bank];
    b->open = false;
    b->t_act = max64(b->t_act, now + d->p->trp);
    d->st->dram_pres[d->ch]++;
}
/* }==== */

/* {==== Scheduling ==== */
/* Refresh: stop activating, close the banks, then refresh all of them. */
static bool refresh_step(struct hd_dram *d, uint64_t now)
{
    const struct hd_dram_params *p = d->p;
    bool all_closed = true;
    uint64_t ready = 0;
    for (uint32_t b = 0; b < p->banks; b++) {
        if (d->bank[b].open) {
            all_closed = false;
            if (now >= d->bank[b].t_pre) {
                issue_pre(d, b, now);
                return true;
            }
        }
        ready = max64(ready, d->bank[b].t_act);
    }
    if (!all_closed || now < ready)
        return false;
    for (uint32_t b = 0; b < p->banks; b++)
        d->bank[b].t_act = now + p->trfc;
    d->ref_pending = false;
    d->next_ref += p->trefi;
    d->st->dram_refs[d->ch]++;
    return true;
}

/* Write batching: read or write mode by the watermarks (dram.h), counting the writes not yet
 * started. Returns true while the controller, due to switch, still finishes the requests of the
 * current mode that have issued part of their bursts (it starts no others meanwhile). */
static bool update_mode(struct hd_dram *d)
{
    const struct hd_dram_params *p = d->p;
    const struct hd_dram_entry *q = d->write_mode ? d->wq : d->q;
    const uint32_t n = d->write_mode ? d->nwq : d->nq;
    uint32_t partial = 0;
    for (uint32_t k = 0; k < n; k++)
        partial += q[k].started;
    bool want;
    if (!d->write_mode)
        want = d->nwq && (d->nwq >= p->write_high || !d->nq);
    else
        want = d->nwq && (d->nwq - partial > p->write_low || !d->nq);
    if (want == d->write_mode)
        return false;
    if (partial)
        return true;
    d->write_mode = want;
    return false;
}

static bool schedule(struct hd_dram *d, uint64_t now)
{
    const bool finishing = d->p->write_queue && update_mode(d);
    struct hd_dram_entry *q = d->write_mode ? d->wq : d->q;
    uint32_t *nq = d->write_mode ? &d->nwq : &d->nq;
    const uint32_t n = d->p->frfcfs ? *nq : (*nq ? 1 : 0);
    for (uint32_t k = 0; k < n; k++)
        if ((!finishing || q[k].started) && col_ok(d, &q[k], now)) {
            issue_col(d, q, nq, k, now);
            return true;
        }
    if (finishing)
        return false;
    if (d->ref_pending)
        return refresh_step(d, now);
    for (uint32_t k = 0; k < n; k++) {
        struct hd_dram_entry *e = &q[k];
        struct hd_dram_bank *b = &d->bank[e->bank];
        if (b->open) {
            if (b->row != e->row && now >= b->t_pre && !hit_pending(d, q, *nq, e->bank, b->row)) {
                issue_pre(d, e->bank, now);
                e->acted = true;
                return true;
            }
        } else if (now >= b->t_act && now >= d->t_rrd) {
            issue_act(d, e, now);
            return true;
        }
    }
    return false;
}

bool hd_dram_has_room(const struct hd_dram *d, const struct hd_txn *t)
{
    const bool write = t->type == HD_TXN_WRITE || t->type == HD_TXN_WRITEBACK;
    if (write && d->p->write_queue)
        return d->nwq < d->p->write_queue;
    return d->nq < d->p->queue;
}

bool hd_dram_tick(struct hd_dram *d, uint64_t now)
{
    bool progress = false;
    const struct hd_dram_params *p = d->p;
    uint32_t id;
    while ((id = hd_delay_ready(&d->pipe, now)) != HD_TXN_NONE) {
        struct hd_txn *t = hd_txn_get(d->pool, id);
        const bool write = t->type == HD_TXN_WRITE || t->type == HD_TXN_WRITEBACK;
        struct hd_dram_entry *e;
        if (write && p->write_queue) {
            if (d->nwq == p->write_queue)
                break;
            e = &d->wq[d->nwq++];
        } else {
            if (d->nq == p->queue)
                break;
            e = &d->q[d->nq++];
        }
        hd_delay_pop(&d->pipe);
        e->t_arrive = now;
        e->id = id;
        e->bank = t->bank;
        e->row = t->row;
        e->write = write;
        t->sealed = 1; /* the L2 may no longer add sectors to it */
        uint32_t bursts = (t->bytes + p->burst_bytes - 1) / p->burst_bytes;
        e->bursts = (uint16_t)(bursts ? bursts : 1);
        e->acted = e->started = false;
        progress = true;
    }
    if (p->refresh && !d->ref_pending && now >= d->next_ref)
        d->ref_pending = true;
    if (d->nq || d->nwq || d->ref_pending)
        progress |= schedule(d, now);
    return progress;
}

uint32_t hd_dram_pop_done(struct hd_dram *d, uint64_t now)
{
    uint32_t id = hd_delay_ready(&d->done, now);
    if (id != HD_TXN_NONE)
        hd_delay_pop(&d->done);
    return id;
}

bool hd_dram_active(const struct hd_dram *d)
{
    return d->nq || d->nwq || d->ref_pending;
}

uint64_t hd_dram_next_time(const struct hd_dram *d)
{
    uint64_t t = hd_delay_head_time(&d->pipe), u = hd_delay_head_time(&d->done);
    t = u < t ? u : t;
    if (d->p->refresh && d->next_ref < t)
        t = d->next_ref;
    return t;
}

int hd_dram_describe(const struct hd_dram *d, char *buf, size_t len)
{
    if (!d->nq && !d->nwq && !d->pipe.count && !d->done.count)
        return 0;
    return snprintf(buf, len, "; DRAM %u: %u queued, %u writes queued%s, %u on the way, %u returning",
                    d->ch, d->nq, d->nwq, d->write_mode ? " (draining)" : "", d->pipe.count,
                    d->done.count);
}
/* }==== */
