/* SPDX-License-Identifier: MIT
 * mem_txn.c - transaction pool, FIFOs of ids and delay lines (see mem_txn.h).
 */
#include "mem_txn.h"

#include <stdlib.h>
#include <string.h>

/* {==== Pool ==== */
static int pool_grow(struct hd_txn_pool *p, uint32_t cap)
{
    struct hd_txn *t = realloc(p->t, (size_t)cap * sizeof *t);
    if (!t)
        return -1;
    p->t = t;
    for (uint32_t i = cap; i-- > p->cap;) {
        t[i].next = p->free;
        p->free = i;
    }
    p->cap = cap;
    return 0;
}

int hd_txn_pool_init(struct hd_txn_pool *p, uint32_t cap)
{
    memset(p, 0, sizeof *p);
    p->free = HD_TXN_NONE;
    return pool_grow(p, cap ? cap : 64);
}

void hd_txn_pool_free(struct hd_txn_pool *p)
{
    free(p->t);
    memset(p, 0, sizeof *p);
}

uint32_t hd_txn_alloc(struct hd_txn_pool *p)
{
    if (p->free == HD_TXN_NONE && (p->cap > 0x7fffffffu || pool_grow(p, p->cap * 2) != 0))
        return HD_TXN_NONE;
    uint32_t id = p->free;
    p->free = p->t[id].next;
    memset(&p->t[id], 0, sizeof p->t[id]);
    p->t[id].next = HD_TXN_NONE;
    p->used++;
    return id;
}

void hd_txn_release(struct hd_txn_pool *p, uint32_t id)
{
    p->t[id].next = p->free;
    p->free = id;
    p->used--;
}
/* }==== */

/* {==== Ring ==== */
int hd_ring_init(struct hd_ring *r, uint32_t limit, uint32_t initial)
{
    memset(r, 0, sizeof *r);
    r->limit = limit;
    r->cap = limit ? limit : (initial ? initial : 16);
    r->buf = malloc((size_t)r->cap * sizeof *r->buf);
    return r->buf ? 0 : -1;
}

void hd_ring_free(struct hd_ring *r)
{
    free(r->buf);
    memset(r, 0, sizeof *r);
}

static bool ring_grow(struct hd_ring *r)
{
    uint32_t ncap = r->cap * 2;
    uint32_t *b = malloc((size_t)ncap * sizeof *b);
    if (!b)
        return false;
    for (uint32_t i = 0; i < r->count; i++)
        b[i] = hd_ring_peek(r, i);
    free(r->buf);
    r->buf = b;
    r->cap = ncap;
    r->head = 0;
    return true;
}

bool hd_ring_push(struct hd_ring *r, uint32_t v)
{
    if (r->count == r->cap && !ring_grow(r))
        return false;
    uint32_t k = r->head + r->count;
    r->buf[k >= r->cap ? k - r->cap : k] = v;
    r->count++;
    return true;
}

uint32_t hd_ring_pop(struct hd_ring *r)
{
    uint32_t v = r->buf[r->head];
    r->head = r->head + 1 == r->cap ? 0 : r->head + 1;
    r->count--;
    return v;
}

uint32_t hd_ring_take(struct hd_ring *r, uint32_t i)
{
    if (i == 0)
        return hd_ring_pop(r);
    uint32_t v = hd_ring_peek(r, i);
    for (uint32_t j = i; j + 1 < r->count; j++) {
        uint32_t a = r->head + j, b = a + 1;
        r->buf[a % r->cap] = r->buf[b % r->cap];
    }
    r->count--;
    return v;
}
/* }==== */

/* {==== Delay line ==== */
int hd_delay_init(struct hd_delay *d, uint32_t initial)
{
    memset(d, 0, sizeof *d);
    d->cap = initial ? initial : 16;
    d->buf = malloc((size_t)d->cap * sizeof *d->buf);
    return d->buf ? 0 : -1;
}

void hd_delay_free(struct hd_delay *d)
{
    free(d->buf);
    memset(d, 0, sizeof *d);
}

bool hd_delay_push(struct hd_delay *d, uint64_t ready, uint32_t id)
{
    if (d->count == d->cap) {
        uint32_t ncap = d->cap * 2;
        struct hd_delay_item *b = malloc((size_t)ncap * sizeof *b);
        if (!b)
            return false;
        for (uint32_t i = 0; i < d->count; i++)
            b[i] = d->buf[(d->head + i) % d->cap];
        free(d->buf);
        d->buf = b;
        d->cap = ncap;
        d->head = 0;
    }
    d->buf[(d->head + d->count) % d->cap] = (struct hd_delay_item){ready, id};
    d->count++;
    return true;
}

uint32_t hd_delay_pop(struct hd_delay *d)
{
    uint32_t id = d->buf[d->head].id;
    d->head = d->head + 1 == d->cap ? 0 : d->head + 1;
    d->count--;
    return id;
}
/* }==== */
