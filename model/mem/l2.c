/* SPDX-License-Identifier: MIT
 * l2.c - an L2 slice: ROP delay, input queue, write-back write-allocate sectored cache, MSHRs,
 * DRAM fills and write-backs, the bounded L2-to-DRAM queue, replies (see l2.h). With
 * [l2] write_miss_fetch a write miss goes on to DRAM and fetches its line (GPGPU-Sim 3.x's
 * write-allocate); with fetch_whole_line a read miss fetches its whole line (a line cache).
 */
#include "l2.h"

#include "addrmap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int hd_l2_init(struct hd_l2 *s, const struct hd_mem_params *p, uint32_t id,
               struct hd_txn_pool *pool, struct hd_mem_stats *st)
{
    memset(s, 0, sizeof *s);
    s->p = p;
    s->id = id;
    s->pool = pool;
    s->st = st;
    const struct hd_l2_params *l = &p->l2;
    if (hd_delay_init(&s->rop, 64) || hd_ring_init(&s->inq, l->input_queue, 0) ||
        hd_ring_init(&s->outq, l->output_queue, 0) || hd_ring_init(&s->fillq, 0, 16) ||
        hd_ring_init(&s->ready, 0, 16) || hd_ring_init(&s->to_dram, l->dram_queue, 16) ||
        hd_tags_init(&s->tags, l->c.sets, l->c.ways, l->c.line, false) ||
        hd_mshr_init(&s->mshr, l->c.mshr_entries, l->c.mshr_merge) ||
        !(s->fetched = calloc(l->c.mshr_entries, sizeof *s->fetched)) ||
        !(s->arrived = calloc(l->c.mshr_entries, sizeof *s->arrived)) ||
        !(s->dram_rd = calloc(l->c.mshr_entries, sizeof *s->dram_rd))) {
        hd_l2_free(s);
        return -1;
    }
    return 0;
}

void hd_l2_free(struct hd_l2 *s)
{
    hd_delay_free(&s->rop);
    hd_ring_free(&s->inq);
    hd_ring_free(&s->outq);
    hd_ring_free(&s->fillq);
    hd_ring_free(&s->ready);
    hd_ring_free(&s->to_dram);
    hd_tags_free(&s->tags);
    hd_mshr_free(&s->mshr);
    free(s->fetched);
    free(s->arrived);
    free(s->dram_rd);
    s->fetched = s->arrived = NULL;
    s->dram_rd = NULL;
}

void hd_l2_reset(struct hd_l2 *s)
{
    s->rop.head = s->rop.count = 0;
    s->inq.head = s->inq.count = 0;
    s->outq.head = s->outq.count = 0;
    s->fillq.head = s->fillq.count = 0;
    s->ready.head = s->ready.count = 0;
    s->to_dram.head = s->to_dram.count = 0;
    hd_mshr_reset(&s->mshr);
    s->port_free = 0;
}

bool hd_l2_arrive(struct hd_l2 *s, uint32_t id, uint64_t now)
{
    return hd_delay_push(&s->rop, now + s->p->l2.c.latency, id);
}

bool hd_l2_fill(struct hd_l2 *s, uint32_t id)
{
    struct hd_txn *d = hd_txn_get(s->pool, id);
    if (d->type == HD_TXN_WRITE) { /* a written-through miss: the DRAM wrote it; ack it */
        const uint32_t orig = d->ref;
        hd_txn_release(s->pool, id);
        return hd_ring_push(&s->ready, orig);
    }
    return hd_ring_push(&s->fillq, id);
}

bool hd_l2_active(const struct hd_l2 *s)
{
    return s->inq.count || s->outq.count || s->fillq.count || s->ready.count ||
           s->to_dram.count;
}

/* {==== DRAM traffic ==== */
/* A DRAM request for `bytes` at slice-local address `local`, on behalf of transaction src.
 * Returns its id (HD_TXN_NONE: host out of memory). (Allocation may move the pool:
 * transactions are re-fetched by id afterwards.) */
static uint32_t to_dram(struct hd_l2 *s, uint32_t src, uint8_t type, uint64_t local,
                        uint32_t bytes)
{
    uint32_t id = hd_txn_alloc(s->pool);
    if (id == HD_TXN_NONE)
        return id;
    const struct hd_txn *t = hd_txn_get(s->pool, src);
    struct hd_txn *d = hd_txn_get(s->pool, id);
    struct hd_addr_loc loc;
    hd_addrmap_from_local(&s->p->map, s->p->l2.per_channel, s->id, local, &loc);
    d->addr = local;
    d->local = local;
    d->bytes = bytes;
    d->type = type;
    d->origin = HD_TXO_NONE;
    d->sm = t->sm;
    d->kernel = t->kernel;
    d->kidx = t->kidx;
    d->cls = t->cls;
    d->slice = (uint16_t)s->id;
    d->channel = (uint16_t)loc.channel;
    d->bank = (uint16_t)loc.bank;
    d->row = loc.row;
    if (type == HD_TXN_READ) {
        HD_ACCT(s->st, d, dram_reads, 1);
        HD_ACCT(s->st, d, dram_read_bytes, bytes);
        s->st->channel[loc.channel].dram_reads++;
        s->st->channel[loc.channel].dram_read_bytes += bytes;
    } else {
        HD_ACCT(s->st, d, dram_writes, 1);
        HD_ACCT(s->st, d, dram_write_bytes, bytes);
        s->st->channel[loc.channel].dram_writes++;
        s->st->channel[loc.channel].dram_write_bytes += bytes;
    }
    return hd_ring_push(&s->to_dram, id) ? id : HD_TXN_NONE;
}

/* Fetch sectors `want` of MSHR entry m's line: added to its newest DRAM read while the
 * controller has not yet taken that read's size (sector misses of one line arriving together
 * become one DRAM access, as a controller merges them), else a new read of those sectors. */
static void fetch_sectors(struct hd_l2 *s, uint32_t src, uint32_t m, uint64_t want)
{
    if (!want)
        return;
    if (s->p->l2.dram_per_sector) { /* GPGPU-Sim 4: every sector is its own DRAM request */
        s->fetched[m] |= want;
        for (uint64_t w = want; w; w &= w - 1) {
            const unsigned i = (unsigned)__builtin_ctzll(w);
            const uint32_t id = to_dram(s, src, HD_TXN_READ,
                                        (s->mshr.line[m] << s->tags.shift) +
                                            ((uint64_t)i << s->tags.sector_shift),
                                        1u << s->tags.sector_shift);
            if (id != HD_TXN_NONE)
                hd_txn_get(s->pool, id)->sectors = 1ull << i;
        }
        s->dram_rd[m] = HD_TXN_NONE;
        return;
    }
    const uint32_t bytes = (uint32_t)__builtin_popcountll(want) << s->tags.sector_shift;
    s->fetched[m] |= want;
    const uint32_t rd = s->dram_rd[m];
    struct hd_txn *d = rd != HD_TXN_NONE ? hd_txn_get(s->pool, rd) : NULL;
    if (d && !d->sealed) {
        d->sectors |= want;
        d->bytes += bytes;
        HD_ACCT(s->st, d, dram_read_bytes, bytes);
        s->st->channel[d->channel].dram_read_bytes += bytes;
        return;
    }
    const uint32_t id = to_dram(s, src, HD_TXN_READ, s->mshr.line[m] << s->tags.shift, bytes);
    if (id != HD_TXN_NONE)
        hd_txn_get(s->pool, id)->sectors = want;
    s->dram_rd[m] = id;
}

/* Make room for t's line: evict the victim (writing back its dirty sectors). Returns the
 * entry, installed for t's line with nothing valid. */
static uint32_t allocate(struct hd_l2 *s, uint32_t tid)
{
    const struct hd_txn *t = hd_txn_get(s->pool, tid);
    const uint64_t local = t->local;
    uint32_t v = hd_tags_victim(&s->tags, local);
    if (s->tags.tag[v] && s->tags.dirty[v]) {
        const uint32_t n = (uint32_t)__builtin_popcountll(s->tags.dirty[v]);
        const uint64_t vaddr = hd_tags_addr(&s->tags, v);
        HD_ACCT(s->st, t, l2_writebacks, 1);
        s->st->slice[s->id].l2_writebacks++;
        to_dram(s, tid, HD_TXN_WRITEBACK, vaddr, n << s->tags.sector_shift);
    }
    hd_tags_install(&s->tags, v, local);
    return v;
}
/* }==== */

/* {==== Replies ==== */
static uint32_t port_cycles(const struct hd_l2 *s, uint32_t bytes)
{
    uint32_t c = (bytes + s->p->l2.port_bytes - 1) / s->p->l2.port_bytes;
    return c ? c : 1;
}

static void reply(struct hd_l2 *s, uint32_t id, uint64_t now)
{
    struct hd_txn *t = hd_txn_get(s->pool, id);
    if (t->type != HD_TXN_WRITE)
        s->port_free = now + port_cycles(s, t->bytes);
    hd_ring_push(&s->outq, id);
}

/* Serve MSHR waiters whose line arrived. */
static bool serve_ready(struct hd_l2 *s, uint64_t now)
{
    if (!s->ready.count || hd_ring_full(&s->outq) || s->port_free > now)
        return false;
    uint32_t id = hd_ring_pop(&s->ready);
    struct hd_txn *t = hd_txn_get(s->pool, id);
    if (t->type == HD_TXN_ATOMIC) {
        uint32_t e = hd_tags_find(&s->tags, t->local);
        if (e != HD_TAGS_NONE)
            s->tags.dirty[e] |= hd_tags_sectors(&s->tags, t->local, t->bytes);
    }
    t->level = HD_LVL_DRAM;
    reply(s, id, now);
    return true;
}

/* A DRAM read returned its sectors: they become valid; the waiters whose fetched sectors have
 * all arrived are served; the entry ends when every read it sent has returned. */
static void fill(struct hd_l2 *s, uint32_t id)
{
    struct hd_txn *d = hd_txn_get(s->pool, id);
    const uint64_t local = d->local;
    const uint64_t got = d->sectors ? d->sectors : hd_tags_all(&s->tags);
    uint32_t e = hd_tags_find(&s->tags, local);
    if (e == HD_TAGS_NONE)
        e = allocate(s, id);
    s->tags.valid[e] |= got;
    hd_tags_touch(&s->tags, e);
    uint32_t m = hd_mshr_find(&s->mshr, hd_tags_line(&s->tags, local));
    if (m != HD_MSHR_NONE) {
        s->arrived[m] |= got;
        if (s->dram_rd[m] == id)
            s->dram_rd[m] = HD_TXN_NONE;
        uint32_t *w = &s->mshr.waiter[(uint64_t)m * s->mshr.merge], keep = 0;
        for (uint32_t i = 0; i < s->mshr.count[m]; i++) {
            const struct hd_txn *t = hd_txn_get(s->pool, w[i]);
            const uint64_t need = hd_tags_sectors(&s->tags, t->local, t->bytes) & s->fetched[m];
            if ((need & s->arrived[m]) == need)
                hd_ring_push(&s->ready, w[i]);
            else
                w[keep++] = w[i];
        }
        s->mshr.count[m] = keep;
        if ((s->fetched[m] & ~s->arrived[m]) == 0)
            hd_mshr_release(&s->mshr, m);
    }
    hd_txn_release(s->pool, id);
}
/* }==== */

/* {==== Lookup ==== */
/* Process request id; false if it must wait. */
static bool lookup_read(struct hd_l2 *s, uint32_t id, uint64_t now)
{
    struct hd_txn *t = hd_txn_get(s->pool, id);
    const uint64_t need = hd_tags_sectors(&s->tags, t->local, t->bytes);
    const uint32_t e = hd_tags_find(&s->tags, t->local);
    const bool atomic = t->type == HD_TXN_ATOMIC;
    const uint64_t missing = need & ~(e != HD_TAGS_NONE ? s->tags.valid[e] : 0);
    if (!missing) {
        if (hd_ring_full(&s->outq))
            return false;
        hd_tags_touch(&s->tags, e);
        if (atomic)
            s->tags.dirty[e] |= need;
        HD_ACCT(s->st, t, l2_read_hits, atomic ? 0 : 1);
        s->st->slice[s->id].l2_read_hits += atomic ? 0 : 1;
        HD_ACCT(s->st, t, l2_hit_port, port_cycles(s, t->bytes));
        s->st->slice[s->id].l2_hit_port += port_cycles(s, t->bytes);
        t->level = HD_LVL_L2;
        reply(s, id, now);
        return true;
    }
    const uint64_t line = hd_tags_line(&s->tags, t->local);
    const uint64_t want = s->p->l2.fetch_whole_line
                              ? hd_tags_all(&s->tags) & ~(e != HD_TAGS_NONE ? s->tags.valid[e] : 0)
                              : missing;
    uint32_t m = hd_mshr_find(&s->mshr, line);
    if (m != HD_MSHR_NONE) {
        if (!hd_mshr_has_room(&s->mshr, m))
            return false;
        hd_mshr_add(&s->mshr, m, id);
        HD_ACCT(s->st, t, l2_mshr_merges, 1);
        s->st->slice[s->id].l2_mshr_merges++;
        fetch_sectors(s, id, m, want & ~s->fetched[m]);
        return true;
    }
    if (hd_mshr_full(&s->mshr))
        return false;
    m = hd_mshr_alloc(&s->mshr, line, now);
    hd_mshr_add(&s->mshr, m, id);
    s->fetched[m] = s->arrived[m] = 0;
    s->dram_rd[m] = HD_TXN_NONE;
    fetch_sectors(s, id, m, want); /* only the missing sectors (or line) move */
    return true;
}

/* [l2] write_miss_fetch (GPGPU-Sim 3.x's write-allocate, wr_miss_wa): a write whose line is
 * absent or still being fetched is written through to DRAM, acknowledged when the DRAM has
 * written it, and its line is fetched whole, clean, through an MSHR entry that no request
 * waits on (3.x's read for the line holds a merge slot: room is required, none is taken).
 * False if it must wait. */
static bool write_miss_fetch(struct hd_l2 *s, uint32_t id, uint32_t e, uint64_t now)
{
    const struct hd_txn *t = hd_txn_get(s->pool, id);
    const uint64_t line = hd_tags_line(&s->tags, t->local);
    uint32_t m = hd_mshr_find(&s->mshr, line);
    if (m != HD_MSHR_NONE ? !hd_mshr_has_room(&s->mshr, m) : hd_mshr_full(&s->mshr))
        return false;
    if (s->to_dram.limit && s->to_dram.count + 3 > s->to_dram.limit)
        return false; /* 3.x: room for the write, the read and a write-back */
    const bool ack = t->type == HD_TXN_WRITE;
    const uint32_t w = to_dram(s, id, ack ? HD_TXN_WRITE : HD_TXN_WRITEBACK, t->local, t->bytes);
    if (w == HD_TXN_NONE)
        return false;
    if (ack)
        hd_txn_get(s->pool, w)->ref = id; /* the DRAM returns it; hd_l2_fill acknowledges id */
    else
        hd_txn_release(s->pool, id);
    if (m == HD_MSHR_NONE) {
        m = hd_mshr_alloc(&s->mshr, line, now);
        s->fetched[m] = s->arrived[m] = 0;
        s->dram_rd[m] = HD_TXN_NONE;
    }
    const uint64_t valid = e != HD_TAGS_NONE ? s->tags.valid[e] : 0;
    fetch_sectors(s, w, m, hd_tags_all(&s->tags) & ~valid & ~s->fetched[m]);
    if ((s->fetched[m] & ~s->arrived[m]) == 0) /* nothing to fetch: the entry is not needed */
        hd_mshr_release(&s->mshr, m);
    return true;
}

static bool lookup_write(struct hd_l2 *s, uint32_t id, uint64_t now)
{
    struct hd_txn *t = hd_txn_get(s->pool, id);
    const bool ack = t->type == HD_TXN_WRITE;
    if (ack && hd_ring_full(&s->outq))
        return false;
    const uint64_t need = hd_tags_sectors(&s->tags, t->local, t->bytes);
    uint32_t e = hd_tags_find(&s->tags, t->local);
    if (s->p->l2.write_miss_fetch &&
        (e == HD_TAGS_NONE ||
         hd_mshr_find(&s->mshr, hd_tags_line(&s->tags, t->local)) != HD_MSHR_NONE)) {
        return write_miss_fetch(s, id, e, now);
    }
    if (e != HD_TAGS_NONE) {
        hd_tags_touch(&s->tags, e);
        HD_ACCT(s->st, t, l2_write_hits, 1);
        s->st->slice[s->id].l2_write_hits++;
        HD_ACCT(s->st, t, l2_hit_port, port_cycles(s, t->bytes));
        s->st->slice[s->id].l2_hit_port += port_cycles(s, t->bytes);
    } else {
        e = allocate(s, id);
        t = hd_txn_get(s->pool, id);
    }
    s->tags.valid[e] |= need;
    s->tags.dirty[e] |= need;
    s->port_free = now + port_cycles(s, t->bytes);
    if (ack) {
        t->level = HD_LVL_L2;
        hd_ring_push(&s->outq, id);
    } else {
        hd_txn_release(s->pool, id);
    }
    return true;
}

static bool lookup(struct hd_l2 *s, uint64_t now)
{
    if (!s->inq.count || s->port_free > now)
        return false;
    const uint32_t id = hd_ring_peek(&s->inq, 0);
    if (hd_ring_full(&s->to_dram)) { /* GPGPU-Sim: no access while m_L2_dram_queue is full */
        const struct hd_txn *h = hd_txn_get(s->pool, id);
        HD_ACCT(s->st, h, l2_dramq_stall, 1);
        s->st->slice[s->id].l2_dramq_stall++;
        s->stall_cycles++;
        return false;
    }
    const struct hd_txn copy = *hd_txn_get(s->pool, id), *t = &copy;
    const uint64_t waited = now - t->t_queue;
    const uint8_t type = t->type;
    bool done = type == HD_TXN_READ || type == HD_TXN_ATOMIC ? lookup_read(s, id, now)
                                                             : lookup_write(s, id, now);
    if (!done) {
        s->stall_cycles++;
        return false;
    }
    hd_ring_pop(&s->inq);
    HD_ACCT(s->st, t, l2_wait, waited);
    struct hd_mem_acct *sl = &s->st->slice[s->id];
    sl->l2_wait += waited;
    switch (type) {
    case HD_TXN_READ:
        HD_ACCT(s->st, t, l2_reads, 1);
        sl->l2_reads++;
        break;
    case HD_TXN_ATOMIC:
        HD_ACCT(s->st, t, l2_atomics, 1);
        sl->l2_atomics++;
        break;
    default:
        HD_ACCT(s->st, t, l2_writes, 1);
        sl->l2_writes++;
        break;
    }
    return true;
}
/* }==== */

bool hd_l2_tick(struct hd_l2 *s, uint64_t now)
{
    bool progress = false;
    if (s->fillq.count) {
        fill(s, hd_ring_pop(&s->fillq));
        progress = true;
    }
    progress |= serve_ready(s, now);
    uint32_t id;
    while (!hd_ring_full(&s->inq) && (id = hd_delay_ready(&s->rop, now)) != HD_TXN_NONE) {
        hd_delay_pop(&s->rop);
        hd_txn_get(s->pool, id)->t_queue = now;
        hd_ring_push(&s->inq, id);
        progress = true;
    }
    progress |= lookup(s, now);
    return progress;
}

int hd_l2_describe(const struct hd_l2 *s, char *buf, size_t len)
{
    if (!s->rop.count && !hd_l2_active(s) && !s->mshr.used)
        return 0;
    return snprintf(buf, len,
                    "; L2 %u: %u in ROP, %u queued, %u MSHRs, %u to DRAM, %u replies, %u fills",
                    s->id, s->rop.count, s->inq.count, s->mshr.used, s->to_dram.count,
                    s->outq.count, s->fillq.count);
}
