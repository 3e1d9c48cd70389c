/* SPDX-License-Identifier: MIT
 * zorua_mt.c - a Zorua mapping table over the zorua_map block's C reference (zorua_mt.h; Zorua
 * Sec. 4.2-4.3; tables/zorua_map.h).
 */
#include "zorua_mt.h"

#include <stdlib.h>
#include <string.h>

static unsigned clog2(uint64_t n) /* bits to index n values, at least 1 */
{
    unsigned b = 1;
    while ((1ull << b) < n)
        b++;
    return b;
}

int zmt_init(struct zmt *t, uint32_t nids, uint32_t nsets, uint32_t nphys)
{
    memset(t, 0, sizeof *t);
    const uint64_t entries = (uint64_t)nids * nsets, most = entries > nphys ? entries : nphys;
    const struct hd_zorua_map_cfg c = {nids, clog2(nids), nsets, clog2(nsets), nphys,
                                       clog2(nphys), clog2(most + 1)};
    if (!nids || !nsets || !(t->m = malloc(sizeof *t->m)) ||
        hd_zorua_map_ref_init(t->m, &c, NULL, 0) != 0) {
        zmt_free(t);
        return -1;
    }
    t->nids = nids;
    t->nsets = nsets;
    t->nphys = nphys;
    t->pbits = c.pw;
    t->nfree = nphys;
    return 0;
}

void zmt_free(struct zmt *t)
{
    free(t->m);
    free(t->jr);
    memset(t, 0, sizeof *t);
}

/* {==== The journal ==== */
int zmt_journal_on(struct zmt *t)
{
    if (t->jr)
        return 0;
    t->jcap = 64;
    t->jr = calloc(t->jcap, sizeof *t->jr);
    return t->jr ? 0 : -1;
}

static void journal(struct zmt *t, const struct hd_zorua_map_in *in)
{
    if (t->jn == t->jcap) { /* grow the ring, oldest first */
        struct zmt_rec *n = calloc((size_t)t->jcap * 2, sizeof *n);
        if (!n) { /* the check stops with it (zorua_maploop.c) */
            t->joom = true;
            return;
        }
        for (uint32_t i = 0; i < t->jn; i++)
            n[i] = t->jr[(t->jhead + i) % t->jcap];
        free(t->jr);
        t->jr = n;
        t->jhead = 0;
        t->jcap *= 2;
    }
    struct zmt_rec *r = &t->jr[(t->jhead + t->jn++) % t->jcap];
    r->in = *in;
    r->out = t->m->q; /* what the block's output registers hold after the edge */
}

const struct zmt_rec *zmt_journal_peek(const struct zmt *t)
{
    return t->jn ? &t->jr[t->jhead] : NULL;
}

void zmt_journal_pop(struct zmt *t)
{
    if (t->jn) {
        t->jhead = (t->jhead + 1) % t->jcap;
        t->jn--;
    }
}
/* }==== */

/* One edge of the block with update op `op` on (id, set) under swap limit lim: true when done. */
static bool edge(struct zmt *t, unsigned op, uint32_t id, uint32_t set, uint32_t lim)
{
    const uint64_t most = (1ull << t->m->cfg.cnt_w) - 1u;
    struct hd_zorua_map_in in = {0};
    struct hd_zorua_map_out out;
    in.op_i = op;
    in.row_i = id;
    in.set_i = set;
    in.lim_i = lim < most ? lim : most;
    hd_zorua_map_ref_step(t->m, &in, &out);
    t->nfree = t->m->nfree;
    t->swap_used = t->m->nswap;
    if (t->jr)
        journal(t, &in);
    return t->m->q.up_ok_o != 0;
}

uint32_t zmt_held(const struct zmt *t, uint32_t id)
{
    uint32_t n = 0;
    while (n < t->nsets && hd_zorua_map_entry(t->m, id, n, NULL) != 0)
        n++;
    return n;
}

uint32_t zmt_over(const struct zmt *t, uint32_t n)
{
    return n > t->nfree ? n - t->nfree : 0;
}

int zmt_grow(struct zmt *t, uint32_t id, uint32_t to, uint32_t swap_limit, bool force)
{
    const uint32_t from = zmt_held(t, id);
    if (id >= t->nids || to > t->nsets)
        return -1;
    if (to <= from)
        return 0;
    const uint32_t over = zmt_over(t, to - from);
    if (over && !force && t->swap_used + over > swap_limit)
        return -1;
    /* (forced: the limit is the counter's ceiling; the table always holds rows x sets) */
    const uint32_t lim = force ? UINT32_MAX : swap_limit;
    for (uint32_t s = from; s < to; s++)
        (void)edge(t, HD_ZMAP_ALLOC, id, s, lim); /* (checked above: each is done) */
    t->allocs += to - from;
    t->swapped_allocs += over;
    return (int)over;
}

void zmt_shrink(struct zmt *t, uint32_t id, uint32_t to)
{
    if (id >= t->nids)
        return;
    for (uint32_t s = zmt_held(t, id); s-- > to;) {
        (void)edge(t, HD_ZMAP_RELEASE, id, s, 0);
        t->releases++;
    }
}

uint32_t zmt_lookup(const struct zmt *t, uint32_t id, uint32_t set)
{
    unsigned pset = 0;
    switch (hd_zorua_map_entry(t->m, id, set, &pset)) {
    case 1:
        return pset;
    case 2:
        return ZMT_SWAP;
    default:
        return ZMT_NONE;
    }
}

uint32_t zmt_translate(struct zmt *t, uint32_t id, uint32_t set)
{
    if (t->jr && !t->jn && id < t->nids && set < t->nsets) { /* the lookup port: one lookup
                                                              while no update waits */
        struct hd_zorua_map_in in = {0};
        struct hd_zorua_map_out out;
        in.lk_v_i = 1;
        in.lk_row_i = id;
        in.lk_set_i = set;
        hd_zorua_map_ref_step(t->m, &in, &out); /* (a lookup changes no state) */
        journal(t, &in);
    }
    return zmt_lookup(t, id, set);
}

bool zmt_spill(struct zmt *t, uint32_t id, uint32_t set)
{
    if (zmt_lookup(t, id, set) >= ZMT_SWAP || !edge(t, HD_ZMAP_SPILL, id, set, UINT32_MAX))
        return false;
    t->spills++;
    return true;
}

bool zmt_fill(struct zmt *t, uint32_t id, uint32_t set)
{
    if (zmt_lookup(t, id, set) != ZMT_SWAP || !t->nfree || !edge(t, HD_ZMAP_FILL, id, set, 0))
        return false;
    t->fills++;
    return true;
}

uint32_t zmt_word(const struct zmt *t, uint32_t id, uint32_t set)
{
    const uint32_t l = zmt_lookup(t, id, set);
    return l < ZMT_SWAP ? (1u << t->pbits) | l : 0u;
}

uint32_t zmt_bits(const struct zmt *t)
{
    return t->nids * t->nsets * (1 + t->pbits);
}
