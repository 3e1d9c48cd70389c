/* SPDX-License-Identifier: MIT
 * l1.c - the L1 data cache, constant cache, miss queue and request tracking of one SM (see
 * l1.h).
 */
#include "l1.h"

#include "addrmap.h"
#include "coalesce.h"
#include "l2.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Request classes. */
enum { CL_IFETCH, CL_CONST, CL_LOAD_G, CL_LOAD_L, CL_STORE_G, CL_STORE_L, CL_ATOMIC };
/* Outcome of looking up one piece. */
enum { PIECE_DONE, PIECE_WAIT_MSHR, PIECE_WAIT_MQ };

int hd_l1_init(struct hd_l1 *l, const struct hd_mem_params *p, uint32_t sm,
               struct hd_txn_pool *pool, struct hd_mem_stats *st,
               const struct hd_mem_observer *obs, bool (*bypass)(void *ctx, uint32_t kidx),
               void *bypass_ctx)
{
    memset(l, 0, sizeof *l);
    l->p = p;
    l->sm = sm;
    l->pool = pool;
    l->st = st;
    l->obs = obs;
    l->bypass = bypass;
    l->bypass_ctx = bypass_ctx;
    l->sr_free = UINT32_MAX;
    if (hd_tags_init(&l->d, p->l1d.c.sets, p->l1d.c.ways, p->l1d.c.line, p->l1d.c.xor_index) ||
        hd_tags_init(&l->c, p->l1c.sets, p->l1c.ways, p->l1c.line, p->l1c.xor_index) ||
        hd_mshr_init(&l->md, p->l1d.c.mshr_entries, p->l1d.c.mshr_merge) ||
        hd_mshr_init(&l->mc, p->l1c.mshr_entries, p->l1c.mshr_merge) ||
        hd_ring_init(&l->inq, p->l1d.queue + (p->l1d.lookup_after_latency ? p->l1d.c.latency : 0),
                     0) ||
        hd_delay_init(&l->hit_d, 64) ||
        hd_delay_init(&l->hit_c, 16) || hd_delay_init(&l->wb, 16) ||
        hd_ring_init(&l->done, 0, 64) ||
        hd_ring_init(&l->missq, 0, p->l1d.miss_queue + 8) ||
        hd_ring_init(&l->eject, p->icnt.eject_packets, 0) || hd_ring_init(&l->notices, 0, 16)) {
        hd_l1_free(l);
        return -1;
    }
    return 0;
}

void hd_l1_free(struct hd_l1 *l)
{
    hd_tags_free(&l->d);
    hd_tags_free(&l->c);
    hd_mshr_free(&l->md);
    hd_mshr_free(&l->mc);
    free(l->sr);
    l->sr = NULL;
    hd_ring_free(&l->inq);
    hd_delay_free(&l->hit_d);
    hd_delay_free(&l->hit_c);
    hd_delay_free(&l->wb);
    hd_ring_free(&l->done);
    hd_ring_free(&l->missq);
    hd_ring_free(&l->eject);
    hd_ring_free(&l->notices);
}

void hd_l1_reset(struct hd_l1 *l)
{
    hd_mshr_reset(&l->md);
    hd_mshr_reset(&l->mc);
    l->inq.head = l->inq.count = 0;
    l->head_off = 0;
    l->hit_d.head = l->hit_d.count = 0;
    l->hit_c.head = l->hit_c.count = 0;
    l->wb.head = l->wb.count = 0;
    l->wb_free = 0;
    l->done.head = l->done.count = 0;
    l->missq.head = l->missq.count = 0;
    l->missq_other = 0;
    l->eject.head = l->eject.count = 0;
    l->notices.head = l->notices.count = 0;
    l->sr_free = UINT32_MAX;
    for (uint32_t i = l->sr_cap; i-- > 0;) {
        l->sr[i].next_free = l->sr_free;
        l->sr_free = i;
    }
    l->pending = 0;
}

/* {==== Requests ==== */
static uint32_t sreq_alloc(struct hd_l1 *l)
{
    if (l->sr_free == UINT32_MAX) {
        uint32_t ncap = l->sr_cap ? 2 * l->sr_cap : 64;
        struct hd_l1_sreq *n = realloc(l->sr, ncap * sizeof *n);
        if (!n)
            return UINT32_MAX;
        l->sr = n;
        for (uint32_t i = ncap; i-- > l->sr_cap;) {
            n[i].next_free = l->sr_free;
            l->sr_free = i;
        }
        l->sr_cap = ncap;
    }
    uint32_t i = l->sr_free;
    l->sr_free = l->sr[i].next_free;
    return i;
}

static uint8_t classify(const struct hd_mem_req *r)
{
    if (r->kind == HD_MEM_IFETCH)
        return CL_IFETCH;
    if (r->kind == HD_MEM_ATOMIC)
        return CL_ATOMIC;
    if (r->space == HD_MSPACE_CONST || r->space == HD_MSPACE_PARAM)
        return CL_CONST; /* read-only spaces: stores cannot happen */
    const bool local = r->space == HD_MSPACE_LOCAL;
    if (r->kind == HD_MEM_STORE)
        return local ? CL_STORE_L : CL_STORE_G;
    return local ? CL_LOAD_L : CL_LOAD_G;
}

/* Does a request of class cl go to the L2 as trimmed transactions (32, 64 or 128 bytes: only
 * the sectors the warp touched)? Bypassed global loads, global stores and atomics: the
 * accesses the L1 does not cache (GPGPU-Sim's rule for Fermi's uncached accesses). */
static bool sectored(uint8_t cl, bool bypass)
{
    return cl == CL_STORE_G || cl == CL_ATOMIC || (cl == CL_LOAD_G && bypass);
}

/* The line size pieces of a request of class cl are cut to. */
static uint32_t piece_line(const struct hd_l1 *l, uint8_t cl, bool bypass)
{
    switch (cl) {
    case CL_CONST:
        return l->c.line;
    case CL_LOAD_L:
    case CL_STORE_L:
        return l->d.line;
    case CL_LOAD_G:
        return bypass ? l->p->l2.c.line : l->d.line;
    default:
        return l->p->l2.c.line;
    }
}

/* The touched sectors of the line of `line` bytes holding the request's byte `off` (off is
 * line-aligned relative to the line, the request's sector mask is relative to its address,
 * which is 32-byte aligned when smask != 0). */
static uint64_t line_sectors(const struct hd_l1_sreq *s, uint64_t a, uint32_t line)
{
    const uint64_t la = a - a % line, ra = s->r.addr;
    const uint32_t n = line / HD_SECTOR_BYTES;
    uint64_t m = 0;
    for (uint32_t k = 0; k < n && k < 64; k++) {
        const uint64_t sa = la + (uint64_t)k * HD_SECTOR_BYTES;
        if (sa >= ra && (sa - ra) / HD_SECTOR_BYTES < 64 &&
            (s->smask >> ((sa - ra) / HD_SECTOR_BYTES) & 1u))
            m |= 1ull << k;
    }
    return m;
}

static uint32_t pieces(uint64_t addr, uint32_t bytes, uint32_t line)
{
    uint64_t first = addr / line, last = (addr + (bytes ? bytes : 1) - 1) / line;
    return (uint32_t)(last - first + 1);
}

/* A global load that skips the L1: its cache operator says so (.cg/.cv), or the configuration
 * ([l1d] bypass_global) or the kernel's bypass flag does. */
static bool bypassed(struct hd_l1 *l, const struct hd_l1_sreq *s)
{
    return s->cls == CL_LOAD_G &&
           ((s->r.flags & HD_MEMF_BYPASS_L1) || l->p->l1d.bypass_global ||
            (l->bypass && l->bypass(l->bypass_ctx, s->kidx)));
}

bool hd_l1_send(struct hd_l1 *l, const struct hd_mem_req *r, uint64_t now)
{
    if (!hd_l1_can_send(l))
        return false;
    uint32_t i = sreq_alloc(l);
    if (i == UINT32_MAX) {
        l->oom = true;
        return false;
    }
    struct hd_l1_sreq *s = &l->sr[i];
    s->r = *r;
    s->r.issue_cycle = now;
    s->r.done_cycle = 0;
    s->t_done = 0;
    s->cls = classify(r);
    s->level = HD_LVL_L1;
    s->kidx = hd_mem_stats_kernel(l->st, r->kernel);
    s->bypass = bypassed(l, s);
    s->noticed = false;
    const uint32_t line = piece_line(l, s->cls, s->bypass);
    s->pending = pieces(r->addr, r->bytes, line);
    s->smask = 0;
    const uint32_t nsec = pieces(r->addr, r->bytes, HD_SECTOR_BYTES);
    if (sectored(s->cls, s->bypass) && r->sectors && r->addr % HD_SECTOR_BYTES == 0 &&
        nsec <= 64 && (r->sectors & (nsec == 64 ? ~0ull : (1ull << nsec) - 1))) {
        /* one piece per line with a touched sector */
        s->smask = r->sectors & (nsec == 64 ? ~0ull : (1ull << nsec) - 1);
        s->pending = 0;
        const uint64_t end = r->addr + r->bytes;
        for (uint64_t la = r->addr - r->addr % line; la < end; la += line)
            s->pending += line_sectors(s, la, line) != 0;
    }
    hd_ring_push(&l->inq, i);
    l->pending++;
    return true;
}

/* Piece k of request i finished at `when` (served at `level`). */
static void piece_done(struct hd_l1 *l, uint32_t i, uint64_t when, uint8_t level, uint64_t now)
{
    const bool wb = when == HD_L1_WRITEBACK;
    if (wb) { /* [l1d] miss_writeback: the writeback register's next slot, two cycles on */
        when = now + 2 > l->wb_free ? now + 2 : l->wb_free;
        l->wb_free = when + 1;
    }
    struct hd_l1_sreq *s = &l->sr[i];
    if (when > s->t_done)
        s->t_done = when;
    if (level > s->level)
        s->level = level;
    if (--s->pending)
        return;
    s->r.done_cycle = s->t_done;
    s->r.served = (uint8_t)(HD_SERVED_L1 + s->level); /* (enum hd_mem_level order) */
    const uint64_t lat = s->t_done - s->r.issue_cycle;
    const bool write = s->cls == CL_STORE_G || s->cls == CL_STORE_L;
    hd_hist_add(&l->st->hist[write ? HD_HIST_WRITE
                             : s->level == HD_LVL_L1 ? HD_HIST_L1
                             : s->level == HD_LVL_L2 ? HD_HIST_L2
                                                     : HD_HIST_DRAM],
                lat);
    if (!write && s->r.kind != HD_MEM_IFETCH) { /* mean read latency per SM, class and kernel
                                                   (a kernel's own loads: demand class only) */
        struct hd_mem_acct *a[3] = {&l->st->sm[l->sm], &l->st->cls[s->r.cls],
                                    &l->st->kernel[s->kidx]};
        for (int k = 0; k < (s->r.cls == HD_MCLASS_DEMAND ? 3 : 2); k++) {
            a[k]->reads_done++;
            a[k]->read_latency += lat;
        }
    }
    if (s->t_done <= now)
        hd_ring_push(&l->done, i);
    else if (wb && s->t_done == when) /* completion times through the register increase */
        hd_delay_push(&l->wb, s->t_done, i);
    else
        hd_delay_push(s->cls == CL_CONST ? &l->hit_c : &l->hit_d, s->t_done, i);
}

unsigned hd_l1_recv(struct hd_l1 *l, struct hd_mem_req *out, unsigned max, uint64_t now)
{
    unsigned n = 0;
    while (n < max) {
        /* the earliest of the three heads */
        uint64_t td = l->done.count ? l->sr[hd_ring_peek(&l->done, 0)].r.done_cycle : UINT64_MAX;
        uint64_t th = hd_delay_head_time(&l->hit_d), tc = hd_delay_head_time(&l->hit_c);
        const uint64_t tw = hd_delay_head_time(&l->wb);
        uint32_t i;
        if (td <= th && td <= tc && td <= tw && td <= now)
            i = hd_ring_pop(&l->done);
        else if (th <= tc && th <= tw && th <= now)
            i = hd_delay_pop(&l->hit_d);
        else if (tc <= tw && tc <= now)
            i = hd_delay_pop(&l->hit_c);
        else if (tw <= now)
            i = hd_delay_pop(&l->wb);
        else
            break;
        out[n++] = l->sr[i].r;
        l->sr[i].next_free = l->sr_free;
        l->sr_free = i;
        l->pending--;
    }
    return n;
}
/* }==== */

/* {==== Transactions toward the L2 ==== */
static uint32_t new_txn(struct hd_l1 *l, const struct hd_l1_sreq *s, uint8_t type, uint8_t origin,
                        uint32_t ref, uint64_t addr, uint32_t bytes, uint64_t now)
{
    const uint32_t kernel = s->r.kernel, kidx = s->kidx; /* s may move with the pool? no: sr */
    uint32_t id = hd_txn_alloc(l->pool);
    if (id == HD_TXN_NONE) {
        l->oom = true;
        return id;
    }
    struct hd_txn *t = hd_txn_get(l->pool, id);
    struct hd_addr_loc loc;
    hd_addrmap_decode(&l->p->map, l->p->l2.per_channel, addr, &loc);
    t->addr = addr;
    t->local = loc.local;
    t->bytes = bytes;
    t->kernel = kernel;
    t->kidx = kidx;
    t->cls = s->r.cls < HD_MCLASS_COUNT ? s->r.cls : HD_MCLASS_DEMAND;
    t->ref = ref;
    t->row = loc.row;
    t->sm = (uint16_t)l->sm;
    t->slice = (uint16_t)loc.slice;
    t->bank = (uint16_t)loc.bank;
    t->channel = (uint16_t)loc.channel;
    t->type = type;
    t->origin = origin;
    t->level = HD_LVL_L2;
    t->t_queue = t->t_start = now;
    hd_ring_push(&l->missq, id);
    l->missq_other += t->cls != HD_MCLASS_DEMAND;
    return id;
}

static bool missq_room(const struct hd_l1 *l)
{
    return l->missq.count < l->p->l1d.miss_queue;
}

/* Write back the dirty sectors of L1D entry e (always fits in the miss queue). */
static void write_back(struct hd_l1 *l, const struct hd_l1_sreq *s, uint32_t e, uint64_t now)
{
    const uint32_t n = (uint32_t)__builtin_popcountll(l->d.dirty[e]);
    new_txn(l, s, HD_TXN_WRITEBACK, HD_TXO_NONE, 0, hd_tags_addr(&l->d, e),
            n << l->d.sector_shift, now);
    l->st->sm[l->sm].l1d_writebacks++;
    l->st->kernel[s->kidx].l1d_writebacks++;
    l->st->cls[s->r.cls].l1d_writebacks++;
}
/* }==== */

/* {==== Lookups ==== */
/* Load request i missed the L1D at its lookup: with notices on (mem_iface.h l1_notices_on),
 * tell the SM once per request. The request stays in flight until the SM receives it, so the
 * notice (its id) can be read out as the request's tag until then. */
static void miss_notice(struct hd_l1 *l, uint32_t i)
{
    struct hd_l1_sreq *s = &l->sr[i];
    if (!l->notify || s->noticed)
        return;
    s->noticed = true;
    if (!hd_ring_push(&l->notices, i))
        l->oom = true;
}

unsigned hd_l1_miss_notices(struct hd_l1 *l, uint64_t *tags, unsigned max)
{
    unsigned n = 0;
    while (n < max && l->notices.count)
        tags[n++] = l->sr[hd_ring_pop(&l->notices)].r.tag;
    return n;
}

#define ACCT_S(l, s, field, v)                                                                     \
    do {                                                                                           \
        (l)->st->sm[(l)->sm].field += (v);                                                         \
        (l)->st->kernel[(s)->kidx].field += (v);                                                   \
        (l)->st->cls[(s)->r.cls].field += (v);                                                     \
    } while (0)

/* Data-port cycles of a hit of `bytes` (Lin Sec. 3.4.1; the monitor's measure only). */
static uint64_t port_beats(uint32_t port_bytes, uint32_t bytes)
{
    const uint64_t c = port_bytes ? (bytes + (uint64_t)port_bytes - 1) / port_bytes : 1;
    return c ? c : 1;
}

static int direct(struct hd_l1 *l, uint32_t i, uint8_t type, uint64_t a, uint32_t b, uint64_t now)
{
    if (!missq_room(l))
        return PIECE_WAIT_MQ;
    new_txn(l, &l->sr[i], type, HD_TXO_DIRECT, i, a, b, now);
    return PIECE_DONE;
}

/* A cacheable read at tags/mshr (L1D or constant cache). */
static int cached_read(struct hd_l1 *l, uint32_t i, bool constant, uint64_t a, uint32_t b,
                       uint64_t now)
{
    struct hd_tags *tg = constant ? &l->c : &l->d;
    struct hd_mshr *m = constant ? &l->mc : &l->md;
    const struct hd_l1_sreq *s = &l->sr[i];
    const uint64_t need = hd_tags_sectors(tg, a, b);
    const uint32_t e = hd_tags_find(tg, a);
    if (e != HD_TAGS_NONE && (tg->valid[e] & need) == need) {
        hd_tags_touch(tg, e);
        if (constant) {
            ACCT_S(l, s, l1c_reads, 1);
            ACCT_S(l, s, l1c_hits, 1);
        } else {
            ACCT_S(l, s, l1d_reads, 1);
            ACCT_S(l, s, l1d_read_hits, 1);
            ACCT_S(l, s, l1d_hit_port, port_beats(l->p->l1d.port_bytes, b));
        }
        const uint32_t lat = constant                           ? l->p->l1c.latency
                             : l->p->l1d.lookup_after_latency ? 1 /* waited before */
                                                              : l->p->l1d.c.latency;
        piece_done(l, i, now + lat - 1, HD_LVL_L1, now);
        return PIECE_DONE;
    }
    const uint64_t line = hd_tags_line(tg, a);
    uint32_t k = hd_mshr_find(m, line);
    if (k != HD_MSHR_NONE) {
        if (!hd_mshr_has_room(m, k))
            return PIECE_WAIT_MSHR;
        hd_mshr_add(m, k, i);
        if (constant) {
            ACCT_S(l, s, l1c_reads, 1);
        } else {
            miss_notice(l, i);
            ACCT_S(l, s, l1d_reads, 1);
            ACCT_S(l, s, l1d_mshr_merges, 1);
            if (l->obs && l->obs->mshr_merge)
                l->obs->mshr_merge(l->obs->ctx, l->sm, line << tg->shift, s->r.kernel, now);
        }
        return PIECE_DONE;
    }
    if (hd_mshr_full(m))
        return PIECE_WAIT_MSHR;
    if (!missq_room(l))
        return PIECE_WAIT_MQ;
    if (!constant && l->p->l1d.allocate_on_miss) { /* reserve the way now (GPGPU-Sim 'm') */
        uint32_t v = e != HD_TAGS_NONE ? e : hd_tags_victim_unreserved(tg, a);
        if (v == HD_TAGS_NONE)
            return PIECE_WAIT_MSHR; /* every way of the set awaits its data */
        if (v != e) {
            if (tg->tag[v] && tg->dirty[v]) {
                if (l->missq.count + 1 >= l->p->l1d.miss_queue)
                    return PIECE_WAIT_MQ; /* room for the write-back and the miss */
                write_back(l, s, v, now);
            }
            hd_tags_install(tg, v, a);
        }
    }
    k = hd_mshr_alloc(m, line, now);
    hd_mshr_add(m, k, i);
    new_txn(l, s, HD_TXN_READ, constant ? HD_TXO_L1C : HD_TXO_L1D, k, line << tg->shift,
            tg->line, now);
    if (constant) {
        ACCT_S(l, s, l1c_reads, 1);
    } else {
        miss_notice(l, i);
        ACCT_S(l, s, l1d_reads, 1);
        ACCT_S(l, s, l1d_mshr_allocs, 1);
        bool dup = hd_mem_stats_dup(l->st, line << tg->shift, l->sm, now);
        if (dup)
            ACCT_S(l, s, l1d_dup_mshr, 1);
        if (l->obs && l->obs->mshr_alloc)
            l->obs->mshr_alloc(l->obs->ctx, l->sm, line << tg->shift, s->r.kernel, dup, now);
    }
    return PIECE_DONE;
}

static int local_store(struct hd_l1 *l, uint32_t i, uint64_t a, uint32_t b, uint64_t now)
{
    const struct hd_l1_sreq *s = &l->sr[i];
    const uint64_t need = hd_tags_sectors(&l->d, a, b);
    uint32_t e = hd_tags_find(&l->d, a);
    if (e != HD_TAGS_NONE) {
        ACCT_S(l, s, l1d_write_hits, 1);
        ACCT_S(l, s, l1d_hit_port, port_beats(l->p->l1d.port_bytes, b));
    } else {
        e = hd_tags_victim(&l->d, a);
        if (l->d.tag[e] && l->d.dirty[e])
            write_back(l, s, e, now);
        hd_tags_install(&l->d, e, a);
    }
    hd_tags_touch(&l->d, e);
    l->d.valid[e] |= need;
    l->d.dirty[e] |= need;
    ACCT_S(l, s, l1d_writes, 1);
    piece_done(l, i, l->p->l1d.lookup_after_latency ? now : now + l->p->l1d.c.latency - 1,
               HD_LVL_L1, now);
    return PIECE_DONE;
}

static int global_write(struct hd_l1 *l, uint32_t i, uint8_t type, uint64_t a, uint32_t b,
                        uint64_t now)
{
    if (!missq_room(l))
        return PIECE_WAIT_MQ;
    const struct hd_l1_sreq *s = &l->sr[i];
    uint32_t e = hd_tags_find(&l->d, a);
    if (e != HD_TAGS_NONE) { /* write-evict (a dirty local line cannot be here: global) */
        if (l->d.dirty[e])
            write_back(l, s, e, now);
        hd_tags_invalidate(&l->d, e);
        if (type == HD_TXN_WRITE)
            ACCT_S(l, s, l1d_write_hits, 1);
    }
    if (type == HD_TXN_WRITE)
        ACCT_S(l, s, l1d_writes, 1);
    else
        ACCT_S(l, s, atomics, 1);
    new_txn(l, s, type, HD_TXO_DIRECT, i, a, b, now);
    return PIECE_DONE;
}

static int look_up(struct hd_l1 *l, uint32_t i, uint64_t a, uint32_t b, bool bypass,
                   uint64_t now)
{
    switch (l->sr[i].cls) {
    case CL_IFETCH:
        if (!missq_room(l))
            return PIECE_WAIT_MQ;
        ACCT_S(l, &l->sr[i], ifetch, 1);
        return direct(l, i, HD_TXN_READ, a, b, now);
    case CL_CONST:
        return cached_read(l, i, true, a, b, now);
    case CL_LOAD_G:
        if (bypass) {
            int r = direct(l, i, HD_TXN_READ, a, b, now);
            if (r == PIECE_DONE) {
                miss_notice(l, i);
                ACCT_S(l, &l->sr[i], l1d_bypass, 1);
            }
            return r;
        }
        return cached_read(l, i, false, a, b, now);
    case CL_LOAD_L:
        return cached_read(l, i, false, a, b, now);
    case CL_STORE_L:
        return local_store(l, i, a, b, now);
    case CL_STORE_G:
        return global_write(l, i, HD_TXN_WRITE, a, b, now);
    default:
        return global_write(l, i, HD_TXN_ATOMIC, a, b, now);
    }
}

bool hd_l1_access(struct hd_l1 *l, uint64_t now)
{
    bool progress = false;
    for (uint32_t port = 0; port < l->p->l1d.ports && l->inq.count && !l->oom; port++) {
        const uint32_t i = hd_ring_peek(&l->inq, 0);
        const struct hd_l1_sreq *s = &l->sr[i];
        /* Still in the L1 latency queue (requests leave it in order). GPGPU-Sim's
         * ldst_unit::memory_cycle puts an access sent in cycle t into slot latency-1 after that
         * cycle's queue step, and each step looks up slot 0 before shifting: the lookup is at
         * t + latency, where a hit releases its registers for that cycle's issue. Here the SM
         * sends in its tick t, the memory ticks before the SMs: the tick of t + latency looks
         * up and the SM takes the hit in the same cycle. */
        if (l->p->l1d.lookup_after_latency && s->cls != CL_CONST && s->cls != CL_IFETCH &&
            now < s->r.issue_cycle + l->p->l1d.c.latency)
            break;
        const bool bypass = s->bypass;
        const uint32_t line = piece_line(l, s->cls, bypass);
        const uint64_t end = s->r.addr + (s->r.bytes ? s->r.bytes : 1);
        uint64_t a = s->r.addr + l->head_off;
        uint64_t lend = (a / line + 1) * line;
        uint32_t b = (uint32_t)((end < lend ? end : lend) - a);
        uint64_t ta = a;
        uint32_t tb = b;
        if (s->smask) { /* the line's touched sectors, trimmed to a 32/64/128... block */
            uint64_t m;
            while ((m = line_sectors(s, a, line)) == 0) { /* untouched line: nothing */
                a = lend;
                lend += line;
            }
            l->head_off = (uint32_t)(a - s->r.addr);
            b = (uint32_t)((end < lend ? end : lend) - a);
            hd_mem_segment_trim(a - a % line, line, m, &ta, &tb);
        }
        int r = look_up(l, i, ta, tb, bypass, now);
        if (r == PIECE_WAIT_MSHR) {
            ACCT_S(l, &l->sr[i], l1d_stall_mshr, 1);
            break;
        }
        if (r == PIECE_WAIT_MQ) {
            ACCT_S(l, &l->sr[i], l1d_stall_missq, 1);
            break;
        }
        progress = true;
        l->head_off += b;
        while (s->smask && s->r.addr + l->head_off < end &&
               !line_sectors(s, s->r.addr + l->head_off, line))
            l->head_off += line - (uint32_t)((s->r.addr + l->head_off) % line);
        if (s->r.addr + l->head_off >= end) {
            hd_ring_pop(&l->inq);
            l->head_off = 0;
        }
    }
    return progress;
}
/* }==== */

/* {==== Fills ==== */
static void fill_line(struct hd_l1 *l, bool constant, const struct hd_txn *t, uint64_t now)
{
    struct hd_tags *tg = constant ? &l->c : &l->d;
    struct hd_mshr *m = constant ? &l->mc : &l->md;
    const uint32_t k = t->ref;
    const uint64_t addr = t->addr;
    const uint8_t level = t->level;
    uint32_t e = hd_tags_find(tg, addr);
    if (e == HD_TAGS_NONE) {
        e = hd_tags_victim(tg, addr);
        if (tg->tag[e] && tg->dirty[e])
            write_back(l, &l->sr[hd_mshr_waiters(m, k)[0]], e, now);
        hd_tags_install(tg, e, addr);
    }
    tg->valid[e] = hd_tags_all(tg);
    if (!constant && l->obs && l->obs->mshr_fill)
        l->obs->mshr_fill(l->obs->ctx, l->sm, addr, m->count[k], now);
    const uint32_t n = m->count[k];
    const uint32_t *w = hd_mshr_waiters(m, k);
    const uint64_t when = l->p->l1d.miss_writeback ? HD_L1_WRITEBACK : now;
    for (uint32_t j = 0; j < n; j++)
        piece_done(l, w[j], when, level, now);
    hd_mshr_release(m, k);
}

bool hd_l1_fill(struct hd_l1 *l, uint64_t now)
{
    if (!l->eject.count)
        return false;
    const uint32_t id = hd_ring_pop(&l->eject);
    struct hd_txn *tp = hd_txn_get(l->pool, id);
    const uint32_t parts = hd_l2_reply_parts(l->p, tp);
    if (parts > 1 && ++tp->rep_got < parts)
        return true; /* one sector packet of a reply: this cycle's response slot */
    const struct hd_txn t = *tp; /* fill_line may grow the pool */
    hd_txn_release(l->pool, id);
    switch (t.origin) {
    case HD_TXO_L1D:
        fill_line(l, false, &t, now);
        break;
    case HD_TXO_L1C:
        fill_line(l, true, &t, now);
        break;
    default: { /* a bypassing load or an atomic returns data through the writeback register */
        const uint8_t cl = l->sr[t.ref].cls;
        const bool data = cl == CL_LOAD_G || cl == CL_LOAD_L || cl == CL_ATOMIC;
        piece_done(l, t.ref, data && l->p->l1d.miss_writeback ? HD_L1_WRITEBACK : now, t.level,
                   now);
        break;
    }
    }
    return true;
}
/* }==== */

bool hd_l1_active(const struct hd_l1 *l)
{
    return l->inq.count || l->eject.count || l->missq.count || l->done.count;
}

uint64_t hd_l1_next_time(const struct hd_l1 *l)
{
    uint64_t a = hd_delay_head_time(&l->hit_d), b = hd_delay_head_time(&l->hit_c);
    const uint64_t c = hd_delay_head_time(&l->wb);
    a = a < b ? a : b;
    return a < c ? a : c;
}

int hd_l1_describe(const struct hd_l1 *l, char *buf, size_t len)
{
    if (!l->pending && !l->missq.count && !l->eject.count)
        return 0;
    return snprintf(buf, len,
                    "; SM %u: %u requests pending (%u queued, %u MSHRs, %u in miss queue, %u "
                    "replies waiting)",
                    l->sm, l->pending, l->inq.count, l->md.used, l->missq.count, l->eject.count);
}

/* {==== Reserved ways (l1_reserve.c) ==== */
void hd_l1_write_back_entry(struct hd_l1 *l, uint32_t e, uint32_t kernel, uint8_t cls,
                            uint64_t now)
{
    struct hd_l1_sreq s = {0};
    s.r.kernel = kernel;
    s.r.cls = cls < HD_MCLASS_COUNT ? cls : HD_MCLASS_DEMAND;
    s.kidx = hd_mem_stats_kernel(l->st, kernel);
    write_back(l, &s, e, now);
}
/* }==== */
