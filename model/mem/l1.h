/* SPDX-License-Identifier: MIT
 * l1.h - the memory side of one SM: its L1 data cache, constant cache and miss queue, the
 * requests the SM sent and their completions. Runs in the core clock.
 *
 * Design. The SM's requests (mem_iface.h) wait in an input queue of `queue` entries; the L1
 * looks up `ports` pieces per cycle (a piece = the part of a request inside one line of the
 * structure serving it), in order:
 *   global/local load    L1D hit: completes `latency` cycles after the request reached the L1;
 *                        miss: merges into the line's MSHR entry (up to mshr_merge requests) or
 *                        allocates one and queues a line fill; if neither is possible, waits;
 *   bypassed global load (ld.cg/ld.cv: HD_MEMF_BYPASS_L1; or per kernel, see mem_full.h) goes
 *                        to the miss queue as trimmed transactions (below);
 *   global store         write-evict: a present line is invalidated; the store is written
 *                        through and completes when the L2 acknowledges it;
 *   local store          write-back, write-allocate: the written sectors become valid and
 *                        dirty (no fetch); completes like a hit; a dirty victim is written back;
 *   atomic               invalidates the line and goes to the L2, which performs it;
 *   constant / param     the constant cache (hit after its latency; misses fill 'line' bytes);
 *   instruction fetch    an L1I miss of the SM: straight to the miss queue.
 * Uncached accesses (bypassed loads, global stores, atomics) leave as one transaction per L2
 * line the warp touched, trimmed by hd_mem_segment_trim() (coalesce.h) to the 32/64/128-byte
 * block of the sectors in the request's mask.
 * Everything below the L1 travels as transactions (mem_txn.h) through the miss queue (bounded
 * at miss_queue for new requests; write-backs of evicted lines always fit). Replies come back
 * through an ejection buffer filled by the reply network; one is taken per cycle: a line fill
 * installs the line and completes every request merged in its MSHR entry. A request completes
 * when all its pieces have; completions are handed back in order of completion time.
 */
#ifndef HD_L1_H
#define HD_L1_H

#include "mem_iface.h"
#include "cache_tags.h"
#include "mem_observer.h"
#include "mem_params.h"
#include "mem_stats.h"
#include "mem_txn.h"
#include "mshr.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* State-space numbers carried in hd_mem_req.space (enum hd_space of model/ptx/ptx_ir.h; a unit
 * test checks that they agree). */
enum { HD_MSPACE_NONE = 0, HD_MSPACE_GLOBAL = 1, HD_MSPACE_LOCAL = 3, HD_MSPACE_PARAM = 4,
       HD_MSPACE_CONST = 5 };

struct hd_l1_sreq {
    struct hd_mem_req r;
    uint64_t t_done;    /* latest completion time of its pieces so far */
    uint32_t pending;   /* pieces not yet complete */
    uint32_t kidx;
    uint32_t next_free;
    uint8_t cls, level;
    bool bypass;        /* a global load that skips the L1 (decided when sent) */
    bool noticed;       /* its L1D miss notice was queued (hd_l1_miss_notices) */
    uint64_t smask;     /* sectors to send (sectored requests with a mask), 0 = every one */
};

struct hd_l1 {
    const struct hd_mem_params *p;
    uint32_t sm;
    struct hd_txn_pool *pool;
    struct hd_mem_stats *st;
    const struct hd_mem_observer *obs;
    bool (*bypass)(void *ctx, uint32_t kidx);
    void *bypass_ctx;
    struct hd_tags d, c;
    struct hd_mshr md, mc;
    struct hd_l1_sreq *sr;
    uint32_t sr_cap, sr_free;
    struct hd_ring inq;        /* sreq ids */
    uint32_t head_off;         /* bytes of the head request already looked up */
    struct hd_delay hit_d, hit_c;
    struct hd_delay wb;        /* sreq ids completing through the writeback register */
    uint64_t wb_free;          /* [l1d] miss_writeback: its first free cycle */
    struct hd_ring done;       /* sreq ids completed by fills and acknowledgements */
    struct hd_ring missq;      /* txn ids */
    uint32_t missq_other;      /* entries of a non-demand traffic class (mem_iface.h) */
    struct hd_ring eject;      /* txn ids (replies) */
    uint32_t pending;          /* accepted, not yet received */
    bool oom;
    bool notify;               /* queue L1D miss notices of loads (off: none, no cost) */
    struct hd_ring notices;    /* sreq ids of loads that missed, for the SM (mem_iface.h) */
};

/* piece_done()'s `when` for a completion through the writeback register ([l1d] miss_writeback) */
#define HD_L1_WRITEBACK UINT64_MAX

int hd_l1_init(struct hd_l1 *l, const struct hd_mem_params *p, uint32_t sm,
               struct hd_txn_pool *pool, struct hd_mem_stats *st,
               const struct hd_mem_observer *obs, bool (*bypass)(void *ctx, uint32_t kidx),
               void *bypass_ctx);
void hd_l1_free(struct hd_l1 *l);
/* Drop everything in flight (cache contents stay). */
void hd_l1_reset(struct hd_l1 *l);
static inline bool hd_l1_can_send(const struct hd_l1 *l)
{
    return !l->oom && !hd_ring_full(&l->inq);
}
bool hd_l1_send(struct hd_l1 *l, const struct hd_mem_req *r, uint64_t now);
unsigned hd_l1_recv(struct hd_l1 *l, struct hd_mem_req *out, unsigned max, uint64_t now);
/* Up to max L1D miss notices (the missed loads' tags), oldest first (mem_iface.h). */
unsigned hd_l1_miss_notices(struct hd_l1 *l, uint64_t *tags, unsigned max);
/* Take one reply from the ejection buffer. */
bool hd_l1_fill(struct hd_l1 *l, uint64_t now);
/* Look up to `ports` pieces. */
bool hd_l1_access(struct hd_l1 *l, uint64_t now);
/* Work that needs the next cycle? */
bool hd_l1_active(const struct hd_l1 *l);
/* Earliest completion time of a hit in flight (UINT64_MAX if none). */
uint64_t hd_l1_next_time(const struct hd_l1 *l);
int hd_l1_describe(const struct hd_l1 *l, char *buf, size_t len);
/* Write back the dirty sectors of L1D entry e as a transaction of class cls for launch kernel
 * (l1_reserve.c: the lines of ways reserved for contexts). */
void hd_l1_write_back_entry(struct hd_l1 *l, uint32_t e, uint32_t kernel, uint8_t cls,
                            uint64_t now);

#endif
