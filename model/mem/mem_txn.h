/* SPDX-License-Identifier: MIT
 * mem_txn.h - the transactions that travel below the L1 (a line fill, a write-through, an
 * atomic, a write-back, an instruction fetch), their pool, and the two queue shapes the units
 * use: bounded or growing FIFOs of transaction ids, and delay lines of (ready time, id).
 *
 * Design: one pool per memory system holds every transaction; units pass 32-bit ids through
 * their queues, so a transaction is never copied and its fields (address decode, owner,
 * timestamps for the accounting) are written once. The pool grows by doubling and recycles ids
 * through a free list, so after warm-up nothing is allocated per request. A delay line is a FIFO
 * whose entries become visible at their ready time; because each line adds one constant delay
 * in one clock domain, ready times are non-decreasing and only the head needs checking.
 */
#ifndef HD_MEM_TXN_H
#define HD_MEM_TXN_H

#include <stdbool.h>
#include <stdint.h>

#define HD_TXN_NONE 0xffffffffu

enum hd_txn_type { HD_TXN_READ, HD_TXN_WRITE, HD_TXN_ATOMIC, HD_TXN_WRITEBACK };
/* Who waits for the reply at the SM. */
enum hd_txn_origin {
    HD_TXO_L1D,    /* an L1D line fill: ref = MSHR entry */
    HD_TXO_L1C,    /* a constant-cache line fill: ref = MSHR entry */
    HD_TXO_DIRECT, /* a bypassing load, store, atomic or fetch: ref = the SM request */
    HD_TXO_NONE    /* a write-back: no reply */
};
/* Where a read was served (latency histograms). */
enum hd_mem_level { HD_LVL_L1, HD_LVL_L2, HD_LVL_DRAM, HD_LVL_COUNT };

struct hd_txn {
    uint64_t addr;       /* first byte */
    uint64_t local;      /* the L2 slice's address */
    uint64_t t_queue;    /* when it entered its current queue (that queue's clock), for waits */
    uint64_t t_start;    /* core cycle it left the L1 (end-to-end latency) */
    uint32_t bytes;
    uint32_t kernel;     /* launch id */
    uint32_t kidx;       /* dense per-kernel statistics index */
    uint32_t ref;        /* see enum hd_txn_origin */
    uint32_t next;       /* link: free list, L2 MSHR waiters */
    uint32_t row;
    uint16_t sm, slice, bank, channel;
    uint8_t type, origin, level;
    uint8_t cls;         /* traffic class (enum hd_mem_class, mem_iface.h) */
    uint8_t flits;       /* of the packet it currently travels as */
    uint8_t sealed;      /* a DRAM request whose size the controller has taken (dram.c) */
    uint8_t rep_sent;    /* [l2] sector_replies: sector packets of its reply injected */
    uint8_t rep_got;     /*   ... and received by the SM */
    uint64_t sectors;    /* a DRAM read of an L2 line: the 32-byte sectors it fetches */
};

struct hd_txn_pool {
    struct hd_txn *t;
    uint32_t cap, free, used;
};

int hd_txn_pool_init(struct hd_txn_pool *p, uint32_t cap);
void hd_txn_pool_free(struct hd_txn_pool *p);
/* A new zeroed transaction's id, or HD_TXN_NONE when the host is out of memory. */
uint32_t hd_txn_alloc(struct hd_txn_pool *p);
void hd_txn_release(struct hd_txn_pool *p, uint32_t id);
static inline struct hd_txn *hd_txn_get(struct hd_txn_pool *p, uint32_t id)
{
    return &p->t[id];
}

/* {==== FIFO of ids ==== */
struct hd_ring {
    uint32_t *buf;
    uint32_t cap, head, count;
    uint32_t limit;      /* logical capacity (full() compares with it); 0 = grows */
};

int hd_ring_init(struct hd_ring *r, uint32_t limit, uint32_t initial);
void hd_ring_free(struct hd_ring *r);
bool hd_ring_push(struct hd_ring *r, uint32_t v); /* false only on host out-of-memory */
static inline bool hd_ring_full(const struct hd_ring *r)
{
    return r->limit && r->count >= r->limit;
}
static inline uint32_t hd_ring_peek(const struct hd_ring *r, uint32_t i)
{
    uint32_t k = r->head + i;
    return r->buf[k >= r->cap ? k - r->cap : k];
}
uint32_t hd_ring_pop(struct hd_ring *r);
/* Remove element i (0 = head), keeping the order of the others. */
uint32_t hd_ring_take(struct hd_ring *r, uint32_t i);
/* }==== */

/* {==== Delay line ==== */
struct hd_delay_item {
    uint64_t ready;
    uint32_t id;
};

struct hd_delay {
    struct hd_delay_item *buf;
    uint32_t cap, head, count;
};

int hd_delay_init(struct hd_delay *d, uint32_t initial);
void hd_delay_free(struct hd_delay *d);
bool hd_delay_push(struct hd_delay *d, uint64_t ready, uint32_t id);
/* The head's id if it is ready at `now`, else HD_TXN_NONE (nothing removed). */
static inline uint32_t hd_delay_ready(const struct hd_delay *d, uint64_t now)
{
    return d->count && d->buf[d->head].ready <= now ? d->buf[d->head].id : HD_TXN_NONE;
}
static inline uint64_t hd_delay_head_time(const struct hd_delay *d)
{
    return d->count ? d->buf[d->head].ready : UINT64_MAX;
}
uint32_t hd_delay_pop(struct hd_delay *d);
/* }==== */

#endif
