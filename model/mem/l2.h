/* SPDX-License-Identifier: MIT
 * l2.h - one L2 cache slice (the cache of one memory sub-partition), in the L2 clock.
 *
 * Design (GPGPU-Sim's memory sub-partition): requests from the crossbar first cross a fixed
 * delay (`latency`, the ROP latency), then wait in an input queue of `input_queue` entries (the
 * crossbar delivers only while it has room). One request is looked up per L2 cycle, in order:
 *   read     hit (all its sectors valid): a reply carrying the data goes to the output queue;
 *            miss: merges into the MSHR entry of its line if the entry has room, else takes a
 *            new entry; either way the sectors it needs that the entry has not yet asked for
 *            are read from DRAM (added to the entry's newest DRAM read while that read waits
 *            out the fixed DRAM delay, else a new read); with neither, the queue waits;
 *   atomic   like a read (the read-modify-write happens here); the line becomes dirty;
 *   write    write-back, write-allocate: the written sectors become valid and dirty (a missing
 *            line is allocated without fetching it), and a write-through store gets an
 *            acknowledgement; an L1 write-back gets none;
 * Evicting a line with dirty sectors sends a DRAM write of those sectors. A DRAM fill makes its
 * sectors valid (allocating the line if needed, keeping sectors written meanwhile) and queues
 * the MSHR waiters whose sectors have all arrived for replies, which leave one per cycle while
 * the output queue has room; the entry ends when all its DRAM reads have returned. The data array moves `port_bytes` per
 * cycle, so a 128-byte reply holds it for 4 cycles. The slice indexes with the slice-local
 * address (addrmap.h). DRAM-bound requests wait in `to_dram` for the owner to hand them to the
 * channel; replies wait in `outq` for the reply network. With `dram_queue` > 0 `to_dram` is
 * GPGPU-Sim's L2-to-DRAM queue: while it holds `dram_queue` requests the slice looks nothing
 * up (memory_sub_partition::cache_cycle tries an access only while m_L2_dram_queue is not
 * full), so a saturated channel stalls the L2 hits queued behind its misses; the owner drains
 * it at the channel's pace (mem_full.c). A fill's write-back may push it past the bound (the
 * fill never waits).
 * With `sector_replies` (GPGPU-Sim 4: memory_sub_partition::push breaks every request to a
 * sectored L2 into 32-byte sector requests, each answered by its own packet, and an L1 with
 * sector MSHRs waits for all of a line's sectors, a store for one acknowledgement per sector)
 * a reply leaves as one packet per sector it covers: a read's carry 32 bytes each, a write's
 * acknowledgement is that many header-only packets; the SM takes them one per cycle like any
 * reply and completes the fill or store with the last (hd_l2_reply_parts).
 */
#ifndef HD_L2_H
#define HD_L2_H

#include "cache_tags.h"
#include "mem_params.h"
#include "mem_stats.h"
#include "mem_txn.h"
#include "mshr.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct hd_l2 {
    const struct hd_mem_params *p;
    uint32_t id;
    struct hd_txn_pool *pool;
    struct hd_mem_stats *st;
    struct hd_delay rop;
    struct hd_ring inq, outq, fillq, ready, to_dram;
    struct hd_tags tags;
    struct hd_mshr mshr;
    uint64_t *fetched, *arrived; /* [mshr entries] sectors asked of / returned by the DRAM */
    uint32_t *dram_rd;           /* [mshr entries] its newest DRAM read, HD_TXN_NONE when sealed */
    uint64_t port_free;
    uint64_t stall_cycles;
};

int hd_l2_init(struct hd_l2 *s, const struct hd_mem_params *p, uint32_t id,
               struct hd_txn_pool *pool, struct hd_mem_stats *st);
void hd_l2_free(struct hd_l2 *s);
void hd_l2_reset(struct hd_l2 *s);
/* May the crossbar deliver one more request (counting `in_flight` already on the way)? */
static inline bool hd_l2_can_accept(const struct hd_l2 *s, unsigned in_flight)
{
    return s->inq.count + in_flight < s->inq.limit;
}
/* A request arrived from the crossbar; `now` is the last L2 cycle run. */
bool hd_l2_arrive(struct hd_l2 *s, uint32_t id, uint64_t now);
/* A DRAM read of a line of this slice returned. */
bool hd_l2_fill(struct hd_l2 *s, uint32_t id);
/* One L2 cycle. Returns true if anything moved. */
bool hd_l2_tick(struct hd_l2 *s, uint64_t now);
/* Work that needs the next cycle? */
bool hd_l2_active(const struct hd_l2 *s);
int hd_l2_describe(const struct hd_l2 *s, char *buf, size_t len);

/* Packets the reply of t travels as: with sector_replies one per 32-byte sector of its bytes,
 * else one. */
static inline uint32_t hd_l2_reply_parts(const struct hd_mem_params *p, const struct hd_txn *t)
{
    if (!p->l2.sector_replies || t->bytes <= 32)
        return 1;
    const uint64_t first = t->addr / 32, last = (t->addr + t->bytes - 1) / 32;
    const uint64_t n = last - first + 1;
    return n < 255 ? (uint32_t)n : 255;
}

/* Payload bytes of part k of t's read reply split into `parts` (the bytes of its k-th sector;
 * the whole payload when parts is 1). */
static inline uint32_t hd_l2_part_bytes(const struct hd_txn *t, uint32_t parts, uint32_t k)
{
    if (parts <= 1)
        return t->bytes;
    const uint64_t lo = (t->addr / 32 + k) * 32, hi = lo + 32, end = t->addr + t->bytes;
    const uint64_t a = lo > t->addr ? lo : t->addr, b = hi < end ? hi : end;
    return b > a ? (uint32_t)(b - a) : 0;
}

#endif
