/* SPDX-License-Identifier: MIT
 * xbar.c - input-queued crossbar with round-robin or iSLIP allocation (see xbar.h).
 */
#include "xbar.h"

#include <stdlib.h>
#include <string.h>

#define NONE32 UINT32_MAX

uint32_t hd_xbar_flits(const struct hd_icnt_params *p, uint32_t payload_bytes)
{
    uint32_t f = (p->header_bytes + payload_bytes + p->flit_bytes - 1) / p->flit_bytes;
    return f ? f : 1;
}

int hd_xbar_init(struct hd_xbar *x, uint32_t nin, uint32_t nout, const struct hd_icnt_params *p,
                 const struct hd_xbar_ops *ops, void *ctx)
{
    memset(x, 0, sizeof *x);
    x->nin = nin;
    x->nout = nout;
    x->islip = p->islip;
    x->voq = p->voq;
    x->iters = p->iters;
    x->port_flits = p->port_flits;
    x->latency = p->latency;
    x->input_flits = p->input_flits;
    x->ops = ops;
    x->ctx = ctx;
    x->in = calloc(nin, sizeof *x->in);
    x->out_busy = calloc(nout, sizeof *x->out_busy);
    x->grant_ptr = calloc(nout, sizeof *x->grant_ptr);
    x->in_flight = calloc(nout, sizeof *x->in_flight);
    x->cnt = calloc((size_t)nin * nout, sizeof *x->cnt);
    x->win = (nin + 63) / 64;
    x->req = calloc((size_t)nout * x->win, sizeof *x->req);
    x->hreq = calloc((size_t)nout * x->win, sizeof *x->hreq);
    x->avail = calloc(x->win, sizeof *x->avail);
    x->arrive = calloc(nout, sizeof *x->arrive);
    x->grant_of = calloc(nout, sizeof *x->grant_of);
    x->match_in = calloc(nin, sizeof *x->match_in);
    x->match_out = calloc(nout, sizeof *x->match_out);
    if (!x->in || !x->out_busy || !x->grant_ptr || !x->in_flight || !x->cnt || !x->req ||
        !x->hreq || !x->avail || !x->arrive ||
        !x->grant_of || !x->match_in || !x->match_out)
        goto oom;
    for (uint32_t i = 0; i < nin; i++) {
        x->in[i].qcap = p->input_flits; /* at most one packet per flit */
        x->in[i].q = malloc(x->in[i].qcap * sizeof *x->in[i].q);
        if (!x->in[i].q)
            goto oom;
    }
    for (uint32_t o = 0; o < nout; o++)
        if (hd_delay_init(&x->arrive[o], 16) != 0)
            goto oom;
    return 0;
oom:
    hd_xbar_free(x);
    return -1;
}

void hd_xbar_free(struct hd_xbar *x)
{
    if (x->in)
        for (uint32_t i = 0; i < x->nin; i++)
            free(x->in[i].q);
    if (x->arrive)
        for (uint32_t o = 0; o < x->nout; o++)
            hd_delay_free(&x->arrive[o]);
    free(x->in);
    free(x->out_busy);
    free(x->grant_ptr);
    free(x->in_flight);
    free(x->cnt);
    free(x->req);
    free(x->hreq);
    free(x->avail);
    free(x->arrive);
    free(x->grant_of);
    free(x->match_in);
    free(x->match_out);
    memset(x, 0, sizeof *x);
}

void hd_xbar_reset(struct hd_xbar *x)
{
    for (uint32_t i = 0; i < x->nin; i++) {
        x->in[i].head = x->in[i].count = x->in[i].flits = 0;
        x->in[i].busy_until = 0;
    }
    for (uint32_t o = 0; o < x->nout; o++) {
        x->out_busy[o] = 0;
        x->in_flight[o] = 0;
        x->arrive[o].head = x->arrive[o].count = 0;
    }
    memset(x->cnt, 0, (size_t)x->nin * x->nout * sizeof *x->cnt);
    memset(x->req, 0, (size_t)x->nout * x->win * sizeof *x->req);
    x->queued = x->moving = 0;
}

bool hd_xbar_can_inject(const struct hd_xbar *x, unsigned in, uint32_t flits)
{
    const struct hd_xbar_in *q = &x->in[in];
    return q->count == 0 || (q->flits + flits <= x->input_flits && q->count < q->qcap);
}

bool hd_xbar_inject(struct hd_xbar *x, unsigned in, unsigned out, uint32_t id, uint32_t flits,
                    uint64_t now)
{
    struct hd_xbar_in *q = &x->in[in];
    if (q->count == q->qcap)
        return false;
    uint32_t k = (q->head + q->count) % q->qcap;
    q->q[k] = (struct hd_xbar_pkt){now, id, (uint16_t)out, (uint16_t)flits};
    q->count++;
    q->flits += flits;
    if (x->cnt[(size_t)in * x->nout + out]++ == 0)
        x->req[(size_t)out * x->win + in / 64] |= 1ull << (in % 64);
    x->queued++;
    return true;
}

/* Connect input `in` to output `out` with its oldest packet for that output. */
static void connect(struct hd_xbar *x, uint32_t in, uint32_t out, uint64_t now)
{
    struct hd_xbar_in *q = &x->in[in];
    uint32_t i = 0;
    while (q->q[(q->head + i) % q->qcap].out != out)
        i++;
    const struct hd_xbar_pkt pk = q->q[(q->head + i) % q->qcap];
    for (uint32_t j = i; j > 0; j--) /* close the gap, keeping the order */
        q->q[(q->head + j) % q->qcap] = q->q[(q->head + j - 1) % q->qcap];
    q->head = (q->head + 1) % q->qcap;
    q->count--;
    q->flits -= pk.flits;
    if (--x->cnt[(size_t)in * x->nout + out] == 0)
        x->req[(size_t)out * x->win + in / 64] &= ~(1ull << (in % 64));
    x->queued--;
    const uint32_t d = (pk.flits + x->port_flits - 1) / x->port_flits;
    q->busy_until = now + d;
    x->out_busy[out] = now + d;
    const uint64_t arrive = now + d - 1 + x->latency;
    hd_delay_push(&x->arrive[out], arrive, pk.id);
    x->in_flight[out]++;
    x->moving++;
    if (x->ops->granted)
        x->ops->granted(x->ctx, pk.id, out, now - pk.t_in, d, arrive);
}

static bool out_free(struct hd_xbar *x, uint32_t o, uint64_t now)
{
    return x->out_busy[o] <= now && x->ops->dest_ok(x->ctx, o, x->in_flight[o]);
}

static uint32_t cycle_rr(struct hd_xbar *x, uint64_t now)
{
    uint32_t n = 0;
    for (uint32_t o = 0; o < x->nout; o++) {
        if (x->out_busy[o] > now)
            continue;
        bool checked = false, ok = false;
        for (uint32_t k = 0; k < x->nin; k++) {
            uint32_t i = (x->grant_ptr[o] + k) % x->nin;
            const struct hd_xbar_in *q = &x->in[i];
            if (!q->count || q->busy_until > now || q->q[q->head].out != o)
                continue;
            if (!checked) {
                checked = true;
                ok = x->ops->dest_ok(x->ctx, o, x->in_flight[o]);
            }
            if (!ok)
                break;
            connect(x, i, o, now);
            x->grant_ptr[o] = (i + 1) % x->nin;
            n++;
            break;
        }
    }
    return n;
}

/* The first index >= from (cyclically, below n) whose bit is set in a & b, or NONE32. */
static uint32_t next_set(const uint64_t *a, const uint64_t *b, uint32_t words, uint32_t n,
                         uint32_t from)
{
    for (uint32_t k = 0; k <= words; k++) {
        uint32_t w = (from / 64 + k) % words;
        uint64_t m = a[w] & b[w];
        if (k == 0)
            m &= ~0ull << (from % 64);
        if (k == words)
            m &= from % 64 ? (1ull << (from % 64)) - 1 : 0;
        if (m) {
            uint32_t i = w * 64 + (uint32_t)__builtin_ctzll(m);
            return i < n ? i : NONE32;
        }
    }
    return NONE32;
}

static uint32_t cycle_islip(struct hd_xbar *x, uint64_t now)
{
    const uint32_t nin = x->nin, nout = x->nout, words = x->win;
    memset(x->avail, 0, words * sizeof *x->avail);
    for (uint32_t i = 0; i < nin; i++) {
        x->match_in[i] = NONE32;
        if (x->in[i].count && x->in[i].busy_until <= now)
            x->avail[i / 64] |= 1ull << (i % 64);
    }
    for (uint32_t o = 0; o < nout; o++)
        x->match_out[o] = out_free(x, o, now) ? NONE32 : NONE32 - 1; /* NONE32-1: unavailable */
    const uint64_t *req = x->req;
    if (!x->voq) { /* one FIFO per input: only the head packet requests its output */
        memset(x->hreq, 0, (size_t)nout * words * sizeof *x->hreq);
        for (uint32_t i = 0; i < nin; i++)
            if (x->avail[i / 64] & (1ull << (i % 64))) {
                const struct hd_xbar_in *q = &x->in[i];
                x->hreq[(size_t)q->q[q->head].out * words + i / 64] |= 1ull << (i % 64);
            }
        req = x->hreq;
    }
    uint32_t n = 0;
    for (uint32_t it = 0; it < x->iters; it++) {
        bool any = false;
        /* grant: each free output picks a requesting input after its pointer */
        for (uint32_t o = 0; o < nout; o++) {
            x->grant_of[o] = NONE32;
            if (x->match_out[o] != NONE32)
                continue;
            uint32_t i = next_set(&req[(size_t)o * words], x->avail, words, nin,
                                  x->grant_ptr[o]);
            if (i != NONE32) {
                x->grant_of[o] = i;
                any = true;
            }
        }
        if (!any)
            break;
        /* accept: each input picks a granting output after its pointer */
        for (uint32_t k = 0; k < nout; k++) {
            const uint32_t i = x->grant_of[k];
            if (i == NONE32 || x->match_in[i] != NONE32)
                continue;
            struct hd_xbar_in *q = &x->in[i];
            uint32_t best = NONE32, bestd = NONE32;
            for (uint32_t o = k; o < nout; o++) /* the granting output nearest the pointer */
                if (x->grant_of[o] == i) {
                    uint32_t d = (o + nout - q->accept_ptr) % nout;
                    if (d < bestd) {
                        bestd = d;
                        best = o;
                    }
                }
            x->match_in[i] = best;
            x->match_out[best] = i;
            x->avail[i / 64] &= ~(1ull << (i % 64));
            if (it == 0) {
                x->grant_ptr[best] = (i + 1) % nin;
                q->accept_ptr = (best + 1) % nout;
            }
        }
    }
    for (uint32_t i = 0; i < nin; i++)
        if (x->match_in[i] != NONE32) {
            connect(x, i, x->match_in[i], now);
            n++;
        }
    return n;
}

uint32_t hd_xbar_cycle(struct hd_xbar *x, uint64_t now)
{
    if (!x->queued)
        return 0;
    return x->islip ? cycle_islip(x, now) : cycle_rr(x, now);
}

uint32_t hd_xbar_pop(struct hd_xbar *x, unsigned out, uint64_t now)
{
    uint32_t id = hd_delay_ready(&x->arrive[out], now);
    if (id == HD_TXN_NONE)
        return id;
    hd_delay_pop(&x->arrive[out]);
    x->in_flight[out]--;
    x->moving--;
    return id;
}

uint64_t hd_xbar_next_arrival(const struct hd_xbar *x)
{
    uint64_t t = UINT64_MAX;
    if (!x->moving)
        return t;
    for (uint32_t o = 0; o < x->nout; o++) {
        uint64_t h = hd_delay_head_time(&x->arrive[o]);
        t = h < t ? h : t;
    }
    return t;
}
